/* barrier_loop: ITERS barriers; every CHECK_EVERY-th one is verified. Usage:
 *   barrier_loop ITERS CHECK_EVERY SCRATCH_DIR [MAX_SECONDS]
 * A verified barrier i: each rank creates SCRATCH_DIR/b<i>.<rank> just before it, and
 * right after it finds the files of all ranks (no rank may leave before all arrived).
 * MAX_SECONDS (if > 0) bounds the whole loop on rank 0. */
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  CHECK(argc >= 4, "usage: barrier_loop ITERS CHECK_EVERY SCRATCH_DIR [MAX_SECONDS]");
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long iters = atol(argv[1]);
  const long every = atol(argv[2]);
  const double max_s = argc > 4 ? atof(argv[4]) : 0;
  char path[4096];
  const double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) {
    const int verify = every > 0 && i % every == 0;
    if (verify) {
      snprintf(path, sizeof path, "%s/b%ld.%d", argv[3], i, rank);
      FILE* f = fopen(path, "w");
      CHECK(f != NULL, "cannot create %s", path);
      fclose(f);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (verify) {
      for (int r = 0; r < size; ++r) {
        snprintf(path, sizeof path, "%s/b%ld.%d", argv[3], i, r);
        CHECK(access(path, F_OK) == 0, "barrier %ld: rank %d had not arrived (%s missing)", i, r, path);
      }
    }
  }
  const double dt = MPI_Wtime() - t0;
  if (rank == 0) {
    printf("%ld barriers at %d ranks: %.3f s (%.2f us each)\n", iters, size, dt, 1e6 * dt / (double)iters);
    CHECK(max_s <= 0 || dt <= max_s, "%ld barriers took %.2f s, bound %.2f s", iters, dt, max_s);
  }
  MPI_Finalize();
  return 0;
}
