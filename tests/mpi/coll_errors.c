/* coll_errors: collectives with bad arguments under MPI_ERRORS_RETURN (MPI-4.1 Error
 * Handling; Error Codes and Classes). Every rank passes the same bad argument, so every
 * rank can detect it before communicating and nobody is left waiting. Each call must
 * return (no hang: the peer script runs it under a timeout) an error of the class the
 * standard names, leave its receive buffer untouched (pre-filled, compared byte for
 * byte), and the communicator must still work: a good MPI_Allreduce follows every error.
 *
 * Errors without a valid communicator (MPI_COMM_NULL) are raised on MPI_COMM_SELF in
 * MPI-4 and on MPI_COMM_WORLD in MPI-3.1, so both get MPI_ERRORS_RETURN; the calls run
 * on a duplicate of MPI_COMM_WORLD that has its own user error handler, which must be
 * invoked with that communicator and the returned code. MPI_Error_string must give a
 * non-empty message; with COLL_ERRORS_VERBOSE set, rank 0 prints them.
 *
 * Cases: root out of range (MPI_ERR_ROOT) in every rooted call; negative counts
 * (MPI_ERR_COUNT) in every call whose count every rank passes, also inside the count
 * arrays of Allgatherv, Alltoallv, Alltoallw, Reduce_scatter (same arrays on all
 * ranks); MPI_DATATYPE_NULL and an uncommitted datatype (MPI_ERR_TYPE; in reductions
 * MPI_ERR_OP is accepted too, since the op is not defined on the type either, as
 * reduce_local.c does); MPI_OP_NULL, MPI_REPLACE, MPI_NO_OP (accumulate-only, 13.3.4)
 * and ops undefined on the type (Predefined Reduction Operations) in every reduction
 * (MPI_ERR_OP); MPI_COMM_NULL (MPI_ERR_COMM); MPI_IN_PLACE as the receive buffer of
 * Allreduce/Allgather/Alltoall, where the standard allows it only as sendbuf (the
 * standard names no class: MPI_ERR_ARG or MPI_ERR_BUFFER).
 *
 * Truncation: MPI_Bcast where the root sends more than the others expect (64 ints to 16,
 * and 100000 to 25000; erroneous: the amounts sent and received must match): each
 * non-root must return MPI_ERR_TRUNCATE (the class of an overflowing receive) and write
 * nothing beyond its receive count; the root returns success or MPI_ERR_TRUNCATE and its
 * data stays as it was (the root only reads it). The same for an MPI_Scatter of 1.2 MiB
 * blocks into a quarter of that (the part that fits must arrive).
 *
 * Different counts in a reduction (erroneous: every member passes the same count): the
 * last rank passes a smaller or larger count than the others, small and large (100000
 * ints against 6000, and the reverse; 100000/50000, 20000/5000, 1000/900), in MPI_Reduce,
 * Allreduce, Reduce_scatter_block, Scan, Exscan. Every rank must return; the members
 * that depend on a mismatched input (all of an allreduce and reduce_scatter_block, the
 * root of a reduce, the last rank of a scan and exscan) must get MPI_ERR_TRUNCATE (or
 * MPI_ERR_OTHER, told by another member that the call failed); a failed call writes
 * nothing, and none writes beyond its count.
 *
 * Peer toggles (set by tests/peer/run_coll_peer.sh): what a peer does not detect is not
 * called (MPI-4.1 Error Handling lets an implementation leave erroneous calls
 * undetected, but the call then does something undefined, here a crash or a hang):
 *   COLL_ERRORS_REDUCTION_COUNT_UNCHECKED  MPICH 4.0.2: a negative count in MPI_Reduce,
 *       Allreduce, Scan, Exscan, Reduce_scatter_block is not checked (segfault).
 *   COLL_ERRORS_ALLGATHERV_COUNTS_UNCHECKED  Open MPI 4.1.4: negative recvcounts in
 *       MPI_Allgatherv are not checked (segfault in the ring algorithm).
 *   COLL_ERRORS_TRUNCATE_UNCHECKED  Open MPI 4.1.4: a truncating MPI_Bcast hangs (64
 *       ints to 16) or writes past the receive count (100000 ints to 25000).
 *   COLL_ERRORS_TRUNCATE_AS_OTHER  MPICH 4.0.2: in a truncating MPI_Bcast, ranks whose
 *       tree neighbour failed (the root included) report MPI_ERR_OTHER, not
 *       MPI_ERR_TRUNCATE: MPI_ERR_OTHER is accepted too.
 *   COLL_ERRORS_TRUNCATE_LARGE_HANGS  MPICH 4.0.2: the truncating MPI_Bcast of 100000
 *       ints hangs at 8 ranks (most ranks never return; at fewer ranks it overwrites the
 *       root's buffer): only the 64-int case runs (and no large truncating Scatter).
 *   COLL_ERRORS_INPLACE_NO_HANDLER  Open MPI 4.1.4: MPI_Allreduce and MPI_Alltoall with
 *       recvbuf = MPI_IN_PLACE return the error without invoking the communicator's error
 *       handler (Error Handling: errors are raised through it): no handler check there.
 *   COLL_ERRORS_REDUCTION_MISMATCH_UNCHECKED  MPICH 4.0.2 and Open MPI 4.1.4: different
 *       counts in a reduction are not checked (at 2 ranks, MPI_Reduce of 100000 ints
 *       against 6000: MPICH's root returns MPI_ERR_TRUNCATE with its receive buffer
 *       written, Open MPI's returns MPI_SUCCESS): not called.
 * Point-to-point is not used. Prints "coll_errors: OK (N checks)" on rank 0.
 * Usage: coll_errors */
