/* rma_kill_holder: the last rank takes MPI_Win_lock(MPI_LOCK_EXCLUSIVE) on rank 0's
 * window and makes sure it really holds it (a Put and MPI_Win_flush: an MPI may take a
 * lock lazily), then, while every other rank waits to lock rank 0's window exclusively
 * too, SIGKILLs itself. A correct MPI must not hang: the launcher ends the job with a
 * non-zero status, or the waiters' calls fail.
 * Usage: rma_kill_holder [return]
 * With "return", the survivors set MPI_ERRORS_RETURN on the window and on
 * MPI_COMM_WORLD first; the standard does not say what an RMA call returns when a peer
 * has died (MPI-4.1 3.8: no mechanisms for process failures), so whatever a survivor
 * gets is printed as
 *   rank R: CALL returned error class C: TEXT
 * and the survivor exits 5. A survivor that gets the lock, unlocks, and then leaves an
 * MPI_Barrier that the dead rank never entered prints FAIL and exits 4. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int report(int rank, const char* call, int rc) {
  int cls = -1, len = 0;
  char text[MPI_MAX_ERROR_STRING];
  text[0] = '\0';
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  printf("rank %d: %s returned error class %d: %s\n", rank, call, cls, text);
  fflush(stdout);
  return 5;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks");
  const int ret = argc > 1 && strcmp(argv[1], "return") == 0;
  const int holder = size - 1, target = 0;

  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  for (int i = 0; i < 8; ++i) base[i] = 0;
  if (ret) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  if (rank == holder) {
    const int mark = 1000 + rank;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    CHECK_MPI(MPI_Put(&mark, 1, MPI_INT, target, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(target, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the others may now try to lock */
    usleep(300000);                         /* let them settle into waiting (and sleep in it) */
    raise(SIGKILL);
  }

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  int rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win);
  if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Win_lock", rc) : 6;
  /* A lazily acquired lock is taken here at the latest. */
  int got = -1;
  rc = MPI_Get(&got, 1, MPI_INT, target, 0, 1, MPI_INT, win);
  if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Get", rc) : 6;
  rc = MPI_Win_flush(target, win);
  if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Win_flush", rc) : 6;
  rc = MPI_Win_unlock(target, win);
  if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Win_unlock", rc) : 6;
  /* The lock was broken after the holder died (its Put must be there): the job is
   * still one member short, so a barrier with everyone must not complete. */
  if (got != 1000 + holder)
    fprintf(stderr, "FAIL rank %d got the lock but not the dead holder's completed Put (%d)\n", rank, got);
  rc = MPI_Barrier(MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Barrier", rc) : 6;
  fprintf(stderr, "FAIL rank %d left a barrier that rank %d (killed) never entered\n", rank, holder);
  return 4;
}
