// A communicator's collective block: one memfd per communicator, created by its rank 0
// when the communicator is created and mapped by every member (never a file in
// /dev/shm: it vanishes with the last mapping). Offsets only, fixed layout, versioned.
//
//   page 0            CommHeader
//   page 1..          members: world rank and pid of each comm rank
//   then              CallGate[kCallSlots]  (2 cache lines each)
//   then              CommRank[n]  (4 + kCallSlots cache lines each)
//   then              piece tables: per rank kCallSlots x n PieceDesc
//   then              staging: per rank kStageDepth x kStageSlot bytes (page aligned)
//   then              small staging: per rank kCallSlots x kSmallStage bytes (page aligned)
//   then              stream acks: per rank n Flags (its ack of each member's stream)
//   then              shared results: kStageDepth x kSharedResultBytes (page aligned; CallGate)
//   then              stream rings: per rank kStreamRing bytes (page aligned)
//
// Protocol (docs/collectives.md): every collective call on the communicator has a
// sequence number seq (1, 2, ...; the same on every member, since members call
// collectives in the same order). A rank writes its contribution for call seq into
// slot seq % kCallSlots (descriptor, piece table, small staging) and staging slot
// seq % kStageDepth, then stores `posted` = seq (release); a reader acquires `posted`
// >= seq before reading them. When a rank has finished reading others' data of call
// seq it stores `done` = seq. A writer reuses its staging slot (or a shared result)
// only after every member's `done` >= seq - kStageDepth, and a call that writes its
// descriptor, piece table and small staging alone only after every `done` >= seq -
// kCallSlots: a rank that never waits (a bcast root) runs up to kStageDepth staged or
// kCallSlots small calls ahead, and no rank overwrites what a slower one still reads.
// Both words are single-writer generation counters, never reset (wrap-safe
// comparison). `done` may lag by up to kDoneBatch calls in which nobody exposed memory
// (coll/engine.cpp publish_done).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "shm_layout/segment.hpp"

