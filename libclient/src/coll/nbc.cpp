#include "coll/nbc.hpp"

#include "coll/ready.hpp"
#include "comm/comm.hpp"
#include "errors.hpp"
#include "objects.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

// In-flight requests, oldest first: resumed in start order, so on each communicator
// the task of an earlier call runs before a later one.
CollRequest* g_head = nullptr;
CollRequest* g_tail = nullptr;

void link(CollRequest& r) {
  r.prev = g_tail;
  r.next = nullptr;
  (g_tail != nullptr ? g_tail->next : g_head) = &r;
  g_tail = &r;
}

void unlink(CollRequest& r) {
  (r.prev != nullptr ? r.prev->next : g_head) = r.next;
  (r.next != nullptr ? r.next->prev : g_tail) = r.prev;
  r.prev = r.next = nullptr;
}

int raise_on_comm(void* owner, int code) { return invoke_errhandler(static_cast<CommObj*>(owner), code); }

bool poll_request(RequestObj* base) {
  auto* r = static_cast<CollRequest*>(base);
  if (r->running) progress();
  return !r->running;
}

// Runs the request's plan (on its task, or at issue) and sets its status's MPI_ERROR.
void run_plan(CollRequest& r) {
  std::string why;
  const int cls = run(r.plan, why);
  // The error code is made by the run itself: the request's status is read only once
  // the task has returned.
  int code = MPI_SUCCESS;
  if (!r.plan.ok()) {
    code = make_error_code(r.plan.cls, r.plan.msg);
  } else if (cls != MPI_SUCCESS) {
    code = make_error_code(cls, std::string(r.plan.call) + ": " + why);
  }
  r.status.MPI_ERROR = code;
}

void task_main(void* arg) { run_plan(*static_cast<CollRequest*>(arg)); }

void finished(CollRequest& r) {
  unlink(r);
  r.running = false;
  --r.plan.comm->nbc_running;
  if (r.orphan) r.dispose();
}

}  // namespace

CollRequest::CollRequest() : RequestObj(Kind::coll) {
  poll = &poll_request;
  task.fn = &task_main;
  task.arg = this;
  task.scratch = scratch;
}

namespace {
// Disposed requests, still constructed. Under AddressSanitizer every request is a fresh
// allocation instead, so that a use after MPI_Wait freed it is caught.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRecycle = false;
#else
constexpr bool kRecycle = true;
#endif
CollRequest* g_spare = nullptr;

// Lets go of the communicator: a freed one goes with its last request.
void detach(CollRequest& r) {
  CommObj* c = static_cast<CommObj*>(r.owner);
  r.owner = nullptr;
  if (c != nullptr && --c->nbc_requests == 0 && c->freed) comm::destroy(c);
}
}  // namespace

CollRequest::~CollRequest() {
  plan.release();
  detach(*this);
}

void CollRequest::dispose() {
  if (!kRecycle) {
    delete this;
    return;
  }
  plan.release();
  detach(*this);
  // The RequestObj state a new request starts with (request.hpp).
  complete.store(false, std::memory_order_relaxed);
  status = MPI_Status{};
  persistent = false;
  active = true;
  user_freed = false;
  mark = 0;
  mark_index = 0;
  running = false;
  orphan = false;
  deferred = false;
  next = g_spare;
  g_spare = this;
}

CollRequest* new_request() {
  CollRequest* r = g_spare;
  if (r == nullptr) return new CollRequest;
  g_spare = r->next;
  r->next = nullptr;
  return r;
}

CollRequest* as_coll(RequestObj* r) {
  return r != nullptr && r->kind == RequestObj::Kind::coll ? static_cast<CollRequest*>(r) : nullptr;
}

void attach(CollRequest& r) {
  ++r.plan.comm->nbc_requests;
  r.owner = r.plan.comm;
  r.raise_on_owner = &raise_on_comm;
}

bool can_run_at_issue(const Plan& p) {
  // With a call of this communicator in flight, begin() would wait for it (and the
  // sequence numbers must go to the calls in issue order anyway).
  return p.ok() && p.comm->nbc_running == 0 && current_task() == nullptr && runs_through(p);
}

int run_at_issue(Plan& p, std::string& why) {
  g_at_issue = true;
  const int cls = run(p, why);
  g_at_issue = false;
  return cls;
}

bool start_at_issue(CollRequest& r) {
  if (!can_run_at_issue(r.plan)) return false;
  set_empty_status(r.status);
  std::string why;
  const int cls = run_at_issue(r.plan, why);
  r.status.MPI_ERROR = cls == MPI_SUCCESS ? MPI_SUCCESS : make_error_code(cls, std::string(r.plan.call) + ": " + why);
  r.active = true;
  r.complete.store(true, std::memory_order_relaxed);
  return true;
}

