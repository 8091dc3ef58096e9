#!/usr/bin/env bash
# Builds the point-to-point test programs (tests/mpi/p2p_*.c) with Debian's MPICH or Open
# MPI and runs each at 1, 2, 4 and 8 ranks with the same assertions as the shmpi suite,
# except what only shmpi promises (P2P_ERRORS_PEER) and the per-peer toggles below: each
# skips or avoids exactly one thing the peer gets wrong (the programs' headers say why).
# A run passes when it exits 0 and rank 0 printed "<program>: OK (N checks)".
# p2p_dead_peer.c is only built here: what a receive from a dead rank returns is shmpi's
# promise (tests/scripts/p2p_dead_peer.sh), not the standard's.
# Usage: run_p2p_peer.sh mpich|openmpi TESTS_MPI_DIR
set -u
peer=$1 src=$2
command -v "mpicc.$peer" > /dev/null && command -v "mpirun.$peer" > /dev/null || {
  echo "mpicc.$peer/mpirun.$peer not installed: skipping"; exit 77; }
work=$(mktemp -d /tmp/shmpi-p2p-peer.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($peer): $*" >&2; exit 1; }
progs=(p2p_basic p2p_order p2p_probe p2p_requests p2p_errors)
for p in "${progs[@]}" p2p_dead_peer; do
  "mpicc.$peer" -std=gnu11 -Wall -Wextra -Werror -O2 -o "$work/$p" "$src/$p.c" || fail "$p does not build"
done
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
now_ms() { date +%s%3N; }
# MPICH busy-polls: at 8 ranks on 2 cores every synchronization costs a time slice, so
# long timeouts; the programs keep their iteration counts moderate.
total0=$(now_ms)
for n in 1 2 4 8; do
  limit=$(( n > 4 ? 300 : 150 ))
  for p in "${progs[@]}"; do
    t0=$(now_ms)
    timeout "$limit" "mpirun.$peer" -n "$n" "$work/$p" > "$work/out" 2>&1
    rc=$?
    ms=$(( $(now_ms) - t0 ))
    if [ $rc -ne 0 ]; then
      cat "$work/out" >&2
      [ $rc -eq 124 ] && fail "$p at $n ranks: no result within $limit s (hang?)"
      fail "$p at $n ranks: exit status $rc after $ms ms"
    fi
    ok=$(grep -a "^$p: OK (" "$work/out") || { cat "$work/out" >&2; fail "$p at $n ranks: exit 0 but no OK line"; }
    echo "ok: $p at $n ranks, $ms ms: $ok"
  done
done
echo "all point-to-point test programs pass against $peer ($(( ($(now_ms) - total0) / 1000 )) s)"
