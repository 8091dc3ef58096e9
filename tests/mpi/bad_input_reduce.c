/* Bad-input catalogue: the reduction collectives (MPI-4.1 6.9-6.11): MPI_Reduce,
 * MPI_Allreduce, MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan,
 * each in its blocking, _c, nonblocking (6.12) and persistent (6.13) form
 * (bad_input_coll.h).
 *
 * Classes (MPI-4.1 9.4, Table 9.1): MPI_ERR_COMM, MPI_ERR_ROOT, MPI_ERR_COUNT,
 * MPI_ERR_TYPE, MPI_ERR_OP (invalid operation: MPI_OP_NULL, a freed op, a predefined op
 * on a type it is not defined for, 6.9.2), MPI_ERR_BUFFER (MPI_IN_PLACE as recvbuf),
 * MPI_ERR_ARG (NULL arrays and requests), MPI_ERR_INFO. MPI_REPLACE and MPI_NO_OP are
 * accumulate ops (13.3.4): shmpi refuses them in reductions. */
#include "bad_input_coll.h"

#define CW MPI_COMM_WORLD
#define CS MPI_COMM_SELF
#define CN MPI_COMM_NULL
#define DN MPI_DATATYPE_NULL
#define IP MPI_IN_PLACE

#define REDSCAT(s, sb, rb, rc, t, op, comm) sb, rb, rc##s, t, op, comm

#define COMM "comm", "`MPI_COMM_NULL`", MPI_ERR_COMM, STD
#define ROOT "root", "comm size", MPI_ERR_ROOT, STD
#define NEGATIVE(arg) arg, "-1", MPI_ERR_COUNT, STD
#define TYPE_NULL "datatype", "`MPI_DATATYPE_NULL`", MPI_ERR_TYPE, STD
#define OP_NULL "op", "`MPI_OP_NULL`", MPI_ERR_OP, STD
#define OP_FREED "op", "a freed op", MPI_ERR_OP, IMPL
#define OP_TYPE "op", "`MPI_BAND` on `MPI_FLOAT`", MPI_ERR_OP, STD
#define OP_REPLACE "op", "`MPI_REPLACE`", MPI_ERR_OP, IMPL

static MPI_Op freed_op;

static void add_fn(void* a, void* b, int* len, MPI_Datatype* dt) {
  (void)dt;
  for (int i = 0; i < *len; ++i) ((int*)b)[i] += ((int*)a)[i];
}

static void setup(void) {
  coll_setup();
  MPI_Op tmp;  /* a handle that was valid once */
  CHECK_MPI(MPI_Op_create(add_fn, 1, &tmp));
  freed_op = tmp;
  CHECK_MPI(MPI_Op_free(&tmp));
}
static void teardown(void) { coll_teardown(); }

