/* nbc_overlap: progress of nonblocking collectives driven by MPI_Test alone (MPI-4.1
 * Progress: "if MPI_TEST is repeatedly called with a request for an operation that can
 * complete, the call will eventually return flag = true"; Nonblocking Collective
 * Operations: completion with MPI_Test).
 *
 * 1. Each round starts MPI_Iallreduce (1000 ints), MPI_Ibcast (1 MiB + 12 bytes, root
 *    np - 1), MPI_Ireduce (root 0, 1000 ints) and MPI_Ialltoall (64 ints per peer). Rank 0
 *    never calls a blocking MPI routine: it alternates a slice of computation with MPI_Test
 *    on each pending request until all are done; the others do the same (odd rounds) or
 *    MPI_Wait (even rounds, odd ranks). A request that is not complete 20 s after it was
 *    started fails the test (no hang). Results are checked exactly.
 * 2. A and B started in that order (A = MPI_Iallreduce, B = MPI_Ibcast); every rank calls
 *    MPI_Test on B only until it completes, then on A only: testing one request must
 *    progress the other pending one that B is matched after.
 * 3. The same with A = MPI_Ibarrier, B = MPI_Iallgather on a dup'ed communicator, and the
 *    last rank entering late (sleeps 50 ms before starting): nobody may see B complete
 *    before the late rank started it.
 * Prints "nbc_overlap: OK (N checks)" on rank 0.
 * Usage: nbc_overlap */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "coll_util.h"

static volatile uint32_t g_sink;
enum { LIMIT_S = 20 };

/* a slice of computation that does not call MPI */
static void compute(void) {
  uint32_t x = g_sink;
  for (int i = 0; i < 20000; ++i) x = mix32(x + (uint32_t)i);
  g_sink = x;
}

/* Test each pending request (computation in between) until all are done. */
static void test_until_done(int n, MPI_Request* rq, const char* const* names, const char* what) {
  const double t0 = MPI_Wtime();
  long loops = 0;
  for (;;) {
    int left = 0;
    for (int i = 0; i < n; ++i) {
      if (rq[i] == MPI_REQUEST_NULL) continue;
      int flag = 0;
      CHECK_MPI(MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE));
      if (!flag) ++left;
    }
    if (left == 0) break;
    compute();
    ++loops;
    if (MPI_Wtime() - t0 > LIMIT_S) {
      for (int i = 0; i < n; ++i)
        if (rq[i] != MPI_REQUEST_NULL) fprintf(stderr, "rank %d: %s: %s still pending\n", me, what, names[i]);
      CHECK(0, "%s: %d of %d requests not complete after %d s of MPI_Test (%ld loops)", what, left, n, LIMIT_S, loops);
    }
  }
  ++nchecks;
}

enum { NR = 1000, NB = 262147, NA = 64 };

static void round_four(int rnd) {
  static const char* const names[4] = {"MPI_Iallreduce", "MPI_Ibcast", "MPI_Ireduce", "MPI_Ialltoall"};
  int *as = malloc(NR * sizeof(int)), *ar = malloc(NR * sizeof(int)), *b = malloc(NB * sizeof(int));
  int *rs = malloc(NR * sizeof(int)), *rr = malloc(NR * sizeof(int));
  int *ts = malloc((size_t)np * NA * sizeof(int)), *tr = malloc((size_t)np * NA * sizeof(int));
  CHECK(as && ar && b && rs && rr && ts && tr, "malloc");
  const int broot = np - 1;
  for (int i = 0; i < NR; ++i) as[i] = vs(1, me, i, rnd), rs[i] = vs(3, me, i, rnd), ar[i] = rr[i] = -1;
  for (int i = 0; i < NB; ++i) b[i] = me == broot ? vf(2, broot, 0, i, rnd) : -1;
  for (int q = 0; q < np; ++q)
    for (int i = 0; i < NA; ++i) ts[q * NA + i] = vf(4, me, q, i, rnd), tr[q * NA + i] = -1;
  MPI_Request rq[4];
  CHECK_MPI(MPI_Iallreduce(as, ar, NR, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[0]));
  CHECK_MPI(MPI_Ibcast(b, NB, MPI_INT, broot, MPI_COMM_WORLD, &rq[1]));
  CHECK_MPI(MPI_Ireduce(rs, rr, NR, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &rq[2]));
  CHECK_MPI(MPI_Ialltoall(ts, NA, MPI_INT, tr, NA, MPI_INT, MPI_COMM_WORLD, &rq[3]));
  if (me == 0 || rnd % 2 == 1 || me % 2 == 0) {
    char what[64];
    snprintf(what, sizeof what, "round %d", rnd);
    test_until_done(4, rq, names, what);
  } else {
    MPI_Status st[4];
    CHECK_MPI(MPI_Waitall(4, rq, st));
  }
  for (int i = 0; i < NR; ++i) {
    int w = 0;
    for (int q = 0; q < np; ++q) w += vs(1, q, i, rnd);
    EXPECT(ar[i] == w, "round %d: MPI_Iallreduce int %d is %d, want %d", rnd, i, ar[i], w);
    if (me == 0) {
      w = 0;
      for (int q = 0; q < np; ++q) w += vs(3, q, i, rnd);
      EXPECT(rr[i] == w, "round %d: MPI_Ireduce int %d is %d, want %d", rnd, i, rr[i], w);
    } else {
      EXPECT(rr[i] == -1, "round %d: MPI_Ireduce wrote a non-root's recvbuf", rnd);
    }
  }
  for (int i = 0; i < NB; ++i)
    if (b[i] != vf(2, broot, 0, i, rnd)) CHECK(0, "round %d: MPI_Ibcast int %d is %d", rnd, i, b[i]);
  nchecks += NB;
  for (int q = 0; q < np; ++q)
    for (int i = 0; i < NA; ++i)
      EXPECT(tr[q * NA + i] == vf(4, q, me, i, rnd), "round %d: MPI_Ialltoall from %d int %d is %d", rnd, q, i,
             tr[q * NA + i]);
  free(as), free(ar), free(b), free(rs), free(rr), free(ts), free(tr);
}

