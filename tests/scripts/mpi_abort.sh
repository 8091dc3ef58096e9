#!/usr/bin/env bash
# MPI_Abort(MPI_COMM_WORLD, 7) from rank 1: the job ends quickly with status 7, the
# others say why, and nothing is left in /dev/shm.
source "$(dirname "$0")/lib.sh"
segments > "$scratch/before"
t0=$(now_ms)
"$SHMPIRUN" -n 4 --timeout 30 "$TEST_BIN/abort_one" 2> "$scratch/err"
rc=$?
dt=$(( $(now_ms) - t0 ))
cat "$scratch/err"
[ $rc -eq 7 ] || fail "runner exit status $rc, expected the errorcode 7"
[ $dt -lt 5000 ] || fail "job took $dt ms to end"
grep -q "rank 1 (pid [0-9]*) called MPI_Abort with errorcode 7" "$scratch/err" || fail "no rank reported the abort"
left=$(new_segments "$scratch/before")
[ -z "$left" ] || fail "segments left in /dev/shm: $left"
echo "ok: abort ended the job in $dt ms"
