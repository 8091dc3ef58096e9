#!/usr/bin/env bash
# Under MPI_ERRORS_RETURN, ranks waiting in MPI_Wait on an MPI_Iallreduce that the last
# rank never joins (it SIGKILLs itself) get an error, MPI_ERR_PROC_ABORTED (class 58 in
# the MPI-5.0 ABI), within 1 s of the kill instead of hanging; the runner exits 137 (the
# first failure: 128 + SIGKILL) and the job leaves nothing in /dev/shm. At 2 and 4 ranks
# (tests/mpi/nbc_dead_peer.c).
source "$(dirname "$0")/lib.sh"
for n in 2 4; do
  last=$((n - 1))
  segments > "$scratch/before"
  t0=$(now_ms)
  "$SHMPIRUN" -n $n --timeout 30 "$TEST_BIN/nbc_dead_peer" > "$scratch/out" 2>&1
  rc=$?
  dt=$(( $(now_ms) - t0 ))
  cat "$scratch/out"
  ! grep -q "FAIL" "$scratch/out" || fail "$n ranks: a survivor failed"
  [ $rc -eq 137 ] || fail "$n ranks: runner exit status $rc, expected 137 (128 + SIGKILL, the first failure)"
  [ $dt -lt 5000 ] || fail "$n ranks: the job took $dt ms (bound 5000)"
  kill_ms=$(sed -n "s/^rank $last: raising SIGKILL at \([0-9]*\) ms\$/\1/p" "$scratch/out")
  [ -n "$kill_ms" ] || fail "$n ranks: rank $last did not report raising SIGKILL"
  got=0
  while read -r r since; do
    [ "$since" -lt "$kill_ms" ] || fail "$n ranks: rank $r entered MPI_Wait only after the kill"
    line=$(grep "^rank $r: MPI_Wait on MPI_Iallreduce returned error class " "$scratch/out") \
      || fail "$n ranks: rank $r did not return from MPI_Wait with an error"
    cls=$(sed -n 's/.* returned error class \([0-9]*\) at .*/\1/p' <<< "$line")
    at=$(sed -n 's/.* at \([0-9]*\) ms: .*/\1/p' <<< "$line")
    [ "$cls" = 58 ] || fail "$n ranks: rank $r: error class $cls, expected 58 (MPI_ERR_PROC_ABORTED)"
    delay=$(( at - kill_ms ))
    [ $delay -lt 1000 ] || fail "$n ranks: rank $r: MPI_Wait returned $delay ms after the kill (bound 1000)"
    echo "rank $r: MPI_ERR_PROC_ABORTED $delay ms after the kill"
    got=$((got + 1))
  done < <(sed -n 's/^rank \([0-9]*\): in MPI_Wait on MPI_Iallreduce since \([0-9]*\) ms$/\1 \2/p' "$scratch/out")
  [ $got -eq $((n - 1)) ] || fail "$n ranks: $got of $((n - 1)) survivors reported being in MPI_Wait"
  left=$(new_segments "$scratch/before")
  [ -z "$left" ] || fail "$n ranks: segments left in /dev/shm: $left"
  echo "ok: $n ranks, job ended in $dt ms"
done