/* Start A then B; Test B only until done, then A only. */
static void test_b_then_a(int rnd) {
  static const char* const na[1] = {"A"};
  static const char* const nb[1] = {"B"};
  char what[96];
  if (rnd % 2 == 0) {
    int *as = malloc(NR * sizeof(int)), *ar = malloc(NR * sizeof(int)), *b = malloc(NB * sizeof(int));
    CHECK(as && ar && b, "malloc");
    const int root = rnd % np;
    for (int i = 0; i < NR; ++i) as[i] = vs(5, me, i, rnd), ar[i] = -1;
    for (int i = 0; i < NB; ++i) b[i] = me == root ? vf(6, root, 0, i, rnd) : -1;
    MPI_Request a, bb;
    CHECK_MPI(MPI_Iallreduce(as, ar, NR, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Ibcast(b, NB, MPI_INT, root, MPI_COMM_WORLD, &bb));
    snprintf(what, sizeof what, "round %d: B = MPI_Ibcast tested alone, A = MPI_Iallreduce pending", rnd);
    test_until_done(1, &bb, nb, what);
    for (int i = 0; i < NB; ++i)
      if (b[i] != vf(6, root, 0, i, rnd)) CHECK(0, "%s: int %d is %d", what, i, b[i]);
    nchecks += NB;
    snprintf(what, sizeof what, "round %d: A = MPI_Iallreduce after B", rnd);
    test_until_done(1, &a, na, what);
    for (int i = 0; i < NR; ++i) {
      int w = 0;
      for (int q = 0; q < np; ++q) w += vs(5, q, i, rnd);
      EXPECT(ar[i] == w, "%s: int %d is %d, want %d", what, i, ar[i], w);
    }
    free(as), free(ar), free(b);
  } else {
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int* g = malloc((size_t)np * 2 * sizeof(int));
    CHECK(g != NULL, "malloc");
    int64_t mine[2];
    for (int i = 0; i < 2 * np; ++i) g[i] = -1;
    if (me == np - 1) {
      const struct timespec d = {0, 50 * 1000 * 1000};
      nanosleep(&d, NULL);
    }
    const int64_t t_in = now_ns();
    mine[0] = t_in;
    mine[1] = me;
    int64_t* all = malloc((size_t)np * 2 * sizeof(int64_t));
    CHECK(all != NULL, "malloc");
    MPI_Request a, bb;
    CHECK_MPI(MPI_Ibarrier(dup, &a));
    CHECK_MPI(MPI_Iallgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, dup, &bb));
    snprintf(what, sizeof what, "round %d: B = MPI_Iallgather tested alone, A = MPI_Ibarrier pending", rnd);
    test_until_done(1, &bb, nb, what);
    const int64_t t_b = now_ns();
    for (int q = 0; q < np; ++q) {
      EXPECT(all[2 * q + 1] == q, "%s: entry %d holds rank %lld", what, q, (long long)all[2 * q + 1]);
      EXPECT(t_b >= all[2 * q], "%s: B complete at %lld ns before rank %d started it at %lld ns", what,
             (long long)t_b, q, (long long)all[2 * q]);
    }
    snprintf(what, sizeof what, "round %d: A = MPI_Ibarrier after B", rnd);
    test_until_done(1, &a, na, what);
    CHECK_MPI(MPI_Comm_free(&dup));
    free(g), free(all);
  }
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  const int rounds = np > 4 ? 4 : 8;
  for (int r = 0; r < rounds; ++r) round_four(r);
  for (int r = 0; r < rounds; ++r) test_b_then_a(r);
  coll_finish("nbc_overlap");
  return 0;
}
