#!/usr/bin/env python3
"""Benchmark shmpi side by side with Open MPI and MPICH, in one run.

    python3 bench/compare.py [--install-peers] [--ranks 2,8] [--rounds 3] [--libs shmpi,openmpi,mpich]

Builds every benchmark in BENCHMARKS against each library (shmpi through the build tree's
shmpicc, the peers through Debian's mpicc.openmpi / mpicc.mpich), runs each library at
every rank count, interleaving the libraries over several rounds so machine noise hits
all of them alike, runs each benchmark's bare-hardware references once per round, and
prints a table. Writes results/<bench>.json and results/<bench>.svg (log-scale bar chart).

Exit status: 0 if every shmpi run succeeded (peers may fail or be missing: they are
reported, not fatal), 1 if shmpi failed to build or to run, 2 on bad usage.
Standard library only. See bench/README.md.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional
from xml.sax.saxutils import escape

BENCH_DIR = Path(__file__).resolve().parent

# ----------------------------------------------------------------------------------------
# Benchmark specifications. To add a benchmark: write an MPI C program that prints
#   RESULT bench=<name> ranks=<n> min_us=<x> median_us=<y> iters=<i>
# from rank 0, and append a Bench here. A program that measures several cases in one launch
# prints one such line per case; its Bench lists them as `variants`.
# ----------------------------------------------------------------------------------------

LIBS = ["shmpi", "openmpi", "mpich"]
LIB_LABEL = {"shmpi": "shmpi", "openmpi": "Open MPI", "mpich": "MPICH"}
LIB_COLOR = {"shmpi": "#1f77b4", "openmpi": "#ff7f0e", "mpich": "#2ca02c"}
REF_COLOR = "#7f7f7f"


@dataclass
class Run:
    """What one launch of a benchmark needs: its arguments and a time limit."""
    iters: int
    warmup: int
    reps: int = 5
    timeout_s: float = 120.0
    extra: list[str] = field(default_factory=list)  # program arguments after the three counts
    launcher_args: list[str] = field(default_factory=list)  # mpirun options (e.g. Open MPI's --mca osc sm)

    def argv(self) -> list[str]:
        return [str(self.iters), str(self.warmup), str(self.reps), *self.extra]


@dataclass
class Reference:
    """A non-MPI program measuring the hardware limit at one rank count: run once per round
    (the table's reference column at that rank count) and, if `sentinels`, also briefly
    (`sentinel`) right before and after every launch at its rank count, to tell what the
    hardware did at that moment (see check_plausibility)."""
    name: str  # its RESULT bench= tag
    label: str  # column/bar label
    source: str  # relative to bench/
    ranks: int  # the rank count it is the limit for
    run: Run
    sentinels: bool = True  # sentinel runs around each launch at `ranks`, and the plausibility check
    sentinel: Run = field(default_factory=lambda: Run(iters=2000, warmup=200, reps=3, timeout_s=30))
    ranks_arg: bool = False  # the program takes the rank count as its 4th argument (after REPETITIONS)

    def argv(self, run: Run) -> list[str]:
        return run.argv() + ([str(self.ranks)] if self.ranks_arg else [])


@dataclass
class Target:
    description: str
    # (summary) -> (met: True/False/None if not measurable, detail text)
    check: Callable[["Summary"], tuple[Optional[bool], str]]


@dataclass
class Variant:
    """One case of a launch that measures several (e.g. one op and size of rma_latency.c)."""
    tag: str  # its RESULT bench= tag
    label: str  # table row / chart group label
    nbytes: Optional[int] = None  # bytes per call: the table adds MB/s
    ranks: Optional[tuple[int, ...]] = None  # measured only at these rank counts (default: all)
    # The tag of a case of the same launches this one is compared with (e.g. a nonblocking call
    # against its blocking version): the table shows each library's median ratio this / that.
    versus: Optional[str] = None

    def at(self, ranks: int) -> bool:
        return self.ranks is None or ranks in self.ranks


@dataclass
class Extra:
    """A further numeric RESULT field (e.g. nbc_latency.c's overlap_pct=): kept per launch and
    case, its median over the launches per table cell, shown in one table column with the
    libraries side by side."""
    key: str  # the RESULT field's name
    label: str  # column heading
    fmt: str = "{:.3g}"


@dataclass
class Bench:
    name: str  # RESULT bench= tag (single case); output files results/<name>.json and .svg
    metric: str  # what the numbers are, for the table and chart
    source: str  # relative to bench/
    run: Callable[[str, int, int], Run]  # (library, ranks, cpus) -> Run
    references: list[Reference] = field(default_factory=list)  # at most one per rank count
    targets: list[Target] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ranks: Optional[list[int]] = None  # its own rank counts instead of --ranks (e.g. [1])
    group: Optional[str] = None  # --bench selects a whole group by this name too
    groups: tuple[str, ...] = ()  # further group names that select it
    # Several cases per launch, each its own RESULT line and table row (default: one case,
    # tag = name). A launch that printed only some of them still counts for those.
    variants: Optional[list[Variant]] = None
    iters_note: str = "MPICH busy-polls: oversubscribed, each barrier costs tens of ms"  # why '*' cells
    extras: list[Extra] = field(default_factory=list)  # further RESULT fields to keep and show
    versus_label: str = "ratio"  # column heading for the variants' `versus` ratios

    def __post_init__(self) -> None:
        counts = [r.ranks for r in self.references]
        if len(set(counts)) != len(counts):
            raise ValueError(f"{self.name}: more than one reference for a rank count: {counts}")
        if self.variants is None:
            self.variants = [Variant(self.name, self.metric)]
        if len(self.variants) > 1 and self.references:
            raise ValueError(f"{self.name}: references need a single-case benchmark")

    def selected_by(self, names: list[str]) -> bool:
        return self.name in names or self.group in names or any(g in names for g in self.groups)

    def group_names(self) -> list[str]:
        return [g for g in (self.group, *self.groups) if g]

    def reference_for(self, ranks: int) -> Optional[Reference]:
        return next((r for r in self.references if r.ranks == ranks), None)


def barrier_run(lib: str, ranks: int, cpus: int) -> Run:
    if ranks > cpus and lib == "mpich":
        # MPICH busy-polls: oversubscribed, a barrier costs tens of ms (~34 ms at 8 ranks
        # on 2 cores), so 200 iterations already take ~35 s per launch.
        return Run(iters=200, warmup=20, timeout_s=400)
    if ranks > cpus:
        return Run(iters=5000, warmup=500, timeout_s=180)
    return Run(iters=20000, warmup=2000, timeout_s=120)


def _median(s: "Summary", lib: str, ranks: int, tag: Optional[str] = None) -> Optional[float]:
    cell = s.cell(lib, ranks, tag)
    return cell["median_us"] if cell else None


def _within_reference(ranks: int, factor: float) -> Callable[["Summary"], tuple[Optional[bool], str]]:
    """Target check: shmpi's median at `ranks` within `factor` x that rank count's reference."""
    def check(s: "Summary"):
        ref = s.bench.reference_for(ranks)
        sh, lim = _median(s, "shmpi", ranks), s.reference_median(ranks)
        if ref is None or sh is None or lim is None:
            return None, "not measured"
        return sh <= factor * lim, f"shmpi/{ref.label} = {sh / lim:.2f} (target <= {factor:.2f})"
    return check


def _fastest_peer(s: "Summary", ranks: int, tag: Optional[str] = None):
    peers = [(m, lib) for lib in s.libs if lib != "shmpi" for m in [_median(s, lib, ranks, tag)] if m is not None]
    return min(peers) if peers else None


def _target_2_vs_peers(s: "Summary"):
    sh, best = _median(s, "shmpi", 2), _fastest_peer(s, 2)
    if sh is None or best is None:
        return None, "not measured"
    return sh <= best[0], f"{LIB_LABEL[best[1]]}/shmpi = {best[0] / sh:.2f} (target >= 1.00)"


def _target_8_vs_peers(s: "Summary"):
    sh, best = _median(s, "shmpi", 8), _fastest_peer(s, 8)
    if sh is None or best is None:
        return None, "not measured"
    return best[0] >= 3.0 * sh, f"{LIB_LABEL[best[1]]}/shmpi = {best[0] / sh:.2f} (target >= 3.00)"


def _reduce_local_run(op: str, typ: str, nbytes: int) -> Callable[[str, int, int], Run]:
    # ~20-50 ms per timed loop at every size; one rank, so no library busy-polls.
    iters = max(2, min(20000, (80 << 20) // nbytes))
    return lambda lib, ranks, cpus: Run(iters=iters, warmup=max(1, iters // 10), timeout_s=120,
                                        extra=[op, typ, str(nbytes)])


def _reduce_local_vs_peers(s: "Summary"):
    sh, best = _median(s, "shmpi", 1), _fastest_peer(s, 1)
    if sh is None or best is None:
        return None, "not measured"
    return sh <= best[0], f"{LIB_LABEL[best[1]]}/shmpi = {best[0] / sh:.2f} (target >= 1.00)"


REDUCE_LOCAL_BENCHES = [
    Bench(name=f"reduce_local_{op}_{typ}_{nbytes}", group="reduce_local",
          metric=f"MPI_Reduce_local MPI_{op.upper()} {typ}, {nbytes >> 10} KiB (us per call)",
          source="reduce_local.c", run=_reduce_local_run(op, typ, nbytes), ranks=[1],
          targets=[Target("no slower than either peer", _reduce_local_vs_peers)])
    for op, typ in [("sum", "double"), ("sum", "float"), ("sum", "int32"), ("sum", "int64"), ("max", "double")]
    for nbytes in [4 << 10, 256 << 10, 8 << 20, 64 << 20]
]

# ---- RMA (one-sided): rma_latency.c and rma_contended.c, group "rma" --------------------
# Sub-groups: rma_latency (OSU-style latency per sync mode and window flavour), acc_bw
# (accumulate bandwidth per atomicity path, against a plain a[i] += b[i] in the same launch),
# fence (a fence epoch with one fetch_and_op against MPI_Barrier, same launch), rma_contended
# (every rank increments one counter).

RMA_LAT_SIZES = [8, 64, 1 << 10, 64 << 10, 1 << 20]
RMA_BW_SIZES = [1 << 10, 16 << 10, 256 << 10, 1 << 20, 16 << 20]
RMA_LAT_SYNCS = ["lock", "flush", "flush_local", "fence", "pscw"]
RMA_LAT_OPS = ["fop", "cas", "acc", "get_acc", "put", "get"]
RMA_SINGLE = {"fop", "cas", "empty", "barrier"}  # one 8-byte case whatever the sizes
RMA_OP_LABEL = {"local": "a+=b", "empty": "empty epoch", "barrier": "MPI_Barrier"}
RMA_SYNC_TEXT = {
    "lock": "lock(shared)/op/unlock",
    "lockx": "lock(exclusive)/op/unlock",
    "lock_all": "lock_all/op/unlock_all",
    "flush": "op+flush in lock_all",
    "flush_local": "op+flush_local in lock_all",
    "fence": "op+fence",
    "pscw": "start/op/complete, post/wait",
}
RMA_ITERS_NOTE = "the timed loop of a slow case is cut to about 20 ms (rma_util.h capped_iters)"
OMPI_OSC_NOTE = ("Open MPI: Win_allocate windows run with --mca osc sm (4.1.4's default there, osc/rdma, "
                 "segfaults in MPI_Compare_and_swap); Win_create windows with its default osc, osc/rdma "
                 "(osc/sm refuses Win_create: MPI_ERR_WIN)")


def fmt_size(n: int) -> str:
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def rma_variants(sync: str, flavour: str, ops: list[str], sizes: list[int], bandwidth: bool = False) -> list[Variant]:
    """The cases (RESULT tags) rma_latency.c prints for these arguments."""
    return [Variant(f"rma_{sync}_{flavour}_{op}_{n}",
                    RMA_OP_LABEL[op] if op in ("empty", "barrier") else f"{RMA_OP_LABEL.get(op, op)} {fmt_size(n)}",
                    nbytes=n if bandwidth else None)
            for op in ops for n in ([8] if op in RMA_SINGLE else sizes)]


def osc_args(lib: str, flavour: str) -> list[str]:
    return ["--mca", "osc", "sm"] if lib == "openmpi" and flavour == "allocate" else []


def rma_run(sync: str, flavour: str, ops: list[str], sizes: list[int]) -> Callable[[str, int, int], Run]:
    # 20000 iterations (2000 warmup) up to 1 KiB, the same bytes per loop above; the program
    # itself shortens loops that would take more than ~20 ms (capped_iters).
    return lambda lib, ranks, cpus: Run(
        iters=20000, warmup=2000, timeout_s=240, launcher_args=osc_args(lib, flavour),
        extra=[sync, flavour, ",".join(ops), ",".join(str(n) for n in sizes)])


def contended_run(lib: str, ranks: int, cpus: int) -> Run:
    osc = osc_args(lib, "allocate")
    if ranks > cpus and lib == "mpich":
        # MPICH oversubscribed: ~4 ms per update in aggregate (8 ranks, 2 cores): the first
        # loop takes ~1.6 s, later ones are cut to ~200 ms by the program.
        return Run(iters=50, warmup=5, timeout_s=400, launcher_args=osc, extra=["allocate"])
    if ranks > cpus:
        return Run(iters=5000, warmup=500, timeout_s=240, launcher_args=osc, extra=["allocate"])
    return Run(iters=20000, warmup=2000, timeout_s=120, launcher_args=osc, extra=["allocate"])


def _vs_fastest_peer(tag: str, ranks: int, factor: float, what: str) -> Target:
    """shmpi's median for case `tag` at least `factor` x faster than the faster peer's."""
    def check(s: "Summary"):
        sh, best = _median(s, "shmpi", ranks, tag), _fastest_peer(s, ranks, tag)
        if sh is None or best is None:
            return None, "not measured"
        return best[0] >= factor * sh, f"{LIB_LABEL[best[1]]}/shmpi = {best[0] / sh:.2f} (target >= {factor:.2f})"
    return Target(f"{ranks} ranks: {what}: shmpi at least {factor:g}x faster than the faster peer", check)


def _within_case(tag: str, ref_tag: str, ranks: int, factor: float, what: str, ref_what: str,
                 ref_scale: float = 1.0) -> Target:
    """shmpi's median for `tag` within `factor` x (ref_scale x shmpi's median for `ref_tag`), both
    from the same launches (the peers' ratios are shown for context). ref_what names the
    scaled reference (e.g. "2 x copy 1 MiB")."""
    def check(s: "Summary"):
        ratios = {lib: m / (ref_scale * r) for lib in s.libs for m in [_median(s, lib, ranks, tag)]
                  for r in [_median(s, lib, ranks, ref_tag)] if m is not None and r}
        peers = "; ".join(f"{LIB_LABEL[l]} {v:.2f}" for l, v in ratios.items() if l != "shmpi")
        peers = f" [peers: {peers}]" if peers else ""
        if "shmpi" not in ratios:
            return None, "not measured" + peers
        return ratios["shmpi"] <= factor, f"shmpi {what} / {ref_what} = {ratios['shmpi']:.2f} " \
                                          f"(target <= {factor:.2f}){peers}"
    return Target(f"{ranks} ranks: {what} within {factor:g}x of {ref_what}", check)


RMA_LATENCY_BENCHES = [
    Bench(name=f"rma_lat_{sync}_{flavour}", group="rma", groups=("rma_latency",),
          metric=f"RMA latency, {RMA_SYNC_TEXT[sync]}, Win_{flavour} (us per op)",
          source="rma_latency.c", run=rma_run(sync, flavour, RMA_LAT_OPS, RMA_LAT_SIZES), ranks=[2],
          variants=rma_variants(sync, flavour, RMA_LAT_OPS, RMA_LAT_SIZES),
          targets=[_vs_fastest_peer(f"rma_flush_{flavour}_{op}_8", 2, 2.0, f"{op} 8 B, Win_{flavour}")
                   for op in ("fop", "cas", "acc", "get_acc")] if sync == "flush" else [],
          notes=["rank 0 origin, rank 1 target; us per op including its synchronization; fop/cas int64, "
                 "acc/get_acc MPI_SUM on double", OMPI_OSC_NOTE],
          iters_note=RMA_ITERS_NOTE)
    for flavour in ("allocate", "create") for sync in RMA_LAT_SYNCS
]

ACC_BW_BENCHES = [
    Bench(name=f"acc_bw_{sync}_{flavour}", group="rma", groups=("acc_bw",),
          metric=f"MPI_Accumulate SUM double, {RMA_SYNC_TEXT[sync]}, Win_{flavour} (us per call)",
          source="rma_latency.c", run=rma_run(sync, flavour, ["acc", "local"], RMA_BW_SIZES), ranks=[2],
          variants=rma_variants(sync, flavour, ["acc", "local"], RMA_BW_SIZES, bandwidth=True),
          targets=[_within_case(f"rma_{sync}_{flavour}_acc_{1 << 20}", f"rma_{sync}_{flavour}_local_{1 << 20}", 2,
                                1.10, f"1 MiB accumulate under {RMA_SYNC_TEXT[sync].split('/')[0]}",
                                "one core's a[i] += b[i]")] if flavour == "allocate" and sync in ("lock", "lockx")
          else [],
          notes=["a+=b: rank 0's plain a[i] += b[i] over two private double arrays of the same size, in the same "
                 "launch (-O3, AVX2 when the CPU has it): one core's time for the same arithmetic", OMPI_OSC_NOTE],
          iters_note=RMA_ITERS_NOTE)
    for sync, flavour in (("lock", "allocate"), ("lockx", "allocate"), ("flush", "allocate"), ("fence", "allocate"),
                          ("lock", "create"))
]

RMA_OTHER_BENCHES = [
    Bench(name="rma_fence", group="rma", groups=("fence",),
          metric="fence epoch with one fetch_and_op vs MPI_Barrier, Win_allocate (us)",
          source="rma_latency.c", run=rma_run("fence", "allocate", ["fop", "empty", "barrier"], [8]), ranks=[2],
          variants=rma_variants("fence", "allocate", ["fop", "empty", "barrier"], [8]),
          targets=[_within_case("rma_fence_allocate_fop_8", "rma_fence_allocate_barrier_8", 2, 1.3,
                                "fence epoch with one fetch_and_op", "MPI_Barrier")],
          notes=["per iteration: rank 0 fetch_and_op on rank 1, then MPI_Win_fence(0) on both (fop); the fence "
                 "alone (empty epoch); MPI_Barrier alone; all three in the same launch", OMPI_OSC_NOTE],
          iters_note=RMA_ITERS_NOTE),
    Bench(name="rma_contended", group="rma", groups=("rma_contended",),
          metric="contended fetch_and_op on one counter, all ranks (us per update, aggregate)",
          source="rma_contended.c", run=contended_run,
          targets=[_vs_fastest_peer("rma_contended", 2, 2.0, "contended fetch_and_op"),
                   _vs_fastest_peer("rma_contended", 8, 2.0, "contended fetch_and_op")],
          notes=["every rank: MPI_Fetch_and_op(+1) on rank 0's counter + MPI_Win_flush in one lock_all epoch; "
                 "loop time = latest end - earliest start over all ranks, divided by all ranks' updates; "
                 "the final count is checked exactly", OMPI_OSC_NOTE],
          iters_note="MPICH oversubscribed runs 50 iterations (~4 ms per update); after a loop over ~400 ms the "
                     "program cuts the next ones to ~200 ms"),
]

# ---- Collectives: coll_latency.c, group "coll" -------------------------------------------
# One benchmark (table) per collective, one row per message size (bytes of one rank's message,
# OSU's convention; see coll_latency.c and bench/README.md), at --ranks (default 2 and 8). At
# COLL_REF_RANKS the same launches also time the references on rank 0 alone (memcpy, a[i] +=
# b[i]) at COLL_REF_SIZES: the copy/reduce limit the 1 MiB collectives are held against.

COLL_SIZES = [8, 64, 512, 4 << 10, 32 << 10, 256 << 10, 1 << 20, 4 << 20]
COLL_NC_SIZES = [16 if n < 16 else n for n in COLL_SIZES]  # the _nc element is 16 bytes
# 4 MiB only up to 4 ranks: at 8 ranks on 2 cores the peers take up to 2.4 s per call there
# (Open MPI's Reduce_scatter_block), and with it the group would take over 15 minutes.
COLL_LARGE = 4 << 20
COLL_LARGE_RANKS = (1, 2, 3, 4)
COLL_REF_SIZES = [1 << 20, 4 << 20]
COLL_REF_RANKS = 2
COLL_LIMIT_SIZE = 1 << 20
COLL_REF_LABEL = {"copy": "memcpy", "reduce_ref": "a+=b"}
COLL_TEXT = {
    "barrier": "MPI_Barrier",
    "bcast": "MPI_Bcast from rank 0; size: the message",
    "scatter": "MPI_Scatter from rank 0; size: each rank's block",
    "scatterv": "MPI_Scatterv from rank 0, equal counts, contiguous displacements; size: each rank's block",
    "gather": "MPI_Gather to rank 0; size: each rank's block",
    "reduce": "MPI_Reduce MPI_SUM double to rank 0; size: the vector",
    "allreduce": "MPI_Allreduce MPI_SUM double; size: the vector",
    "reduce_nc": "MPI_Reduce, non-commutative user op (affine maps, 2 doubles) to rank 0; size: the vector",
    "allreduce_nc": "MPI_Allreduce, non-commutative user op (affine maps, 2 doubles); size: the vector",
    "reduce_scatter_block": "MPI_Reduce_scatter_block MPI_SUM double; size: each rank's result block",
    "alltoall": "MPI_Alltoall; size: each block (one per rank pair)",
    "scan": "MPI_Scan MPI_SUM double; size: the vector",
    "allgather": "MPI_Allgather; size: each rank's block",
}
# The limit at 1 MiB, 2 ranks: (reference, how many SIZE-byte references the busiest rank must
# do at the least, the ranks working in parallel). Alltoall, allgather: each rank copies its own block and
# the other rank's block to it.
COLL_LIMIT = {"bcast": ("copy", 1), "scatter": ("copy", 1), "scatterv": ("copy", 1), "gather": ("copy", 1),
              "alltoall": ("copy", 2), "reduce": ("reduce_ref", 1), "allreduce": ("reduce_ref", 1),
              "reduce_scatter_block": ("reduce_ref", 1), "scan": ("reduce_ref", 1),
              "allgather": ("copy", 2)}
COLL_GENERIC = ("scatter", "scatterv", "reduce_nc", "allreduce_nc")  # the peers' generic paths: 1.5x at 2 ranks
COLL_NOTES = [
    "us per call: loops of back-to-back calls, each after one MPI_Barrier (the same for every library); a loop's "
    "value is its span (latest end - earliest start over all ranks) per call. Rooted collectives may overlap "
    "consecutive calls (a root that need not wait runs ahead): the number is the cost per call in a stream of calls.",
    "data changes every call; every rank checks what it received after every call (3 stamped elements per "
    "message) and all of it after each case: a library that skips work fails (no number) instead of looking fast",
]
COLL_REF_NOTE = {
    "copy": "memcpy: rank 0 alone, in the same launches, between two private pre-touched buffers",
    "reduce_ref": "a+=b: rank 0 alone, in the same launches, a[i] += b[i] over two private double arrays "
                  "(-O3, AVX2 when the CPU has it)",
}
COLL_ITERS_NOTE = ("the timed loop of a slow case is cut to about 20 ms (rma_util.h capped_iters); MPICH "
                   "oversubscribed asks for 200 iterations")


def coll_tag(coll: str, nbytes: int) -> str:
    return "coll_barrier" if coll == "barrier" else f"coll_{coll}_{nbytes}"


def coll_sizes(coll: str) -> list[int]:
    return [0] if coll == "barrier" else COLL_NC_SIZES if coll.endswith("_nc") else COLL_SIZES


def coll_size_ranks(n: int) -> Optional[tuple[int, ...]]:
    """The rank counts size n is measured at (None: all)."""
    return COLL_LARGE_RANKS if n >= COLL_LARGE else None


def coll_sizes_at(coll: str, ranks: int) -> list[int]:
    return [n for n in coll_sizes(coll) if coll_size_ranks(n) is None or ranks in coll_size_ranks(n)]


def coll_iterations(lib: str, ranks: int, cpus: int, extra: list[str], mpich_timeout_s: int) -> Run:
    """The collective programs' loop lengths (coll_latency.c, nbc_latency.c). The programs cut
    a loop that would take much longer than ~20 ms (capped_iters), so these are the counts for
    the small sizes. MPICH oversubscribed busy-polls: each call costs ms to tens of ms."""
    if ranks > cpus and lib == "mpich":
        return Run(iters=200, warmup=20, timeout_s=mpich_timeout_s, extra=extra)
    if ranks > cpus:
        return Run(iters=5000, warmup=500, timeout_s=180, extra=extra)
    return Run(iters=20000, warmup=2000, timeout_s=120, extra=extra)


def coll_run(coll: str) -> Callable[[str, int, int], Run]:
    ref = COLL_LIMIT.get(coll, (None,))[0]

    def run(lib: str, ranks: int, cpus: int) -> Run:
        colls = [coll] + ([ref] if ref and ranks == COLL_REF_RANKS else [])
        sizes = ",".join(str(n) for n in coll_sizes_at(coll, ranks) if n) or "8"  # barrier: ignored
        extra = [",".join(colls), sizes, ",".join(str(n) for n in COLL_REF_SIZES)]
        return coll_iterations(lib, ranks, cpus, extra, mpich_timeout_s=240)
    return run


def coll_variants(coll: str) -> list[Variant]:
    out = [Variant(coll_tag(coll, n), COLL_TEXT[coll] if coll == "barrier" else fmt_size(n),
                   ranks=coll_size_ranks(n)) for n in coll_sizes(coll)]
    if coll in COLL_LIMIT:
        ref = COLL_LIMIT[coll][0]
        out += [Variant(coll_tag(ref, n), f"{COLL_REF_LABEL[ref]} {fmt_size(n)}", nbytes=n,
                        ranks=(COLL_REF_RANKS,)) for n in COLL_REF_SIZES]
    return out


def _every_case_vs_peers(cases: list[tuple[str, str]], ranks: int, factor: float, what: str) -> Target:
    """At every case (tag, label): shmpi at least `factor` x faster than the faster peer
    (factor 1: no slower). Met only if every case was measured for shmpi and a peer."""
    def check(s: "Summary"):
        worst, missing = None, []
        for tag, label in cases:
            sh, best = _median(s, "shmpi", ranks, tag), _fastest_peer(s, ranks, tag)
            if sh is None or best is None:
                missing.append(label)
                continue
            r = best[0] / sh
            if worst is None or r < worst[0]:
                worst = (r, label, best[1])
        if worst is None:
            return None, "not measured"
        met = False if worst[0] < factor else (None if missing else True)
        detail = (f"worst {worst[1]}: {LIB_LABEL[worst[2]]}/shmpi = {worst[0]:.2f} (target >= {factor:.2f}); "
                  f"{len(cases) - len(missing)} of {len(cases)} sizes measured")
        return met, detail + (f" (not: {', '.join(missing)})" if missing else "")
    return Target(f"{ranks} ranks: {what}", check)


def coll_targets(coll: str) -> list[Target]:
    def cases(ranks: int) -> list[tuple[str, str]]:
        return [(coll_tag(coll, n), "barrier" if coll == "barrier" else fmt_size(n))
                for n in coll_sizes_at(coll, ranks)]
    every = "" if coll == "barrier" else " at every size"
    out = [_every_case_vs_peers(cases(2), 2, 1.0, f"shmpi no slower than the faster peer{every}")]
    if coll in COLL_GENERIC:
        out.append(_every_case_vs_peers(cases(2), 2, 1.5, f"shmpi at least 1.5x faster than the faster peer{every}"))
    if coll in COLL_LIMIT:
        ref, k = COLL_LIMIT[coll]
        n = COLL_LIMIT_SIZE
        ref_what = (f"{k} x " if k != 1 else "") + f"{COLL_REF_LABEL[ref]} {fmt_size(n)}"
        out.append(_within_case(coll_tag(coll, n), coll_tag(ref, n), COLL_REF_RANKS, 2.0, f"{coll} {fmt_size(n)}",
                                ref_what, ref_scale=k))
    out.append(_every_case_vs_peers(cases(8), 8, 3.0, f"shmpi at least 3x faster than the faster peer{every}"))
    return out


def coll_notes(coll: str) -> list[str]:
    out = list(COLL_NOTES)
    if coll in COLL_LIMIT:
        out.append(f"{COLL_REF_NOTE[COLL_LIMIT[coll][0]]}; at {COLL_REF_RANKS} ranks only")
    if coll != "barrier":
        out.append(f"{fmt_size(COLL_LARGE)} only at {'/'.join(map(str, COLL_LARGE_RANKS))} ranks "
                   f"(at 8 ranks on 2 cores the peers take up to seconds per call there)")
    return out


COLL_BENCHES = [
    Bench(name=f"coll_{coll}", group="coll",
          metric=f"{COLL_TEXT[coll]} (us per call)",
          source="coll_latency.c", run=coll_run(coll),
          variants=coll_variants(coll), targets=coll_targets(coll),
          notes=coll_notes(coll),
          iters_note=COLL_ITERS_NOTE)
    for coll in ["barrier", "bcast", "scatter", "scatterv", "gather", "reduce", "allreduce", "reduce_nc",
                 "allreduce_nc", "reduce_scatter_block", "alltoall", "scan", "allgather"]
]

# ---- Point-to-point: p2p_latency.c, group "p2p" ------------------------------------------
# Two benchmarks (tables): OSU-style ping-pong (one-way latency, half a round trip) and
# windowed streaming (osu_bw: 64 MPI_Isend / MPI_Irecv, Waitall, a 4-byte ack), one row per
# message size; MB/s (size / median) is listed under each table. At --ranks (default 2 and 8):
# rank r exchanges with r^1, all pairs at once; rank 0's pair is reported. At P2P_REF_RANKS
# the same launches also time rank 0's memcpy at P2P_REF_SIZES (the single-copy limit).

P2P_LAT_SIZES = [8, 64, 512, 4 << 10, 32 << 10, 256 << 10, 1 << 20, 4 << 20]
P2P_BW_SIZES = [4 << 10, 64 << 10, 1 << 20, 4 << 20]
P2P_REF_SIZES = [1 << 20, 4 << 20]
P2P_REF_RANKS = 2
P2P_TAG = {"pingpong": "p2p_latency", "bw": "p2p_bw"}
P2P_NOTES = [
    "pairs: rank r with r^1, all pairs at once (8 ranks: 4 pairs); rank 0's own loop time, rank 0's pair; "
    "each loop after one MPI_Barrier (the same for every library)",
    "data changes every iteration (stamped first, last and one moving word); received stamps checked every "
    "iteration and the whole last message after each case: a library that skips a transfer fails (no number)",
    f"memcpy: rank 0 alone, in the same launches, between two private pre-touched buffers; at {P2P_REF_RANKS} "
    "ranks only",
]
P2P_ITERS_NOTE = ("the timed loop of a slow case is cut to about 20 ms (rma_util.h capped_iters); MPICH "
                  "oversubscribed asks for 200 iterations")


def p2p_run(mode: str, sizes: list[int]) -> Callable[[str, int, int], Run]:
    def run(lib: str, ranks: int, cpus: int) -> Run:
        modes = [mode] + (["copy"] if ranks == P2P_REF_RANKS else [])
        extra = [",".join(modes), ",".join(str(n) for n in sizes), ",".join(str(n) for n in P2P_REF_SIZES)]
        # The program cuts a loop that would take much longer than ~20 ms (capped_iters), so these
        # are the counts for the small sizes. MPICH oversubscribed busy-polls: at 8 ranks on 2
        # cores a message waits for scheduler time slices (4-12 ms one way), its loops are 2
        # iterations; a launch takes 6 s (p2p_latency) and 10-16 s (p2p_bw).
        if ranks > cpus and lib == "mpich":
            return Run(iters=200, warmup=20, timeout_s=300, extra=extra)
        if ranks > cpus:
            return Run(iters=5000, warmup=500, timeout_s=180, extra=extra)
        return Run(iters=20000, warmup=2000, timeout_s=120, extra=extra)
    return run


def p2p_variants(mode: str, sizes: list[int]) -> list[Variant]:
    return ([Variant(f"{P2P_TAG[mode]}_{n}", fmt_size(n), nbytes=n) for n in sizes]
            + [Variant(f"p2p_copy_{n}", f"memcpy {fmt_size(n)}", nbytes=n, ranks=(P2P_REF_RANKS,))
               for n in P2P_REF_SIZES])


P2P_BENCHES = [
    Bench(name="p2p_latency", group="p2p",
          metric="MPI_Send/MPI_Recv ping-pong, one-way latency (us per message, half a round trip)",
          source="p2p_latency.c", run=p2p_run("pingpong", P2P_LAT_SIZES),
          variants=p2p_variants("pingpong", P2P_LAT_SIZES), notes=P2P_NOTES, iters_note=P2P_ITERS_NOTE),
    Bench(name="p2p_bw", group="p2p",
          metric="streaming, windows of 64 MPI_Isend/MPI_Irecv + ack (us per message)",
          source="p2p_latency.c", run=p2p_run("bw", P2P_BW_SIZES),
          variants=p2p_variants("bw", P2P_BW_SIZES),
          notes=["one iteration: the sender MPI_Isends 64 messages from one buffer, the receiver MPI_Irecvs them "
                 "into 64 buffers, both MPI_Waitall, then a 4-byte ack back (osu_bw, window 64); us per "
                 "message = window time / 64"] + P2P_NOTES,
          iters_note=P2P_ITERS_NOTE),
]

# ---- Nonblocking collectives: nbc_latency.c, group "nbc" -------------------------------------
# One benchmark (table) per nonblocking collective, one launch per library and rank count that
# measures, size by size, the nonblocking call (I<coll> + MPI_Wait: latency; and OSU's overlap
# with a computation of the same length) and right after it the blocking call, at the sizes of
# coll (4 MiB only up to 4 ranks) and --ranks (default 2 and 8). Targets: shmpi's nonblocking
# latency within 1.2x of its own blocking one, and its overlap at least the faster peer's.

NBC_COLLS = ["iallreduce", "ibcast", "iscatter"]
NBC_TEXT = {
    "iallreduce": "MPI_Iallreduce MPI_SUM double + MPI_Wait, and MPI_Allreduce; size: the vector",
    "ibcast": "MPI_Ibcast from rank 0 + MPI_Wait, and MPI_Bcast; size: the message",
    "iscatter": "MPI_Iscatter from rank 0 + MPI_Wait, and MPI_Scatter; size: each rank's block",
}
NBC_LATENCY_FACTOR = 1.2  # nonblocking latency at most blocking + 20% (shmpi against shmpi)
NBC_NOTES = [
    "latency (min/med): loops of back-to-back calls (nonblocking: I<coll> + MPI_Wait, no computation), each loop "
    "after one MPI_Barrier (the same for every library); a loop's value is its span (latest end - earliest start "
    "over all ranks) per call, as in coll",
    "nb/blk: each library's nonblocking call / its blocking call: their timed loops alternate in each launch "
    "(nbc_latency.c), the median over the loop pairs of the two times' ratio, then the median over the launches",
    "overlap %: OSU's (osu_iallreduce & co.): loops of I<coll>, a dummy computation of ~t_pure (the nonblocking "
    "median; no MPI call inside), MPI_Wait; overlap = max(0, 100 x (1 - (t_total - t_compute) / t_pure)), t_total "
    "the span per iteration, t_compute the ranks' mean time in the computation; median over the loops, then over "
    "the launches (100: the collective cost nothing on top of the computation, 0: it ran only inside MPI_Wait)",
    "data changes every call; every rank checks what it received after every call (3 stamped elements) and all of "
    "it after each measurement: a library that skips work or completes a request early fails (no number)",
    "exposed us: t_total - t_compute of the overlap loops (median), the time the collective added to the "
    "computation; OSU's overlap is 1 - exposed / t_pure, so a call with nothing left to wait for shows 0 % however "
    "little it exposes (context for the overlap target, not a target)",
]
NBC_ITERS_NOTE = ("the timed loop of a slow case is cut to about 20 ms (rma_util.h capped_iters); MPICH "
                  "oversubscribed asks for 200 iterations")


def nbc_tag(coll: str, nbytes: int) -> str:
    return f"nbc_{coll}_{nbytes}"


def nbc_run(icoll: str) -> Callable[[str, int, int], Run]:
    def run(lib: str, ranks: int, cpus: int) -> Run:
        extra = [f"{icoll},{icoll[1:]}", ",".join(str(n) for n in coll_sizes_at("bcast", ranks))]
        # Each size runs the nonblocking and the blocking call: a longer limit for MPICH.
        return coll_iterations(lib, ranks, cpus, extra, mpich_timeout_s=300)
    return run


def nbc_variants(icoll: str) -> list[Variant]:
    out = []
    for n in COLL_SIZES:
        out.append(Variant(nbc_tag(icoll, n), fmt_size(n), ranks=coll_size_ranks(n), versus=nbc_tag(icoll[1:], n)))
        out.append(Variant(nbc_tag(icoll[1:], n), f"{fmt_size(n)} blocking", ranks=coll_size_ranks(n)))
    return out


def _nbc_sizes(ranks: int) -> list[int]:
    return coll_sizes_at("bcast", ranks)


def versus_ratio(case: Optional[dict], other: Optional[dict]) -> Optional[float]:
    """A case's time / the case it is compared with (Variant.versus), for one library: the
    case's paired_ratio where its program printed one (nbc_latency.c: the two calls' timed
    loops alternated, and each loop pair's ratio compares the same machine state; the median
    over the launches), else the ratio of the two medians."""
    if case and "paired_ratio" in case:
        return case["paired_ratio"]
    return case["median_us"] / other["median_us"] if (case and other and other["median_us"]) else None


def _nbc_within_blocking(icoll: str, ranks: int, factor: float) -> Target:
    """At every size: shmpi's nonblocking median within factor x its own blocking median (same
    launches); the peers' worst ratios for context."""
    def check(s: "Summary"):
        worst: dict[str, tuple[float, str]] = {}
        missing = []
        for n in _nbc_sizes(ranks):
            for lib in s.libs:
                r = versus_ratio(s.cell(lib, ranks, nbc_tag(icoll, n)), s.cell(lib, ranks, nbc_tag(icoll[1:], n)))
                if r is None:
                    if lib == "shmpi":
                        missing.append(fmt_size(n))
                    continue
                if lib not in worst or r > worst[lib][0]:
                    worst[lib] = (r, fmt_size(n))
        peers = "; ".join(f"{LIB_LABEL[l]} {r:.2f} at {at}" for l, (r, at) in worst.items() if l != "shmpi")
        peers = f" [peers' worst: {peers}]" if peers else ""
        if "shmpi" not in worst:
            return None, "not measured" + peers
        r, at = worst["shmpi"]
        met = False if r > factor else (None if missing else True)
        n_all = len(_nbc_sizes(ranks))
        detail = (f"worst {at}: shmpi {icoll} / {icoll[1:]} = {r:.2f} (target <= {factor:.2f}); "
                  f"{n_all - len(missing)} of {n_all} sizes measured")
        return met, detail + (f" (not: {', '.join(missing)})" if missing else "") + peers
    return Target(f"{ranks} ranks: {icoll} latency within {factor:g}x of shmpi's blocking {icoll[1:]} at every size",
                  check)


