#!/usr/bin/env bash
# shmpi-dump shows a running job's communicators (comm_hold.c holds a collective hang):
# size, members, per rank the calls entered, posted/done sequence numbers, the call it is
# inside and whom it waits for, and the "call N: waiting for ranks ..." line naming who
# has not arrived; in the table, in --json and in --comms-only. A corrupted or truncated
# block is reported for that communicator only. Read-only: the job finishes normally and
# leaves nothing in /dev/shm.
source "$(dirname "$0")/lib.sh"
start_hold_job comm_hold 4

# The last rank signals readiness before the others enter their hang: wait until the
# dump shows rank 2 in the half's barrier and ranks 0 and 1 in dup's allreduce, each
# waiting on a member that has not arrived. (A member names the first one it found not
# posted: rank 0 may name rank 1 until it looks again, at the latest before its next
# sleep, docs/collectives.md "shmpi-dump".)
held=
deadline=$(($(date +%s) + 30))
while [ "$(date +%s)" -lt $deadline ]; do
  "$SHMPI_DUMP" --json --comms-only "$id" > "$scratch/poll" || fail "--json --comms-only failed"
  if python3 - "$scratch/poll" <<'PY'
import json, sys
cs = json.load(open(sys.argv[1]))["comms"]
stalled = [c for c in cs if c.get("ok") and c["stall"]]
inside = sorted(tuple(c["stall"]["inside"]) for c in stalled)
settled = all(r["waiting_on"] in c["stall"]["waiting_for"] for c in stalled for r in c["ranks"]
              if r["rank"] in c["stall"]["inside"])
sys.exit(0 if inside == [(0, 1), (1,)] and settled else 1)
PY
  then held=1; break; fi
  sleep 0.1
done
[ -n "$held" ] || { cat "$scratch/poll"; fail "the hang never became visible"; }

"$SHMPI_DUMP" "$id" > "$scratch/table" || fail "dump of job $id failed"
cat "$scratch/table"
"$SHMPI_DUMP" --json "$id" > "$scratch/json" || fail "json dump failed"
"$SHMPI_DUMP" --comms-only "$id" > "$scratch/ctable" || fail "--comms-only failed"
"$SHMPI_DUMP" --json --comms-only "$id" > "$scratch/cjson" || fail "--json --comms-only failed"
"$SHMPI_DUMP" --comms-only > /dev/null 2>&1 && fail "--comms-only without a job was accepted"

python3 - "$scratch" <<'PY' || fail "communicator report does not match what comm_hold did"
import json, re, sys
d = sys.argv[1]
j = json.load(open(d + "/json"))
cs = j["comms"]
pids = [r["pid"] for r in j["ranks"]]
assert all(c["ok"] for c in cs), cs
# world, dup, two halves, two spares; MPI_COMM_SELF is not listed.
assert len(cs) == 6 and all(c["size"] > 1 for c in cs), [(c["context_id"], c["size"]) for c in cs]
assert len({c["context_id"] for c in cs}) == 6, cs
for c in cs:
    assert c["size"] == len(c["members"]) == len(c["ranks"]), c
    assert c["pid"] == pids[c["creator_rank"]] and c["members"][0] == c["creator_rank"], c
    assert [r["world_rank"] for r in c["ranks"]] == c["members"], c
    assert [r["pid"] for r in c["ranks"]] == [pids[w] for w in c["members"]], c
    assert [r["rank"] for r in c["ranks"]] == list(range(c["size"])), c
    assert all(r["state"] == "running" for r in c["ranks"]), c
    assert c["block_bytes"] > 0, c

world = next(c for c in cs if c["context_id"] == 0)
assert world["name"] == "MPI_COMM_WORLD" and world["members"] == [0, 1, 2, 3], world
# 4 creations (dup, split, 2 spares), 3 exchanges each, on world's block; MPI_Barrier on
# MPI_COMM_WORLD does not use it.
col = lambda c, k: [r[k] for r in c["ranks"]]
for k in ("calls", "posted", "done"):
    assert col(world, k) == [12] * 4, (k, world)
