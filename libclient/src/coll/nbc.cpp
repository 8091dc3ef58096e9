#include "coll/nbc.hpp"

#include <sched.h>

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

void task_main(void* arg) {
  auto* r = static_cast<CollRequest*>(arg);
  std::string why;
  const int cls = run(r->plan, why);
  // The error code is made here, on the task: the request's status is read only once
  // the task has returned.
  int code = MPI_SUCCESS;
  if (!r->plan.ok()) {
    code = make_error_code(r->plan.cls, r->plan.msg);
  } else if (cls != MPI_SUCCESS) {
    code = make_error_code(cls, std::string(r->plan.call) + ": " + why);
  }
  r->status.MPI_ERROR = code;
}

void finished(CollRequest& r) {
  unlink(r);
  r.running = false;
  --r.plan.comm->nbc_running;
  if (r.orphan) delete &r;
}

}  // namespace

namespace {
// Freed request memory, reused by the next request (MPI calls are serialized).
struct FreeBlock {
  FreeBlock* next;
};
FreeBlock* g_free_requests = nullptr;
}  // namespace

// Under AddressSanitizer every request is a fresh allocation, so that a use after
// MPI_Wait freed it is caught.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPool = false;
#else
constexpr bool kPool = true;
#endif

void* CollRequest::operator new(std::size_t bytes) {
  if (kPool && bytes == sizeof(CollRequest) && g_free_requests != nullptr) {
    FreeBlock* b = g_free_requests;
    g_free_requests = b->next;
    return b;
  }
  return ::operator new(bytes);
}

void CollRequest::operator delete(void* p, std::size_t bytes) {
  if (!kPool || bytes != sizeof(CollRequest)) return ::operator delete(p);
  auto* b = static_cast<FreeBlock*>(p);
  b->next = g_free_requests;
  g_free_requests = b;
}

CollRequest::CollRequest() : RequestObj(Kind::coll) {
  poll = &poll_request;
  task.fn = &task_main;
  task.arg = this;
  task.scratch = scratch;
}

CollRequest::~CollRequest() {
  CommObj* c = plan.comm;
  plan.release();
  if (c != nullptr && --c->nbc_requests == 0 && c->freed) comm::destroy(c);
}

CollRequest* as_coll(RequestObj* r) {
  return r != nullptr && r->kind == RequestObj::Kind::coll ? static_cast<CollRequest*>(r) : nullptr;
}

void attach(CollRequest& r) {
  ++r.plan.comm->nbc_requests;
  r.owner = r.plan.comm;
  r.raise_on_owner = &raise_on_comm;
}

void start(CollRequest& r) {
  set_empty_status(r.status);
  r.status.MPI_ERROR = MPI_SUCCESS;
  r.complete.store(false, std::memory_order_relaxed);
  r.active = true;
  r.running = true;
  ++r.plan.comm->nbc_running;
  link(r);
  if (launch(r.task)) finished(r);
}

bool in_flight() { return g_head != nullptr; }

bool progress() {
  if (g_head == nullptr || current_task() != nullptr) return g_head != nullptr;
  for (CollRequest* r = g_head; r != nullptr;) {
    CollRequest* next = r->next;
    if (runnable(r->task) && resume(r->task)) finished(*r);
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
  std::uint32_t spins = 0;
  while (c->nbc_running > 0) {
    progress();
    if (c->nbc_running == 0) break;
    if (job_aborted()) return false;
    if (++spins < g_wait.spin_limit) {
      cpu_relax();
    } else if (spins < g_wait.spin_limit + 64) {
      sched_yield();
    } else {
      sleep_on_oldest(1'000'000);
    }
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
