// Hands out cores to jobs so that concurrent jobs do not pin ranks onto the same core
// while free cores exist. Topology comes from hwloc (honouring the broker's cpuset and
// HWLOC_XMLFILE / HWLOC_SYNTHETIC for tests).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace shmpi::daemon {

struct Placement {
  std::int32_t core = -1;       // OS index of the PU to bind to, -1 = unbound
  std::int32_t numa_node = -1;  // OS index of the NUMA node of that PU, -1 = unknown
};

class CoreAllocator {
 public:
  // Loads the topology; on failure falls back to the CPUs of sched_getaffinity with
  // one NUMA node, and says so in `note`.
  CoreAllocator();
  std::size_t core_count() const { return cores_.size(); }
  const std::string& note() const { return note_; }

  // Least-loaded cores first (ties: lowest index), so a second job lands on the cores
  // the first left free. With more ranks than cores the load spreads evenly. Ranks on
  // one NUMA node are consecutive.
  std::vector<Placement> assign(std::uint32_t nranks, bool bind);
  void release(const std::vector<Placement>& placements);
  // Ranks currently pinned per core, in core order (for logs and tests).
  std::vector<std::uint32_t> load() const;

 private:
  struct Core {
    std::int32_t pu;
    std::int32_t numa_node;
    std::uint32_t load = 0;
  };
  std::vector<Core> cores_;
  std::string note_;
};

}  // namespace shmpi::daemon
