// MPI_COMM_WORLD's barrier on in-segment flags (algorithms in barrier.cpp).
#pragma once

#include <vector>

#include "shm_layout/segment_view.hpp"

namespace shmpi::client {

// The other ranks pinned to this rank's core, when ranks are pinned (known == false:
// unpinned or unknown, so a waiter must assume they need the core).
struct CoreMates {
  bool known = false;
  std::vector<layout::RankSlot*> slots;
};

// Returns false if the job was aborted while waiting.
bool world_barrier(const layout::SegmentView& seg, std::uint32_t rank, layout::BarrierAlgo algo,
                   const CoreMates& mates = {});

}  // namespace shmpi::client
