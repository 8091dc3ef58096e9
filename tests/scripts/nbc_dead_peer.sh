#!/usr/bin/env bash
# Under MPI_ERRORS_RETURN, ranks waiting in MPI_Wait on an MPI_Iallreduce that the last
# rank never joins (it SIGKILLs itself) get an error, MPI_ERR_PROC_ABORTED (class 58 in
# the MPI-5.0 ABI), within 1 s of the kill instead of hanging; the runner exits 137 (the
# first failure: 128 + SIGKILL) and the job leaves nothing in /dev/shm. At 2 and 4 ranks
# (tests/mpi/nbc_dead_peer.c; the checks: dead_peer_job in lib.sh).
source "$(dirname "$0")/lib.sh"
for n in 2 4; do dead_peer_job nbc_dead_peer $n $((n - 1)) MPI_Wait "MPI_Wait on MPI_Iallreduce"; done