def _nbc_overlap_vs_peer(icoll: str, ranks: int) -> Target:
    """At every size: shmpi's overlap at least that of the faster peer (the lower nonblocking
    median at that size)."""
    def check(s: "Summary"):
        worst, missing = None, []
        for n in _nbc_sizes(ranks):
            tag = nbc_tag(icoll, n)
            sh, best = s.cell("shmpi", ranks, tag), _fastest_peer(s, ranks, tag)
            peer = s.cell(best[1], ranks, tag) if best else None
            if not sh or "overlap_pct" not in sh or not peer or "overlap_pct" not in peer:
                missing.append(fmt_size(n))
                continue
            d = sh["overlap_pct"] - peer["overlap_pct"]
            if worst is None or d < worst[0]:
                worst = (d, fmt_size(n), sh["overlap_pct"], best[1], peer["overlap_pct"])
        if worst is None:
            return None, "not measured"
        met = False if worst[0] < 0 else (None if missing else True)
        n_all = len(_nbc_sizes(ranks))
        detail = (f"worst {worst[1]}: shmpi {worst[2]:.1f}% vs {LIB_LABEL[worst[3]]} {worst[4]:.1f}% "
                  f"(target: shmpi >= the faster peer's); {n_all - len(missing)} of {n_all} sizes measured")
        return met, detail + (f" (not: {', '.join(missing)})" if missing else "")
    return Target(f"{ranks} ranks: {icoll} overlap at least the faster peer's at every size", check)


