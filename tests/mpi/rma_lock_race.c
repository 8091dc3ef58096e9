/* rma_lock_race: every rank takes the same shared lock at the same moment, many times
 * (MPI-4.1 13.5.3: shared locks and lock_all epochs may be held concurrently). A rank
 * whose atomic update of the lock word loses to another shared locker must retry, not
 * sleep until a release: the winner releases only after the next barrier, which waits
 * for the loser, so a lost race hangs the job (shmpirun's timeout fails the test).
 * Checks MPI_Win_lock_all, MPI_Win_lock(MPI_LOCK_SHARED) on one target, and that the
 * epochs work (a MPI_Get of the target's value).
 * Usage: rma_lock_race [ROUNDS]   (default 3000 of each) */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = 0, nranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const int rounds = argc > 1 ? atoi(argv[1]) : 3000;
  int* base = NULL;
  MPI_Win win;
  /* 64 bytes, not 4: with 4-byte windows MPICH 4.0.2 reads the neighbour's value. */
  CHECK_MPI(MPI_Win_allocate(64, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  /* Through RMA, so the value is in the public copy whatever the memory model. */
  const int mine = 1000 + rank;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  CHECK_MPI(MPI_Put(&mine, 1, MPI_INT, rank, 0, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < rounds; ++i) {
    const int target = i % nranks;
    int v = -1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(target, win));
    CHECK(v == 1000 + target, "round %d lock_all: read %d from rank %d", i, v, target);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_unlock_all(win));
    v = -1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
    CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(target, win));
    CHECK(v == 1000 + target, "round %d shared lock: read %d from rank %d", i, v, target);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_unlock(target, win));
  }
  CHECK_MPI(MPI_Win_free(&win));
  if (rank == 0) printf("ok: rma_lock_race: %d rounds at %d ranks\n", rounds, nranks);
  MPI_Finalize();
  return 0;
}
