/* rma_contended: every rank hammers one shared counter with MPI_Fetch_and_op: the
 * contended case that OSU's two-rank latency tests never show. Standard MPI only, so the
 * same source builds against shmpi, Open MPI and MPICH.
 *
 *   rma_contended ITERATIONS WARMUP REPETITIONS [FLAVOUR]     FLAVOUR: allocate (default) | create
 *
 * The counter is one int64 at displacement 0 of rank 0's window (flavour FLAVOUR; rma_util.h).
 * Every rank, rank 0 included, opens one MPI_Win_lock_all epoch and per iteration does
 *   MPI_Fetch_and_op(+1, MPI_INT64_T, MPI_SUM, target 0); MPI_Win_flush(0)
 * WARMUP times (fewer if that takes over 0.1 s), then REPETITIONS timed loops of ITERATIONS
 * iterations (after a loop that took much longer than about 200 ms in aggregate, the next
 * ones are shortened like rma_latency's: rma_util.h capped_iters; rank 0 decides, every rank
 * uses its value). Each loop starts after one MPI_Barrier; every
 * rank reads CLOCK_MONOTONIC (one clock for all processes of the node) at its start and its
 * end, and the loop's time is the latest end minus the earliest start over all ranks
 * (combined at rank 0 with MPI_Accumulate MPI_MIN / MPI_MAX in a fence epoch: no collectives
 * besides MPI_Barrier are assumed). Reported: that time divided by the updates of all ranks,
 * i.e. microseconds per counter update in aggregate (lower is better; 1 / it is the
 * aggregate update rate).
 *
 * Checks: each rank's fetched values must strictly increase, and at the end the counter
 * must equal ranks x (warmup + timed iterations) exactly. Rank 0 prints
 *   RESULT bench=rma_contended ranks=<n> min_us=<x> median_us=<y> iters=<i> updates_per_s=<r>
 *          count=<c> expected=<e>
 * or, if a check fails, an error on stderr, no RESULT line and exit status 1.
 */
#include "bench_util.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "rma_util.h"

/* Loop length target: longer than the latency loops' (a loop spans all ranks' start and
 * end skew; oversubscribed, a scheduling quantum is several ms). */
#define CONTENDED_BUDGET_S 0.2

static inline void hammer(MPI_Win win, int64_t* last, long* bad) {
  const int64_t one = 1;
  int64_t got = -1;
  MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 0, 0, MPI_SUM, win);
  MPI_Win_flush(0, win);
  if (got <= *last) ++*bad;
  *last = got;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int ok = argc == 4 || argc == 5;
  const long iters_arg = parse_arg(argc, argv, 1, 20000, 1, 1000000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 2000, 0, 1000000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  enum flavour flav = FLAVOUR_ALLOCATE;
  if (ok && argc == 5) ok = parse_flavour(argv[4], &flav);
  if (!ok) {
    if (rank == 0) fprintf(stderr, "usage: %s ITERATIONS WARMUP REPETITIONS [allocate|create]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }

  void* base = NULL;
  void* priv = NULL;
  MPI_Win win = make_window(flav, 64, &base, &priv);
  /* Control window: [0] earliest start, [1] latest end, [2] wrong fetched values, [3] rank 0's
   * loop length. */
  double* ctl = NULL;
  MPI_Win ctl_win;
  MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &ctl, &ctl_win);

  int64_t last = -1;
  long bad = 0;
  MPI_Win_lock_all(0, win);
  /* Warmup in chunks, stopped early once it has taken WARMUP_BUDGET_S (rank 0 decides). The
   * first timed loop runs ITERATIONS (rank 0's own pace says little about the aggregate: its
   * updates are local); later loops are shortened from the aggregate time of the previous one. */
  long warmed = 0; /* warmup iterations done, per rank */
  double spent = 0.0;
  for (int k = 0;; ++k) {
    const long len = warmup_chunk(warmup, warmed, k);
    if (len == 0) break;
    const double w0 = MPI_Wtime();
    for (long i = 0; i < len; ++i) hammer(win, &last, &bad);
    spent += MPI_Wtime() - w0;
    warmed += len;
    if (share_from_rank0(spent > WARMUP_BUDGET_S, ctl_win, ctl)) break;
  }
  long iters = iters_arg;

  double us[MAX_REPS];
  long total = 0; /* iterations of the timed loops, per rank */
  long shortest = iters;
  for (int r = 0; r < reps; ++r) {
    if (iters < shortest) shortest = iters;
    MPI_Barrier(MPI_COMM_WORLD); /* pre-timing barrier, same for every library */
    const double t0 = now_s();
    for (long i = 0; i < iters; ++i) hammer(win, &last, &bad);
    const double t1 = now_s();
    total += iters;
    /* Earliest start and latest end over all ranks, at rank 0. */
    if (rank == 0) ctl[0] = INFINITY, ctl[1] = -INFINITY;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, ctl_win);
    MPI_Accumulate(&t0, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_MIN, ctl_win);
    MPI_Accumulate(&t1, 1, MPI_DOUBLE, 0, 8, 1, MPI_DOUBLE, MPI_MAX, ctl_win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, ctl_win);
    if (rank == 0) us[r] = 1e6 * (ctl[1] - ctl[0]) / ((double)iters * (double)size);
    /* Rank 0 decides from the aggregate loop time (the others' values are ignored). */
    const double loop_s = rank == 0 ? ctl[1] - ctl[0] : t1 - t0;
    if (r + 1 < reps) iters = share_from_rank0(next_loop_iters(iters, loop_s, CONTENDED_BUDGET_S, iters_floor(iters_arg)), ctl_win, ctl);
  }
  MPI_Win_unlock_all(win);

  /* Wrong fetched values of all ranks, summed at rank 0. */
  const double my_bad = (double)bad;
  if (rank == 0) ctl[2] = 0.0;
  MPI_Win_fence(MPI_MODE_NOPRECEDE, ctl_win);
  MPI_Accumulate(&my_bad, 1, MPI_DOUBLE, 0, 16, 1, MPI_DOUBLE, MPI_SUM, ctl_win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, ctl_win);
  MPI_Barrier(MPI_COMM_WORLD);

  int status = 0;
  if (rank == 0) {
    int64_t count = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&count, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, win);
    MPI_Win_unlock(0, win);
    const int64_t expected = (int64_t)size * (int64_t)(warmed + total);
    if (count != expected || ctl[2] != 0.0) {
      fprintf(stderr, "rma_contended: WRONG RESULT: counter %lld, expected %lld; %.0f fetched values not increasing\n",
              (long long)count, (long long)expected, ctl[2]);
      status = 1;
    } else {
      double sorted[MAX_REPS];
      memcpy(sorted, us, sizeof(double) * (size_t)reps);
      qsort(sorted, (size_t)reps, sizeof sorted[0], cmp_double);
      const double med = reps % 2 ? sorted[reps / 2] : 0.5 * (sorted[reps / 2 - 1] + sorted[reps / 2]);
      char extra[160];
      snprintf(extra, sizeof extra, "updates_per_s=%.0f count=%lld expected=%lld", 1e6 / med, (long long)count,
               (long long)expected);
      print_result_extra(flav == FLAVOUR_ALLOCATE ? "rma_contended" : "rma_contended_create", size, us, reps,
                         shortest, extra);
    }
  }
  MPI_Win_free(&ctl_win);
  free_window(&win, priv);
  MPI_Finalize();
  return status;
}
