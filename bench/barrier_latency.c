/* barrier_latency: MPI_Barrier latency on MPI_COMM_WORLD. Standard MPI only, so the
 * same source builds against shmpi, Open MPI and MPICH.
 *
 *   barrier_latency [ITERATIONS [WARMUP [REPETITIONS]]]     defaults: 20000 2000 5
 *
 * Every rank does WARMUP barriers, then REPETITIONS timed loops of ITERATIONS barriers.
 * Each timed loop is preceded by one untimed barrier (so all ranks start it together)
 * and timed with MPI_Wtime on every rank; rank 0 uses its own timings (the usual measure,
 * and the only one possible without reductions). Per-barrier latency is loop time /
 * ITERATIONS. Rank 0 prints one line:
 *
 *   RESULT bench=barrier ranks=<n> min_us=<x> median_us=<y> iters=<i>
 *
 * min and median are over the REPETITIONS loops.
 */
#include "bench_util.h"  /* first: it selects POSIX for clock_gettime */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>


int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int ok = 1;
  const long iters = parse_arg(argc, argv, 1, 20000, 1, 1000000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 2000, 0, 1000000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  if (!ok) {
    if (rank == 0)
      fprintf(stderr, "usage: %s [ITERATIONS>=1 [WARMUP>=0 [REPETITIONS 1..%d]]]\n", argv[0], MAX_REPS);
    MPI_Finalize();
    return 2;
  }

  for (long i = 0; i < warmup; ++i) MPI_Barrier(MPI_COMM_WORLD);

  double per_barrier_us[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD); /* pre-timing barrier: everyone enters the loop together */
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) MPI_Barrier(MPI_COMM_WORLD);
    const double t1 = MPI_Wtime();
    per_barrier_us[r] = 1e6 * (t1 - t0) / (double)iters;
  }

  if (rank == 0) {
    print_result("barrier", size, per_barrier_us, reps, iters);
  }
  MPI_Finalize();
  return 0;
}
