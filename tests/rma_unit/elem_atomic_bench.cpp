// Micro-benchmark of the per-element atomics (libclient/src/rma/elem_atomic.hpp): ns per
// call through the table's function pointer, on one cache line
//   uncontended: one thread on its own line;
//   contended:   two threads pinned to two different CPUs on the same line (ns per call
//                as each thread sees it: wall time / calls per thread).
// A plain inline __atomic_fetch_add on int64 is the floor to compare with.
// Built, not run as a test: build-dir/tests/rma_unit/elem_atomic_bench [calls per thread] [runs]
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "ops/elem_types.hpp"
#include "rma/elem_atomic.hpp"

using namespace shmpi::ops;
using namespace shmpi::rma;

namespace {

struct alignas(64) Line {
  unsigned char bytes[64];
};

using Body = std::function<void(void* target, long iters)>;

struct Case {
  const char* name;
  Body body;
};

double now_ns() {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

struct Stats {
  double min, median;
};

// `reps` runs of `threads` threads each doing `iters` calls on one shared line: ns per call
// of the slowest thread, best and median run (the median is the robust figure for the
// contended case, where a preempted partner makes a run look uncontended).
Stats run(const Body& body, int threads, long iters, int reps, const std::vector<int>& cpus) {
  std::vector<double> per_call;
  for (int r = 0; r < reps; ++r) {
    Line line{};
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<double> took(threads, 0);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) {
      ts.emplace_back([&, t] {
        if (!cpus.empty()) pin(cpus[t % cpus.size()]);
        ready.fetch_add(1);
        while (!go.load()) {
        }
        const double t0 = now_ns();
        body(line.bytes, iters);
        took[t] = now_ns() - t0;
      });
    }
    while (ready.load() < threads) {
    }
    go.store(true);
    for (auto& t : ts) t.join();
    per_call.push_back(*std::max_element(took.begin(), took.end()) / double(iters));
  }
  std::sort(per_call.begin(), per_call.end());
  return {per_call.front(), per_call[per_call.size() / 2]};
}

template <class T>
Body fetch_op(OpKind op, Elem e, T inc, bool want_result) {
  const AtomicFn f = atomic_fn(op, e);
  if (f == nullptr || !atomic_aligned(e, reinterpret_cast<void*>(std::uintptr_t{64}))) return nullptr;
  return [f, inc, want_result](void* target, long iters) {
    T old{};
    T* res = want_result ? &old : nullptr;
    for (long i = 0; i < iters; ++i) f(&inc, target, res);
    asm volatile("" : : "r"(&old) : "memory");
  };
}

// CAS increment that succeeds when uncontended: compare = the value last seen.
Body cas_increment() {
  const CasFn f = cas_fn(Elem::i64);
  return [f](void* target, long iters) {
    std::int64_t seen = 0;
    for (long i = 0; i < iters; ++i) {
      const std::int64_t next = seen + 1;
      std::int64_t old;
      f(&next, &seen, target, &old);
      seen = old == seen ? next : old;
    }
  };
}

}  // namespace

int main(int argc, char** argv) {
  const long iters = argc > 1 ? std::atol(argv[1]) : 500000;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 11;
  const unsigned ncpu = std::thread::hardware_concurrency();
  std::vector<int> two_cpus;
  {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
      for (int c = 0; c < CPU_SETSIZE && two_cpus.size() < 2; ++c)
        if (CPU_ISSET(c, &set)) two_cpus.push_back(c);
  }
  const std::vector<Case> cases = {
      {"inline __atomic_fetch_add int64 (floor)",
       [](void* t, long n) {
         auto* p = static_cast<std::int64_t*>(t);
         std::int64_t s = 0;
         for (long i = 0; i < n; ++i) s += __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
         asm volatile("" : : "r"(s));
       }},
      {"fetch_and_op SUM int64 (lock xadd)", fetch_op<std::int64_t>(OpKind::sum, Elem::i64, 1, true)},
      {"accumulate SUM int64, no result (lock add)", fetch_op<std::int64_t>(OpKind::sum, Elem::i64, 1, false)},
      {"fetch_and_op SUM double (cmpxchg loop)", fetch_op<double>(OpKind::sum, Elem::f64, 1.0, true)},
      {"fetch_and_op MAX double (cmpxchg loop)", fetch_op<double>(OpKind::max, Elem::f64, 1.0, true)},
      {"fetch_and_op NO_OP int64 (load)", fetch_op<std::int64_t>(OpKind::no_op, Elem::i64, 0, true)},
      {"fetch_and_op REPLACE int64 (xchg)", fetch_op<std::int64_t>(OpKind::replace, Elem::i64, 1, true)},
      {"compare_and_swap int64 (lock cmpxchg)", cas_increment()},
      {"fetch_and_op SUM complex<double> (cmpxchg16b)",
       fetch_op<Complex<double>>(OpKind::sum, Elem::c64, Complex<double>{1.0, 1.0}, true)},
      {"fetch_and_op MAXLOC double_int (cmpxchg16b)",
       fetch_op<DoubleInt>(OpKind::maxloc, Elem::double_int, DoubleInt{1.0, 1}, true)},
  };
  std::printf("elem_atomic_bench: %ld calls per thread, %d runs; %u CPUs, contended on CPUs %d,%d\n",
              iters, reps, ncpu, two_cpus.size() > 0 ? two_cpus[0] : -1, two_cpus.size() > 1 ? two_cpus[1] : -1);
  std::printf("%-48s %22s %22s\n", "ns per call", "uncontended min/median", "2 threads min/median");
  for (const Case& c : cases) {
    if (!c.body) {
      std::printf("%-48s %22s %22s\n", c.name, "n/a", "n/a");
      continue;
    }
    const Stats one = run(c.body, 1, iters, reps, {});
    const Stats two = two_cpus.size() >= 2 ? run(c.body, 2, iters, reps, two_cpus) : Stats{0, 0};
    std::printf("%-48s %10.2f / %9.2f %10.2f / %9.2f\n", c.name, one.min, one.median, two.min, two.median);
  }
  return 0;
}
