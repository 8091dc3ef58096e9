/* comm_hold: creates communicators with known members and call counts, then holds a
 * collective hang in place so shmpi-dump can show who has not arrived.
 *   dup     MPI_Comm_dup(MPI_COMM_WORLD), named "dup-of-world" with MPI_Comm_set_name;
 *           every rank makes 1 MPI_Bcast (root 0) and 3 MPI_Allreduce on it.
 *   half    MPI_Comm_split(MPI_COMM_WORLD, rank < size/2 ? 0 : 1, size - rank): each
 *           half in reverse world order (its comm rank 0 is its highest world rank);
 *           every rank makes 2 MPI_Barrier on it.
 *   spare1, spare2  MPI_Comm_split(MPI_COMM_WORLD, 0, rank), never used again until they
 *           are freed (a test may scribble on their blocks while the job holds).
 * Then every rank but the last enters its hang: ranks of half 1 (but the last) enter
 * MPI_Barrier on their half, which waits for the last rank; then (like the ranks of
 * half 0 straight away) MPI_Allreduce on dup, which waits for half 1. The last rank
 * creates READY_FILE and waits (at most 90 s) for RELEASE_FILE before it joins the
 * barrier and the allreduce; every call then completes and its result is checked.
 * Usage: comm_hold READY_FILE RELEASE_FILE (at least 2 ranks). Standard MPI + POSIX. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: comm_hold READY_FILE RELEASE_FILE");
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  const int last = size - 1;
  const int color = rank < size / 2 ? 0 : 1;

  MPI_Comm dup, half, spare1, spare2;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  CHECK_MPI(MPI_Comm_set_name(dup, "dup-of-world"));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &half));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &spare1));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &spare2));

  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
  CHECK(strcmp(name, "dup-of-world") == 0, "dup is named \"%s\"", name);
  int hsize, hrank;
  CHECK_MPI(MPI_Comm_size(half, &hsize));
  CHECK_MPI(MPI_Comm_rank(half, &hrank));
  const int half_lo = color == 0 ? 0 : size / 2, half_hi = color == 0 ? size / 2 - 1 : last;
  CHECK(hsize == half_hi - half_lo + 1 && hrank == half_hi - rank, "half %d: rank %d of %d", color, hrank, hsize);

  /* Known traffic: dup 4 calls (bcast, then 3 allreduce), half 2 barriers. */
  int v = rank == 0 ? 42 : -1;
  CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, dup));
  CHECK(v == 42, "bcast gave %d", v);
  for (int i = 0; i < 3; ++i) {
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK(sum == size * (size - 1) / 2, "allreduce %d gave %d", i, sum);
  }
  CHECK_MPI(MPI_Barrier(half));
  CHECK_MPI(MPI_Barrier(half));
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == last) {
    FILE* f = fopen(argv[1], "w");
    CHECK(f != NULL && fclose(f) == 0, "cannot create %s", argv[1]);
    int waited = 0;
    while (access(argv[2], F_OK) != 0 && waited < 9000) {
      usleep(10000);
      ++waited;
    }
    CHECK(waited < 9000, "%s did not appear within 90 s", argv[2]);
  }
  /* The hang: half 1 waits in its barrier for the last rank, everybody else in the
   * allreduce on dup for half 1. */
  if (color == 1) CHECK_MPI(MPI_Barrier(half));
  int sum = 0;
  CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
  CHECK(sum == size * (size - 1) / 2, "the held allreduce gave %d", sum);

  CHECK_MPI(MPI_Comm_free(&spare2));
  CHECK_MPI(MPI_Comm_free(&spare1));
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Comm_free(&dup));
  MPI_Finalize();
  return 0;
}
