// Communicator management (MPI-4.1 7.4): rank/size, dup, split, split_type, create,
// create_group, free, compare, names, info; MPI_Barrier. Every constructor goes through
// comm/comm.cpp (a split of the parent, or create_group's announcement).
#include <algorithm>
#include <cstring>

#include "api.hpp"
#include "attr/attr.hpp"
#include "barrier.hpp"
#include "coll/collectives.hpp"
#include "coll/nbc.hpp"
#include "comm/comm.hpp"
#include "group/group.hpp"
#include "info/info.hpp"

using namespace shmpi::client;

namespace {

int aborted_or(CommObj* c, int cls, const std::string& call, const std::string& why) {
  return raise(c, cls, call + ": " + why);
}

// Returns the new handle through *out after copying attributes (MPI_Comm_dup semantics).
int finish_dup(CommObj* c, CommObj* n, MPI_Comm* out, const char* call) {
  const int rc = attr::copy_comm_attrs(c, n);
  if (rc != MPI_SUCCESS) {
    comm::destroy(n);
    *out = MPI_COMM_NULL;
    return raise(c, rc, std::string(call) + ": an attribute copy callback failed");
  }
  *out = n->handle;
  return MPI_SUCCESS;
}

int dup(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, const char* call, bool with_info) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (newcomm == nullptr) return raise(c, MPI_ERR_ARG, std::string(call) + ": newcomm is NULL");
  if (with_info && info != MPI_INFO_NULL && to_info(info) == nullptr) {
    return raise(c, MPI_ERR_INFO, std::string(call) + ": info is not a valid info object");
  }
  CommObj* n = nullptr;
  std::string why;
  const int cls = comm::split(c, 0, c->rank, &n, why);
  if (cls != MPI_SUCCESS) return aborted_or(c, cls, call, why);
  return finish_dup(c, n, newcomm, call);
}

}  // namespace