namespace shmpi::layout {

inline constexpr std::uint64_t kCommMagic = 0x4c4c4f43'49504d53ull;  // "SMPICOLL"
inline constexpr std::uint32_t kCommLayoutVersion = 18;

// Calls in flight per rank: how far a rank that never waits may run ahead. Deep enough
// that oversubscribed ranks (8 on 2 cores) switch once per many calls, not per call:
// 8-byte bcast at 8 ranks on 2 cores took 18 us with 2 slots, 6.6 with 8, 1.9 with 32,
// and (a 36 us switch round) 1.40 with 32, 0.86 with 64, 0.53 with 128, 0.35 with 256
// (session 23: gather, scatter, scatterv, reduce 0.66-0.75 -> 0.53-0.58). Descriptors and
// small staging (up to kSmallStage bytes a call) are kCallSlots deep; staging and
// shared results kStageDepth: deeper staging would multiply the pages a rank touches
// for the first time and keeps (32 KiB alltoall at 8 ranks: 56 MiB at 32 slots, 224
// at 128).
inline constexpr std::uint32_t kCallSlots = 256;
inline constexpr std::uint32_t kStageDepth = 32;
static_assert((kCallSlots & (kCallSlots - 1)) == 0, "slot = seq % kCallSlots must survive seq wrap-around");
static_assert((kStageDepth & (kStageDepth - 1)) == 0 && kStageDepth <= kCallSlots);
// A call's staged bytes (64-byte steps per piece) up to this go to its small staging
// slot (kDescSmallStage): 1 KiB holds a 1 KiB bcast, gather block or reduce vector, and
// the seven 128-byte pieces of a scatter at 8 ranks.
inline constexpr std::uint64_t kSmallStage = 1024;

// Staging per rank and slot: contributions up to kStageMax (coll/engine.hpp) are copied
// through the segment; larger ones are streamed (below) or exposed in place and read
// with process_vm_readv (one copy). Pages are touched only when used. 256 KiB holds the
// seven 32 KiB pieces of a scatter or alltoall at 8 ranks: with 128 KiB three of them
// were exposed, and the root waited for its readers every call (8 ranks on 2 cores,
// 32 KiB scatter 22 -> 8.7 us, alltoall 100 -> 83 us).
inline constexpr std::uint64_t kStageSlot = std::uint64_t{256} << 10;

// Streams (coll/stream.hpp): a contribution larger than kStageMax is copied by its
// writer, chunk by chunk, into the writer's ring while its readers copy the chunks out:
// two copies on two cores, pipelined, instead of the reader's one process_vm_readv,
// which costs ~3x a memcpy per byte on the machines measured (1 MiB, 2 pinned
// processes: memcpy 21 us, memcpy of peer-written shared memory 23, process_vm_readv
// 72; docs/collectives.md "Why streams"). Chunks are numbered per writer, for ever
// (32-bit generations, wrap-safe): the writer's `streamed` = chunks written, reader
// r's ack of writer w = the chunks of w it has finished with. Chunk c sits at
// (c % kStreamChunks) * kStreamChunk in the ring. A rank never reads its own stream:
// its ack of itself, ack(r, r), counts the split allreduces whose result block it
// exposed instead of streaming (ring busy) and has finished folding; the call's
// descriptor's bytes2 says which (coll/reduce.cpp share_block).
inline constexpr std::uint64_t kStreamChunk = std::uint64_t{64} << 10;
inline constexpr std::uint32_t kStreamChunks = 32;
inline constexpr std::uint64_t kStreamRing = kStreamChunk * kStreamChunks;
static_assert(kStreamRing % kPage == 0);

// A contribution (or piece of one) that is exposed in the owner's own memory instead of
// staged: the reader copies it with process_vm_readv from the owner's pid.
// `seq` is stored last (release) when the descriptor is complete: a reader polls this
// one line (descriptor, and small data inline) instead of the `posted` flag, which it
// falls back to only to sleep.
struct alignas(kCacheLine) CallDesc {
  std::uint64_t addr;    // exposed bytes in the owner's address space; 0 = staged/inline
  std::uint64_t bytes;   // bytes of the contribution
  std::uint32_t status;  // kDesc* bits
  std::atomic<std::uint32_t> seq;  // the call this descriptor describes
  std::uint64_t addr2;   // a second exposed region (e.g. the owner's receive buffer)
  std::uint64_t bytes2;
  std::int64_t value[3];  // small values of the call (split color and key), or inline data
};
static_assert(sizeof(CallDesc) == kCacheLine);
static_assert(offsetof(CallDesc, seq) == 20 && offsetof(CallDesc, addr2) == 24 && offsetof(CallDesc, value) == 40);

inline constexpr std::uint32_t kDescInvalid = 1;  // this rank's arguments were invalid
inline constexpr std::uint32_t kDescInline = 2;   // the staged bytes are in value[]
// The contribution is already in the reader's buffer: written there with
// process_vm_writev at the address the reader offered in its piece table (gather).
// With kDescStreamed: only its first bytes2 bytes are; the rest is streamed (a split
// block, coll/stream.hpp kSplitMin).
inline constexpr std::uint32_t kDescWritten = 4;
// This rank exposed memory in the call (the descriptor's or any piece's): it waits for
// its readers' `done` of this very call, so a reader that sees the bit publishes `done`
// at once instead of batching it (coll/engine.cpp publish_done).
inline constexpr std::uint32_t kDescExposed = 8;
// Pieces (scatter, alltoall) that are all staged, all `bytes` long, in destination
// order without the writer's own: the reader finds its piece without the piece table,
// at (index * bytes rounded up to 64) in the slot, or, with kDescInline, at
// (index * bytes) in value[]. Index = destination rank, minus one past the writer.
// On a gather root's descriptor: it offers no receive block (its piece table is not
// written for the call).
inline constexpr std::uint32_t kDescUniform = 16;
// The contribution is streamed (kStreamChunk chunks in the writer's ring): its first
// chunk is value[0]. The writer waits for its readers' `done`, as an exposing one does
// (kDescExposed is set too).
inline constexpr std::uint32_t kDescStreamed = 32;
// With kDescStreamed, on an allreduce: the stream is a chain allreduce's accumulator,
// which the other members fold into (libclient/src/coll/chain.hpp).
inline constexpr std::uint32_t kDescChain = 64;
// A large 2-member reduce with a user op (libclient/src/coll/reduce.cpp "helped"):
// on the root's descriptor, kDescHelpOk: its input is at addr and its result image at
// addr2, and the other member may fold a slice of the result into it. On the other
// member's, kDescHelps: its input is exposed, and if the root allows it folds
// elements [bytes2, count) into the root's result, then says in value[1] whether that
// worked (kHelpWritten) before its `done`.
inline constexpr std::uint32_t kDescHelpOk = 128;
inline constexpr std::uint32_t kDescHelps = 256;
inline constexpr std::uint64_t kHelpWritten = 1;
// On a 2-member gather root's descriptor: the sender should write its large block into
// the root's offer (process_vm_writev) rather than stream it; the root chose by measured
// time (libclient/src/coll/path_choice.hpp).
inline constexpr std::uint32_t kDescWantsWrite = 512;
// With kDescStreamed, on a reduction: the stream carries one block per member (piece j
// for member j; a split allreduce's piece `me` is its block of the result), not the
// whole contribution from value[0] (libclient/src/coll/reduce.cpp stream_blocks).
inline constexpr std::uint32_t kDescBlocks = 1024;
// The staged bytes are in the writer's small staging slot seq % kCallSlots, not its
// staging slot seq % kStageDepth (a call reserved with reserve_small).
inline constexpr std::uint32_t kDescSmallStage = 2048;
inline constexpr std::uint64_t kInlineBytes = sizeof(CallDesc::value);

// What a rank is doing, for shmpi-dump (CommRank::waiting_kind).
enum class CollKind : std::uint32_t {
  none = 0, barrier, bcast, scatter, gather, allgather, alltoall, reduce, allreduce,
  reduce_scatter, scan, exscan, comm_create, other
};

// The arrivals of call seq in slot seq % kCallSlots, for the calls where every member
// posts and waits for every other's post (coll/engine.cpp arrive, wait_arrivals; on a
// communicator whose header has kCommGated only). `count`: seq << 32 | members that have posted it, raised by each
// member's post (a compare-and-swap: a word still tagged with an older call starts over
// at 1). The member whose post makes it n, the opener, stores `release` = seq and wakes
// its sleepers, so the other members sleep on one flag and are woken by one FUTEX_WAKE,
// not by each poster in turn. A slot is reused only when every member is done with its
// older call (reserve()), so no arrival of that call is still to come.
// A small allreduce's or reduce_scatter's opener (blocking or not) first folds the
// whole result for all (coll/reduce.cpp publish_shared, take_shared; each member takes
// its block of it), in line 0, which no other member writes once all have arrived:
// `opened` = seq << 32 | its rank as it starts (a waiter on its core yields to it),
// then the result inline when it fits, else in the communicator's shared result area
// of staging slot seq % kStageDepth (`results`: written by whichever member opens a
// call of that slot; reserve() orders it after every member finished the slot's older
// call), then
// result_seq = seq and result_ok = 1 (0: it found an error,
// and every member checks the posts for itself), then `release`. Waiters poll
// `release` (line 1) meanwhile.
struct alignas(kCacheLine) CallGate {
  std::atomic<std::uint64_t> count;
  std::atomic<std::uint64_t> opened;
  std::uint32_t result_seq;
  std::uint32_t result_ok;
  std::byte result[40];
  Flag release;
};
static_assert(sizeof(CallGate) == 2 * kCacheLine && offsetof(CallGate, release) == kCacheLine);
static_assert(offsetof(CallGate, opened) == 8 && offsetof(CallGate, result_seq) == 16 && offsetof(CallGate, result) == 24);
inline constexpr std::uint64_t kGateInlineBytes = sizeof(CallGate::result);
inline constexpr std::uint64_t kSharedResultBytes = std::uint64_t{32} << 10;  // per slot

struct alignas(kCacheLine) CommRank {
  Flag posted;             // line 0: seq of the last call whose contribution is posted
  Flag done;               // line 1: seq of the last call this rank finished reading
  CallDesc desc[kCallSlots];  // lines 2..129: the contribution of call seq, in desc[seq % kCallSlots]
  // line 130: progress (read by shmpi-dump only), the root's path hint, the finish stamp
  std::atomic<std::uint64_t> calls;          // collective calls entered (= last seq)
  std::atomic<std::int32_t> waiting_on;      // comm rank waited for, -1 if none
  std::atomic<std::uint32_t> waiting_kind;   // CollKind of the call in progress
  // Every call up to this one has finished here: `done` as it is, where the flag may
  // still lag (batched, coll/engine.cpp publish_done).
  std::atomic<std::uint32_t> finished;
  // Written by this rank alone (relaxed: a hint, any value is correct): a bit per
  // collective kind and size class (libclient/src/coll/path_choice.hpp
  // path_hint_bit) set asks the members whose path this rank decides (the other member
  // of a 2-member reduce it is the root of; every member of an alltoall of more than
  // two, for comm rank 0) to expose large contributions for single copies rather than
  // stream them. On this line: a member reads it once per call.
  std::atomic<std::uint32_t> copy_classes;
  // Written by this rank alone (relaxed, before the `done` it publishes): when it last
  // finished a call in which it read a member's exposed memory (coll/engine.cpp
  // finish), the call's seq in the top 16 bits (kStampSeqShift) and CLOCK_MONOTONIC ns
  // modulo 2^48 below. A bcast or scatter root whose nonblocking call chose single
  // copies reads it after that `done`, to time its call until its readers had copied
  // (libclient/src/coll/path_choice.hpp).
  std::atomic<std::uint64_t> finish_stamp;
  std::uint8_t pad[kCacheLine - 32];
  Flag streamed;  // line 131: the chunks this rank has written into its ring (for ever)
};
static_assert(sizeof(CommRank) == (4 + kCallSlots) * kCacheLine && alignof(CommRank) == kCacheLine);
static_assert(offsetof(CommRank, done) == kCacheLine && offsetof(CommRank, desc) == 2 * kCacheLine);
static_assert(offsetof(CommRank, calls) == (2 + kCallSlots) * kCacheLine);
static_assert(offsetof(CommRank, finished) == (2 + kCallSlots) * kCacheLine + 16);
static_assert(offsetof(CommRank, copy_classes) == (2 + kCallSlots) * kCacheLine + 20);
static_assert(offsetof(CommRank, finish_stamp) == (2 + kCallSlots) * kCacheLine + 24);
static_assert(offsetof(CommRank, streamed) == (3 + kCallSlots) * kCacheLine);
// CommRank::finish_stamp's format, for its writer and its reader alike.
inline constexpr unsigned kStampSeqShift = 48;
inline constexpr std::uint64_t kStampNsMask = (std::uint64_t{1} << kStampSeqShift) - 1;
constexpr std::uint64_t finish_stamp(std::uint32_t seq, std::uint64_t ns) {
  return std::uint64_t{seq} << kStampSeqShift | (ns & kStampNsMask);
}
// Whether stamp w is of call seq (the low 16 bits of its number).
constexpr bool stamp_is_of(std::uint64_t w, std::uint32_t seq) {
  return w >> kStampSeqShift == (finish_stamp(seq, 0) >> kStampSeqShift);
}
static_assert(stamp_is_of(finish_stamp(0x12345, ~std::uint64_t{0}), 0x12345) &&
              !stamp_is_of(finish_stamp(0x12345, 7), 0x12346) &&
              (finish_stamp(1, ~std::uint64_t{0}) & kStampNsMask) == kStampNsMask);

// One piece of a rank's contribution addressed to one destination (scatter, alltoall).
struct PieceDesc {
  std::uint64_t addr;       // exposed address, 0 = staged at stage_off
  std::uint64_t bytes;
  std::uint64_t stage_off;  // offset in the owner's staging slot
  // kPieceStreamed | stride << kPieceStrideShift | first chunk: streamed
  // (kDescStreamed), else 0. Its chunk i is first + i * stride; a stride of 0 is 1 (the
  // chunks follow each other), more interleaves the writer's pieces chunk by chunk (a
  // large reduce_scatter's blocks, coll/stream.hpp InStep).
  std::uint64_t stream;
  // stream and addr both set: a split piece (coll/stream.hpp kSplitMin), its first
  // stage_off bytes exposed at addr and the rest streamed.
};
static_assert(sizeof(PieceDesc) == 32);
inline constexpr std::uint64_t kPieceStreamed = std::uint64_t{1} << 63;
inline constexpr unsigned kPieceStrideShift = 32;
inline constexpr std::uint64_t kPieceStrideMask = 0xffff;

struct alignas(kPage) CommHeader {
  std::uint64_t magic;
  std::uint32_t layout_version;
  std::uint32_t size;          // members
  std::uint64_t total_bytes;   // of the whole block
  std::uint64_t members_offset;
  std::uint64_t ranks_offset;
  std::uint64_t tables_offset;
  std::uint64_t stage_offset;
  std::uint64_t stage_slot;    // kStageSlot of the creator
  std::uint32_t context_id;    // job-unique
  std::int32_t creator_pid;
  std::uint32_t flags;         // kComm* bits, set by the creator: every member sees the same
  std::uint8_t pad[kPage - 76];
};
static_assert(sizeof(CommHeader) == kPage && offsetof(CommHeader, context_id) == 64 && offsetof(CommHeader, flags) == 72);
// Members count arrivals in the call gates (CallGate) and the calls that wait for every
// member's post sleep on them: set when the job is oversubscribed and n > 2
// (SHMPI_COLL_GATE=on|off overrides; coll/comm_block.cpp).
inline constexpr std::uint32_t kCommGated = 1;

struct CommMember {
  std::int32_t world_rank;
  std::int32_t pid;
};
static_assert(sizeof(CommMember) == 8);

constexpr std::uint64_t comm_round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// Offsets of a block for n members.
struct CommGeometry {
  std::uint64_t members, gates, ranks, tables, table_stride, stage, stage_stride, small, small_stride, acks,
      acks_stride, results, rings, total;
};
constexpr CommGeometry comm_geometry(std::uint32_t n) {
  CommGeometry g{};
  g.members = sizeof(CommHeader);
  g.gates = comm_round_up(g.members + std::uint64_t{n} * sizeof(CommMember), kCacheLine);
  g.ranks = comm_round_up(g.gates + kCallSlots * sizeof(CallGate), kPage);
  g.tables = comm_round_up(g.ranks + std::uint64_t{n} * sizeof(CommRank), kPage);
  g.table_stride = comm_round_up(kCallSlots * std::uint64_t{n} * sizeof(PieceDesc), kCacheLine);
  g.stage = comm_round_up(g.tables + std::uint64_t{n} * g.table_stride, kPage);
  g.stage_stride = kStageDepth * kStageSlot;
  g.small = g.stage + std::uint64_t{n} * g.stage_stride;
  g.small_stride = kCallSlots * kSmallStage;
  g.acks = g.small + std::uint64_t{n} * g.small_stride;
  g.acks_stride = std::uint64_t{n} * sizeof(Flag);
  g.results = comm_round_up(g.acks + std::uint64_t{n} * g.acks_stride, kPage);
  g.rings = g.results + kStageDepth * kSharedResultBytes;
  g.total = g.rings + std::uint64_t{n} * kStreamRing;
  return g;
}

}  // namespace shmpi::layout
