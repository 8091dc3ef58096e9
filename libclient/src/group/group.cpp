#include "group/group.hpp"

#include <cassert>
#include <mutex>
#include <unordered_set>

namespace shmpi::client {
namespace {

GroupObj g_group_empty;

std::mutex g_mutex;
std::unordered_set<GroupObj*> g_groups;  // live user groups

bool predefined(const GroupObj* g) { return g == &g_group_empty; }

}  // namespace

GroupObj* to_group(MPI_Group g) {
  if (g == MPI_GROUP_EMPTY) return &g_group_empty;
  if (g == MPI_GROUP_NULL) return nullptr;
  auto* p = reinterpret_cast<GroupObj*>(g);
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_groups.count(p) ? p : nullptr;
}

MPI_Group to_handle(GroupObj* g) {
  if (g == &g_group_empty) return MPI_GROUP_EMPTY;
  return reinterpret_cast<MPI_Group>(g);
}

MPI_Group new_group_handle(std::vector<int> world_ranks) {
  if (world_ranks.empty()) return MPI_GROUP_EMPTY;
  auto* g = new GroupObj;
  int top = 0;
  for (int w : world_ranks) {
    assert(w >= 0);
    if (w > top) top = w;
  }
  g->rank_of.assign(static_cast<std::size_t>(top) + 1, MPI_UNDEFINED);
  for (std::size_t i = 0; i < world_ranks.size(); ++i) {
    assert(g->rank_of[static_cast<std::size_t>(world_ranks[i])] == MPI_UNDEFINED);
    g->rank_of[static_cast<std::size_t>(world_ranks[i])] = static_cast<int>(i);
  }
  g->world = std::move(world_ranks);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_groups.insert(g);
  return reinterpret_cast<MPI_Group>(g);
}

void retain(GroupObj* g) {
  if (!predefined(g)) g->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(GroupObj* g) {
  if (predefined(g)) return;
  if (g->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      g_groups.erase(g);
    }
    delete g;
  }
}

int group_rank_of_world(const GroupObj& g, int world_rank) {
  if (world_rank < 0 || static_cast<std::size_t>(world_rank) >= g.rank_of.size()) return MPI_UNDEFINED;
  return g.rank_of[static_cast<std::size_t>(world_rank)];
}

}  // namespace shmpi::client
