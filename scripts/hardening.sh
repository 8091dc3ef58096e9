#!/usr/bin/env bash
# CI's second stage (.ci/run calls it after scripts/test.sh): the test suite under the
# sanitizers, then the fuzz targets for a bounded time. Any sanitizer report fails it,
# including reports from processes whose exit status no test sees (the broker, ranks torn
# down after a peer died): every process writes its reports to one directory, which must
# stay empty.
#   scripts/hardening.sh [asan] [tsan] [fuzz]     default: all three
#   SHMPI_ASAN_DIR, SHMPI_TSAN_DIR   build directories (default build-asan, build-tsan)
#   SHMPI_FUZZ_SECONDS               seconds per fuzz target (default 60)
# What each stage runs, and why some suites are left out, is in docs/hardening.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(asan tsan fuzz)

packages=(clang libclang-rt-14-dev llvm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

reports=$(mktemp -d /tmp/shmpi-sanitizer-reports.XXXXXX)
trap 'rm -rf "$reports"' EXIT
now() { date +%s; }

# configure DIR SANITIZERS: a sanitized build of this tree in DIR, at -O1 with line tables
# only (-g1): what the sanitizers need for their reports, at half the compile time of the
# default -O2 -g (docs/hardening.md, "Build time").
configure() {
  local t0
  t0=$(now)
  if [ ! -f "$1/build.ninja" ]; then
    meson setup "$1" "$root" -Db_sanitize="$2" -Db_lundef=false \
      -Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1
  fi
  ninja -C "$1"
  echo "hardening: $(basename "$1"): built in $(( $(now) - t0 )) s"
}

# run_suites NAME DIR MESON_TEST_ARGS...: meson test, every process writing its reports
# in $reports/NAME.*; fails on a failed test or on any report.
run_suites() {
  local name=$1 dir=$2
  shift 2
  local rc=0 t0
  t0=$(now)
  meson test -C "$dir" --print-errorlogs "$@" || rc=$?
  echo "hardening: $name: meson test exit $rc after $(( $(now) - t0 )) s"
  if compgen -G "$reports/$name.*" > /dev/null; then
    echo "hardening: $name: sanitizer reports:" >&2
    for f in "$reports/$name".*; do echo "== $f" >&2; head -60 "$f" >&2; done
    rc=1
  fi
  return $rc
}

status=0
for stage in "${stages[@]}"; do
  case $stage in
    asan)
      # Everything but the peer runs (Debian's MPICH/Open MPI, not our code) and the SPIN
      # models (no shmpi code runs).
      dir=${SHMPI_ASAN_DIR:-$root/build-asan}
      configure "$dir" address,undefined
      ASAN_OPTIONS="log_path=$reports/asan:halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1" \
      UBSAN_OPTIONS="log_path=$reports/asan:halt_on_error=1:print_stacktrace=1" \
        run_suites asan "$dir" --no-suite peer --no-suite models || status=1
      ;;
    tsan)
      # What TSan can see: one process's threads and stack switches. The broker served by
      # a thread (unit), the RMA element atomics hammered by threads and the windows (rma),
      # the nonblocking collectives' task switches mixed with blocking calls (nbc),
      # MPI_Init_thread and requests completed by another thread (mpi). Not the blocking
      # collectives and point-to-point suites (coll, p2p): their ranks run one thread and
      # never switch stacks, so TSan has nothing to compare (docs/hardening.md). Not the
      # 8-rank runs (suite ranks8): the same code runs at 3 and 4 ranks; ASan runs them.
      dir=${SHMPI_TSAN_DIR:-$root/build-tsan}
      configure "$dir" thread
      TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=1:second_deadlock_stack=1" \
        run_suites tsan "$dir" --suite unit --suite rma --suite nbc --suite mpi \
        --no-suite ranks8 || status=1
      ;;
    fuzz)
      bash "$root/tests/fuzz/run_fuzz.sh" "${SHMPI_FUZZ_SECONDS:-60}" || status=1
      ;;
    *) echo "hardening: unknown stage $stage (asan, tsan, fuzz)" >&2; exit 2 ;;
  esac
done
exit $status
