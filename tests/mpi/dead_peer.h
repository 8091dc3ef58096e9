/* Helpers nbc_dead_peer.c and p2p_dead_peer.c share (run by the scripts of the same
 * names in tests/scripts, whose dead_peer_job in lib.sh reads their output): start-up
 * under MPI_ERRORS_RETURN, the victim's death and the survivors' report. Times are
 * CLOCK_REALTIME in milliseconds, comparable with `date +%s%3N`. Standard MPI C plus
 * POSIX. */
#ifndef SHMPI_TESTS_DEAD_PEER_H
#define SHMPI_TESTS_DEAD_PEER_H

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static inline long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* MPI_Init, this rank and the size (at least 2), MPI_ERRORS_RETURN on MPI_COMM_WORLD. */
static inline void dead_peer_init(int* argc, char*** argv, int* rank, int* size) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  CHECK(*size >= 2, "needs at least 2 ranks");
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

/* The victim: sleeps 300 ms (the others are waiting by then), prints
 * "rank R: raising SIGKILL at T ms" and raises SIGKILL. */
static inline void dead_peer_die(int rank) {
  usleep(300000);
  printf("rank %d: raising SIGKILL at %lld ms\n", rank, now_ms());
  fflush(stdout);
  raise(SIGKILL);
}

/* A survivor whose wait returned the error rc at time t: prints
 * "rank R: WHAT returned error class C at T ms: <MPI_Error_string>"; returns the exit
 * status 5. */
static inline int dead_peer_report(int rank, const char* what, int rc, long long t) {
  int cls = -1, len = 0;
  char text[MPI_MAX_ERROR_STRING] = "";
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  printf("rank %d: %s returned error class %d at %lld ms: %s\n", rank, what, cls, t, text);
  fflush(stdout);
  return 5;
}

#endif
