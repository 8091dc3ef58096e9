/* Bad-input catalogue: datatypes (docs/errors.md). Every constructor (and its _c
 * variant), MPI_Type_commit/free/dup, the queries (size, extents, envelope, contents,
 * names), MPI_Get_address, MPI_Pack/MPI_Unpack/MPI_Pack_size, MPI_Get_count,
 * MPI_Get_elements and MPI_Status_set_elements. The _c variants are MPI-4 (not in Open
 * MPI 4.1): built only where MPI_VERSION >= 4.
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1): MPI_ERR_TYPE (invalid datatype:
 * MPI_DATATYPE_NULL, an uncommitted type where a committed one is needed, 5.1.9, a
 * predefined type given to MPI_Type_free, 5.1.10), MPI_ERR_COUNT (negative count),
 * MPI_ERR_ARG (other invalid arguments: negative block lengths, subarray shapes,
 * 5.1.3), MPI_ERR_COMM (MPI_Pack's communicator), MPI_ERR_TRUNCATE (MPI_Pack/MPI_Unpack
 * past the end of the packed buffer, 5.2). NULL output pointers and freed handles are
 * shmpi's promise (IMPL), except where MPICH and Open MPI answer with the same class
 * (STD). */
#include <limits.h>

#include "bad_input.h"

static MPI_Datatype untype, deadtype, vec, hugetype, newt, tnull[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL},
                                               tint[2] = {MPI_INT, MPI_INT};
static int blen[2] = {1, 1}, bneg[2] = {-1, 1}, disp[2] = {0, 2};
static MPI_Aint adisp[2] = {0, 8};
static int sizes[2] = {4, 4}, sizes0[2] = {0, 4}, subs[2] = {2, 2}, subs_big[2] = {5, 2}, starts[2] = {0, 0},
           starts_bad[2] = {3, 0};
static int *inbuf, *packbuf, pos, pos_big, isz, ints[8], num[4];
static MPI_Aint aint_out, aint_out2, addrs[8];
static MPI_Count cnt_out, cnt_out2;
static MPI_Datatype dts[4];
static MPI_Status st;
static char name[MPI_MAX_OBJECT_NAME];
#if MPI_VERSION >= 4
static MPI_Datatype ctype; /* built by a large-count constructor */
static MPI_Count cblen[2] = {1, 1}, cbneg[2] = {-1, 1}, cdisp[2] = {0, 2}, cadisp[2] = {0, 8};
static MPI_Count csizes[2] = {4, 4}, csubs[2] = {2, 2}, cstarts[2] = {0, 0}, cpos, cpos_big = 100;
#endif

static void setup(void) {
  /* Every type is made before deadtype is freed: none may reuse its handle. */
#if MPI_VERSION >= 4
  CHECK_MPI(MPI_Type_contiguous_c(2, MPI_INT, &ctype));
#endif
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &untype));
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  CHECK_MPI(MPI_Type_contiguous(1 << 30, MPI_DOUBLE, &hugetype)); /* 8 GiB */
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &deadtype));
  MPI_Datatype t = deadtype;
  CHECK_MPI(MPI_Type_free(&t));
  inbuf = (int*)guarded_alloc(16 * sizeof(int));
  packbuf = (int*)guarded_alloc(16 * sizeof(int));
  for (int i = 0; i < 16; ++i) inbuf[i] = i;
  newt = MPI_DATATYPE_NULL;
  pos = 0;
  pos_big = 100;
  /* a status of 8 received bytes */
  CHECK_MPI(MPI_Status_set_elements(&st, MPI_BYTE, 8));
  watch(inbuf, 16 * sizeof(int));
  watch(packbuf, 16 * sizeof(int));
  watch(&newt, sizeof newt);
  watch(&pos, sizeof pos);
  watch(&pos_big, sizeof pos_big);
  watch(&isz, sizeof isz);
  watch(ints, sizeof ints);
  watch(num, sizeof num);
  watch(&aint_out, sizeof aint_out);
  watch(&aint_out2, sizeof aint_out2);
  watch(addrs, sizeof addrs);
  watch(&cnt_out, sizeof cnt_out);
  watch(&cnt_out2, sizeof cnt_out2);
  watch(dts, sizeof dts);
  watch(&st, sizeof st);
  watch(name, sizeof name);
#if MPI_VERSION >= 4
  watch(&cpos, sizeof cpos);
  watch(&cpos_big, sizeof cpos_big);
#endif
}

static void teardown(void) {
  CHECK_MPI(MPI_Type_free(&untype));
  CHECK_MPI(MPI_Type_free(&vec));
  CHECK_MPI(MPI_Type_free(&hugetype));
#if MPI_VERSION >= 4
  CHECK_MPI(MPI_Type_free(&ctype));
#endif
}