#include <string.h>

#include "check.h"

static int me, np, verbose;
static long long nchecks;
static MPI_Comm comm; /* duplicate of MPI_COMM_WORLD with a counting error handler */
static int handler_calls, handler_code;
static MPI_Comm handler_comm;

#define EXPECT(cond, ...)     \
  do {                        \
    ++nchecks;                \
    CHECK(cond, __VA_ARGS__); \
  } while (0)

enum { N = 64, SENT = 0x5A };

static void count_errors(MPI_Comm* c, int* code, ...) {
  ++handler_calls;
  handler_comm = *c;
  handler_code = *code;
}

static int env(const char* name) { return name != NULL && getenv(name) != NULL; }

/* After a truncating call that returned rc: the error handler ran once exactly when rc is
 * an error, and the communicator still works. */
static void after_truncation(const char* what, int rc) {
  EXPECT(handler_calls == (rc != MPI_SUCCESS), "%s: the error handler ran %d times for return code %d", what,
         handler_calls, rc);
  handler_calls = 0;
  int v = me + 1, sum = -1;
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm));
  EXPECT(sum == np * (np + 1) / 2, "after %s: MPI_Allreduce gave %d", what, sum);
}

static unsigned char rbuf[N * 16]; /* receive buffer of the failing call */
static int sbuf[N * 16];

static void poison(void) { memset(rbuf, SENT, sizeof rbuf); }

/* rc must be an error of class want (or alt >= 0); rbuf untouched; the handler saw it
 * (on `comm`, when used); then one good collective on comm. */
static void expect_error(int rc, int want, int alt, int on_comm, const char* what) {
  int cls = -1, len = -1;
  char text[MPI_MAX_ERROR_STRING];
  EXPECT(rc != MPI_SUCCESS, "%s succeeded, expected error class %d", what, want);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  EXPECT(cls == want || (alt >= 0 && cls == alt), "%s: error class %d, expected %d%s", what, cls, want,
         alt >= 0 ? " (or the alternative)" : "");
  text[0] = '\0';
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  EXPECT(len > 0 && (int)strlen(text) == len, "%s: error string of length %d (strlen %zu)", what, len, strlen(text));
  if (verbose && me == 0) printf("  %-58s class %2d: %s\n", what, cls, text);
  size_t i = 0;
  while (i < sizeof rbuf && rbuf[i] == SENT) ++i;
  EXPECT(i == sizeof rbuf, "%s: the failed call wrote byte %zu of the receive buffer (0x%02x)", what, i,
         i < sizeof rbuf ? rbuf[i] : 0);
  if (on_comm) {
    EXPECT(handler_calls == 1 && handler_comm == comm && handler_code == rc,
           "%s: the communicator's error handler ran %d times (comm %s, code %d, returned %d)", what, handler_calls,
           handler_comm == comm ? "right" : "wrong", handler_code, rc);
  }
  handler_calls = 0;
  handler_comm = MPI_COMM_NULL;
  /* the communicator still works */
  int v = me + 1, sum = -1;
  CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm));
  EXPECT(sum == np * (np + 1) / 2, "after %s: MPI_Allreduce gave %d", what, sum);
  poison();
}

/* One case: a label, the call, the class, an alternative class (or -1), and the env var
 * that skips it on a peer (or NULL). */
