#!/usr/bin/env bash
# Fault injection (meson suite 'fault'). Usage: fault_inject.sh [RUNS] (default 100).
#
# Random part: RUNS times, start tests/mpi/fault_workload at 4 or 8 ranks (8 on 2 cores),
# wait a random 0-MAX_DELAY_MS ms (default 400) after every rank printed its pid (in 3
# runs of 4: after the victim entered the loop), SIGKILL a random rank, then check:
#   - the job ends within 5 s of the kill (measured from the kill to the runner's exit);
#   - the runner exits 137: its first-failure rule gives 128 + SIGKILL for the victim,
#     which it reaps before any survivor can fail (survivors learn of the death from
#     the broker, which hears of it from the runner or 200 ms after the socket closed);
#   - the runner names the victim: "shmpirun: rank R (pid P) killed by signal 9";
#   - no survivor printed FAIL (no check failed on the way down);
#   - nothing of the job is left in /dev/shm and no rank process is left alive;
#   - the broker stays the same process (checked when SHMPI_RUNTIME_DIR names its
#     directory, as under meson) and healthy: every next run works through it, and after
#     the last kill a full fault_workload run must end exact.
# The phase the victim was in comes from its phase file (fault_workload PHASE_DIR).
# Prints a tally: runs by rank count, kills by phase, end time after the kill (max, mean).
#
# Targeted part (tests/mpi/rma_kill_holder.c; rma_kill_holder.sh covers the exclusive
# holder with survivors waiting in MPI_Win_lock(EXCLUSIVE) at 2, 4, 8 ranks):
#   - the holder of MPI_LOCK_EXCLUSIVE dies while the survivors wait in
#     MPI_Win_lock(SHARED) to MPI_Accumulate 1 MiB onto the same target ("acc"), at 4 and
#     8 ranks, fatal and MPI_ERRORS_RETURN;
#   - a rank dies inside a 4 MiB MPI_Accumulate while the survivors keep accumulating
#     onto the same target under shared locks ("mid-acc"), 6 tries with varied delays at
#     4 and 8 ranks: the job ends 137 within 5 s; under MPI_ERRORS_RETURN every survivor
#     either reports MPI_ERR_PROC_ABORTED or, if its calls never had to wait for the dead
#     rank, is stopped by the runner (it kills what still runs 500 ms after a failure).
# FAULT_SEED makes the random choices repeatable (printed at the start).
source "$(dirname "$0")/lib.sh"
runs=${1:-100}
max_delay=${MAX_DELAY_MS:-400}
seed=${FAULT_SEED:-$$}
RANDOM=$seed
echo "fault_inject: $runs runs, seed $seed, kill delay 0-$max_delay ms"

# Waits up to 5 s for the runner $1 to exit; sets $end_ms (ms after $2) and $rc. A job
# still running then is a hang: its state is printed, it is killed, and the test fails.
wait_end() {
  local pid=$1 kill_ms=$2 p
  while kill -0 "$pid" 2> /dev/null && [ $(( $(now_ms) - kill_ms )) -lt 5000 ]; do sleep 0.01; done
  end_ms=$(( $(now_ms) - kill_ms ))
  if kill -0 "$pid" 2> /dev/null; then
    "$SHMPI_DUMP" 2>&1 | head -20
    for p in $(pgrep -P "$pid"); do echo "rank process $p: state $(awk '{print $3}' /proc/$p/stat), wchan $(cat /proc/$p/wchan)"; done
    kill -KILL $(pgrep -P "$pid") 2> /dev/null
    wait "$pid"
    fail "${3:-job} still running 5 s after the kill"
  fi
  wait "$pid"
  rc=$?
}

# The broker serving this runtime directory (its log names it), if we know the directory.
broker_pid() { sed -n 's/.*shmpid \([0-9]*\) listening.*/\1/p' "${SHMPI_RUNTIME_DIR:-/nonexistent}/shmpid.log" 2> /dev/null | tail -1; }
first_broker=

# The job's segment, from a rank's mappings (other users' jobs come and go meanwhile).
segment_of() { grep -o "shmpi-$(id -u)-[0-9]*-[0-9a-f]*" "/proc/$1/maps" 2> /dev/null | head -1; }
# ... or from the broker's log line for the job of runner pid $1: a job killed early can
# end before a poll of its ranks' mappings comes round (seen under ASan on a loaded
# machine: "killed inside MPI_Accumulate after 0 ms").
segment_by_runner() {
  sed -n "s/.*runner pid $1, segment \(shmpi-[0-9]*-[0-9]*-[0-9a-f]*\) .*/\1/p" \
    "${SHMPI_RUNTIME_DIR:-/nonexistent}/shmpid.log" 2> /dev/null | tail -1
}

