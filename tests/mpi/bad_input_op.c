/* Bad-input catalogue: reduction operations (MPI-4.1 6.9): MPI_Op_create(_c),
 * MPI_Op_free, MPI_Op_commutative, MPI_Reduce_local(_c). Local calls, so every rank
 * makes each row on its own.
 *
 * Classes: MPI_ERR_OP for MPI_OP_NULL, a freed op, a predefined op given to
 * MPI_Op_free and a predefined op on a type outside its groups (6.9.2: the ops are
 * defined only for the listed types); MPI_ERR_TYPE, MPI_ERR_COUNT, MPI_ERR_BUFFER,
 * MPI_ERR_ARG as their descriptions in 9.4 (Table 9.1) say. REPLACE and NO_OP are
 * accumulate ops (13.3.4), not reduction ops. */
#include "bad_input.h"
#include "bad_input_mpi4.h"

static int *in, *inout;
static MPI_Op user_op, freed_op, op_out;
static MPI_Datatype pair_type, uncommitted, freed_type;
static int commute;

static void add_fn(void* a, void* b, int* len, MPI_Datatype* dt) {
  (void)dt;
  for (int i = 0; i < *len; ++i) ((int*)b)[i] += ((int*)a)[i];
}
#if MPI_VERSION >= 4
static void add_fn_c(void* a, void* b, MPI_Count* len, MPI_Datatype* dt) {
  (void)dt;
  for (MPI_Count i = 0; i < *len; ++i) ((int*)b)[i] += ((int*)a)[i];
}
#endif

static void setup(void) {
  in = (int*)guarded_alloc(4 * sizeof(int));
  inout = (int*)guarded_alloc(4 * sizeof(int));
  for (int i = 0; i < 4; ++i) in[i] = inout[i] = i + 1;
  watch(in, 4 * sizeof(int));
  watch(inout, 4 * sizeof(int));
  CHECK_MPI(MPI_Op_create(add_fn, 1, &user_op));
  {  /* handles that were valid once: the calls must see they no longer are */
    MPI_Op tmp;
    CHECK_MPI(MPI_Op_create(add_fn, 0, &tmp));
    freed_op = tmp;
    CHECK_MPI(MPI_Op_free(&tmp));
  }
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair_type));
  CHECK_MPI(MPI_Type_commit(&pair_type));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
  {
    MPI_Datatype tmp;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &tmp));
    CHECK_MPI(MPI_Type_commit(&tmp));
    freed_type = tmp;
    CHECK_MPI(MPI_Type_free(&tmp));
  }
}

static void teardown(void) {
  CHECK_MPI(MPI_Op_free(&user_op));
  CHECK_MPI(MPI_Type_free(&pair_type));
  CHECK_MPI(MPI_Type_free(&uncommitted));
}

