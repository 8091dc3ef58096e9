// MPI_Group objects (MPI-4.1 7.3): an ordered list of the world ranks of the group's
// members. MPI_GROUP_EMPTY is a static object; every other group is registry-checked, as
// the other object kinds are: a freed or garbage handle is MPI_ERR_GROUP, not a crash.
#pragma once

#include <mpi.h>

#include <atomic>
#include <vector>

namespace shmpi::client {

struct GroupObj {
  std::vector<int> world;  // world rank of group rank i; immutable once the handle exists
  // The user's handle plus each internal holder (e.g. a communicator); freed at zero.
  std::atomic<int> refs{1};
  // Reverse index, built by new_group_handle: rank_of[w] is the group rank of world rank
  // w, MPI_UNDEFINED if w is not a member (size = largest member + 1).
  std::vector<int> rank_of;
};

// nullptr if `g` is not a valid group handle (MPI_GROUP_NULL included);
// MPI_GROUP_EMPTY gives a static empty group.
GroupObj* to_group(MPI_Group g);
MPI_Group to_handle(GroupObj* g);
// A new group of these world ranks (distinct, non-negative), one reference (refs = 1).
// No ranks: MPI_GROUP_EMPTY.
MPI_Group new_group_handle(std::vector<int> world_ranks);
// Predefined groups (MPI_GROUP_EMPTY) are never freed.
void retain(GroupObj* g);
void release(GroupObj* g);
// Group rank of `world_rank` in `g` (O(1)), MPI_UNDEFINED if it is not a member.
int group_rank_of_world(const GroupObj& g, int world_rank);

}  // namespace shmpi::client
