#!/usr/bin/env bash
# Security model checks (docs/security.md), against a broker of our own with a job held
# in a known state (p2p_hold: segment, inboxes and communicator blocks all live):
#  1. modes/owners of everything the broker and the ranks create;
#  2. another uid (nobody) can neither connect, nor open a segment, memfd or the
#     runtime dir, nor see the job with shmpi-dump -- with the runtime dir opened up
#     too, so each layer (0700 dir, 0600 socket/files) is shown to hold on its own;
#  3. a peer of another uid that does reach the socket (capabilities kept) is refused;
#  4. hostile pre-existing state: runtime dir 0777/foreign/symlink, symlinks at the
#     socket, lock and log, a foreign file under our segment prefix;
#  5. garbage on the socket, stalled and deaf clients, connect bursts, descriptor
#     exhaustion: the broker stays up (same pid), logs the problem, jobs still run;
#  6. segment names of all jobs differ in their 64-bit random part.
# Needs root (to become a second uid); skipped (77) otherwise.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "skipped: needs root to act as a second uid"; exit 77; }
other=65534
as_other() { (cd / && setpriv --reuid=$other --regid=$other --clear-groups -- env -i PATH=/usr/bin:/bin "$@"); }
as_other /bin/true 2> /dev/null || { echo "skipped: cannot run as uid $other"; exit 77; }
py=/usr/bin/python3
[ -x $py ] || { echo "skipped: no $py"; exit 77; }

# The scratch dir is traversable (not listable) so the checks below hit the runtime
# dir's own protection; pub/ holds what nobody needs to run.
chmod 711 "$scratch"
mkdir -m 755 "$scratch/pub"
cp "$(dirname "$0")/broker_probe.py" "$scratch/pub/"
probe() { $py "$scratch/pub/broker_probe.py" "$@"; }
probe_as_other() { as_other $py "$scratch/pub/broker_probe.py" "$@"; }
rt="$scratch/run"
export SHMPI_RUNTIME_DIR=$rt
sock=$rt/broker.sock
log=$rt/shmpid.log
# Brokers this script started (by pid; each is stopped once, so no pid is reused).
brokers=()
planted=
stop_broker() {
  kill -TERM "$1" 2> /dev/null
  for _ in $(seq 100); do kill -0 "$1" 2> /dev/null || break; sleep 0.05; done
  local keep=() b
  for b in "${brokers[@]}"; do [ "$b" = "$1" ] || keep+=("$b"); done
  brokers=("${keep[@]}")
}
cleanup() {
  local b
  for b in "${brokers[@]}"; do stop_broker "$b"; done
  [ -n "$planted" ] && rm -f "/dev/shm/$planted"
  hold_job_cleanup
}
trap cleanup EXIT
start_broker() {  # start_broker [prefix command...]: a background broker for $SHMPI_RUNTIME_DIR
  "$@" "$SHMPID" --idle-timeout 120 || fail "shmpid did not start"
  for _ in $(seq 100); do [ -S "$SHMPI_RUNTIME_DIR/broker.sock" ] && break; sleep 0.05; done
  broker=$(probe ping "$SHMPI_RUNTIME_DIR/broker.sock") || fail "broker does not answer"
  brokers+=("$broker")
}
job_runs() {  # a normal 2-rank job through the broker, with a time bound
  local t0=$(now_ms)
  "$SHMPIRUN" -n 2 --timeout 30 "$TEST_BIN/hello" 2 "$scratch" > "$scratch/hello.out" 2>&1 \
    || { cat "$scratch/hello.out"; fail "$1: a normal job failed"; }
  echo "  job ran in $(( $(now_ms) - t0 )) ms"
}
alive() {  # alive WHAT: the same broker still serves, and a job runs
  local now
  now=$(probe ping "$sock") || fail "$1: broker does not answer"
  [ "$now" = "$broker" ] || fail "$1: broker pid changed from $broker to $now"
  job_runs "$1"
}
mode() { stat -c '%a %u' "$1"; }

echo "== 1. modes and owners"
start_broker
echo "broker pid $broker"
start_hold_job p2p_hold 3
trap cleanup EXIT  # start_hold_job set its own
# The ranks are the runner's children; the segment is what they map from /dev/shm (by
# pid, not by job id: other brokers of this uid may number their jobs the same).
mapfile -t ranks < <(ps -o pid= --ppid "$job" | tr -d ' ')
[ ${#ranks[@]} = 3 ] || fail "expected 3 ranks under runner $job, got ${ranks[*]}"
seg=$(awk '$6 ~ /^\/dev\/shm\// {sub("/dev/shm/", "", $6); print $6}' "/proc/${ranks[0]}/maps" | sort -u)
[ "$(wc -w <<< "$seg")" = 1 ] || fail "rank ${ranks[0]} maps '$seg' from /dev/shm, expected one segment"
case $seg in shmpi-0-$id-*) ;; *) fail "segment $seg is not named for job $id" ;; esac
[ "$(mode "$rt")" = "700 0" ] || fail "runtime dir: $(mode "$rt")"
for f in "$sock" "$rt/broker.lock" "$log" "/dev/shm/$seg"; do
  [ "$(mode "$f")" = "600 0" ] || fail "$f: mode/owner $(mode "$f"), expected 600 0"
