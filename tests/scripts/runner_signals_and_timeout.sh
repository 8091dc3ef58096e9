#!/usr/bin/env bash
# SIGTERM to the runner reaches the ranks and ends the job; --timeout ends a stuck job
# with status 124; a rank that exits non-zero before MPI_Init fails the job. Nothing is
# left in /dev/shm in any case.
source "$(dirname "$0")/lib.sh"
segments > "$scratch/before"
"$SHMPIRUN" -n 2 "$TEST_BIN/print_core" "$scratch/never" > /dev/null &
r=$!
sleep 1
kill -TERM $r
wait $r
rc=$?
[ $rc -eq 143 ] || fail "runner exit $rc after SIGTERM, expected 143"
t0=$(now_ms)
"$SHMPIRUN" -n 2 --timeout 1 "$TEST_BIN/print_core" "$scratch/never" > /dev/null
rc=$?
dt=$(( $(now_ms) - t0 ))
[ $rc -eq 124 ] || fail "runner exit $rc on timeout, expected 124"
[ $dt -lt 4000 ] || fail "timeout of 1 s took $dt ms"
"$SHMPIRUN" -n 2 /bin/false
rc=$?
[ $rc -eq 1 ] || fail "runner exit $rc when ranks exit 1, expected 1"
"$SHMPIRUN" -n 2 /nonexistent/program 2> "$scratch/err"
rc=$?
[ $rc -eq 127 ] || fail "runner exit $rc for a missing program, expected 127"
grep -q "cannot execute /nonexistent/program" "$scratch/err" || fail "no message for the missing program"
left=$(new_segments "$scratch/before")
[ -z "$left" ] || fail "segments left in /dev/shm: $left"
echo "ok"
