#!/usr/bin/env bash
# A survivor that notices a dead peer by itself (a copy out of the dead sender's memory
# fails) must report the peer's death, not a failure of its own: MPI_ERR_PROC_ABORTED
# naming the dead rank (tests/mpi/p2p_dead_sender.c). The runner is stopped (SIGSTOP)
# across the death so the broker learns of it only from the closed socket (200 ms
# later): before the fix rank 0 got MPI_ERR_OTHER "could not copy ... No such process",
# and under the fatal handler aborted the job as its own MPI_Abort (fault_inject.sh
# found it: the job then ended with that rank's status instead of 137).
source "$(dirname "$0")/lib.sh"
for try in 1 2 3; do
  rm -f "$scratch/ready" "$scratch/go"
  : > "$scratch/out"  # the background job truncates it only once it runs
  "$SHMPIRUN" -n 2 --timeout 30 -x SHMPI_P2P_PIPELINE=0 "$TEST_BIN/p2p_dead_sender" "$scratch/ready" "$scratch/go" > "$scratch/out" 2>&1 &
  job=$!
  for _ in $(seq 1000); do [ -e "$scratch/ready" ] && break; kill -0 $job 2> /dev/null || break; sleep 0.01; done
  [ -e "$scratch/ready" ] || { cat "$scratch/out"; fail "rank 1 never got ready"; }
  kill -STOP $job
  touch "$scratch/go"
  for _ in $(seq 500); do grep -q "^rank 0: MPI_Recv returned" "$scratch/out" && break; sleep 0.01; done
  kill -CONT $job
  wait $job
  cat "$scratch/out"
  line=$(grep "^rank 0: MPI_Recv returned error class " "$scratch/out") || fail "rank 0 did not report an error from MPI_Recv"
  grep -q "^rank 0: MPI_Recv returned error class 58 .*rank 1 (pid [0-9]*) died" <<< "$line" \
    || fail "rank 0's error does not report rank 1's death as MPI_ERR_PROC_ABORTED (58)"
  echo "ok: try $try"
done
