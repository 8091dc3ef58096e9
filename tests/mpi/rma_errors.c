/* rma_errors: RMA calls with bad arguments under MPI_ERRORS_RETURN (set on the window
 * and on MPI_COMM_WORLD/MPI_COMM_SELF) return an error of the right class, leave every
 * byte of every window untouched, and a valid call right next to each bad one still
 * works (MPI-4.1 chapter 13; error classes: 13.6.2, Table 11).
 *
 * Every window holds N ints filled with the byte 0xA5 (the sentinel). Each rank targets
 * its right neighbour t; after each failing call inside an epoch the origin reads t's
 * whole window back with MPI_Get + MPI_Win_flush and checks every byte; after each
 * flavour every rank checks its own window memory (and, for MPI_Win_create, guard zones
 * on both sides of it).
 *
 * What runs everywhere: the semantics of valid calls (MPI_PROC_NULL is a no-op that
 * leaves result buffers alone, 13.3; accesses that end exactly at the end of the window
 * succeed) and, for bad arguments the peers check, the class the standard names for
 * them (bad rank, count, datatype, op, lock type, window, flavour). MPI-4.1 3.8 lets an
 * implementation leave erroneous calls undetected ("MPI may not be able to detect some
 * errors"), so what only shmpi promises to detect is checked only when RMA_STRICT=1
 * (the shmpi suite sets it): RMA outside an epoch and other wrong synchronization
 * (MPI_ERR_RMA_SYNC), target ranges outside the window (MPI_ERR_RMA_RANGE; neither peer
 * checks them: MPI_Put one past the end returns MPI_SUCCESS), detaching memory never
 * attached (MPI_ERR_RMA_ATTACH; the standard names no class), and error strings that
 * name the failing call. A negative target_disp is MPI_ERR_DISP ("invalid disp
 * argument", both peers) or MPI_ERR_RMA_RANGE, and exactly MPI_ERR_RMA_RANGE under
 * RMA_STRICT.
 *
 * Peer toggles (set by tests/peer/run_rma_peer.sh), each skipping or widening exactly
 * one check: "AS_x" where a peer returns a class other than the one the standard names,
 * "UNCHECKED" where it does not detect the error at all (3.8 allows that, but the call
 * then does something undefined, so it is not made):
 *   RMA_ERRORS_LOCKTYPE_AS_ARG    MPICH 4.0: bad lock type gives MPI_ERR_ARG, not
 *                                 MPI_ERR_LOCKTYPE (Table 11 names the class).
 *   RMA_ERRORS_ACC_OP_TYPE_UNCHECKED  MPICH 4.0: MPI_Accumulate/MPI_Get_accumulate
 *                                 accept (op, type) pairs that 6.9.2 does not define
 *                                 (MPI_BAND on MPI_DOUBLE, MPI_MINLOC on MPI_INT).
 *   RMA_ERRORS_FOP_OP_TYPE_UNCHECKED  MPICH 4.0 and Open MPI 4.1: MPI_Fetch_and_op
 *                                 does not check the (op, type) pair at all.
 *   RMA_ERRORS_FOP_USER_OP_UNCHECKED  Open MPI 4.1 (osc sm): MPI_Fetch_and_op accepts a
 *                                 user-defined op (13.3.4.3: "user-defined functions
 *                                 cannot be used").
 *   RMA_ERRORS_MIXED_TYPE_UNCHECKED  MPICH 4.0: accumulates with a struct of int and
 *                                 double (or int origin, double target) are accepted and
 *                                 then crash the target (13.3.4 forbids both).
 *   RMA_ERRORS_MIXED_TYPE_AS_ARG  Open MPI 4.1: those give MPI_ERR_ARG, not MPI_ERR_TYPE.
 *   RMA_ERRORS_CAS_FLOAT_UNCHECKED   Open MPI 4.1 (osc sm): MPI_Compare_and_swap on
 *                                 MPI_DOUBLE is accepted (13.3.4.4 allows only integer,
 *                                 logical, multi-language and byte types).
 *   RMA_ERRORS_ATTACH_FLAVOR_AS_ATTACH  Open MPI 4.1 (osc sm): MPI_Win_attach on an
 *                                 allocated window gives MPI_ERR_RMA_ATTACH, not
 *                                 MPI_ERR_RMA_FLAVOR.
 *   RMA_ERRORS_ATTACH_ON_CREATE_UNCHECKED  Open MPI 4.1 (osc pt2pt): MPI_Win_attach on
 *                                 an MPI_Win_create window succeeds (13.2.4: "win must be a
 *                                 window that was created with MPI_WIN_CREATE_DYNAMIC").
 *   RMA_ERRORS_GETACC_RESULT_COUNT_UNCHECKED  Open MPI 4.1 (osc sm): MPI_Get_accumulate
 *                                 does not check result_count; -1 crashes in memcpy.
 *   RMA_NO_CREATE_FLAVOR          skip the MPI_Win_create and dynamic windows (for an Open
 *                                 MPI limited to "--mca osc sm", which has neither).
 * MPI_Win_shared_query on allocate/create windows is valid only since MPI-4.1 (13.2.3;
 * before, it was erroneous): checked where MPI_Get_version reports 4.1 or later.
 * Usage: rma_errors */
#include <string.h>

#include "check.h"

enum { N = 64, GUARD = 16, SENT = 0xA5 };

static int rank, nranks, strict;
static int t_locktype_arg, t_acc_op_type, t_fop_op_type, t_mixed_unchecked, t_mixed_arg, t_cas_float, t_attach_flavor,
    t_getacc_result_count, t_fop_user_op, t_attach_on_create, t_no_create;
