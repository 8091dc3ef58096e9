/* die_in_barrier: the last rank kills itself (SIGKILL) while the others sit in
 * MPI_Barrier. A correct MPI must not hang: the launcher ends the job with a non-zero
 * status. Usage: die_in_barrier */
#include <signal.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1) {
    usleep(200000); /* let the others settle into the barrier (and sleep in it) */
    raise(SIGKILL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* Only reachable if the barrier completed without the dead rank: that is a bug. */
  fprintf(stderr, "FAIL rank %d left a barrier that rank %d never entered\n", rank, size - 1);
  return 4;
}