extern "C" {

int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_rank", rc);
  if (c == nullptr) return rc;
  if (rank == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_rank: rank is NULL");
  *rank = c->rank;
  return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int* size) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_size", rc);
  if (c == nullptr) return rc;
  if (size == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_size: size is NULL");
  *size = c->size;
  return MPI_SUCCESS;
}

int PMPI_Barrier(MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Barrier", rc);
  if (c == nullptr) return rc;
  // MPI_COMM_WORLD's tuned barrier called straight (coll/collectives.hpp
  // takes_world_barrier; 2 ranks: ~8 ns of the ~50 ns bare flag barrier for going
  // through coll::barrier).
  std::string why;
  int cls = MPI_SUCCESS;
  if (coll::takes_world_barrier(c)) [[likely]] {
    if (world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates)) return MPI_SUCCESS;
    cls = coll::aborted(why);
  } else {
    cls = coll::barrier(c, why);
  }
  return cls == MPI_SUCCESS ? MPI_SUCCESS : raise(c, cls, "MPI_Barrier: " + why);
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) { return dup(comm, MPI_INFO_NULL, newcomm, "MPI_Comm_dup", false); }

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  // Info hints: none of the standard's communicator hints changes what shmpi does.
  return dup(comm, info, newcomm, "MPI_Comm_dup_with_info", true);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  constexpr const char* call = "MPI_Comm_split";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (newcomm == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_split: newcomm is NULL");
  if (color < 0 && color != MPI_UNDEFINED) {
    return raise(c, MPI_ERR_ARG, "MPI_Comm_split: color " + std::to_string(color) + " is negative (and not MPI_UNDEFINED)");
  }
  CommObj* n = nullptr;
  std::string why;
  const int cls = comm::split(c, color, key, &n, why);
  if (cls != MPI_SUCCESS) return aborted_or(c, cls, call, why);
  *newcomm = n != nullptr ? n->handle : MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  constexpr const char* call = "MPI_Comm_split_type";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (newcomm == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_split_type: newcomm is NULL");
  if (info != MPI_INFO_NULL && to_info(info) == nullptr) {
    return raise(c, MPI_ERR_INFO, "MPI_Comm_split_type: info is not a valid info object");
  }
  // One node, one shared-memory domain: MPI_COMM_TYPE_SHARED (and a hardware-guided
  // split asking for "mpi_shared_memory") keep every member. The other hardware types
  // name no strictly smaller level we promise: MPI_COMM_NULL (MPI-4.1 7.4.2).
  int color = MPI_UNDEFINED;
  if (split_type == MPI_COMM_TYPE_SHARED) {
    color = 0;
  } else if (split_type == MPI_COMM_TYPE_HW_GUIDED) {
    const auto v = info_value(info, "mpi_hw_resource_type");
    if (v && *v == "mpi_shared_memory") color = 0;
  } else if (split_type != MPI_UNDEFINED && split_type != MPI_COMM_TYPE_HW_UNGUIDED &&
             split_type != MPI_COMM_TYPE_RESOURCE_GUIDED) {
    return raise(c, MPI_ERR_ARG, "MPI_Comm_split_type: split_type " + std::to_string(split_type) + " is not an MPI_COMM_TYPE_* value");
  }
  CommObj* n = nullptr;
  std::string why;
  const int cls = comm::split(c, color, key, &n, why);
  if (cls != MPI_SUCCESS) return aborted_or(c, cls, call, why);
  *newcomm = n != nullptr ? n->handle : MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  constexpr const char* call = "MPI_Comm_create";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (newcomm == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_create: newcomm is NULL");
  GroupObj* g = to_group(group);
  if (g == nullptr) return raise(c, MPI_ERR_GROUP, "MPI_Comm_create: group is not a valid group");
  for (int w : g->world) {
    if (std::find(c->world_of.begin(), c->world_of.end(), w) == c->world_of.end()) {
      return raise(c, MPI_ERR_GROUP, "MPI_Comm_create: the group holds world rank " + std::to_string(w) + ", which is not in comm");
    }
  }
  const int me = group_rank_of_world(*g, c->world_of[static_cast<std::size_t>(c->rank)]);
  CommObj* n = nullptr;
  std::string why;
  // Ordered by the group's ranks, as MPI-4.1 7.4.2 requires.
  const int cls = comm::split(c, me == MPI_UNDEFINED ? MPI_UNDEFINED : 0, me, &n, why);
  if (cls != MPI_SUCCESS) return aborted_or(c, cls, call, why);
  *newcomm = n != nullptr ? n->handle : MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  constexpr const char* call = "MPI_Comm_create_group";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (newcomm == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_create_group: newcomm is NULL");
  if (tag < 0) return raise(c, MPI_ERR_TAG, "MPI_Comm_create_group: tag " + std::to_string(tag) + " is negative");
  GroupObj* g = to_group(group);
  if (g == nullptr) return raise(c, MPI_ERR_GROUP, "MPI_Comm_create_group: group is not a valid group");
  const int me_world = c->world_of[static_cast<std::size_t>(c->rank)];
  if (group_rank_of_world(*g, me_world) == MPI_UNDEFINED) {
    return raise(c, MPI_ERR_GROUP, "MPI_Comm_create_group: the calling process is not in group");
  }
  for (int w : g->world) {
    if (std::find(c->world_of.begin(), c->world_of.end(), w) == c->world_of.end()) {
      return raise(c, MPI_ERR_GROUP, "MPI_Comm_create_group: the group holds world rank " + std::to_string(w) + ", which is not in comm");
    }
  }
  CommObj* n = nullptr;
  std::string why;
  const int cls = comm::create_group(c, g->world, tag, &n, why);
  if (cls != MPI_SUCCESS) return aborted_or(c, cls, call, why);
  *newcomm = n->handle;
  return MPI_SUCCESS;
}

int PMPI_Comm_free(MPI_Comm* comm) {
  constexpr const char* call = "MPI_Comm_free";
  if (!initialized()) return not_initialized(call);
  if (comm == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Comm_free: comm is NULL");
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(*comm, call, rc);
  if (c == nullptr) return rc;
  if (c->predefined) return raise(c, MPI_ERR_COMM, std::string("MPI_Comm_free: ") + c->name + " cannot be freed");
  // Delete callbacks first; an error from one fails the call and keeps the communicator.
  const int cls = attr::delete_comm_attrs(c);
  if (cls != MPI_SUCCESS) return raise(c, cls, "MPI_Comm_free: an attribute delete callback failed");
  // Nonblocking collectives still in flight on c complete first (MPI-4.1 7.4.3).
  if (!coll::comm_free(c)) {
    return raise(c, MPI_ERR_PROC_ABORTED, "MPI_Comm_free: the job aborted while collectives on the communicator were in flight: " +
                                              abort_reason());
  }
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  constexpr const char* call = "MPI_Comm_compare";
  if (!initialized()) return not_initialized(call);
  int rc = MPI_SUCCESS;
  CommObj* a = comm_arg(comm1, call, rc);
  if (a == nullptr) return rc;
  CommObj* b = comm_arg(comm2, call, rc);
  if (b == nullptr) return rc;
  if (result == nullptr) return raise(a, MPI_ERR_ARG, "MPI_Comm_compare: result is NULL");
  if (a == b) {
    *result = MPI_IDENT;
  } else if (a->world_of == b->world_of) {
    *result = MPI_CONGRUENT;
  } else {
    std::vector<int> x = a->world_of, y = b->world_of;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    *result = x == y ? MPI_SIMILAR : MPI_UNEQUAL;
  }
  return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_group", rc);
  if (c == nullptr) return rc;
  if (group == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_group: group is NULL");
  *group = new_group_handle(c->world_of);
  return MPI_SUCCESS;
}

int PMPI_Comm_set_name(MPI_Comm comm, const char* name) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_set_name", rc);
  if (c == nullptr) return rc;
  if (name == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_set_name: name is NULL");
  // Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters (MPI-4.1 7.8), as
  // for datatypes and windows: not an error.
  const std::size_t len = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
  c->name.assign(name, len);
  comm::rename(c);
  return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_get_name", rc);
  if (c == nullptr) return rc;
  if (name == nullptr || resultlen == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_get_name: name or resultlen is NULL");
  const std::size_t len = std::min<std::size_t>(c->name.size(), MPI_MAX_OBJECT_NAME - 1);
  std::memcpy(name, c->name.data(), len);
  name[len] = '\0';
  *resultlen = static_cast<int>(len);
  return MPI_SUCCESS;
}

int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_test_inter", rc);
  if (c == nullptr) return rc;
  if (flag == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_test_inter: flag is NULL");
  *flag = 0;  // shmpi has intracommunicators only
  return MPI_SUCCESS;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_set_info", rc);
  if (c == nullptr) return rc;
  if (info != MPI_INFO_NULL && to_info(info) == nullptr) return raise(c, MPI_ERR_INFO, "MPI_Comm_set_info: info is not a valid info object");
  // MPI-4.1 7.4.4: hints may be ignored; none changes what shmpi does.
  return MPI_SUCCESS;
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_get_info", rc);
  if (c == nullptr) return rc;
  if (info == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_get_info: info is NULL");
  // A new info object the caller frees. No standard hints are in use; shmpi reports its
  // NUMA-aware collective path: "shmpi_numa_leaders" = the comm ranks leading each NUMA
  // node (coll/numa_groups.hpp), present only when the communicator spans several.
  rc = PMPI_Info_create(info);
  if (rc != MPI_SUCCESS) return rc;
  if (const coll::NumaGroups& ng = coll::numa_groups(c); ng.active) {
    std::string leaders;
    for (int l : ng.leader) leaders += (leaders.empty() ? "" : ",") + std::to_string(l);
    rc = PMPI_Info_set(*info, "shmpi_numa_leaders", leaders.c_str());
  }
  return rc;
}

}  // extern "C"

SHMPI_PMPI_ALIAS(int, MPI_Comm_rank, (MPI_Comm, int*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_size, (MPI_Comm, int*))
SHMPI_PMPI_ALIAS(int, MPI_Barrier, (MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Comm_dup, (MPI_Comm, MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_dup_with_info, (MPI_Comm, MPI_Info, MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_split, (MPI_Comm, int, int, MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_split_type, (MPI_Comm, int, int, MPI_Info, MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_create, (MPI_Comm, MPI_Group, MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_create_group, (MPI_Comm, MPI_Group, int, MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_free, (MPI_Comm*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_compare, (MPI_Comm, MPI_Comm, int*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_group, (MPI_Comm, MPI_Group*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_set_name, (MPI_Comm, const char*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_get_name, (MPI_Comm, char*, int*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_test_inter, (MPI_Comm, int*))
SHMPI_PMPI_ALIAS(int, MPI_Comm_set_info, (MPI_Comm, MPI_Info))
SHMPI_PMPI_ALIAS(int, MPI_Comm_get_info, (MPI_Comm, MPI_Info*))
