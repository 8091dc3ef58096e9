#!/usr/bin/env bash
# A rank SIGKILLs itself while the others sit in MPI_Barrier: the runner exits non-zero
# in under 5 s, the survivors name the dead rank, and /dev/shm holds nothing of the job.
source "$(dirname "$0")/lib.sh"
for n in 2 4 8; do
  segments > "$scratch/before"
  t0=$(now_ms)
  "$SHMPIRUN" -n $n --timeout 30 "$TEST_BIN/die_in_barrier" 2> "$scratch/err"
  rc=$?
  dt=$(( $(now_ms) - t0 ))
  cat "$scratch/err"
  [ $rc -ne 0 ] || fail "runner exited 0 after a rank was killed"
  [ $rc -eq 137 ] || fail "runner exit status $rc, expected 137 (128 + SIGKILL, the first failure)"
  [ $dt -lt 5000 ] || fail "job took $dt ms to end after the kill (bound 5000)"
  grep -q "rank $((n - 1)) (pid [0-9]*) died: killed by signal 9" "$scratch/err" \
    || fail "no survivor named the dead rank $((n - 1))"
  left=$(new_segments "$scratch/before")
  [ -z "$left" ] || fail "segments left in /dev/shm: $left"
  echo "ok: $n ranks, ended in $dt ms"
done
