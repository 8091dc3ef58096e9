// Filling a fresh (zeroed) segment: used by the broker for every job and by a
// singleton process (no runner) for its private one-rank segment.
#pragma once

#include <cstdint>
#include <vector>

#include "shm_layout/segment.hpp"

namespace shmpi::layout {

struct SegmentParams {
  std::uint64_t job_id = 0;
  std::uint32_t nranks = 1;
  BarrierAlgo barrier_algo = BarrierAlgo::dissemination;
  std::int32_t broker_pid = 0;
  std::int32_t runner_pid = 0;
  bool bind_to_core = false;
};

// Writes the header identity and publishes it (creator_pid last, release).
// Precondition: base points at segment_size_for(p.nranks) zeroed, writable bytes and
// each rank slot's core/numa_node have been filled by the caller if known.
void init_segment(void* base, const SegmentParams& p);

}  // namespace shmpi::layout
