/* p2p_dead_peer: rank 1 SIGKILLs itself while every other rank is blocked in MPI_Recv
 * from it, under MPI_ERRORS_RETURN. Run by tests/scripts/p2p_dead_peer.sh (shmpi only).
 *
 * First a checked exchange shows point-to-point works (rank 1 sends every other rank a
 * message). After a barrier the survivors print when they enter MPI_Recv(source 1), rank 1
 * sleeps 300 ms (so they are blocked by then), prints when it dies and raises SIGKILL.
 * The standard does not say what a receive from a dead process returns (shmpi: the
 * error class MPI_ERR_PROC_ABORTED, the job being aborted); a survivor prints what
 * MPI_Recv returned and exits 5 if it was an error, 4 if it succeeded. Times are
 * CLOCK_REALTIME in milliseconds, comparable with `date +%s%3N`. Output lines:
 *   rank R: in MPI_Recv from rank 1 since T ms
 *   rank 1: raising SIGKILL at T ms
 *   rank R: MPI_Recv from rank 1 returned error class C at T ms: <MPI_Error_string>
 * Usage: p2p_dead_peer */
#include "dead_peer.h"

int main(int argc, char** argv) {
  int rank, size;
  dead_peer_init(&argc, &argv, &rank, &size);
  int msg[64];
  if (rank == 1) {
    for (int r = 0; r < size; ++r) {
      if (r == 1) continue;
      for (int i = 0; i < 64; ++i) msg[i] = r * 1000 + i;
      CHECK_MPI(MPI_Send(msg, 64, MPI_INT, r, 7, MPI_COMM_WORLD));
    }
  } else {
    MPI_Status st;
    CHECK_MPI(MPI_Recv(msg, 64, MPI_INT, 1, 7, MPI_COMM_WORLD, &st));
    for (int i = 0; i < 64; ++i) CHECK(msg[i] == rank * 1000 + i, "int %d of the first message is %d", i, msg[i]);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 1) {
    dead_peer_die(1); /* the others are in MPI_Recv by then */
  }
  printf("rank %d: in MPI_Recv from rank 1 since %lld ms\n", rank, now_ms());
  fflush(stdout);
  MPI_Status st;
  const int rc = MPI_Recv(msg, 64, MPI_INT, 1, 8, MPI_COMM_WORLD, &st);
  const long long t = now_ms();
  if (rc != MPI_SUCCESS) return dead_peer_report(rank, "MPI_Recv from rank 1", rc, t);
  /* Only reachable if a receive from a rank that sent nothing completed: that is a bug. */
  fprintf(stderr, "FAIL rank %d: MPI_Recv from the dead rank 1 succeeded\n", rank);
  return 4;
}
