/* p2p_dead_sender: the receiver notices a dead sender by itself. Run by
 * tests/scripts/dead_sender_blame.sh (shmpi only: it stops the runner, so the broker hears
 * of the death only from the closed socket, 200 ms later).
 *
 * 2 ranks, MPI_ERRORS_RETURN. Rank 1 starts an MPI_Isend of 256 KiB to rank 0 (large
 * enough that the receiver copies it out of the sender's memory), sends its pid, creates
 * READY and waits for GO; then it raises SIGKILL. Rank 0 waits until rank 1's process has
 * exited (gone, or a zombie: /proc/<pid>/stat, Linux) and only then posts MPI_Recv: the
 * copy out of the dead sender fails (ESRCH) before the job is aborted. What counts is how
 * that is reported: MPI_ERR_PROC_ABORTED naming the dead rank, not a failure of rank 0's
 * own (which, under MPI_ERRORS_ARE_FATAL, aborted the job as "rank 0 called MPI_Abort"
 * and made rank 0's exit the job's first failure). Prints
 *   rank 0: MPI_Recv returned error class C: <MPI_Error_string>
 * and exits 5 (or prints FAIL and exits 4 if the receive succeeded).
 * Usage: p2p_dead_sender READY GO */
#include <fcntl.h>
#include <string.h>

#include "dead_peer.h"

enum { kLen = 1 << 16 }; /* ints: 256 KiB */

static int exited(int pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE* f = fopen(path, "r");
  if (!f) return 1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char* close = strrchr(buf, ')');
  return close != NULL && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X');
}

int main(int argc, char** argv) {
  int rank, size;
  dead_peer_init(&argc, &argv, &rank, &size);
  CHECK(argc == 3 && size == 2, "usage: p2p_dead_sender READY GO, at 2 ranks");
  static int buf[kLen];
  if (rank == 1) {
    for (int i = 0; i < kLen; ++i) buf[i] = i;
    MPI_Request req;
    CHECK_MPI(MPI_Isend(buf, kLen, MPI_INT, 0, 9, MPI_COMM_WORLD, &req));
    int pid = (int)getpid();
    CHECK_MPI(MPI_Send(&pid, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
    close(open(argv[1], O_WRONLY | O_CREAT, 0600));
    while (access(argv[2], F_OK) != 0) usleep(1000);
    printf("rank 1: raising SIGKILL at %lld ms\n", now_ms());
    fflush(stdout);
    raise(SIGKILL);
  }
  int pid = 0;
  CHECK_MPI(MPI_Recv(&pid, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  while (!exited(pid)) usleep(1000);
  const int rc = MPI_Recv(buf, kLen, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS) {
    fprintf(stderr, "FAIL rank 0 received from a dead sender\n");
    return 4;
  }
  return dead_peer_report(0, "MPI_Recv", rc, now_ms());
}
