// The one definition of a job's shared segment.
//
// Vocabulary
//   segment   one POSIX shm object per job, created by the broker (shmpid), mapped by
//             every rank of the job and read-only by shmpi-dump.
//   offset    every reference inside the segment is a byte offset from the segment base,
//             never a pointer: each process maps the segment at its own address.
//   flag      a 32-bit word that one process writes (monotonic generation counts, never
//             reset) and others wait on; a futex word, so waiters can sleep on it.
//
// Map (layout version 5), all parts page aligned so NUMA placement can act per part:
//   [0, 4096)                     JobHeader: identity, abort word, central barrier
//   [rank_table_offset, +n*4096)  RankSlot[n]: one page per rank, placed on its NUMA node
//   [segment_size)                end
//
// Every struct has fixed layout: explicit alignment, explicit padding, static_asserts
// on size and field offsets below. Any change to any of them must bump kLayoutVersion;
// the layout checksum (layout_checksum.hpp) catches a forgotten bump.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::layout {

inline constexpr std::size_t kCacheLine = 64;
inline constexpr std::size_t kPage = 4096;

// "SHMPISEG" read as a little-endian u64.
inline constexpr std::uint64_t kMagic = 0x474553495048'5348ull;
inline constexpr std::uint32_t kLayoutVersion = 5;

// Upper bounds the broker enforces before sizing a segment.
inline constexpr std::uint32_t kMaxRanks = 4096;
// Dissemination barrier rounds: ceil(log2(kMaxRanks)).
inline constexpr std::uint32_t kMaxBarrierRounds = 12;

static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(std::atomic<std::int32_t>::is_always_lock_free);
// std::atomic<T> must be exactly a T in memory for a cross-process layout.
static_assert(sizeof(std::atomic<std::uint32_t>) == 4 && alignof(std::atomic<std::uint32_t>) == 4);
static_assert(sizeof(std::atomic<std::uint64_t>) == 8 && alignof(std::atomic<std::uint64_t>) == 8);

// A futex word with the count of processes sleeping on it, alone on its cache line.
// Writers store `value` and only issue FUTEX_WAKE when `sleepers` is non-zero, so the
// common (nobody sleeps) case is one store and one load, no syscall. See common/wait.hpp.
struct alignas(kCacheLine) Flag {
  std::atomic<std::uint32_t> value;     // written by the flag's single writer
  std::atomic<std::uint32_t> sleepers;  // incremented/decremented by sleeping readers
  std::uint8_t pad[kCacheLine - 8];
};
static_assert(sizeof(Flag) == kCacheLine && alignof(Flag) == kCacheLine);
static_assert(offsetof(Flag, value) == 0 && offsetof(Flag, sleepers) == 4);

enum class AbortKind : std::uint32_t {
  none = 0,
  rank_died = 1,      // a rank exited or vanished without MPI_Finalize
  user_abort = 2,     // MPI_Abort
  runner = 3,         // shmpirun stopped the job (signal, timeout)
  broker = 4,         // the broker shut down
};

// The job's abort word. Written only by the broker (fields first, then `state` with
// release); every wait in every rank polls `state` and turns it into an MPI error.
struct alignas(kCacheLine) AbortWord {
  std::atomic<std::uint32_t> state;  // 0 running, 1 aborted (futex word)
  std::uint32_t kind;                // AbortKind
  std::int32_t rank;                 // the rank that died or called MPI_Abort, -1 if none
  std::int32_t pid;                  // its pid, 0 if unknown
  std::int32_t code;                 // MPI_Abort errorcode / exit status / signal number
  std::int32_t signal;               // terminating signal, 0 if none
  std::uint8_t pad[kCacheLine - 24];
};
static_assert(sizeof(AbortWord) == kCacheLine);
static_assert(offsetof(AbortWord, state) == 0 && offsetof(AbortWord, signal) == 20);

enum class BarrierAlgo : std::uint32_t {
  dissemination = 0,  // ranks <= cores: log2(n) rounds of single-writer flags, no RMW
  central = 1,        // oversubscribed: one counter, one release flag, one wake for all
};

