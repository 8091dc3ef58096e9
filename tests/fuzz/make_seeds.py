#!/usr/bin/env python3
"""Writes the hand-made seed inputs of the structured fuzz targets (datatypes,
rma_coll_args, broker_protocol) into tests/fuzz/corpus/<target>/seed-*. Each seed is
a small program in the byte encoding its target decodes (see the target's .cpp); the
fuzzer mutates from there. dump_segment's seeds are real segments: capture_dump_seeds.sh.
Usage: make_seeds.py [CORPUS_DIR]"""
import os
import struct
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")


def write(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(bytes(data))


# ---- datatypes: ops 0 contiguous 1 vector 2 hvector 3 indexed 4 hindexed
# 5 indexed_block 6 hindexed_block 7 struct 8 resized 9 dup 10 subarray 11 pack 12 free.
# Pool: 0 BYTE 1 CHAR 2 SHORT 3 INT 4 DOUBLE 5 INT64 6 C_DOUBLE_COMPLEX 7 DOUBLE_INT
# 8 SHORT_INT 9 2INT, then built types from 10. Small counts: b % 6; disps: b % 33 - 16.
D = lambda x: 16 + x  # noqa: E731  displacement byte
dt = {
    "contiguous": [0, 0, 3, D(0), 3, 11, 10, 2],
    "contiguous_c": [0, 1, 4, D(0), 7, 11, 10, 3],
    "vector": [1, 0, 3, 2, 28, 4, 11, 10, 3],
    "vector_negative_stride": [1, 0, 3, 1, 0, 3, 11, 10, 2],
    "hvector_overlap": [2, 0, 2, 3, D(2), 7, 11, 10, 2],
    "indexed": [3, 0, 3, 7, 2, D(0), 1, D(5), 3, D(-3), 11, 10, 2],
    "hindexed": [4, 0, 2, 3, 1, D(2), 2, D(10), 11, 10, 2],
    "indexed_block": [5, 0, 3, 2, 4, D(0), D(2), D(4), 11, 10, 1],
    "hindexed_block": [6, 0, 2, 2, 3, D(4), D(-4), 11, 10, 2],
    "struct_resized": [7, 0, 3, 1, D(0), 3, 2, D(2), 4, 1, D(6), 8, 11, 10, 1,
                       8, 10, D(-2), D(8), 11, 11, 3],
    "subarray_c": [10, 3, 0, 1, 4, 2, 1, 5, 3, 2, 3, 11, 10, 2],
    "subarray_fortran": [10, 4, 0, 0, 3, 2, 1, 2, 1, 0, 4, 1, 1, 9, 11, 10, 1],
    "nested_dup_free": [1, 0, 2, 2, 24, 9, 0, 0, 3, D(0), 10, 9, 11, 12, 10, 11, 10, 2, 11, 11, 1],
    "errors": [0, 0, 240, D(0), 3, 1, 0, 2, 241, D(0), 3, 3, 0, 2, 247, D(0), 0, D(0),
               10, 0, 12, 3, 9, 255],
}
for k, v in dt.items():
    write("datatypes", k, v)

# ---- rma_coll_args: action byte odd = RMA epoch, even = collective.
# RMA: [1, win (0 allocate du4, 1 create du1, 2 dynamic, 3 shared du8), mode (0 none,
# 1 fence, 2 lock excl, 3 lock shared, 4 lock_all, 5 lock fuzzed rank), calls-1, then per
# call: call (0 put 1 get 2 acc 3 get_acc 4 fop 5 cas 6-9 R-forms), otype, ocount,
# [ttype, tcount unless fop/cas], [rtype, rcount for get_acc], rank, disp (b % 70 - 2),
# op (0 SUM 1 MAX 2 BAND 3 MAXLOC 4 REPLACE 5 NO_OP 6 user), 3 fill seeds, null-origin].
# Types: 0 INT 1 DOUBLE 2 BYTE 3 2INT 4 contig(2,INT) 5 vector(2,1,2,INT).
def rma(win, mode, calls):
    return [1, win, mode, len(calls) - 1] + sum(calls, [])


put = [0, 0, 3, 0, 3, 0, 2 + 8, 0, 5, 6, 7, 0]
get = [1, 4, 2, 5, 2, 0, 2 + 16, 0, 9, 1, 2, 0]
acc_sum = [2, 0, 4, 4, 2, 0, 2 + 4, 0, 3, 4, 5, 0]
get_acc = [3, 1, 2, 1, 2, 1, 2, 0, 2 + 8, 4, 1, 2, 3, 0]
fop = [4, 0, 0, 2 + 12, 0, 7, 8, 9, 0]
cas = [5, 0, 0, 2 + 12, 0, 7, 8, 7, 0]
rput = [6, 5, 2, 0, 4, 0, 2 + 20, 0, 1, 1, 1, 0]
write("rma_coll_args", "put_lock_create", rma(1, 2, [put]))
write("rma_coll_args", "get_lock_allocate", rma(0, 3, [get]))
write("rma_coll_args", "acc_sum_lockall_shared", rma(3, 4, [acc_sum]))
write("rma_coll_args", "get_acc_lock_dynamic", rma(2, 2, [get_acc]))
write("rma_coll_args", "fop_cas_lock_create", rma(1, 2, [fop, cas]))
write("rma_coll_args", "rput_fence_create", rma(1, 1, [rput, put]))
write("rma_coll_args", "put_no_epoch", rma(0, 0, [put]))
write("rma_coll_args", "lock_bad_rank", rma(1, 5, [put]) + [255])


# Collectives: [0, comm (0 SELF 1 dup 2 WORLD), call, stype, rtype, scount, rcount,
# sdispl, rdispl, root, op, in-place byte (>=192 send IN_PLACE, >=250 recv IN_PLACE,
# 191 NULL recv), 2 fill seeds]. Calls: 0 Bcast 1 Scatter 2 Scatterv 3 Gather
# 4 Gatherv 5 Reduce 6 Allreduce 7 Reduce_scatter 8 Reduce_scatter_block 9 Alltoall
# 10 Alltoallv 11 Alltoallw 12 Scan 13 Exscan 14 Allgather 15 Ibcast 16 Iallreduce
# 17 Bcast_init 18 Ireduce 19 Allreduce_init.
def coll(comm, call, st, rt, sc, rc, sd=0, rd=0, root=0, op=0, ip=0):
    return [0, comm, call, st, rt, sc, rc, sd, rd, root, op, ip, 3, 9]


colls = {
    "bcast": coll(0, 0, 0, 0, 3, 3),
    "scatter": coll(1, 1, 0, 4, 4, 2),
    "scatterv": coll(0, 2, 0, 0, 3, 3, sd=2),
    "gather_inplace": coll(0, 3, 0, 0, 2, 2, ip=200),
    "gatherv": coll(2, 4, 5, 4, 2, 2, rd=1),
    "reduce_sum": coll(0, 5, 0, 0, 4, 4),
    "allreduce_maxloc": coll(1, 6, 3, 3, 2, 2, op=3),
    "allreduce_user_inplace": coll(0, 6, 1, 1, 3, 3, op=6, ip=195),
    "reduce_scatter": coll(0, 7, 0, 0, 3, 3),
    "reduce_scatter_block": coll(1, 8, 1, 1, 2, 2, op=1),
    "alltoall": coll(0, 9, 4, 0, 1, 2),
    "alltoallv": coll(0, 10, 0, 5, 4, 2, sd=1, rd=2),
    "alltoallw": coll(2, 11, 5, 0, 2, 4, sd=3, rd=1),
    "scan": coll(0, 12, 0, 0, 3, 3),
    "exscan": coll(0, 13, 1, 1, 3, 3),
    "allgather": coll(1, 14, 2, 2, 4, 4),
    "ibcast": coll(0, 15, 0, 5, 2, 2),
    "iallreduce": coll(0, 16, 0, 0, 2, 2, op=2),
    "bcast_init": coll(1, 17, 0, 1, 2, 2),
    "ireduce": coll(0, 18, 1, 1, 1, 1, op=1),
    "allreduce_init": coll(2, 19, 0, 0, 4, 4),
    "errors": coll(0, 6, 0, 0, 240, 0) + coll(250, 0, 0, 0, 1, 1) + coll(0, 5, 0, 0, 1, 1, root=230)
    + coll(0, 6, 2, 2, 1, 1, op=0) + coll(0, 6, 0, 0, 1, 1, ip=255),
}
for k, v in colls.items():
    write("rma_coll_args", k, v)


# ---- broker_protocol: step byte = client (bits 0-1) | kind << 2 (0-1 request,
# 2 corrupted header, 3 raw bytes, 4 truncated/empty, 5 close). Requests: type byte
# (type = 1 + b % 12), then fields (see make_request).
def req(client, kind, body):
    return [client | (kind << 2)] + body


create2 = req(0, 0, [2, 1, 0])                 # CreateJob{2 ranks, no binding}
join0 = req(1, 0, [4, 0, 0, 0, 0, 0, 0])       # Join{job[0], rank 0}
join1 = req(2, 0, [4, 0, 1, 0, 0, 0, 0])       # Join{job[0], rank 1}
finalize = req(1, 0, [6])
abort = req(2, 0, [7, 3, 0, 0, 0])
exited = req(0, 0, [8, 1, 0, 1])               # RankExited{job[0], rank 1, status 1<<8}
end = req(0, 0, [9, 0])
ping = req(3, 0, [0])
bseeds = {
    "lifecycle": create2 + join0 + join1 + finalize + exited + end + ping,
    "abort": create2 + join0 + abort + join1 + abort + req(1, 5, []) + exited + ping,
    "runner_vanishes": create2 + join0 + req(0, 5, []) + finalize + ping,
    "refusals": join0 + finalize + abort + exited + end + req(0, 0, [1, 0, 0, 0, 0])
    + req(0, 0, [2, 242, 1]) + req(1, 0, [2, 241, 0]) + req(2, 0, [10]),
    "garbage": req(0, 3, [20] + list(range(20))) + req(0, 3, [5, 250, 9] + [0xAB] * 80)
    + req(0, 2, [0, 4, 0x77]) + req(0, 2, [0, 8, 0xff]) + req(0, 4, [0, 3]) + ping,
    "empty_datagram": create2 + req(0, 4, [0, 0]) + ping,
}
# The decoder half reads the input's first bytes as one datagram: a valid Ping after
# a flag byte.
hdr = struct.pack("<IHHII", 0x53504D49, 1, 1, 0, 0)
bseeds["decoder_ping"] = [0] + list(hdr)
bseeds["decoder_join"] = [0] + list(struct.pack("<IHHII", 0x53504D49, 1, 5, 16, 0)) + [1, 0, 0, 0, 0, 0, 0, 0] + [0] * 8
for k, v in bseeds.items():
    write("broker_protocol", k, v)
print("seeds written under", root)