#define ROWS(X)                                                                                                       \
  X(op_create_fn, "MPI_Op_create", "user_fn", "NULL", MPI_ERR_ARG, IMPL, MPI_Op_create(NULL, 1, &op_out))            \
  X(op_create_op, "MPI_Op_create", "op", "NULL", MPI_ERR_ARG, IMPL, MPI_Op_create(add_fn, 1, NULL))                  \
  X(op_free_ptr, "MPI_Op_free", "op", "NULL", MPI_ERR_ARG, IMPL, MPI_Op_free(NULL))                                  \
  X(op_free_null, "MPI_Op_free", "op", "`MPI_OP_NULL`", MPI_ERR_OP, STD, MPI_Op_free(&(MPI_Op){MPI_OP_NULL}))         \
  X(op_free_predef, "MPI_Op_free", "op", "`MPI_SUM` (predefined)", MPI_ERR_OP, STD, MPI_Op_free(&(MPI_Op){MPI_SUM})) \
  X(op_free_freed, "MPI_Op_free", "op", "a freed op", MPI_ERR_OP, IMPL, MPI_Op_free(&(MPI_Op){freed_op}))            \
  X(op_comm_flag, "MPI_Op_commutative", "commute", "NULL", MPI_ERR_ARG, IMPL, MPI_Op_commutative(MPI_SUM, NULL))      \
  X(op_comm_null, "MPI_Op_commutative", "op", "`MPI_OP_NULL`", MPI_ERR_OP, STD, MPI_Op_commutative(MPI_OP_NULL, &commute)) \
  X(op_comm_freed, "MPI_Op_commutative", "op", "a freed op", MPI_ERR_OP, IMPL, MPI_Op_commutative(freed_op, &commute)) \
  X(rl_count, "MPI_Reduce_local", "count", "-1", MPI_ERR_COUNT, STD, MPI_Reduce_local(in, inout, -1, MPI_INT, MPI_SUM)) \
  X(rl_op_null, "MPI_Reduce_local", "op", "`MPI_OP_NULL`", MPI_ERR_OP, STD,                                           \
    MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_OP_NULL))                                                              \
  X(rl_op_freed, "MPI_Reduce_local", "op", "a freed op", MPI_ERR_OP, IMPL, MPI_Reduce_local(in, inout, 4, MPI_INT, freed_op)) \
  X(rl_type_null, "MPI_Reduce_local", "datatype", "`MPI_DATATYPE_NULL`", MPI_ERR_TYPE, STD,                          \
    MPI_Reduce_local(in, inout, 4, MPI_DATATYPE_NULL, MPI_SUM))                                                        \
  X(rl_type_uncommitted, "MPI_Reduce_local", "datatype", "not committed (user op)", MPI_ERR_TYPE, IMPL,              \
    MPI_Reduce_local(in, inout, 2, uncommitted, user_op))                                                             \
  X(rl_type_freed, "MPI_Reduce_local", "datatype", "a freed datatype", MPI_ERR_TYPE, IMPL,                           \
    MPI_Reduce_local(in, inout, 1, freed_type, user_op))                                                              \
  X(rl_inbuf_null, "MPI_Reduce_local", "inbuf", "NULL (count 4)", MPI_ERR_BUFFER, IMPL,                              \
    MPI_Reduce_local(NULL, inout, 4, MPI_INT, MPI_SUM))                                                                \
  X(rl_inoutbuf_null, "MPI_Reduce_local", "inoutbuf", "NULL (count 4)", MPI_ERR_BUFFER, IMPL,                        \
    MPI_Reduce_local(in, NULL, 4, MPI_INT, MPI_SUM))                                                                   \
  X(rl_inbuf_inplace, "MPI_Reduce_local", "inbuf", "`MPI_IN_PLACE`", MPI_ERR_BUFFER, IMPL,                           \
    MPI_Reduce_local(MPI_IN_PLACE, inout, 4, MPI_INT, MPI_SUM))                                                        \
  X(rl_inoutbuf_inplace, "MPI_Reduce_local", "inoutbuf", "`MPI_IN_PLACE`", MPI_ERR_BUFFER, IMPL,                     \
    MPI_Reduce_local(in, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM))                                                           \
  X(rl_user_inbuf_null, "MPI_Reduce_local", "inbuf", "NULL (user op)", MPI_ERR_BUFFER, IMPL,                         \
    MPI_Reduce_local(NULL, inout, 4, MPI_INT, user_op))                                                                \
  X(rl_replace, "MPI_Reduce_local", "op", "`MPI_REPLACE`", MPI_ERR_OP, IMPL,                                         \
    MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_REPLACE))                                                              \
  X(rl_no_op, "MPI_Reduce_local", "op", "`MPI_NO_OP`", MPI_ERR_OP, IMPL, MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_NO_OP)) \
  X(rl_band_float, "MPI_Reduce_local", "op", "`MPI_BAND` on `MPI_FLOAT`", MPI_ERR_OP, STD,                           \
    MPI_Reduce_local(in, inout, 4, MPI_FLOAT, MPI_BAND))                                                               \
  X(rl_maxloc_int, "MPI_Reduce_local", "op", "`MPI_MAXLOC` on `MPI_INT`", MPI_ERR_OP, STD,                           \
    MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_MAXLOC))                                                               \
  X(rl_sum_2int, "MPI_Reduce_local", "op", "`MPI_SUM` on `MPI_2INT`", MPI_ERR_OP, STD,                               \
    MPI_Reduce_local(in, inout, 2, MPI_2INT, MPI_SUM))                                                                 \
  X(rl_sum_derived, "MPI_Reduce_local", "op", "`MPI_SUM` on a derived datatype", MPI_ERR_OP, IMPL,                    \
    MPI_Reduce_local(in, inout, 2, pair_type, MPI_SUM)) \
  MPI4(ROWS_C(X))

/* The MPI-4 calls. */
#define ROWS_C(X)  \
  X(op_create_c_fn, "MPI_Op_create_c", "user_fn", "NULL", MPI_ERR_ARG, IMPL, MPI_Op_create_c(NULL, 1, &op_out))      \
  X(op_create_c_op, "MPI_Op_create_c", "op", "NULL", MPI_ERR_ARG, IMPL, MPI_Op_create_c(add_fn_c, 1, NULL))          \
  X(rlc_count, "MPI_Reduce_local_c", "count", "-1", MPI_ERR_COUNT, STD, MPI_Reduce_local_c(in, inout, -1, MPI_INT, MPI_SUM)) \
  X(rlc_op_null, "MPI_Reduce_local_c", "op", "`MPI_OP_NULL`", MPI_ERR_OP, STD,                                        \
    MPI_Reduce_local_c(in, inout, 4, MPI_INT, MPI_OP_NULL))                                                            \
  X(rlc_type_null, "MPI_Reduce_local_c", "datatype", "`MPI_DATATYPE_NULL`", MPI_ERR_TYPE, STD,                       \
    MPI_Reduce_local_c(in, inout, 4, MPI_DATATYPE_NULL, MPI_SUM))                                                      \
  X(rlc_inbuf_null, "MPI_Reduce_local_c", "inbuf", "NULL (count 4)", MPI_ERR_BUFFER, IMPL,                           \
    MPI_Reduce_local_c(NULL, inout, 4, MPI_INT, MPI_SUM))                                                              \
  X(rlc_band_float, "MPI_Reduce_local_c", "op", "`MPI_BAND` on `MPI_FLOAT`", MPI_ERR_OP, STD,                        \
    MPI_Reduce_local_c(in, inout, 4, MPI_FLOAT, MPI_BAND))

BAD_INPUT_MAIN("Reduction operations", ROWS, setup, teardown)
