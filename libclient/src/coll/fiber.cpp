#include "coll/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/fiber.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "wait.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define SHMPI_FIBER_ASAN 1
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#define SHMPI_FIBER_TSAN 1
#include <sanitizer/tsan_interface.h>
#endif

namespace shmpi::client::coll {

namespace ctx = boost::context;

namespace {

// Stack per worker. Only touched pages cost memory (MAP_NORESERVE); user op callbacks
// run on it too, hence generous. A guard page below catches an overflow.
constexpr std::size_t kStackBytes = std::size_t{1} << 20;

struct Stack {
  std::byte* lo = nullptr;  // usable bottom (above the guard page)
  std::size_t size = 0;
};

Stack map_stack() {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                 -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr, "shmpi: cannot map a %zu-byte stack for a nonblocking collective\n", kStackBytes);
    std::abort();
  }
  mprotect(p, page, PROT_NONE);
  return Stack{static_cast<std::byte*>(p) + page, kStackBytes};
}

// Boost.Context allocator handing out the worker's own stack. Workers never end, so
// deallocate() is never reached.
struct OwnStack {
  Stack s;
  ctx::stack_context allocate() {
    ctx::stack_context c;
    c.size = s.size;
    c.sp = s.lo + s.size;
    return c;
  }
  void deallocate(ctx::stack_context&) noexcept {}
};

}  // namespace

// A side stack with a context that loops: run a task, switch back, wait for the next.
struct Worker {
  Stack stack;
  ctx::fiber self;    // the worker's context while it is suspended
  ctx::fiber caller;  // whoever resumed it, while it runs
  Task* task = nullptr;
  bool finished = false;  // the task returned (set before the worker switches back)
#if SHMPI_FIBER_ASAN
  void* caller_fake = nullptr;
  void* worker_fake = nullptr;
  const void* caller_bottom = nullptr;
  std::size_t caller_size = 0;
#endif
#if SHMPI_FIBER_TSAN
  void* caller_tsan = nullptr;
  void* worker_tsan = nullptr;
#endif
  Worker* next_free = nullptr;

  // Worker side: back to the caller (a yield, or the end of a task).
  void switch_out() {
#if SHMPI_FIBER_ASAN
    __sanitizer_start_switch_fiber(&worker_fake, caller_bottom, caller_size);
#endif
#if SHMPI_FIBER_TSAN
    __tsan_switch_to_fiber(caller_tsan, 0);
#endif
    caller = std::move(caller).resume();
    switched_in();
  }
  void switched_in() {
#if SHMPI_FIBER_ASAN
    __sanitizer_finish_switch_fiber(worker_fake, &caller_bottom, &caller_size);
#endif
  }
  // Caller side: into the worker until it switches back.
  void switch_in() {
#if SHMPI_FIBER_ASAN
    __sanitizer_start_switch_fiber(&caller_fake, stack.lo, stack.size);
#endif
#if SHMPI_FIBER_TSAN
    caller_tsan = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(worker_tsan, 0);
#endif
    self = std::move(self).resume();
#if SHMPI_FIBER_ASAN
    __sanitizer_finish_switch_fiber(caller_fake, nullptr, nullptr);
#endif
  }
};

namespace {

Worker* g_free = nullptr;     // idle workers

Worker* take_worker() {
  if (Worker* w = g_free) {
    g_free = w->next_free;
    return w;
  }
  // Never freed: a worker's context is suspended inside its loop, and destroying a
  // suspended Boost.Context fiber would unwind it. The pool only grows to the most
  // tasks ever in flight at once.
  auto* w = new Worker;
  w->stack = map_stack();
#if SHMPI_FIBER_TSAN
  w->worker_tsan = __tsan_create_fiber(0);
#endif
  w->self = ctx::fiber(std::allocator_arg, OwnStack{w->stack}, [w](ctx::fiber&& caller) {
    w->caller = std::move(caller);
    w->switched_in();
    for (;;) {
      w->task->fn(w->task->arg);
      w->finished = true;
      w->switch_out();
    }
    return std::move(w->caller);
  });
  return w;
}

bool run(Task& t) {
  Worker* w = t.worker;
  Task* outer = g_current;
  g_current = &t;
  w->switch_in();
  g_current = outer;
  if (!w->finished) return false;
  w->finished = false;
  w->task = nullptr;
  t.worker = nullptr;
  w->next_free = g_free;
  g_free = w;
  return true;
}

}  // namespace

bool launch(Task& t) {
  t.wait = nullptr;
  t.watch = nullptr;
  t.timed = false;
  t.away_ns = t.left_ns = 0;
  t.worker = take_worker();
  t.worker->task = &t;
  return run(t);
}

bool resume(Task& t) { return run(t); }

Task* g_current = nullptr;

bool g_at_issue = false;

void yield_on(layout::Flag& f, std::uint32_t target, const std::atomic<std::uint32_t>* watch, std::uint32_t watch_value) {
  Task* t = g_current;
  t->wait = &f;
  t->target = target;
  t->watch = watch;
  t->watch_value = watch_value;
  t->worker->switch_out();
  t->wait = nullptr;
  t->watch = nullptr;
}

bool runnable(const Task& t) {
  if (t.wait == nullptr) return true;
  if (t.watch != nullptr ? t.watch->load(std::memory_order_acquire) == t.watch_value
                         : reached(t.wait->value.load(std::memory_order_acquire), t.target)) {
    return true;
  }
  return job_aborted();
}

}  // namespace shmpi::client::coll
