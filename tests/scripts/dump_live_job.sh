#!/usr/bin/env bash
# shmpi-dump shows a running job: listed, and its ranks with pid, state and barrier
# generations, as a table and as JSON; read-only (the job finishes normally).
source "$(dirname "$0")/lib.sh"
"$SHMPIRUN" -n 4 --timeout 60 "$TEST_BIN/print_core" "$scratch/release" > "$scratch/job" &
job=$!
for i in $(seq 100); do [ "$(wc -l < "$scratch/job")" -ge 4 ] && break; sleep 0.05; done
"$SHMPI_DUMP" > "$scratch/list" || fail "listing failed"
cat "$scratch/list"
id=$(awk -v pid=$job '$3 == pid {print $1}' "$scratch/list")
[ -n "$id" ] || fail "job of runner $job not listed"
"$SHMPI_DUMP" "$id" > "$scratch/table" || fail "dump of job $id failed"
cat "$scratch/table"
[ "$(grep -c ' running ' "$scratch/table")" -eq 4 ] || fail "expected 4 running ranks"
"$SHMPI_DUMP" --json "$id" > "$scratch/json" || fail "json dump failed"
python3 - "$scratch/json" "$("$FAKE_SEGMENT" --layout-version)" <<'PY' || fail "bad JSON"
import json, sys
j = json.load(open(sys.argv[1]))
layout = int(sys.argv[2])
assert j["nranks"] == 4 and len(j["ranks"]) == 4, j
assert all(r["state"] == "running" and r["alive"] and r["pid"] > 0 for r in j["ranks"]), j
assert all(r["barriers_completed"] >= 1 for r in j["ranks"]), j  # MPI_Init's barrier
assert j["aborted"] is False and j["layout_version"] == layout
PY
"$SHMPI_DUMP" --json > "$scratch/all" && python3 -c "import json,sys; json.load(open('$scratch/all'))" \
  || fail "json listing is not JSON"
touch "$scratch/release"
wait $job || fail "the job failed while being dumped"
"$SHMPI_DUMP" "$id" > /dev/null 2>&1 && fail "job $id still listed after it ended"
echo "ok"