// Page 0. Identity fields are written by the broker before `creator_pid` is published
// (release); a reader that sees creator_pid != 0 (acquire) sees the whole identity.
struct alignas(kPage) JobHeader {
  // line 0: identity, immutable after publication
  std::uint64_t magic;
  std::uint32_t layout_version;
  std::uint32_t header_size;      // sizeof(JobHeader)
  std::uint64_t layout_checksum;  // kLayoutChecksum of the creator
  std::uint64_t segment_size;
  std::uint64_t job_id;
  std::uint32_t nranks;
  std::uint32_t uid;
  std::uint64_t rank_table_offset;
  std::uint32_t rank_slot_size;   // sizeof(RankSlot)
  std::uint32_t barrier_algo;     // BarrierAlgo
  // line 1
  alignas(kCacheLine) std::uint64_t created_unix_ns;
  std::int32_t broker_pid;
  std::int32_t runner_pid;
  std::uint32_t bind_to_core;     // 1 when ranks are pinned, 0 for --bind-to none
  std::uint32_t reserved0;
  std::atomic<std::int32_t> creator_pid;  // written last; 0 = not yet published
  std::uint8_t pad1[kCacheLine - 36];
  // line 2
  AbortWord abort;
  // line 3: central barrier arrival counter (multi-writer, monotonic, never reset)
  alignas(kCacheLine) std::atomic<std::uint64_t> barrier_arrivals;
  std::uint8_t pad3[kCacheLine - 8];
  // line 4: central barrier release flag, value = generations completed (mod 2^32)
  Flag barrier_release;
  // line 5: context ids of communicators (multi-writer fetch_add, monotonic; 0 and 1 are
  // MPI_COMM_WORLD and MPI_COMM_SELF)
  alignas(kCacheLine) std::atomic<std::uint32_t> next_context_id;
  std::uint8_t pad5[kCacheLine - 4];
  std::uint8_t tail[kPage - 6 * kCacheLine];
};
static_assert(sizeof(JobHeader) == kPage && alignof(JobHeader) == kPage);
static_assert(offsetof(JobHeader, created_unix_ns) == 1 * kCacheLine);
static_assert(offsetof(JobHeader, creator_pid) == 1 * kCacheLine + 24);
static_assert(offsetof(JobHeader, abort) == 2 * kCacheLine);
static_assert(offsetof(JobHeader, barrier_arrivals) == 3 * kCacheLine);
static_assert(offsetof(JobHeader, barrier_release) == 4 * kCacheLine);
static_assert(offsetof(JobHeader, next_context_id) == 5 * kCacheLine);

enum class RankState : std::uint32_t {
  empty = 0,      // no process joined yet
  joined = 1,     // broker admitted the process (pid, core, numa written)
  running = 2,    // MPI_Init finished
  finalized = 3,  // MPI_Finalize finished
  dead = 4,       // broker saw it vanish without MPI_Finalize
};

// What a rank is currently blocked in, for shmpi-dump.
enum class WaitKind : std::uint32_t { none = 0, barrier = 1 };

// Windows a rank created (as rank 0 of the window's communicator), for shmpi-dump: the
// window's control block is a memfd that lives in the creator's fd table (never a file
// in /dev/shm), so a reader opens /proc/<pid>/fd/<fd>. Written only by the owning rank:
// fields first, then `state` = 1 (release); `state` = 0 before the fd is closed.
inline constexpr std::uint32_t kWinDirEntries = 16;
struct alignas(kCacheLine) WinDirEntry {
  std::atomic<std::uint32_t> state;  // 0 free, 1 live
  std::uint32_t win_id;              // job-unique (creator rank << 20 | sequence)
  std::int32_t pid;                  // creator's pid
  std::int32_t fd;                   // memfd number in the creator's fd table
  std::uint64_t meta_size;           // bytes of the control block (WinHeader ...)
  std::uint8_t pad[kCacheLine - 24];
};
static_assert(sizeof(WinDirEntry) == kCacheLine);
static_assert(offsetof(WinDirEntry, state) == 0 && offsetof(WinDirEntry, meta_size) == 16);

// Communicators a rank created (as comm rank 0), for shmpi-dump: the collective block
// (shm_layout/comm.hpp) is a memfd in the creator's fd table, like a window's.
// Written only by the owning rank: fields first, then `state` = 1 (release).
inline constexpr std::uint32_t kCommDirEntries = 16;
struct alignas(kCacheLine) CommDirEntry {
  std::atomic<std::uint32_t> state;  // 0 free, 1 live
  std::uint32_t context_id;
  std::int32_t pid;
  std::int32_t fd;                   // memfd number in the creator's fd table
  std::uint64_t block_bytes;
  char name[40];                     // the communicator's name when it was created
};
static_assert(sizeof(CommDirEntry) == kCacheLine);
static_assert(offsetof(CommDirEntry, block_bytes) == 16 && offsetof(CommDirEntry, name) == 24);