static int sentinel_int;

static int env(const char* name) { return getenv(name) != NULL; }

/* A window under test: its handle, the local memory behind it (with guards for
 * MPI_Win_create), and the neighbour it targets. */
typedef struct {
  MPI_Win win;
  const char* name;
  unsigned char* mem; /* whole local buffer, guards included */
  size_t mem_bytes;
  int target;
} Ctx;

static void no_op_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)in;
  (void)inout;
  (void)len;
  (void)type;
}

/* rc must be an error of class want (or alt, if alt >= 0); its string must be
 * non-empty, and under RMA_STRICT must name the call. */
static void expect_error(int rc, int want, int alt, const char* what, const char* call) {
  int cls = -1, len = -1;
  char text[MPI_MAX_ERROR_STRING];
  CHECK(rc != MPI_SUCCESS, "%s succeeded, expected error class %d", what, want);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == want || (alt >= 0 && cls == alt), "%s: error class %d, expected %d%s", what, cls, want,
        alt >= 0 ? " (or the alternative)" : "");
  text[0] = '\0';
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(len > 0 && (int)strlen(text) == len, "%s: error string length %d (strlen %zu)", what, len, strlen(text));
  if (strict) CHECK(strstr(text, call) != NULL, "%s: error string \"%s\" does not name %s", what, text, call);
}

/* Reads the target's whole window and checks every byte is the sentinel, except the
 * ints [skip_lo, skip_hi) whose values must equal expect[i - skip_lo]. */
static void verify_target_except(const Ctx* c, const char* what, int skip_lo, int skip_hi, const int* expect) {
  int back[N];
  memset(back, 0, sizeof back);
  CHECK_MPI(MPI_Get(back, N, MPI_INT, c->target, 0, N, MPI_INT, c->win));
  CHECK_MPI(MPI_Win_flush(c->target, c->win));
  for (int i = 0; i < N; ++i) {
    if (i >= skip_lo && i < skip_hi) {
      CHECK(back[i] == expect[i - skip_lo], "%s window, after %s: int %d of rank %d is %d, expected %d", c->name, what,
            i, c->target, back[i], expect[i - skip_lo]);
      continue;
    }
    const unsigned char* b = (const unsigned char*)&back[i];
    for (size_t k = 0; k < sizeof(int); ++k) {
      CHECK(b[k] == SENT, "%s window, after %s: byte %zu of rank %d's window is 0x%02x, expected 0x%02x", c->name, what,
            i * sizeof(int) + k, c->target, b[k], SENT);
    }
  }
}

static void verify_target(const Ctx* c, const char* what) { verify_target_except(c, what, 0, 0, NULL); }

/* expect_error for a call that could have written the target: then its window is read. */
static void expect_error_w(const Ctx* c, int rc, int want, int alt, const char* what, const char* call) {
  expect_error(rc, want, alt, what, call);
  verify_target(c, what);
}

/* The owner's own check: every byte of its buffer (window and guards) is the sentinel. */
static void verify_local(const Ctx* c, const char* when) {
  for (size_t i = 0; i < c->mem_bytes; ++i) {
    CHECK(c->mem[i] == SENT, "%s window, %s: byte %zu of the local buffer is 0x%02x, expected 0x%02x", c->name, when, i,
          c->mem[i], SENT);
  }
}

/* Bad calls whose error class both peers report (modulo the toggles), inside a
 * lock_all epoch. After each one the target window must be untouched. */
