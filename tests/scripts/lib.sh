# Shared helpers for the runtime test scripts (sourced). Environment from meson:
# SHMPIRUN, SHMPI_DUMP, SHMPID, TEST_BIN, FAKE_SEGMENT.
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
scratch=$(mktemp -d /tmp/shmpi-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
segments() { ls /dev/shm 2>/dev/null | grep "^shmpi-$(id -u)-" | sort || true; }
# Segments that exist now but did not in the snapshot file $1.
new_segments() { segments | comm -13 "$1" - ; }
now_ms() { date +%s%3N; }

# A job held in a known state by a *_hold test program (arguments: a file it creates when
# ready, a file whose appearance releases it). start_hold_job PROG NRANKS starts it, waits
# until it is ready and sets $job (the runner's pid) and $id (the job id); end_hold_job
# PROG releases it and checks that it exits 0, leaves nothing in /dev/shm and is no
# longer listed. A script that fails in between releases and stops it on exit.
job=
hold_job_cleanup() {
  if [ -n "$job" ] && kill -0 "$job" 2> /dev/null; then
    touch "$scratch/release" 2> /dev/null
    kill -TERM "$job" 2> /dev/null
    wait "$job" 2> /dev/null
  fi
  rm -rf "$scratch"
}
start_hold_job() {
  trap hold_job_cleanup EXIT
  "$SHMPIRUN" -n "$2" --timeout 100 "$TEST_BIN/$1" "$scratch/ready" "$scratch/release" > "$scratch/out" 2>&1 &
  job=$!
  for i in $(seq 600); do [ -e "$scratch/ready" ] && break; kill -0 $job 2> /dev/null || break; sleep 0.1; done
  [ -e "$scratch/ready" ] || { cat "$scratch/out"; fail "$1 never signalled readiness"; }
  "$SHMPI_DUMP" > "$scratch/list" || fail "listing failed"
  id=$(awk -v pid=$job '$3 == pid {print $1}' "$scratch/list")
  [ -n "$id" ] || { cat "$scratch/list"; fail "job of runner $job not listed"; }
}
end_hold_job() {
  touch "$scratch/release"
  wait $job
  local rc=$?
  job=
  [ $rc -eq 0 ] || { cat "$scratch/out"; fail "$1 exited $rc"; }
  local left
  left=$(segments | grep -- "-$id-" || true)
  [ -z "$left" ] || fail "segments of job $id left in /dev/shm: $left"
  "$SHMPI_DUMP" "$id" > /dev/null 2>&1 && fail "job $id still listed after it ended"
}
