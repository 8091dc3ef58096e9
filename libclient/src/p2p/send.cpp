// The sending side of the engine: writing records into a peer's ring (eager copy or
// rendezvous announcement), queued sends, acks, and streaming a cleared message.
#include <algorithm>
#include <cstring>
#include <memory>

#include "p2p/state.hpp"
#include "runtime.hpp"
#include "types/pack.hpp"

namespace shmpi::client::p2p::impl {
namespace {

// Publishes a filled record: its position, stored last.
void publish(MsgHeader& h, std::uint64_t pos) { h.pos.store(pos, std::memory_order_release); }

}  // namespace

// Writes r into its peer's ring if there is room (and an ack slot when it needs one).
bool try_write(OutRing& o, P2pRequest& r) {
  const bool rndv = static_cast<std::uint64_t>(r.bytes) > g_eager;
  const bool acked = rndv || r.mode == Mode::sync;
  if (acked && o.acks.free_count == 0) return false;
  InboxMap& in = *o.inbox;
  const std::uint64_t R = in.ring_bytes, mask = R - 1;
  const std::uint64_t rec = rndv ? layout::kRecordAlign
                                 : round_up(sizeof(MsgHeader) + static_cast<std::uint64_t>(r.bytes), layout::kRecordAlign);
  const std::uint64_t off = o.tail & mask;
  const std::uint64_t skip = off + rec > R ? R - off : 0;
  const std::uint64_t need = skip + rec;
  if (o.tail + need - o.head_seen > R) {
    o.head_seen = in.ctl(g_rt.rank).head.load(std::memory_order_acquire);
    if (o.tail + need - o.head_seen > R) return false;
  }
  std::byte* data = in.data(g_rt.rank);
  if (skip != 0) {
    auto& s = *reinterpret_cast<MsgHeader*>(data + off);
    s.kind_bits = static_cast<std::uint32_t>(MsgKind::skip);
    publish(s, o.tail);
    o.tail += skip;
  }
  auto& h = *reinterpret_cast<MsgHeader*>(data + (o.tail & mask));
  std::uint32_t bits = static_cast<std::uint32_t>(rndv ? MsgKind::rndv : MsgKind::eager);
  if (r.mode == Mode::sync) bits |= layout::kMsgSync;
  r.pipelined = rndv && g_pipeline && r.world_peer != g_rt.rank;
  if (r.pipelined) bits |= layout::kMsgPipe;
  if (acked) {
    std::uint32_t gen = 0;
    r.ack_slot = o.acks.take(gen);
    r.ack_gen = static_cast<std::uint16_t>(gen);
    bits |= layout::msg_ack_bits(r.ack_slot, gen);
  }
  h.kind_bits = bits;
  h.context = r.context;
  h.src = r.my_rank;
  h.tag = r.tag;
  h.bytes = static_cast<std::uint64_t>(r.bytes);
  auto* body = reinterpret_cast<std::byte*>(&h + 1);
  if (!rndv) {
    if (r.bytes > 0) types::pack_range(*r.type, *r.flat, r.buf, 0, r.bytes, body);
  } else if (r.pipelined) {
    const layout::RndvPayload p{0};  // the data comes through the stream area
    std::memcpy(body, &p, sizeof p);
  } else {
    std::uint64_t addr;
    if (r.type->contiguous()) {
      addr = reinterpret_cast<std::uint64_t>(static_cast<const std::byte*>(r.buf) + r.type->lb);
    } else {
      r.packed.reset(new std::byte[static_cast<std::size_t>(r.bytes)]);
      types::pack(*r.type, *r.flat, r.buf, r.count, r.packed.get());
      addr = reinterpret_cast<std::uint64_t>(r.packed.get());
    }
    const layout::RndvPayload p{addr};
    std::memcpy(body, &p, sizeof p);
  }
  publish(h, o.tail);
  o.tail += rec;
  if (r.world_peer != g_rt.rank) ring_doorbell(in);
  // A queued send (push_pending) leaves o.pending here, before it may join g_acking: a
  // request has one pair of queue links (queue.hpp). Appending it to g_acking first and
  // unlinking it from o.pending afterwards (as push_pending once did) ran remove() on
  // g_acking's links: o.pending.first stayed r, so r was written again and again until
  // its ring or ack slots ran out (duplicate messages, a corrupt acking list and
  // pending count, a hang), or, with g_acking empty, the rest of o.pending was lost.
  if (r.state == State::queued) {
    o.pending.remove(&r);
    --g_pending;
  }
  if (acked) {
    r.state = State::acking;
    g_acking.push_back(&r);
  } else {
    r.state = State::done;
  }
  return true;
}

namespace {

// Copies chunks of the cleared pipelined send r into its stream area while there are
// free slots. True when all of it is written (the send is then complete).
bool stream_out(OutRing& o, P2pRequest& r) {
  InboxMap& in = *o.inbox;
  layout::StreamCtl& sc = in.stream_ctl(g_rt.rank);
  std::byte* area = in.stream(g_rt.rank);
  const auto total = static_cast<std::uint64_t>(r.bytes);
  bool wrote = false;
  while (r.streamed < total) {
    if (o.chunks_written - o.read_seen >= layout::kStreamSlots) {
      o.read_seen = sc.read.load(std::memory_order_acquire);
      if (o.chunks_written - o.read_seen >= layout::kStreamSlots) break;
    }
    const std::uint64_t m = std::min(g_chunk, total - r.streamed);
    types::pack_range(*r.type, *r.flat, r.buf, static_cast<MPI_Count>(r.streamed), static_cast<MPI_Count>(m),
                      area + (o.chunks_written % layout::kStreamSlots) * g_chunk);
    sc.written.store(++o.chunks_written, std::memory_order_release);
    r.streamed += m;
    wrote = true;
  }
  if (wrote) ring_doorbell(in);
  return r.streamed >= total;
}

}  // namespace

bool push_streams() {
  bool did = false;
  for (OutRing& o : g_out) {
    while (P2pRequest* r = o.streams.first) {
      const std::uint64_t before = r->streamed;
      const bool finished = stream_out(o, *r);
      did |= r->streamed != before;
      if (!finished) break;
      o.streams.remove(r);
      --g_streaming;
      o.acks.put(r->ack_slot);
      r->state = State::done;
    }
    if (g_streaming == 0) break;
  }
  return did;
}

// Copies the chunks the senders have streamed into their receives; clears the next

bool push_pending() {
  bool did = false;
  for (OutRing& o : g_out) {
    while (!o.pending.empty()) {
      if (!try_write(o, *o.pending.first)) break;  // on success try_write unlinks it
      did = true;
    }
    if (g_pending == 0) break;
  }
  return did;
}

bool collect_acks() {
  bool did = false;
  for (P2pRequest* r = g_acking.first; r != nullptr;) {
    P2pRequest* next = r->next;
    OutRing& o = g_out[r->world_peer];
    const std::uint32_t ack = o.inbox->ctl(g_rt.rank).ack[r->ack_slot].load(std::memory_order_acquire);
    if (r->pipelined && ack == (r->ack_gen | layout::kAckCts)) {
      g_acking.remove(r);
      if (!o.stream_populated) {
        populate_stream(*o.inbox);
        o.stream_populated = true;
      }
      r->streamed = 0;
      r->state = State::streaming;
      o.streams.push_back(r);
      ++g_streaming;
      did = true;
    } else if (ack == r->ack_gen) {
      g_acking.remove(r);
      o.acks.put(r->ack_slot);
      r->packed.reset();
      r->state = State::done;
      did = true;
    }
    r = next;
  }
  return did;
}

}  // namespace shmpi::client::p2p::impl