CollRequest* request_for(Plan& p) {
  CollRequest* r = new_request();
  std::swap(r->plan, p);
  // The process's plan borrowed the op (api_coll.cpp reducer): the request holds it.
  if (r->plan.kind == PlanKind::reduce && r->plan.reducer.op != nullptr) {
    r->plan.op.o = retain_op(const_cast<OpObj*>(r->plan.reducer.op));
  }
  return r;
}

MPI_Request completed_handle() {
  static const MPI_Request h = [] {
    // Never destroyed (the registry holds it for the whole run).
    auto* r = new CollRequest;
    set_empty_status(r->status);
    r->status.MPI_ERROR = MPI_SUCCESS;
    return new_preset_handle(r);
  }();
  return h;
}

void start(CollRequest& r) {
  if (start_at_issue(r)) return;
  if (can_defer(r.plan)) {
    start_deferred(r);
  } else {
    start_task(r);
  }
}

namespace {
// In flight from now (the in-flight list, in start order).
void set_running(CollRequest& r) {
  set_empty_status(r.status);
  r.status.MPI_ERROR = MPI_SUCCESS;
  r.complete.store(false, std::memory_order_relaxed);
  r.active = true;
  r.running = true;
  ++r.plan.comm->nbc_running;
  link(r);
}
}  // namespace

void start_task(CollRequest& r) {
  set_running(r);
  if (launch(r.task)) finished(r);
}

bool can_defer(const Plan& p) {
  const CommObj* c = p.comm;
  // begin() must not have to wait for our own call seq - kCallSlots (it will not run
  // at issue), and the calls in flight keep their order: none on this communicator.
  return p.ok() && c->nbc_running == 0 && current_task() == nullptr && reads_first(p) &&
         reached(c->done_upto, c->seq + 1 - layout::kCallSlots);
}

void start_deferred(CollRequest& r) {
  set_running(r);
  r.deferred = true;
  r.seq = take_seq(r.plan.comm, r.plan.kind == PlanKind::bcast ? layout::CollKind::bcast : layout::CollKind::scatter);
  const FirstWait w = first_wait(r.plan, r.seq);
  r.task.wait = w.flag;
  // As wait_posted: `posted` past seq (a later call posted first) wakes at its next raise.
  const std::uint32_t now = w.flag->value.load(std::memory_order_acquire);
  r.task.target = reached(now, r.seq) ? now + 1 : r.seq;
  r.task.watch = w.desc_seq;
  r.task.watch_value = r.seq;
}

bool in_flight() { return g_head != nullptr; }

namespace {
// A deferred call whose root posted (or the job aborted): runs it now if it need not
// wait, else launches its task. True if it finished.
bool run_deferred(CollRequest& r) {
  r.deferred = false;
  r.task.wait = nullptr;
  r.task.watch = nullptr;
  g_taken_seq = r.seq;
  if (runs_through(r.plan, r.seq)) {
    // progress() may run inside a blocking call's wait: its own scratch, not the
    // communicator's, which that call may be using.
    std::string why;
    g_call_scratch = r.scratch;
    const int cls = run_at_issue(r.plan, why);
    g_call_scratch = nullptr;
    g_taken_seq.reset();  // consumed by begin(); never left for another call
    r.status.MPI_ERROR = cls == MPI_SUCCESS ? MPI_SUCCESS : make_error_code(cls, std::string(r.plan.call) + ": " + why);
    return true;
  }
  const bool done = launch(r.task);  // its begin() takes g_taken_seq before any wait
  g_taken_seq.reset();
  return done;
}
}  // namespace

bool progress() {
  if (g_head == nullptr || current_task() != nullptr) return g_head != nullptr;
  for (CollRequest* r = g_head; r != nullptr;) {
    CollRequest* next = r->next;
    if (runnable(r->task) && (r->deferred ? run_deferred(*r) : resume(r->task))) finished(*r);
    r = next;
  }
  return g_head != nullptr;
}

void sleep_on_oldest(long timeout_ns) {
  for (CollRequest* r = g_head; r != nullptr; r = r->next) {
    if (layout::Flag* f = r->task.wait) {
      const std::uint32_t target = r->task.target;
      sleep_on_flag(*f, timeout_ns, [target](std::uint32_t seen) { return reached(seen, target); });
      return;
    }
  }
}

bool comm_free(CommObj* c) {
  // Waits the way MPI_Wait does (its sleep runs progress() and sleeps on a task's flag).
  Backoff backoff;
  for (;;) {
    const std::uint32_t gen = Backoff::generation();
    progress();
    if (c->nbc_running == 0) break;
    if (job_aborted()) return false;
    backoff.pause(gen, true, true);
  }
  if (c->nbc_requests > 0) {
    c->freed = true;
    comm::retire(c);
  } else {
    comm::destroy(c);
  }
  return true;
}

}  // namespace shmpi::client::coll
