// MPI_Iallreduce's own path for the common small call: a predefined op on a predefined
// datatype, staged (at most kStageMax bytes), on a communicator of ranks with a core
// each (not gated), with nothing of it in flight. It does what the general path
// (api_coll.cpp issue_nonblocking, nbc.cpp start_mode `posting`, reduce.cpp
// reduce_staged with Part::bounded) would do for such a call, the same steps in the same
// order (stage, post, the members' posts polled or left to progress(), folded in rank
// order: the same bits), without building the run's generic state: no second plan, no
// run() through reduce()'s dispatch, the kept fold made in its request in place
// (docs/collectives.md "Nonblocking and persistent collectives", "The lean path").
// Anything unusual in the members' posts (an invalid or different one, an abort) takes
// the general path from there, with the request's plan.
#pragma once

#include <mpi.h>

#include "coll/plan.hpp"

namespace shmpi::client::coll {

// Whether p, a checked MPI_Iallreduce (api_coll.cpp reduce_call), may take the lean path.
bool lean_allreduce_fits(const Plan& p);
// Issues it: *request is the preset handle if it completed at issue, else a request in
// flight. MPI_SUCCESS (an error is found by the fold and reported by the completion call).
int lean_allreduce(const Plan& p, MPI_Request* request);

}  // namespace shmpi::client::coll
