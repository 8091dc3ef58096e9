#!/usr/bin/env bash
# 10,000 barriers at 8 ranks on this machine's cores (2 in CI), every 500th verified,
# within a generous bound (20 s; the peers need 0.6 s (Open MPI) to 340 s (MPICH)).
source "$(dirname "$0")/lib.sh"
out=$("$SHMPIRUN" -n 8 --timeout 60 "$TEST_BIN/barrier_loop" 10000 500 "$scratch" 20) || fail "exit $?: $out"
echo "$out"
# Also under both barrier algorithms explicitly, with fewer iterations.
for algo in central dissemination; do
  SHMPI_BARRIER=$algo "$SHMPIRUN" -n 8 --timeout 60 "$TEST_BIN/barrier_loop" 2000 100 "$scratch" 30 \
    || fail "$algo barrier at 8 ranks failed"
done
