// A checksum of the layout itself: every size and field offset of every shared struct,
// folded with FNV-1a at compile time. Two builds with the same kLayoutVersion but a
// different layout (a forgotten version bump) get different checksums and refuse
// each other instead of misreading memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "shm_layout/segment.hpp"

namespace shmpi::layout {

constexpr std::uint64_t fnv1a(std::initializer_list<std::uint64_t> words) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint64_t w : words) {
    for (int i = 0; i < 8; ++i) {
      h ^= (w >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

inline constexpr std::uint64_t kLayoutChecksum = fnv1a({
    kLayoutVersion, kCacheLine, kPage, kMaxRanks, kMaxBarrierRounds,
    sizeof(Flag), offsetof(Flag, value), offsetof(Flag, sleepers),
    sizeof(AbortWord), offsetof(AbortWord, state), offsetof(AbortWord, kind),
    offsetof(AbortWord, rank), offsetof(AbortWord, pid), offsetof(AbortWord, code),
    offsetof(AbortWord, signal),
    sizeof(JobHeader), offsetof(JobHeader, magic), offsetof(JobHeader, layout_version),
    offsetof(JobHeader, header_size), offsetof(JobHeader, layout_checksum),
    offsetof(JobHeader, segment_size), offsetof(JobHeader, job_id),
    offsetof(JobHeader, nranks), offsetof(JobHeader, uid),
    offsetof(JobHeader, rank_table_offset), offsetof(JobHeader, rank_slot_size),
    offsetof(JobHeader, barrier_algo), offsetof(JobHeader, created_unix_ns),
    offsetof(JobHeader, broker_pid), offsetof(JobHeader, runner_pid),
    offsetof(JobHeader, bind_to_core), offsetof(JobHeader, creator_pid),
    offsetof(JobHeader, abort), offsetof(JobHeader, barrier_arrivals),
    offsetof(JobHeader, barrier_release), offsetof(JobHeader, next_context_id),
    sizeof(RankSlot), offsetof(RankSlot, state), offsetof(RankSlot, pid),
    offsetof(RankSlot, core), offsetof(RankSlot, numa_node),
    offsetof(RankSlot, barriers_entered), offsetof(RankSlot, barriers_completed),
    offsetof(RankSlot, waiting_in), offsetof(RankSlot, parked_on), offsetof(RankSlot, barriers_arrived),
    offsetof(RankSlot, barrier_round), offsetof(RankSlot, windows), offsetof(RankSlot, exchange),
    kWinDirEntries, sizeof(WinDirEntry), offsetof(WinDirEntry, state), offsetof(WinDirEntry, win_id),
    offsetof(WinDirEntry, pid), offsetof(WinDirEntry, fd), offsetof(WinDirEntry, meta_size),
    kExchangeBytes, offsetof(RankSlot, comms),
    kCommDirEntries, sizeof(CommDirEntry), offsetof(CommDirEntry, context_id), offsetof(CommDirEntry, pid),
    offsetof(CommDirEntry, fd), offsetof(CommDirEntry, block_bytes), offsetof(CommDirEntry, name),
    offsetof(RankSlot, inbox), sizeof(InboxDir), offsetof(InboxDir, state), offsetof(InboxDir, pid),
    offsetof(InboxDir, fd), offsetof(InboxDir, ring_bytes), offsetof(InboxDir, bytes),
});

}  // namespace shmpi::layout