# check_gone WHAT PID...: every PID must be gone.
check_gone() {
  local what=$1 p
  shift
  for p in "$@"; do
    [ ! -d "/proc/$p" ] || [ "$(awk '{print $3}' "/proc/$p/stat" 2> /dev/null)" = Z ] \
      || fail "$what: rank process $p still alive after the job ended"
  done
}

declare -A by_phase=() by_n=()
max_end=0 sum_end=0 t_start=$(now_ms)
for i in $(seq "$runs"); do
  n=$(( RANDOM % 2 == 0 ? 4 : 8 ))
  ph="$scratch/ph$i"
  mkdir "$ph"
  # Emptied here: the background job's own redirection truncates it only once the child
  # runs, and the wait below must not count the previous run's lines.
  : > "$scratch/out"
  "$SHMPIRUN" -n $n --timeout 120 "$TEST_BIN/fault_workload" 60s "$ph" > "$scratch/out" 2>&1 &
  job=$!
  for _ in $(seq 1000); do
    [ "$(grep -c '^fault_workload: rank [0-9]* pid ' "$scratch/out")" -eq $n ] && break
    kill -0 $job 2> /dev/null || break
    sleep 0.01
  done
  mapfile -t pids < <(sed -n 's/^fault_workload: rank \([0-9]*\) pid \([0-9]*\)$/\1 \2/p' "$scratch/out" | sort -n | cut -d' ' -f2)
  if [ ${#pids[@]} -ne $n ]; then
    kill -0 $job 2> /dev/null && echo "runner $job still running; ranks: $(pgrep -P $job | tr '\n' ' ')"
    ls -la "$scratch/out" "$ph"; od -c "$scratch/out" | head -20
    tail -5 "${SHMPI_RUNTIME_DIR:-/nonexistent}/shmpid.log" 2> /dev/null
    kill -KILL $job 2> /dev/null
    fail "run $i: only ${#pids[@]} of $n ranks started"
  fi
  seg=$(segment_of "${pids[0]}")
  [ -n "$seg" ] || fail "run $i: no segment mapped by rank 0 (pid ${pids[0]})"
  [ $i -eq 1 ] && first_broker=$(broker_pid)
  victim=$(( RANDOM % n ))
  vpid=${pids[$victim]}
  delay=$(( RANDOM % (max_delay + 1) ))
  # Setting up (window creation) takes ~100-200 ms; in 3 runs of 4 the delay starts
  # once the victim is in the loop, so most kills land in the mixed phases.
  if [ $(( RANDOM % 4 )) -ne 0 ]; then
    for _ in $(seq 500); do
      case $(tr -d '\0' < "$ph/phase.$victim") in init|setup|'') sleep 0.01 ;; *) break ;; esac
    done
  fi
  sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
  kill -KILL "$vpid" || fail "run $i: rank $victim (pid $vpid) was gone before the kill"
  kill_ms=$(now_ms)
  phase=$(tr -d '\0' < "$ph/phase.$victim")
  phase=${phase:-unknown}
  wait_end $job "$kill_ms" "run $i ($n ranks, rank $victim killed in $phase)"
  [ $rc -eq 137 ] || { cat "$scratch/out"; fail "run $i: runner exit status $rc, expected 137 (128 + SIGKILL)"; }
  grep -q "^shmpirun: rank $victim (pid $vpid) killed by signal 9" "$scratch/out" \
    || { cat "$scratch/out"; fail "run $i: the runner did not name the dead rank $victim"; }
  ! grep -q FAIL "$scratch/out" || { cat "$scratch/out"; fail "run $i: a check failed"; }
  [ ! -e "/dev/shm/$seg" ] || fail "run $i: the job's segment $seg is left in /dev/shm"
  check_gone "run $i" "${pids[@]}"
  rm -rf "$ph"
  by_phase[$phase]=$(( ${by_phase[$phase]:-0} + 1 ))
  by_n[$n]=$(( ${by_n[$n]:-0} + 1 ))
  sum_end=$(( sum_end + end_ms ))
  [ $end_ms -gt $max_end ] && max_end=$end_ms
  printf 'run %d: %d ranks, rank %d killed after %d ms in %s, job ended %d ms later\n' \
    "$i" $n $victim "$delay" "$phase" "$end_ms"
done
t_random=$(( $(now_ms) - t_start ))

# The broker survived all of it: the same process, and a whole run completes exactly.
if [ -n "$first_broker" ]; then
  [ "$(broker_pid)" = "$first_broker" ] && kill -0 "$first_broker" 2> /dev/null \
    || fail "the broker changed during the kills (first pid $first_broker, now $(broker_pid))"
