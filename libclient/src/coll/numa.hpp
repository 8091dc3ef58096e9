// NUMA-aware collectives: one leader per NUMA node (numa_groups.hpp) gathers or
// forwards for its node, so that data and flags cross between nodes once per node
// instead of once per rank. Used by barrier, bcast, reduce and allreduce when the
// communicator spans several nodes (reduce/allreduce: when each node's members are one
// run of comm ranks, which keeps the rank-order combination of MPI-4.1 6.9.5).
//
// Each runs as two calls of the communicator (two sequence numbers), taken by every
// member, so the engine's per-call rules (one post and one done per member and call,
// slot reuse after kStageDepth or kCallSlots calls) hold unchanged. Same arguments and
// results as the flat versions in collectives.hpp.
#pragma once

#include "coll/collectives.hpp"
#include "coll/numa_groups.hpp"

namespace shmpi::client::coll {

int numa_barrier(CommObj* c, const NumaGroups& ng, std::string& why);
int numa_bcast(CommObj* c, const NumaGroups& ng, const Buf& buf, int root, bool invalid, std::string& why);
// kind: reduce or allreduce; ng.contiguous.
int numa_reduce(CommObj* c, const NumaGroups& ng, ReduceKind kind, const void* send, void* recv, MPI_Count count,
                const Reducer& op, int root, bool in_place, bool invalid, std::string& why);

}  // namespace shmpi::client::coll
