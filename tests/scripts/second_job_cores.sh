#!/usr/bin/env bash
# A second job started while the first runs is pinned to other cores.
source "$(dirname "$0")/lib.sh"
cores=$(nproc)
[ "$cores" -ge 2 ] || { echo "needs 2 cores"; exit 77; }
half=$(( cores / 2 ))
"$SHMPIRUN" -n $half --timeout 30 "$TEST_BIN/print_core" "$scratch/release" > "$scratch/a" &
a=$!
for i in $(seq 100); do [ "$(wc -l < "$scratch/a")" -ge $half ] && break; sleep 0.05; done
"$SHMPIRUN" -n $half --timeout 30 "$TEST_BIN/print_core" "$scratch/release" > "$scratch/b" &
b=$!
for i in $(seq 100); do [ "$(wc -l < "$scratch/b")" -ge $half ] && break; sleep 0.05; done
touch "$scratch/release"
wait $a || fail "first job failed"
wait $b || fail "second job failed"
cat "$scratch/a" "$scratch/b"
cpus() { sed 's/^rank [0-9]* cpus //' "$1" | tr ' ' '\n' | sort -u; }
[ "$(sed 's/^rank [0-9]* cpus //' "$scratch/a" | awk '{print NF}' | sort -u)" = 1 ] || fail "job 1 ranks not pinned to one cpu"
common=$(comm -12 <(cpus "$scratch/a") <(cpus "$scratch/b"))
[ -z "$common" ] || fail "both jobs were pinned to cpu(s) $common"
echo "ok: the jobs got disjoint cores"
