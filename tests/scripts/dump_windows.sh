#!/usr/bin/env bash
# shmpi-dump shows a running job's RMA windows (win_hold.c holds two in known states):
# flavour, info, per-rank size/disp unit, who holds which lock, epochs and call counts,
# in the table, in --json and in --windows-only; read-only (the job finishes normally and
# leaves nothing in /dev/shm).
source "$(dirname "$0")/lib.sh"
start_hold_job win_hold 4
"$SHMPI_DUMP" "$id" > "$scratch/table" || fail "dump of job $id failed"
cat "$scratch/table"
"$SHMPI_DUMP" --json "$id" > "$scratch/json" || fail "json dump failed"
"$SHMPI_DUMP" --windows-only "$id" > "$scratch/wtable" || fail "--windows-only failed"
"$SHMPI_DUMP" --json --windows-only "$id" > "$scratch/wjson" || fail "--json --windows-only failed"
"$SHMPI_DUMP" --windows-only > /dev/null 2>&1 && fail "--windows-only without a job was accepted"

python3 - "$scratch" <<'PY' || fail "window report does not match what win_hold did"
import json, re, sys
d = sys.argv[1]
j = json.load(open(d + "/json"))
w = j["windows"]
assert len(w) == 2 and all(x["ok"] for x in w), w
w1 = next(x for x in w if x["flavor"] == "allocate")
w2 = next(x for x in w if x["flavor"] == "create")
pids = [r["pid"] for r in j["ranks"]]
for x, size in ((w1, 1024 * 4), (w2, 256 * 4)):
    assert x["nranks"] == 4 and x["creator_rank"] == 0 and x["pid"] == pids[0], x
    assert [r["pid"] for r in x["ranks"]] == pids, (x["ranks"], pids)
    assert [r["world_rank"] for r in x["ranks"]] == [0, 1, 2, 3], x["ranks"]
    assert all(r["size"] == size and r["disp_unit"] == 4 for r in x["ranks"]), x["ranks"]
    assert all(r["bulk"] == 0 and r["announce"] is None and r["stripes"] == [] for r in x["ranks"]), x["ranks"]
    assert x["freed"] == 0, x
assert w1["info"]["accumulate_ordering"] == "none", w1["info"]
assert w2["info"]["accumulate_ordering"] == "rar,raw,war,waw", w2["info"]
assert all(x["info"]["accumulate_ops"] == "same_op_no_op" and not x["info"]["no_locks"] for x in w), w
assert all(r["memory"] == "window-block" for r in w1["ranks"]) and w1["data_bytes"] >= 4 * 4096, w1
assert all(r["memory"] in ("shared-in-place", "private") for r in w2["ranks"]), w2
# Window 1: rank 1 holds the exclusive lock on target 0 and made 3 fetch_and_op + 1 put.
assert w1["all_locks"] == {"exclusive_lockers": 1, "lock_all_holders": 0}, w1["all_locks"]
assert w1["ranks"][0]["lock"] == {"exclusive_holder": 1, "shared_holders": 0}, w1["ranks"][0]
assert all(r["lock"] == {"exclusive_holder": None, "shared_holders": 0} for r in w1["ranks"][1:]), w1["ranks"]
assert w1["ranks"][1]["locks_held"] == {"shared": 0, "exclusive": 1}, w1["ranks"][1]
assert w1["ranks"][1]["epoch"] == ["lock"], w1["ranks"][1]
assert w1["ranks"][1]["calls"] == {"put": 1, "get": 0, "acc": 0, "get_acc": 0, "fetch_and_op": 3, "cas": 0}, w1["ranks"][1]
# Window 2: rank 2 is the one lock_all holder; it made 2 puts and 1 fetch_and_op.
assert w2["all_locks"] == {"exclusive_lockers": 0, "lock_all_holders": 1}, w2["all_locks"]
assert w2["ranks"][2]["epoch"] == ["lock_all"], w2["ranks"][2]
assert w2["ranks"][2]["calls"]["put"] == 2 and w2["ranks"][2]["calls"]["fetch_and_op"] == 1, w2["ranks"][2]
assert all(r["lock"]["exclusive_holder"] is None for r in w2["ranks"]), w2["ranks"]
# Nobody else is in an epoch or made a call.
for x, busy in ((w1, 1), (w2, 2)):
    for r in x["ranks"]:
        if r["rank"] != busy:
            assert r["epoch"] == [] and sum(r["calls"].values()) == 0 and r["locks_held"] == {"shared": 0, "exclusive": 0}, r

# The table: a section per window with the same facts.
t = open(d + "/table").read()
assert "windows: 2" in t, t
sec = {}
for s in re.split(r"(?m)^(?=window 0x)", t)[1:]:
    sec[re.search(r"flavour (\w+)", s).group(1)] = s
assert set(sec) == {"allocate", "create"}, sec.keys()
assert "accumulate_ordering=none " in sec["allocate"], sec["allocate"]
assert "accumulate_ordering=rar,raw,war,waw " in sec["create"], sec["create"]
assert "lock_all holders 1 (rank 2)" in sec["create"] and "exclusive lockers 1" in sec["allocate"], t
row = lambda s, r: next(l.split() for l in s.splitlines() if re.match(r"\s+%d\s" % r, l))
assert row(sec["allocate"], 0)[8] == "X:1", row(sec["allocate"], 0)
assert row(sec["allocate"], 1)[12:14] == ["lock", "0/1"], row(sec["allocate"], 1)
assert row(sec["allocate"], 1)[14:] == ["1", "0", "0", "0", "3", "0"], row(sec["allocate"], 1)
assert row(sec["create"], 2)[12] == "lock_all", row(sec["create"], 2)

# --windows-only: the same windows, nothing else.
wj = json.load(open(d + "/wjson"))
assert wj["job_id"] == j["job_id"] and [x["win_id"] for x in wj["windows"]] == [x["win_id"] for x in w], wj
wt = open(d + "/wtable").read()
assert "windows: 2" in wt and "BARR-ENTER" not in wt and wt.count("\nwindow 0x") == 2, wt
PY

end_hold_job win_hold
echo "ok"