assert col(world, "in_call") == [None] * 4 and world["stall"] is None, world

fours = sorted((c for c in cs if c["context_id"] != 0 and c["size"] == 4), key=lambda c: c["context_id"])
assert len(fours) == 3, fours
dup, spare1, spare2 = fours
assert dup["members"] == [0, 1, 2, 3] and dup["creator_rank"] == 0, dup
# MPI_Comm_set_name on the communicator's rank 0 updates its directory entry.
assert dup["name"] == "dup-of-world", dup["name"]
# dup: bcast + 3 allreduce by all; ranks 0 and 1 are inside allreduce 5, waiting for 2 and 3.
assert col(dup, "calls") == [5, 5, 4, 4], dup
assert col(dup, "posted") == [5, 5, 4, 4], dup
assert col(dup, "done") == [4, 4, 4, 4], dup
assert col(dup, "in_call") == ["allreduce", "allreduce", None, None], dup
for r in dup["ranks"][:2]:
    assert r["waiting_on"] in (2, 3) and r["waiting_on_world"] == r["waiting_on"], r
assert all(r["waiting_on"] is None for r in dup["ranks"][2:]), dup
assert dup["stall"] == {"call": 5, "kind": "allreduce", "waiting_for": [2, 3], "waiting_for_world": [2, 3],
                        "inside": [0, 1]}, dup["stall"]

halves = sorted((c for c in cs if c["size"] == 2), key=lambda c: c["members"])
assert [h["members"] for h in halves] == [[1, 0], [3, 2]], halves
h0, h1 = halves
assert h0["creator_rank"] == 1 and h1["creator_rank"] == 3, halves
for k in ("calls", "posted", "done"):
    assert col(h0, k) == [2, 2], (k, h0)
assert col(h0, "in_call") == [None, None] and h0["stall"] is None, h0
# Half 1: world 2 (comm rank 1) is inside barrier 3, waiting for comm rank 0 = world 3.
assert col(h1, "calls") == [2, 3] and col(h1, "posted") == [2, 3] and col(h1, "done") == [2, 2], h1
assert col(h1, "in_call") == [None, "barrier"], h1
assert col(h1, "waiting_on") == [None, 0] and col(h1, "waiting_on_world") == [None, 3], h1
assert h1["stall"] == {"call": 3, "kind": "barrier", "waiting_for": [0], "waiting_for_world": [3], "inside": [1]}, h1

for s in (spare1, spare2):
    assert s["members"] == [0, 1, 2, 3] and s["creator_rank"] == 0 and s["stall"] is None, s
    for k in ("calls", "posted", "done"):
        assert col(s, k) == [0] * 4, (k, s)

# The table: a section per communicator with the same facts.
t = open(d + "/table").read()
assert "communicators: 6" in t, t
sec = {}
for s in re.split(r"(?m)^(?=communicator context )", t)[1:]:
    sec[int(re.match(r"communicator context (\d+)", s).group(1))] = s
assert set(sec) == {c["context_id"] for c in cs}, sec.keys()
assert 'name "MPI_COMM_WORLD"' in sec[0] and "members (world ranks) 0,1,2,3" in sec[0], sec[0]
assert "in step: every member has entered call 12" in sec[0], sec[0]
sd, s1 = sec[dup["context_id"]], sec[h1["context_id"]]
assert "call 5 (allreduce): waiting for ranks 2, 3 (world ranks 2, 3); inside it: ranks 0, 1" in sd, sd
assert "call 3 (barrier): waiting for rank 0 (world rank 3); inside it: rank 1" in s1, s1
assert "size 2  members (world ranks) 3,2" in s1, s1
row = lambda s, r: next(l.split() for l in s.splitlines() if re.match(r"\s+%d\s+\d+\s+\d+\s" % r, l))
assert all(r[2] == str(pids[int(r[1])]) for r in (row(sd, 0), row(sd, 3), row(s1, 0), row(s1, 1)))
assert row(sd, 0)[3:7] == ["5", "5", "4", "allreduce"], row(sd, 0)
assert row(sd, 3)[3:] == ["4", "4", "4", "-", "-"], row(sd, 3)
assert row(s1, 1)[:2] == ["1", "2"] and row(s1, 1)[3:] == ["3", "3", "2", "barrier", "0", "(world", "3)"], row(s1, 1)
assert row(s1, 0)[:2] == ["0", "3"] and row(s1, 0)[3:] == ["2", "2", "2", "-", "-"], row(s1, 0)

