/* nbc_dead_peer: the last rank SIGKILLs itself while every other rank waits in MPI_Wait
 * on a pending MPI_Iallreduce that cannot complete without it, under MPI_ERRORS_RETURN.
 * Run by tests/scripts/nbc_dead_peer.sh (shmpi only).
 *
 * First a checked MPI_Iallreduce shows the collective works with everybody alive. After
 * a barrier the survivors start MPI_Iallreduce on MPI_COMM_WORLD, print when they enter
 * MPI_Wait, and wait; the last rank sleeps 300 ms (so they are waiting by then), prints
 * when it dies and raises SIGKILL without ever starting the collective. The standard
 * does not say what a collective with a dead member returns (shmpi: the error class
 * MPI_ERR_PROC_ABORTED, the job being aborted); a survivor prints what MPI_Wait returned
 * and exits 5 if it was an error, 4 if it succeeded (a bug: the sum lacks a member).
 * Times are CLOCK_REALTIME in milliseconds, comparable with `date +%s%3N`. Output lines:
 *   rank R: in MPI_Wait on MPI_Iallreduce since T ms
 *   rank L: raising SIGKILL at T ms
 *   rank R: MPI_Wait on MPI_Iallreduce returned error class C at T ms: <MPI_Error_string>
 * Usage: nbc_dead_peer */
#include "dead_peer.h"

int main(int argc, char** argv) {
  int rank, size;
  dead_peer_init(&argc, &argv, &rank, &size);
  const int last = size - 1;
  int in[64], out[64];
  MPI_Request rq;
  for (int i = 0; i < 64; ++i) in[i] = rank * 1000 + i, out[i] = -1;
  CHECK_MPI(MPI_Iallreduce(in, out, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
  CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
  for (int i = 0; i < 64; ++i)
    CHECK(out[i] == 1000 * size * (size - 1) / 2 + size * i, "int %d of the first MPI_Iallreduce is %d", i, out[i]);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == last) {
    dead_peer_die(last); /* the others are in MPI_Wait by then */
  }
  CHECK_MPI(MPI_Iallreduce(in, out, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
  printf("rank %d: in MPI_Wait on MPI_Iallreduce since %lld ms\n", rank, now_ms());
  fflush(stdout);
  const int rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
  const long long t = now_ms();
  if (rc != MPI_SUCCESS) return dead_peer_report(rank, "MPI_Wait on MPI_Iallreduce", rc, t);
  /* Only reachable if a reduction lacking a member completed: that is a bug. */
  fprintf(stderr, "FAIL rank %d: MPI_Wait on MPI_Iallreduce succeeded without rank %d\n", rank, last);
  return 4;
}
