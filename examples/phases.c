/* phases: a bulk-synchronous program in the shape of many real codes. The ranks
 * integrate 4/(1+x^2) over [0,1] (= pi) with the midpoint rule in many short phases
 * separated by MPI_Barrier, then report their partial sums in rank order (rank order is
 * enforced with barriers too). The sum of the partial sums printed is pi.
 *
 * Build against any MPI:  shmpicc phases.c -o phases   (or mpicc)
 * Run:                    shmpirun -n 4 ./phases [phases]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long phases = argc > 1 ? atol(argv[1]) : 20000;
  const long per_phase = 10000;
  const double n = (double)phases * (double)per_phase;

  double partial = 0.0, barrier_time = 0.0;
  for (long p = 0; p < phases; ++p) {
    /* Phase p covers intervals [p*per_phase, (p+1)*per_phase); each rank takes every
     * size-th one. */
    for (long i = p * per_phase + rank; i < (p + 1) * per_phase; i += size) {
      const double x = ((double)i + 0.5) / n;
      partial += 4.0 / (1.0 + x * x);
    }
    const double b0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    barrier_time += MPI_Wtime() - b0;
  }
  for (int r = 0; r < size; ++r) {
    if (r == rank) {
      printf("rank %d of %d: partial sum %.15f after %ld phases (%.2f us per barrier)\n", rank, size, partial / n,
             phases, 1e6 * barrier_time / (double)phases);
      fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
