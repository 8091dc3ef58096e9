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
// Starts the request's task: the call takes its sequence number now and runs until it
// first has to wait. The request completes in progress() (at once if the call did).
void start(CollRequest& r);

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
