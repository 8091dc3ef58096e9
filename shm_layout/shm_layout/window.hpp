// The one definition of an RMA window's shared control block.
//
// Vocabulary
//   control block  one memfd per window, created by rank 0 of the window's communicator
//                  and mapped by every member (peers open it through /proc/<pid>/fd, so
//                  nothing is ever named in /dev/shm and a crash leaves nothing behind).
//   data area      for MPI_Win_allocate(_shared) and MPI_Alloc_mem-free windows: the
//                  window memory of all ranks, in the same memfd after the control block.
//                  MPI_Win_create / dynamic windows keep data in each rank's private
//                  memory, reached with process_vm_readv/writev.
//   origin/target  the rank issuing an RMA call / the rank whose memory it accesses.
//
// Map (window layout version 1), offsets from the control block's start:
//   [0, 256)                       WinHeader
//   [kRankOffset, +n*1024)         WinRank[n]: target control, origin state, stripe locks
//   [pscw_offset, +2*n*n*4)        PSCW counters: post[t][o] (written by t), done[t][o] (by o)
//   [attach_offset, +n*kAttachBytes) dynamic windows: each rank's attached regions
//   [data_offset, +data_size)      window memory (allocate flavours), page aligned
//
// Every hot word sits on its own cache line; every struct has static_asserts below and
// any change bumps kWinLayoutVersion.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "shm_layout/segment.hpp"

