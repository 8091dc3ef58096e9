#!/usr/bin/env bash
# run_mpi.sh PROGRAM NRANKS [ARGS...]: runs a test program under shmpirun with its
# arguments and checks the job left nothing in /dev/shm. The rma_* programs check
# shmpi's promises beyond the standard too (RMA_STRICT=1; the peer runs leave it unset).
source "$(dirname "$0")/lib.sh"
prog=$1 n=$2
shift 2
segments > "$scratch/before"
limit=50
case $prog in
  hello) args=("$n" "$scratch") ;;
  coll_*) args=("$@"); limit=170 ;;  # many sizes x roots x communicators; 8 ranks on 2 cores
  p2p_*) args=("$@"); limit=120 ;;   # large messages, storms, 1000 persistent starts; 8 ranks on 2 cores
  nbc_*) args=("$@"); limit=170 ;;   # 1 MiB blocks, 1000 persistent starts; 8 ranks on 2 cores
  rma_*) args=("$@"); export RMA_STRICT=1 ;;
  *) args=("$@") ;;
esac
"$SHMPIRUN" -n "$n" --timeout "$limit" "$TEST_BIN/$prog" "${args[@]}" || fail "$prog at $n ranks exited $?"
left=$(new_segments "$scratch/before")
[ -z "$left" ] || fail "segments left in /dev/shm: $left"
echo "ok: $prog at $n ranks"