NBC_BENCHES = [
    Bench(name=f"nbc_{icoll}", group="nbc",
          metric=f"{NBC_TEXT[icoll]} (us per call)",
          source="nbc_latency.c", run=nbc_run(icoll), variants=nbc_variants(icoll),
          targets=[t for n in (2, 8) for t in (_nbc_within_blocking(icoll, n, NBC_LATENCY_FACTOR),
                                               _nbc_overlap_vs_peer(icoll, n))],
          notes=NBC_NOTES + [f"{fmt_size(COLL_LARGE)} only at {'/'.join(map(str, COLL_LARGE_RANKS))} ranks (as coll)"],
          iters_note=NBC_ITERS_NOTE,
          extras=[Extra("overlap_pct", "overlap %", "{:.0f}"), Extra("exposed_us", "exposed us", "{:.3g}")],
          versus_label="nb/blk")
    for icoll in NBC_COLLS
]

BENCHMARKS: list[Bench] = [
    Bench(
        name="barrier",
        metric="MPI_Barrier latency (us)",
        source="barrier_latency.c",
        run=barrier_run,
        references=[
            Reference(name="flag_limit", label="flag limit", source="flag_barrier_limit.c", ranks=2,
                      run=Run(iters=20000, warmup=2000, timeout_s=60)),
            # Oversubscribed, every rank must run once per barrier: each CPU switches to each
            # of its ranks once. Same loop length as shmpi's barrier at 8 ranks. No sentinels:
            # the sched_yield round is a cost floor, not a hard limit to check launches against.
            Reference(name="switch_floor", label="switch floor", source="switch_floor.c", ranks=8,
                      run=Run(iters=5000, warmup=500, timeout_s=60), sentinels=False, ranks_arg=True),
        ],
        targets=[
            Target("2 ranks: shmpi within 1.3x of the bare flag barrier", _within_reference(2, 1.3)),
            Target("2 ranks: shmpi no slower than the faster peer", _target_2_vs_peers),
            Target("8 ranks: shmpi at least 3x faster than the faster peer", _target_8_vs_peers),
            Target("8 ranks: shmpi within 1.3x of the context-switch floor", _within_reference(8, 1.3)),
        ],
        notes=["per-barrier latency on rank 0; min and median over 5 timed loops per launch"],
    ),
] + (REDUCE_LOCAL_BENCHES + RMA_LATENCY_BENCHES + ACC_BW_BENCHES + RMA_OTHER_BENCHES + COLL_BENCHES + P2P_BENCHES
     + NBC_BENCHES)