namespace shmpi::layout {

inline constexpr std::uint64_t kWinMagic = 0x4e49574950'4d4853ull;  // "SHMPIWIN"
inline constexpr std::uint32_t kWinLayoutVersion = 1;

// Stripe locks per target for bulk accumulates: byte offset x of a target's window
// belongs to stripe (x / granularity) % kStripes. A power of two.
inline constexpr std::uint32_t kStripes = 64;
// Regions one rank can have attached to a dynamic window at once.
inline constexpr std::uint32_t kMaxAttach = 63;

enum class WinFlavor : std::uint32_t { create = 1, allocate = 2, dynamic = 3, shared = 4 };

// Bits of WinHeader::info_flags (the info keys read at creation, MPI-4.1 13.2.1).
enum WinInfoFlag : std::uint32_t {
  kInfoOrderingNone = 1u << 0,   // accumulate_ordering=none
  kInfoOpsSameOp = 1u << 1,      // accumulate_ops=same_op (default same_op_no_op)
  kInfoNoLocks = 1u << 2,        // no_locks=true
  kInfoNoncontig = 1u << 3,      // alloc_shared_noncontig=true
};

struct alignas(kCacheLine) WinHeader {
  // line 0: identity, written by the creator before anyone else maps the block
  std::uint64_t magic;
  std::uint32_t layout_version;
  std::uint32_t nranks;
  std::uint64_t job_id;
  std::uint32_t win_id;
  std::uint32_t flavor;          // WinFlavor
  std::uint64_t meta_size;       // control block bytes (data_offset when data follows)
  std::uint64_t data_offset;     // 0: no data area
  std::uint64_t data_size;
  std::uint32_t granularity;     // stripe bytes (mpi_accumulate_granularity, power of 2)
  std::uint32_t info_flags;      // WinInfoFlag
  // line 1: O(1) lock_all. High half: exclusive locks held or being acquired on any
  // target; low half: lock_all holders. lock_all waits for no exclusive; an exclusive
  // locker first registers in the high half once no lock_all holder remains.
  alignas(kCacheLine) std::atomic<std::uint64_t> all_locks;
  std::uint8_t pad1[kCacheLine - 8];
  // line 2: generation bumped on every release of all_locks (waiters sleep on it)
  Flag all_release;
  // line 3: window-wide counters for shmpi-dump
  alignas(kCacheLine) std::atomic<std::uint32_t> freed;  // ranks done with MPI_Win_free
  std::uint8_t pad3[kCacheLine - 4];
};
static_assert(sizeof(WinHeader) == 4 * kCacheLine);
static_assert(offsetof(WinHeader, all_locks) == kCacheLine);
static_assert(offsetof(WinHeader, all_release) == 2 * kCacheLine);
static_assert(offsetof(WinHeader, freed) == 3 * kCacheLine);

// Epoch bits a rank publishes for shmpi-dump (WinRank::epoch).
enum WinEpoch : std::uint32_t {
  kEpochFence = 1u << 0,
  kEpochLockAll = 1u << 1,
  kEpochLock = 1u << 2,       // at least one per-target lock
  kEpochAccess = 1u << 3,     // PSCW access (start .. complete)
  kEpochExposure = 1u << 4,   // PSCW exposure (post .. wait)
};

// RMA calls by kind, counted by the origin (WinRank::calls).
enum class RmaCall : std::uint32_t { put, get, acc, get_acc, fetch_and_op, cas, count_ };
inline constexpr std::size_t kRmaCallKinds = static_cast<std::size_t>(RmaCall::count_);

// One per rank, 16 lines.
struct alignas(kCacheLine) WinRank {
  // line 0: the rank's window memory, written by the rank at creation / attach
  std::uint64_t size;            // bytes (0 for dynamic)
  std::int64_t disp_unit;
  std::uint64_t base_addr;       // the rank's own virtual address of its memory
  std::uint64_t data_offset;     // allocate flavours: offset of its memory in the data area
  std::int32_t pid;
  std::int32_t numa_node;
  std::uint32_t world_rank;
  // MPI_Win_create memory shared in place (share_len > 0): peers map share_len bytes of
  // memfd share_fd (in pid's fd table) at share_fd_offset; they begin at base_addr's page.
  std::int32_t share_fd;
  std::uint64_t share_fd_offset;
  std::uint64_t share_len;
  // line 1 (as target): lock word, (exclusive holder rank + 1) << 32 | shared holders
  alignas(kCacheLine) std::atomic<std::uint64_t> lock;
  std::uint8_t pad1[kCacheLine - 8];
  // line 2 (as target): generation bumped on every lock release (waiters sleep on it)
  Flag lock_release;
  // line 3 (as target): bulk accumulates in progress on this target (summary word)
  alignas(kCacheLine) std::atomic<std::uint32_t> bulk;
  std::uint8_t pad3[kCacheLine - 4];
  // line 4 (as origin): the target + 1 of a single-element atomic in flight, else 0.
  // Only this rank writes it; bulk accumulates on that target read it.
  alignas(kCacheLine) std::atomic<std::uint32_t> announce;
  std::uint8_t pad4[kCacheLine - 4];
  // line 5: doorbell, bumped by whoever changes a PSCW counter this rank waits for
  Flag doorbell;
  // line 6 (as origin): epoch state and call counters, written by this rank only
  alignas(kCacheLine) std::atomic<std::uint32_t> epoch;  // WinEpoch bits
  std::uint32_t reserved6;
  std::atomic<std::uint64_t> calls[kRmaCallKinds];
  std::uint8_t pad6[kCacheLine - 8 - 8 * kRmaCallKinds];
  // line 7: per-target locks this rank holds right now (shared, exclusive)
  alignas(kCacheLine) std::atomic<std::uint32_t> locks_shared;
  std::atomic<std::uint32_t> locks_exclusive;
  std::uint8_t pad7[kCacheLine - 8];
  // lines 8..11 (as target): stripe locks, 0 free or holder rank + 1
  alignas(kCacheLine) std::atomic<std::uint32_t> stripe[kStripes];
  std::uint8_t tail[4 * kCacheLine];
};
static_assert(sizeof(WinRank) == 16 * kCacheLine);
static_assert(offsetof(WinRank, share_fd) == 44 && offsetof(WinRank, share_len) == 56);
static_assert(offsetof(WinRank, lock) == 1 * kCacheLine);
static_assert(offsetof(WinRank, lock_release) == 2 * kCacheLine);
static_assert(offsetof(WinRank, bulk) == 3 * kCacheLine);
static_assert(offsetof(WinRank, announce) == 4 * kCacheLine);
static_assert(offsetof(WinRank, doorbell) == 5 * kCacheLine);
static_assert(offsetof(WinRank, epoch) == 6 * kCacheLine);
static_assert(offsetof(WinRank, calls) == 6 * kCacheLine + 8);
static_assert(offsetof(WinRank, locks_shared) == 7 * kCacheLine);
static_assert(offsetof(WinRank, stripe) == 8 * kCacheLine);
static_assert(kStripes * 4 == 4 * kCacheLine);

// A region attached to a dynamic window.
struct AttachedRegion {
  std::uint64_t base;  // 0: free slot
  std::uint64_t size;
};
// One rank's attached regions: `count` live slots among `regions` (holes allowed).
struct alignas(kCacheLine) AttachTable {
  std::atomic<std::uint32_t> generation;  // bumped on every attach/detach
  std::uint32_t reserved;
  std::uint8_t pad[8];
  AttachedRegion regions[kMaxAttach];
};
static_assert(sizeof(AttachTable) == 1024);
static_assert(offsetof(AttachTable, regions) == 16);

inline constexpr std::uint64_t kWinRankOffset = sizeof(WinHeader);

struct WinOffsets {
  std::uint64_t ranks, pscw, attach, meta_size;
};
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }
constexpr WinOffsets win_offsets(std::uint32_t n) {
  WinOffsets o{};
  o.ranks = kWinRankOffset;
  o.pscw = o.ranks + std::uint64_t{n} * sizeof(WinRank);
  o.attach = round_up(o.pscw + 2ull * n * n * 4, kCacheLine);
  o.meta_size = round_up(o.attach + std::uint64_t{n} * sizeof(AttachTable), kPage);
  return o;
}
static_assert(win_offsets(1).meta_size == kPage);

}  // namespace shmpi::layout
