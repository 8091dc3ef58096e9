/* abort_one: rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7) while the others sit in
 * MPI_Barrier. The job must end with a non-zero status (shmpirun, MPICH and Open MPI
 * all report the errorcode, 7). Usage: abort_one */
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks");
  if (rank == 1) {
    usleep(200000);
    MPI_Abort(MPI_COMM_WORLD, 7);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "FAIL rank %d left a barrier that rank 1 never entered\n", rank);
  return 4;
}
