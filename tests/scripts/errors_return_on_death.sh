#!/usr/bin/env bash
# Under MPI_ERRORS_RETURN a survivor's MPI_Barrier returns MPI_ERR_PROC_ABORTED (class
# 58 in the MPI-5.0 ABI) naming the dead rank, instead of hanging or killing it.
source "$(dirname "$0")/lib.sh"
"$SHMPIRUN" -n 3 --timeout 30 "$TEST_BIN/die_in_barrier" return > "$scratch/out" 2>&1
rc=$?
cat "$scratch/out"
[ $rc -eq 137 ] || fail "runner exit $rc, expected 137"
n=$(grep -c "MPI_Barrier returned error class 58: MPI_Barrier: job aborted: rank 2 (pid [0-9]*) died: killed by signal 9" "$scratch/out")
[ "$n" -eq 2 ] || fail "expected both survivors to get MPI_ERR_PROC_ABORTED, got $n"
echo "ok"
