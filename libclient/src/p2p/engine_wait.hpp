// p2p::wait_until (p2p/engine.hpp): the engine's wait. Like wait.hpp's: spin (running
// the engine each time), then yield when oversubscribed, then sleep on the doorbell,
// which every event this rank can wait for rings (a record for it, an ack, ring space).
// Every iteration reads the abort word: a dead peer ends the wait (bounded sleeps).
#pragma once

#include <sched.h>

#include <algorithm>

#include "p2p/inbox.hpp"
#include "wait.hpp"

namespace shmpi::client::p2p {

// Yield rounds before sleeping when every rank has a core of its own: another thread of
// this process may need it.
inline constexpr std::uint32_t kMinYields = 16;

template <class Done>
bool wait_until(Done done, layout::P2pWait what) {
  if (done()) return true;
  layout::InboxHeader& h = own_inbox().header();
  h.waiting.store(static_cast<std::uint32_t>(what), std::memory_order_relaxed);
  std::uint32_t spins = 0, yields = 0;
  bool ok = true;
  for (;;) {
    if (progress()) spins = yields = 0;  // moving: keep spinning
    if (done()) break;
    if (job_aborted()) {
      ok = false;
      break;
    }
    if (spins < g_wait.spin_limit) {
      ++spins;
      cpu_relax();
      continue;
    }
    if (yields < std::max(g_wait.yield_limit, kMinYields)) {
      ++yields;
      sched_yield();
      continue;
    }
    sleep_on_doorbell(kSleepSliceNs, [] { return progress(); });
  }
  h.waiting.store(static_cast<std::uint32_t>(layout::P2pWait::none), std::memory_order_relaxed);
  return ok;
}

// What a blocking call waits for, for shmpi-dump (MPI_ANY_SOURCE/MPI_ANY_TAG: anything).
inline void set_wait_target(int peer, int tag, std::uint32_t context) {
  layout::InboxHeader& h = own_inbox().header();
  h.wait_src.store(peer, std::memory_order_relaxed);
  h.wait_tag.store(tag, std::memory_order_relaxed);
  h.wait_context.store(context, std::memory_order_relaxed);
}

inline bool wait(P2pRequest& r, layout::P2pWait what) {
  if (r.state == P2pRequest::State::done) return true;
  set_wait_target(r.peer, r.tag, r.context);
  return wait_until([&r] { return r.state == P2pRequest::State::done; }, what);
}

}  // namespace shmpi::client::p2p
