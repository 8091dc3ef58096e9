#include "coll/progress_hooks.hpp"

#include <algorithm>

#include "coll/nbc.hpp"
#include "request/request.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

bool (*g_p2p_poll)() = nullptr;
void (*g_p2p_sleep)(long timeout_ns) = nullptr;

bool p2p_busy() { return g_p2p_poll != nullptr && g_p2p_poll(); }

bool poll_all() {
  const bool busy = p2p_busy();
  return (in_flight() && progress()) || busy;
}

void polled_sleep_all(long timeout_ns) {
  if (!in_flight() || !progress()) {
    if (g_p2p_sleep != nullptr) g_p2p_sleep(timeout_ns);
    return;
  }
  // Collectives in flight: their peers post flags, not our doorbell. With messages
  // outstanding too, sleep on the doorbell briefly and look at the tasks again.
  if (p2p_busy() && g_p2p_sleep != nullptr) {
    g_p2p_sleep(std::min(timeout_ns, 50'000L));
  } else {
    sleep_on_oldest(timeout_ns);
  }
}

}  // namespace

void install_progress_hooks() {
  g_p2p_poll = g_wait.engine_poll;
  g_p2p_sleep = g_polled_sleep;
  g_wait.engine_poll = &poll_all;
  g_polled_sleep = &polled_sleep_all;
}

}  // namespace shmpi::client::coll