/* Rows every constructor shares: CALL(oldtype, newtype_ptr). */
#define OLDNEW_ROWS(X, P, F, CALL)                                                                             \
  X(P##_oldtype, #F, "oldtype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD, CALL(MPI_DATATYPE_NULL, &newt))        \
  X(P##_oldtype_freed, #F, "oldtype", "freed datatype", MPI_ERR_TYPE, IMPL, CALL(deadtype, &newt))            \
  X(P##_newtype, #F, "newtype", "NULL", MPI_ERR_ARG, IMPL, CALL(MPI_INT, NULL))

#define CONTIG(o, n) MPI_Type_contiguous(2, o, n)
#define VECTOR(o, n) MPI_Type_vector(2, 1, 2, o, n)
#define HVECTOR(o, n) MPI_Type_create_hvector(2, 1, 8, o, n)
#define INDEXED(o, n) MPI_Type_indexed(2, blen, disp, o, n)
#define HINDEXED(o, n) MPI_Type_create_hindexed(2, blen, adisp, o, n)
#define IBLOCK(o, n) MPI_Type_create_indexed_block(2, 1, disp, o, n)
#define HIBLOCK(o, n) MPI_Type_create_hindexed_block(2, 1, adisp, o, n)
#define RESIZED(o, n) MPI_Type_create_resized(o, 0, 16, n)
#define SUBARRAY(o, n) MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, o, n)
#define DUP(o, n) MPI_Type_dup(o, n)

#define CONSTRUCTOR_ROWS(X)                                                                                      \
  X(contiguous_count, "MPI_Type_contiguous", "count", "-1", MPI_ERR_COUNT, STD, MPI_Type_contiguous(-1, MPI_INT, &newt)) \
  OLDNEW_ROWS(X, contiguous, MPI_Type_contiguous, CONTIG)                                                        \
  X(contiguous_overflow, "MPI_Type_contiguous", "count", "INT_MAX of an 8 GiB type (size 2^64)", MPI_ERR_ARG, IMPL, \
    MPI_Type_contiguous(INT_MAX, hugetype, &newt))                                                               \
  X(vector_count, "MPI_Type_vector", "count", "-1", MPI_ERR_COUNT, STD, MPI_Type_vector(-1, 1, 2, MPI_INT, &newt)) \
  X(vector_blocklength, "MPI_Type_vector", "blocklength", "-1", MPI_ERR_ARG, IMPL,                                \
    MPI_Type_vector(2, -1, 2, MPI_INT, &newt))                                                                   \
  OLDNEW_ROWS(X, vector, MPI_Type_vector, VECTOR)                                                                \
  X(vector_overflow, "MPI_Type_vector", "count", "INT_MAX blocks of an 8 GiB type (size 2^64)", MPI_ERR_ARG, IMPL, \
    MPI_Type_vector(INT_MAX, 1, 1, hugetype, &newt))                                                             \
  X(vector_stride_overflow, "MPI_Type_vector", "stride", "INT_MAX extents of an 8 GiB type", MPI_ERR_ARG, IMPL,   \
    MPI_Type_vector(2, 1, INT_MAX, hugetype, &newt))                                                             \
  X(hvector_count, "MPI_Type_create_hvector", "count", "-1", MPI_ERR_COUNT, STD,                                \
    MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &newt))                                                           \
  X(hvector_blocklength, "MPI_Type_create_hvector", "blocklength", "-1", MPI_ERR_ARG, IMPL,                      \
    MPI_Type_create_hvector(2, -1, 8, MPI_INT, &newt))                                                           \
  OLDNEW_ROWS(X, hvector, MPI_Type_create_hvector, HVECTOR)                                                      \
  X(indexed_count, "MPI_Type_indexed", "count", "-1", MPI_ERR_COUNT, STD, MPI_Type_indexed(-1, blen, disp, MPI_INT, &newt)) \
  X(indexed_blocklengths, "MPI_Type_indexed", "array_of_blocklengths", "NULL", MPI_ERR_ARG, STD,               \
    MPI_Type_indexed(2, NULL, disp, MPI_INT, &newt))                                                             \
  X(indexed_displacements, "MPI_Type_indexed", "array_of_displacements", "NULL", MPI_ERR_ARG, STD,             \
    MPI_Type_indexed(2, blen, NULL, MPI_INT, &newt))                                                             \
  X(indexed_blocklength_neg, "MPI_Type_indexed", "array_of_blocklengths[0]", "-1", MPI_ERR_ARG, IMPL,            \
    MPI_Type_indexed(2, bneg, disp, MPI_INT, &newt))                                                             \
  OLDNEW_ROWS(X, indexed, MPI_Type_indexed, INDEXED)                                                             \
  X(hindexed_count, "MPI_Type_create_hindexed", "count", "-1", MPI_ERR_COUNT, STD,                              \
    MPI_Type_create_hindexed(-1, blen, adisp, MPI_INT, &newt))                                                   \
  X(hindexed_blocklengths, "MPI_Type_create_hindexed", "array_of_blocklengths", "NULL", MPI_ERR_ARG, STD,      \
    MPI_Type_create_hindexed(2, NULL, adisp, MPI_INT, &newt))                                                    \
  X(hindexed_displacements, "MPI_Type_create_hindexed", "array_of_displacements", "NULL", MPI_ERR_ARG, STD,    \
    MPI_Type_create_hindexed(2, blen, NULL, MPI_INT, &newt))                                                     \
  X(hindexed_blocklength_neg, "MPI_Type_create_hindexed", "array_of_blocklengths[0]", "-1", MPI_ERR_ARG, IMPL,   \
    MPI_Type_create_hindexed(2, bneg, adisp, MPI_INT, &newt))                                                    \
  OLDNEW_ROWS(X, hindexed, MPI_Type_create_hindexed, HINDEXED)                                                   \
  X(indexed_block_count, "MPI_Type_create_indexed_block", "count", "-1", MPI_ERR_COUNT, STD,                    \
    MPI_Type_create_indexed_block(-1, 1, disp, MPI_INT, &newt))                                                  \
  X(indexed_block_blocklength, "MPI_Type_create_indexed_block", "blocklength", "-1", MPI_ERR_ARG, IMPL,          \
    MPI_Type_create_indexed_block(2, -1, disp, MPI_INT, &newt))                                                  \
  X(indexed_block_displacements, "MPI_Type_create_indexed_block", "array_of_displacements", "NULL", MPI_ERR_ARG, \
    STD, MPI_Type_create_indexed_block(2, 1, NULL, MPI_INT, &newt))                                             \
  OLDNEW_ROWS(X, indexed_block, MPI_Type_create_indexed_block, IBLOCK)                                           \
  X(hindexed_block_count, "MPI_Type_create_hindexed_block", "count", "-1", MPI_ERR_COUNT, STD,                  \
    MPI_Type_create_hindexed_block(-1, 1, adisp, MPI_INT, &newt))                                                \
  X(hindexed_block_blocklength, "MPI_Type_create_hindexed_block", "blocklength", "-1", MPI_ERR_ARG, IMPL,        \
    MPI_Type_create_hindexed_block(2, -1, adisp, MPI_INT, &newt))                                                \
  X(hindexed_block_displacements, "MPI_Type_create_hindexed_block", "array_of_displacements", "NULL",           \
    MPI_ERR_ARG, STD, MPI_Type_create_hindexed_block(2, 1, NULL, MPI_INT, &newt))                               \
  OLDNEW_ROWS(X, hindexed_block, MPI_Type_create_hindexed_block, HIBLOCK)                                        \
  X(struct_count, "MPI_Type_create_struct", "count", "-1", MPI_ERR_COUNT, STD,                                  \
    MPI_Type_create_struct(-1, blen, adisp, tint, &newt))                                                        \
  X(struct_blocklengths, "MPI_Type_create_struct", "array_of_blocklengths", "NULL", MPI_ERR_ARG, STD,          \
    MPI_Type_create_struct(2, NULL, adisp, tint, &newt))                                                         \
  X(struct_displacements, "MPI_Type_create_struct", "array_of_displacements", "NULL", MPI_ERR_ARG, STD,        \
    MPI_Type_create_struct(2, blen, NULL, tint, &newt))                                                          \
  X(struct_types, "MPI_Type_create_struct", "array_of_types", "NULL", MPI_ERR_ARG, STD,                        \
    MPI_Type_create_struct(2, blen, adisp, NULL, &newt))                                                         \
  X(struct_type_null, "MPI_Type_create_struct", "array_of_types[0]", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,    \
    MPI_Type_create_struct(2, blen, adisp, tnull, &newt))                                                        \
  X(struct_blocklength_neg, "MPI_Type_create_struct", "array_of_blocklengths[0]", "-1", MPI_ERR_ARG, IMPL,       \
    MPI_Type_create_struct(2, bneg, adisp, tint, &newt))                                                         \
  X(struct_newtype, "MPI_Type_create_struct", "newtype", "NULL", MPI_ERR_ARG, IMPL,                             \
    MPI_Type_create_struct(2, blen, adisp, tint, NULL))                                                          \
  OLDNEW_ROWS(X, resized, MPI_Type_create_resized, RESIZED)                                                      \
  X(subarray_ndims, "MPI_Type_create_subarray", "ndims", "0", MPI_ERR_ARG, IMPL,                                \
    MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &newt))                               \
  X(subarray_sizes_ptr, "MPI_Type_create_subarray", "array_of_sizes", "NULL", MPI_ERR_ARG, IMPL,                \
    MPI_Type_create_subarray(2, NULL, subs, starts, MPI_ORDER_C, MPI_INT, &newt))                                \
  X(subarray_order, "MPI_Type_create_subarray", "order", "-5", MPI_ERR_ARG, STD,                                \
    MPI_Type_create_subarray(2, sizes, subs, starts, -5, MPI_INT, &newt))                                        \
  X(subarray_sizes, "MPI_Type_create_subarray", "array_of_sizes[0]", "0", MPI_ERR_ARG, IMPL,                     \
    MPI_Type_create_subarray(2, sizes0, subs, starts, MPI_ORDER_C, MPI_INT, &newt))                              \
  X(subarray_subsizes, "MPI_Type_create_subarray", "array_of_subsizes[0]", "5 (> size 4)", MPI_ERR_ARG, IMPL,    \
    MPI_Type_create_subarray(2, sizes, subs_big, starts, MPI_ORDER_C, MPI_INT, &newt))                           \
  X(subarray_starts, "MPI_Type_create_subarray", "array_of_starts[0]", "3 (> size - subsize)", MPI_ERR_ARG, IMPL, \
    MPI_Type_create_subarray(2, sizes, subs, starts_bad, MPI_ORDER_C, MPI_INT, &newt))                           \
  OLDNEW_ROWS(X, subarray, MPI_Type_create_subarray, SUBARRAY)                                                   \
  OLDNEW_ROWS(X, dup, MPI_Type_dup, DUP)                                                                         \
  X(commit_ptr, "MPI_Type_commit", "datatype", "NULL", MPI_ERR_ARG, IMPL, MPI_Type_commit(NULL))                \
  X(commit_null, "MPI_Type_commit", "*datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD, MPI_Type_commit(&tnull[0])) \
  X(commit_freed, "MPI_Type_commit", "*datatype", "freed datatype", MPI_ERR_TYPE, IMPL, MPI_Type_commit(&deadtype)) \
  X(free_ptr, "MPI_Type_free", "datatype", "NULL", MPI_ERR_ARG, IMPL, MPI_Type_free(NULL))                      \
  X(free_null, "MPI_Type_free", "*datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD, MPI_Type_free(&tnull[0]))  \
  X(free_freed, "MPI_Type_free", "*datatype", "freed datatype", MPI_ERR_TYPE, IMPL, MPI_Type_free(&deadtype))   \
  X(free_predefined, "MPI_Type_free", "*datatype", "MPI_INT (predefined)", MPI_ERR_TYPE, STD, MPI_Type_free(&tint[0]))

/* A query Q(datatype, out...) with OUT the valid outputs and NOUT with one NULL. */
#define QUERY_ROWS(X, P, F, OUT, NULLNAME, NOUT)                                                                \
  X(P##_datatype, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD, F(MPI_DATATYPE_NULL, OUT))           \
  X(P##_freed, #F, "datatype", "freed datatype", MPI_ERR_TYPE, IMPL, F(deadtype, OUT))                          \
  X(P##_out, #F, NULLNAME, "NULL", MPI_ERR_ARG, STD, F(MPI_INT, NOUT))

#define COMMA ,
#define QUERYS_ROWS(X)                                                                                          \
  QUERY_ROWS(X, type_size, MPI_Type_size, &isz, "size", NULL)                                                   \
  QUERY_ROWS(X, type_size_x, MPI_Type_size_x, &cnt_out, "size", NULL)                                           \
  QUERY_ROWS(X, get_extent, MPI_Type_get_extent, &aint_out COMMA & aint_out2, "extent", &aint_out COMMA NULL)  \
  QUERY_ROWS(X, get_extent_x, MPI_Type_get_extent_x, &cnt_out COMMA & cnt_out2, "extent", &cnt_out COMMA NULL) \
  QUERY_ROWS(X, get_true_extent, MPI_Type_get_true_extent, &aint_out COMMA & aint_out2, "true_extent",          \
             &aint_out COMMA NULL)                                                                              \
  QUERY_ROWS(X, get_true_extent_x, MPI_Type_get_true_extent_x, &cnt_out COMMA & cnt_out2, "true_extent",       \
             &cnt_out COMMA NULL)                                                                               \
  QUERY_ROWS(X, get_envelope, MPI_Type_get_envelope, &num[0] COMMA & num[1] COMMA & num[2] COMMA & num[3],     \
             "combiner", &num[0] COMMA & num[1] COMMA & num[2] COMMA NULL)                                      \
  X(get_contents_datatype, "MPI_Type_get_contents", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,        \
    MPI_Type_get_contents(MPI_DATATYPE_NULL, 8, 8, 4, ints, addrs, dts))                                        \
  X(get_contents_named, "MPI_Type_get_contents", "datatype", "MPI_INT (named)", MPI_ERR_TYPE, IMPL,             \
    MPI_Type_get_contents(MPI_INT, 8, 8, 4, ints, addrs, dts))                                                  \
  X(get_contents_max_integers, "MPI_Type_get_contents", "max_integers", "0 (type has 3)", MPI_ERR_ARG, IMPL,    \
    MPI_Type_get_contents(vec, 0, 8, 4, ints, addrs, dts))                                                      \
  X(get_contents_max_datatypes, "MPI_Type_get_contents", "max_datatypes", "0 (type has 1)", MPI_ERR_ARG, IMPL,  \
    MPI_Type_get_contents(vec, 8, 8, 0, ints, addrs, dts))                                                      \
  X(set_name_datatype, "MPI_Type_set_name", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                \
    MPI_Type_set_name(MPI_DATATYPE_NULL, "x"))                                                                  \
  X(set_name_name, "MPI_Type_set_name", "type_name", "NULL", MPI_ERR_ARG, STD, MPI_Type_set_name(vec, NULL))   \
  X(get_name_datatype, "MPI_Type_get_name", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                \
    MPI_Type_get_name(MPI_DATATYPE_NULL, name, &isz))                                                           \
  X(get_name_name, "MPI_Type_get_name", "type_name", "NULL", MPI_ERR_ARG, STD, MPI_Type_get_name(vec, NULL, &isz)) \
  X(get_name_resultlen, "MPI_Type_get_name", "resultlen", "NULL", MPI_ERR_ARG, STD, MPI_Type_get_name(vec, name, NULL)) \
  X(get_address_address, "MPI_Get_address", "address", "NULL", MPI_ERR_ARG, STD, MPI_Get_address(inbuf, NULL))

#define PACK_ROWS(X)                                                                                            \
  X(pack_comm, "MPI_Pack", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,                                         \
    MPI_Pack(inbuf, 2, MPI_INT, packbuf, 64, &pos, MPI_COMM_NULL))                                              \
  X(pack_incount, "MPI_Pack", "incount", "-1", MPI_ERR_COUNT, STD, MPI_Pack(inbuf, -1, MPI_INT, packbuf, 64, &pos, MPI_COMM_WORLD)) \
  X(pack_datatype, "MPI_Pack", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                             \
    MPI_Pack(inbuf, 2, MPI_DATATYPE_NULL, packbuf, 64, &pos, MPI_COMM_WORLD))                                   \
  X(pack_uncommitted, "MPI_Pack", "datatype", "uncommitted", MPI_ERR_TYPE, STD,                                \
    MPI_Pack(inbuf, 2, untype, packbuf, 64, &pos, MPI_COMM_WORLD))                                              \
  X(pack_position, "MPI_Pack", "position", "NULL", MPI_ERR_ARG, STD, MPI_Pack(inbuf, 2, MPI_INT, packbuf, 64, NULL, MPI_COMM_WORLD)) \
  X(pack_position_range, "MPI_Pack", "*position", "100 (> outsize 64)", MPI_ERR_ARG, IMPL,                     \
    MPI_Pack(inbuf, 2, MPI_INT, packbuf, 64, &pos_big, MPI_COMM_WORLD))                                         \
  X(pack_outsize, "MPI_Pack", "outsize", "4 (8 bytes to pack)", MPI_ERR_TRUNCATE, IMPL,                         \
    MPI_Pack(inbuf, 2, MPI_INT, packbuf, 4, &pos, MPI_COMM_WORLD))                                              \
  X(pack_outbuf, "MPI_Pack", "outbuf", "NULL", MPI_ERR_BUFFER, IMPL, MPI_Pack(inbuf, 2, MPI_INT, NULL, 64, &pos, MPI_COMM_WORLD)) \
  X(pack_inbuf, "MPI_Pack", "inbuf", "NULL (incount 2 of MPI_INT)", MPI_ERR_BUFFER, IMPL,                        \
    MPI_Pack(NULL, 2, MPI_INT, packbuf, 64, &pos, MPI_COMM_WORLD))                                              \
  X(unpack_comm, "MPI_Unpack", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,                                     \
    MPI_Unpack(inbuf, 64, &pos, packbuf, 2, MPI_INT, MPI_COMM_NULL))                                            \
  X(unpack_outcount, "MPI_Unpack", "outcount", "-1", MPI_ERR_COUNT, STD,                                       \
    MPI_Unpack(inbuf, 64, &pos, packbuf, -1, MPI_INT, MPI_COMM_WORLD))                                          \
  X(unpack_datatype, "MPI_Unpack", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                         \
    MPI_Unpack(inbuf, 64, &pos, packbuf, 2, MPI_DATATYPE_NULL, MPI_COMM_WORLD))                                 \
  X(unpack_uncommitted, "MPI_Unpack", "datatype", "uncommitted", MPI_ERR_TYPE, STD,                            \
    MPI_Unpack(inbuf, 64, &pos, packbuf, 2, untype, MPI_COMM_WORLD))                                            \
  X(unpack_position, "MPI_Unpack", "position", "NULL", MPI_ERR_ARG, STD,                                      \
    MPI_Unpack(inbuf, 64, NULL, packbuf, 2, MPI_INT, MPI_COMM_WORLD))                                           \
  X(unpack_position_range, "MPI_Unpack", "*position", "100 (> insize 64)", MPI_ERR_ARG, IMPL,                  \
    MPI_Unpack(inbuf, 64, &pos_big, packbuf, 2, MPI_INT, MPI_COMM_WORLD))                                       \
  X(unpack_insize, "MPI_Unpack", "insize", "4 (8 bytes to unpack)", MPI_ERR_TRUNCATE, IMPL,                     \
    MPI_Unpack(inbuf, 4, &pos, packbuf, 2, MPI_INT, MPI_COMM_WORLD))                                            \
  X(unpack_inbuf, "MPI_Unpack", "inbuf", "NULL", MPI_ERR_BUFFER, IMPL,                                          \
    MPI_Unpack(NULL, 64, &pos, packbuf, 2, MPI_INT, MPI_COMM_WORLD))                                            \
  X(unpack_outbuf, "MPI_Unpack", "outbuf", "NULL (outcount 2 of MPI_INT)", MPI_ERR_BUFFER, IMPL,                \
    MPI_Unpack(inbuf, 64, &pos, NULL, 2, MPI_INT, MPI_COMM_WORLD))                                              \
  X(pack_size_comm, "MPI_Pack_size", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, MPI_Pack_size(2, MPI_INT, MPI_COMM_NULL, &isz)) \
  X(pack_size_incount, "MPI_Pack_size", "incount", "-1", MPI_ERR_COUNT, STD, MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &isz)) \
  X(pack_size_datatype, "MPI_Pack_size", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                   \
    MPI_Pack_size(2, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &isz))                                                  \
  X(pack_size_size, "MPI_Pack_size", "size", "NULL", MPI_ERR_ARG, STD, MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, NULL))

/* F(status, datatype, count); KIND: MPI_Get_count's checks differ between the peers, MPI_Get_elements's agree. */
#define STATUS_ROWS(X, P, F, CNT, KIND)                                                                               \
  X(P##_status, #F, "status", "NULL (MPI_STATUS_IGNORE)", MPI_ERR_ARG, KIND, F(NULL, MPI_INT, CNT))            \
  X(P##_datatype, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD, F(&st, MPI_DATATYPE_NULL, CNT))      \
  X(P##_uncommitted, #F, "datatype", "uncommitted", MPI_ERR_TYPE, KIND, F(&st, untype, CNT))                    \
  X(P##_count, #F, "count", "NULL", MPI_ERR_ARG, KIND, F(&st, MPI_INT, NULL))
#define SET_ELEMENTS_ROWS(X, P, F)                                                                              \
  X(P##_status, #F, "status", "NULL (MPI_STATUS_IGNORE)", MPI_ERR_ARG, IMPL, F(NULL, MPI_INT, 1))              \
  X(P##_datatype, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD, F(&st, MPI_DATATYPE_NULL, 1))        \
  X(P##_count, #F, "count", "-1", MPI_ERR_COUNT, STD, F(&st, MPI_INT, -1))

#define COUNT_ROWS(X)                                                                                           \
  STATUS_ROWS(X, get_count, MPI_Get_count, &isz, IMPL)                                                                \
  STATUS_ROWS(X, get_elements, MPI_Get_elements, &isz, STD)                                                          \
  STATUS_ROWS(X, get_elements_x, MPI_Get_elements_x, &cnt_out, STD)                                                  \
  SET_ELEMENTS_ROWS(X, set_elements, MPI_Status_set_elements)                                                   \
  SET_ELEMENTS_ROWS(X, set_elements_x, MPI_Status_set_elements_x)

#if MPI_VERSION >= 4
#define HUGE_COUNT ((MPI_Count)1 << 60)
#define CONTIG_C(o, n) MPI_Type_contiguous_c(2, o, n)
#define VECTOR_C(o, n) MPI_Type_vector_c(2, 1, 2, o, n)
#define HVECTOR_C(o, n) MPI_Type_create_hvector_c(2, 1, 8, o, n)
#define INDEXED_C(o, n) MPI_Type_indexed_c(2, cblen, cdisp, o, n)
#define HINDEXED_C(o, n) MPI_Type_create_hindexed_c(2, cblen, cadisp, o, n)
#define IBLOCK_C(o, n) MPI_Type_create_indexed_block_c(2, 1, cdisp, o, n)
#define HIBLOCK_C(o, n) MPI_Type_create_hindexed_block_c(2, 1, cadisp, o, n)
#define RESIZED_C(o, n) MPI_Type_create_resized_c(o, 0, 16, n)
#define SUBARRAY_C(o, n) MPI_Type_create_subarray_c(2, csizes, csubs, cstarts, MPI_ORDER_C, o, n)
#define ROWS_C(X)                                                                                               \
  X(contiguous_c_count, "MPI_Type_contiguous_c", "count", "-1", MPI_ERR_COUNT, STD,                            \
    MPI_Type_contiguous_c(-1, MPI_INT, &newt))                                                                  \
  OLDNEW_ROWS(X, contiguous_c, MPI_Type_contiguous_c, CONTIG_C)                                                 \
  X(vector_c_count, "MPI_Type_vector_c", "count", "-1", MPI_ERR_COUNT, STD, MPI_Type_vector_c(-1, 1, 2, MPI_INT, &newt)) \
  X(vector_c_blocklength, "MPI_Type_vector_c", "blocklength", "-1", MPI_ERR_ARG, IMPL,                          \
    MPI_Type_vector_c(2, -1, 2, MPI_INT, &newt))                                                                \
  OLDNEW_ROWS(X, vector_c, MPI_Type_vector_c, VECTOR_C)                                                         \
  X(hvector_c_count, "MPI_Type_create_hvector_c", "count", "-1", MPI_ERR_COUNT, STD,                           \
    MPI_Type_create_hvector_c(-1, 1, 8, MPI_INT, &newt))                                                        \
  X(hvector_c_blocklength, "MPI_Type_create_hvector_c", "blocklength", "-1", MPI_ERR_ARG, IMPL,                 \
    MPI_Type_create_hvector_c(2, -1, 8, MPI_INT, &newt))                                                        \
  OLDNEW_ROWS(X, hvector_c, MPI_Type_create_hvector_c, HVECTOR_C)                                               \
  X(indexed_c_count, "MPI_Type_indexed_c", "count", "-1", MPI_ERR_COUNT, STD,                                  \
    MPI_Type_indexed_c(-1, cblen, cdisp, MPI_INT, &newt))                                                       \
  X(indexed_c_blocklengths, "MPI_Type_indexed_c", "array_of_blocklengths", "NULL", MPI_ERR_ARG, STD,          \
    MPI_Type_indexed_c(2, NULL, cdisp, MPI_INT, &newt))                                                         \
  X(indexed_c_blocklength_neg, "MPI_Type_indexed_c", "array_of_blocklengths[0]", "-1", MPI_ERR_ARG, IMPL,       \
    MPI_Type_indexed_c(2, cbneg, cdisp, MPI_INT, &newt))                                                        \
  OLDNEW_ROWS(X, indexed_c, MPI_Type_indexed_c, INDEXED_C)                                                      \
  X(hindexed_c_count, "MPI_Type_create_hindexed_c", "count", "-1", MPI_ERR_COUNT, STD,                         \
    MPI_Type_create_hindexed_c(-1, cblen, cadisp, MPI_INT, &newt))                                              \
  X(hindexed_c_displacements, "MPI_Type_create_hindexed_c", "array_of_displacements", "NULL", MPI_ERR_ARG,     \
    STD, MPI_Type_create_hindexed_c(2, cblen, NULL, MPI_INT, &newt))                                           \
  OLDNEW_ROWS(X, hindexed_c, MPI_Type_create_hindexed_c, HINDEXED_C)                                            \
  X(indexed_block_c_count, "MPI_Type_create_indexed_block_c", "count", "-1", MPI_ERR_COUNT, STD,               \
    MPI_Type_create_indexed_block_c(-1, 1, cdisp, MPI_INT, &newt))                                              \
  X(indexed_block_c_blocklength, "MPI_Type_create_indexed_block_c", "blocklength", "-1", MPI_ERR_ARG, IMPL,     \
    MPI_Type_create_indexed_block_c(2, -1, cdisp, MPI_INT, &newt))                                              \
  OLDNEW_ROWS(X, indexed_block_c, MPI_Type_create_indexed_block_c, IBLOCK_C)                                    \
  X(hindexed_block_c_count, "MPI_Type_create_hindexed_block_c", "count", "-1", MPI_ERR_COUNT, STD,             \
    MPI_Type_create_hindexed_block_c(-1, 1, cadisp, MPI_INT, &newt))                                            \
  X(hindexed_block_c_blocklength, "MPI_Type_create_hindexed_block_c", "blocklength", "-1", MPI_ERR_ARG, IMPL,   \
    MPI_Type_create_hindexed_block_c(2, -1, cadisp, MPI_INT, &newt))                                            \
  OLDNEW_ROWS(X, hindexed_block_c, MPI_Type_create_hindexed_block_c, HIBLOCK_C)                                 \
  X(struct_c_count, "MPI_Type_create_struct_c", "count", "-1", MPI_ERR_COUNT, STD,                             \
    MPI_Type_create_struct_c(-1, cblen, cadisp, tint, &newt))                                                   \
  X(indexed_c_count_huge, "MPI_Type_indexed_c", "count", "2^60 (no memory holds the arrays)", MPI_ERR_NO_MEM,  \
    IMPL, MPI_Type_indexed_c(HUGE_COUNT, cblen, cdisp, MPI_INT, &newt))                                          \
  X(hindexed_c_count_huge, "MPI_Type_create_hindexed_c", "count", "2^60 (no memory holds the arrays)",          \
    MPI_ERR_NO_MEM, IMPL, MPI_Type_create_hindexed_c(HUGE_COUNT, cblen, cadisp, MPI_INT, &newt))                 \
  X(indexed_block_c_count_huge, "MPI_Type_create_indexed_block_c", "count", "2^60 (no memory holds the arrays)", \
    MPI_ERR_NO_MEM, IMPL, MPI_Type_create_indexed_block_c(HUGE_COUNT, 1, cdisp, MPI_INT, &newt))                 \
  X(hindexed_block_c_count_huge, "MPI_Type_create_hindexed_block_c", "count", "2^60 (no memory holds the arrays)", \
    MPI_ERR_NO_MEM, IMPL, MPI_Type_create_hindexed_block_c(HUGE_COUNT, 1, cadisp, MPI_INT, &newt))               \
  X(struct_c_count_huge, "MPI_Type_create_struct_c", "count", "2^60 (no memory holds the arrays)", MPI_ERR_NO_MEM, \
    IMPL, MPI_Type_create_struct_c(HUGE_COUNT, cblen, cadisp, tint, &newt))                                      \
  X(struct_c_type_null, "MPI_Type_create_struct_c", "array_of_types[0]", "MPI_DATATYPE_NULL", MPI_ERR_TYPE,    \
    STD, MPI_Type_create_struct_c(2, cblen, cadisp, tnull, &newt))                                              \
  X(struct_c_blocklength_neg, "MPI_Type_create_struct_c", "array_of_blocklengths[0]", "-1", MPI_ERR_ARG, IMPL,  \
    MPI_Type_create_struct_c(2, cbneg, cadisp, tint, &newt))                                                    \
  X(struct_c_newtype, "MPI_Type_create_struct_c", "newtype", "NULL", MPI_ERR_ARG, IMPL,                        \
    MPI_Type_create_struct_c(2, cblen, cadisp, tint, NULL))                                                     \
  OLDNEW_ROWS(X, resized_c, MPI_Type_create_resized_c, RESIZED_C)                                               \
  X(subarray_c_ndims, "MPI_Type_create_subarray_c", "ndims", "0", MPI_ERR_ARG, IMPL,                           \
    MPI_Type_create_subarray_c(0, csizes, csubs, cstarts, MPI_ORDER_C, MPI_INT, &newt))                         \
  X(subarray_c_order, "MPI_Type_create_subarray_c", "order", "-5", MPI_ERR_ARG, STD,                           \
    MPI_Type_create_subarray_c(2, csizes, csubs, cstarts, -5, MPI_INT, &newt))                                  \
  OLDNEW_ROWS(X, subarray_c, MPI_Type_create_subarray_c, SUBARRAY_C)                                            \
  QUERY_ROWS(X, type_size_c, MPI_Type_size_c, &cnt_out, "size", NULL)                                           \
  QUERY_ROWS(X, get_extent_c, MPI_Type_get_extent_c, &cnt_out COMMA & cnt_out2, "extent", &cnt_out COMMA NULL) \
  QUERY_ROWS(X, get_true_extent_c, MPI_Type_get_true_extent_c, &cnt_out COMMA & cnt_out2, "true_extent",       \
             &cnt_out COMMA NULL)                                                                               \
  X(get_envelope_c_datatype, "MPI_Type_get_envelope_c", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,    \
    MPI_Type_get_envelope_c(MPI_DATATYPE_NULL, &cnt_out, &cnt_out, &cnt_out, &cnt_out, &isz))                   \
  X(get_envelope_c_out, "MPI_Type_get_envelope_c", "combiner", "NULL", MPI_ERR_ARG, STD,                     \
    MPI_Type_get_envelope_c(MPI_INT, &cnt_out, &cnt_out, &cnt_out, &cnt_out, NULL))                             \
  X(get_envelope_large, "MPI_Type_get_envelope", "datatype", "built by MPI_Type_contiguous_c", MPI_ERR_TYPE, IMPL, \
    MPI_Type_get_envelope(ctype, &num[0], &num[1], &num[2], &num[3]))                                           \
  X(get_contents_large, "MPI_Type_get_contents", "datatype", "built by MPI_Type_contiguous_c", MPI_ERR_TYPE, IMPL, \
    MPI_Type_get_contents(ctype, 8, 8, 4, ints, addrs, dts))                                                    \
  X(get_contents_c_datatype, "MPI_Type_get_contents_c", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,    \
    MPI_Type_get_contents_c(MPI_DATATYPE_NULL, 8, 8, 8, 4, ints, addrs, &cnt_out, dts))                         \
  X(get_contents_c_named, "MPI_Type_get_contents_c", "datatype", "MPI_INT (named)", MPI_ERR_TYPE, IMPL,         \
    MPI_Type_get_contents_c(MPI_INT, 8, 8, 8, 4, ints, addrs, &cnt_out, dts))                                   \
  X(pack_c_incount, "MPI_Pack_c", "incount", "-1", MPI_ERR_COUNT, STD,                                         \
    MPI_Pack_c(inbuf, -1, MPI_INT, packbuf, 64, &cpos, MPI_COMM_WORLD))                                         \
  X(pack_c_datatype, "MPI_Pack_c", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                         \
    MPI_Pack_c(inbuf, 2, MPI_DATATYPE_NULL, packbuf, 64, &cpos, MPI_COMM_WORLD))                                \
  X(pack_c_comm, "MPI_Pack_c", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,                                     \
    MPI_Pack_c(inbuf, 2, MPI_INT, packbuf, 64, &cpos, MPI_COMM_NULL))                                           \
  X(pack_c_position_range, "MPI_Pack_c", "*position", "100 (> outsize 64)", MPI_ERR_ARG, IMPL,                 \
    MPI_Pack_c(inbuf, 2, MPI_INT, packbuf, 64, &cpos_big, MPI_COMM_WORLD))                                      \
  X(unpack_c_outcount, "MPI_Unpack_c", "outcount", "-1", MPI_ERR_COUNT, STD,                                   \
    MPI_Unpack_c(inbuf, 64, &cpos, packbuf, -1, MPI_INT, MPI_COMM_WORLD))                                       \
  X(unpack_c_datatype, "MPI_Unpack_c", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                     \
    MPI_Unpack_c(inbuf, 64, &cpos, packbuf, 2, MPI_DATATYPE_NULL, MPI_COMM_WORLD))                              \
  X(unpack_c_comm, "MPI_Unpack_c", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,                                 \
    MPI_Unpack_c(inbuf, 64, &cpos, packbuf, 2, MPI_INT, MPI_COMM_NULL))                                         \
  X(pack_size_c_incount, "MPI_Pack_size_c", "incount", "-1", MPI_ERR_COUNT, STD,                               \
    MPI_Pack_size_c(-1, MPI_INT, MPI_COMM_WORLD, &cnt_out))                                                     \
  X(pack_size_c_datatype, "MPI_Pack_size_c", "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,               \
    MPI_Pack_size_c(2, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &cnt_out))                                            \
  STATUS_ROWS(X, get_count_c, MPI_Get_count_c, &cnt_out, IMPL)                                                        \
  STATUS_ROWS(X, get_elements_c, MPI_Get_elements_c, &cnt_out, STD)                                                  \
  ROWS_SET_C(X)
#else
#define ROWS_C(X)
#endif

/* MPI_Status_set_elements_c: in shmpi's (MPI-5 ABI) mpi.h, not in MPICH 4.0's. */
#if MPI_VERSION >= 5
#define ROWS_SET_C(X) SET_ELEMENTS_ROWS(X, set_elements_c, MPI_Status_set_elements_c)
#else
#define ROWS_SET_C(X)
#endif

#define ROWS(X) CONSTRUCTOR_ROWS(X) QUERYS_ROWS(X) PACK_ROWS(X) COUNT_ROWS(X) ROWS_C(X)

BAD_INPUT_MAIN("Datatypes", ROWS, setup, teardown)
