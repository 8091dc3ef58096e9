// The RMA windows of a job, read into plain values (one snapshot) and printed as a
// table section or JSON. A window's control block is a memfd in its creator's fd table
// (RankSlot::windows); it is opened through /proc/<pid>/fd/<fd>, mapped read-only,
// validated, read with relaxed loads and unmapped again. A window that vanished or does
// not validate becomes a row with `problem` set, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shm_layout/segment_view.hpp"
#include "shm_layout/window.hpp"

namespace shmpi::dump {

struct WinRankRow {
  std::uint32_t rank;        // rank in the window's communicator
  std::uint32_t world_rank;
  std::int32_t pid;
  std::int32_t numa_node;
  std::uint64_t size;
  std::int64_t disp_unit;
  std::string memory;        // "window-block", "shared-in-place", "private"
  // as target
  std::int64_t exclusive_holder;  // window rank, -1 if none
  std::uint32_t shared_holders;
  std::uint32_t bulk;
  std::vector<std::pair<std::uint32_t, std::int64_t>> stripes;  // (stripe, holder rank)
  // as origin
  std::int64_t announce;     // target of a single-element atomic in flight, -1 if none
  std::uint32_t epoch;       // layout::WinEpoch bits
  std::uint64_t calls[layout::kRmaCallKinds];
  std::uint32_t locks_shared;
  std::uint32_t locks_exclusive;
};

struct WindowSnapshot {
  // From the directory entry (always set).
  std::uint32_t creator_rank;  // job rank whose RankSlot lists the window
  std::uint32_t dir_slot;
  std::uint32_t win_id;
  std::int32_t pid;
  std::int32_t fd;
  std::string problem;         // non-empty: could not be read; the rest is unset
  // From the control block.
  std::string flavor;
  std::uint32_t nranks;
  std::uint64_t control_bytes;
  std::uint64_t data_bytes;
  std::uint32_t granularity;
  std::uint32_t info_flags;    // layout::WinInfoFlag
  std::uint32_t exclusive_lockers;  // WinHeader::all_locks high half
  std::uint32_t lock_all_holders;   // WinHeader::all_locks low half
  std::uint32_t freed;
  std::vector<WinRankRow> ranks;
};

// Every live window listed in the job's rank slots, in (rank, slot) order.
std::vector<WindowSnapshot> snapshot_windows(const layout::SegmentView& v);

std::string windows_table(const std::vector<WindowSnapshot>& ws);
std::string windows_json(const std::vector<WindowSnapshot>& ws);  // a JSON array

}  // namespace shmpi::dump
