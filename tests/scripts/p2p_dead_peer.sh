#!/usr/bin/env bash
# Under MPI_ERRORS_RETURN, ranks blocked in MPI_Recv from a rank that SIGKILLs itself get
# an error, MPI_ERR_PROC_ABORTED (class 58 in the MPI-5.0 ABI), within 1 s of the kill
# instead of hanging; the runner exits 137 (the first failure: 128 + SIGKILL) and the job
# leaves nothing in /dev/shm. At 2 and 4 ranks (tests/mpi/p2p_dead_peer.c; the checks:
# dead_peer_job in lib.sh).
source "$(dirname "$0")/lib.sh"
for n in 2 4; do dead_peer_job p2p_dead_peer $n 1 MPI_Recv "MPI_Recv from rank 1"; done
