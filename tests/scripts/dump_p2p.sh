#!/usr/bin/env bash
# shmpi-dump shows a running job's point-to-point state (p2p_hold.c holds it, see there
# for what is deterministic): per rank the posted receives, the unexpected count, the
# records queued in its rings (per sender: count, bytes, first envelopes), the blocking
# call it is in; in the table, in --json and in --p2p-only. A corrupt ring or inbox
# header is reported for that ring or rank only. Read-only: the job finishes normally
# and leaves nothing in /dev/shm.
source "$(dirname "$0")/lib.sh"
start_hold_job p2p_hold 3

# Rank 0 signals readiness before it blocks, and rank 1 sends to rank 2 only once rank
# 2 is idle: wait until the dump shows rank 0 in its receive with rank 1's messages
# drained, rank 1 in its MPI_Ssend and rank 2's five records queued.
held=
deadline=$(($(date +%s) + 30))
while [ "$(date +%s)" -lt $deadline ]; do
  "$SHMPI_DUMP" --json --p2p-only "$id" > "$scratch/poll" || fail "--json --p2p-only failed"
  if python3 - "$scratch/poll" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["p2p"]
ok = (len(p) == 3 and all(i["ok"] for i in p) and p[0]["waiting"] == "recv" and p[0]["unexpected"] == 4
      and p[0]["queued"] == 0 and p[1]["waiting"] == "send" and p[2]["queued"] == 5)
sys.exit(0 if ok else 1)
PY
  then held=1; break; fi
  sleep 0.1
done
[ -n "$held" ] || { cat "$scratch/poll"; fail "the held state never became visible"; }

"$SHMPI_DUMP" "$id" > "$scratch/table" || fail "dump of job $id failed"
cat "$scratch/table"
"$SHMPI_DUMP" --json "$id" > "$scratch/json" || fail "json dump failed"
"$SHMPI_DUMP" --p2p-only "$id" > "$scratch/ptable" || fail "--p2p-only failed"
"$SHMPI_DUMP" --json --p2p-only "$id" > "$scratch/pjson" || fail "--json --p2p-only failed"
"$SHMPI_DUMP" --json --p2p-only --comms-only "$id" > "$scratch/pcjson" || fail "--json --p2p-only --comms-only failed"
"$SHMPI_DUMP" --p2p-only > /dev/null 2>&1 && fail "--p2p-only without a job was accepted"

python3 - "$scratch" <<'PY' || fail "point-to-point report does not match what p2p_hold did"
import json, re, sys
d = sys.argv[1]
j = json.load(open(d + "/json"))
p = j["p2p"]
pids = [r["pid"] for r in j["ranks"]]
assert "windows" in j and "comms" in j, j.keys()
# MPI_COMM_WORLD and the dup (both created by rank 0).
dup = [c["context_id"] for c in j["comms"] if c["context_id"] != 0]
assert len(dup) == 1, j["comms"]
dup = dup[0]

