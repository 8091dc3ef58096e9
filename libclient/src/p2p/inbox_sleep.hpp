// sleep_on_doorbell (p2p/inbox.hpp). The handshake is wait.hpp's: the sleeper announces
// itself in `sleepers` (seq_cst RMW), then, in asymmetric mode, membarrier() makes every
// running waker's earlier event store visible; then it re-runs the progress engine. A
// waker stores its event (release), then reads `sleepers` (a compiler barrier suffices
// in asymmetric mode, else a RMW): it either sees the sleeper and bumps `value` (so the
// FUTEX_WAIT below returns at once), or the sleeper's re-check sees its event.
#pragma once

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shmpi_common/futex.hpp"
#include "wait.hpp"

namespace shmpi::client::p2p {

template <class Recheck>
void sleep_on_doorbell(std::int64_t timeout_ns, Recheck recheck) {
  layout::Flag& bell = own_inbox().header().doorbell;
  bell.sleepers.fetch_add(1, std::memory_order_seq_cst);
  if (g_wait.asymmetric) syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0);
  const std::uint32_t seen = bell.value.load(std::memory_order_seq_cst);
  if (!recheck() && !job_aborted()) futex_wait(&bell.value, seen, timeout_ns);
  bell.sleepers.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace shmpi::client::p2p
