#include "core_allocator.hpp"

#include <hwloc.h>
#include <sched.h>

#include <algorithm>

namespace shmpi::daemon {

CoreAllocator::CoreAllocator() {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
    const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (int i = 0; i < n; ++i) {
      hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
      // Bind to the core's first PU; hyperthread siblings stay free for other jobs.
      hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, 0);
      if (pu == nullptr) continue;
      std::int32_t node = -1;
      if (core->nodeset != nullptr && !hwloc_bitmap_iszero(core->nodeset)) {
        node = hwloc_bitmap_first(core->nodeset);
      }
      cores_.push_back({static_cast<std::int32_t>(pu->os_index), node});
    }
  }
  if (topo != nullptr) hwloc_topology_destroy(topo);
  if (cores_.empty()) {
    note_ = "hwloc found no cores; using sched_getaffinity with one NUMA node";
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &set)) cores_.push_back({c, 0});
      }
    }
    if (cores_.empty()) cores_.push_back({0, 0});
  }
}

std::vector<Placement> CoreAllocator::assign(std::uint32_t nranks, bool bind) {
  std::vector<Placement> out(nranks);
  if (!bind) return out;
  for (auto& p : out) {
    auto it = std::min_element(cores_.begin(), cores_.end(),
                               [](const Core& a, const Core& b) { return a.load < b.load; });
    ++it->load;
    p = {it->pu, it->numa_node};
  }
  // Consecutive ranks on one NUMA node (cores were taken in hwloc order, so ranks of a
  // node were interleaved only when the job has more ranks than free cores): each
  // node's ranks form one run, which the NUMA-aware reductions need to keep the rank
  // order of MPI-4.1 6.9.5 (libclient/src/coll/numa.hpp). One node: unchanged.
  std::stable_sort(out.begin(), out.end(), [](const Placement& a, const Placement& b) { return a.numa_node < b.numa_node; });
  return out;
}

void CoreAllocator::release(const std::vector<Placement>& placements) {
  for (const auto& p : placements) {
    for (auto& c : cores_) {
      if (c.pu == p.core && c.load > 0) {
        --c.load;
        break;
      }
    }
  }
}

std::vector<std::uint32_t> CoreAllocator::load() const {
  std::vector<std::uint32_t> v;
  for (const auto& c : cores_) v.push_back(c.load);
  return v;
}

}  // namespace shmpi::daemon