done
extra=$(ls -A "$rt" | grep -v -x -e broker.sock -e broker.lock -e shmpid.log || true)
[ -z "$extra" ] || fail "unexpected files in the runtime dir: $extra"
echo "runtime dir 700, socket/lock/log/segment 600, all uid 0; nothing else in $rt"

# Everything the ranks and the broker hold open or map: the only named shared object is
# the job's segment; the rest are memfds (reachable only through /proc/PID/fd, i.e.
# with ptrace rights over the owner), sockets, pipes and the broker's own files.
memfds=()
for pid in "${ranks[@]}" "$broker"; do
  for fd in /proc/$pid/fd/*; do
    t=$(readlink "$fd") || continue
    case $t in
      /dev/shm/"$seg") ;;
      /memfd:shmpi-*) memfds+=("$fd") ;;
      socket:* | pipe:* | anon_inode:* | /dev/null | /dev/pts/* | /dev/tty*) ;;
      "$log" | "$rt/broker.lock") [ "$pid" = "$broker" ] || fail "rank $pid holds $t" ;;
      "$scratch"/*) ;;  # the hold program's output file (the test's redirection)
      /tmp/* | /dev/shm/* | /run/* | /var/*) fail "pid $pid holds $t open (not part of the model)" ;;
      *) echo "note: pid $pid holds $t" ;;
    esac
  done
  # Shared mappings of named files: only the segment (memfds show as /memfd:).
  awk '$2 ~ /s/ && $6 ~ /^\// && $6 !~ /^\/memfd:/ {print $6}' /proc/$pid/maps | sort -u | while read -r m; do
    [ "$m" = "/dev/shm/$seg" ] || fail "pid $pid maps $m shared"
  done || exit 1
done
[ ${#memfds[@]} -ge 3 ] || fail "expected the ranks' memfds (inboxes, communicator blocks), found ${#memfds[@]}"
echo "ranks ${ranks[*]}: ${#memfds[@]} memfds, one segment $seg, no other shared files"

echo "== 2. as uid $other"
probe_as_other connect-denied "$sock" || fail "uid $other could connect"
as_other ls "$rt" > /dev/null 2>&1 && fail "uid $other can list $rt"
as_other cat "$log" > /dev/null 2>&1 && fail "uid $other can read the log"
probe_as_other open-denied "/dev/shm/$seg" "${memfds[@]}" || fail "uid $other opened a segment or memfd"
maps=()
for pid in "${ranks[@]}" "$broker"; do maps+=("/proc/$pid/maps" "/proc/$pid/environ"); done
probe_as_other open-denied "${maps[@]}" || fail "uid $other read a rank's maps or environment"
as_other ls "/proc/${ranks[0]}/fd" > /dev/null 2>&1 && fail "uid $other can list a rank's descriptors"
cp "$SHMPI_DUMP" "$scratch/pub/shmpi-dump" && chmod 755 "$scratch/pub/shmpi-dump"
as_other "$scratch/pub/shmpi-dump" > "$scratch/other.list" 2>&1
as_other "$scratch/pub/shmpi-dump" --json > "$scratch/other.json" 2>&1
cat "$scratch/other.list"
! grep -q -w -e "$seg" -e "$job" -e "shmpi-0" "$scratch/other.list" "$scratch/other.json" || fail "shmpi-dump as uid $other shows the job"
as_other "$scratch/pub/shmpi-dump" "$id" > "$scratch/other.one" 2>&1 && fail "shmpi-dump $id as uid $other succeeded"
as_other "$scratch/pub/shmpi-dump" --segment "$seg" > "$scratch/other.seg" 2>&1 && fail "shmpi-dump --segment as uid $other succeeded"
grep -q "Permission denied" "$scratch/other.seg" || { cat "$scratch/other.seg"; fail "shmpi-dump --segment as uid $other: no permission error"; }
echo "shmpi-dump as uid $other: nothing listed; job $id and --segment refused ($(head -c 120 "$scratch/other.seg"))"
# Second layer: with the runtime dir opened up, the 0600 modes alone still stop uid 65534.
chmod 711 "$rt"
probe_as_other connect-denied "$sock" || { chmod 700 "$rt"; fail "uid $other connected through a 0711 dir"; }
probe_as_other open-denied "$log" "$rt/broker.lock" || { chmod 700 "$rt"; fail "uid $other opened the log or lock"; }
chmod 700 "$rt"
end_hold_job p2p_hold
alive "cross-uid probes"

echo "== 3. a peer of another uid that reaches the socket"
probe foreign "$sock" > "$scratch/foreign.out" 2>&1 || { cat "$scratch/foreign.out"; fail "foreign peer"; }
cat "$scratch/foreign.out"
fpid=$(sed -n 's/^connected as uid 65534 (pid \([0-9]*\))$/\1/p' "$scratch/foreign.out")
[ -n "$fpid" ] || fail "the foreign peer did not get through to the socket (test is void)"
grep "refused connection from pid $fpid uid $other" "$log" || fail "refusal of pid $fpid not logged"
alive "foreign peer"

echo "== 4. hostile pre-existing state"
refused() {  # refused DIR TEXT: shmpirun and shmpid both refuse DIR, saying TEXT, creating nothing
  local d=$1 text=$2 before
  before=$(ls -A "$d" 2> /dev/null | sort | tr '\n' ' ')
  SHMPI_RUNTIME_DIR=$d timeout 20 "$SHMPIRUN" -n 1 /bin/true > "$scratch/r.out" 2>&1 && fail "shmpirun used $d"
  grep -q -- "$text" "$scratch/r.out" || { cat "$scratch/r.out"; fail "shmpirun on $d: message lacks '$text'"; }
  SHMPI_RUNTIME_DIR=$d timeout 20 "$SHMPID" --foreground > "$scratch/d.out" 2>&1 && fail "shmpid used $d"
  grep -q -- "$text" "$scratch/d.out" || { cat "$scratch/d.out"; fail "shmpid on $d: message lacks '$text'"; }
  [ "$(ls -A "$d" 2> /dev/null | sort | tr '\n' ' ')" = "$before" ] || fail "something was created in $d"
  echo "refused: $(head -1 "$scratch/r.out")"
}
mkdir -m 700 "$scratch/h777" && chmod 777 "$scratch/h777"
refused "$scratch/h777" "its mode is 0777"
mkdir -m 700 "$scratch/hnobody" && chown $other "$scratch/hnobody"
refused "$scratch/hnobody" "owned by uid $other"
mkdir -m 700 "$scratch/target"
ln -s "$scratch/target" "$scratch/hlink"
refused "$scratch/hlink" "it is a symlink"
[ -z "$(ls -A "$scratch/target")" ] || fail "something was created through the runtime dir symlink"
# Symlinks inside a good runtime dir: at the lock and the log the broker refuses to start
# (and writes nothing through them); at the socket the runner refuses, the broker removes it.
for f in broker.lock shmpid.log broker.sock; do
  d="$scratch/h-$f"
  mkdir -m 700 "$d"
  echo precious > "$scratch/victim-$f"
  ln -s "$scratch/victim-$f" "$d/$f"
  SHMPI_RUNTIME_DIR=$d timeout 20 "$SHMPIRUN" -n 1 /bin/true > "$scratch/r.out" 2>&1 && fail "shmpirun ran with a symlink at $f"
  grep -q "$f.*symlink" "$scratch/r.out" || { cat "$scratch/r.out"; fail "symlink at $f: no clear message"; }
  echo "$f symlink: $(grep -m1 symlink "$scratch/r.out")"
  [ "$(cat "$scratch/victim-$f")" = precious ] || fail "the target of the $f symlink was written"
done
SHMPI_RUNTIME_DIR=$scratch/h-broker.sock start_broker
stop_broker "$broker"
grep -q "broker.sock: it is a symlink; removing it" "$scratch/h-broker.sock/shmpid.log" || fail "socket symlink removal not logged"
[ "$(cat "$scratch/victim-broker.sock")" = precious ] || fail "the socket symlink's target was touched"
broker=${brokers[0]}
# A file under our segment prefix owned by another uid (anyone can create files in
# /dev/shm): a new broker neither reclaims nor counts it, shmpi-dump does not show it.
planted=$("$FAKE_SEGMENT" --broker-pid $$) || fail "fake segment"
chown $other:$other "/dev/shm/$planted"
mkdir -m 700 "$scratch/run3"
SHMPI_RUNTIME_DIR=$scratch/run3 start_broker
sleep 1.3  # start-up sweep and one periodic sweep
grep "ignoring /dev/shm/$planted" "$scratch/run3/shmpid.log" || fail "the planted segment was not reported"
[ "$(grep -c "ignoring /dev/shm/$planted" "$scratch/run3/shmpid.log")" = 1 ] || fail "the planted segment was reported more than once"
stop_broker "$broker"
broker=${brokers[0]}
[ -e "/dev/shm/$planted" ] || fail "a foreign file was removed"
"$SHMPI_DUMP" --json 2> "$scratch/dump.err" | grep -q -F -- "$planted" && fail "shmpi-dump lists a segment owned by uid $other"
"$SHMPI_DUMP" --segment "$planted" > /dev/null 2> "$scratch/dump.err" && fail "shmpi-dump opened a foreign segment"
grep -q "owned by uid $other" "$scratch/dump.err" || { cat "$scratch/dump.err"; fail "no reason for refusing the foreign segment"; }
echo "foreign file under our prefix: ignored, logged once, not listed: $(cat "$scratch/dump.err")"
rm -f "/dev/shm/$planted"
alive "hostile state"

echo "== 5. garbage on the socket"
for c in $(probe cases -); do
  probe garbage "$sock" "$c" "$log" || fail "garbage case $c"
  alive "$c"
done
probe flood "$sock" 40 "$log" || fail "flood"
alive "flood"
# Stalled peers (silent, half a message, one that never reads its replies) must not
# hold up anyone else: a job runs while they sit there.
probe stall "$sock" "$scratch/stall.ready" "$scratch/stall.release" &
staller=$!
for _ in $(seq 200); do [ -e "$scratch/stall.ready" ] && break; kill -0 $staller 2> /dev/null || break; sleep 0.05; done
[ -e "$scratch/stall.ready" ] || fail "stalled clients never got ready"
alive "stalled clients"
touch "$scratch/stall.release"
wait $staller || fail "stalled clients"
probe burst "$sock" 300 || fail "burst"
alive "burst of 600 connections"

echo "== 5b. out of descriptors"
# A broker limited to 64 descriptors, 150 connections queued: it must shed the excess
# (not spin on the readable listening socket), log it, and serve once they are gone.
mkdir -m 700 "$scratch/run2"
SHMPI_RUNTIME_DIR=$scratch/run2 start_broker prlimit --nofile=64:64 --
small=$broker
broker=${brokers[0]}
probe hold "$scratch/run2/broker.sock" 150 "$scratch/hold.ready" "$scratch/hold.release" &
holder=$!
for _ in $(seq 200); do [ -e "$scratch/hold.ready" ] && break; kill -0 $holder 2> /dev/null || break; sleep 0.05; done
[ -e "$scratch/hold.ready" ] || fail "the holder could not connect"
sleep 0.5
cpu() { awk '{print $14 + $15}' "/proc/$small/stat"; }
c0=$(cpu); sleep 2; c1=$(cpu)
echo "broker with 64 descriptors and 150 connections: $((c1 - c0)) CPU ticks in 2 s"
[ $((c1 - c0)) -le 10 ] || fail "the broker spins when out of descriptors ($((c1 - c0)) ticks in 2 s)"
grep -m1 "accept: Too many open files" "$scratch/run2/shmpid.log" || fail "descriptor exhaustion not logged"
touch "$scratch/hold.release"
wait $holder || fail "holder"
sleep 0.3
SHMPI_RUNTIME_DIR=$scratch/run2 "$SHMPIRUN" -n 2 --timeout 30 "$TEST_BIN/hello" 2 "$scratch" > /dev/null \
  || fail "a job through the broker that ran out of descriptors"
[ "$(probe ping "$scratch/run2/broker.sock")" = "$small" ] || fail "the descriptor-limited broker was replaced"

echo "== 6. segment names"
# Every job through the main broker logged its segment: all random parts differ and
# every one of the 16 hex digits varies (a pid, time or counter part would not).
grep -o "segment shmpi-0-[0-9]*-[0-9a-f]*" "$log" | sed 's/.*-//' > "$scratch/names"
$py - "$scratch/names" <<'PY' || fail "segment names are not random enough"
import sys
parts = open(sys.argv[1]).read().split()
assert len(parts) >= 15, parts
assert all(len(p) == 16 for p in parts), parts
assert len(set(parts)) == len(parts), "repeated random part"
fixed = [i for i in range(16) if len({p[i] for p in parts}) == 1]
assert not fixed, "hex digits %s never change over %d jobs" % (fixed, len(parts))
print("%d jobs: %d distinct 64-bit random parts, no fixed digit" % (len(parts), len(set(parts))))
PY
[ "$(probe ping "$sock")" = "$broker" ] || fail "the broker changed over the whole test"
echo "ok"