# ----------------------------------------------------------------------------------------
# Libraries: how to compile and launch.
# ----------------------------------------------------------------------------------------


def ncpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Library:
    def __init__(self, name: str, cc: str, runner: str):
        self.name, self.cc, self.runner = name, cc, runner

    def available(self) -> bool:
        return _which(self.cc) is not None and _which(self.runner) is not None

    def launch(self, ranks: int, prog: Path, args: list[str], timeout_s: float,
               launcher_args: Optional[list[str]] = None) -> tuple[list[str], dict]:
        env = dict(os.environ)
        extra = list(launcher_args or [])
        if self.name == "shmpi":
            return [self.runner, "-n", str(ranks), "--timeout", str(int(math.ceil(timeout_s))), *extra, str(prog),
                    *args], env
        if self.name == "openmpi":
            if os.geteuid() == 0:
                env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
            over = ["--oversubscribe"] if ranks > ncpus() else []
            return [self.runner, *over, *extra, "-n", str(ranks), str(prog), *args], env
        if self.name == "mpich":
            return [self.runner, *extra, "-n", str(ranks), str(prog), *args], env
        raise ValueError(self.name)


def _which(p: str) -> Optional[str]:
    if os.sep in p:
        return p if os.access(p, os.X_OK) else None
    return shutil.which(p)


