#include "shm_layout/segment_init.hpp"

#include <time.h>
#include <unistd.h>

#include "shm_layout/layout_checksum.hpp"

namespace shmpi::layout {

void init_segment(void* base, const SegmentParams& p) {
  auto* h = static_cast<JobHeader*>(base);
  h->magic = kMagic;
  h->layout_version = kLayoutVersion;
  h->header_size = sizeof(JobHeader);
  h->layout_checksum = kLayoutChecksum;
  h->segment_size = segment_size_for(p.nranks);
  h->job_id = p.job_id;
  h->nranks = p.nranks;
  h->uid = static_cast<std::uint32_t>(getuid());
  h->rank_table_offset = kRankTableOffset;
  h->rank_slot_size = sizeof(RankSlot);
  h->barrier_algo = static_cast<std::uint32_t>(p.barrier_algo);
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  h->created_unix_ns = static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
                       static_cast<std::uint64_t>(ts.tv_nsec);
  h->broker_pid = p.broker_pid;
  h->runner_pid = p.runner_pid;
  h->bind_to_core = p.bind_to_core ? 1 : 0;
  h->abort.rank = -1;
  h->next_context_id.store(2, std::memory_order_relaxed);  // 0: MPI_COMM_WORLD, 1: MPI_COMM_SELF
  h->creator_pid.store(getpid(), std::memory_order_release);  // publish: written last
}

}  // namespace shmpi::layout
