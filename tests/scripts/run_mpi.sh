#!/usr/bin/env bash
# run_mpi.sh PROGRAM NRANKS: runs a test program under shmpirun with its arguments and
# checks the job left nothing in /dev/shm.
source "$(dirname "$0")/lib.sh"
prog=$1 n=$2
segments > "$scratch/before"
case $prog in
  hello) args=("$n" "$scratch") ;;
  *) args=() ;;
esac
"$SHMPIRUN" -n "$n" --timeout 50 "$TEST_BIN/$prog" "${args[@]}" || fail "$prog at $n ranks exited $?"
left=$(new_segments "$scratch/before")
[ -z "$left" ] || fail "segments left in /dev/shm: $left"
echo "ok: $prog at $n ranks"
