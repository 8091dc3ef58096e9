/* Long streams of small rooted collectives in which the ranks that need not wait run far
 * ahead of a slow rank, with calls of three sizes interleaved (one that fits a library's
 * per-call descriptor, one of a few hundred bytes, one of over 1 KiB), so a library that
 * lets small calls run further ahead than large ones (shmpi: kCallSlots descriptors and
 * small staging slots, kStageDepth staging slots, shm_layout/comm.hpp) must still keep
 * every slot until its slowest reader is done with it. Every result is checked exactly. Prints "coll_run_ahead: OK (N checks)" on rank 0.
 * Standard MPI only: also run against MPICH and Open MPI (tests/peer/run_coll_peer.sh).
 *
 * Rounds of kCalls calls of each of MPI_Bcast, MPI_Gather, MPI_Scatter and MPI_Reduce
 * (MPI_SUM) from a root that moves each round; the same rounds again with MPI_Ibcast,
 * MPI_Igather, MPI_Iscatter and MPI_Ireduce, each followed by MPI_Wait. In each round the last rank (the "slow"
 * one) sleeps 1 ms before every 50th call, so the others, which do not wait in these
 * calls (bcast and scatter roots, gather senders, reduce contributors), may be up to
 * kCalls calls ahead of it. Call i carries kMid longs when i % 4 == 1, else 1, for the
 * first kSmallRun calls: only calls that fit 1 KiB, so the others may run as far ahead
 * as the library lets small calls (shmpi: 256, kCallSlots; a run of 576 lets a library
 * that allowed twice that overwrite a slot the slow rank still reads). Then kWide
 * longs when i % 4 == 3, kMid when i % 4 == 1, else 1, so that the call 32 or 256
 * later, which may reuse a slot, has the same size (a call of over 1 KiB bounds the run
 * ahead to shmpi's 32 staging slots). Every value is derived from (round, call, rank).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

enum { kCalls = 1024, kSmallRun = 576, kRounds = 3, kMid = 40, kWide = 200 };

static int me, n;
static int nb;  /* the nonblocking calls, each followed by MPI_Wait */
static long checks;

static void done(int rc, MPI_Request* req) {
  CHECK_MPI(rc);
  if (nb) CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
}

static long val(int round, int call, int rank, int k) { return (long)round * 1000003L + call * 1009L + rank * 31L + k; }
static int width(int call) {
  if (call >= kSmallRun && call % 4 == 3) return kWide;
  return call % 4 == 1 ? kMid : 1;
}

static void maybe_slow(int call) {
  if (me == n - 1 && n > 1 && call % 50 == 0) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

static void run_bcast(int round, int root) {
  long buf[kWide];
  for (int i = 0; i < kCalls; ++i) {
    maybe_slow(i);
    const int w = width(i);
    for (int k = 0; k < w; ++k) buf[k] = me == root ? val(round, i, root, k) : -1;
    MPI_Request req;
    done(nb ? MPI_Ibcast(buf, w, MPI_LONG, root, MPI_COMM_WORLD, &req) : MPI_Bcast(buf, w, MPI_LONG, root, MPI_COMM_WORLD),
         &req);
    for (int k = 0; k < w; ++k, ++checks) {
      CHECK(buf[k] == val(round, i, root, k), "bcast round %d call %d [%d]: %ld", round, i, k, buf[k]);
    }
  }
}

static void run_gather(int round, int root, long* all) {
  long mine[kWide];
  for (int i = 0; i < kCalls; ++i) {
    maybe_slow(i);
    const int w = width(i);
    for (int k = 0; k < w; ++k) mine[k] = val(round, i, me, k);
    if (me == root) memset(all, 0xff, sizeof(long) * (size_t)(n * kWide));
    MPI_Request req;
    done(nb ? MPI_Igather(mine, w, MPI_LONG, all, w, MPI_LONG, root, MPI_COMM_WORLD, &req)
            : MPI_Gather(mine, w, MPI_LONG, all, w, MPI_LONG, root, MPI_COMM_WORLD),
         &req);
    if (me != root) continue;
    for (int r = 0; r < n; ++r) {
      for (int k = 0; k < w; ++k, ++checks) {
        CHECK(all[r * w + k] == val(round, i, r, k), "gather round %d call %d from %d [%d]: %ld", round, i, r, k,
              all[r * w + k]);
      }
    }
  }
}

static void run_scatter(int round, int root, long* all) {
  long mine[kWide];
  for (int i = 0; i < kCalls; ++i) {
    maybe_slow(i);
    const int w = width(i);
    if (me == root) {
      for (int r = 0; r < n; ++r) {
        for (int k = 0; k < w; ++k) all[r * w + k] = val(round, i, r, k);
      }
    }
    for (int k = 0; k < w; ++k) mine[k] = -1;
    MPI_Request req;
    done(nb ? MPI_Iscatter(all, w, MPI_LONG, mine, w, MPI_LONG, root, MPI_COMM_WORLD, &req)
            : MPI_Scatter(all, w, MPI_LONG, mine, w, MPI_LONG, root, MPI_COMM_WORLD),
         &req);
    for (int k = 0; k < w; ++k, ++checks) {
      CHECK(mine[k] == val(round, i, me, k), "scatter round %d call %d [%d]: %ld", round, i, k, mine[k]);
    }
  }
}

static void run_reduce(int round, int root) {
  long mine[kWide], sum[kWide];
  for (int i = 0; i < kCalls; ++i) {
    maybe_slow(i);
    const int w = width(i);
    for (int k = 0; k < w; ++k) {
      mine[k] = val(round, i, me, k);
      sum[k] = -1;
    }
    MPI_Request req;
    done(nb ? MPI_Ireduce(mine, sum, w, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD, &req)
            : MPI_Reduce(mine, sum, w, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD),
         &req);
    if (me != root) continue;
    for (int k = 0; k < w; ++k, ++checks) {
      long want = 0;
      for (int r = 0; r < n; ++r) want += val(round, i, r, k);
      CHECK(sum[k] == want, "reduce round %d call %d [%d]: %ld, want %ld", round, i, k, sum[k], want);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long* all = malloc(sizeof(long) * (size_t)(n * kWide));
  CHECK(all != NULL, "malloc");
  for (nb = 0; nb < 2; ++nb) {
    for (int round = 0; round < kRounds; ++round) {
      const int root = round % n == n - 1 && n > 1 ? 0 : round % n;  // the slow rank is never the root
      run_bcast(round, root);
      run_gather(round, root, all);
      run_scatter(round, root, all);
      run_reduce(round, root);
    }
  }
  long total = 0;
  MPI_Reduce(&checks, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("coll_run_ahead: OK (%ld checks)\n", total);
  free(all);
  MPI_Finalize();
  return 0;
}