#define CASE(skip_env, want, alt, what, call)                       \
  do {                                                              \
    if (!env(skip_env)) {                                           \
      poison();                                                     \
      const int rc_ = (call);                                       \
      expect_error(rc_, want, alt, 1, what);                        \
    }                                                               \
  } while (0)
/* the same, but a peer toggle may waive the error handler check */
#define CASE_NOHANDLER(nohandler_env, want, alt, what, call)        \
  do {                                                              \
    poison();                                                       \
    const int rc_ = (call);                                         \
    expect_error(rc_, want, alt, !env(nohandler_env), what);        \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
  CHECK(np <= N, "at most %d ranks", N);
  verbose = env("COLL_ERRORS_VERBOSE");
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_create_errhandler(count_errors, &eh));
  CHECK_MPI(MPI_Comm_set_errhandler(comm, eh));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  for (int i = 0; i < N * 16; ++i) sbuf[i] = i;
  poison();

  int counts[N], displs[N], bad_counts[N];
  for (int i = 0; i < np; ++i) counts[i] = 1, displs[i] = i, bad_counts[i] = 1;
  bad_counts[np - 1] = -1;
  MPI_Datatype types[N], bad_types[N];
  for (int i = 0; i < np; ++i) types[i] = MPI_INT, bad_types[i] = MPI_INT;
  bad_types[0] = MPI_DATATYPE_NULL;
  int bdispls[N];
  for (int i = 0; i < np; ++i) bdispls[i] = i * (int)sizeof(int);
  MPI_Datatype uncommitted;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
  void* const R = rbuf;
  const void* const S = sbuf;

  /* root out of range */
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Bcast root = size", MPI_Bcast(R, 4, MPI_INT, np, comm));
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Bcast root = -1", MPI_Bcast(R, 4, MPI_INT, -1, comm));
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Reduce root = size", MPI_Reduce(S, R, 4, MPI_INT, MPI_SUM, np, comm));
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Gather root = -1", MPI_Gather(S, 1, MPI_INT, R, 1, MPI_INT, -1, comm));
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Gatherv root = size",
       MPI_Gatherv(S, 1, MPI_INT, R, counts, displs, MPI_INT, np, comm));
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Scatter root = size + 5", MPI_Scatter(S, 1, MPI_INT, R, 1, MPI_INT, np + 5, comm));
  CASE(NULL, MPI_ERR_ROOT, -1, "MPI_Scatterv root = -2",
       MPI_Scatterv(S, counts, displs, MPI_INT, R, 1, MPI_INT, -2, comm));

  /* negative counts */
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Bcast count -1", MPI_Bcast(R, -1, MPI_INT, 0, comm));
  CASE("COLL_ERRORS_REDUCTION_COUNT_UNCHECKED", MPI_ERR_COUNT, -1, "MPI_Reduce count -1",
       MPI_Reduce(S, R, -1, MPI_INT, MPI_SUM, 0, comm));
  CASE("COLL_ERRORS_REDUCTION_COUNT_UNCHECKED", MPI_ERR_COUNT, -1, "MPI_Allreduce count -1",
       MPI_Allreduce(S, R, -1, MPI_INT, MPI_SUM, comm));
  CASE("COLL_ERRORS_REDUCTION_COUNT_UNCHECKED", MPI_ERR_COUNT, -1, "MPI_Scan count -1",
       MPI_Scan(S, R, -1, MPI_INT, MPI_SUM, comm));
  CASE("COLL_ERRORS_REDUCTION_COUNT_UNCHECKED", MPI_ERR_COUNT, -1, "MPI_Exscan count -1",
       MPI_Exscan(S, R, -1, MPI_INT, MPI_SUM, comm));
  CASE("COLL_ERRORS_REDUCTION_COUNT_UNCHECKED", MPI_ERR_COUNT, -1, "MPI_Reduce_scatter_block count -1",
       MPI_Reduce_scatter_block(S, R, -1, MPI_INT, MPI_SUM, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Reduce_scatter recvcounts[size-1] = -1",
       MPI_Reduce_scatter(S, R, bad_counts, MPI_INT, MPI_SUM, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Allgather sendcount -1", MPI_Allgather(S, -1, MPI_INT, R, 1, MPI_INT, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Allgather recvcount -1", MPI_Allgather(S, 1, MPI_INT, R, -1, MPI_INT, comm));
  CASE("COLL_ERRORS_ALLGATHERV_COUNTS_UNCHECKED", MPI_ERR_COUNT, -1, "MPI_Allgatherv recvcounts[size-1] = -1",
       MPI_Allgatherv(S, 1, MPI_INT, R, bad_counts, displs, MPI_INT, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Alltoall sendcount -1", MPI_Alltoall(S, -1, MPI_INT, R, 1, MPI_INT, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Alltoallv sendcounts[size-1] = -1",
       MPI_Alltoallv(S, bad_counts, displs, MPI_INT, R, counts, displs, MPI_INT, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Alltoallw recvcounts[size-1] = -1",
       MPI_Alltoallw(S, counts, bdispls, types, R, bad_counts, bdispls, types, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Gather sendcount -1 (all ranks)",
       MPI_Gather(S, -1, MPI_INT, R, 1, MPI_INT, 0, comm));
  CASE(NULL, MPI_ERR_COUNT, -1, "MPI_Scatter recvcount -1 (all ranks)",
       MPI_Scatter(S, 1, MPI_INT, R, -1, MPI_INT, 0, comm));

  /* datatypes */
  CASE(NULL, MPI_ERR_TYPE, -1, "MPI_Bcast MPI_DATATYPE_NULL", MPI_Bcast(R, 4, MPI_DATATYPE_NULL, 0, comm));
  CASE(NULL, MPI_ERR_TYPE, -1, "MPI_Bcast uncommitted datatype", MPI_Bcast(R, 2, uncommitted, 0, comm));
  CASE(NULL, MPI_ERR_TYPE, MPI_ERR_OP, "MPI_Allreduce MPI_DATATYPE_NULL",
       MPI_Allreduce(S, R, 4, MPI_DATATYPE_NULL, MPI_SUM, comm));
  CASE(NULL, MPI_ERR_TYPE, MPI_ERR_OP, "MPI_Reduce MPI_DATATYPE_NULL",
       MPI_Reduce(S, R, 4, MPI_DATATYPE_NULL, MPI_MAX, 0, comm));
  CASE(NULL, MPI_ERR_TYPE, -1, "MPI_Allgather sendtype MPI_DATATYPE_NULL",
       MPI_Allgather(S, 1, MPI_DATATYPE_NULL, R, 1, MPI_INT, comm));
  CASE(NULL, MPI_ERR_TYPE, -1, "MPI_Alltoall uncommitted recvtype",
       MPI_Alltoall(S, 2, MPI_INT, R, 1, uncommitted, comm));
  CASE(NULL, MPI_ERR_TYPE, -1, "MPI_Alltoallw sendtypes[0] = MPI_DATATYPE_NULL",
       MPI_Alltoallw(S, counts, bdispls, bad_types, R, counts, bdispls, types, comm));

  /* ops */
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Allreduce MPI_OP_NULL", MPI_Allreduce(S, R, 4, MPI_INT, MPI_OP_NULL, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Reduce MPI_OP_NULL", MPI_Reduce(S, R, 4, MPI_INT, MPI_OP_NULL, 0, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Allreduce MPI_REPLACE", MPI_Allreduce(S, R, 4, MPI_INT, MPI_REPLACE, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Reduce MPI_REPLACE", MPI_Reduce(S, R, 4, MPI_INT, MPI_REPLACE, np - 1, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Allreduce MPI_NO_OP", MPI_Allreduce(S, R, 4, MPI_INT, MPI_NO_OP, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Reduce MPI_NO_OP", MPI_Reduce(S, R, 4, MPI_INT, MPI_NO_OP, 0, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Scan MPI_OP_NULL", MPI_Scan(S, R, 4, MPI_INT, MPI_OP_NULL, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Exscan MPI_REPLACE", MPI_Exscan(S, R, 4, MPI_INT, MPI_REPLACE, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Reduce_scatter_block MPI_NO_OP",
       MPI_Reduce_scatter_block(S, R, 1, MPI_INT, MPI_NO_OP, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Reduce_scatter MPI_OP_NULL",
       MPI_Reduce_scatter(S, R, counts, MPI_INT, MPI_OP_NULL, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Allreduce MPI_BAND on MPI_DOUBLE",
       MPI_Allreduce(S, R, 4, MPI_DOUBLE, MPI_BAND, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Allreduce MPI_MINLOC on MPI_INT", MPI_Allreduce(S, R, 4, MPI_INT, MPI_MINLOC, comm));
  CASE(NULL, MPI_ERR_OP, -1, "MPI_Reduce MPI_SUM on MPI_2INT", MPI_Reduce(S, R, 2, MPI_2INT, MPI_SUM, 0, comm));

  /* MPI_IN_PLACE where the standard does not allow it */
  CASE_NOHANDLER("COLL_ERRORS_INPLACE_NO_HANDLER", MPI_ERR_ARG, MPI_ERR_BUFFER, "MPI_Allreduce recvbuf = MPI_IN_PLACE",
       MPI_Allreduce(S, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, comm));
  CASE(NULL, MPI_ERR_ARG, MPI_ERR_BUFFER, "MPI_Allgather recvbuf = MPI_IN_PLACE",
       MPI_Allgather(S, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, comm));
  CASE_NOHANDLER("COLL_ERRORS_INPLACE_NO_HANDLER", MPI_ERR_ARG, MPI_ERR_BUFFER, "MPI_Alltoall recvbuf = MPI_IN_PLACE",
       MPI_Alltoall(S, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, comm));

  /* truncation: the root sends 4 times what the others expect */
  if (!env("COLL_ERRORS_TRUNCATE_UNCHECKED")) {
    const int sizes[2] = {64, 100000}, other = env("COLL_ERRORS_TRUNCATE_AS_OTHER") ? MPI_ERR_OTHER : MPI_ERR_TRUNCATE;
    for (int t = 0; t < (env("COLL_ERRORS_TRUNCATE_LARGE_HANGS") ? 1 : 2); ++t) {
      const int big = sizes[t], small = big / 4, root = t == 0 ? 0 : np - 1;
      int* b = malloc((size_t)big * sizeof(int));
      CHECK(b != NULL, "malloc");
      for (int i = 0; i < big; ++i) b[i] = me == root ? i : -7 - i;
      handler_calls = 0;
      const int rc = MPI_Bcast(b, me == root ? big : small, MPI_INT, root, comm);
      char what[96];
      snprintf(what, sizeof what, "MPI_Bcast of %d ints into %d (truncation)", big, small);
      if (me != root) {
        int cls = -1;
        EXPECT(rc != MPI_SUCCESS, "%s succeeded on a receiver", what);
        CHECK_MPI(MPI_Error_class(rc, &cls));
        EXPECT(cls == MPI_ERR_TRUNCATE || cls == other, "%s: class %d, expected MPI_ERR_TRUNCATE", what, cls);
        int i = small;
        while (i < big && b[i] == -7 - i) ++i;
        EXPECT(i == big, "%s: int %d beyond the receive count was written (%d)", what, i, i < big ? b[i] : 0);
      } else {
        int cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(rc, &cls));
        EXPECT(cls == MPI_SUCCESS || cls == MPI_ERR_TRUNCATE || cls == other, "%s at the root: class %d", what, cls);
        int i = 0;
        while (i < big && b[i] == i) ++i;
        EXPECT(i == big, "%s: the root's buffer changed at int %d", what, i);
      }
      after_truncation(what, rc);
      free(b);
    }
    /* ... and a truncating MPI_Scatter of blocks of 1.2 MiB (at 2 ranks shmpi moves a
     * quarter of such a block by process_vm_readv and the rest through the root's
     * ring): the same classes, nothing written beyond the receive count */
    if (!env("COLL_ERRORS_TRUNCATE_LARGE_HANGS")) {
      const int big = 300000, small = big / 4, root = np - 1;
      int* s = me == root ? malloc((size_t)big * (size_t)np * sizeof(int)) : NULL;
      int* r = malloc((size_t)big * sizeof(int));
      CHECK(r != NULL && (me != root || s != NULL), "malloc");
      for (long i = 0; me == root && i < (long)big * np; ++i) s[i] = (int)i;
      for (int i = 0; i < big; ++i) r[i] = -7 - i;
      handler_calls = 0;
      const int rc = MPI_Scatter(s, big, MPI_INT, r, me == root ? big : small, MPI_INT, root, comm);
      const char* what = "MPI_Scatter of 300000 ints into 75000 (truncation)";
      int cls = MPI_SUCCESS;
      if (rc != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(rc, &cls));
      if (me != root) {
        EXPECT(cls == MPI_ERR_TRUNCATE || cls == other, "%s: class %d, expected MPI_ERR_TRUNCATE", what, cls);
        int i = small;
        while (i < big && r[i] == -7 - i) ++i;
        EXPECT(i == big, "%s: int %d beyond the receive count was written (%d)", what, i, i < big ? r[i] : 0);
        i = 0;
        while (i < small && r[i] == me * big + i) ++i;
        EXPECT(i == small, "%s: int %d of the part that fits is %d", what, i, i < small ? r[i] : 0);
      } else {
        EXPECT(cls == MPI_SUCCESS || cls == MPI_ERR_TRUNCATE || cls == other, "%s at the root: class %d", what, cls);
      }
      after_truncation(what, rc);
      free(s);
      free(r);
    }
  }

  /* Reductions whose members pass different counts: the last rank passes another count
   * than the others (erroneous: every member passes the same count, MPI-4.1 6.9.1). */
  if (np > 1 && !env("COLL_ERRORS_REDUCTION_MISMATCH_UNCHECKED")) {
    static const int pairs[][2] = {{100000, 6000}, {6000, 100000}, {100000, 50000}, {20000, 5000}, {1000, 900}};
    static const char* const names[5] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter_block", "MPI_Scan",
                                         "MPI_Exscan"};
    enum { GUARD = 64, FILL = -7 };
    for (int c = 0; c < 5; ++c) {
      for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
        int count = pairs[p][me == np - 1 ? 1 : 0];
        if (c == 2) count -= count % np;
        int* s = malloc(sizeof(int) * (size_t)count);
        int* r = malloc(sizeof(int) * (size_t)(count + GUARD));
        CHECK(s != NULL && r != NULL, "malloc");
        for (int i = 0; i < count; ++i) s[i] = me + i;
        for (int i = 0; i < count + GUARD; ++i) r[i] = FILL - i;
        handler_calls = 0;
        int rc = MPI_SUCCESS;
        switch (c) {
          case 0: rc = MPI_Reduce(s, r, count, MPI_INT, MPI_SUM, 0, comm); break;
          case 1: rc = MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, comm); break;
          case 2: rc = MPI_Reduce_scatter_block(s, r, count / np, MPI_INT, MPI_SUM, comm); break;
          case 3: rc = MPI_Scan(s, r, count, MPI_INT, MPI_SUM, comm); break;
          default: rc = MPI_Exscan(s, r, count, MPI_INT, MPI_SUM, comm); break;
        }
        char what[96];
        snprintf(what, sizeof what, "%s of %d ints against %d (different counts)", names[c], pairs[p][0], pairs[p][1]);
        int cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(rc, &cls));
        /* Who must see the error: every member of an allreduce and a reduce_scatter
         * (each depends on every input), the root of a reduce, the last rank of a scan
         * (it folds every input) and of an exscan. A member that reads only inputs of its
         * own count may succeed. A member told by another that the call failed may
         * report MPI_ERR_OTHER naming the culprit. */
        const int must = c == 1 || c == 2 || (c == 0 && me == 0) || (c >= 3 && me == np - 1);
        EXPECT(cls == MPI_ERR_TRUNCATE || cls == MPI_ERR_OTHER || (!must && cls == MPI_SUCCESS),
               "%s: rank %d got class %d", what, me, cls);
        /* A failed call writes nothing; none writes beyond its count. */
        int i = rc == MPI_SUCCESS ? count : 0;
        while (i < count + GUARD && r[i] == FILL - i) ++i;
        EXPECT(i == count + GUARD, "%s: rank %d's receive buffer changed at int %d (class %d)", what, me, i, cls);
        after_truncation(what, rc);
        free(s);
        free(r);
      }
    }
  }

  /* MPI_COMM_NULL: no communicator to raise the error on */
  {
    const char* what[3] = {"MPI_Bcast on MPI_COMM_NULL", "MPI_Allreduce on MPI_COMM_NULL",
                           "MPI_Barrier on MPI_COMM_NULL"};
    int rc[3];
    poison();
    rc[0] = MPI_Bcast(R, 4, MPI_INT, 0, MPI_COMM_NULL);
    rc[1] = MPI_Allreduce(S, R, 4, MPI_INT, MPI_SUM, MPI_COMM_NULL);
    rc[2] = MPI_Barrier(MPI_COMM_NULL);
    for (int i = 0; i < 3; ++i) {
      EXPECT(handler_calls == 0, "%s: the error went to the duplicate's handler", what[i]);
      expect_error(rc[i], MPI_ERR_COMM, -1, 0, what[i]);
    }
  }

  CHECK_MPI(MPI_Type_free(&uncommitted));
  CHECK_MPI(MPI_Comm_free(&comm));
  long long total = 0;
  CHECK_MPI(MPI_Reduce(&nchecks, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (me == 0) printf("coll_errors: OK (%lld checks)\n", total);
  MPI_Finalize();
  return 0;
}
