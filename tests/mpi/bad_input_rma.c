/* Bad-input catalogue: RMA communication (MPI-4.1 13.3): MPI_Put, MPI_Get,
 * MPI_Accumulate, MPI_Get_accumulate with their _c, R- and R_c forms, MPI_Fetch_and_op,
 * MPI_Compare_and_swap. One F4 line makes a row in the four forms of a call.
 *
 * Windows (MPI_Win_create over guarded memory, watched): `win` in a lock_all epoch,
 * `idle` in no epoch, `fenced` in a fence epoch (request-based calls need a passive
 * one, 13.3.5), `dyn` from MPI_Win_create_dynamic with nothing attached, in lock_all.
 *
 * Classes (MPI-4.1 9.4, Table 9.1): MPI_ERR_WIN, MPI_ERR_RANK, MPI_ERR_COUNT,
 * MPI_ERR_TYPE, MPI_ERR_OP (13.3.4: accumulate takes predefined ops only; MPI_NO_OP
 * only in the fetching calls), MPI_ERR_RMA_SYNC (wrong synchronization of RMA calls),
 * MPI_ERR_RMA_RANGE (target memory is not part of the window, or not attached). */
#include "bad_input.h"
#include "bad_input_mpi4.h"

#define WN 8 /* ints per window */

static int nranks;
static int *wmem, *imem, *fmem, *obuf, *rbuf, *cbuf;
static double* dbuf;
static MPI_Win win, idle, fenced, dyn;
static MPI_Request req;
static MPI_Op user_op;
static MPI_Datatype uncommitted, pair;

static void add_fn(void* a, void* b, int* len, MPI_Datatype* dt) {
  (void)dt;
  for (int i = 0; i < *len; ++i) ((int*)b)[i] += ((int*)a)[i];
}

static int* window_over_guarded(MPI_Win* w) {
  int* mem = (int*)guarded_alloc(WN * sizeof(int));
  for (int i = 0; i < WN; ++i) mem[i] = 100 + i;
  CHECK_MPI(MPI_Win_create(mem, WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, w));
  CHECK_MPI(MPI_Win_set_errhandler(*w, MPI_ERRORS_RETURN));
  watch(mem, WN * sizeof(int));
  return mem;
}

static int* guarded_ints(int n) {
  int* p = (int*)guarded_alloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; ++i) p[i] = 7 + i;
  watch(p, (size_t)n * sizeof(int));
  return p;
}

static void setup(void) {
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  wmem = window_over_guarded(&win);
  imem = window_over_guarded(&idle);
  fmem = window_over_guarded(&fenced);
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
  CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
  obuf = guarded_ints(WN);
  rbuf = guarded_ints(WN);
  cbuf = guarded_ints(WN);
  dbuf = (double*)guarded_alloc(WN * sizeof(double));
  watch(dbuf, WN * sizeof(double));
  CHECK_MPI(MPI_Op_create(add_fn, 1, &user_op));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Win_lock_all(0, dyn));
  CHECK_MPI(MPI_Win_fence(0, fenced));
}

static void teardown(void) {
  /* The failed calls left no epoch behind: after a fence no RMA call completed, so a
   * lock epoch may follow (MPI-4.1 13.5.1); shmpi only (a peer may be stricter). */
  if (getenv("BAD_INPUT_PEER") == NULL) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, fenced));
    CHECK_MPI(MPI_Win_unlock(0, fenced));
  }
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, fenced));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_unlock_all(dyn));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Win_free(&idle));
  CHECK_MPI(MPI_Win_free(&fenced));
  CHECK_MPI(MPI_Win_free(&dyn));
  CHECK_MPI(MPI_Op_free(&user_op));
  CHECK_MPI(MPI_Type_free(&uncommitted));
  CHECK_MPI(MPI_Type_free(&pair));
}

/* A row in the four forms of a call: MPI_Put(args), MPI_Put_c(args), MPI_Rput(args,
 * &req), MPI_Rput_c(args, &req) (the _c ones MPI-4). The indirection expands the
 * argument/value/class/kind macros below before F4_ splits them. */