fi
"$SHMPIRUN" -n 4 --timeout 60 "$TEST_BIN/fault_workload" 20 > "$scratch/out" 2>&1 \
  || { cat "$scratch/out"; fail "a full run after the kills failed"; }
grep -q "all exact" "$scratch/out" || fail "the full run after the kills did not end exact"

echo "tally: $runs runs in $t_random ms ($(for k in "${!by_n[@]}"; do printf '%s ranks: %s; ' "$k" "${by_n[$k]}"; done))"
echo "kills by phase:"
for k in "${!by_phase[@]}"; do printf '  %-14s %d\n' "$k" "${by_phase[$k]}"; done | sort
echo "job end after the kill: max $max_end ms, mean $(( sum_end / runs )) ms (bound 5000)"

# ---- targeted: dead lock holder, dead accumulator ------------------------------------
# targeted NAME N ARGS...: rma_kill_holder ARGS at N ranks, checks the common outcome;
# leaves the output in $scratch/out for the caller's own checks.
targeted() {
  local name=$1 n=$2
  shift 2
  : > "$scratch/out"  # not the previous run's "killed by signal 9" (see above)
  "$SHMPIRUN" -n "$n" --timeout 60 "$TEST_BIN/rma_kill_holder" "$@" > "$scratch/out" 2>&1 &
  local job=$! t0 seg= p
  t0=$(now_ms)
  while [ -z "$seg" ] && kill -0 $job 2> /dev/null && [ $(( $(now_ms) - t0 )) -lt 5000 ]; do
    for p in $(pgrep -P $job); do seg=$(segment_of "$p"); [ -n "$seg" ] && break; done
    [ -n "$seg" ] || sleep 0.005
  done
  [ -n "$seg" ] || seg=$(segment_by_runner $job)
  [ -n "$seg" ] || fail "$name at $n ranks: no rank mapped the job's segment, and the broker logged none"
  # The kill is the victim's own: measured from its report, or from the start.
  while kill -0 $job 2> /dev/null && ! grep -q "killed by signal 9" "$scratch/out" \
    && [ $(( $(now_ms) - t0 )) -lt 20000 ]; do sleep 0.005; done
  wait_end $job "$(now_ms)" "$name at $n ranks"
  cat "$scratch/out"
  [ $rc -eq 137 ] || fail "$name at $n ranks: runner exit status $rc, expected 137"
  grep -q "^shmpirun: rank $((n - 1)) (pid [0-9]*) killed by signal 9" "$scratch/out" \
    || fail "$name at $n ranks: the runner did not name the dead rank $((n - 1))"
  ! grep -q FAIL "$scratch/out" || fail "$name at $n ranks: a survivor got through or hung"
  [ ! -e "/dev/shm/$seg" ] || fail "$name at $n ranks: the job's segment $seg is left in /dev/shm"
  echo "ok: $name at $n ranks: ended $end_ms ms after the runner saw the death"
}
for n in 4 8; do
  targeted "exclusive holder killed, survivors lock shared + accumulate" $n acc
  grep -c "died: killed by signal 9" "$scratch/out" | grep -q "^$((n - 1))$" \
    || fail "acc at $n ranks: not every survivor named the dead holder"
  targeted "exclusive holder killed, survivors lock shared + accumulate (errors return)" $n return acc
  [ "$(grep -c 'returned error class 58' "$scratch/out")" -eq $((n - 1)) ] \
    || fail "return acc at $n ranks: not every survivor got MPI_ERR_PROC_ABORTED"
done
for d in 0 15 40 80 150 300; do
  n=$(( d % 3 == 0 ? 4 : 8 ))
  targeted "killed inside MPI_Accumulate after $d ms (errors return)" $n return mid-acc $d
  grep -q "raising SIGKILL inside MPI_Accumulate" "$scratch/out" || fail "mid-acc: the victim did not die inside MPI_Accumulate"
  got=$(grep -c 'returned error class 58' "$scratch/out")
  stopped=$(grep -c "still running after the failure" "$scratch/out")
  [ "$got" -ge 1 ] || fail "mid-acc after $d ms: no survivor got MPI_ERR_PROC_ABORTED"
  [ "$got" -eq $((n - 1)) ] || [ "$stopped" -eq 1 ] || fail "mid-acc after $d ms: $got of $((n - 1)) survivors reported and the runner stopped none"
done
targeted "killed inside MPI_Accumulate (fatal)" 8 mid-acc 30
echo "ok: fault injection: $runs random kills, max end $max_end ms after the kill; targeted kills passed"
