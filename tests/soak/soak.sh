#!/usr/bin/env bash
# Soak test (not in the meson suite; docs/hardening.md): 8 ranks of tests/mpi/fault_workload
# on this machine's cores for SECONDS (default 600), every result checked exactly by the
# program. Every SAMPLE seconds (default 20) it records each rank's VmRSS and RssAnon
# (/proc/PID/status) and the job's /dev/shm segment (apparent and allocated bytes).
# Passes only if the program exits 0 after reporting "all exact", and memory is flat:
# after a warm-up (60 s, or a quarter of a shorter run) no rank's VmRSS or RssAnon grows
# by more than LIMIT_KIB (default 1024) above its first post-warm-up sample, and the
# segment's apparent and allocated sizes never change.
# Usage: BUILD=build bash tests/soak/soak.sh [SECONDS]   (or SHMPIRUN/TEST_BIN set, as meson does)
#   SOAK_RANKS (8), SAMPLE (20), LIMIT_KIB (1024), SOAK_LOG (samples table, default: scratch)
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../build}
export SHMPIRUN=${SHMPIRUN:-$build/tools/shmpirun} TEST_BIN=${TEST_BIN:-$build/tests}
source "$here/../scripts/lib.sh"
secs=${1:-600} n=${SOAK_RANKS:-8} every=${SAMPLE:-20} limit=${LIMIT_KIB:-1024}
warm=60
[ $((secs / 4)) -lt $warm ] && warm=$((secs / 4))
log=${SOAK_LOG:-$scratch/samples}
[ -x "$SHMPIRUN" ] && [ -x "$TEST_BIN/fault_workload" ] || fail "no $SHMPIRUN or $TEST_BIN/fault_workload (set BUILD)"

t0=$(date +%s)
"$SHMPIRUN" -n "$n" --timeout $((secs + 300)) "$TEST_BIN/fault_workload" "${secs}s" > "$scratch/out" 2>&1 &
job=$!
trap 'kill -TERM $job 2> /dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 300); do
  [ "$(grep -c '^fault_workload: rank [0-9]* pid ' "$scratch/out")" -eq "$n" ] && break
  kill -0 $job 2> /dev/null || break
  sleep 0.1
done
mapfile -t pids < <(sed -n 's/^fault_workload: rank \([0-9]*\) pid \([0-9]*\)$/\1 \2/p' "$scratch/out" | sort -n | cut -d' ' -f2)
[ ${#pids[@]} -eq "$n" ] || { cat "$scratch/out"; fail "only ${#pids[@]} of $n ranks started"; }
seg=$(grep -o "shmpi-$(id -u)-[0-9]*-[0-9a-f]*" "/proc/${pids[0]}/maps" | head -1)
[ -n "$seg" ] || fail "no segment mapped by rank 0 (pid ${pids[0]})"
echo "soak: $n ranks for $secs s, pids ${pids[*]}, segment $seg, sample every $every s, warm-up $warm s"

# One line per sample: seconds since start, segment apparent and allocated bytes, then
# VmRSS:RssAnon (KiB) per rank.
: > "$log"
sample() {
  local line="$(( $(date +%s) - t0 )) $(stat -c '%s %b' "/dev/shm/$seg" 2> /dev/null | awk '{print $1, $2 * 512}')"
  local p rss anon
  for p in "${pids[@]}"; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2> /dev/null)
    anon=$(awk '/^RssAnon:/ {print $2}' "/proc/$p/status" 2> /dev/null)
    line+=" ${rss:-x}:${anon:-x}"
  done
  echo "$line" >> "$log"
}
while kill -0 $job 2> /dev/null; do
  sample
  for _ in $(seq $((every * 10))); do kill -0 $job 2> /dev/null || break; sleep 0.1; done
done
wait $job
rc=$?
trap 'rm -rf "$scratch"' EXIT
grep -v '^fault_workload: rank [0-9]* pid ' "$scratch/out"
[ $rc -eq 0 ] || fail "fault_workload exited $rc"
! grep -q FAIL "$scratch/out" || fail "a check failed"
grep -q "^fault_workload: done: $n ranks, .* all exact" "$scratch/out" || fail "no exact summary"
[ ! -e "/dev/shm/$seg" ] || fail "the job's segment $seg is left in /dev/shm"

# Samples taken while every rank was alive (the last one may catch the job ending).
grep -v ' x:' "$log" | grep -v ':x' > "$scratch/full" || true
echo "samples (s, segment bytes, allocated bytes, VmRSS:RssAnon KiB per rank):"
cat "$scratch/full"
awk -v warm="$warm" -v limit="$limit" -v n="$n" '
  { t = $1; seg = $2; alloc = $3
    if (NR == 1) { seg0 = seg; alloc0 = alloc }
    if (seg != seg0 || alloc != alloc0) { printf "segment changed at %d s: %s/%s bytes, first %s/%s\n", t, seg, alloc, seg0, alloc0; bad = 1 }
    for (r = 0; r < n; ++r) {
      split($(4 + r), v, ":")
      for (m = 1; m <= 2; ++m) {
        key = r SUBSEP m
        if (!(key in first)) first[key] = v[m]
        if (!(key in mx) || v[m] > mx[key]) mx[key] = v[m]
        last[key] = v[m]
        if (t >= warm) {
          if (!(key in base)) base[key] = v[m]
          if (v[m] - base[key] > grow[key]) grow[key] = v[m] - base[key]
        }
      }
    }
    if (t >= warm) after++ }
  END {
    if (NR < 2 || after < 2) { print "too few samples after the warm-up"; exit 1 }
    printf "rank  VmRSS KiB first/last/max (growth after warm-up)   RssAnon KiB first/last/max (growth)\n"
    for (r = 0; r < n; ++r) {
      printf "%-4d  %d/%d/%d (%+d)   %d/%d/%d (%+d)\n", r, first[r SUBSEP 1], last[r SUBSEP 1], mx[r SUBSEP 1], grow[r SUBSEP 1],
             first[r SUBSEP 2], last[r SUBSEP 2], mx[r SUBSEP 2], grow[r SUBSEP 2]
      for (m = 1; m <= 2; ++m) if (grow[r SUBSEP m] > limit) { printf "rank %d grew by %d KiB after the warm-up (limit %d)\n", r, grow[r SUBSEP m], limit; bad = 1 }
    }
    printf "segment: %d bytes, %d allocated, constant over %d samples\n", seg0, alloc0, NR
    exit bad
  }' "$scratch/full" || fail "memory is not flat"
echo "ok: soak of $secs s at $n ranks, exact results, flat memory"
