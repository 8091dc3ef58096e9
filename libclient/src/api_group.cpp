// Groups (MPI-4.1 7.3): MPI_Comm_group, the group accessors, constructors and
// MPI_Group_free. A group is a list of world ranks (group/group.hpp); every constructor
// builds a new list, and an empty result is MPI_GROUP_EMPTY.
//
// The standard makes invalid rank arguments erroneous without naming classes; here a
// rank that is out of range or repeated is MPI_ERR_RANK (also when a range computes it:
// MPI_Group_range_incl is defined as expanding the ranges and calling MPI_Group_incl),
// a malformed count, range or pointer is MPI_ERR_ARG, a bad group handle MPI_ERR_GROUP.
// Errors are raised on MPI_COMM_SELF (no communicator is involved), except in
// MPI_Comm_group, which raises on its valid communicator.
#include <cstdint>
#include <vector>

#include "api.hpp"
#include "group/group.hpp"

using namespace shmpi::client;

namespace {

// The group behind `g`, or nullptr after raising MPI_ERR_GROUP naming argument `name`.
GroupObj* group_arg(MPI_Group g, const char* call, const char* name, int& rc) {
  GroupObj* p = to_group(g);
  if (p == nullptr) {
    rc = raise(nullptr, MPI_ERR_GROUP,
               std::string(call) + ": " + name + " is " +
                   (g == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "not a valid group (freed or never created)"));
  }
  return p;
}

int null_arg(const char* call, const char* name) {
  return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": " + name + " is NULL");
}

int size_of(const GroupObj& g) { return static_cast<int>(g.world.size()); }

// Checks a list of n group ranks for MPI_Group_incl/excl: each in range, none repeated.
int check_ranks(const char* call, const GroupObj& g, int n, const int ranks[]) {
  if (n < 0) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": n = " + std::to_string(n) + " is negative");
  if (n > 0 && ranks == nullptr) return null_arg(call, "ranks");
  const int size = size_of(g);
  std::vector<int> first_at(static_cast<std::size_t>(size), -1);  // index in ranks[] of each rank
  for (int i = 0; i < n; ++i) {
    const int r = ranks[i];
    const std::string at = std::string(call) + ": ranks[" + std::to_string(i) + "] = " + std::to_string(r);
    if (r < 0 || r >= size) {
      return raise(nullptr, MPI_ERR_RANK, at + " is out of range (group size " + std::to_string(size) + ")");
    }
    int& seen = first_at[static_cast<std::size_t>(r)];
    if (seen >= 0) {
      return raise(nullptr, MPI_ERR_RANK, at + " repeats ranks[" + std::to_string(seen) + "] (ranks must be distinct)");
    }
    seen = i;
  }
  return MPI_SUCCESS;
}

// Expands the n triplets of MPI_Group_range_incl/excl into group ranks, in order
// (MPI-4.1 7.3.2: first, first + stride, ..., first + floor((last - first) / stride) *
// stride). Every computed rank must be valid and distinct; last itself need not be a
// computed rank, so it need not be valid either.
int expand_ranges(const char* call, const GroupObj& g, int n, int ranges[][3], std::vector<int>& out) {
  if (n < 0) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": n = " + std::to_string(n) + " is negative");
  if (n > 0 && ranges == nullptr) return null_arg(call, "ranges");
  const std::int64_t size = size_of(g);
  std::vector<int> first_at(static_cast<std::size_t>(size), -1);  // the triplet that computed each rank
  for (int i = 0; i < n; ++i) {
    const std::int64_t first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    const std::string at = std::string(call) + ": ranges[" + std::to_string(i) + "] = (" + std::to_string(first) + ", " +
                           std::to_string(last) + ", " + std::to_string(stride) + ")";
    if (stride == 0) return raise(nullptr, MPI_ERR_ARG, at + ": the stride is 0");
    if ((last - first) * (stride > 0 ? 1 : -1) < 0) {
      return raise(nullptr, MPI_ERR_ARG, at + ": a stride of " + std::to_string(stride) + " does not lead from " +
                                             std::to_string(first) + " to " + std::to_string(last));
    }
    const std::int64_t count = (last - first) / stride + 1;  // same signs: truncation is floor
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t r = first + k * stride;
      if (r < 0 || r >= size) {
        return raise(nullptr, MPI_ERR_RANK, at + " computes rank " + std::to_string(r) + ", which is out of range (group size " +
                                                std::to_string(size) + ")");
      }
      int& seen = first_at[static_cast<std::size_t>(r)];
      if (seen >= 0) {
        return raise(nullptr, MPI_ERR_RANK, at + " computes rank " + std::to_string(r) + ", which ranges[" +
                                                std::to_string(seen) + "] computed already (ranks must be distinct)");
      }
      seen = i;
      out.push_back(static_cast<int>(r));
    }
  }
  return MPI_SUCCESS;
}

