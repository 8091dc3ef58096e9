#include "coll/nbc.hpp"

#include "coll/path_choice.hpp"
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

// The request's error code for a run of its plan that returned `cls`.
void set_outcome(CollRequest& r, int cls, const std::string& why) {
  r.status.MPI_ERROR = cls == MPI_SUCCESS ? MPI_SUCCESS : make_error_code(cls, std::string(r.plan.call) + ": " + why);
}

bool poll_request(RequestObj* base) {
  auto* r = static_cast<CollRequest*>(base);
  if (r->running) progress();
  return !r->running;
}

// Runs the request's plan (on its task, or at issue) and sets its status's MPI_ERROR.
void run_plan(CollRequest& r) {
  std::string why;
  const int cls = run(r.plan, why);
  r.plan.part = Part::whole;  // a deferred call's rest (run_deferred): once
  // The error code is made by the run itself: the request's status is read only once
  // the task has returned.
  if (!r.plan.ok()) {
    r.status.MPI_ERROR = make_error_code(r.plan.cls, r.plan.msg);
  } else {
    set_outcome(r, cls, why);
  }
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
  deferred = Deferred::no;
  fold.k.reset();
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

Start start_mode(const Plan& p) {
  if (!first_in_line(p)) return Start::task;
  const bool slot = own_slot_free(p);
  // The run's first wait decides (Part::trial, Part::bounded): no check ahead that the
  // run would repeat.
  if (slot && p.comm->block != nullptr) {
    if (p.kind == PlanKind::bcast || p.kind == PlanKind::scatter) return Start::trial;
    if (p.kind == PlanKind::reduce || p.kind == PlanKind::barrier) return Start::posting;
  }
  if (runs_through(p)) return Start::at_issue;
  if (!slot) return Start::task;
  // A slot is freed by `done`s that are published in batches (engine.cpp).
  return reserve_first(p) ? Start::deferred : Start::task;
}

namespace {
// r's call ran to its end at issue with outcome cls: r is complete.
void completed_at_issue(CollRequest& r, int cls, const std::string& why) {
  set_empty_status(r.status);
  set_outcome(r, cls, why);
  r.active = true;
  r.complete.store(true, std::memory_order_relaxed);
}
}  // namespace

CollRequest* request_for(Plan& p) {
  CollRequest* r = new_request();
  r->plan.swap(p);
  // The process's plan borrowed the op (api_coll.cpp reducer): the request holds it.
  if (r->plan.kind == PlanKind::reduce && r->plan.reducer.op != nullptr) {
    r->plan.op.o = retain_op(const_cast<OpObj*>(r->plan.reducer.op));
  }
  return r;
}

MPI_Request failed_at_issue(CommObj* c, const char* call, int cls, const std::string& why) {
  CollRequest* r = new_request();
  r->plan.comm = c;
  r->plan.call = call;
  attach(*r);
  completed_at_issue(*r, cls, why);
  return new_request_handle(r);
}

MPI_Request completed_handle() {
  if (RequestObj* p = g_preset.load(std::memory_order_relaxed)) return reinterpret_cast<MPI_Request>(p);
  // Never destroyed (the registry holds it for the whole run).
  auto* r = new CollRequest;
  set_empty_status(r->status);
  r->status.MPI_ERROR = MPI_SUCCESS;
  return new_preset_handle(r);
}

void start(CollRequest& r) {
  const Start how = start_mode(r.plan);
  if (how == Start::deferred) return start_deferred(r);
  if (how == Start::task) return start_task(r);
  std::string why;
  const int cls = run_now(how, r.plan, why);
  if (cls == kPostedOnly) {
    start_posted(r);
  } else if (cls == kNotYet || cls == kNeedsTask) {
    start_taken(r, cls == kNeedsTask);
  } else {
    completed_at_issue(r, cls, why);
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
  const bool done = launch(r.task);
  g_taken_seq.reset();  // consumed by begin() if start_taken set it; never left for another call
  if (done) {
    finished(r);
  } else if (r.task.timed) {
    r.task.left_ns = path_clock_ns();  // back to the program: not the path's time (progress())
  }
}

namespace {
// A deferred member of an allreduce whose opener folds for all (ready.hpp
// shares_result): it runs once the gate is open, not as soon as the posts are there,
// else it would fold the same inputs again beside the opener.
bool awaits_gate(const CollRequest& r) {
  return r.deferred == CollRequest::Deferred::poster && shares_result(r.plan);
}
layout::Flag& gate_of(const CollRequest& r) {
  return r.plan.comm->block->gate(static_cast<int>(r.seq % layout::kCallSlots)).release;
}

// Points the deferred call's wait at what it needs next: a member's `done` (a sender),
// else a member's post. False if nothing is missing.
bool watch_next(CollRequest& r) {
  if (r.deferred == CollRequest::Deferred::sender) {
    const int m = missing_done(r.plan, r.seq);
    if (m < 0) return false;
    r.task.wait = &r.plan.comm->block->rank(m).done;
    r.task.target = reserved_upto(r.seq, reserves_small(r.plan));
    r.task.watch = nullptr;
    return true;
  }
  if (awaits_gate(r)) {
    // Once its gate opens every member has posted and the result is there to take.
    layout::Flag& rel = gate_of(r);
    if (reached(rel.value.load(std::memory_order_acquire), r.seq)) return false;
    r.task.wait = &rel;
    r.task.target = r.seq;
    r.task.watch = nullptr;
    return true;
  }
  const int m = missing_post(r.plan, r.seq);
  if (m < 0) return false;
  const PostOf w = post_of(r.plan, m, r.seq);
  r.task.wait = w.flag;  // not read here: a miss on the member's line (sleep_on_oldest)
  r.task.target = r.seq;
  r.task.watch = w.desc_seq;
  r.task.watch_value = r.seq;
  return true;
}

// Runs the plan (its `part`, then whole again) on the caller's stack, flat, with the
// request's scratch (progress() may run inside a blocking call's wait, and that call
// may be using the communicator's).
int run_inline(CollRequest& r, std::string& why) {
  g_call_scratch = r.scratch;
  const int cls = run_at_issue(r.plan, why);
  g_call_scratch = nullptr;
  r.plan.part = Part::whole;
  return cls;
}
}  // namespace

namespace {
// In flight without a task, as call `seq`: progress() runs it once what it watches is
// there (at once if nothing is missing).
void defer(CollRequest& r, std::uint32_t seq, CollRequest::Deferred how) {
  set_running(r);
  r.deferred = how;
  r.seq = seq;
  // A kept fold looks at the posts at its first progress(): here, at issue, the
  // members' lines would cost a cross-core miss the caller's work can hide.
  if (r.fold.k || !watch_next(r)) {
    r.task.wait = nullptr;
    r.task.watch = nullptr;
  }
}

// What shmpi-dump shows a deferred call as, until its begin() runs.
layout::CollKind dump_kind(const Plan& p) {
  switch (p.kind) {
    case PlanKind::bcast: return layout::CollKind::bcast;
    case PlanKind::scatter: return layout::CollKind::scatter;
    case PlanKind::gather: return layout::CollKind::gather;
    case PlanKind::reduce: return coll_kind(p.rkind);
    default: return layout::CollKind::other;
  }
}
}  // namespace

void start_deferred(CollRequest& r) {
  defer(r, take_seq(r.plan.comm, dump_kind(r.plan)), CollRequest::Deferred::sender);  // reserve_first
}

void start_posted(CollRequest& r) {
  const std::uint32_t seq = r.plan.comm->seq;  // run_posting took the number
  if (g_posted_fold.k && g_posted_fold.k->comm == r.plan.comm && g_posted_fold.k->seq == seq) {
    r.fold = std::move(g_posted_fold);
  }
  g_posted_fold.k.reset();
  if (r.fold.k) return start_kept(r);
  defer(r, seq, CollRequest::Deferred::poster);
}

void start_kept(CollRequest& r) {
  defer(r, r.fold.k->seq, CollRequest::Deferred::poster);
  r.fold.issued = ticks();
}

void start_taken(CollRequest& r, bool on_task) {
  const std::uint32_t seq = r.plan.comm->seq;  // run_trial took it
  if (!on_task) {
    // A reader waits for its root's post; a root or a reduction member for its slot.
    defer(r, seq, reads_first(r.plan) ? CollRequest::Deferred::reader : CollRequest::Deferred::sender);
    return;
  }
  g_taken_seq = seq;  // its begin() takes it before any wait
  start_task(r);
}

bool in_flight() { return g_head != nullptr; }

namespace {
// A deferred call whose awaited flag moved (or the job aborted): runs the call, or
// its part after its post, now if it need not wait, else on its task. A call that
// still misses a post or a `done` it waits for first stays deferred. True if it
// finished.
bool run_deferred(CollRequest& r) {
  if (r.fold.k) {
    const FoldStep step = run_posted_fold(r.fold, r.plan.reducer);
    if (step == FoldStep::waiting) {
      if (!watch_next(r)) r.task.wait = nullptr;  // came meanwhile: folded at the next progress()
      return false;
    }
    r.fold.k.reset();
    if (step == FoldStep::done) {
      r.deferred = CollRequest::Deferred::no;
      r.status.MPI_ERROR = MPI_SUCCESS;
      return true;
    }
  }
  const bool through = runs_through(r.plan, r.seq) &&
                       (!awaits_gate(r) || reached(gate_of(r).value.load(std::memory_order_acquire), r.seq));
  if (!through && !job_aborted() && watch_next(r)) return false;
  const bool posted = r.deferred == CollRequest::Deferred::poster;
  r.deferred = CollRequest::Deferred::no;
  g_taken_seq = r.seq;  // its begin() takes it before any wait
  r.plan.part = posted ? Part::after_post : Part::whole;
  bool done = true;
  if (through) {
    std::string why;
    const int cls = run_inline(r, why);
    set_outcome(r, cls, why);
  } else {
    done = launch(r.task);  // run_plan() resets the part
  }
  g_taken_seq.reset();  // consumed by begin(); never left for another call
  return done;
}
}  // namespace

bool progress() {
  if (g_head == nullptr || current_task() != nullptr) return g_head != nullptr;
  std::uint64_t now = 0;
  for (CollRequest* r = g_head; r != nullptr;) {
    CollRequest* next = r->next;
    if (r->task.left_ns != 0) {
      // The first progress since its start at issue: the program ran meanwhile.
      if (now == 0) now = path_clock_ns();
      r->task.away_ns += now - r->task.left_ns;
      r->task.left_ns = 0;
    }
    const bool deferred = r->deferred != CollRequest::Deferred::no;
    if (runnable(r->task) && (deferred ? run_deferred(*r) : resume(r->task))) finished(*r);
    r = next;
  }
  return g_head != nullptr;
}

void sleep_on_oldest(long timeout_ns) {
  for (CollRequest* r = g_head; r != nullptr; r = r->next) {
    if (layout::Flag* f = r->task.wait) {
      std::uint32_t target = r->task.target;
      // A task watching a descriptor sleeps until `posted` moves: it may be past the
      // call's number already (a later call posted first), then it wakes at the next post.
      // The flag is read before the descriptor (as wait_posted): a post after the
      // descriptor check raises the flag past `now`.
      if (r->task.watch != nullptr) {
        const std::uint32_t now = f->value.load(std::memory_order_acquire);
        if (r->task.watch->load(std::memory_order_acquire) == r->task.watch_value) return;
        if (reached(now, target)) target = now + 1;
      }
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