# --comms-only: the same communicators, nothing else.
cj = json.load(open(d + "/cjson"))
assert cj["job_id"] == j["job_id"] and "windows" not in cj, cj.keys()
assert [c["context_id"] for c in cj["comms"]] == [c["context_id"] for c in cs], cj
ct = open(d + "/ctable").read()
assert "communicators: 6" in ct and "BARR-ENTER" not in ct and "windows:" not in ct, ct
assert ct.count("\ncommunicator context ") == 6, ct
open(d + "/spares", "w").write("%d %d %d %d\n" % (spare1["pid"], spare1["fd"], spare2["pid"], spare2["fd"]))
open(d + "/expect", "w").write(json.dumps([c for c in cs if c not in (spare1, spare2)]))
PY

# Corruption: scribble on the blocks of the two spare communicators (the job never
# touches them again): the dump reports those two and shows the others unchanged.
read -r p1 f1 p2 f2 < "$scratch/spares"
corrupt() {  # corrupt PHASE: 1 = spare1 size 3, spare2 truncated; 2 = spare1 member 2 is world rank 99
  python3 - "$1" "/proc/$p1/fd/$f1" "/proc/$p2/fd/$f2" <<'PY'
import os, struct, sys
phase, b1, b2 = sys.argv[1], sys.argv[2], sys.argv[3]
fd = os.open(b1, os.O_RDWR)
if phase == "1":
    os.pwrite(fd, struct.pack("<I", 3), 12)            # CommHeader::size
    t = os.open(b2, os.O_RDWR)
    os.ftruncate(t, 6000)                              # header intact, the rest gone
    os.close(t)
else:
    os.pwrite(fd, struct.pack("<I", 4), 12)
    os.pwrite(fd, struct.pack("<i", 99), 4096 + 2 * 8)  # CommMember[2].world_rank
os.close(fd)
PY
}
check_corrupt() {  # check_corrupt PHASE
  "$SHMPI_DUMP" --json --comms-only "$id" > "$scratch/bad.json" || fail "dump of corrupted blocks failed (phase $1)"
  "$SHMPI_DUMP" "$id" > "$scratch/bad.table" || fail "table dump of corrupted blocks failed (phase $1)"
  grep "^communicator context" "$scratch/bad.table"
  python3 - "$scratch" "$1" <<'PY' || fail "corrupted blocks not reported as expected (phase $1)"
import json, sys
d, phase = sys.argv[1], sys.argv[2]
cs = json.load(open(d + "/bad.json"))["comms"]
expect = json.load(open(d + "/expect"))
good = [c for c in cs if c["ok"]]
bad = sorted((c for c in cs if not c["ok"]), key=lambda c: c["context_id"])
assert sorted(c["context_id"] for c in good) == sorted(c["context_id"] for c in expect), (good, expect)
for c in good:
    e = next(x for x in expect if x["context_id"] == c["context_id"])
    assert c == e, (c, e)
if phase == "1":
    assert len(bad) == 2, bad
    assert bad[0]["error"].startswith("corrupt: header of 3 members"), bad[0]
    assert bad[1]["error"].startswith("corrupt: 4 members need a") and "the file has 6000 bytes" in bad[1]["error"], bad[1]
else:
    assert len(bad) == 2, bad
    assert bad[0]["error"] == "corrupt: member 2 is world rank 99, the job has 4 ranks", bad[0]
t = open(d + "/bad.table").read()
for c in bad:
    assert ("created by rank 0 (pid %d, fd %d): %s" % (c["pid"], c["fd"], c["error"])) in t, t
PY
}
corrupt 1
check_corrupt 1
corrupt 2
check_corrupt 2

end_hold_job comm_hold
echo "ok"
