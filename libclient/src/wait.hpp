// Waiting on in-segment flags: spin briefly, then sleep on the flag's futex; every
// wait also watches the job's abort word, so a dead peer ends the wait with an error
// instead of a hang.
//
// Memory orders. A flag writer publishes data with a release store of the new value;
// the waiter's acquire load of that value makes the data visible. The sleep handshake
// is Dekker-style: the waiter increments `sleepers` then re-reads `value` (both
// seq_cst); the writer stores `value`, then reads `sleepers` with a read-modify-write
// (a full fence on x86, and an ordering TSan can check).
// One of them sees the other, so a wake is never lost, and a writer only pays for
// FUTEX_WAKE when somebody actually sleeps.
//
// Asymmetric mode (Linux membarrier, registered at MPI_Init): the writer's fence is
// only a compiler barrier, and a waiter about to sleep pays instead with
// membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED), which makes every running rank execute a
// full barrier. The fast path (nobody sleeps) then has no fence at all; sleeping is the
// rare path and costs ~0.2 us more. Without membarrier the writer fences (below).
//
// The writer's RMW may be deferred (post_flag + owe the wake): an RMW right after
// the store stalls until the store owns the cache line, i.e. one cross-core transfer
// spent before the writer can start polling its own next flag. A rank that posts and
// then waits settles the debt during its wait (asymmetric mode: after its first pause),
// when it ends, or before it sleeps -- so a reader that fell asleep on the posted flag
// is woken no later than the writer stops spinning, and the dissemination barrier's
// round k never depends on a round-k wake.
#pragma once

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

#include "shm_layout/segment.hpp"
#include "shmpi_common/futex.hpp"

namespace shmpi::client {

// Per-process wait parameters, fixed at MPI_Init.
struct WaitContext {
  const layout::AbortWord* abort = nullptr;
  layout::RankSlot* self = nullptr;  // where we publish what we sleep on
  std::byte* segment_base = nullptr;
  std::size_t segment_size = 0;      // flags outside [base, base + size) are not published
  std::uint32_t spin_limit = 4000;   // pause iterations before yielding/sleeping
  // The same for waits in collectives (coll/engine.cpp, barrier.cpp): oversubscribed,
  // the member waited for most likely shares this core, so the waiter yields at once.
  std::uint32_t coll_spin_limit = 4000;
  // How long a nonblocking collective polls, inside its MPI_Ix, for members' posts it
  // needs before it returns a request in flight (poll_briefly); 0 oversubscribed (the
  // members need our core).
  std::uint64_t issue_spin_ns = 0;
  std::uint32_t yield_limit = 0;     // sched_yield rounds before sleeping (oversubscribed)
  bool asymmetric = false;           // membarrier registered: writers skip the fence
  bool oversubscribed = false;       // more ranks than CPUs
  // Set by the point-to-point engine: runs it once and says whether it has anything
  // outstanding (posted receives, unfinished sends). A flag wait keeps it running once
  // it stops spinning, and sleeps in short slices while it has work, so a peer waiting
  // for our ack or our ring space is not stuck behind our barrier (MPI-4.1 3.5 progress).
  bool (*engine_poll)() = nullptr;
};
extern WaitContext g_wait;

// Bounded sleep: covers the one race the handshake cannot, the broker's abort wake
// landing between our last abort check and our FUTEX_WAIT.
inline constexpr std::int64_t kSleepSliceNs = 50'000'000;
// The bound while the point-to-point engine has work outstanding (WaitContext::engine_poll).
inline constexpr std::int64_t kBusySliceNs = 1'000'000;

inline bool job_aborted() {
  return g_wait.abort->state.load(std::memory_order_acquire) != 0;
}

// Generation comparison that survives 32-bit wrap-around: has `value` reached `target`?
inline bool reached(std::uint32_t value, std::uint32_t target) {
  return static_cast<std::int32_t>(value - target) >= 0;
}

// The waker's half of the sleep handshake, after the store that published its event:
// does anybody sleep on f (or is about to)?
inline bool has_sleepers(layout::Flag& f) {
  if (g_wait.asymmetric) {
    std::atomic_signal_fence(std::memory_order_seq_cst);  // sleepers pay with membarrier
    return f.sleepers.load(std::memory_order_relaxed) != 0;
  }
  // A read-modify-write instead of a fence + load: the RMWs on `sleepers` are totally
  // ordered, so either this one reads a sleeper's increment, or the sleeper's RMW reads
  // from this one (acq_rel) and its re-read of `value` then sees our store.
  return f.sleepers.fetch_add(0, std::memory_order_acq_rel) != 0;
}

// The sleeper's half: announces itself on f, makes every running waker's earlier event
// store visible (membarrier in asymmetric mode), reads f.value, and sleeps on it for at
// most timeout_ns unless `ready()` (checked after the announcement) or an abort.
template <class Ready>
inline void sleep_on_flag(layout::Flag& f, std::int64_t timeout_ns, Ready ready) {
  f.sleepers.fetch_add(1, std::memory_order_seq_cst);
  if (g_wait.asymmetric) syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0);
  const std::uint32_t seen = f.value.load(std::memory_order_seq_cst);
  if (!ready(seen) && !job_aborted()) futex_wait(&f.value, seen, timeout_ns);
  f.sleepers.fetch_sub(1, std::memory_order_relaxed);
}

// Settles a deferred wake: wakes the sleepers of a flag this rank posted.
inline void pay_wake(layout::Flag& f) {
  if (has_sleepers(f)) futex_wake_all(&f.value);
}

// Publishes a new generation without waking anyone yet: the caller owes pay_wake(f).
inline void post_flag(layout::Flag& f, std::uint32_t value) {
  f.value.store(value, std::memory_order_release);
}