#define XR(X, ...) X(__VA_ARGS__)
#define F4(X, id, Fn, RFn, ...) F4_(X, id, Fn, RFn, __VA_ARGS__)
#define F4_(X, id, Fn, RFn, arg, val, cls, kind, ...)                                              \
  X(id, "MPI_" #Fn, arg, val, cls, kind, MPI_##Fn(__VA_ARGS__))                                   \
  MPI4(X(id##_c, "MPI_" #Fn "_c", arg, val, cls, kind, MPI_##Fn##_c(__VA_ARGS__)))                \
  X(r##id, "MPI_" #RFn, arg, val, cls, kind, MPI_##RFn(__VA_ARGS__, &req))                        \
  MPI4(X(r##id##_c, "MPI_" #RFn "_c", arg, val, cls, kind, MPI_##RFn##_c(__VA_ARGS__, &req)))
/* The request-only rows of the R- and R_c forms. */
#define R2(X, id, RFn, ...) R2_(X, id, RFn, __VA_ARGS__)
#define R2_(X, id, RFn, arg, val, cls, kind, ...)                                                  \
  X(r##id, "MPI_" #RFn, arg, val, cls, kind, MPI_##RFn(__VA_ARGS__))                              \
  MPI4(X(r##id##_c, "MPI_" #RFn "_c", arg, val, cls, kind, MPI_##RFn##_c(__VA_ARGS__)))

#define WIN_NULL "win", "`MPI_WIN_NULL`", MPI_ERR_WIN, STD
#define RANK "target_rank", "comm size", MPI_ERR_RANK, STD
#define NO_EPOCH "win", "no access epoch", MPI_ERR_RMA_SYNC, STD
#define NEGATIVE(arg) arg, "-1", MPI_ERR_COUNT, STD
#define TYPE_NULL(arg) arg, "`MPI_DATATYPE_NULL`", MPI_ERR_TYPE, STD
#define UNCOMMITTED(arg) arg, "not committed", MPI_ERR_TYPE, STD
#define SIGNATURE "target_datatype", "2 ints for 1 at the origin", MPI_ERR_TYPE, IMPL
#define PAST_END "target_disp", "8 (the window's end)", MPI_ERR_RMA_RANGE, STD
#define BEFORE "target_disp", "-1", MPI_ERR_RMA_RANGE, STD
#define TOO_LONG "target_count", "9 (past the window's end)", MPI_ERR_RMA_RANGE, STD
#define UNATTACHED "target_disp", "an address not attached (dynamic window)", MPI_ERR_RMA_RANGE, STD
#define REQ_NULL "request", "NULL", MPI_ERR_ARG, IMPL
#define FENCE_EPOCH "win", "a fence epoch (not passive target)", MPI_ERR_RMA_SYNC, STD
#define OP_NULL "op", "`MPI_OP_NULL`", MPI_ERR_OP, STD
#define USER_OP "op", "a user-defined op", MPI_ERR_OP, STD
#define OP_TYPE "op", "`MPI_BAND` on `MPI_FLOAT`", MPI_ERR_OP, STD
#define NULL_BUF(arg) arg, "NULL (`MPI_BOTTOM`, relative datatype)", MPI_ERR_BUFFER, IMPL
#define MIXED "origin_datatype", "`MPI_DOUBLE` for an `MPI_INT` target", MPI_ERR_TYPE, IMPL

#define ADDR(p) ((MPI_Aint)(uintptr_t)(p))

#define ROWS(X)                                                                                                        \
  /* MPI_Put */                                                                                                        \
  F4(X, put_win, Put, Rput, WIN_NULL, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL)                               \
  F4(X, put_rank, Put, Rput, RANK, obuf, 1, MPI_INT, nranks, 0, 1, MPI_INT, win)                                      \
  F4(X, put_epoch, Put, Rput, NO_EPOCH, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, idle)                                     \
  F4(X, put_ocount, Put, Rput, NEGATIVE("origin_count"), obuf, -1, MPI_INT, 0, 0, 1, MPI_INT, win)                    \
  F4(X, put_tcount, Put, Rput, NEGATIVE("target_count"), obuf, 1, MPI_INT, 0, 0, -1, MPI_INT, win)                    \
  F4(X, put_otype, Put, Rput, TYPE_NULL("origin_datatype"), obuf, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win)        \
  F4(X, put_ttype, Put, Rput, TYPE_NULL("target_datatype"), obuf, 1, MPI_INT, 0, 0, 1, MPI_DATATYPE_NULL, win)        \
  F4(X, put_uncommitted, Put, Rput, UNCOMMITTED("origin_datatype"), obuf, 1, uncommitted, 0, 0, 2, MPI_INT, win)      \
  F4(X, put_signature, Put, Rput, SIGNATURE, obuf, 1, MPI_INT, 0, 0, 1, pair, win)                                    \
  F4(X, put_past_end, Put, Rput, PAST_END, obuf, 1, MPI_INT, 0, WN, 1, MPI_INT, win)                                  \
  F4(X, put_before, Put, Rput, BEFORE, obuf, 1, MPI_INT, 0, -1, 1, MPI_INT, win)                                      \
  F4(X, put_too_long, Put, Rput, TOO_LONG, obuf, WN + 1, MPI_INT, 0, 0, WN + 1, MPI_INT, win)                         \
  F4(X, put_unattached, Put, Rput, UNATTACHED, obuf, 1, MPI_INT, 0, ADDR(obuf), 1, MPI_INT, dyn)                      \
  F4(X, put_origin_null, Put, Rput, NULL_BUF("origin_addr"), NULL, 1, MPI_INT, 0, 0, 1, MPI_INT, win)  \
  R2(X, put_req, Rput, REQ_NULL, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, win, NULL)                                       \
  R2(X, put_fence, Rput, FENCE_EPOCH, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, fenced, &req)                               \
  /* MPI_Get */                                                                                                        \
  F4(X, get_win, Get, Rget, WIN_NULL, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL)                               \
  F4(X, get_rank, Get, Rget, RANK, rbuf, 1, MPI_INT, nranks, 0, 1, MPI_INT, win)                                      \
  F4(X, get_epoch, Get, Rget, NO_EPOCH, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, idle)                                     \
  F4(X, get_ocount, Get, Rget, NEGATIVE("origin_count"), rbuf, -1, MPI_INT, 0, 0, 1, MPI_INT, win)                    \
  F4(X, get_tcount, Get, Rget, NEGATIVE("target_count"), rbuf, 1, MPI_INT, 0, 0, -1, MPI_INT, win)                    \
  F4(X, get_otype, Get, Rget, TYPE_NULL("origin_datatype"), rbuf, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win)        \
  F4(X, get_ttype, Get, Rget, TYPE_NULL("target_datatype"), rbuf, 1, MPI_INT, 0, 0, 1, MPI_DATATYPE_NULL, win)        \
  F4(X, get_uncommitted, Get, Rget, UNCOMMITTED("origin_datatype"), rbuf, 1, uncommitted, 0, 0, 2, MPI_INT, win)      \
  F4(X, get_signature, Get, Rget, SIGNATURE, rbuf, 1, MPI_INT, 0, 0, 1, pair, win)                                    \
  F4(X, get_past_end, Get, Rget, PAST_END, rbuf, 1, MPI_INT, 0, WN, 1, MPI_INT, win)                                  \
  F4(X, get_before, Get, Rget, BEFORE, rbuf, 1, MPI_INT, 0, -1, 1, MPI_INT, win)                                      \
  F4(X, get_too_long, Get, Rget, TOO_LONG, rbuf, WN + 1, MPI_INT, 0, 0, WN + 1, MPI_INT, win)                         \
  F4(X, get_unattached, Get, Rget, UNATTACHED, rbuf, 1, MPI_INT, 0, ADDR(obuf), 1, MPI_INT, dyn)                      \
  F4(X, get_origin_null, Get, Rget, NULL_BUF("origin_addr"), NULL, 1, MPI_INT, 0, 0, 1, MPI_INT, win)  \
  R2(X, get_req, Rget, REQ_NULL, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, win, NULL)                                       \
  R2(X, get_fence, Rget, FENCE_EPOCH, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, fenced, &req)                               \
  /* MPI_Accumulate */                                                                                                 \
  F4(X, acc_win, Accumulate, Raccumulate, WIN_NULL, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, MPI_WIN_NULL)        \
  F4(X, acc_rank, Accumulate, Raccumulate, RANK, obuf, 1, MPI_INT, nranks, 0, 1, MPI_INT, MPI_SUM, win)               \
  F4(X, acc_epoch, Accumulate, Raccumulate, NO_EPOCH, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, idle)              \
  F4(X, acc_ocount, Accumulate, Raccumulate, NEGATIVE("origin_count"), obuf, -1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,  \
     win)                                                                                                             \
  F4(X, acc_tcount, Accumulate, Raccumulate, NEGATIVE("target_count"), obuf, 1, MPI_INT, 0, 0, -1, MPI_INT, MPI_SUM,  \
     win)                                                                                                             \
  F4(X, acc_otype, Accumulate, Raccumulate, TYPE_NULL("origin_datatype"), obuf, 1, MPI_DATATYPE_NULL, 0, 0, 1,        \
     MPI_INT, MPI_SUM, win)                                                                                           \
  F4(X, acc_ttype, Accumulate, Raccumulate, TYPE_NULL("target_datatype"), obuf, 1, MPI_INT, 0, 0, 1,                  \
     MPI_DATATYPE_NULL, MPI_SUM, win)                                                                                 \
  F4(X, acc_uncommitted, Accumulate, Raccumulate, UNCOMMITTED("origin_datatype"), obuf, 1, uncommitted, 0, 0, 2,      \
     MPI_INT, MPI_SUM, win)                                                                                           \
  F4(X, acc_signature, Accumulate, Raccumulate, SIGNATURE, obuf, 1, MPI_INT, 0, 0, 1, pair, MPI_SUM, win)             \
  F4(X, acc_mixed, Accumulate, Raccumulate, MIXED, dbuf, 1, MPI_DOUBLE, 0, 0, 2, MPI_INT, MPI_SUM, win)               \
  F4(X, acc_past_end, Accumulate, Raccumulate, PAST_END, obuf, 1, MPI_INT, 0, WN, 1, MPI_INT, MPI_SUM, win)           \
  F4(X, acc_before, Accumulate, Raccumulate, BEFORE, obuf, 1, MPI_INT, 0, -1, 1, MPI_INT, MPI_SUM, win)               \
  F4(X, acc_too_long, Accumulate, Raccumulate, TOO_LONG, obuf, WN + 1, MPI_INT, 0, 0, WN + 1, MPI_INT, MPI_SUM, win)  \
  F4(X, acc_unattached, Accumulate, Raccumulate, UNATTACHED, obuf, 1, MPI_INT, 0, ADDR(obuf), 1, MPI_INT, MPI_SUM,    \
     dyn)                                                                                                             \
  F4(X, acc_origin_null, Accumulate, Raccumulate, NULL_BUF("origin_addr"), NULL, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win)  \
  F4(X, acc_op_null, Accumulate, Raccumulate, OP_NULL, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, win)          \
  F4(X, acc_user_op, Accumulate, Raccumulate, USER_OP, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, user_op, win)              \
  F4(X, acc_op_type, Accumulate, Raccumulate, OP_TYPE, dbuf, 1, MPI_FLOAT, 0, 0, 1, MPI_FLOAT, MPI_BAND, win)         \
  F4(X, acc_no_op, Accumulate, Raccumulate, "op", "`MPI_NO_OP`", MPI_ERR_OP, STD, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, \
     MPI_NO_OP, win)                                                                                                  \
  R2(X, acc_req, Raccumulate, REQ_NULL, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win, NULL)                       \
  R2(X, acc_fence, Raccumulate, FENCE_EPOCH, obuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, fenced, &req)               \
  /* MPI_Get_accumulate */                                                                                             \
  F4(X, gacc_win, Get_accumulate, Rget_accumulate, WIN_NULL, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT,    \
     MPI_SUM, MPI_WIN_NULL)                                                                                           \
  F4(X, gacc_rank, Get_accumulate, Rget_accumulate, RANK, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, nranks, 0, 1, MPI_INT,  \
     MPI_SUM, win)                                                                                                    \
  F4(X, gacc_epoch, Get_accumulate, Rget_accumulate, NO_EPOCH, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT,  \
     MPI_SUM, idle)                                                                                                   \
  F4(X, gacc_ocount, Get_accumulate, Rget_accumulate, NEGATIVE("origin_count"), obuf, -1, MPI_INT, rbuf, 1, MPI_INT,  \
     0, 0, 1, MPI_INT, MPI_SUM, win)                                                                                  \
  F4(X, gacc_rcount, Get_accumulate, Rget_accumulate, NEGATIVE("result_count"), obuf, 1, MPI_INT, rbuf, -1, MPI_INT,  \
     0, 0, 1, MPI_INT, MPI_SUM, win)                                                                                  \
  F4(X, gacc_tcount, Get_accumulate, Rget_accumulate, NEGATIVE("target_count"), obuf, 1, MPI_INT, rbuf, 1, MPI_INT,   \
     0, 0, -1, MPI_INT, MPI_SUM, win)                                                                                 \
  F4(X, gacc_otype, Get_accumulate, Rget_accumulate, TYPE_NULL("origin_datatype"), obuf, 1, MPI_DATATYPE_NULL, rbuf,  \
     1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win)                                                                      \
  F4(X, gacc_rtype, Get_accumulate, Rget_accumulate, TYPE_NULL("result_datatype"), obuf, 1, MPI_INT, rbuf, 1,         \
     MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, MPI_SUM, win)                                                               \
  F4(X, gacc_ttype, Get_accumulate, Rget_accumulate, TYPE_NULL("target_datatype"), obuf, 1, MPI_INT, rbuf, 1,         \
     MPI_INT, 0, 0, 1, MPI_DATATYPE_NULL, MPI_SUM, win)                                                               \
  F4(X, gacc_mixed, Get_accumulate, Rget_accumulate, "result_datatype", "`MPI_DOUBLE` for an `MPI_INT` target",       \
     MPI_ERR_TYPE, IMPL, obuf, 1, MPI_INT, dbuf, 1, MPI_DOUBLE, 0, 0, 1, MPI_INT, MPI_SUM, win)                       \
  F4(X, gacc_past_end, Get_accumulate, Rget_accumulate, PAST_END, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, WN, 1,       \
     MPI_INT, MPI_SUM, win)                                                                                           \
  F4(X, gacc_before, Get_accumulate, Rget_accumulate, BEFORE, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, -1, 1, MPI_INT,  \
     MPI_SUM, win)                                                                                                    \
  F4(X, gacc_unattached, Get_accumulate, Rget_accumulate, UNATTACHED, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0,          \
     ADDR(obuf), 1, MPI_INT, MPI_SUM, dyn)                                                                            \
  F4(X, gacc_origin_null, Get_accumulate, Rget_accumulate, NULL_BUF("origin_addr"), NULL, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win)  \
  F4(X, gacc_result_null, Get_accumulate, Rget_accumulate, NULL_BUF("result_addr"), obuf, 1, MPI_INT, NULL, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win)  \
  F4(X, gacc_op_null, Get_accumulate, Rget_accumulate, OP_NULL, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, \
     MPI_OP_NULL, win)                                                                                                \
  F4(X, gacc_user_op, Get_accumulate, Rget_accumulate, USER_OP, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, \
     user_op, win)                                                                                                    \
  F4(X, gacc_op_type, Get_accumulate, Rget_accumulate, OP_TYPE, dbuf, 1, MPI_FLOAT, cbuf, 1, MPI_FLOAT, 0, 0, 1,      \
     MPI_FLOAT, MPI_BAND, win)                                                                                        \
  R2(X, gacc_req, Rget_accumulate, REQ_NULL, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win,      \
     NULL)                                                                                                            \
  R2(X, gacc_fence, Rget_accumulate, FENCE_EPOCH, obuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,      \
     fenced, &req)                                                                                                    \
  /* MPI_Fetch_and_op */                                                                                               \
  XR(X, fop_win, "MPI_Fetch_and_op", WIN_NULL, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, 0, MPI_SUM, MPI_WIN_NULL))    \
  XR(X, fop_rank, "MPI_Fetch_and_op", RANK, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, nranks, 0, MPI_SUM, win))           \
  XR(X, fop_epoch, "MPI_Fetch_and_op", NO_EPOCH, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, 0, MPI_SUM, idle))          \
  XR(X, fop_type, "MPI_Fetch_and_op", TYPE_NULL("datatype"),                                                          \
     MPI_Fetch_and_op(obuf, rbuf, MPI_DATATYPE_NULL, 0, 0, MPI_SUM, win))                                             \
  XR(X, fop_derived, "MPI_Fetch_and_op", "datatype", "a derived datatype", MPI_ERR_TYPE, IMPL,                        \
     MPI_Fetch_and_op(obuf, rbuf, pair, 0, 0, MPI_SUM, win))                                                          \
  XR(X, fop_op_null, "MPI_Fetch_and_op", OP_NULL, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, 0, MPI_OP_NULL, win))      \
  XR(X, fop_user_op, "MPI_Fetch_and_op", USER_OP, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, 0, user_op, win))          \
  XR(X, fop_op_type, "MPI_Fetch_and_op", OP_TYPE, MPI_Fetch_and_op(dbuf, cbuf, MPI_FLOAT, 0, 0, MPI_BAND, win))       \
  XR(X, fop_result, "MPI_Fetch_and_op", "result_addr", "NULL", MPI_ERR_BUFFER, IMPL,                                  \
     MPI_Fetch_and_op(obuf, NULL, MPI_INT, 0, 0, MPI_SUM, win))                                                       \
  XR(X, fop_origin, "MPI_Fetch_and_op", "origin_addr", "NULL (op `MPI_SUM`)", MPI_ERR_BUFFER, IMPL,                   \
     MPI_Fetch_and_op(NULL, rbuf, MPI_INT, 0, 0, MPI_SUM, win))                                                       \
  XR(X, fop_past_end, "MPI_Fetch_and_op", PAST_END, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, WN, MPI_SUM, win))       \
  XR(X, fop_before, "MPI_Fetch_and_op", BEFORE, MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, -1, MPI_SUM, win))           \
  XR(X, fop_unattached, "MPI_Fetch_and_op", UNATTACHED,                                                               \
     MPI_Fetch_and_op(obuf, rbuf, MPI_INT, 0, ADDR(obuf), MPI_SUM, dyn))                                              \
  /* MPI_Compare_and_swap */                                                                                           \
  XR(X, cas_win, "MPI_Compare_and_swap", WIN_NULL, MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_INT, 0, 0, MPI_WIN_NULL)) \
  XR(X, cas_rank, "MPI_Compare_and_swap", RANK, MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_INT, nranks, 0, win))      \
  XR(X, cas_epoch, "MPI_Compare_and_swap", NO_EPOCH, MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_INT, 0, 0, idle))     \
  XR(X, cas_type, "MPI_Compare_and_swap", TYPE_NULL("datatype"),                                                      \
     MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_DATATYPE_NULL, 0, 0, win))                                            \
  XR(X, cas_float, "MPI_Compare_and_swap", "datatype", "`MPI_FLOAT`", MPI_ERR_TYPE, STD,                              \
     MPI_Compare_and_swap(dbuf, dbuf, cbuf, MPI_FLOAT, 0, 0, win))                                                    \
  XR(X, cas_derived, "MPI_Compare_and_swap", "datatype", "a derived datatype", MPI_ERR_TYPE, IMPL,                    \
     MPI_Compare_and_swap(obuf, cbuf, rbuf, pair, 0, 0, win))                                                         \
  XR(X, cas_origin, "MPI_Compare_and_swap", "origin_addr", "NULL", MPI_ERR_BUFFER, IMPL,                              \
     MPI_Compare_and_swap(NULL, cbuf, rbuf, MPI_INT, 0, 0, win))                                                      \
  XR(X, cas_compare, "MPI_Compare_and_swap", "compare_addr", "NULL", MPI_ERR_BUFFER, IMPL,                            \
     MPI_Compare_and_swap(obuf, NULL, rbuf, MPI_INT, 0, 0, win))                                                      \
  XR(X, cas_result, "MPI_Compare_and_swap", "result_addr", "NULL", MPI_ERR_BUFFER, IMPL,                              \
     MPI_Compare_and_swap(obuf, cbuf, NULL, MPI_INT, 0, 0, win))                                                      \
  XR(X, cas_past_end, "MPI_Compare_and_swap", PAST_END, MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_INT, 0, WN, win))  \
  XR(X, cas_before, "MPI_Compare_and_swap", BEFORE, MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_INT, 0, -1, win))      \
  XR(X, cas_unattached, "MPI_Compare_and_swap", UNATTACHED,                                                           \
     MPI_Compare_and_swap(obuf, cbuf, rbuf, MPI_INT, 0, ADDR(obuf), dyn))

BAD_INPUT_MAIN("RMA communication", ROWS, setup, teardown)
