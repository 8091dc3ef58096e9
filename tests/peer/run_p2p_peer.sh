#!/usr/bin/env bash
# Builds the point-to-point test programs (tests/mpi/p2p_*.c) with Debian's MPICH or Open
# MPI and runs each at 1, 2, 4 and 8 ranks with the same assertions as the shmpi suite,
# except what only shmpi promises (P2P_ERRORS_PEER) and the per-peer toggles below: each
# skips or avoids exactly one thing the peer gets wrong (the programs' headers say why).
# A run passes when it exits 0 and rank 0 printed "<program>: OK (N checks)".
# p2p_dead_peer.c is only built here: what a receive from a dead rank returns is shmpi's
# promise (tests/scripts/p2p_dead_peer.sh), not the standard's.
# Usage: run_p2p_peer.sh mpich|openmpi TESTS_MPI_DIR
peer=$1 src=$2
source "$(dirname "$0")/peer_lib.sh"
progs=(p2p_basic p2p_order p2p_probe p2p_requests p2p_errors)
for p in "${progs[@]}" p2p_dead_peer; do peer_build "$p"; done
# Only this script's toggles, none inherited from the caller's environment.
for v in $(compgen -e | grep '^P2P_'); do unset "$v"; done
export P2P_ERRORS_PEER=1
if [ "$peer" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  # Open MPI 4.1.4 deviations, each toggle avoiding only what it names:
  # restarted MPI_Bsend_init requests of 1 KiB or more resend stale data;
  # MPI_Probe(MPI_COMM_NULL) is fatal despite MPI_ERRORS_RETURN; small MPI_Bsends ignore
  # the attached buffer's size; after a failed MPI_Bsend nothing more reaches that peer on
  # that communicator; a truncated 1 MiB message overruns the receive buffer.
  export P2P_REQUESTS_BSEND_INIT_SMALL_ONLY=1
  export P2P_ERRORS_PROBE_COMM_NULL_FATAL=1 P2P_ERRORS_BSEND_SMALL_UNCHECKED=1 \
    P2P_ERRORS_BSEND_ERROR_BREAKS_CHANNEL=1 P2P_ERRORS_TRUNCATE_LARGE_OVERRUNS=1
else
  # MPICH 4.0.2 deviations: a nonblocking receive from MPI_PROC_NULL completes with source
  # and tag 0; two freed MPI_Isend requests to oneself make the receive of the first hang.
  export P2P_BASIC_IRECV_PROC_NULL_STATUS_ZERO=1
  export P2P_REQUESTS_FREED_SELF_SENDS_ONE_AT_A_TIME=1
fi
peer_run_all point-to-point "1 2 4 8" "${progs[@]}"
