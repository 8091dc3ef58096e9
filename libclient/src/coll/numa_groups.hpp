// A communicator's members grouped by NUMA node, for the NUMA-aware collectives
// (numa.cpp): one leader (the lowest comm rank) per node.
#pragma once

#include <vector>

namespace shmpi::client {
struct CommObj;
}

namespace shmpi::client::coll {

struct NumaGroups {
  bool known = false;      // computed (lazily, on the first collective that asks)
  bool active = false;     // the members span two or more NUMA nodes, and it is enabled
  bool contiguous = false;  // every node's members are one run of comm ranks
  std::vector<int> group_of;              // comm rank -> group, groups ordered by leader
  std::vector<int> leader;                // group -> its lowest comm rank
  std::vector<std::vector<int>> members;  // group -> its comm ranks, ascending
};

// The groups of `c`, from the NUMA node the broker placed each member on (job segment,
// RankSlot::numa_node). Inactive when a node is unknown (unbound ranks), when all
// members share one node, or with SHMPI_COLL_NUMA=0. Every member computes the same.
// (Inline, for the per-call check, in objects.hpp where CommObj is complete.)
const NumaGroups& compute_numa_groups(CommObj* c);

}  // namespace shmpi::client::coll
