/* nbc_errors: nonblocking and persistent collectives with bad arguments under
 * MPI_ERRORS_RETURN (MPI-4.1 Error Handling; Nonblocking and Persistent Collective
 * Operations). Every rank passes the same bad argument, so every rank detects it and
 * nobody is left waiting: each start call must return the class the standard names,
 * and a good MPI_Iallreduce on the same communicator must then still give the exact
 * sum (the communicator's calls stay matched).
 *
 * Cases: root out of range (MPI_ERR_ROOT) in MPI_Ibcast, Iscatter, Igather, Ireduce and
 * MPI_Bcast_init, Reduce_init; negative counts (MPI_ERR_COUNT) in MPI_Ibcast,
 * Iallgather, Bcast_init; MPI_OP_NULL and MPI_REPLACE (accumulate-only) in
 * MPI_Iallreduce, Ireduce_scatter_block and MPI_Allreduce_init (MPI_ERR_OP);
 * MPI_DATATYPE_NULL in MPI_Ibcast (MPI_ERR_TYPE); a NULL request pointer is not tried
 * (MPICH dereferences it). Then erroneous request use (6.12: "It is erroneous to call
 * MPI_REQUEST_FREE or MPI_CANCEL for a request associated with a nonblocking
 * collective operation"): MPI_Request_free of an active MPI_Ibarrier request must fail
 * (MPI_ERR_REQUEST, or MPI_ERR_OTHER: no class is named) and MPI_Start of an active
 * persistent request must return MPI_ERR_REQUEST; both leave the operation intact (it
 * then completes normally).
 *
 * Different counts in a reduction (erroneous: every member passes the same count): the
 * last rank passes another count than the others (100000 ints against 6000, the
 * reverse, and 1000 against 900) in MPI_Iallreduce, MPI_Ireduce_scatter_block and a
 * persistent MPI_Allreduce_init started twice. Each start succeeds; each MPI_Wait must
 * return on every rank with MPI_ERR_TRUNCATE (or MPI_ERR_OTHER: told by another member
 * that the call failed), the receive buffer untouched; then the communicator works.
 *
 * Peer toggles (set by tests/peer/run_nbc_peer.sh), each skipping what the peer leaves
 * undetected (MPI-4.1 Error Handling allows that; the call then does something
 * undefined):
 *   NBC_ERRORS_FREE_ACTIVE_UNCHECKED  Open MPI 4.1.4: on one rank, MPI_Request_free of an
 *       MPI_Ibarrier request that has not been completed by a test or wait succeeds.
 *   NBC_ERRORS_REDUCTION_MISMATCH_UNCHECKED  MPICH 4.0.2 and Open MPI 4.1.4: different
 *       counts in a reduction are not checked.
 * (Open MPI 4.1.4 has MPI_VERSION 3: the persistent cases are not compiled.)
 * Prints "nbc_errors: OK (N checks)" on rank 0.
 * Usage: nbc_errors */
#include <stdlib.h>

#include "coll_util.h"

static MPI_Comm comm;

static int cls_of(int rc) {
  int c = MPI_SUCCESS;
  MPI_Error_class(rc, &c);
  return c;
}

/* rc must be an error of class `want` (or of `alt`, if >= 0). */
static void expect_class(int rc, int want, int alt, const char* what) {
  const int c = cls_of(rc);
  EXPECT(rc != MPI_SUCCESS && (c == want || (alt >= 0 && c == alt)), "%s: returned %d (class %d), want class %d", what,
         rc, c, want);
}

/* Different counts: the last rank passes `other` ints, the rest `count`; kind 0
 * MPI_Iallreduce, 1 MPI_Ireduce_scatter_block (counts per block: rounded to np), 2
 * MPI_Allreduce_init started twice. */
