#include <numa.h>
#include <unistd.h>

#include <cstring>

#include "job.hpp"
#include "shm_layout/segment_init.hpp"
#include "shmpi_common/futex.hpp"
#include "shmpi_common/paths.hpp"

namespace shmpi::daemon {
using namespace shmpi::layout;

void abort_segment(const SegmentView& seg, const AbortInfo& info) {
  AbortWord& a = seg.header().abort;
  if (a.state.load(std::memory_order_acquire) == 0) {
    a.kind = static_cast<std::uint32_t>(info.kind);
    a.rank = info.rank;
    a.pid = info.pid;
    a.code = info.code;
    a.signal = info.signal;
    a.state.store(1, std::memory_order_seq_cst);
  }
  futex_wake_all(&a.state);
  // A waiter publishes where it sleeps before it sleeps; wake those words. A waiter that
  // checked the abort word just before we set it and sleeps just after this wake is
  // caught by its bounded sleep (common/wait).
  const std::uint32_t n = seg.nranks();  // clamped to the mapping: the header is untrusted
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint64_t off = seg.slot(r).parked_on.load(std::memory_order_seq_cst);
    if (auto* w = seg.word_at(off)) futex_wake_all(w);
  }
}

bool create_job_segment(Job& job, BarrierAlgo algo, std::string& why) {
  const std::uint64_t size = segment_size_for(job.nranks);
  job.segment_name = paths::segment_name(job.id);
  job.mapping = SegmentMapping::create(job.segment_name, size, why);
  if (!job.mapping.valid()) return false;
  auto* base = static_cast<std::byte*>(job.mapping.address());

  // Place each rank's page on its NUMA node before anything touches it, then touch it
  // (first touch allocates under that policy). Done once here so no rank pays 26-75 us
  // page faults inside MPI calls, and so ranks can map with MAP_POPULATE without
  // pulling other ranks' pages onto their own node.
  const bool numa = numa_available() >= 0;
  for (std::uint32_t r = 0; r < job.nranks; ++r) {
    std::byte* slot = base + kRankTableOffset + std::size_t{r} * sizeof(RankSlot);
    if (numa && job.placements[r].numa_node >= 0) {
      numa_tonode_memory(slot, sizeof(RankSlot), job.placements[r].numa_node);
    }
    std::memset(slot, 0, sizeof(RankSlot));
    auto* s = reinterpret_cast<RankSlot*>(slot);
    s->core = job.placements[r].core;
    s->numa_node = job.placements[r].numa_node;
  }

  SegmentParams p;
  p.job_id = job.id;
  p.nranks = job.nranks;
  p.barrier_algo = algo;
  p.broker_pid = getpid();
  p.runner_pid = job.runner_pid;
  p.bind_to_core = job.bind;
  init_segment(base, p);
  return true;
}

}  // namespace shmpi::daemon
