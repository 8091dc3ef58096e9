/* hello: every rank sees a consistent world. Usage: hello EXPECTED_SIZE SCRATCH_DIR
 * Checks rank/size, version and name queries, MPI_Wtime monotonicity, and that every
 * rank really ran: each rank creates SCRATCH_DIR/hello.<rank> before a barrier, and
 * after it every rank finds all of them (POSIX files, so no other MPI call is needed). */
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: hello EXPECTED_SIZE SCRATCH_DIR");
  int flag = 1;
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 0, "MPI_Initialized before MPI_Init gave %d", flag);
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 1, "MPI_Initialized after MPI_Init gave %d", flag);
  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size == atoi(argv[1]), "size %d, expected %s", size, argv[1]);
  CHECK(rank >= 0 && rank < size, "rank %d outside 0..%d", rank, size - 1);
  int srank = -1, ssize = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &srank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &ssize));
  CHECK(srank == 0 && ssize == 1, "MPI_COMM_SELF rank %d size %d", srank, ssize);

  int version = 0, subversion = -1;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION, "version %d.%d, header says %d.%d", version,
        subversion, MPI_VERSION, MPI_SUBVERSION);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = -1;
  CHECK_MPI(MPI_Get_library_version(lib, &len));
  /* MPI-4.1 9.1.1: resultlen excludes the terminating null. Open MPI 4.1 counts it; the
   * peer run against it sets HELLO_RESULTLEN_COUNTS_NUL (a known Open MPI deviation). */
  const int nul = getenv("HELLO_RESULTLEN_COUNTS_NUL") != NULL;
  CHECK(len > 0 && (int)strlen(lib) + nul == len, "library version length %d, strlen %d", len, (int)strlen(lib));
  char name[MPI_MAX_PROCESSOR_NAME];
  CHECK_MPI(MPI_Get_processor_name(name, &len));
  CHECK(len > 0 && (int)strlen(name) == len, "processor name length %d", len);

  const double t0 = MPI_Wtime();
  usleep(20000);
  const double t1 = MPI_Wtime();
  CHECK(t1 - t0 >= 0.019 && t1 - t0 < 5.0, "MPI_Wtime advanced %.6f s over a 20 ms sleep", t1 - t0);
  CHECK(MPI_Wtick() > 0 && MPI_Wtick() <= 0.001, "MPI_Wtick %g", MPI_Wtick());

  char path[4096];
  snprintf(path, sizeof path, "%s/hello.%d", argv[2], rank);
  FILE* f = fopen(path, "w");
  CHECK(f != NULL, "cannot create %s", path);
  fclose(f);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int r = 0; r < size; ++r) {
    snprintf(path, sizeof path, "%s/hello.%d", argv[2], r);
    CHECK(access(path, F_OK) == 0, "after the barrier, rank %d's file %s is missing", r, path);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));
  printf("hello from rank %d of %d\n", rank, size);
  CHECK_MPI(MPI_Finalize());
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == 1, "MPI_Finalized after MPI_Finalize gave %d", flag);
  return 0;
}
