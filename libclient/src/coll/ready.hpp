// Would a nonblocking or persistent collective run to its end without waiting, if it
// started now? (nbc.cpp run_at_issue: such a call runs at once on the caller's stack,
// as the blocking call would, instead of on a task.)
#pragma once

#include "coll/plan.hpp"

namespace shmpi::client::coll {

// True only if the flat algorithm of p's call (the communicator's next sequence
// number) would find every flag it waits for already set: its slot reserved, every
// descriptor it reads posted, nothing of its own exposed (which would wait for the
// readers' `done`). Reads the flags and writes nothing shared (only this rank's bounds of
// the members' `done`, engine.hpp first_not_done). Requires p.ok() and no call of
// this communicator in flight on this rank (else begin() might wait for it).
//
// It must never say yes wrongly: a call run at issue that then had to wait would
// block inside MPI_Ixxx, and MPI_Ixxx is local (MPI-4.1 6.12). False is always safe
// (the call then runs on a task).
bool runs_through(const Plan& p);
// The same for the call numbered `seq` (taken earlier, nbc.cpp start_deferred).
bool runs_through(const Plan& p, std::uint32_t seq);

// Calls that need not run on a task when they must wait (nbc.cpp start_deferred):
//  reads_first: its first wait comes before it writes anything a member reads (a small
//    bcast or a scatter, not at the root: begin, then wait for the root's post); it can
//    take its sequence number at issue and run once that post is there;
//  reserve_first: all it waits for is its slot (reserve(): the members' `done` of the
//    call reserved_upto() back), after which it runs through: a gather sender that
//    stages; it can take its number at issue and run once the slot is free. (A staged
//    bcast root, a scatter root whose pieces are staged, a reduction member with
//    nothing to fold are such senders too, but find it out in their trial or posting
//    run: nbc.cpp start_taken.)
bool reads_first(const Plan& p);
bool reserve_first(const Plan& p);
// For a sender numbered `seq`: the first member not done with call
// reserved_upto(seq, reserves_small(p)), or -1.
int missing_done(const Plan& p, std::uint32_t seq);
// Whether the flat algorithm runs the call with reserve_small() (collectives.hpp
// bcast_small etc., as move.cpp, reduce.cpp; reaching kCallSlots calls back) rather than
// reserve() (kStageDepth).
bool reserves_small(const Plan& p);
// For such a call numbered `seq`: the first member whose post it still waits for, or -1.
int missing_post(const Plan& p, std::uint32_t seq);
// A staged allreduce or reduce_scatter (with a block of its own to take) on a gated
// communicator: its opener folds the result for all and then opens the call's gate
// (reduce.cpp reduce_staged), so a member whose posts are missing waits for that one
// flag.
bool shares_result(const Plan& p);
// Member r's `posted` flag (to sleep on) and descriptor word of call `seq` (to watch).
struct PostOf {
  layout::Flag* flag;
  const std::atomic<std::uint32_t>* desc_seq;
};
PostOf post_of(const Plan& p, int r, std::uint32_t seq);

}  // namespace shmpi::client::coll
