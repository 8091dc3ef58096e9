// Waiting on in-segment flags: spin briefly, then sleep on the flag's futex; every
// wait also watches the job's abort word, so a dead peer ends the wait with an error
// instead of a hang.
//
// Memory orders. A flag writer publishes data with the release half of its seq_cst
// store; the waiter's acquire load of the same value makes that data visible. The
// sleep handshake is Dekker-style (all seq_cst): the waiter increments `sleepers` then
// re-reads `value`; the writer stores `value` then reads `sleepers`. One of them sees
// the other, so a wake is never lost, and a writer only pays for FUTEX_WAKE when
// somebody actually sleeps.
#pragma once

#include <sched.h>

#include <cstdint>

#include "shm_layout/segment.hpp"
#include "shmpi_common/futex.hpp"

namespace shmpi::client {

// Per-process wait parameters, fixed at MPI_Init.
struct WaitContext {
  const layout::AbortWord* abort = nullptr;
  layout::RankSlot* self = nullptr;  // where we publish what we sleep on
  std::byte* segment_base = nullptr;
  std::uint32_t spin_limit = 4000;   // pause iterations before yielding/sleeping
  std::uint32_t yield_limit = 0;     // sched_yield rounds before sleeping (oversubscribed)
};
extern WaitContext g_wait;

// Bounded sleep: covers the one race the handshake cannot, the broker's abort wake
// landing between our last abort check and our FUTEX_WAIT.
inline constexpr std::int64_t kSleepSliceNs = 50'000'000;

inline bool job_aborted() {
  return g_wait.abort->state.load(std::memory_order_acquire) != 0;
}

// Generation comparison that survives 32-bit wrap-around: has `value` reached `target`?
inline bool reached(std::uint32_t value, std::uint32_t target) {
  return static_cast<std::int32_t>(value - target) >= 0;
}

// Waits until reached(flag.value, target). Returns false if the job was aborted.
inline bool wait_flag(layout::Flag& f, std::uint32_t target) {
  for (std::uint32_t i = 0;; ++i) {
    const std::uint32_t v = f.value.load(std::memory_order_acquire);
    if (reached(v, target)) return true;
    if (job_aborted()) return false;
    if (i < g_wait.spin_limit) {
      cpu_relax();
      continue;
    }
    if (i < g_wait.spin_limit + g_wait.yield_limit) {
      sched_yield();
      continue;
    }
    g_wait.self->parked_on.store(
        static_cast<std::uint64_t>(reinterpret_cast<std::byte*>(&f.value) - g_wait.segment_base),
        std::memory_order_seq_cst);
    f.sleepers.fetch_add(1, std::memory_order_seq_cst);
    const std::uint32_t seen = f.value.load(std::memory_order_seq_cst);
    if (!reached(seen, target) && !job_aborted()) futex_wait(&f.value, seen, kSleepSliceNs);
    f.sleepers.fetch_sub(1, std::memory_order_relaxed);
    g_wait.self->parked_on.store(0, std::memory_order_relaxed);
  }
}

// Single writer publishes a new generation and wakes sleepers, if any.
inline void signal_flag(layout::Flag& f, std::uint32_t value) {
  f.value.store(value, std::memory_order_seq_cst);
  if (f.sleepers.load(std::memory_order_seq_cst) != 0) futex_wake_all(&f.value);
}

}  // namespace shmpi::client
