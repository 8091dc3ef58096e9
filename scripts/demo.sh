#!/usr/bin/env bash
# The README's first command: set up, build, and run the demo job (examples/phases.c
# at 4 ranks), with a shmpi-dump snapshot taken while it runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "== shmpirun -n 4 examples/phases"
"$build/tools/shmpirun" -n 4 "$build/examples/phases" > "$out" &
job=$!
# Snapshot once the job is listed (it runs for about a second).
for _ in $(seq 200); do
  if "$build/tools/shmpi-dump" 2>/dev/null | awk -v p=$job '$3 == p {found=1} END {exit !found}'; then
    id=$("$build/tools/shmpi-dump" | awk -v p=$job '$3 == p {print $1}')
    echo "== shmpi-dump $id (taken while the job runs)"
    "$build/tools/shmpi-dump" "$id" || true
    break
  fi
  sleep 0.01
done
wait $job
echo "== job output"
cat "$out"
awk '/partial sum/ {s += $7} END {printf "sum of the partial sums: pi = %.12f\n", s}' "$out"
