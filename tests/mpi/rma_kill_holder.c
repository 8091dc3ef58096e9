/* rma_kill_holder: the last rank takes MPI_Win_lock(MPI_LOCK_EXCLUSIVE) on rank 0's
 * window and makes sure it really holds it (a Put and MPI_Win_flush: an MPI may take a
 * lock lazily), then, while every other rank waits to lock rank 0's window exclusively
 * too, SIGKILLs itself. A correct MPI must not hang: the launcher ends the job with a
 * non-zero status, or the waiters' calls fail.
 * Usage: rma_kill_holder [return] [acc | mid-acc [DELAY_MS]]
 * With "return", the survivors set MPI_ERRORS_RETURN on the window and on
 * MPI_COMM_WORLD first; the standard does not say what an RMA call returns when a peer
 * has died (MPI-4.1 3.8: no mechanisms for process failures), so whatever a survivor
 * gets is printed as
 *   rank R: CALL returned error class C: TEXT
 * and the survivor exits 5. A survivor that gets the lock, unlocks, and then leaves an
 * MPI_Barrier that the dead rank never entered prints FAIL and exits 4.
 *
 * Two more survivor behaviours (tests/scripts/fault_inject.sh runs them):
 *   rma_kill_holder [return] acc
 *     as above, but the survivors wait with MPI_Win_lock(MPI_LOCK_SHARED) and then
 *     MPI_Accumulate 1 MiB onto the held target: the accumulate path must not get
 *     through (or hang on) the dead holder's lock either.
 *   rma_kill_holder [return] mid-acc [DELAY_MS]
 *     every rank repeats MPI_Win_lock(MPI_LOCK_SHARED) + MPI_Accumulate(SUM) of 4 MiB +
 *     MPI_Win_unlock on rank 0's window; DELAY_MS (default 50) after the start the last
 *     rank's helper thread (it makes no MPI call; MPI_THREAD_FUNNELED) waits until the
 *     main thread is inside MPI_Accumulate (3 s at most: an MPI whose accumulate only
 *     queues is rarely caught there), prints "rank R: raising SIGKILL inside (or
 *     outside) MPI_Accumulate at T ms" and raises SIGKILL: the victim dies holding the
 *     target's shared lock and, most likely, one of its accumulate stripes. The
 *     survivors, still accumulating onto the same target, must not hang; a survivor
 *     that is still going 10 s later prints FAIL and exits 4. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static long long wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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

/* mid-acc: the victim's main thread sets in_acc around MPI_Accumulate; the killer
 * thread raises SIGKILL once it is set after the delay. */
static volatile int in_acc;
static int killer_delay_ms = 50, killer_rank;

static void* killer(void* arg) {
  (void)arg;
  usleep((useconds_t)killer_delay_ms * 1000);
  /* An MPI whose MPI_Accumulate only queues the operation is rarely caught inside it:
   * after 3 s the victim dies wherever it is (and says so). */
  const long long give_up = wall_ms() + 3000;
  int inside = 0;
  while (!(inside = __atomic_load_n(&in_acc, __ATOMIC_ACQUIRE)) && wall_ms() < give_up) sched_yield();
  printf("rank %d: raising SIGKILL %s MPI_Accumulate at %lld ms\n", killer_rank, inside ? "inside" : "outside",
         wall_ms());
  fflush(stdout);
  raise(SIGKILL);
  return NULL;
}

static int mid_acc(int rank, int size, int ret, MPI_Win win, long long* base, long len) {
  const int victim = size - 1, target = 0;
  long long* origin = malloc((size_t)len * sizeof *origin);
  CHECK(origin != NULL, "malloc");
  for (long i = 0; i < len; ++i) origin[i] = rank + 1;
  (void)base;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == victim) {
    pthread_t t;
    killer_rank = rank;
    CHECK(pthread_create(&t, NULL, killer, NULL) == 0, "pthread_create");
  }
  const long long t0 = wall_ms();
  int status = 0;
  for (long it = 0; status == 0; ++it) {
    if (rank != victim && wall_ms() - t0 > 10000) {
      fprintf(stderr, "FAIL rank %d still accumulating 10 s after the start (%ld rounds): rank %d never died\n",
              rank, it, victim);
      status = 4;
      break;
    }
    int rc = MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
    if (rc != MPI_SUCCESS) {
      status = ret ? report(rank, "MPI_Win_lock", rc) : 6;
      break;
    }
    __atomic_store_n(&in_acc, 1, __ATOMIC_RELEASE);
    rc = MPI_Accumulate(origin, (int)len, MPI_LONG_LONG, target, 0, (int)len, MPI_LONG_LONG, MPI_SUM, win);
    __atomic_store_n(&in_acc, 0, __ATOMIC_RELEASE);
    if (rc != MPI_SUCCESS) status = ret ? report(rank, "MPI_Accumulate", rc) : 6;
    else if ((rc = MPI_Win_unlock(target, win)) != MPI_SUCCESS) status = ret ? report(rank, "MPI_Win_unlock", rc) : 6;
  }
  free(origin);
  return status;
}

int main(int argc, char** argv) {
  int ret = 0, acc = 0, midacc = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "return") == 0) ret = 1;
    else if (strcmp(argv[i], "acc") == 0) acc = 1;
    else if (strcmp(argv[i], "mid-acc") == 0) midacc = 1;
    else killer_delay_ms = atoi(argv[i]);
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks");
  CHECK(!midacc || provided >= MPI_THREAD_FUNNELED, "mid-acc needs MPI_THREAD_FUNNELED (got %d)", provided);
  const int holder = size - 1, target = 0;

  if (midacc) {
    const long len = 4L << 20 >> 3; /* 4 MiB of long long */
    long long* big = NULL;
    MPI_Win bwin;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)(len * 8), 8, MPI_INFO_NULL, MPI_COMM_WORLD, &big, &bwin));
    memset(big, 0, (size_t)len * 8);
    if (ret) {
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      MPI_Win_set_errhandler(bwin, MPI_ERRORS_RETURN);
    }
    return mid_acc(rank, size, ret, bwin, big, len);
  }

  int* base = NULL;
  MPI_Win win;
  /* acc: room for the survivors' 1 MiB accumulate. */
  const MPI_Aint bytes = acc ? 1 << 20 : 8 * sizeof(int);
  CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
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
  if (acc) {
    /* Shared lock + 1 MiB accumulate onto the held target: neither may get through. */
    enum { kLen = 1 << 17 };
    static long long ones[kLen];
    for (int i = 0; i < kLen; ++i) ones[i] = 1;
    int rc = MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
    if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Win_lock", rc) : 6;
    rc = MPI_Accumulate(ones, kLen, MPI_LONG_LONG, target, 0, kLen, MPI_LONG_LONG, MPI_SUM, win);
    if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Accumulate", rc) : 6;
    rc = MPI_Win_unlock(target, win);
    if (rc != MPI_SUCCESS) return ret ? report(rank, "MPI_Win_unlock", rc) : 6;
    fprintf(stderr, "FAIL rank %d accumulated under a shared lock that dead rank %d held exclusively\n", rank, holder);
    return 4;
  }
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
