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
#include "coll/posted_fold.hpp"
#include "request/request.hpp"
#include "wait.hpp"

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
  // Started without its task (start_deferred, start_posted), as call `seq`, waiting
  // (task.wait/target, and task.watch for a post) for: a reader, its root's post; a
  // sender, its slot (a member's `done`); a poster, which ran up to its own post at
  // issue, the members' posts.
  enum class Deferred : std::uint8_t { no, reader, sender, poster };
  Deferred deferred = Deferred::no;
  std::uint32_t seq = 0;
  // A poster whose rest is a plain fold (posted_fold.hpp): what run_deferred() needs.
  PostedFold fold;
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
// How a nonblocking or persistent call starts (MPI_Ixxx, MPI_Start). All but `task`
// run on the caller's stack, with the flat algorithms (as on a task):
//  at_issue: the call need not wait (ready.hpp runs_through; and no call of its
//    communicator is in flight here, which it would overtake): run_at_issue runs it to
//    its end now;
//  posting: a barrier or reduction (its own slot free). run_posting runs it as a trial
//    (engine.hpp Part::bounded): a large reduction, or one whose slot is not free,
//    stops before writing anything (kNeedsTask; kNotYet if it has nothing to fold:
//    start_taken, as `trial` below). Else it runs up to its post, then polls for the
//    posts it needs (wait.hpp poll_briefly, g_wait.issue_spin_ns: members that each
//    have a core arrive together) and runs on to its end if they came, else returns
//    kPostedOnly; then start_posted(r) (r took over the plan) leaves the rest to
//    progress(), without a task;
//  deferred: a sender whose slot is not free yet (ready.hpp reserve_first: a gather
//    sender that stages; a bcast or scatter root, or a reduction member with nothing to
//    fold, finds it out in its trial or posting run): start_deferred(r) takes its
//    sequence number; progress() runs it once the slot is free (or, for a reader stopped
//    in its trial, the root's post is there), at once if it then need not wait, else on
//    its task;
//  task: start_task(r) runs it on its task (r.running while in flight);
//  trial: a bcast or scatter, run at once without a readiness check: run_trial runs it
//    (engine.hpp Part::trial) to its end, or it stops before writing anything where it
//    would wait (after as many polls for a root's post as `posting`), with its sequence
//    number taken, and returns kNotYet (start_taken(r, false): then it is deferred, as
//    above) or kNeedsTask (start_taken(r, true): on its task). Its first wait is the
//    check: a reader's poll for its root's post, a root's reservation.
enum class Start : std::uint8_t { at_issue, posting, deferred, task, trial };
// What running a call now, off a task, needs besides readiness: valid arguments, and
// no call of its communicator in flight on this rank (begin() would wait for it, and
// the sequence numbers must go to the calls in issue order anyway).
inline bool first_in_line(const Plan& p) {
  return p.ok() && p.comm->nbc_running == 0 && current_task() == nullptr;
}
// begin() need not wait for our own call seq - kStageDepth (a call started off a task
// must not wait there).
inline bool own_slot_free(const CommObj& c) { return reached(c.done_upto, c.seq + 1 - layout::kStageDepth); }
inline bool own_slot_free(const Plan& p) { return own_slot_free(*p.comm); }
Start start_mode(const Plan& p);
// Inline: with the preset request these are all a call completed at issue adds to
// the blocking call's path (an out-of-line run_now was a frame and a call more).
inline int run_at_issue(Plan& p, std::string& why) {
  g_at_issue = true;
  const int cls = run(p, why);
  g_at_issue = false;
  return cls;
}
inline int run_part(Part part, Plan& p, std::string& why) {
  p.part = part;
  const int cls = run_at_issue(p, why);
  p.part = Part::whole;
  return cls;
}
inline int run_posting(Plan& p, std::string& why) { return run_part(Part::bounded, p, why); }
inline int run_trial(Plan& p, std::string& why) { return run_part(Part::trial, p, why); }
// One of the three above, as `how` (at_issue, posting or trial) says.
inline int run_now(Start how, Plan& p, std::string& why) {
  if (how == Start::at_issue) return run_at_issue(p, why);
  return run_part(how == Start::posting ? Part::bounded : Part::trial, p, why);
}
// A call whose trial run stopped (run_trial returned kNotYet, or kNeedsTask: on_task)
// after taking the communicator's latest sequence number: in flight from now as that
// call. r took over the plan.
void start_taken(CollRequest& r, bool on_task);
void start_posted(CollRequest& r);
// A call that posted at issue and kept its fold in r.fold (start_posted,
// lean_allreduce.cpp): in flight from now as call r.fold.k->seq, folded by progress().
// r's plan is the call's.
void start_kept(CollRequest& r);
void start_deferred(CollRequest& r);
void start_task(CollRequest& r);
// Starts a request's call as start_mode() says: r is complete now, or in flight
// (completed by progress()).
void start(CollRequest& r);

// A request that takes over p (swapped with its own recycled plan), with a reference
// on the op p borrowed.
CollRequest* request_for(Plan& p);
// The handle of a call (`call` on c) that failed at issue (run_at_issue returned cls,
// why): a complete request of its own carrying the error, raised through the
// communicator's handler.
MPI_Request failed_at_issue(CommObj* c, const char* call, int cls, const std::string& why);
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
