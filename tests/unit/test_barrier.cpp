// Both barrier algorithms, run by forked processes on an anonymous shared segment: no
// rank may leave barrier i before every rank has arrived at it, over thousands of
// generations, including with more processes than cores (sleeping waiters); and an
// abort ends every wait.
#include <doctest/doctest.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "barrier.hpp"
#include "job.hpp"
#include "shm_layout/segment_init.hpp"
#include "wait.hpp"

using namespace shmpi;
using namespace shmpi::layout;

namespace {

constexpr int kIters = 3000;

struct Shared {
  std::atomic<std::uint32_t> arrived[kIters];
  std::atomic<std::uint32_t> failures;
};

struct Job {
  Job(std::uint32_t n, BarrierAlgo algo) : n(n), algo(algo), size(segment_size_for(n)) {
    seg = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    shared = static_cast<Shared*>(
        mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    REQUIRE(seg != MAP_FAILED);
    REQUIRE(shared != MAP_FAILED);
    SegmentParams p;
    p.nranks = n;
    p.barrier_algo = algo;
    init_segment(seg, p);
  }
  ~Job() {
    munmap(seg, size);
    munmap(shared, sizeof(Shared));
  }
  SegmentView view() const { return SegmentView(seg, size); }
  void enter_as(std::uint32_t rank, std::uint32_t spin, std::uint32_t yield = 0, bool asym = false) const {
    client::g_wait.abort = &view().header().abort;
    client::g_wait.self = &view().slot(rank);
    client::g_wait.segment_base = view().base();
    client::g_wait.spin_limit = spin;
    client::g_wait.yield_limit = yield;
    client::g_wait.asymmetric =
        asym && syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0) == 0;
  }
  std::uint32_t n;
  BarrierAlgo algo;
  std::size_t size;
  void* seg;
  Shared* shared;
};

// Runs `body(rank)` in n forked processes; returns the number that exited non-zero.
template <class Body>
int run_ranks(std::uint32_t n, Body body) {
  std::vector<pid_t> pids;
  for (std::uint32_t r = 0; r < n; ++r) {
    const pid_t p = fork();
    REQUIRE(p >= 0);
    if (p == 0) _exit(body(r));
    pids.push_back(p);
  }
  int bad = 0;
  for (pid_t p : pids) {
    int st = 0;
    waitpid(p, &st, 0);
    bad += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  return bad;
}

void check_synchronizes(std::uint32_t n, BarrierAlgo algo, std::uint32_t spin, std::uint32_t yield = 0,
                        bool asym = false, bool one_core = false) {
  Job job(n, algo);
  const auto t0 = std::chrono::steady_clock::now();
  const int bad = run_ranks(n, [&](std::uint32_t rank) {
    job.enter_as(rank, spin, yield, asym);
    // one_core: every rank believes all others share its core (the yield hint's path).
    client::CoreMates mates;
    mates.known = one_core;
    for (std::uint32_t r = 0; one_core && r < n; ++r) {
      if (r != rank) mates.slots.push_back(&job.view().slot(r));
    }
    for (int i = 0; i < kIters; ++i) {
      job.shared->arrived[i].fetch_add(1);
      if (!client::world_barrier(job.view(), rank, algo, mates)) return 2;
      // Everyone must have arrived at barrier i before anyone leaves it.
      if (job.shared->arrived[i].load() != n) job.shared->failures.fetch_add(1);
    }
    return 0;
  });
  CHECK(bad == 0);
  CHECK(job.shared->failures.load() == 0);
  for (std::uint32_t r = 0; r < n; ++r) CHECK(job.view().slot(r).barriers_completed.load() == kIters);
  // Not a speed test: a lost wake costs a 50 ms sleep slice, so a broken sleep handshake
  // turns these 3000 barriers into minutes; a working one takes well under a second.
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
}

}  // namespace

TEST_CASE("dissemination barrier synchronizes (2, 3, 5 ranks; spinning and sleeping)") {
  for (std::uint32_t n : {2u, 3u, 5u}) {
    CAPTURE(n);
    check_synchronizes(n, BarrierAlgo::dissemination, 4000);
    check_synchronizes(n, BarrierAlgo::dissemination, 0);  // every wait sleeps on the futex
    check_synchronizes(n, BarrierAlgo::dissemination, 8, 64);
    check_synchronizes(n, BarrierAlgo::dissemination, 0, 0, true);  // membarrier handshake
    check_synchronizes(n, BarrierAlgo::dissemination, 20, 0, true);
  }
}

TEST_CASE("central barrier synchronizes (2, 3, 8 ranks; spinning and sleeping)") {
  for (std::uint32_t n : {2u, 3u, 8u}) {
    CAPTURE(n);
    check_synchronizes(n, BarrierAlgo::central, 4000);
    check_synchronizes(n, BarrierAlgo::central, 0);
    check_synchronizes(n, BarrierAlgo::central, 8, 64);  // the oversubscribed budget: spin, yield, sleep
    check_synchronizes(n, BarrierAlgo::central, 0, 0, true);  // membarrier handshake
    check_synchronizes(n, BarrierAlgo::central, 8, 64, true);
    check_synchronizes(n, BarrierAlgo::central, 8, 64, true, true);  // yield only while a core-mate needs it
    check_synchronizes(n, BarrierAlgo::central, 0, 4, false, true);
  }
}

TEST_CASE("an abort ends every barrier wait, sleeping or spinning, within a second") {
  for (BarrierAlgo algo : {BarrierAlgo::dissemination, BarrierAlgo::central}) {
    Job job(4, algo);
    const auto t0 = std::chrono::steady_clock::now();
    // Ranks 0-2 enter a barrier that rank 3 never reaches; rank 3 plays the broker.
    const int bad = run_ranks(4, [&](std::uint32_t rank) {
      job.enter_as(rank, 100);
      if (rank == 3) {
        usleep(100000);
        daemon::abort_segment(job.view(), {AbortKind::rank_died, 3, getpid(), 9, 9});
        return 0;
      }
      return client::world_barrier(job.view(), rank, algo) ? 1 : 0;  // must fail
    });
    const auto dt = std::chrono::steady_clock::now() - t0;
    CHECK(bad == 0);
    CHECK(dt < std::chrono::seconds(1));
    CHECK(job.view().header().abort.state.load() == 1);
  }
}
