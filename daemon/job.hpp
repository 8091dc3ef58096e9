// The broker's private record of one job. The broker decides from this record, never
// from segment contents (which any rank of the job can scribble on).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core_allocator.hpp"
#include "shm_layout/segment_file.hpp"
#include "shm_layout/segment.hpp"

namespace shmpi::daemon {

struct RankRecord {
  layout::RankState state = layout::RankState::empty;
  pid_t pid = 0;
  int conn_fd = -1;  // the rank's broker connection; its close means death unless finalized
};

struct Job {
  std::uint64_t id = 0;
  std::string segment_name;
  layout::SegmentMapping mapping;
  std::uint32_t nranks = 0;
  bool bind = true;
  int runner_fd = -1;
  pid_t runner_pid = 0;
  std::vector<Placement> placements;
  std::vector<RankRecord> ranks;
  bool aborted = false;
};

struct AbortInfo {
  layout::AbortKind kind = layout::AbortKind::none;
  std::int32_t rank = -1;
  std::int32_t pid = 0;
  std::int32_t code = 1;
  std::int32_t signal = 0;
};

// Writes the abort word (fields, then state with release) and wakes every waiter: the
// abort word itself and each rank's parked_on word, validated before use.
void abort_segment(const layout::SegmentView& seg, const AbortInfo& info);

// Creates, fills, NUMA-places and publishes the segment of a new job.
bool create_job_segment(Job& job, layout::BarrierAlgo algo, std::string& why);

}  // namespace shmpi::daemon
