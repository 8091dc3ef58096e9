/* win_hold: creates two RMA windows, leaves them in known lock/epoch states with known
 * call counts, and holds them there so shmpi-dump can look at the running job.
 *   window 1: MPI_Win_allocate, 1024 ints per rank, info accumulate_ordering=none;
 *             rank 1 holds MPI_Win_lock(EXCLUSIVE) on target 0, after 3 MPI_Fetch_and_op
 *             and 1 MPI_Put to target 0.
 *   window 2: MPI_Win_create on static memory, no info; rank 2 holds MPI_Win_lock_all,
 *             after MPI_Put to targets 0 and size-1 and 1 MPI_Fetch_and_op on target 1.
 * Then rank 0 creates READY_FILE and every rank waits (at most 30 s) for RELEASE_FILE,
 * releases its locks and checks the values the calls left.
 * Usage: win_hold READY_FILE RELEASE_FILE (at least 3 ranks). Standard MPI + POSIX. */
#include <stdio.h>
#include <unistd.h>

#include "check.h"

static int static_mem[256];

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: win_hold READY_FILE RELEASE_FILE");
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 3, "needs at least 3 ranks, got %d", size);

  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "none"));
  int* mem1 = NULL;
  MPI_Win win1, win2;
  CHECK_MPI(MPI_Win_allocate(1024 * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &mem1, &win1));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Win_create(static_mem, sizeof static_mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win2));

  const int one = 1;
  int old = -1;
  if (rank == 1) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win1));
    for (int i = 0; i < 3; ++i) {
      CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win1));
      CHECK_MPI(MPI_Win_flush(0, win1));
      CHECK(old == i, "fetch_and_op %d on window 1 returned %d", i, old);
    }
    const int v = 7;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win1));
    CHECK_MPI(MPI_Win_flush(0, win1));
  }
  if (rank == 2) {
    CHECK_MPI(MPI_Win_lock_all(0, win2));
    const int v = 42;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win2));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, size - 1, 0, 1, MPI_INT, win2));
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, 1, 1, MPI_SUM, win2));
    CHECK_MPI(MPI_Win_flush_all(win2));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    FILE* f = fopen(argv[1], "w");
    CHECK(f != NULL && fclose(f) == 0, "cannot create %s", argv[1]);
  }
  int waited = 0;
  while (access(argv[2], F_OK) != 0 && waited < 3000) {
    usleep(10000);
    ++waited;
  }
  CHECK(waited < 3000, "%s did not appear within 30 s", argv[2]);

  if (rank == 1) CHECK_MPI(MPI_Win_unlock(0, win1));
  if (rank == 2) CHECK_MPI(MPI_Win_unlock_all(win2));
  MPI_Barrier(MPI_COMM_WORLD);
  /* Local loads of our own window memory inside a lock epoch on ourselves. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win1));
  if (rank == 0) CHECK(mem1[0] == 3 && mem1[1] == 7, "window 1 at rank 0: %d %d, expected 3 7", mem1[0], mem1[1]);
  CHECK_MPI(MPI_Win_unlock(rank, win1));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win2));
  if (rank == 0 || rank == size - 1) CHECK(static_mem[0] == 42, "window 2 at rank %d: %d, expected 42", rank, static_mem[0]);
  if (rank == 1) CHECK(static_mem[1] == 1, "window 2 at rank 1: %d, expected 1", static_mem[1]);
  CHECK_MPI(MPI_Win_unlock(rank, win2));
  CHECK_MPI(MPI_Win_free(&win2));
  CHECK_MPI(MPI_Win_free(&win1));
  MPI_Finalize();
  return 0;
}