std::vector<int> included(const GroupObj& g, const std::vector<int>& ranks) {
  std::vector<int> world;
  world.reserve(ranks.size());
  for (int r : ranks) world.push_back(g.world[static_cast<std::size_t>(r)]);
  return world;
}

std::vector<int> excluded(const GroupObj& g, const std::vector<int>& ranks) {
  std::vector<bool> drop(g.world.size(), false);
  for (int r : ranks) drop[static_cast<std::size_t>(r)] = true;
  std::vector<int> world;
  for (std::size_t i = 0; i < g.world.size(); ++i) {
    if (!drop[i]) world.push_back(g.world[i]);
  }
  return world;
}

// The two-group constructors: MPI-4.1 7.3.2's orders.
enum class SetOp { union_, intersection, difference };

int set_op(const char* call, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup, SetOp op) {
  int rc = MPI_SUCCESS;
  const GroupObj* a = group_arg(group1, call, "group1", rc);
  if (a == nullptr) return rc;
  const GroupObj* b = group_arg(group2, call, "group2", rc);
  if (b == nullptr) return rc;
  if (newgroup == nullptr) return null_arg(call, "newgroup");
  std::vector<int> world;
  switch (op) {
    case SetOp::union_:  // all of group1, then the members of group2 not in group1
      world = a->world;
      for (int w : b->world) {
        if (group_rank_of_world(*a, w) == MPI_UNDEFINED) world.push_back(w);
      }
      break;
    case SetOp::intersection:  // the members of group1 also in group2, in group1's order
      for (int w : a->world) {
        if (group_rank_of_world(*b, w) != MPI_UNDEFINED) world.push_back(w);
      }
      break;
    case SetOp::difference:  // the members of group1 not in group2, in group1's order
      for (int w : a->world) {
        if (group_rank_of_world(*b, w) == MPI_UNDEFINED) world.push_back(w);
      }
      break;
  }
  *newgroup = new_group_handle(std::move(world));
  return MPI_SUCCESS;
}

}  // namespace

// MPI_Comm_group: api_comm.cpp.


extern "C" int PMPI_Group_size(MPI_Group group, int* size) {
  int rc = MPI_SUCCESS;
  const GroupObj* g = group_arg(group, "MPI_Group_size", "group", rc);
  if (g == nullptr) return rc;
  if (size == nullptr) return null_arg("MPI_Group_size", "size");
  *size = size_of(*g);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_size, (MPI_Group, int*))

extern "C" int PMPI_Group_rank(MPI_Group group, int* rank) {
  int rc = MPI_SUCCESS;
  const GroupObj* g = group_arg(group, "MPI_Group_rank", "group", rc);
  if (g == nullptr) return rc;
  if (rank == nullptr) return null_arg("MPI_Group_rank", "rank");
  *rank = group_rank_of_world(*g, g_world.rank);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_rank, (MPI_Group, int*))

extern "C" int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                          int ranks2[]) {
  const char* call = "MPI_Group_translate_ranks";
  int rc = MPI_SUCCESS;
  const GroupObj* a = group_arg(group1, call, "group1", rc);
  if (a == nullptr) return rc;
  const GroupObj* b = group_arg(group2, call, "group2", rc);
  if (b == nullptr) return rc;
  if (n < 0) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": n = " + std::to_string(n) + " is negative");
  if (n > 0 && ranks1 == nullptr) return null_arg(call, "ranks1");
  if (n > 0 && ranks2 == nullptr) return null_arg(call, "ranks2");
  const int size = size_of(*a);
  for (int i = 0; i < n; ++i) {  // all checked before any output is written
    if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= size)) {
      return raise(nullptr, MPI_ERR_RANK, std::string(call) + ": ranks1[" + std::to_string(i) + "] = " +
                                              std::to_string(ranks1[i]) + " is out of range (group1 size " +
                                              std::to_string(size) + ")");
    }
  }
  for (int i = 0; i < n; ++i) {
    const int r = ranks1[i];
    ranks2[i] = r == MPI_PROC_NULL ? MPI_PROC_NULL : group_rank_of_world(*b, a->world[static_cast<std::size_t>(r)]);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_translate_ranks, (MPI_Group, int, const int[], MPI_Group, int[]))

