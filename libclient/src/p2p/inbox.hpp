// This rank's point-to-point inbox and its mappings of the other ranks' inboxes
// (shm_layout/p2p.hpp): creation at MPI_Init, publication in the RankSlot, lazy mapping
// of a peer's inbox on first use, and the doorbell (wake a peer; sleep until woken).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "shm_layout/p2p.hpp"
#include "wait.hpp"

namespace shmpi::client::p2p {

// A mapped inbox (ours or a peer's).
struct InboxMap {
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  std::uint32_t ring_bytes = 0;
  std::uint64_t ring_stride = 0;

  layout::InboxHeader& header() const { return *reinterpret_cast<layout::InboxHeader*>(base); }
  layout::RingCtl& ctl(std::uint32_t sender) const {
    return *reinterpret_cast<layout::RingCtl*>(base + layout::kPage + sender * ring_stride);
  }
  std::byte* data(std::uint32_t sender) const {
    return base + layout::kPage + sender * ring_stride + layout::kRingCtlBytes;
  }
  layout::StreamCtl& stream_ctl(std::uint32_t sender) const {
    return *reinterpret_cast<layout::StreamCtl*>(base + layout::kPage + sender * ring_stride +
                                                 layout::kStreamCtlOffset);
  }
  std::byte* stream(std::uint32_t sender) const { return data(sender) + ring_bytes; }
};

// MPI_Init: creates, maps and publishes this rank's inbox. False with `why`.
bool create_own_inbox(std::string& why);
// MPI_Finalize (after the final barrier): unmaps every inbox and closes ours.
void close_inboxes();

InboxMap& own_inbox();
// The inbox of world rank `r`, mapped on first use (waits for r to publish it). Null with
// `why` if it cannot be mapped or the job aborted while waiting.
InboxMap* peer_inbox(std::uint32_t r, std::string& why);
// Allocates the pages of our stream area in world rank r's inbox (first stream to r).
void populate_stream(InboxMap& peer);
// Already mapped, or null (never maps).
InboxMap* peer_inbox_if_mapped(std::uint32_t r);

// Gives world rank r's owner a reason to look: wakes it if it sleeps on its doorbell.
// Call after the release store that published the event.
void ring_doorbell(InboxMap& peer);

// Sleeps on our own doorbell for at most `timeout_ns` unless `recheck()` (called after
// announcing the sleep) finds work: then returns at once. recheck() must look at every
// event this rank waits for (it runs the progress engine). The handshake with
// ring_doorbell is wait.hpp's (sleep_on_flag / has_sleepers): either the waker sees the
// sleeper and bumps the doorbell, so the FUTEX_WAIT returns at once, or the recheck
// sees the waker's event.
template <class Recheck>
void sleep_on_doorbell(std::int64_t timeout_ns, Recheck recheck) {
  sleep_on_flag(own_inbox().header().doorbell, timeout_ns, [&recheck](std::uint32_t) { return recheck(); });
}

}  // namespace shmpi::client::p2p