static void mismatch(int kind, int count, int other) {
  enum { GUARD = 64, FILL = -7 };
  int n = me == np - 1 ? other : count;
  if (kind == 1) n -= n % np;
  int* s = malloc(sizeof(int) * (size_t)n);
  int* r = malloc(sizeof(int) * (size_t)(n + GUARD));
  CHECK(s != NULL && r != NULL, "malloc");
  for (int i = 0; i < n; ++i) s[i] = i;
  for (int i = 0; i < n + GUARD; ++i) r[i] = FILL;
  static const char* const names[3] = {"MPI_Iallreduce", "MPI_Ireduce_scatter_block", "MPI_Allreduce_init"};
  char what[96];
  snprintf(what, sizeof what, "%s of %d ints against %d", names[kind], count, other);
  MPI_Request q = MPI_REQUEST_NULL;
  int starts = 1;
  if (kind == 0) CHECK_MPI(MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, comm, &q));
  if (kind == 1) CHECK_MPI(MPI_Ireduce_scatter_block(s, r, n / np, MPI_INT, MPI_SUM, comm, &q));
#if MPI_VERSION >= 4
  if (kind == 2) {
    CHECK_MPI(MPI_Allreduce_init(s, r, n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q));
    starts = 2;
  }
#endif
  for (int k = 0; k < starts && q != MPI_REQUEST_NULL; ++k) {
    if (kind == 2) CHECK_MPI(MPI_Start(&q));
    const int rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect_class(rc, MPI_ERR_TRUNCATE, MPI_ERR_OTHER, what);
    int i = 0;
    while (i < n + GUARD && r[i] == FILL) ++i;
    EXPECT(i == n + GUARD, "%s: rank %d's receive buffer changed at int %d", what, me, i);
  }
  if (kind == 2 && q != MPI_REQUEST_NULL) CHECK_MPI(MPI_Request_free(&q));
  free(s);
  free(r);
}

