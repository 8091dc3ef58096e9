// Grouping a communicator's members by NUMA node (numa_groups.hpp).
#include "coll/numa_groups.hpp"

#include <cstdlib>
#include <cstring>
#include <map>

#include "objects.hpp"
#include "runtime.hpp"

namespace shmpi::client::coll {

namespace {
const NumaGroups& flat(NumaGroups& ng) {
  ng = NumaGroups{};
  ng.known = true;
  return ng;
}
}  // namespace

const NumaGroups& compute_numa_groups(CommObj* c) {
  NumaGroups& ng = c->numa;
  if (ng.known) return ng;
  ng.known = true;
  const char* env = std::getenv("SHMPI_COLL_NUMA");
  if (env != nullptr && std::strcmp(env, "0") == 0) return ng;
  if (g_rt.singleton || c->size < 2) return ng;
  // Node -> group index, groups numbered in the order of their lowest member.
  std::map<int, int> group_of_node;
  ng.group_of.resize(static_cast<std::size_t>(c->size));
  for (int r = 0; r < c->size; ++r) {
    const int node = g_rt.seg.slot(static_cast<std::uint32_t>(c->world_of[static_cast<std::size_t>(r)])).numa_node;
    if (node < 0) return flat(ng);
    auto [it, fresh] = group_of_node.try_emplace(node, static_cast<int>(ng.leader.size()));
    if (fresh) {
      ng.leader.push_back(r);
      ng.members.emplace_back();
    }
    ng.group_of[static_cast<std::size_t>(r)] = it->second;
    ng.members[static_cast<std::size_t>(it->second)].push_back(r);
  }
  if (ng.leader.size() < 2) return flat(ng);
  ng.active = true;
  ng.contiguous = true;
  for (const auto& m : ng.members) ng.contiguous = ng.contiguous && m.back() - m.front() + 1 == static_cast<int>(m.size());
  return ng;
}

}  // namespace shmpi::client::coll