def make_libraries(shmpi_build: Path) -> dict[str, Library]:
    return {
        "shmpi": Library("shmpi", str(shmpi_build / "tools" / "shmpicc"), str(shmpi_build / "tools" / "shmpirun")),
        "openmpi": Library("openmpi", "mpicc.openmpi", "mpirun.openmpi"),
        "mpich": Library("mpich", "mpicc.mpich", "mpirun.mpich"),
    }


def library_version(lib: Library, shmpi_build: Path) -> str:
    if lib.name == "shmpi":
        try:
            info = json.loads((shmpi_build / "meson-info" / "intro-projectinfo.json").read_text())
            ver = f"shmpi {info.get('version', '?')}"
        except (OSError, ValueError):
            ver = "shmpi (version unknown)"
        try:  # read-only
            rev = subprocess.run(["git", "-C", str(BENCH_DIR), "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True, timeout=10).stdout.strip()
            dirty = subprocess.run(["git", "-C", str(BENCH_DIR), "status", "--porcelain", "--untracked-files=no"],
                                   capture_output=True, text=True, timeout=10).stdout.strip()
            if rev:
                ver += f" (git {rev}{'+local changes' if dirty else ''})"
        except (OSError, subprocess.TimeoutExpired):
            pass
        return ver
    try:
        out = subprocess.run([lib.runner, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    lines = [" ".join(l.split()) for l in out.splitlines() if l.strip()]
    if lib.name == "mpich":
        lines = ["MPICH (hydra) " + l.split(":", 1)[1].strip() for l in lines if l.lower().startswith("version:")] or lines
    return lines[0] if lines else "unknown"


# Plausibility (see check_plausibility): a sentinel below TRANSIENT_FRACTION x the run's
# usual hardware floor means the machine itself was faster than usual around that launch
# (on a VM: e.g. both vCPUs briefly on one physical core's SMT siblings); a launch below
# IMPLAUSIBLE_FRACTION x the floor measured right next to it cannot have synchronized.
TRANSIENT_FRACTION = 0.6
IMPLAUSIBLE_FRACTION = 0.5

CFLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra"]


def compile_one(cc: str, src: Path, out: Path) -> tuple[bool, str]:
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [cc, *CFLAGS, "-o", str(out), str(src)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"{' '.join(cmd)}: {e}"
    msg = (p.stdout + p.stderr).strip()
    if p.returncode != 0:
        return False, f"{' '.join(cmd)} failed:\n{msg}"
    if msg:
        print(f"warning: {' '.join(cmd)} printed:\n{msg}", file=sys.stderr)
    return True, ""


def build_failure_reason(msg: str) -> str:
    """One line on why a build failed: the undefined symbols if it was the link (e.g. shmpi
    without its RMA calls yet), else the first error line."""
    undefined = sorted(set(re.findall(r"undefined reference to [`'\"]?(\w+)", msg)))
    if undefined:
        shown = ", ".join(undefined[:6]) + (f" and {len(undefined) - 6} more" if len(undefined) > 6 else "")
        return f"link failed, undefined: {shown}"
    errors = [l.strip() for l in msg.splitlines() if "error" in l.lower()]
    return (errors or [l.strip() for l in msg.splitlines() if l.strip()] or ["unknown error"])[0][:200]


# ----------------------------------------------------------------------------------------
# Running and parsing.
# ----------------------------------------------------------------------------------------

RESULT_RE = re.compile(r"^RESULT\s+(.*)$", re.M)


def parse_result(stdout: str, bench: str) -> Optional[dict]:
    for m in RESULT_RE.finditer(stdout):
        kv = dict(tok.split("=", 1) for tok in m.group(1).split() if "=" in tok)
        if kv.get("bench") != bench:
            continue
        try:
            res = {"ranks": int(kv["ranks"]), "min_us": float(kv["min_us"]),
                   "median_us": float(kv["median_us"]), "iters": int(kv["iters"])}
        except (KeyError, ValueError):
            return None
        for k, v in kv.items():  # further numeric fields (a Bench's `extras` keeps those it names)
            if k not in res and k != "bench":
                try:
                    res[k] = float(v)
                except ValueError:
                    pass
        return res
    return None


def parse_results(stdout: str, tags: list[str]) -> dict[str, dict]:
    """The RESULT lines for tags (a launch that died half-way printed only some)."""
    return {t: r for t in tags for r in [parse_result(stdout, t)] if r is not None}


def run_bounded(cmd: list[str], env: dict, timeout_s: float) -> tuple[str, int, str, str, float]:
    """Runs cmd in its own session; on timeout kills that process group.
    Returns (status, returncode, stdout, stderr, wall seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    except OSError as e:
        return "error", -1, "", str(e), 0.0
    try:
        out, err = p.communicate(timeout=timeout_s)
        status = "ok" if p.returncode == 0 else "failed"
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                p.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        try:
            out, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            out, err = "", ""
        status = "timeout"
    return status, p.returncode if p.returncode is not None else -1, out or "", err or "", time.monotonic() - t0


def is_reference_run(r: dict, ref: Optional[Reference] = None) -> bool:
    """Whether launch record r is a run of a reference (of `ref`, if given)."""
    return r["lib"] == "reference" and (ref is None or r.get("reference") == ref.name)


def run_label(b: Bench, r: dict) -> str:
    """Who made launch record r, for messages: the library or the reference's label."""
    if r["lib"] == "reference":
        return next((ref.label for ref in b.references if ref.name == r.get("reference")), "reference")
    return LIB_LABEL.get(r["lib"], r["lib"])


def check_plausibility(b: Bench, runs: list[dict]) -> list[dict]:
    """Marks launches at a sentinel reference's rank count whose numbers are not comparable.

    Only references with `sentinels` (the bare flag barrier): nothing that synchronizes
    those ranks beats it. Each launch at its rank count has a sentinel floor measured just
    before and just after it. The usual floor is the median of every measurement of it:
    its once-per-round runs and all the sentinels (a VM that switches between a fast and
    a slow state within seconds left the once-per-round runs mostly slow in some runs, and
    their median then called every fast-state launch a transient):
      - a sentinel well below the usual floor: the machine itself was unusually fast
        around this launch -> status "machine transient" (not used; not a failure);
      - otherwise a launch well below the floor next to it cannot have synchronized ->
        status "implausible" (not used; for shmpi a failure: a barrier that does not wait).
    Returns the launches it marked."""
    marked = []
    for ref in b.references:
        if ref.sentinels:
            marked += _check_plausibility_at(ref, runs)
    return marked


def _check_plausibility_at(ref: Reference, runs: list[dict]) -> list[dict]:
    usual = [r["median_us"] for r in runs if is_reference_run(r, ref) and r["status"] == "ok"]
    if not usual:
        return []
    usual += [f for r in runs if not is_reference_run(r) and r["ranks"] == ref.ranks
              for f in r.get("floor_us", []) if f is not None]
    usual_floor = statistics.median(usual)
    marked = []
    for r in runs:
        if is_reference_run(r, ref) and r["status"] == "ok" and r["median_us"] < TRANSIENT_FRACTION * usual_floor:
            r["status"] = "machine transient"
            r["stderr_tail"] = f"{r['median_us']:.4g} us, usually {usual_floor:.4g} us"
            marked.append(r)
            continue
        if is_reference_run(r) or r["ranks"] != ref.ranks or r["status"] != "ok":
            continue
        floors = [f for f in r.get("floor_us", []) if f is not None]
        if floors and min(floors) < TRANSIENT_FRACTION * usual_floor:
            r["status"] = "machine transient"
            r["stderr_tail"] = (f"the {ref.label} measured {min(floors):.4g} us next to this launch, "
                                f"usually {usual_floor:.4g} us (min {r['min_us']:.4g} us)")
        elif r["min_us"] < IMPLAUSIBLE_FRACTION * min(floors + [usual_floor]):
            r["status"] = "implausible"
            r["stderr_tail"] = (f"min {r['min_us']:.4g} us is below {IMPLAUSIBLE_FRACTION} x the {ref.label} "
                                f"measured next to it ({min(floors + [usual_floor]):.4g} us): cannot have synchronized")
        else:
            continue
        marked.append(r)
    return marked


def tail(text: str, n: int = 8) -> str:
    return "\n".join(text.strip().splitlines()[-n:])


# ----------------------------------------------------------------------------------------
# Aggregation.
# ----------------------------------------------------------------------------------------


# Launch statuses whose numbers are not used even if the program printed them.
NOT_USED = ("implausible", "machine transient")


class Summary:
    """Per benchmark and case (variant): min = min over rounds of each launch's min; median
    = median over rounds of each launch's median. A launch counts for a case if it printed
    that case's RESULT line (a launch that failed half-way still counts for the cases it
    finished) and the plausibility check did not reject it."""

    def __init__(self, bench: Bench, libs: list[str], ranks: list[int], runs: list[dict]):
        self.bench, self.libs, self.ranks, self.runs = bench, libs, ranks, runs

    @staticmethod
    def _agg(rs: list[dict], tag: str) -> Optional[dict]:
        used = [r["results"][tag] for r in rs if r["status"] not in NOT_USED and tag in r.get("results", {})]
        if not used:
            return None
        agg = {"min_us": min(u["min_us"] for u in used), "median_us": statistics.median(u["median_us"] for u in used),
               "iters": min(u["iters"] for u in used), "launches_ok": len(used), "launches": len(rs)}
        # Further fields a Bench keeps (its `extras`): the median over the launches that printed them.
        for k in sorted({k for u in used for k in u} - {"min_us", "median_us", "iters"}):
            agg[k] = statistics.median(u[k] for u in used if k in u)
        return agg

    def cell(self, lib: str, ranks: int, tag: Optional[str] = None) -> Optional[dict]:
        return self._agg(self.attempted(lib, ranks), tag or self.bench.variants[0].tag)

    def attempted(self, lib: str, ranks: int) -> list[dict]:
        return [r for r in self.runs if r["lib"] == lib and r["ranks"] == ranks]

    def reference_attempted(self, ranks: int) -> list[dict]:
        ref = self.bench.reference_for(ranks)
        return [r for r in self.runs if is_reference_run(r, ref)] if ref else []

    def reference(self, ranks: int) -> Optional[dict]:
        """The aggregate of the reference for that rank count (None: none, or no good run)."""
        ref = self.bench.reference_for(ranks)
        return self._agg(self.reference_attempted(ranks), ref.name) if ref else None

    def reference_median(self, ranks: int) -> Optional[float]:
        ref = self.reference(ranks)
        return ref["median_us"] if ref else None

    def rows(self) -> list[dict]:
        out = []
        for v in self.bench.variants:
            for n in self.ranks:
                if v.at(n):
                    out.append(self._row(v, n))
        return out

    def _row(self, v: Variant, n: int) -> dict:
        """One table row: case v at n ranks."""
        row: dict = {"variant": v.tag, "label": v.label, "ranks": n, "libs": {}, "ratios": {}}
        if v.nbytes:
            row["bytes"] = v.nbytes
        for lib in self.libs:
            row["libs"][lib] = self.cell(lib, n, v.tag)
        sh = row["libs"].get("shmpi")
        for lib in self.libs:
            if lib != "shmpi":
                c = row["libs"][lib]
                row["ratios"][f"{lib}/shmpi"] = (c["median_us"] / sh["median_us"]) if (c and sh) else None
        if v.versus:  # this case's median / the compared case's, per library (same launches)
            row["versus"] = v.versus
            row["versus_ratios"] = {}
            for lib in self.libs:
                row["versus_ratios"][lib] = versus_ratio(row["libs"][lib], self.cell(lib, n, v.versus))
        if ref_spec := self.bench.reference_for(n):
            ref = self.reference(n)
            row["reference_name"] = ref_spec.name
            row["reference"] = ref
            row["ratios"]["shmpi/" + ref_spec.name] = sh["median_us"] / ref["median_us"] if (sh and ref) else None
        return row


# ----------------------------------------------------------------------------------------
# Output: table, JSON, SVG.
# ----------------------------------------------------------------------------------------


def fmt_us(v: Optional[float]) -> str:
    if v is None:
        return "-"
    return f"{v:.3g}" if v < 1000 else f"{v:.0f}"


def status_text(attempted: list[dict]) -> str:
    """Why a configuration has no result: its launches' statuses, or n/a if none was made."""
    return "/".join(sorted({r["status"] for r in attempted})) if attempted else "n/a"


def fmt_cell(c: Optional[dict], attempted: list[dict], mark: bool) -> str:
    if c is None:
        return status_text(attempted)
    s = f"{fmt_us(c['min_us'])} / {fmt_us(c['median_us'])}"
    if c["launches_ok"] < c["launches"]:
        s += f" ({c['launches_ok']}/{c['launches']} used)"
    return s + ("*" if mark else "")


def render_table(s: Summary) -> str:
    b = s.bench
    # One reference column set for all rows: each rank count shows its own reference.
    has_ref = any(b.reference_for(n) for n in s.ranks)
    multi = len(b.variants) > 1
    head = ["case" if multi else "metric", "ranks"] + [f"{LIB_LABEL[l]} min/med" for l in s.libs]
    if has_ref:
        head += ["reference", "ref min/med"]
    peers = [l for l in s.libs if l != "shmpi"]
    if "shmpi" in s.libs:
        head += [f"{LIB_LABEL[p]}/shmpi" for p in peers]
        if has_ref:
            head.append("shmpi/ref")
    libs_slash = "/".join(LIB_LABEL[l] for l in s.libs)
    has_versus = any(v.versus for v in b.variants)
    if has_versus:  # each library's ratio of a case to the case it is compared with
        head.append(f"{b.versus_label} {libs_slash}")
    for e in b.extras:  # further RESULT fields, the libraries side by side
        head.append(f"{e.label} {libs_slash}")
    if multi:  # the loop length can differ per case: a column instead of a note
        head.append("iters " + libs_slash)
    body = []
    iter_notes = []
    bandwidth = []
    for row in s.rows():
        n = row["ranks"]
        base_iters = (row["libs"].get("shmpi") or {}).get("iters")
        line = [row["label"], str(n)]
        iters_here = {}
        for lib in s.libs:
            c = row["libs"][lib]
            if c:
                iters_here[lib] = c["iters"]
            mark = bool(c and base_iters and c["iters"] != base_iters)
            line.append(fmt_cell(c, s.attempted(lib, n), mark))
        ref_spec = b.reference_for(n)
        if has_ref:
            line += ([ref_spec.label, fmt_cell(row["reference"], s.reference_attempted(n), False)]
                     if ref_spec else ["-", "-"])
        if "shmpi" in s.libs:
            for p in peers:
                r = row["ratios"].get(f"{p}/shmpi")
                line.append(f"{r:.2f}x" if r is not None else "-")
            if has_ref:
                r = row["ratios"].get(f"shmpi/{ref_spec.name}") if ref_spec else None
                line.append(f"{r:.2f}x" if r is not None else "-")
        if has_versus:
            vr = row.get("versus_ratios", {})
            line.append("/".join(f"{vr[l]:.2f}" if vr.get(l) is not None else "-" for l in s.libs)
                        if vr else "")
        for e in b.extras:
            vals = [(row["libs"][l] or {}).get(e.key) for l in s.libs]
            line.append("/".join(e.fmt.format(x) if x is not None else "-" for x in vals)
                        if any(x is not None for x in vals) else "")
        if multi:
            line.append("/".join(str(row["libs"][l]["iters"]) if row["libs"][l] else "-" for l in s.libs))
        body.append(line)
        if row.get("bytes"):
            bandwidth.append(f"  {row['label']} (n={n}): " + ", ".join(
                f"{LIB_LABEL[l]} {row['bytes'] / row['libs'][l]['median_us']:.0f}" for l in s.libs if row["libs"][l]))
        if multi:
            continue
        if iters_here:
            iter_notes.append(f"{n} ranks: " + ", ".join(f"{LIB_LABEL[l]} {i}" for l, i in iters_here.items()))
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) if i < 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    lines = [fmt(head), "  ".join("-" * w for w in widths)] + [fmt(r) for r in body]
    lines.append("")
    lines.append("values in microseconds: min = best launch's best loop, med = median over rounds of each "
                 "launch's median loop; lower is better")
    lines.append("ratios: peer median / shmpi median (>1: shmpi faster)"
                 + ("; shmpi/ref: shmpi median / that rank count's bare-hardware reference median (1.0 is the floor)"
                    if has_ref else ""))
    if iter_notes:
        lines.append("iterations per timed loop: " + "; ".join(iter_notes))
    if multi:
        lines.append("iters: the smallest timed-loop length of any used launch, per library")
    if bandwidth:
        lines.append("MB/s (bytes per call / median time):")
        lines += bandwidth
    for r in s.runs:
        if r["status"] != "ok":
            who = run_label(b, r)
            why = (r.get("stderr_tail") or "").splitlines()
            used = "not used" if r["status"] in NOT_USED or not r.get("results") else \
                f"used for the {len(r['results'])} cases it printed"
            lines.append(f"{used}: round {r['round']} {who} n={r['ranks']}: {r['status']}"
                         + (f" ({why[-1].strip()})" if why else ""))
    if any("*" in c for r in body for c in r):
        lines.append(f"* fewer iterations than shmpi at that rank count ({b.iters_note})")
    for note in b.notes:
        lines.append(note)
    return "\n".join(lines)


def render_targets(s: Summary) -> list[dict]:
    out = []
    for t in s.bench.targets:
        met, detail = t.check(s)
        out.append({"target": t.description, "met": met, "detail": detail})
    return out


def write_svg(s: Summary, path: Path, title_extra: str) -> None:
    b = s.bench
    groups = []  # (label, [(bar label, color, median, min, status text)])
    for row in s.rows():
        n = row["ranks"]
        bars = []
        for lib in s.libs:
            c = row["libs"][lib]
            status = "" if c else status_text(s.attempted(lib, n))
            bars.append((LIB_LABEL[lib] + (f" ({c['iters']} iters)" if c and lib == "mpich" and n > ncpus() else ""),
                         LIB_COLOR[lib], c and c["median_us"], c and c["min_us"], status))
        if ref_spec := b.reference_for(n):
            ref = row["reference"]
            status = "" if ref else status_text(s.reference_attempted(n))
            bars.append((ref_spec.label, REF_COLOR, ref and ref["median_us"], ref and ref["min_us"], status))
        over = f", {ncpus()} cpus" if n > ncpus() else ""
        if len(b.variants) > 1:
            groups.append((row["label"] + (f", {n} ranks{over}" if len(s.ranks) > 1 else ""), bars))
        else:
            groups.append((f"{n} ranks{over}", bars))

    values = [v for _, bars in groups for bar in bars for v in (bar[2], bar[3]) if v]
    if not values:
        values = [1.0]
    lo = 10 ** math.floor(math.log10(min(values)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    if hi <= lo:
        hi = lo * 10
    if max(values) / hi > 0.6:  # headroom for the value labels
        hi *= 10

    # Many cases (multi-variant benchmarks): narrow bars, a colour legend instead of a label
    # under every bar.
    compact = len(b.variants) > 1
    bar_w, bar_gap, group_gap = (34, 4, 26) if compact else (64, 14, 56)
    left, right, top, plot_h, bottom = 80, 24, (84 if compact else 64), 380, 88
    group_ws = [len(bars) * bar_w + (len(bars) - 1) * bar_gap for _, bars in groups]
    width = left + right + sum(group_ws) + group_gap * (len(groups) + 1)
    width = max(width, 520)
    height = top + plot_h + bottom
    llo, lhi = math.log10(lo), math.log10(hi)

    def y(v: float) -> float:
        return top + plot_h * (1 - (math.log10(v) - llo) / (lhi - llo))

    o = []
    o.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">')
    o.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    o.append(f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">'
             f'{escape(b.metric)}: median, log scale, lower is better</text>')
    o.append(f'<text x="{width / 2}" y="44" text-anchor="middle" font-size="11" fill="#555">'
             f'{escape(title_extra)}</text>')
    # Grid: decades (labelled) and 2..9 minor lines.
    for d in range(int(round(llo)), int(round(lhi)) + 1):
        v = 10.0 ** d
        yy = y(v)
        o.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - right}" y2="{yy:.1f}" stroke="#bbb"/>')
        o.append(f'<text x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end" font-size="11">{v:g}</text>')
        if d < int(round(lhi)):
            for k in range(2, 10):
                ym = y(k * v)
                o.append(f'<line x1="{left}" y1="{ym:.1f}" x2="{width - right}" y2="{ym:.1f}" stroke="#eee"/>')
    o.append(f'<text x="18" y="{top + plot_h / 2}" font-size="12" text-anchor="middle" '
             f'transform="rotate(-90 18 {top + plot_h / 2})">microseconds</text>')
    if compact:
        names = [LIB_LABEL[l] for l in s.libs]
        for i, (name, lib) in enumerate(zip(names, s.libs)):
            lx = left + i * 130
            o.append(f'<rect x="{lx}" y="56" width="14" height="14" fill="{LIB_COLOR[lib]}"/>')
            o.append(f'<text x="{lx + 20}" y="68" font-size="12">{escape(name)}</text>')
    o.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>')
    o.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="black"/>')

    x = left + group_gap
    base = top + plot_h
    for (glabel, bars), gw in zip(groups, group_ws):
        for i, (label, color, med, mn, status) in enumerate(bars):
            bx = x + i * (bar_w + bar_gap)
            cx = bx + bar_w / 2
            if med:
                yt = y(med)
                o.append(f'<rect x="{bx}" y="{yt:.1f}" width="{bar_w}" height="{base - yt:.1f}" fill="{color}">'
                         f'<title>{escape(label)}: median {med:.4g} us, min {mn:.4g} us</title></rect>')
                if mn:
                    ym = y(mn)
                    o.append(f'<line x1="{bx + 6}" y1="{ym:.1f}" x2="{bx + bar_w - 6}" y2="{ym:.1f}" '
                             f'stroke="black" stroke-width="2"/>')
                o.append(f'<text x="{cx}" y="{yt - 6:.1f}" text-anchor="middle" font-size="{9 if compact else 11}">'
                         f'{fmt_us(med)}</text>')
            elif compact:
                o.append(f'<text x="{cx + 4}" y="{base - 8}" font-size="10" fill="#b00" '
                         f'transform="rotate(-90 {cx + 4} {base - 8})">{escape(status)}</text>')
            else:
                o.append(f'<text x="{cx}" y="{base - 8}" text-anchor="middle" font-size="11" fill="#b00">'
                         f'{escape(status)}</text>')
            if not compact:
                o.append(f'<text x="{cx}" y="{base + 16}" text-anchor="middle" font-size="10">{escape(label)}</text>')
        o.append(f'<text x="{x + gw / 2}" y="{base + (20 if compact else 38)}" text-anchor="middle" '
                 f'font-size="{11 if compact else 13}" font-weight="bold">{escape(glabel)}</text>')
        x += gw + group_gap
    o.append(f'<text x="{left}" y="{height - 14}" font-size="10" fill="#555">bar: median over rounds of each '
             f'launch\'s median; black tick: best loop (min). Values in microseconds.</text>')
    o.append("</svg>")
    path.write_text("\n".join(o) + "\n")


# ----------------------------------------------------------------------------------------
# Main.
# ----------------------------------------------------------------------------------------


def install_peers() -> None:
    cmd = ["apt-get", "install", "-y", "openmpi-bin", "libopenmpi-dev", "mpich", "libmpich-dev"]
    if os.geteuid() != 0 and shutil.which("sudo"):
        cmd = ["sudo", *cmd]
    print("+ " + " ".join(cmd), flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(cmd, env=env).returncode != 0:
        print("warning: installing the peers failed; missing peers are skipped", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shmpi-build", type=Path, default=BENCH_DIR.parent / "build",
                    help="shmpi Meson build directory (default: ../build relative to bench/)")
    ap.add_argument("--ranks", default="2,8", help="comma-separated rank counts (default 2,8)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of interleaved launches (default 3)")
    ap.add_argument("--libs", default=",".join(LIBS), help="libraries to run (default shmpi,openmpi,mpich)")
    ap.add_argument("--bench", default="barrier,reduce_local",
                    help="benchmarks (or groups) to run: " + ", ".join(
                        sorted({g for b in BENCHMARKS for g in (b.group_names() or [b.name])})))
    ap.add_argument("--scale", type=float, default=1.0, help="multiply iteration counts (e.g. 0.1 for a smoke run)")
    ap.add_argument("--install-peers", action="store_true",
                    help="apt-get install Open MPI and MPICH if missing (otherwise missing peers are skipped)")
    ap.add_argument("--out", type=Path, default=BENCH_DIR / "results", help="output directory (default bench/results)")
    a = ap.parse_args()

    try:
        ranks = [int(x) for x in a.ranks.split(",") if x.strip()]
    except ValueError:
        ap.error("--ranks: comma-separated integers")
    if not ranks or min(ranks) < 1 or a.rounds < 1 or a.scale <= 0:
        ap.error("--ranks must be >= 1, --rounds >= 1, --scale > 0")
    want_libs = [l.strip() for l in a.libs.split(",") if l.strip()]
    if bad := [l for l in want_libs if l not in LIBS]:
        ap.error(f"unknown libraries {bad}; known: {LIBS}")
    names = [n.strip() for n in a.bench.split(",") if n.strip()]
    benches = [b for b in BENCHMARKS if b.selected_by(names)]
    known = {b.name for b in BENCHMARKS} | {g for b in BENCHMARKS for g in b.group_names()}
    if any(n not in known for n in names):
        ap.error(f"unknown benchmark in {names}; known: {sorted(known)}")

    libs_all = make_libraries(a.shmpi_build.resolve())
    if a.install_peers and any(not libs_all[l].available() for l in want_libs if l != "shmpi"):
        install_peers()

    shmpi_failed = False
    libs: list[str] = []
    skipped: dict[str, str] = {}
    for l in want_libs:
        if libs_all[l].available():
            libs.append(l)
        elif l == "shmpi":
            print(f"error: shmpi build not found ({libs_all[l].cc}, {libs_all[l].runner}); "
                  f"build it or pass --shmpi-build", file=sys.stderr)
            skipped[l] = "not built"
            shmpi_failed = True
        else:
            print(f"note: {LIB_LABEL[l]} not installed ({libs_all[l].cc}/{libs_all[l].runner}): skipped "
                  f"(--install-peers installs it)", file=sys.stderr)
            skipped[l] = "not installed"

    binlib = a.out / "bin"
    bins: dict[tuple[str, str], Path] = {}  # (bench, library) -> executable
    ref_bins: dict[tuple[str, str], Path] = {}  # (bench, reference name) -> executable
    built: dict[Path, Optional[str]] = {}  # executable -> None if it built, else why not (one line)
    not_built: dict[tuple[str, str], str] = {}  # (bench, library) -> why it is skipped
    for b in benches:
        for l in list(libs):
            exe = binlib / f"{Path(b.source).stem}.{l}"
            if exe not in built:  # several benches share one program: build it once
                ok, msg = compile_one(libs_all[l].cc, BENCH_DIR / b.source, exe)
                built[exe] = None if ok else build_failure_reason(msg)
                if not ok:
                    # A library that cannot build a benchmark (e.g. shmpi before its RMA calls
                    # exist) is skipped for the benchmarks using that program; the run goes on.
                    log = exe.with_name(exe.name + ".build.log")
                    log.write_text(msg + "\n")
                    print(f"{'error' if l == 'shmpi' else 'note'}: {b.source} does not build against "
                          f"{LIB_LABEL[l]} ({built[exe]}); {LIB_LABEL[l]} is skipped for the benchmarks using it "
                          f"(full output: {log})", file=sys.stderr)
                    if l == "shmpi":
                        shmpi_failed = True
            if built[exe] is None:
                bins[(b.name, l)] = exe
            else:
                not_built[(b.name, l)] = f"{b.source} did not build ({built[exe]})"
        for ref in b.references:
            exe = binlib / Path(ref.source).stem
            ok, msg = compile_one(os.environ.get("CC", "cc"), BENCH_DIR / ref.source, exe)
            if ok:
                ref_bins[(b.name, ref.name)] = exe
            else:
                print(f"error: building {ref.source}:\n{msg}", file=sys.stderr)

    cpus = ncpus()
    versions = {l: library_version(libs_all[l], a.shmpi_build.resolve()) for l in libs}
    print(f"host: {platform.node()}, {cpus} cpus ({_cpu_model()}); rounds {a.rounds}; ranks {ranks}")
    for l in libs:
        print(f"  {LIB_LABEL[l]}: {versions[l]}")

    t_start = time.monotonic()
    all_runs: dict[str, list[dict]] = {b.name: [] for b in benches}
    hung: set[tuple[str, str, int]] = set()  # a configuration that timed out is not retried

    def scaled(r: Run) -> Run:
        return Run(max(1, int(r.iters * a.scale)), int(r.warmup * a.scale), r.reps, r.timeout_s, r.extra,
                   r.launcher_args)

    def run_sentinel(b: Bench, ref: Reference) -> Optional[float]:
        exe = ref_bins.get((b.name, ref.name))
        if exe is None:
            return None
        st, _, out, _, _ = run_bounded([str(exe), *ref.argv(ref.sentinel)], dict(os.environ), ref.sentinel.timeout_s)
        res = parse_result(out, ref.name) if st == "ok" else None
        return res["median_us"] if res else None

    def launch(b: Bench, lib: str, n: int, rnd: int, ref: Optional[Reference] = None) -> None:
        """One launch of library `lib` at n ranks, or (lib "reference") of the reference `ref`."""
        exe = ref_bins.get((b.name, ref.name)) if ref else bins.get((b.name, lib))
        if exe is None:
            if not ref and (b.name, lib) in not_built and rnd == 1:  # shown in the table, once
                all_runs[b.name].append({"round": rnd, "lib": lib, "ranks": n, "status": "did not build",
                                         "stderr_tail": not_built[(b.name, lib)]})
            return
        if ref:
            r = scaled(ref.run)
            cmd, env, tags, label = [str(exe), *ref.argv(r)], dict(os.environ), [ref.name], ref.label
        else:
            r = scaled(b.run(lib, n, cpus))
            cmd, env = libs_all[lib].launch(n, exe, r.argv(), r.timeout_s, r.launcher_args)
            tags, label = [v.tag for v in b.variants if v.at(n)], LIB_LABEL[lib]
        rec: dict = {"round": rnd, "lib": lib, **({"reference": ref.name} if ref else {}), "ranks": n}
        config = (b.name, ref.name if ref else lib, n)
        if config in hung:
            rec.update(status="skipped (timed out before)", iters=r.iters, warmup=r.warmup, reps=r.reps, cmd=cmd)
            all_runs[b.name].append(rec)
            return
        # A library launch at a sentinel reference's rank count gets that reference right before and after.
        guard = None if ref else b.reference_for(n)
        guard = guard if guard and guard.sentinels else None
        floors = [run_sentinel(b, guard)] if guard else []
        # Our own limit: the runner's --timeout (shmpi) plus a grace period for start-up/teardown.
        status, rc, out, err, wall = run_bounded(cmd, env, r.timeout_s + 30)
        if guard:
            floors.append(run_sentinel(b, guard))
        # Every case's RESULT line that was printed, also by a launch that failed later on.
        parsed = parse_results(out, tags)
        results = {t: {k: res[k] for k in ("min_us", "median_us", "iters", *(e.key for e in b.extras)) if k in res}
                   for t, res in parsed.items() if res["ranks"] == n}
        if status == "ok" and len(results) < len(tags):
            if parsed and not results:
                status = f"ranks mismatch ({next(iter(parsed.values()))['ranks']})"
            elif not results:
                status = "no RESULT line"
            else:
                status = f"incomplete ({len(results)} of {len(tags)} cases)"
        rec.update(status=status, returncode=rc, iters=r.iters, warmup=r.warmup, reps=r.reps, wall_s=round(wall, 3),
                   cmd=cmd, results=results)
        if guard:
            rec["floor_us"] = floors  # the reference's median just before and just after
        if status == "ok" and len(tags) == 1:
            rec.update(min_us=results[tags[0]]["min_us"], median_us=results[tags[0]]["median_us"])
        if status != "ok":
            rec["stderr_tail"] = tail(err) or tail(out)
            if status == "timeout":
                hung.add(config)
        all_runs[b.name].append(rec)
        head = f"[round {rnd}/{a.rounds}] {b.name:8} {label:12} n={n:<3}"
        if rec["status"] == "ok" and len(tags) == 1:
            print(f"{head} min {fmt_us(rec['min_us']):>7} us  "
                  f"median {fmt_us(rec['median_us']):>7} us  ({results[tags[0]]['iters']} iters, {wall:.1f} s)"
                  + (f"  [{guard.label} before/after: " + "/".join(fmt_us(f) for f in floors) + " us]"
                     if guard else ""), flush=True)
            return
        if rec["status"] == "ok":
            print(f"{head} ok, {len(results)} cases ({wall:.1f} s)", flush=True)
        else:
            print(f"{head} {rec['status'].upper()} (exit {rc}, {wall:.1f} s"
                  + (f"; {len(results)} of {len(tags)} cases measured" if len(tags) > 1 else "")
                  + ")\n    " + rec["stderr_tail"].replace("\n", "\n    "), flush=True)
        if len(tags) > 1 and results:  # the medians, compactly
            items = [f"{v.label} {fmt_us(results[v.tag]['median_us'])}" for v in b.variants
                     if v.tag in results and v.at(n)]
            line = "   "
            for it in items:
                if len(line) + len(it) + 3 > 118:
                    print(line, flush=True)
                    line = "   "
                line += " | " + it if line.strip() else " " + it
            print(line, flush=True)

    for rnd in range(1, a.rounds + 1):
        # Rotate the library order each round so no library always follows the same one.
        order = libs[(rnd - 1) % len(libs):] + libs[:(rnd - 1) % len(libs)] if libs else []
        for b in benches:
            for n in b.ranks or ranks:
                for lib in order:
                    launch(b, lib, n, rnd)
            for ref in b.references:
                if ref.ranks in ranks:  # a reference for a rank count not run would be shown nowhere
                    launch(b, "reference", ref.ranks, rnd, ref)

    for b in benches:
        for r in check_plausibility(b, all_runs[b.name]):
            who = run_label(b, r)
            print(f"WARNING: round {r['round']} {who} n={r['ranks']}: {r['status']}: {r['stderr_tail']}; not used",
                  flush=True)

    a.out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    for b in benches:
        runs = all_runs[b.name]
        s = Summary(b, libs, b.ranks or ranks, runs)
        print()
        print(f"== {b.name}: {b.metric}, {a.rounds} rounds, {cpus} cpus ==")
        print(render_table(s))
        targets = render_targets(s)
        if targets:
            print("targets:")
            for t in targets:
                verdict = {True: "MET", False: "MISSED", None: "n/a"}[t["met"]]
                print(f"  [{verdict:6}] {t['target']}: {t['detail']}")
        for l, why in skipped.items():
            print(f"  {LIB_LABEL[l]} skipped: {why}")
        for l in libs:
            if (b.name, l) in not_built:
                print(f"  {LIB_LABEL[l]} skipped: {not_built[(b.name, l)]}")
        if "shmpi" in want_libs:
            sh_runs = [r for r in runs if r["lib"] == "shmpi"]
            if not sh_runs or any(r["status"] not in ("ok", "machine transient") for r in sh_runs):
                shmpi_failed = True
        doc = {
            "bench": b.name, "metric": b.metric, "generated": stamp,
            "host": {"node": platform.node(), "cpus": cpus, "cpu_model": _cpu_model(), "kernel": platform.release()},
            "config": {"rounds": a.rounds, "ranks": ranks, "libs": libs, "skipped": skipped, "scale": a.scale,
                       "cflags": CFLAGS, "versions": versions},
            "summary": s.rows(),
            "references": [{"name": ref.name, "label": ref.label, "source": ref.source, "ranks": ref.ranks,
                            "sentinels": ref.sentinels, "summary": s.reference(ref.ranks)} for ref in b.references],
            "targets": targets, "runs": runs,
        }
        jpath, spath = a.out / f"{b.name}.json", a.out / f"{b.name}.svg"
        jpath.write_text(json.dumps(doc, indent=2) + "\n")
        write_svg(s, spath, f"{platform.node()}, {cpus} cpus, {a.rounds} rounds, {stamp}")
        print(f"wrote {jpath} and {spath}")
    print(f"total time {time.monotonic() - t_start:.0f} s")
    if shmpi_failed:
        print("error: shmpi failed to build or run (see above)", file=sys.stderr)
        return 1
    return 0


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


if __name__ == "__main__":
    sys.exit(main())
