#!/usr/bin/env bash
# A rank SIGKILLs itself while holding MPI_LOCK_EXCLUSIVE on a target that the others
# wait to lock: the waiters return (MPI_ERR_PROC_ABORTED under MPI_ERRORS_RETURN, the
# fatal handler otherwise) instead of hanging, the runner exits 137 promptly, and no
# file of the job stays in /dev/shm (window memory is memfd-backed: none is ever named).
source "$(dirname "$0")/lib.sh"
for mode in fatal return; do
  for n in 2 4 8; do
    segments > "$scratch/before"
    t0=$(now_ms)
    arg=()
    [ $mode = return ] && arg=(return)
    "$SHMPIRUN" -n $n --timeout 30 "$TEST_BIN/rma_kill_holder" "${arg[@]}" > "$scratch/out" 2>&1
    rc=$?
    dt=$(( $(now_ms) - t0 ))
    cat "$scratch/out"
    [ $rc -eq 137 ] || fail "$mode, $n ranks: runner exit status $rc, expected 137 (128 + SIGKILL)"
    [ $dt -lt 5000 ] || fail "$mode, $n ranks: job took $dt ms to end after the kill (bound 5000)"
    if [ $mode = return ]; then
      # Every survivor that was waiting got the abort as an error class (58 = MPI_ERR_PROC_ABORTED).
      got=$(grep -c "returned error class 58" "$scratch/out")
      [ "$got" -ge 1 ] || fail "$mode, $n ranks: no survivor reported MPI_ERR_PROC_ABORTED"
      ! grep -q FAIL "$scratch/out" || fail "$mode, $n ranks: a survivor got through the dead holder's lock"
    else
      grep -q "died: killed by signal 9" "$scratch/out" || fail "$mode, $n ranks: no survivor named the dead rank"
    fi
    left=$(new_segments "$scratch/before")
    [ -z "$left" ] || fail "segments left in /dev/shm: $left"
    echo "ok: $mode, $n ranks, ended in $dt ms"
  done
done
