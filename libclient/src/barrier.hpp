// MPI_COMM_WORLD's barrier on in-segment flags (algorithms in barrier.cpp).
#pragma once

#include "shm_layout/segment_view.hpp"

namespace shmpi::client {

// Returns false if the job was aborted while waiting.
bool world_barrier(const layout::SegmentView& seg, std::uint32_t rank, layout::BarrierAlgo algo);

}  // namespace shmpi::client