extern "C" int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  int rc = MPI_SUCCESS;
  const GroupObj* a = group_arg(group1, "MPI_Group_compare", "group1", rc);
  if (a == nullptr) return rc;
  const GroupObj* b = group_arg(group2, "MPI_Group_compare", "group2", rc);
  if (b == nullptr) return rc;
  if (result == nullptr) return null_arg("MPI_Group_compare", "result");
  if (a->world == b->world) {
    *result = MPI_IDENT;  // same members in the same order
  } else if (a->world.size() != b->world.size()) {
    *result = MPI_UNEQUAL;
  } else {
    *result = MPI_SIMILAR;  // same members in another order, unless one is missing
    for (int w : a->world) {
      if (group_rank_of_world(*b, w) == MPI_UNDEFINED) {
        *result = MPI_UNEQUAL;
        break;
      }
    }
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_compare, (MPI_Group, MPI_Group, int*))

extern "C" int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return set_op("MPI_Group_union", group1, group2, newgroup, SetOp::union_);
}
SHMPI_PMPI_ALIAS(int, MPI_Group_union, (MPI_Group, MPI_Group, MPI_Group*))

extern "C" int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return set_op("MPI_Group_intersection", group1, group2, newgroup, SetOp::intersection);
}
SHMPI_PMPI_ALIAS(int, MPI_Group_intersection, (MPI_Group, MPI_Group, MPI_Group*))

extern "C" int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return set_op("MPI_Group_difference", group1, group2, newgroup, SetOp::difference);
}
SHMPI_PMPI_ALIAS(int, MPI_Group_difference, (MPI_Group, MPI_Group, MPI_Group*))

extern "C" int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  int rc = MPI_SUCCESS;
  const GroupObj* g = group_arg(group, "MPI_Group_incl", "group", rc);
  if (g == nullptr) return rc;
  if (newgroup == nullptr) return null_arg("MPI_Group_incl", "newgroup");
  rc = check_ranks("MPI_Group_incl", *g, n, ranks);
  if (rc != MPI_SUCCESS) return rc;
  *newgroup = new_group_handle(included(*g, std::vector<int>(ranks, ranks + n)));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_incl, (MPI_Group, int, const int[], MPI_Group*))

extern "C" int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  int rc = MPI_SUCCESS;
  const GroupObj* g = group_arg(group, "MPI_Group_excl", "group", rc);
  if (g == nullptr) return rc;
  if (newgroup == nullptr) return null_arg("MPI_Group_excl", "newgroup");
  rc = check_ranks("MPI_Group_excl", *g, n, ranks);
  if (rc != MPI_SUCCESS) return rc;
  *newgroup = new_group_handle(excluded(*g, std::vector<int>(ranks, ranks + n)));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_excl, (MPI_Group, int, const int[], MPI_Group*))

extern "C" int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  int rc = MPI_SUCCESS;
  const GroupObj* g = group_arg(group, "MPI_Group_range_incl", "group", rc);
  if (g == nullptr) return rc;
  if (newgroup == nullptr) return null_arg("MPI_Group_range_incl", "newgroup");
  std::vector<int> ranks;
  rc = expand_ranges("MPI_Group_range_incl", *g, n, ranges, ranks);
  if (rc != MPI_SUCCESS) return rc;
  *newgroup = new_group_handle(included(*g, ranks));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_range_incl, (MPI_Group, int, int[][3], MPI_Group*))

extern "C" int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  int rc = MPI_SUCCESS;
  const GroupObj* g = group_arg(group, "MPI_Group_range_excl", "group", rc);
  if (g == nullptr) return rc;
  if (newgroup == nullptr) return null_arg("MPI_Group_range_excl", "newgroup");
  std::vector<int> ranks;
  rc = expand_ranges("MPI_Group_range_excl", *g, n, ranges, ranks);
  if (rc != MPI_SUCCESS) return rc;
  *newgroup = new_group_handle(excluded(*g, ranks));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_range_excl, (MPI_Group, int, int[][3], MPI_Group*))

// MPI_GROUP_EMPTY may be freed too: the constructors return it for empty results, and
// the user frees every group a constructor returned (the object itself stays).
extern "C" int PMPI_Group_free(MPI_Group* group) {
  if (group == nullptr) return null_arg("MPI_Group_free", "group");
  int rc = MPI_SUCCESS;
  GroupObj* g = group_arg(*group, "MPI_Group_free", "*group", rc);
  if (g == nullptr) return rc;
  release(g);
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Group_free, (MPI_Group*))