// Scratch a rank publishes to the other ranks during a collective set-up (window
// creation): written by its rank between two barriers, read by all in between.
inline constexpr std::size_t kExchangeBytes = 512;

// A rank's point-to-point inbox (shm_layout/p2p.hpp): a memfd in the rank's fd table,
// published by the rank at MPI_Init (fields, then `state` = 1, release); senders and
// shmpi-dump open /proc/<pid>/fd/<fd>.
struct alignas(kCacheLine) InboxDir {
  std::atomic<std::uint32_t> state;  // 0 not yet, 1 live, 2 closed (MPI_Finalize)
  std::int32_t pid;
  std::int32_t fd;
  std::uint32_t ring_bytes;
  std::uint64_t bytes;
  std::uint8_t pad[kCacheLine - 24];
};
static_assert(sizeof(InboxDir) == kCacheLine && offsetof(InboxDir, bytes) == 16);

// One page per rank, first touched on (and mbind()-placed onto) the rank's NUMA node.
struct alignas(kPage) RankSlot {
  // line 0: identity, written by the broker at admission; state also by the rank
  std::atomic<std::uint32_t> state;  // RankState
  std::int32_t pid;
  std::int32_t core;        // OS index of the PU the rank is bound to, -1 if unbound
  std::int32_t numa_node;   // -1 if unknown
  std::uint8_t pad0[kCacheLine - 16];
  // line 1: progress words written only by the rank, read by shmpi-dump
  alignas(kCacheLine) std::atomic<std::uint64_t> barriers_entered;
  std::atomic<std::uint64_t> barriers_completed;
  std::atomic<std::uint32_t> waiting_in;  // WaitKind
  std::uint32_t reserved1;
  // Offset of the futex word this rank sleeps on (0 = awake). The broker wakes it
  // when it aborts the job; it validates the offset before use (never trusts it).
  std::atomic<std::uint64_t> parked_on;
  // Central barrier: barriers this rank has arrived at (counted after its ticket), so a
  // waiter can tell whether the ranks sharing its core still need the core.
  std::atomic<std::uint64_t> barriers_arrived;
  std::uint8_t pad1[kCacheLine - 40];
  // lines 2..13: dissemination barrier, round k's flag written by this rank only.
  Flag barrier_round[kMaxBarrierRounds];
  // lines 14..29: windows this rank created (see WinDirEntry).
  WinDirEntry windows[kWinDirEntries];
  // lines 30..37: collective set-up scratch (see kExchangeBytes).
  alignas(kCacheLine) std::uint8_t exchange[kExchangeBytes];
  // lines 38..53: communicators this rank created (see CommDirEntry).
  CommDirEntry comms[kCommDirEntries];
  // line 54: the point-to-point inbox.
  InboxDir inbox;
  std::uint8_t tail[kPage - (3 + kMaxBarrierRounds + kWinDirEntries + kCommDirEntries) * kCacheLine - kExchangeBytes];
};
static_assert(sizeof(RankSlot) == kPage && alignof(RankSlot) == kPage);
static_assert(offsetof(RankSlot, barriers_entered) == kCacheLine);
static_assert(offsetof(RankSlot, parked_on) == kCacheLine + 24);
static_assert(offsetof(RankSlot, barriers_arrived) == kCacheLine + 32);
static_assert(offsetof(RankSlot, barrier_round) == 2 * kCacheLine);
static_assert(offsetof(RankSlot, windows) == (2 + kMaxBarrierRounds) * kCacheLine);
static_assert(offsetof(RankSlot, exchange) == (2 + kMaxBarrierRounds + kWinDirEntries) * kCacheLine);
static_assert(offsetof(RankSlot, comms) == (2 + kMaxBarrierRounds + kWinDirEntries) * kCacheLine + kExchangeBytes);
static_assert(offsetof(RankSlot, inbox) == 54 * kCacheLine);

inline constexpr std::uint64_t kRankTableOffset = sizeof(JobHeader);

constexpr std::uint64_t segment_size_for(std::uint32_t nranks) {
  return kRankTableOffset + std::uint64_t{nranks} * sizeof(RankSlot);
}

}  // namespace shmpi::layout
