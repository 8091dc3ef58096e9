// Private to p2p/: the engine's per-process state, shared by engine.cpp (requests,
// matching queues, progress), receive.cpp (draining our inbox, delivering, pulling
// streams) and send.cpp (writing into peers' rings, streaming, acks).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <vector>

#include "p2p/engine.hpp"
#include "p2p/inbox.hpp"
#include "p2p/queue.hpp"

namespace shmpi::client::p2p::impl {

using layout::MsgHeader;
using layout::MsgKind;
using State = P2pRequest::State;

inline constexpr std::uint64_t kFirstPos = layout::kRecordAlign;  // fresh memory reads pos 0

// The sender's side of a ring's ack slots: which are free, and each one's generation.
struct AckSlots {
  static constexpr std::uint32_t kWords = layout::kAckSlots / 64;
  std::uint64_t free[kWords];
  std::uint32_t free_count = layout::kAckSlots;
  std::uint16_t gen[layout::kAckSlots] = {};
  AckSlots() {
    for (std::uint64_t& w : free) w = ~std::uint64_t{0};
  }
  // Takes a free slot (free_count > 0) and gives it its next generation.
  std::uint32_t take(std::uint32_t& generation) {
    std::uint32_t w = 0;
    while (free[w] == 0) ++w;
    const auto slot = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(free[w]));
    free[w] &= ~(std::uint64_t{1} << (slot % 64));
    --free_count;
    if (++gen[slot] > layout::kGenMask) gen[slot] = 1;
    generation = gen[slot];
    return slot;
  }
  void put(std::uint32_t slot) {
    free[slot / 64] |= std::uint64_t{1} << (slot % 64);
    ++free_count;
  }
};

// Our ring in a peer's inbox: we are its only writer.
struct OutRing {
  InboxMap* inbox = nullptr;
  std::uint64_t tail = kFirstPos;   // position of our next record
  std::uint64_t head_seen = 0;      // the reader's head, as last read
  AckSlots acks;
  Queue<P2pRequest> pending;        // sends waiting for space or an ack slot, in order
  Queue<P2pRequest> streams;        // pipelined sends cleared to send, in CTS order
  std::uint64_t chunks_written = 0; // our StreamCtl::written
  std::uint64_t read_seen = 0;      // its StreamCtl::read, as last read
  bool stream_populated = false;
};

// A ring in our inbox: we are its only reader.
struct InRing {
  std::uint64_t head = kFirstPos;
  P2pRequest* current = nullptr;    // the pipelined receive cleared to send (streaming)
  Queue<P2pRequest> cts_wait;       // matched pipelined receives waiting for their CTS
  std::uint64_t chunks_read = 0;    // our StreamCtl::read
};

extern std::vector<OutRing> g_out;  // by world rank
extern std::vector<InRing> g_in;    // by world rank
extern Queue<P2pRequest> g_posted;
extern Queue<P2pRequest> g_acking;
extern Queue<Unexpected> g_unexpected;
extern std::uint32_t g_pending;  // queued sends over all peers
extern std::uint32_t g_streaming;  // pipelined sends being written
extern std::uint32_t g_receiving;  // pipelined receives being drained
extern std::uint64_t g_eager;
extern bool g_pipeline;  // stream rendezvous data through the stream area (else CMA)
extern std::uint64_t g_chunk;  // stream chunk bytes

inline std::uint64_t round_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }

inline std::uint32_t kind_of(std::uint32_t bits) { return bits & 0xfu; }
inline std::uint64_t record_bytes(const MsgHeader& h) {
  const std::uint32_t k = kind_of(h.kind_bits);
  return k == static_cast<std::uint32_t>(MsgKind::eager)
             ? round_up(sizeof(MsgHeader) + h.bytes, layout::kRecordAlign)
             : layout::kRecordAlign;
}

inline bool matches(std::uint32_t context, int src, int tag, std::uint32_t want_context, int want_src, int want_tag) {
  return context == want_context && (want_src == MPI_ANY_SOURCE || want_src == src) &&
         (want_tag == MPI_ANY_TAG || want_tag == tag);
}

// engine.cpp: what shmpi-dump sees of the queues.
void publish_posted();
void publish_counts();

// receive.cpp
// Rings world rank `rank`'s doorbell (mapping its inbox on first use).
void wake(std::uint32_t rank);
// Drains ring `sender` of our inbox: each record to the first matching posted receive,
// else to the unexpected queue. True if it consumed anything.
bool drain(std::uint32_t sender);
// Delivers a matched message into r (eager payload, CMA copy, or the start of a
// stream); completes r unless it streams.
void deliver(P2pRequest& r, std::uint32_t sender, std::uint32_t bits, int src, int tag, std::uint64_t bytes,
             const std::byte* payload, std::uint64_t rndv_addr);
bool pull_streams();

// send.cpp
bool try_write(OutRing& o, P2pRequest& r);
bool push_pending();
bool collect_acks();
bool push_streams();

}  // namespace shmpi::client::p2p::impl
