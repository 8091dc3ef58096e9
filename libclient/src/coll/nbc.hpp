// Nonblocking (MPI-4.1 6.12) and persistent (6.13) collective requests.
//
// A request owns a checked Plan (plan.hpp) and a Task (fiber.hpp) that runs the plan
// with the blocking collective's code. Starting it assigns the call's sequence number
// at once (coll::begin, the task's first step), so calls match in the order they were
// issued, whatever order they are waited for in; the task then runs until its first
// wait and is resumed by progress(), which every waiting MPI call runs: MPI_Wait/Test
// through the request's poll hook, flag waits of blocking calls and the point-to-point
// engine's waits through WaitContext::engine_poll (progress_hooks.cpp).
#pragma once

#include <string>
#include <vector>

#include "coll/fiber.hpp"
#include "coll/plan.hpp"
#include "request/request.hpp"

namespace shmpi::client::coll {

struct CollRequest : RequestObj {
  CollRequest();
  ~CollRequest() override;
  // Back to the free list, constructed (its vectors keep their capacity).
  void dispose() override;

  Plan plan;
  Task task;
  std::vector<std::byte> scratch[4];  // this request's collective scratch (engine.hpp)
  bool running = false;  // its task is in flight
  bool orphan = false;   // no user handle (a rank sitting out with bad arguments): freed when done
  // Started without its task (start_deferred, start_posted): `seq` is the call's
  // number, task.wait and task.watch the member's post it waits for next; `posted`: it
  // ran up to its own post at issue.
  bool deferred = false;
  bool posted = false;
  std::uint32_t seq = 0;
  CollRequest* prev = nullptr;  // the in-flight list, in start order
  CollRequest* next = nullptr;
};

// The request behind r if it is a collective one, else nullptr.
CollRequest* as_coll(RequestObj* r);
// A fresh request: from the free list of disposed ones (a warm process allocates no
// request memory), else new. End one that was never registered with dispose().
CollRequest* new_request();

// Binds a new request to its plan's communicator (which then outlives it, see
// comm_free()) and sets its error sink to the communicator's handler.
void attach(CollRequest& r);
// Starts the request: the call takes its sequence number now. A call that need not
// wait (ready.hpp runs_through) runs to its end at once, on the caller's stack, and
// the request is complete; else its task runs until it first has to wait, and the
// request completes in progress() (at once if the call did).
void start(CollRequest& r);
// The two halves of start(). start_at_issue: if the call need not wait, runs it now
// and returns true (r complete, its status's MPI_ERROR the outcome); else false,
// nothing done. start_task: runs it on its task (r.running while in flight).
bool start_at_issue(CollRequest& r);
void start_task(CollRequest& r);
// A call that waits only for members' posts after its own (ready.hpp posts_first: a
// barrier or staged reduction) runs at issue with Part::bounded: up to its post, then a
// few polls for the posts it needs (g_wait.issue_spin_limit; members that each have a
// core arrive together), then on to its end if they came. can_post_at_issue: whether
// the call is such and can start now; run_posting runs it so (flat algorithms):
// kPostedOnly if it stopped after its post, then start_posted(r) (r took over the plan)
// leaves the rest to progress(), without a task.
bool can_post_at_issue(const Plan& p);
int run_posting(Plan& p, std::string& why);
void start_posted(CollRequest& r);
// A reader that waits for its root first (ready.hpp reads_first: a small bcast or a
// scatter, not at the root) and is not ready: takes its sequence number now;
// progress() runs it once the root's post is there, at once if it then need not wait,
// else on its task (no task, no stack switch, until then). can_defer: whether the call
// is such and its number can be taken now.
bool can_defer(const Plan& p);
void start_deferred(CollRequest& r);

// The same for a plan not in a request yet (MPI_Ixxx fills the process's plan): whether
// the call would run to its end without waiting (and without overtaking a call of its
// communicator in flight), and running it so (flat algorithms, as on a task).
bool can_run_at_issue(const Plan& p);
int run_at_issue(Plan& p, std::string& why);
// A request that takes over p (swapped with its own recycled plan), with a reference
// on the op p borrowed.
CollRequest* request_for(Plan& p);
// The handle of a call that failed at issue (run_at_issue returned cls, why): a complete
// request of its own carrying the error, raised through the communicator's handler.
MPI_Request failed_at_issue(const Plan& p, int cls, const std::string& why);
// The handle a nonblocking collective that completed at issue without error returns
// (request.hpp new_preset_handle): a complete request with an empty status.
MPI_Request completed_handle();

// Resumes every in-flight task whose flag moved. True while any is in flight. Does
// nothing when called from a task.
bool progress();
bool in_flight();
// For MPI_Wait & co. with only collective requests to poll: sleeps on the flag the
// oldest in-flight task waits for, for at most timeout_ns.
void sleep_on_oldest(long timeout_ns);

// MPI_Comm_free: completes c's in-flight collectives (MPI-4.1 7.4.3: pending operations
// complete normally), then destroys c now, or when its last request is freed. False
// (MPI_ERR_PROC_ABORTED) if the job aborted meanwhile.
bool comm_free(CommObj* c);

}  // namespace shmpi::client::coll