#define ROWS(X)                                                                                                        \
  /* MPI_Reduce */                                                                                                     \
  F6(X, reduce_comm, Reduce, Ireduce, COMM, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, 0, CN)                            \
  F6(X, reduce_root, Reduce, Ireduce, ROOT, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, nranks, CW)                       \
  F6(X, reduce_count, Reduce, Ireduce, NEGATIVE("count"), PLAIN, sbuf, rbuf, -1, MPI_INT, MPI_SUM, 0, CW)             \
  F6(X, reduce_type, Reduce, Ireduce, TYPE_NULL, PLAIN, sbuf, rbuf, 1, DN, MPI_SUM, 0, CW)                            \
  F6(X, reduce_op, Reduce, Ireduce, OP_NULL, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_OP_NULL, 0, CW)                       \
  F6(X, reduce_op_freed, Reduce, Ireduce, OP_FREED, PLAIN, sbuf, rbuf, 1, MPI_INT, freed_op, 0, CW)                   \
  F6(X, reduce_op_type, Reduce, Ireduce, OP_TYPE, PLAIN, sbuf, rbuf, 1, MPI_FLOAT, MPI_BAND, 0, CW)                   \
  F6(X, reduce_replace, Reduce, Ireduce, OP_REPLACE, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_REPLACE, 0, CW)               \
  F6(X, reduce_rinplace, Reduce, Ireduce, "recvbuf", "`MPI_IN_PLACE` (at the root: on `MPI_COMM_SELF`)",              \
     MPI_ERR_BUFFER, IMPL, PLAIN, sbuf, IP, 1, MPI_INT, MPI_SUM, 0, CS)                                               \
  FREQ(X, reduce, Reduce, Ireduce, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, 0, CW)                                     \
  FINFO(X, reduce, Reduce, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, 0, CW)                                             \
  /* MPI_Allreduce */                                                                                                  \
  F6(X, allreduce_comm, Allreduce, Iallreduce, COMM, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CN)                      \
  F6(X, allreduce_count, Allreduce, Iallreduce, NEGATIVE("count"), PLAIN, sbuf, rbuf, -1, MPI_INT, MPI_SUM, CW)       \
  F6(X, allreduce_type, Allreduce, Iallreduce, TYPE_NULL, PLAIN, sbuf, rbuf, 1, DN, MPI_SUM, CW)                      \
  F6(X, allreduce_uncommitted, Allreduce, Iallreduce, "datatype", "not committed", MPI_ERR_TYPE, STD, PLAIN, sbuf,    \
     rbuf, 1, uncommitted, MPI_SUM, CW)                                                                               \
  F6(X, allreduce_op, Allreduce, Iallreduce, OP_NULL, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_OP_NULL, CW)                 \
  F6(X, allreduce_op_freed, Allreduce, Iallreduce, OP_FREED, PLAIN, sbuf, rbuf, 1, MPI_INT, freed_op, CW)             \
  F6(X, allreduce_op_type, Allreduce, Iallreduce, OP_TYPE, PLAIN, sbuf, rbuf, 1, MPI_FLOAT, MPI_BAND, CW)             \
  F6(X, allreduce_replace, Allreduce, Iallreduce, OP_REPLACE, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_REPLACE, CW)         \
  F6(X, allreduce_rinplace, Allreduce, Iallreduce, "recvbuf", "`MPI_IN_PLACE`", MPI_ERR_BUFFER, IMPL, PLAIN, sbuf,    \
     IP, 1, MPI_INT, MPI_SUM, CW)                                                                                     \
  F6(X, allreduce_sbuf_null, Allreduce, Iallreduce, "sendbuf", "NULL (count 1)", MPI_ERR_BUFFER, IMPL, PLAIN, NULL,    \
     rbuf, 1, MPI_INT, MPI_SUM, CW)                                                                                   \
  F6(X, allreduce_rbuf_null, Allreduce, Iallreduce, "recvbuf", "NULL (count 1)", MPI_ERR_BUFFER, IMPL, PLAIN, sbuf,    \
     NULL, 1, MPI_INT, MPI_SUM, CW)                                                                                   \
  FREQ(X, allreduce, Allreduce, Iallreduce, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)                               \
  FINFO(X, allreduce, Allreduce, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)                                          \
  /* MPI_Reduce_scatter */                                                                                             \
  F6(X, rscat_comm, Reduce_scatter, Ireduce_scatter, COMM, REDSCAT, sbuf, rbuf, one, MPI_INT, MPI_SUM, CN)            \
  F6(X, rscat_counts, Reduce_scatter, Ireduce_scatter, "recvcounts", "an entry -1", MPI_ERR_COUNT, STD, REDSCAT,      \
     sbuf, rbuf, neg, MPI_INT, MPI_SUM, CW)                                                                           \
  F6(X, rscat_counts_null, Reduce_scatter, Ireduce_scatter, "recvcounts", "NULL", MPI_ERR_ARG, IMPL, REDSCAT, sbuf,   \
     rbuf, nil, MPI_INT, MPI_SUM, CW)                                                                                 \
  F6(X, rscat_type, Reduce_scatter, Ireduce_scatter, TYPE_NULL, REDSCAT, sbuf, rbuf, one, DN, MPI_SUM, CW)            \
  F6(X, rscat_op, Reduce_scatter, Ireduce_scatter, OP_NULL, REDSCAT, sbuf, rbuf, one, MPI_INT, MPI_OP_NULL, CW)       \
  F6(X, rscat_op_type, Reduce_scatter, Ireduce_scatter, OP_TYPE, REDSCAT, sbuf, rbuf, one, MPI_FLOAT, MPI_BAND, CW)   \
  F6(X, rscat_replace, Reduce_scatter, Ireduce_scatter, OP_REPLACE, REDSCAT, sbuf, rbuf, one, MPI_INT, MPI_REPLACE,   \
     CW)                                                                                                              \
  FREQ(X, rscat, Reduce_scatter, Ireduce_scatter, REDSCAT, sbuf, rbuf, one, MPI_INT, MPI_SUM, CW)                     \
  FINFO(X, rscat, Reduce_scatter, REDSCAT, sbuf, rbuf, one, MPI_INT, MPI_SUM, CW)                                     \
  /* MPI_Reduce_scatter_block */                                                                                       \
  F6(X, rsblock_comm, Reduce_scatter_block, Ireduce_scatter_block, COMM, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CN)  \
  F6(X, rsblock_count, Reduce_scatter_block, Ireduce_scatter_block, NEGATIVE("recvcount"), PLAIN, sbuf, rbuf, -1,     \
     MPI_INT, MPI_SUM, CW)                                                                                            \
  F6(X, rsblock_type, Reduce_scatter_block, Ireduce_scatter_block, TYPE_NULL, PLAIN, sbuf, rbuf, 1, DN, MPI_SUM, CW)  \
  F6(X, rsblock_op, Reduce_scatter_block, Ireduce_scatter_block, OP_NULL, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_OP_NULL, \
     CW)                                                                                                              \
  F6(X, rsblock_op_type, Reduce_scatter_block, Ireduce_scatter_block, OP_TYPE, PLAIN, sbuf, rbuf, 1, MPI_FLOAT,       \
     MPI_BAND, CW)                                                                                                    \
  F6(X, rsblock_replace, Reduce_scatter_block, Ireduce_scatter_block, OP_REPLACE, PLAIN, sbuf, rbuf, 1, MPI_INT,      \
     MPI_REPLACE, CW)                                                                                                 \
  FREQ(X, rsblock, Reduce_scatter_block, Ireduce_scatter_block, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)           \
  FINFO(X, rsblock, Reduce_scatter_block, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)                                 \
  /* MPI_Scan */                                                                                                       \
  F6(X, scan_comm, Scan, Iscan, COMM, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CN)                                     \
  F6(X, scan_count, Scan, Iscan, NEGATIVE("count"), PLAIN, sbuf, rbuf, -1, MPI_INT, MPI_SUM, CW)                      \
  F6(X, scan_type, Scan, Iscan, TYPE_NULL, PLAIN, sbuf, rbuf, 1, DN, MPI_SUM, CW)                                     \
  F6(X, scan_op, Scan, Iscan, OP_NULL, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_OP_NULL, CW)                                \
  F6(X, scan_op_type, Scan, Iscan, OP_TYPE, PLAIN, sbuf, rbuf, 1, MPI_FLOAT, MPI_BAND, CW)                            \
  F6(X, scan_replace, Scan, Iscan, OP_REPLACE, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_REPLACE, CW)                        \
  FREQ(X, scan, Scan, Iscan, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)                                              \
  FINFO(X, scan, Scan, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)                                                    \
  /* MPI_Exscan */                                                                                                     \
  F6(X, exscan_comm, Exscan, Iexscan, COMM, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CN)                               \
  F6(X, exscan_count, Exscan, Iexscan, NEGATIVE("count"), PLAIN, sbuf, rbuf, -1, MPI_INT, MPI_SUM, CW)                \
  F6(X, exscan_type, Exscan, Iexscan, TYPE_NULL, PLAIN, sbuf, rbuf, 1, DN, MPI_SUM, CW)                               \
  F6(X, exscan_op, Exscan, Iexscan, OP_NULL, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_OP_NULL, CW)                          \
  F6(X, exscan_op_type, Exscan, Iexscan, OP_TYPE, PLAIN, sbuf, rbuf, 1, MPI_FLOAT, MPI_BAND, CW)                      \
  F6(X, exscan_replace, Exscan, Iexscan, OP_REPLACE, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_REPLACE, CW)                  \
  FREQ(X, exscan, Exscan, Iexscan, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)                                        \
  FINFO(X, exscan, Exscan, PLAIN, sbuf, rbuf, 1, MPI_INT, MPI_SUM, CW)

BAD_INPUT_MAIN("Collectives: reductions", ROWS, setup, teardown)
