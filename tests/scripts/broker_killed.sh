#!/usr/bin/env bash
# The broker SIGKILLed while jobs run (suite 'fault'):
# 1. broker killed mid-job, runner alive: the ranks finish with exact results
#    (MPI_Finalize needs no broker once every rank has passed its final barrier), the
#    runner exits 0 in bounded time, says the broker died and removes the job's segment;
# 2. broker and runner both killed mid-job: the orphaned ranks still finish exactly on
#    their own; their segment is reclaimed by a live broker of ours (the next shmpirun
#    starts one: its start-up and 1 s sweeps remove segments whose broker and ranks are
#    all dead) within 3 s of the last rank's exit, and that next job works;
# 3. all along, a job served by another live broker of ours (another runtime directory)
#    keeps its segment (its broker is alive: never reclaimed) and completes exactly.
source "$(dirname "$0")/lib.sh"
run="$scratch/run" other="$scratch/other"
mkdir -m 700 "$run" "$other"
broker_pid() { sed -n 's/.*shmpid \([0-9]*\) listening.*/\1/p' "$1/shmpid.log" 2> /dev/null | tail -1; }
segment_of() { grep -o "shmpi-$(id -u)-[0-9]*-[0-9a-f]*" "/proc/$1/maps" 2> /dev/null | head -1; }
# start_job DIR NAME SECONDS: fault_workload at 2 ranks for SECONDS through DIR's broker;
# sets $job (runner pid), $pids, $seg.
start_job() {
  SHMPI_RUNTIME_DIR=$1 "$SHMPIRUN" -n 2 --timeout 60 "$TEST_BIN/fault_workload" "$3s" - 256 > "$scratch/$2" 2>&1 &
  job=$!
  for _ in $(seq 500); do
    [ "$(grep -c '^fault_workload: rank [0-9]* pid ' "$scratch/$2")" -eq 2 ] && break
    sleep 0.01
  done
  mapfile -t pids < <(sed -n 's/^fault_workload: rank [0-9]* pid \([0-9]*\)$/\1/p' "$scratch/$2")
  [ ${#pids[@]} -eq 2 ] || { cat "$scratch/$2"; fail "$2: ranks did not start"; }
  seg=$(segment_of "${pids[0]}")
  [ -n "$seg" ] || fail "$2: no segment mapped"
}
exact() { grep -q "^fault_workload: done: 2 ranks, .* all exact" "$scratch/$1" || { cat "$scratch/$1"; fail "$1: no exact result"; }; }
cleanup() {
  for d in "$run" "$other"; do b=$(broker_pid "$d"); [ -n "$b" ] && kill -TERM "$b" 2> /dev/null; done
  rm -rf "$scratch"
}
trap cleanup EXIT

# 3 (begins): a job of the other broker spans everything below.
start_job "$other" C 12
cjob=$job cseg=$seg cpids=("${pids[@]}")
cbroker=$(broker_pid "$other")

# 1: broker killed mid-job, runner alive.
start_job "$run" A 3
b1=$(broker_pid "$run")
[ -n "$b1" ] && [ "$(cat /proc/$b1/comm)" = shmpid ] || fail "no broker for $run"
sleep 1
kill -KILL "$b1"
t0=$(now_ms)
wait $job
rc=$?
dt=$(( $(now_ms) - t0 ))
cat "$scratch/A"
[ $rc -eq 0 ] || fail "A: runner exited $rc after the broker died (the ranks completed)"
exact A
[ $dt -lt 7000 ] || fail "A: the job ended $dt ms after the broker was killed (bound 7000: 2 s of work left + 5 s)"
grep -q "^shmpirun: the broker died during job [0-9]* (.*); \(removed its\|found no\) segment $seg\$" "$scratch/A" \
  || fail "A: the runner did not report the broker's death"
[ ! -e "/dev/shm/$seg" ] || fail "A: segment $seg left in /dev/shm"
echo "ok 1: broker killed mid-job: ranks exact, runner 0, segment gone, ended $dt ms after the kill"

# 2: broker and runner killed mid-job; the ranks run on as orphans.
start_job "$run" B 3
bpids=("${pids[@]}") bseg=$seg
b2=$(broker_pid "$run")
[ -n "$b2" ] && [ "$b2" != "$b1" ] || fail "B: the next shmpirun did not start a new broker"
sleep 1
kill -KILL "$b2" "$job"
wait $job 2> /dev/null
t0=$(now_ms)
for _ in $(seq 1000); do
  alive=0
  for p in "${bpids[@]}"; do [ -d "/proc/$p" ] && alive=1; done
  [ $alive -eq 0 ] && break
  sleep 0.01
done
[ $alive -eq 0 ] || fail "B: orphaned ranks still running 10 s after their broker and runner died"
echo "B: orphaned ranks ended $(( $(now_ms) - t0 )) ms after the kill"
exact B
t1=$(now_ms)
SHMPI_RUNTIME_DIR=$run "$SHMPIRUN" -n 2 --timeout 60 "$TEST_BIN/fault_workload" 5 > "$scratch/D" 2>&1 || { cat "$scratch/D"; fail "D: the job after the broker's death failed"; }
exact D
b3=$(broker_pid "$run")
[ -n "$b3" ] && [ "$b3" != "$b2" ] || fail "D: no new broker"
while [ -e "/dev/shm/$bseg" ] && [ $(( $(now_ms) - t1 )) -lt 3000 ]; do sleep 0.05; done
[ ! -e "/dev/shm/$bseg" ] || fail "B: segment $bseg of the dead broker not reclaimed 3 s after the next broker started"
who=$(grep -l "reclaiming segment $bseg" "$run/shmpid.log" "$other/shmpid.log" 2> /dev/null | head -1)
echo "ok 2: broker and runner killed: orphans finished exactly, segment reclaimed (logged by ${who:-another broker of this user})"

# 3: the other broker's job kept its segment throughout and completes exactly.
kill -0 "$cjob" 2> /dev/null || fail "C ended before the checks (make it longer)"
[ -e "/dev/shm/$cseg" ] || fail "C: the live job's segment $cseg was removed by another broker"
[ "$(broker_pid "$other")" = "$cbroker" ] || fail "C: its broker changed"
wait $cjob || { cat "$scratch/C"; fail "C: exited $?"; }
exact C
[ ! -e "/dev/shm/$cseg" ] || fail "C: segment left"
echo "ok 3: a live broker's job was never touched"
