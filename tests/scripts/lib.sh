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

# A job whose rank VICTIM SIGKILLs itself while the others wait for it under
# MPI_ERRORS_RETURN (tests/mpi/*_dead_peer.c). dead_peer_job PROG NRANKS VICTIM CALL WHAT
# runs PROG, which prints "rank R: in WHAT since T ms", "rank VICTIM: raising SIGKILL at T
# ms" and "rank R: WHAT returned error class C at T ms: ...", and checks that: nobody
# failed; the runner exits 137 (128 + SIGKILL, the first failure) within 5 s; every
# survivor was in CALL before the kill and got MPI_ERR_PROC_ABORTED (class 58 in the
# MPI-5.0 ABI) within 1 s of it; the job leaves nothing in /dev/shm.
dead_peer_job() {
  local prog=$1 n=$2 victim=$3 call=$4 what=$5
  local t0 rc dt kill_ms got r since line cls at delay left
  segments > "$scratch/before"
  t0=$(now_ms)
  "$SHMPIRUN" -n "$n" --timeout 30 "$TEST_BIN/$prog" > "$scratch/out" 2>&1
  rc=$?
  dt=$(( $(now_ms) - t0 ))
  cat "$scratch/out"
  ! grep -q "FAIL" "$scratch/out" || fail "$n ranks: a survivor failed"
  [ $rc -eq 137 ] || fail "$n ranks: runner exit status $rc, expected 137 (128 + SIGKILL, the first failure)"
  [ $dt -lt 5000 ] || fail "$n ranks: the job took $dt ms (bound 5000)"
  kill_ms=$(sed -n "s/^rank $victim: raising SIGKILL at \([0-9]*\) ms\$/\1/p" "$scratch/out")
  [ -n "$kill_ms" ] || fail "$n ranks: rank $victim did not report raising SIGKILL"
  got=0
  while read -r r since; do
    [ "$since" -lt "$kill_ms" ] || fail "$n ranks: rank $r entered $call only after the kill"
    line=$(grep "^rank $r: $what returned error class " "$scratch/out") \
      || fail "$n ranks: rank $r did not return from $call with an error"
    cls=$(sed -n 's/.* returned error class \([0-9]*\) at .*/\1/p' <<< "$line")
    at=$(sed -n 's/.* at \([0-9]*\) ms: .*/\1/p' <<< "$line")
    [ "$cls" = 58 ] || fail "$n ranks: rank $r: error class $cls, expected 58 (MPI_ERR_PROC_ABORTED)"
    delay=$(( at - kill_ms ))
    [ $delay -lt 1000 ] || fail "$n ranks: rank $r: $call returned $delay ms after the kill (bound 1000)"
    echo "rank $r: MPI_ERR_PROC_ABORTED $delay ms after the kill"
    got=$((got + 1))
  done < <(sed -n "s/^rank \([0-9]*\): in $what since \([0-9]*\) ms\$/\1 \2/p" "$scratch/out")
  [ $got -eq $((n - 1)) ] || fail "$n ranks: $got of $((n - 1)) survivors reported being in $call"
  left=$(new_segments "$scratch/before")
  [ -z "$left" ] || fail "$n ranks: segments left in /dev/shm: $left"
  echo "ok: $n ranks, job ended in $dt ms"
}