static void errors_everywhere(const Ctx* c) {
  const int t = c->target;
  MPI_Win w = c->win;
  int v[2 * N], r[2 * N];
  double d[4] = {1.0, 2.0, 3.0, 4.0};
  for (int i = 0; i < 2 * N; ++i) v[i] = i;
  const int bad_ranks[] = {nranks, nranks + 5, -7, MPI_ANY_SOURCE};
  for (size_t i = 0; i < sizeof bad_ranks / sizeof bad_ranks[0]; ++i) {
    const int br = bad_ranks[i];
    expect_error_w(c, MPI_Put(v, 1, MPI_INT, br, 0, 1, MPI_INT, w), MPI_ERR_RANK, -1, "MPI_Put to a bad rank",
                   "MPI_Put");
    expect_error(MPI_Get(r, 1, MPI_INT, br, 0, 1, MPI_INT, w), MPI_ERR_RANK, -1, "MPI_Get from a bad rank", "MPI_Get");
    expect_error_w(c, MPI_Accumulate(v, 1, MPI_INT, br, 0, 1, MPI_INT, MPI_SUM, w), MPI_ERR_RANK, -1,
                   "MPI_Accumulate to a bad rank", "MPI_Accumulate");
    expect_error_w(c, MPI_Get_accumulate(v, 1, MPI_INT, r, 1, MPI_INT, br, 0, 1, MPI_INT, MPI_SUM, w), MPI_ERR_RANK, -1,
                   "MPI_Get_accumulate to a bad rank", "MPI_Get_accumulate");
    expect_error_w(c, MPI_Fetch_and_op(v, r, MPI_INT, br, 0, MPI_SUM, w), MPI_ERR_RANK, -1,
                   "MPI_Fetch_and_op to a bad rank", "MPI_Fetch_and_op");
    expect_error_w(c, MPI_Compare_and_swap(v, v + 1, r, MPI_INT, br, 0, w), MPI_ERR_RANK, -1,
                   "MPI_Compare_and_swap to a bad rank", "MPI_Compare_and_swap");
  }

  expect_error_w(c, MPI_Put(v, -1, MPI_INT, t, 0, 1, MPI_INT, w), MPI_ERR_COUNT, -1, "MPI_Put with origin count -1",
                 "MPI_Put");
  expect_error_w(c, MPI_Put(v, 1, MPI_INT, t, 0, -1, MPI_INT, w), MPI_ERR_COUNT, -1, "MPI_Put with target count -1",
                 "MPI_Put");
  expect_error(MPI_Get(r, -1, MPI_INT, t, 0, -1, MPI_INT, w), MPI_ERR_COUNT, -1, "MPI_Get with count -1", "MPI_Get");
  expect_error_w(c, MPI_Accumulate(v, -1, MPI_INT, t, 0, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT, -1,
                 "MPI_Accumulate with count -1", "MPI_Accumulate");
  expect_error_w(c, MPI_Get_accumulate(v, -1, MPI_INT, r, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT, -1,
                 "MPI_Get_accumulate with origin count -1", "MPI_Get_accumulate");
  if (!t_getacc_result_count)
    expect_error_w(c, MPI_Get_accumulate(v, 1, MPI_INT, r, -1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT,
                   -1, "MPI_Get_accumulate with result count -1", "MPI_Get_accumulate");

  expect_error_w(c, MPI_Put(v, 1, MPI_DATATYPE_NULL, t, 0, 1, MPI_INT, w), MPI_ERR_TYPE, -1,
                 "MPI_Put with origin MPI_DATATYPE_NULL", "MPI_Put");
  expect_error_w(c, MPI_Put(v, 1, MPI_INT, t, 0, 1, MPI_DATATYPE_NULL, w), MPI_ERR_TYPE, -1,
                 "MPI_Put with target MPI_DATATYPE_NULL", "MPI_Put");
  expect_error(MPI_Get(r, 1, MPI_DATATYPE_NULL, t, 0, 1, MPI_DATATYPE_NULL, w), MPI_ERR_TYPE, -1,
               "MPI_Get with MPI_DATATYPE_NULL", "MPI_Get");
  expect_error_w(c, MPI_Accumulate(v, 1, MPI_DATATYPE_NULL, t, 0, 1, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE, -1,
                 "MPI_Accumulate with MPI_DATATYPE_NULL", "MPI_Accumulate");
  expect_error_w(c, MPI_Fetch_and_op(v, r, MPI_DATATYPE_NULL, t, 0, MPI_SUM, w), MPI_ERR_TYPE, -1,
                 "MPI_Fetch_and_op with MPI_DATATYPE_NULL", "MPI_Fetch_and_op");
  expect_error_w(c, MPI_Compare_and_swap(v, v + 1, r, MPI_DATATYPE_NULL, t, 0, w), MPI_ERR_TYPE, -1,
                 "MPI_Compare_and_swap with MPI_DATATYPE_NULL", "MPI_Compare_and_swap");

  MPI_Datatype uncommitted;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
  expect_error_w(c, MPI_Put(v, 1, uncommitted, t, 0, 1, uncommitted, w), MPI_ERR_TYPE, -1,
                 "MPI_Put with an uncommitted type", "MPI_Put");
  expect_error(MPI_Get(r, 1, uncommitted, t, 0, 1, uncommitted, w), MPI_ERR_TYPE, -1,
               "MPI_Get with an uncommitted type", "MPI_Get");
  expect_error_w(c, MPI_Accumulate(v, 1, uncommitted, t, 0, 1, uncommitted, MPI_SUM, w), MPI_ERR_TYPE, -1,
                 "MPI_Accumulate with an uncommitted type", "MPI_Accumulate");
  CHECK_MPI(MPI_Type_free(&uncommitted));

  /* 13.3.4: user-defined operators cannot be used; MPI_NO_OP not in MPI_Accumulate. */
  MPI_Op user;
  CHECK_MPI(MPI_Op_create(no_op_fn, 1, &user));
  expect_error_w(c, MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, user, w), MPI_ERR_OP, -1,
                 "MPI_Accumulate with a user-defined op", "MPI_Accumulate");
  expect_error_w(c, MPI_Get_accumulate(v, 1, MPI_INT, r, 1, MPI_INT, t, 0, 1, MPI_INT, user, w), MPI_ERR_OP, -1,
                 "MPI_Get_accumulate with a user-defined op", "MPI_Get_accumulate");
  if (!t_fop_user_op)
    expect_error_w(c, MPI_Fetch_and_op(v, r, MPI_INT, t, 0, user, w), MPI_ERR_OP, -1,
                   "MPI_Fetch_and_op with a user-defined op", "MPI_Fetch_and_op");
  CHECK_MPI(MPI_Op_free(&user));
  expect_error_w(c, MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_NO_OP, w), MPI_ERR_OP, -1,
                 "MPI_Accumulate with MPI_NO_OP", "MPI_Accumulate");
  expect_error_w(c, MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_OP_NULL, w), MPI_ERR_OP, -1,
                 "MPI_Accumulate with MPI_OP_NULL", "MPI_Accumulate");

  /* 6.9.2: MPI_BAND is defined for integer and byte types only, MPI_MINLOC for the
   * pair types only. */
  if (!t_acc_op_type) {
    expect_error_w(c, MPI_Accumulate(v, 2, MPI_INT, t, 0, 2, MPI_INT, MPI_MINLOC, w), MPI_ERR_OP, -1,
                   "MPI_Accumulate(MPI_MINLOC, MPI_INT)", "MPI_Accumulate");
    expect_error_w(c, MPI_Accumulate(d, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP, -1,
                   "MPI_Accumulate(MPI_BAND, MPI_DOUBLE)", "MPI_Accumulate");
    expect_error_w(c, MPI_Get_accumulate(d, 1, MPI_DOUBLE, d + 2, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, MPI_BAND, w),
                   MPI_ERR_OP, -1, "MPI_Get_accumulate(MPI_BAND, MPI_DOUBLE)", "MPI_Get_accumulate");
  }
  if (!t_fop_op_type) {
    expect_error_w(c, MPI_Fetch_and_op(d, d + 2, MPI_DOUBLE, t, 0, MPI_BAND, w), MPI_ERR_OP, -1,
                   "MPI_Fetch_and_op(MPI_BAND, MPI_DOUBLE)", "MPI_Fetch_and_op");
    expect_error_w(c, MPI_Fetch_and_op(v, r, MPI_INT, t, 0, MPI_MINLOC, w), MPI_ERR_OP, -1,
                   "MPI_Fetch_and_op(MPI_MINLOC, MPI_INT)", "MPI_Fetch_and_op");
  }

  /* 13.3.4: all basic components of both types must be the same predefined type. */
  if (!t_mixed_unchecked) {
    const int want = MPI_ERR_TYPE, alt = t_mixed_arg ? MPI_ERR_ARG : -1;
    int blocks[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, mixed;
    CHECK_MPI(MPI_Type_create_struct(2, blocks, disps, types, &mixed));
    CHECK_MPI(MPI_Type_commit(&mixed));
    expect_error_w(c, MPI_Accumulate(d, 1, mixed, t, 0, 1, mixed, MPI_SUM, w), want, alt,
                   "MPI_Accumulate with a struct of int and double", "MPI_Accumulate");
    expect_error_w(c, MPI_Get_accumulate(d, 1, mixed, d + 2, 1, mixed, t, 0, 1, mixed, MPI_SUM, w), want, alt,
                   "MPI_Get_accumulate with a struct of int and double", "MPI_Get_accumulate");
    expect_error_w(c, MPI_Accumulate(v, 2, MPI_INT, t, 0, 1, MPI_DOUBLE, MPI_SUM, w), want, alt,
                   "MPI_Accumulate with origin MPI_INT and target MPI_DOUBLE", "MPI_Accumulate");
    CHECK_MPI(MPI_Type_free(&mixed));
  }

  /* 13.3.4.4: compare-and-swap takes integer, logical, multi-language or byte types. */
  if (!t_cas_float) {
    expect_error_w(c, MPI_Compare_and_swap(d, d + 1, d + 2, MPI_DOUBLE, t, 0, w), MPI_ERR_TYPE, -1,
                   "MPI_Compare_and_swap on MPI_DOUBLE", "MPI_Compare_and_swap");
  }

  /* A negative target_disp on a window that is not dynamic (13.2.4: only dynamic
   * windows take negative displacements). */
  const int disp_alt = strict ? -1 : MPI_ERR_DISP;
  expect_error_w(c, MPI_Put(v, 1, MPI_INT, t, -1, 1, MPI_INT, w), MPI_ERR_RMA_RANGE, disp_alt, "MPI_Put at disp -1",
                 "MPI_Put");
  expect_error(MPI_Get(r, 1, MPI_INT, t, -1, 1, MPI_INT, w), MPI_ERR_RMA_RANGE, disp_alt, "MPI_Get at disp -1",
               "MPI_Get");
  expect_error_w(c, MPI_Accumulate(v, 1, MPI_INT, t, -1, 1, MPI_INT, MPI_SUM, w), MPI_ERR_RMA_RANGE, disp_alt,
                 "MPI_Accumulate at disp -1", "MPI_Accumulate");
}

/* Valid calls: MPI_PROC_NULL (13.3: "the effect is the same as for MPI_PROC_NULL in
 * point-to-point", i.e. nothing moves and result buffers stay as they were). */
static void proc_null(const Ctx* c) {
  MPI_Win w = c->win;
  int v[4] = {1, 2, 3, 4}, r[4] = {-9, -9, -9, -9}, cmp = 1;
  MPI_Request req[4];
  CHECK_MPI(MPI_Put(v, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w));
  CHECK_MPI(MPI_Get(r, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w));
  CHECK_MPI(MPI_Accumulate(v, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, w));
  CHECK_MPI(MPI_Get_accumulate(v, 1, MPI_INT, r, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, w));
  CHECK_MPI(MPI_Fetch_and_op(v, r + 1, MPI_INT, MPI_PROC_NULL, 0, MPI_SUM, w));
  CHECK_MPI(MPI_Compare_and_swap(v, &cmp, r + 2, MPI_INT, MPI_PROC_NULL, 0, w));
  CHECK_MPI(MPI_Rput(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w, &req[0]));
  CHECK_MPI(MPI_Rget(r + 3, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w, &req[1]));
  CHECK_MPI(MPI_Raccumulate(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, w, &req[2]));
  CHECK_MPI(MPI_Rget_accumulate(v, 1, MPI_INT, r + 3, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, w, &req[3]));
  MPI_Status st[4]; /* (MPICH's MPI_STATUSES_IGNORE trips gcc's -Wstringop-overflow) */
  CHECK_MPI(MPI_Waitall(4, req, st));
  for (int i = 0; i < 4; ++i) CHECK(req[i] == MPI_REQUEST_NULL, "request %d not freed by MPI_Waitall", i);
  CHECK_MPI(MPI_Win_flush_all(w));
  for (int i = 0; i < 4; ++i) CHECK(r[i] == -9, "%s window: MPI_PROC_NULL wrote %d into result %d", c->name, r[i], i);
  verify_target(c, "calls to MPI_PROC_NULL");
}

/* Valid calls at the very end of the target window must work, byte-exact. */
static void boundary(const Ctx* c) {
  const int t = c->target;
  MPI_Win w = c->win;
  const int S = sentinel_int;
  int v[8], r[8], one;
  for (int i = 0; i < 8; ++i) v[i] = 1000 * (rank + 1) + i;
  CHECK_MPI(MPI_Put(v, 1, MPI_INT, t, N - 1, 1, MPI_INT, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  verify_target_except(c, "MPI_Put of the last int", N - 1, N, v);
  CHECK_MPI(MPI_Put(v, 8, MPI_INT, t, N - 8, 8, MPI_INT, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  verify_target_except(c, "MPI_Put of the last 8 ints", N - 8, N, v);
  memset(r, 0, sizeof r);
  CHECK_MPI(MPI_Get(r, 8, MPI_INT, t, N - 8, 8, MPI_INT, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  for (int i = 0; i < 8; ++i) CHECK(r[i] == v[i], "%s: MPI_Get of the last 8 ints: [%d] = %d", c->name, i, r[i]);
  /* Back to the sentinel with MPI_REPLACE, then atomics on the last int. */
  int sent8[8];
  for (int i = 0; i < 8; ++i) sent8[i] = S;
  CHECK_MPI(MPI_Accumulate(sent8, 8, MPI_INT, t, N - 8, 8, MPI_INT, MPI_REPLACE, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  verify_target(c, "MPI_Accumulate(MPI_REPLACE) of the sentinel");
  one = 7;
  CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t, N - 1, 1, MPI_INT, MPI_SUM, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  const int plus7 = (int)((unsigned)S + 7u);
  verify_target_except(c, "MPI_Accumulate(MPI_SUM) on the last int", N - 1, N, &plus7);
  r[0] = 0;
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, r, 1, MPI_INT, t, N - 1, 1, MPI_INT, MPI_NO_OP, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  CHECK(r[0] == plus7, "%s: MPI_Get_accumulate(MPI_NO_OP) on the last int gave %d, expected %d", c->name, r[0], plus7);
  one = -7;
  CHECK_MPI(MPI_Fetch_and_op(&one, r, MPI_INT, t, N - 1, MPI_SUM, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  CHECK(r[0] == plus7, "%s: MPI_Fetch_and_op on the last int fetched %d, expected %d", c->name, r[0], plus7);
  verify_target(c, "MPI_Fetch_and_op back to the sentinel");
  int cmp = S, newv = 42;
  CHECK_MPI(MPI_Compare_and_swap(&newv, &cmp, r, MPI_INT, t, N - 1, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  CHECK(r[0] == S, "%s: MPI_Compare_and_swap on the last int fetched %d, expected %d", c->name, r[0], S);
  verify_target_except(c, "MPI_Compare_and_swap on the last int", N - 1, N, &newv);
  cmp = 42;
  newv = S;
  CHECK_MPI(MPI_Compare_and_swap(&newv, &cmp, r, MPI_INT, t, N - 1, w));
  CHECK_MPI(MPI_Win_flush(t, w));
  CHECK(r[0] == 42, "%s: second MPI_Compare_and_swap fetched %d, expected 42", c->name, r[0]);
  verify_target(c, "MPI_Compare_and_swap back to the sentinel");
}

/* RMA_STRICT: accesses reaching outside the target window (13.6.2, MPI_ERR_RMA_RANGE). */
static void range_errors(const Ctx* c) {
  const int t = c->target;
  MPI_Win w = c->win;
  int v[2 * N], r[2 * N], cmp = 0;
  for (int i = 0; i < 2 * N; ++i) v[i] = i;
  const struct {
    MPI_Aint disp;
    int count;
    const char* what;
  } cases[] = {
      {N, 1, "one past the end"},
      {N - 4, 8, "starting inside, ending outside"},
      {0, N + 1, "one int too many"},
      {-1, 1, "at disp -1"},
      {(MPI_Aint)1 << 40, 1, "at disp 2^40"},
      {(MPI_Aint)1 << 62, 1, "at disp 2^62 (disp * disp_unit wraps to 0)"},
  };
  char what[160];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const MPI_Aint disp = cases[i].disp;
    const int n = cases[i].count;
    snprintf(what, sizeof what, "MPI_Put %s", cases[i].what);
    expect_error_w(c, MPI_Put(v, n, MPI_INT, t, disp, n, MPI_INT, w), MPI_ERR_RMA_RANGE, -1, what, "MPI_Put");
    snprintf(what, sizeof what, "MPI_Get %s", cases[i].what);
    expect_error(MPI_Get(r, n, MPI_INT, t, disp, n, MPI_INT, w), MPI_ERR_RMA_RANGE, -1, what, "MPI_Get");
    snprintf(what, sizeof what, "MPI_Accumulate %s", cases[i].what);
    expect_error_w(c, MPI_Accumulate(v, n, MPI_INT, t, disp, n, MPI_INT, MPI_SUM, w), MPI_ERR_RMA_RANGE, -1, what,
                   "MPI_Accumulate");
    snprintf(what, sizeof what, "MPI_Get_accumulate %s", cases[i].what);
    expect_error_w(c, MPI_Get_accumulate(v, n, MPI_INT, r, n, MPI_INT, t, disp, n, MPI_INT, MPI_SUM, w),
                   MPI_ERR_RMA_RANGE, -1, what, "MPI_Get_accumulate");
    MPI_Request req = MPI_REQUEST_NULL;
    snprintf(what, sizeof what, "MPI_Rput %s", cases[i].what);
    expect_error_w(c, MPI_Rput(v, n, MPI_INT, t, disp, n, MPI_INT, w, &req), MPI_ERR_RMA_RANGE, -1, what, "MPI_Rput");
    if (n != 1) continue;
    snprintf(what, sizeof what, "MPI_Fetch_and_op %s", cases[i].what);
    expect_error_w(c, MPI_Fetch_and_op(v, r, MPI_INT, t, disp, MPI_SUM, w), MPI_ERR_RMA_RANGE, -1, what,
                   "MPI_Fetch_and_op");
    snprintf(what, sizeof what, "MPI_Compare_and_swap %s", cases[i].what);
    expect_error_w(c, MPI_Compare_and_swap(v, &cmp, r, MPI_INT, t, disp, w), MPI_ERR_RMA_RANGE, -1, what,
                   "MPI_Compare_and_swap");
  }
  /* A target type whose extent runs past the end: 2 ints, stride N/2 + 1, at disp N/2. */
  MPI_Datatype strided;
  CHECK_MPI(MPI_Type_vector(2, 1, N / 2 + 1, MPI_INT, &strided));
  CHECK_MPI(MPI_Type_commit(&strided));
  expect_error_w(c, MPI_Put(v, 2, MPI_INT, t, N / 2, 1, strided, w), MPI_ERR_RMA_RANGE, -1,
                 "MPI_Put of a strided type running past the end", "MPI_Put");
  expect_error_w(c, MPI_Accumulate(v, 2, MPI_INT, t, N / 2, 1, strided, MPI_SUM, w), MPI_ERR_RMA_RANGE, -1,
                 "MPI_Accumulate of a strided type running past the end", "MPI_Accumulate");
  CHECK_MPI(MPI_Type_free(&strided));
}

/* RMA_STRICT: synchronization errors (MPI_ERR_RMA_SYNC), outside any epoch. */
static void sync_errors_outside_epoch(const Ctx* c) {
  const int t = c->target;
  MPI_Win w = c->win;
  int v = 5, r = 0, cmp = 0, flag = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  expect_error(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, w), MPI_ERR_RMA_SYNC, -1, "MPI_Put outside an epoch",
               "MPI_Put");
  expect_error(MPI_Get(&r, 1, MPI_INT, t, 0, 1, MPI_INT, w), MPI_ERR_RMA_SYNC, -1, "MPI_Get outside an epoch",
               "MPI_Get");
  expect_error(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, w), MPI_ERR_RMA_SYNC, -1,
               "MPI_Accumulate outside an epoch", "MPI_Accumulate");
  expect_error(MPI_Get_accumulate(&v, 1, MPI_INT, &r, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, w), MPI_ERR_RMA_SYNC, -1,
               "MPI_Get_accumulate outside an epoch", "MPI_Get_accumulate");
  expect_error(MPI_Fetch_and_op(&v, &r, MPI_INT, t, 0, MPI_SUM, w), MPI_ERR_RMA_SYNC, -1,
               "MPI_Fetch_and_op outside an epoch", "MPI_Fetch_and_op");
  expect_error(MPI_Compare_and_swap(&v, &cmp, &r, MPI_INT, t, 0, w), MPI_ERR_RMA_SYNC, -1,
               "MPI_Compare_and_swap outside an epoch", "MPI_Compare_and_swap");
  expect_error(MPI_Rput(&v, 1, MPI_INT, t, 0, 1, MPI_INT, w, &req), MPI_ERR_RMA_SYNC, -1, "MPI_Rput outside an epoch",
               "MPI_Rput");
  expect_error(MPI_Win_unlock(t, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_unlock without a lock", "MPI_Win_unlock");
  expect_error(MPI_Win_unlock_all(w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_unlock_all without lock_all",
               "MPI_Win_unlock_all");
  expect_error(MPI_Win_flush(t, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_flush outside a passive epoch", "MPI_Win_flush");
  expect_error(MPI_Win_flush_all(w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_flush_all outside a passive epoch",
               "MPI_Win_flush_all");
  expect_error(MPI_Win_flush_local(t, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_flush_local outside a passive epoch",
               "MPI_Win_flush_local");
  expect_error(MPI_Win_complete(w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_complete without MPI_Win_start", "MPI_Win_complete");
  expect_error(MPI_Win_wait(w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_wait without MPI_Win_post", "MPI_Win_wait");
  expect_error(MPI_Win_test(w, &flag), MPI_ERR_RMA_SYNC, -1, "MPI_Win_test without MPI_Win_post", "MPI_Win_test");
}

/* RMA_STRICT: synchronization errors that need an epoch open. Collective over the
 * window (fences), so every rank calls it. */
static void sync_errors_in_epochs(const Ctx* c) {
  const int t = c->target;
  MPI_Win w = c->win;
  /* The same target locked twice by one origin (13.5.3: erroneous). */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w));
  expect_error(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_lock of a target locked already",
               "MPI_Win_lock");
  expect_error(MPI_Win_lock_all(0, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_lock_all while a lock is held",
               "MPI_Win_lock_all");
  verify_target(c, "MPI_Win_lock twice");
  CHECK_MPI(MPI_Win_unlock(t, w));
  CHECK_MPI(MPI_Win_lock_all(0, w));
  expect_error(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_lock inside lock_all",
               "MPI_Win_lock");
  expect_error(MPI_Win_lock_all(0, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_lock_all twice", "MPI_Win_lock_all");
  expect_error(MPI_Win_unlock(t, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_unlock inside lock_all", "MPI_Win_unlock");
  verify_target(c, "lock calls inside lock_all");
  CHECK_MPI(MPI_Win_unlock_all(w));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* A fence epoch with an access outstanding: passive-target calls are wrong here. */
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w));
  int s[1] = {sentinel_int}, v = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Put(s, 1, MPI_INT, t, 0, 1, MPI_INT, w)); /* writes the sentinel: no change */
  expect_error(MPI_Win_lock_all(0, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_lock_all inside a fence epoch",
               "MPI_Win_lock_all");
  expect_error(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_lock inside a fence epoch",
               "MPI_Win_lock");
  expect_error(MPI_Win_flush(t, w), MPI_ERR_RMA_SYNC, -1, "MPI_Win_flush inside a fence epoch", "MPI_Win_flush");
  expect_error(MPI_Rput(&v, 1, MPI_INT, t, 0, 1, MPI_INT, w, &req), MPI_ERR_RMA_SYNC, -1,
               "MPI_Rput inside a fence epoch", "MPI_Rput");
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));
}

/* One window flavour through all the cases. mem/mem_bytes: the local buffer, already
 * holding the sentinel; the window is N ints of it. */
static void run_window(Ctx* c) {
  MPI_Win w = c->win;
  CHECK_MPI(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every window initialized before anyone reads */

  int bad_lock = 12345;
  CHECK(bad_lock != MPI_LOCK_SHARED && bad_lock != MPI_LOCK_EXCLUSIVE, "lock type constant collides");
  expect_error(MPI_Win_lock(bad_lock, c->target, 0, w), MPI_ERR_LOCKTYPE, t_locktype_arg ? MPI_ERR_ARG : -1,
               "MPI_Win_lock with a bad lock type", "MPI_Win_lock");
  expect_error(MPI_Win_lock(MPI_LOCK_SHARED, nranks, 0, w), MPI_ERR_RANK, -1, "MPI_Win_lock of a bad rank",
               "MPI_Win_lock");
  if (strict) sync_errors_outside_epoch(c);

  CHECK_MPI(MPI_Win_lock_all(0, w));
  verify_target(c, "creation");
  errors_everywhere(c);
  proc_null(c);
  boundary(c);
  if (strict) range_errors(c);
  CHECK_MPI(MPI_Win_unlock_all(w));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (strict) sync_errors_in_epochs(c);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w)); /* own window: sync public and private copies */
  CHECK_MPI(MPI_Win_unlock(rank, w));
  verify_local(c, "after all the failed calls");

  /* 13.2.4: MPI_Win_attach needs a window from MPI_Win_create_dynamic. */
  static int extra[4];
  if (!(t_attach_on_create && c->mem_bytes > N * sizeof(int)))
    expect_error(MPI_Win_attach(w, extra, sizeof extra), MPI_ERR_RMA_FLAVOR, t_attach_flavor ? MPI_ERR_RMA_ATTACH : -1,
                 "MPI_Win_attach on a window that is not dynamic", "MPI_Win_attach");
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* MPI-4.1 13.2.3: MPI_Win_shared_query on allocate/create windows returns either the
 * segment (size > 0: a pointer that loads see the same bytes as MPI_Get) or size 0. */
static void shared_query_non_shared(const Ctx* c, int mpi41, int must_share) {
  if (!mpi41) return;
  MPI_Aint qsize = -1;
  int qdisp = -1;
  void* qbase = NULL;
  CHECK_MPI(MPI_Win_shared_query(c->win, c->target, &qsize, &qdisp, &qbase));
  CHECK(qsize == 0 || qsize == (MPI_Aint)(N * sizeof(int)), "%s: MPI_Win_shared_query size %ld", c->name, (long)qsize);
  if (must_share) CHECK(qsize > 0, "%s: MPI_Win_shared_query gives no shared memory", c->name);
  if (qsize > 0) {
    CHECK(qdisp == (int)sizeof(int), "%s: MPI_Win_shared_query disp_unit %d", c->name, qdisp);
    CHECK(qbase != NULL, "%s: MPI_Win_shared_query gave size %ld and a null pointer", c->name, (long)qsize);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, c->target, 0, c->win));
    CHECK_MPI(MPI_Win_sync(c->win));
    const unsigned char* p = qbase;
    for (int i = 0; i < N * (int)sizeof(int); ++i) {
      CHECK(p[i] == SENT, "%s: byte %d through the MPI_Win_shared_query pointer is 0x%02x", c->name, i, p[i]);
    }
    CHECK_MPI(MPI_Win_unlock(c->target, c->win));
  }
}

static void win_null(void) {
  int v = 0;
  MPI_Win null = MPI_WIN_NULL;
  MPI_Group g = MPI_GROUP_NULL;
  expect_error(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN, -1, "MPI_Put on MPI_WIN_NULL",
               "MPI_Put");
  expect_error(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, MPI_WIN_NULL), MPI_ERR_WIN, -1, "MPI_Win_lock on MPI_WIN_NULL",
               "MPI_Win_lock");
  expect_error(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN, -1, "MPI_Win_fence on MPI_WIN_NULL", "MPI_Win_fence");
  expect_error(MPI_Win_get_group(MPI_WIN_NULL, &g), MPI_ERR_WIN, -1, "MPI_Win_get_group on MPI_WIN_NULL",
               "MPI_Win_get_group");
  expect_error(MPI_Win_free(&null), MPI_ERR_WIN, -1, "MPI_Win_free of MPI_WIN_NULL", "MPI_Win_free");
}

/* Dynamic window: MPI_Win_shared_query is not allowed (13.2.3 rationale); under
 * RMA_STRICT, detaching memory never attached and accessing unattached memory. */
static void dynamic_window(void) {
  MPI_Win dyn;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
  CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
  MPI_Aint qsize;
  int qdisp;
  void* qbase;
  expect_error(MPI_Win_shared_query(dyn, 0, &qsize, &qdisp, &qbase), MPI_ERR_RMA_FLAVOR, -1,
               "MPI_Win_shared_query on a dynamic window", "MPI_Win_shared_query");
  if (strict) {
    static int never[4], attached[N];
    memset(attached, SENT, sizeof attached);
    expect_error(MPI_Win_detach(dyn, never), MPI_ERR_RMA_ATTACH, -1, "MPI_Win_detach of memory never attached",
                 "MPI_Win_detach");
    CHECK_MPI(MPI_Win_attach(dyn, attached, sizeof attached));
    expect_error(MPI_Win_detach(dyn, attached + 1), MPI_ERR_RMA_ATTACH, -1,
                 "MPI_Win_detach at an address inside an attached region", "MPI_Win_detach");
    /* Accessing own memory just past the attached region. */
    MPI_Aint base, past;
    CHECK_MPI(MPI_Get_address(attached, &base));
    CHECK_MPI(MPI_Get_address(attached + N, &past));
    int v[2] = {1, 2};
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, dyn));
    expect_error(MPI_Put(v, 1, MPI_INT, rank, past, 1, MPI_INT, dyn), MPI_ERR_RMA_RANGE, -1,
                 "MPI_Put just past the attached memory", "MPI_Put");
    expect_error(MPI_Put(v, 2, MPI_INT, rank, past - (MPI_Aint)sizeof(int), 2, MPI_INT, dyn), MPI_ERR_RMA_RANGE, -1,
                 "MPI_Put across the end of the attached memory", "MPI_Put");
    CHECK_MPI(MPI_Put(v, 1, MPI_INT, rank, base, 1, MPI_INT, dyn));
    CHECK_MPI(MPI_Win_unlock(rank, dyn));
    CHECK(attached[0] == 1, "dynamic window: MPI_Put at the attached base wrote %d", attached[0]);
    attached[0] = sentinel_int;
    for (size_t i = 0; i < sizeof attached; ++i) {
      CHECK(((unsigned char*)attached)[i] == SENT, "dynamic window: byte %zu of the attached memory changed", i);
    }
    CHECK_MPI(MPI_Win_detach(dyn, attached));
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_free(&dyn));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  strict = env("RMA_STRICT");
  t_locktype_arg = env("RMA_ERRORS_LOCKTYPE_AS_ARG");
  t_acc_op_type = env("RMA_ERRORS_ACC_OP_TYPE_UNCHECKED");
  t_fop_op_type = env("RMA_ERRORS_FOP_OP_TYPE_UNCHECKED");
  t_mixed_unchecked = env("RMA_ERRORS_MIXED_TYPE_UNCHECKED");
  t_mixed_arg = env("RMA_ERRORS_MIXED_TYPE_AS_ARG");
  t_cas_float = env("RMA_ERRORS_CAS_FLOAT_UNCHECKED");
  t_attach_flavor = env("RMA_ERRORS_ATTACH_FLAVOR_AS_ATTACH");
  t_getacc_result_count = env("RMA_ERRORS_GETACC_RESULT_COUNT_UNCHECKED");
  t_fop_user_op = env("RMA_ERRORS_FOP_USER_OP_UNCHECKED");
  t_attach_on_create = env("RMA_ERRORS_ATTACH_ON_CREATE_UNCHECKED");
  t_no_create = env("RMA_NO_CREATE_FLAVOR");
  memset(&sentinel_int, SENT, sizeof sentinel_int);
  int version = 0, subversion = 0;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  const int mpi41 = version > 4 || (version == 4 && subversion >= 1);

  /* Errors on handles with no object (MPI_WIN_NULL) go to MPI_COMM_SELF (MPI-4) or
   * MPI_COMM_WORLD (MPI-3.1): both return. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  const int t = (rank + 1) % nranks;

  /* MPI_Win_allocate */
  {
    Ctx c = {MPI_WIN_NULL, "MPI_Win_allocate", NULL, N * sizeof(int), t};
    CHECK_MPI(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c.mem, &c.win));
    memset(c.mem, SENT, c.mem_bytes);
    run_window(&c);
    shared_query_non_shared(&c, mpi41, strict); /* shmpi: MPI_Win_allocate memory is shared */
    CHECK_MPI(MPI_Win_free(&c.win));
    CHECK(c.win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
  }
  /* MPI_Win_allocate_shared */
  {
    Ctx c = {MPI_WIN_NULL, "MPI_Win_allocate_shared", NULL, N * sizeof(int), t};
    CHECK_MPI(MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c.mem, &c.win));
    memset(c.mem, SENT, c.mem_bytes);
    run_window(&c);
    CHECK_MPI(MPI_Win_free(&c.win));
  }
  /* MPI_Win_create over the middle of a buffer with guard zones on both sides. */
  if (!t_no_create) {
    static unsigned char buf[(GUARD + N + GUARD) * sizeof(int)];
    memset(buf, SENT, sizeof buf);
    Ctx c = {MPI_WIN_NULL, "MPI_Win_create", buf, sizeof buf, t};
    CHECK_MPI(
        MPI_Win_create(buf + GUARD * sizeof(int), N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c.win));
    run_window(&c);
    shared_query_non_shared(&c, mpi41, 0);
    CHECK_MPI(MPI_Win_free(&c.win));
    dynamic_window();
  }
  win_null();

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