// Publishes a new generation and wakes sleepers, if any.
inline void signal_flag(layout::Flag& f, std::uint32_t value) {
  post_flag(f, value);
  pay_wake(f);
}

// The default answer to "does a rank sharing my core still need it?": assume so.
struct AssumeCoreNeeded {
  bool operator()() const { return true; }
};

// The default step before each sleep of wait_flag: none.
struct NothingBeforeSleep {
  void operator()() const {}
};

// Polls ready() with a pause between polls until it is true, for at most
// g_wait.issue_spin_ns (the clock is read every 8th poll; vDSO, no syscall) or until
// the job aborts: for a nonblocking call at issue whose members are moments away, a
// bounded wait that keeps the call local (MPI-4.1 6.12).
template <class Ready>
bool poll_briefly(Ready ready) {
  if (ready()) return true;
  if (g_wait.issue_spin_ns == 0) return false;
  timespec start{};
  for (std::uint32_t i = 1;; ++i) {
    cpu_relax();
    if (ready()) return true;
    if ((i & 7) != 0) continue;
    if (job_aborted()) return false;
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (i == 8) {
      start = now;
    } else if (static_cast<std::uint64_t>((now.tv_sec - start.tv_sec) * 1'000'000'000 + (now.tv_nsec - start.tv_nsec)) >
               g_wait.issue_spin_ns) {
      return false;
    }
  }
}

// Pause iterations a waiter spins once every rank sharing its core is waiting too, so
// yielding would only hand the core to another waiter; ~0.5 ms, then it sleeps.
inline constexpr std::uint32_t kIdleSpinLimit = 10000;

// wait_flag() past its spin budget (out of line: the caller's hot loop keeps its
// registers; inlined whole, the slow phases made the barrier's loop spill).
template <class CoreNeeded, class BeforeSleep>
[[gnu::noinline]] bool wait_flag_slow(layout::Flag& f, std::uint32_t target, layout::Flag* owed,
                                      CoreNeeded core_needed, BeforeSleep before_sleep) {
  std::uint32_t yields = 0, idle = 0;
  for (;;) {
    const std::uint32_t v = f.value.load(std::memory_order_acquire);
    if (reached(v, target) || job_aborted()) {
      if (owed != nullptr) pay_wake(*owed);
      return reached(v, target);
    }
    // Run the point-to-point engine at each yield, every 256 idle spins, and before
    // sleeping (not at each idle spin: that is the cheap phase).
    const auto engine = [] { return g_wait.engine_poll != nullptr && g_wait.engine_poll(); };
    if (yields < g_wait.yield_limit) {
      if (core_needed()) {
        ++yields;
        engine();
        sched_yield();
        continue;
      }
      if (idle < kIdleSpinLimit) {
        if (idle++ % 256 == 0) engine();
        cpu_relax();
        continue;
      }
    }
    const bool engine_busy = engine();
    if (owed != nullptr) {
      pay_wake(*owed);
      owed = nullptr;
    }
    before_sleep();
    // The broker wakes a parked rank through the job segment offset; a flag in another
    // mapping (a window's control block) is not published: its sleep is bounded by
    // kSleepSliceNs, which bounds how late such a waiter notices an abort.
    const std::uint64_t off = reinterpret_cast<std::uintptr_t>(&f.value) -
                              reinterpret_cast<std::uintptr_t>(g_wait.segment_base);
    g_wait.self->parked_on.store(off < g_wait.segment_size ? off : 0, std::memory_order_seq_cst);
    sleep_on_flag(f, engine_busy ? kBusySliceNs : kSleepSliceNs,
                  [target](std::uint32_t seen) { return reached(seen, target); });
    g_wait.self->parked_on.store(0, std::memory_order_relaxed);
  }
}

// Waits until reached(flag.value, target). Returns false if the job was aborted.
// Spins spin_limit times, then (oversubscribed) yields up to yield_limit times while
// `core_needed()` says a rank sharing the core has work to do, else spins on; then
// sleeps. `owed`: a flag this rank posted and has not paid the wake for; paid on every
// exit and before sleeping. `before_sleep()` runs before each sleep (a sleep lasts up to
// kSleepSliceNs when nothing wakes it; the caller may refresh what shmpi-dump shows).
template <class CoreNeeded = AssumeCoreNeeded, class BeforeSleep = NothingBeforeSleep>
inline bool wait_flag(layout::Flag& f, std::uint32_t target, layout::Flag* owed = nullptr,
                      CoreNeeded core_needed = {}, std::uint32_t spin_limit = g_wait.spin_limit,
                      BeforeSleep before_sleep = {}) {
  for (std::uint32_t spins = 0; spins < spin_limit; ++spins) {
    const std::uint32_t v = f.value.load(std::memory_order_acquire);
    if (reached(v, target) || job_aborted()) [[likely]] {
      if (owed != nullptr) pay_wake(*owed);
      return reached(v, target);
    }
    cpu_relax();
    // Asymmetric mode: the debt is a plain load of the line we posted, paid after the
    // first pause, not when the wait ends. A load of that line while its post is
    // still taking it from the reader stalls, and at the end of the wait the reader's
    // polls are taking it back: paid there, it delayed our next post by ~30 ns, 1.9x
    // the bare flag barrier at 2 ranks (docs/architecture.md "Barrier algorithms").
    // Any time after the post is as good for the handshake (a sleeper's membarrier
    // orders it).
    if (owed != nullptr && g_wait.asymmetric) {
      pay_wake(*owed);
      owed = nullptr;
    }
  }
  return wait_flag_slow(f, target, owed, core_needed, before_sleep);
}

}  // namespace shmpi::client