# Default rings: 64 KiB; the inbox geometry of shm_layout/p2p.hpp for 3 rings (per
# sender: RingCtl = head line + 1024 4-byte ack words, StreamCtl and a spare line; the
# ring; 4 stream chunks of half a ring).
R = 65536
ctl = (1 + 1024 * 4 // 64) * 64 + 3 * 64
stride = (ctl + R + 4 * (R // 2) + 4095) // 4096 * 4096
assert len(p) == 3, p
for r, i in enumerate(p):
    assert i["rank"] == r and i["pid"] == pids[r] and i["fd"] >= 0, i
    assert i["inbox"] == "live" and i["ok"] and "error" not in i, i
    assert i["ring_bytes"] == R and i["inbox_bytes"] == 4096 + 3 * stride, i
r0, r1, r2 = p
# Rank 0: the Irecv(any source, tag 99) and the blocking Recv(2, 77), in posting order;
# rank 1's four messages drained and unmatched; blocked in the receive.
assert r0["posted"] == 2, r0
assert r0["posted_receives"] == [{"context": 0, "source": "any", "tag": 99},
                                 {"context": 0, "source": 2, "tag": 77}], r0
assert r0["unexpected"] == 4 and r0["queued"] == 0 and r0["queued_bytes"] == 0 and r0["rings"] == [], r0
assert r0["waiting"] == "recv" and r0["wait"] == {"peer": 2, "tag": 77, "context": 0}, r0
assert r0["sends_pending"] == 0, r0
# Rank 1: blocked in MPI_Ssend to 2, tag 25. (sends_pending is not checked: the engine
# publishes it only when its progress does something, so here it may still read 0.)
assert r1["posted"] == 0 and r1["posted_receives"] == [] and r1["unexpected"] == 0, r1
assert r1["queued"] == 0 and r1["rings"] == [], r1
assert r1["waiting"] == "send" and r1["wait"] == {"peer": 2, "tag": 25, "context": 0}, r1
# Rank 2: outside MPI; rank 1's five records queued in send order, the first four shown.
assert r2["posted"] == 0 and r2["unexpected"] == 0 and r2["sends_pending"] == 0, r2
assert r2["waiting"] is None and r2["wait"] is None, r2
assert r2["queued"] == 5 and r2["queued_bytes"] == 8 + 200 + 100000 + 0 + 64, r2
assert len(r2["rings"]) == 1, r2
ring = r2["rings"][0]
# Records: 64 bytes each but the 200-byte one (32 + 200 -> 256) and the 64-byte Ssend (128).
assert ring["sender"] == 1 and ring["head"] == 64 and ring["queued"] == 5 and ring["error"] is None, ring
assert ring["queued_bytes"] == r2["queued_bytes"] and ring["ring_used"] == 64 + 256 + 64 + 64 + 128, ring
rec = lambda pos, kind, sync, ctx, tag, n: {"pos": pos, "kind": kind, "sync": sync, "context": ctx, "source": 1,
                                           "tag": tag, "bytes": n}
assert ring["records"] == [rec(64, "eager", False, 0, 21, 8), rec(128, "eager", False, dup, 22, 200),
                           rec(384, "rendezvous", True, 0, 23, 100000), rec(448, "eager", False, 0, 24, 0)], ring

# The table: the section with a row per rank, rank 0's posted receives, rank 2's ring.
t = open(d + "/table").read()
assert "communicators: 2" in t and "windows: 0" in t, t
s = t[t.index("point-to-point: "):]
assert s.startswith("point-to-point: 3 inboxes read of 3 ranks\n"), s
row = lambda r: next(l.split() for l in s.splitlines() if re.match(r"\s+%d\s+%d\s" % (r, pids[r]), l))
assert row(0)[2:] == ["2", "4", "0", "0", "recv", "from", "2", "tag", "77", "context", "0"], row(0)
assert row(1)[2:5] == ["0", "0", "0"] and row(1)[6:] == ["send", "to", "2", "tag", "25", "context", "0"], row(1)
assert row(2)[2:] == ["0", "0", "5", "0", "-"], row(2)
assert "  rank 0 posted receives (2): context 0 source any tag 99; context 0 source 2 tag 77\n" in s, s
lines = s[s.index("  rank 2 ring from rank 1:"):].splitlines()
assert lines[0] == "  rank 2 ring from rank 1: 5 queued (100272 bytes; 576 ring bytes from position 64)", lines
recs = [l.split() for l in lines[1:6]]
assert recs[0] == ["eager", "context", "0", "source", "1", "tag", "21", "8", "bytes"], recs
assert recs[1] == ["eager", "context", str(dup), "source", "1", "tag", "22", "200", "bytes"], recs
assert recs[2] == ["rendezvous", "sync", "context", "0", "source", "1", "tag", "23", "100000", "bytes"], recs
assert recs[3] == ["eager", "context", "0", "source", "1", "tag", "24", "0", "bytes"], recs
assert recs[4] == ["...", "1", "more"], recs
assert "rank 1 ring" not in s and "rank 0 ring" not in s and "rank 1 posted" not in s, s

# --p2p-only: the same inboxes, nothing else; -only options combine.
pj = json.load(open(d + "/pjson"))
assert sorted(pj) == ["job_id", "p2p"] and pj["job_id"] == j["job_id"], pj.keys()
assert pj["p2p"] == p, (pj["p2p"], p)
pcj = json.load(open(d + "/pcjson"))
assert sorted(pcj) == ["comms", "job_id", "p2p"], pcj.keys()
pt = open(d + "/ptable").read()
assert pt.startswith("job %d  point-to-point: 3 inboxes read" % j["job_id"]), pt
assert "BARR-ENTER" not in pt and "communicators:" not in pt and "windows:" not in pt, pt
assert pt[pt.index("point-to-point"):] == s, (pt, s)
open(d + "/expect", "w").write(json.dumps(p))
open(d + "/rank2", "w").write("%d %d %d\n" % (r2["pid"], r2["fd"], 4096 + ctl))
PY

# Corruption, in rank 2's inbox while rank 2 makes no MPI call (so it never reads what
# we write, and everything is restored before it is released): a bad record in its
# ring from rank 0 (unused), then a bad magic. The dump reports that ring or that rank
# and shows everything else unchanged.
read -r p2 f2 ring0 < "$scratch/rank2"
inbox="/proc/$p2/fd/$f2"
poke() {  # poke PHASE
  python3 - "$1" "$inbox" "$ring0" <<'PY'
import os, struct, sys
phase, path, ring0 = sys.argv[1], sys.argv[2], int(sys.argv[3])
fd = os.open(path, os.O_RDWR)
rec = ring0 + 64                                  # the reader's head: position 64
if phase == "kind":
    os.pwrite(fd, struct.pack("<QIIiiQ", 64, 9, 0, 0, 0, 0), rec)
elif phase == "huge":
    os.pwrite(fd, struct.pack("<QIIiiQ", 64, 1, 0, 0, 5, 70000), rec)
elif phase == "magic":
    os.pwrite(fd, bytes(32), rec)                 # the ring as it was
    os.pwrite(fd, struct.pack("<Q", 0x1234), 0)   # InboxHeader::magic
else:
    os.pwrite(fd, struct.pack("<Q", 0x584f424949504d53), 0)
os.close(fd)
PY
}
check_poked() {  # check_poked PHASE
  "$SHMPI_DUMP" --json --p2p-only "$id" > "$scratch/bad.json" || fail "dump of a corrupted inbox failed ($1)"
  "$SHMPI_DUMP" --p2p-only "$id" > "$scratch/bad.table" || fail "table dump of a corrupted inbox failed ($1)"
  python3 - "$scratch" "$1" <<'PY' || { cat "$scratch/bad.table"; fail "corrupted inbox not reported as expected ($1)"; }
import json, sys
d, phase = sys.argv[1], sys.argv[2]
p = json.load(open(d + "/bad.json"))["p2p"]
e = json.load(open(d + "/expect"))
t = open(d + "/bad.table").read()
assert p[:2] == e[:2], (p[:2], e[:2])
if phase in ("kind", "huge"):
    err = {"kind": "corrupt: record at position 64 has kind 9",
           "huge": "corrupt: eager record at position 64 claims 70000 bytes in a 65536-byte ring"}[phase]
    bad = dict(e[2], rings=[{"sender": 0, "head": 64, "queued": 0, "queued_bytes": 0, "ring_used": 0, "records": [],
                             "error": err}] + e[2]["rings"])
    assert p[2] == bad, (p[2], bad)
    assert "  rank 2 ring from rank 0: 0 queued (0 bytes; 0 ring bytes from position 64); " + err + "\n" in t, t
    assert "  rank 2 ring from rank 1: 5 queued" in t, t
elif phase == "magic":
    err = "corrupt: magic 0x0000000000001234, expected 0x584f424949504d53"
    assert {k: v for k, v in p[2].items() if k not in ("ok", "error")} == \
        {k: e[2][k] for k in ("rank", "pid", "fd", "inbox", "ring_bytes", "inbox_bytes")}, p[2]
    assert p[2]["ok"] is False and p[2]["error"] == err, p[2]
    assert "inbox: " + err + "\n" in t, t
else:
    assert p == e, (p, e)
PY
}
for phase in kind huge magic restore; do
  poke $phase
  check_poked $phase
done

end_hold_job p2p_hold
echo "ok"
