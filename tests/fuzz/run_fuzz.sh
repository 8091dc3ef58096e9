#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each, one after the other.
#   tests/fuzz/run_fuzz.sh SECONDS [BUILD_DIR]     (default BUILD_DIR: build-fuzz)
# Configures and builds BUILD_DIR with clang, -Dfuzz=true and ASan+UBSan if needed.
# Each target starts from a temporary copy of tests/fuzz/corpus/<target> plus
# tests/fuzz/regressions/<target> (the checked-in corpus is never modified), with
# -timeout=10 and leak detection. Fails (exit 1) if any target crashes, leaks, times
# out or breaks an invariant; crashing inputs are saved in $FUZZ_ARTIFACTS (default
# BUILD_DIR/fuzz-artifacts/<target>/). Prints executions and exec/s per target.
# Extra libFuzzer flags can be passed in FUZZ_FLAGS, a target subset in FUZZ_TARGETS.
set -euo pipefail

usage() { echo "usage: $0 SECONDS [BUILD_DIR]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 && $1 =~ ^[0-9]+$ && $1 -gt 0 ]] || usage
seconds=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$src/build-fuzz}
targets=${FUZZ_TARGETS:-"datatypes rma_coll_args broker_protocol dump_segment"}
artifacts=${FUZZ_ARTIFACTS:-$build/fuzz-artifacts}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ ! -f $build/build.ninja ]]; then
  CC=clang CXX=clang++ meson setup "$build" "$src" -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false >"$work/setup.log" 2>&1 || { cat "$work/setup.log"; exit 1; }
fi
ninja_targets=()
for t in $targets; do ninja_targets+=("tests/fuzz/fuzz_$t"); done
ninja -C "$build" "${ninja_targets[@]}" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; exit 1; }

# UBSan findings must stop the run like ASan's; no broker of the user's is involved
# (the targets are singletons or run their own broker on a private socket).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
unset SHMPI_JOB_ID

failed=0
printf '%-16s %8s %12s %8s %s\n' TARGET SECONDS EXECS EXEC/S RESULT
for t in $targets; do
  corpus=$work/$t
  mkdir -p "$corpus" "$artifacts/$t"
  cp "$src/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
  cp "$src/tests/fuzz/regressions/$t/"* "$corpus/" 2>/dev/null || true
  log=$work/$t.log
  rc=0
  # shellcheck disable=SC2086
  "$build/tests/fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$t/" ${FUZZ_FLAGS:-} >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [[ $rc -eq 0 ]]; then
    result=ok
  else
    result="FAILED (exit $rc): inputs in $artifacts/$t/, log below"
    failed=1
  fi
  printf '%-16s %8s %12s %8s %s\n' "$t" "$seconds" "${execs:-?}" "${rate:-?}" "$result"
  if [[ $rc -ne 0 ]]; then
    grep -v '^#' "$log" | tail -60 >&2
  fi
done
exit $failed
