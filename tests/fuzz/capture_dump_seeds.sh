#!/usr/bin/env bash
# Captures dump_segment seeds from live jobs: runs win_hold, comm_hold and p2p_hold (the
# programs the shmpi-dump tests use) and, while each holds its objects, snapshots the
# job's segment and every window/communicator/inbox block its directory lists (from
# /proc/<pid>/fd/<fd>) into one input in fuzz_dump_segment's format:
#   [flags=0][image_len u32][image][blocks: kind u8, rank u8, entry u8, file size u32,
#    content length u16, content]
# Block contents are cut at 4 KiB (the file keeps its real size) to keep seeds small.
#   tests/fuzz/capture_dump_seeds.sh BUILD_DIR [OUT_DIR]   (a normal build with the tests)
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [OUT_DIR]}
out=${2:-$(cd "$(dirname "$0")" && pwd)/corpus/dump_segment}
mkdir -p "$out"
scratch=$(mktemp -d)
export SHMPI_RUNTIME_DIR=$scratch/rt
mkdir -m 0700 "$SHMPI_RUNTIME_DIR"
job=
cleanup() {
  [ -n "$job" ] && { touch "$scratch/release"; wait "$job" 2>/dev/null || true; }
  rm -rf "$scratch"
}
trap cleanup EXIT

for spec in win_hold:4 comm_hold:4 p2p_hold:3 win_hold:3; do
  prog=${spec%:*}
  n=${spec#*:}
  rm -f "$scratch/ready" "$scratch/release"
  "$build/tools/shmpirun" -n "$n" --timeout 100 "$build/tests/$prog" "$scratch/ready" "$scratch/release" \
    > "$scratch/out" 2>&1 &
  job=$!
  for _ in $(seq 600); do [ -e "$scratch/ready" ] && break; sleep 0.1; done
  [ -e "$scratch/ready" ] || { cat "$scratch/out"; echo "$prog never became ready" >&2; exit 1; }
  sleep 0.5  # the other ranks reach their hold point
  seg=$("$build/tools/shmpi-dump" --json | python3 -c "
import json, sys
print(next(j['segment'] for j in json.load(sys.stdin) if j['runner_pid'] == $job))")
  python3 - "/dev/shm/$seg" "$out/seed-live-$prog-$n" <<'PY'
import struct, sys
img = open(sys.argv[1], "rb").read()
PAGE, LINE = 4096, 64
nranks = struct.unpack_from("<I", img, 40)[0]
blocks = []
def grab(kind, rank, entry, pid, fd):
    try:
        data = open(f"/proc/{pid}/fd/{fd}", "rb").read()
    except OSError as e:
        print("skipped", kind, rank, entry, e, file=sys.stderr)
        return
    keep = data[:4096]
    blocks.append(struct.pack("<BBBIH", kind, rank, entry, len(data), len(keep)) + keep)
for r in range(nranks):
    slot = PAGE * (r + 1)
    for e in range(16):  # WinDirEntry at line 14 + e: state, win_id, pid, fd
        st, _, pid, fd = struct.unpack_from("<IIii", img, slot + (14 + e) * LINE)
        if st == 1: grab(0, r, e, pid, fd)
    for e in range(16):  # CommDirEntry at line 38 + e: state, context_id, pid, fd
        st, _, pid, fd = struct.unpack_from("<IIii", img, slot + (38 + e) * LINE)
        if st == 1: grab(1, r, e, pid, fd)
    st, pid, fd = struct.unpack_from("<Iii", img, slot + 54 * LINE)  # InboxDir
    if st == 1: grab(2, r, 0, pid, fd)
open(sys.argv[2], "wb").write(bytes([0]) + struct.pack("<I", len(img)) + img + b"".join(blocks[:8]))
print(sys.argv[2], len(img), "bytes of segment,", len(blocks), "blocks")
PY
  touch "$scratch/release"
  wait "$job" || true
  job=
done
