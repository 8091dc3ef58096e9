#!/usr/bin/env bash
# The README's second command: set up (with the MPICH/Open MPI peers), build, and run
# the whole test suite through meson test. Extra arguments go to meson test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SHMPI_PEERS=1
source "$here/setup.sh"
rc=0
meson test -C "$build" --print-errorlogs "$@" || rc=$?
# One plain summary line, counted from meson's own log.
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    key = "OK" if r in ("OK", "EXPECTEDFAIL") else "SKIP" if r == "SKIP" else "FAIL"
    counts[key] += 1
print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
PY
exit $rc
