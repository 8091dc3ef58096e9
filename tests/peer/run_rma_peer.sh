#!/usr/bin/env bash
# Builds the RMA test programs with Debian's MPICH or Open MPI and runs them at 2, 4 and
# 8 ranks with the same assertions as the shmpi suite, except what only shmpi promises
# (RMA_STRICT stays unset) and the per-peer toggles below: each skips or widens exactly
# one check that the peer gets wrong (the programs' headers say why).
# Usage: run_rma_peer.sh mpich|openmpi TESTS_MPI_DIR
set -u
peer=$1 src=$2
command -v "mpicc.$peer" > /dev/null && command -v "mpirun.$peer" > /dev/null || {
  echo "mpicc.$peer/mpirun.$peer not installed: skipping"; exit 77; }
work=$(mktemp -d /tmp/shmpi-rma-peer.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($peer): $*" >&2; exit 1; }
for p in rma_errors rma_windows rma_pscw rma_kill_holder; do
  "mpicc.$peer" -std=gnu11 -Wall -Wextra -Werror -O2 -o "$work/$p" "$src/$p.c" || fail "$p does not build"
done
unset RMA_STRICT
if [ "$peer" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  # The default osc/rdma of Open MPI 4.1.4 segfaults in MPI_Compare_and_swap on
  # MPI_Win_allocate windows. osc/sm takes the allocate and shared windows but declines
  # MPI_Win_create and MPI_Win_create_dynamic; osc/pt2pt takes those.
  export OMPI_MCA_osc=sm,pt2pt
  export RMA_ERRORS_FOP_OP_TYPE_UNCHECKED=1 RMA_ERRORS_FOP_USER_OP_UNCHECKED=1 \
    RMA_ERRORS_GETACC_RESULT_COUNT_UNCHECKED=1 RMA_ERRORS_MIXED_TYPE_AS_ARG=1 RMA_ERRORS_CAS_FLOAT_UNCHECKED=1 \
    RMA_ERRORS_ATTACH_FLAVOR_AS_ATTACH=1 RMA_ERRORS_ATTACH_ON_CREATE_UNCHECKED=1
  export RMA_WINDOWS_NONCONTIG_SIZE_ROUNDED=1 RMA_WINDOWS_DEFAULT_NAME_SET=1
else
  export RMA_ERRORS_LOCKTYPE_AS_ARG=1 RMA_ERRORS_ACC_OP_TYPE_UNCHECKED=1 RMA_ERRORS_FOP_OP_TYPE_UNCHECKED=1 \
    RMA_ERRORS_MIXED_TYPE_UNCHECKED=1
  export RMA_WINDOWS_ALLOCATE_SIZES_16=1
  export RMA_PSCW_BARRIER_BETWEEN_PATTERNS=1
fi
now_ms() { date +%s%3N; }
# MPICH busy-polls: at 8 ranks on 2 cores every synchronization costs a time slice.
run() { timeout 300 "mpirun.$peer" "$@"; }

for n in 2 4 8; do
  for p in rma_errors rma_windows rma_pscw; do
    t0=$(now_ms)
    run -n $n "$work/$p" > "$work/out" 2>&1 || { cat "$work/out" >&2; fail "$p at $n ranks"; }
    echo "ok: $p at $n ranks, $(( $(now_ms) - t0 )) ms"
  done
  # A rank dies holding an exclusive lock: the job must end, non-zero, not by timeout.
  t0=$(now_ms)
  timeout 60 "mpirun.$peer" -n $n "$work/rma_kill_holder" > "$work/out" 2>&1
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$work/out" >&2; fail "rma_kill_holder at $n ranks: exit $rc"; }
  grep -q "^FAIL" "$work/out" && { cat "$work/out" >&2; fail "rma_kill_holder at $n ranks"; }
  echo "ok: rma_kill_holder at $n ranks ended with $rc in $(( $(now_ms) - t0 )) ms"
done
timeout 60 "mpirun.$peer" -n 4 "$work/rma_kill_holder" return > "$work/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$work/out" >&2; fail "rma_kill_holder return: exit $rc"; }
grep -q "^FAIL" "$work/out" && { cat "$work/out" >&2; fail "rma_kill_holder return"; }
echo "all RMA test programs pass against $peer"
