/* init_thread: MPI_Init_thread reports a real level and MPI_Query_thread agrees.
 * Usage: init_thread */
#include "check.h"

static int strength(int level) {
  if (level == MPI_THREAD_SINGLE) return 0;
  if (level == MPI_THREAD_FUNNELED) return 1;
  if (level == MPI_THREAD_SERIALIZED) return 2;
  if (level == MPI_THREAD_MULTIPLE) return 3;
  return -1;
}

int main(int argc, char** argv) {
  int provided = -1, queried = -2, main_thread = 0;
  CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
  CHECK(strength(provided) >= 0, "provided %d is not a thread level", provided);
  /* MPI-4.1 11.2.1: provided may be above required, or the highest supported below it. */
  CHECK_MPI(MPI_Query_thread(&queried));
  CHECK(queried == provided, "MPI_Query_thread %d differs from provided %d", queried, provided);
  CHECK_MPI(MPI_Is_thread_main(&main_thread));
  CHECK(main_thread == 1, "the initializing thread is not the main thread");
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
