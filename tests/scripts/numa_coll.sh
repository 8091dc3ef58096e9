#!/usr/bin/env bash
# The NUMA-aware collectives (libclient/src/coll/numa.hpp) on this one-node machine: a
# broker of our own loads a synthetic two-node topology into hwloc (HWLOC_SYNTHETIC,
# one core per node, the machine's two cores), so the ranks it places report two NUMA
# nodes and every communicator that spans both takes the leader path. Runs coll_numa
# (which checks the leaders MPI_Comm_get_info reports) and the collective test programs.
source "$(dirname "$0")/lib.sh"
[ "$(nproc)" -ge 2 ] || { echo "needs 2 cores (one per synthetic node)"; exit 77; }
export SHMPI_RUNTIME_DIR="$scratch/run"
export HWLOC_SYNTHETIC="numa:2 core:1 pu:1"
segments > "$scratch/before"
"$SHMPID" --idle-timeout 2 || fail "shmpid did not start"
for _ in $(seq 100); do [ -S "$SHMPI_RUNTIME_DIR/broker.sock" ] && break; sleep 0.05; done
[ -S "$SHMPI_RUNTIME_DIR/broker.sock" ] || fail "no socket"

run() {  # run NRANKS PROGRAM
  "$SHMPIRUN" -n "$1" --timeout 170 "$TEST_BIN/$2" || fail "$2 at $1 ranks exited $?"
  echo "ok: $2 at $1 ranks"
}
# Cores are taken 0, 1, 0, 1, ... and ranks are sorted by node: the first node's ranks
# come first, and each node's lowest rank leads it.
for t in "2 0,1" "3 0,2" "4 0,2" "8 0,4"; do
  set -- $t
  COLL_NUMA_LEADERS=$2 COLL_NUMA_ONE_BAD=1 run "$1" coll_numa
done
for n in 3 4 8; do
  for p in coll_basic coll_reduce coll_errors coll_determinism; do run "$n" "$p"; done
done
# The switch back to the flat path: no leaders reported, results the same.
SHMPI_COLL_NUMA=0 run 4 coll_numa
left=$(new_segments "$scratch/before")
[ -z "$left" ] || fail "segments left in /dev/shm: $left"
echo "ok: NUMA-aware collectives on a synthetic two-node topology"
