/* die_in_barrier: the last rank kills itself (SIGKILL) while the others sit in
 * MPI_Barrier. A correct MPI must not hang: the launcher ends the job with a non-zero
 * status. Usage: die_in_barrier [return]
 * With "return", the survivors set MPI_ERRORS_RETURN first; the standard does not say
 * what a barrier with a dead member returns (most MPIs kill the survivors instead), so
 * whatever it returns is printed and the survivor exits 5 if it got an error. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks");
  const int ret = argc > 1 && strcmp(argv[1], "return") == 0;
  if (ret) MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1) {
    usleep(200000); /* let the others settle into the barrier (and sleep in it) */
    raise(SIGKILL);
  }
  const int rc = MPI_Barrier(MPI_COMM_WORLD);
  if (ret && rc != MPI_SUCCESS) {
    int cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
    printf("rank %d: MPI_Barrier returned error class %d: %s\n", rank, cls, text);
    return 5;
  }
  /* Only reachable if the barrier completed without the dead rank: that is a bug. */
  fprintf(stderr, "FAIL rank %d left a barrier that rank %d never entered\n", rank, size - 1);
  return 4;
}
