#!/usr/bin/env bash
# Builds the nonblocking and persistent collective test programs (tests/mpi/nbc_*.c) with
# Debian's MPICH or Open MPI and runs each at 1, 2, 4 and 8 ranks with the same assertions
# as the shmpi suite, except the per-peer toggles below: each skips or avoids exactly one
# thing the peer gets wrong (the programs' headers say why). A run passes when it exits 0
# and rank 0 printed "<program>: OK (N checks)".
# nbc_dead_peer.c is only built here: what a collective with a dead member returns is
# shmpi's promise (tests/scripts/nbc_dead_peer.sh), not the standard's.
# Usage: run_nbc_peer.sh mpich|openmpi TESTS_MPI_DIR
peer=$1 src=$2
source "$(dirname "$0")/peer_lib.sh"
progs=(nbc_basic nbc_mixed nbc_overlap nbc_errors nbc_issue_order nbc_compute_wait)
if [ "$peer" = mpich ]; then
  progs+=(nbc_persistent)
else
  # Open MPI 4.1.4 implements MPI-3.1: no MPI_*_init persistent collectives (MPI-4.0), so
  # nbc_persistent.c does not even link; it is neither built nor run.
  :
fi
for p in "${progs[@]}"; do peer_build "$p" -lm; done
peer_build nbc_dead_peer
# Only this script's toggles, none inherited from the caller's environment.
for v in $(compgen -e | grep '^NBC_'); do unset "$v"; done
if [ "$peer" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  # Open MPI 4.1.4 deviation: MPI_Comm_free of a communicator with pending nonblocking
  # collectives frees it under them (segfault in the next MPI_Wait at 4 and 8 ranks).
  export NBC_MIXED_COMM_FREE_PENDING_CRASHES=1
  # On one rank, MPI_Request_free of an MPI_Ibarrier request not yet completed by a test
  # or wait succeeds (erroneous call, MPI-4.1 6.12: an implementation need not detect it).
  export NBC_ERRORS_FREE_ACTIVE_UNCHECKED=1
  # Different counts in a reduction go unchecked (erroneous; undefined).
  export NBC_ERRORS_REDUCTION_MISMATCH_UNCHECKED=1
else
  # MPICH 4.0.2 deviations: MPI_Iallgatherv ignores displs[0] on 1 rank; in-place
  # MPI_Ialltoallw takes recvtypes' sizes at the wrong index (pmodels/mpich#6404);
  # MPI_Testall on a started persistent collective returns MPI_ERR_IN_STATUS;
  # MPI_Gather_init/MPI_Scatter_init/MPI_Allgather_init (in place) do not reread their
  # buffers at each start.
  export NBC_BASIC_ALLGATHERV_SELF_DISPLS_IGNORED=1 NBC_BASIC_IALLTOALLW_INPLACE_TYPE_SIZE=1
  export NBC_ISSUE_ORDER_ALLGATHERV_SELF_DISPLS_IGNORED=1
  export NBC_PERSISTENT_TESTALL_ERR_IN_STATUS=1 NBC_PERSISTENT_SCATTER_GATHER_ALLGATHER_BROKEN=1
  # Different counts in a reduction go unchecked (erroneous; undefined).
  export NBC_ERRORS_REDUCTION_MISMATCH_UNCHECKED=1
fi
peer_run_all "nonblocking collective" "1 2 4 8" "${progs[@]}"
