// A rank's point-to-point inbox: one memfd per rank, created by that rank at MPI_Init
// and published in its RankSlot (InboxDir); every sender maps it on its first send to
// the rank. Never a file in /dev/shm: it vanishes with the last mapping. Offsets only,
// fixed layout, versioned.
//
//   page 0                   InboxHeader (identity, doorbell, what the owner waits on)
//   page 1 + s * ring_stride Ring from sender s (world rank): RingCtl and StreamCtl,
//                            ring_bytes of records, then the stream area
//
// Ring protocol (docs/p2p.md): one writer (sender s), one reader (the owner). Records
// are multiples of 64 bytes, laid at the byte position `pos` (monotonic, never reset)
// modulo ring_bytes; a record never wraps (a `skip` record sends the reader to the next
// lap). The writer fills header and payload, then stores MsgHeader::pos = its position
// (release) last; the reader acquires pos == its head before reading the record. So a
// small message costs one cache line and no separate tail word: stale records of an
// earlier lap carry a smaller pos, and the reader zeroes the pos word of every payload
// line it consumed (so no payload bytes can look like a position). The reader
// publishes `head` (release) after it has consumed records; the writer reuses bytes
// below head only (it reads head only when its cached copy says the ring is full).
// Positions start at kRecordAlign: fresh memory reads pos 0.
//
// Acks: a synchronous or rendezvous send takes one of its ring's kAckSlots slots and
// puts (slot, gen) in the record; the owner stores ack[slot] = gen (release) once the
// message is matched (synchronous) or copied out of the sender (rendezvous by CMA), or
// gen | kAckCts (clear to send) for a pipelined rendezvous.
//
// Streams: a pipelined rendezvous message does not go through the ring. After the CTS
// the sender copies it, chunk by chunk, into the ring's stream area (kStreamSlots
// chunks of stream_chunk bytes) and counts the chunks in StreamCtl::written; the owner
// copies each chunk out and counts it in StreamCtl::read; so both copies run at once,
// on two cores. Counters, not headers: no stale data can look like a chunk. The owner
// clears at most one message per sender to send at a time, so the stream area always
// belongs to that message (the next CTS follows its last chunk).
//
// Doorbell: the owner sleeps on `doorbell.value` after announcing itself in
// `doorbell.sleepers` (Dekker with the writers, like layout::Flag waits). Anybody that
// gives the owner something to do (a record, an ack, ring space) checks `sleepers` and,
// if non-zero, increments `value` and wakes it: the one multi-writer word here, touched
// only when the owner sleeps.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "shm_layout/segment.hpp"