/* The communicator still works: an exact MPI_Iallreduce after each error. */
static void still_works(const char* after) {
  static int round;
  int in = me + 1000 * ++round, out = -1;
  MPI_Request r;
  CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, comm, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  EXPECT(out == np * (np - 1) / 2 + 1000 * round * np, "MPI_Iallreduce after %s: %d", after, out);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  const int no_free_check = getenv("NBC_ERRORS_FREE_ACTIVE_UNCHECKED") != NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  /* Request errors (MPI_Start, MPI_Request_free) go to the request's communicator in
   * shmpi, to MPI_COMM_SELF or MPI_COMM_WORLD in others: all three return. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int buf[64], rbuf[64 * 64];
  for (int i = 0; i < 64; ++i) buf[i] = i;
  MPI_Request r = MPI_REQUEST_NULL;

  /* root out of range */
  expect_class(MPI_Ibcast(buf, 4, MPI_INT, np, comm, &r), MPI_ERR_ROOT, -1, "MPI_Ibcast root np");
  expect_class(MPI_Iscatter(buf, 1, MPI_INT, rbuf, 1, MPI_INT, -1, comm, &r), MPI_ERR_ROOT, -1, "MPI_Iscatter root -1");
  expect_class(MPI_Igather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, np + 3, comm, &r), MPI_ERR_ROOT, -1, "MPI_Igather root np+3");
  expect_class(MPI_Ireduce(buf, rbuf, 4, MPI_INT, MPI_SUM, np, comm, &r), MPI_ERR_ROOT, -1, "MPI_Ireduce root np");
  still_works("bad roots");

  /* negative counts, a null datatype */
  expect_class(MPI_Ibcast(buf, -1, MPI_INT, 0, comm, &r), MPI_ERR_COUNT, -1, "MPI_Ibcast count -1");
  expect_class(MPI_Iallgather(buf, -2, MPI_INT, rbuf, -2, MPI_INT, comm, &r), MPI_ERR_COUNT, -1, "MPI_Iallgather count -2");
  expect_class(MPI_Ibcast(buf, 4, MPI_DATATYPE_NULL, 0, comm, &r), MPI_ERR_TYPE, -1, "MPI_Ibcast MPI_DATATYPE_NULL");
  still_works("bad counts and types");

  /* ops a reduction cannot take */
  expect_class(MPI_Iallreduce(buf, rbuf, 4, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP, -1, "MPI_Iallreduce MPI_OP_NULL");
  expect_class(MPI_Iallreduce(buf, rbuf, 4, MPI_INT, MPI_REPLACE, comm, &r), MPI_ERR_OP, -1, "MPI_Iallreduce MPI_REPLACE");
  expect_class(MPI_Ireduce_scatter_block(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP, -1,
               "MPI_Ireduce_scatter_block MPI_OP_NULL");
  still_works("bad ops");

#if MPI_VERSION >= 4
  {
    expect_class(MPI_Bcast_init(buf, 4, MPI_INT, np, comm, MPI_INFO_NULL, &r), MPI_ERR_ROOT, -1, "MPI_Bcast_init root np");
    expect_class(MPI_Reduce_init(buf, rbuf, 4, MPI_INT, MPI_SUM, -2, comm, MPI_INFO_NULL, &r), MPI_ERR_ROOT, -1,
                 "MPI_Reduce_init root -2");
    expect_class(MPI_Bcast_init(buf, -1, MPI_INT, 0, comm, MPI_INFO_NULL, &r), MPI_ERR_COUNT, -1, "MPI_Bcast_init count -1");
    expect_class(MPI_Allreduce_init(buf, rbuf, 4, MPI_INT, MPI_OP_NULL, comm, MPI_INFO_NULL, &r), MPI_ERR_OP, -1,
                 "MPI_Allreduce_init MPI_OP_NULL");
    still_works("bad persistent arguments");

    /* MPI_Start of an active persistent request */
    int x = me, sum = -1;
    MPI_Request p;
    CHECK_MPI(MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &p));
    CHECK_MPI(MPI_Start(&p));
    expect_class(MPI_Start(&p), MPI_ERR_REQUEST, -1, "MPI_Start of an active request");
    CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));
    EXPECT(sum == np * (np - 1) / 2, "persistent MPI_Allreduce after the erroneous MPI_Start: %d", sum);
    CHECK_MPI(MPI_Request_free(&p));
    EXPECT(p == MPI_REQUEST_NULL, "MPI_Request_free of an inactive persistent request leaves the handle");
    still_works("MPI_Start of an active request");
  }
#endif

  if (np > 1 && getenv("NBC_ERRORS_REDUCTION_MISMATCH_UNCHECKED") == NULL) {
    static const int pairs[3][2] = {{100000, 6000}, {6000, 100000}, {1000, 900}};
    for (int kind = 0; kind < (MPI_VERSION >= 4 ? 3 : 2); ++kind) {
      for (int p = 0; p < 3; ++p) {
        mismatch(kind, pairs[p][0], pairs[p][1]);
        still_works("different counts");
      }
    }
  }

  /* MPI_Request_free of an active nonblocking collective request */
  if (!no_free_check) {
    MPI_Request b;
    CHECK_MPI(MPI_Ibarrier(comm, &b));
    MPI_Request keep = b;
    /* The standard names no class: MPI_ERR_REQUEST (shmpi) or MPI_ERR_OTHER (MPICH). */
    expect_class(MPI_Request_free(&b), MPI_ERR_REQUEST, MPI_ERR_OTHER, "MPI_Request_free of an active MPI_Ibarrier request");
    EXPECT(b == keep, "MPI_Request_free that failed changed the handle");
    CHECK_MPI(MPI_Wait(&b, MPI_STATUS_IGNORE));
    EXPECT(b == MPI_REQUEST_NULL, "MPI_Wait did not free the MPI_Ibarrier request");
    still_works("MPI_Request_free of an active request");
  }

  CHECK_MPI(MPI_Comm_free(&comm));
  coll_finish("nbc_errors");
  return 0;
}