namespace shmpi::layout {

inline constexpr std::uint64_t kInboxMagic = 0x584f4249'49504d53ull;  // "SMPIIBOX"
inline constexpr std::uint32_t kInboxLayoutVersion = 2;
// Ack slots per ring: how many synchronous or rendezvous sends to one rank can be
// unacknowledged at once; one more waits for a slot (a receiver that insists on
// receiving a later message first would then wait forever: 1024 makes that need 1024
// large sends to one rank in flight).
inline constexpr std::uint32_t kAckSlots = 1024;
inline constexpr std::uint32_t kShownPosted = 8;  // posted receives shown to shmpi-dump

enum class MsgKind : std::uint32_t {
  eager = 1,   // payload follows the header
  rndv = 2,    // payload is RndvPayload: the receiver copies from the sender (CMA)
  skip = 3,    // rest of the lap unused: the next record is at the next lap's start
};
// MsgHeader::kind_bits: kind (bits 0-3), flags (4-7), ack slot (8-17), ack gen (18-31).
inline constexpr std::uint32_t kMsgSync = 1u << 4;   // ack when matched (MPI_Ssend)
inline constexpr std::uint32_t kMsgAcked = 1u << 5;  // carries an ack slot
inline constexpr std::uint32_t kMsgPipe = 1u << 6;   // rendezvous: stream the data (StreamCtl)
inline constexpr unsigned kSlotShift = 8, kGenShift = 18;
inline constexpr std::uint32_t kGenMask = (1u << (32 - kGenShift)) - 1;  // gens 1..kGenMask, never 0
static_assert(kAckSlots <= (1u << (kGenShift - kSlotShift)));
inline constexpr std::uint32_t msg_ack_bits(std::uint32_t slot, std::uint32_t gen) {
  return kMsgAcked | (slot << kSlotShift) | (gen << kGenShift);
}
inline constexpr std::uint32_t msg_slot(std::uint32_t bits) { return (bits >> kSlotShift) & (kAckSlots - 1); }
inline constexpr std::uint32_t msg_gen(std::uint32_t bits) { return bits >> kGenShift; }
// Ack word values: gen once the message is matched (synchronous) or copied (rendezvous
// by CMA); gen | kAckCts when the receiver wants a pipelined message streamed.
inline constexpr std::uint32_t kAckCts = 1u << 16;
static_assert(kGenMask < kAckCts);

struct MsgHeader {
  std::atomic<std::uint64_t> pos;  // this record's position; stored last (release)
  std::uint32_t kind_bits;
  std::uint32_t context;           // communicator context id
  std::int32_t src;                // sender's rank in that communicator
  std::int32_t tag;
  std::uint64_t bytes;             // packed message size
};
static_assert(sizeof(MsgHeader) == 32 && offsetof(MsgHeader, bytes) == 24);
inline constexpr std::size_t kRecordAlign = kCacheLine;

struct RndvPayload {
  std::uint64_t addr;  // packed message in the sender's address space
};

// What the owner is blocked in, for shmpi-dump (written by the owner only).
enum class P2pWait : std::uint32_t { none = 0, recv = 1, send = 2, probe = 3, requests = 4 };

struct PostedShown {
  std::uint32_t context;
  std::int32_t src;  // MPI_ANY_SOURCE = -1
  std::int32_t tag;  // MPI_ANY_TAG = -2
  std::uint32_t pad;
};
static_assert(sizeof(PostedShown) == 16);

struct alignas(kPage) InboxHeader {
  // line 0: identity, written once by the owner before it publishes the inbox
  std::uint64_t magic;
  std::uint32_t layout_version;
  std::uint32_t owner_rank;   // world rank
  std::uint32_t nrings;       // = job size
  std::uint32_t ring_bytes;   // data bytes per ring (a multiple of kRecordAlign)
  std::uint64_t ring_stride;  // bytes from one ring to the next (page multiple)
  std::uint64_t rings_offset;
  std::uint64_t total_bytes;
  std::uint8_t pad0[kCacheLine - 48];
  // line 1: the owner's doorbell (see above)
  Flag doorbell;
  // lines 2..4: owner's matching state, for shmpi-dump only (relaxed stores)
  alignas(kCacheLine) std::atomic<std::uint32_t> posted;      // receives posted, unmatched
  std::atomic<std::uint32_t> unexpected;                      // messages drained, unmatched
  std::atomic<std::uint32_t> waiting;                         // P2pWait
  std::atomic<std::int32_t> wait_src;                         // what a blocking call waits for
  std::atomic<std::int32_t> wait_tag;
  std::atomic<std::uint32_t> wait_context;
  std::atomic<std::uint64_t> sends_pending;                   // sends not yet complete
  std::uint8_t pad2[kCacheLine - 32];
  PostedShown shown[kShownPosted];                            // the first posted receives
  std::uint8_t tail[kPage - 3 * kCacheLine - kShownPosted * sizeof(PostedShown)];
};
static_assert(sizeof(InboxHeader) == kPage);
static_assert(offsetof(InboxHeader, doorbell) == kCacheLine);
static_assert(offsetof(InboxHeader, posted) == 2 * kCacheLine);
static_assert(offsetof(InboxHeader, shown) == 3 * kCacheLine);

// Control lines at the start of each ring; the data starts at kRingCtlBytes.
struct alignas(kCacheLine) RingCtl {
  std::atomic<std::uint64_t> head;  // line 0: bytes consumed (owner writes)
  std::uint8_t pad0[kCacheLine - 8];
  alignas(kCacheLine) std::atomic<std::uint32_t> ack[kAckSlots];  // lines 1..64: owner writes
};
static_assert(sizeof(RingCtl) == (1 + kAckSlots * 4 / kCacheLine) * kCacheLine);
static_assert(offsetof(RingCtl, ack) == kCacheLine);

// The stream counters (chunks, monotonic, never reset), each on its own line.
struct alignas(kCacheLine) StreamCtl {
  std::atomic<std::uint64_t> written;  // sender
  std::uint8_t pad0[kCacheLine - 8];
  alignas(kCacheLine) std::atomic<std::uint64_t> read;  // owner
  std::uint8_t pad1[kCacheLine - 8];
};
static_assert(sizeof(StreamCtl) == 2 * kCacheLine && offsetof(StreamCtl, read) == kCacheLine);
inline constexpr std::size_t kStreamCtlOffset = sizeof(RingCtl);
inline constexpr std::size_t kRingCtlBytes = sizeof(RingCtl) + 3 * kCacheLine;
static_assert(kStreamCtlOffset + sizeof(StreamCtl) <= kRingCtlBytes);

inline constexpr std::uint32_t kStreamSlots = 4;
// Stream chunk: half a ring (32 KiB for the default 64 KiB ring; chunks of 16-32 KiB
// four deep moved 1 MiB fastest between two processes here, docs/p2p.md).
inline constexpr std::uint64_t stream_chunk(std::uint32_t ring_bytes) { return ring_bytes / 2; }

struct InboxGeometry {
  std::uint64_t ring_stride;
  std::uint64_t rings_offset;
  std::uint64_t total;
};
inline constexpr InboxGeometry inbox_geometry(std::uint32_t nrings, std::uint32_t ring_bytes) {
  const std::uint64_t per_sender = kRingCtlBytes + ring_bytes + kStreamSlots * stream_chunk(ring_bytes);
  const std::uint64_t stride = (per_sender + kPage - 1) / kPage * kPage;
  return {stride, kPage, kPage + stride * nrings};
}

}  // namespace shmpi::layout
