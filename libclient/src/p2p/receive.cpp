// The receiving side of the engine: draining our inbox's rings (records to posted
// receives or the unexpected queue), delivering a matched message (eager copy, CMA
// copy out of the sender, or a stream), and pulling streamed chunks.
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "copy_bytes.hpp"
#include "errors.hpp"
#include "p2p/state.hpp"
#include "runtime.hpp"
#include "types/pack.hpp"
#include "types/status.hpp"

namespace shmpi::client::p2p::impl {
namespace {

// ---- delivery ----------------------------------------------------------------------

bool cma_read(pid_t pid, std::uint64_t remote, std::byte* local, std::uint64_t n) {
  while (n > 0) {
    iovec l{local, n};
    iovec r{reinterpret_cast<void*>(remote), n};
    const ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    local += got;
    remote += static_cast<std::uint64_t>(got);
    n -= static_cast<std::uint64_t>(got);
  }
  return true;
}

void send_ack(std::uint32_t sender, std::uint32_t bits, std::uint32_t extra = 0) {
  own_inbox().ctl(sender).ack[layout::msg_slot(bits)].store(layout::msg_gen(bits) | extra, std::memory_order_release);
  wake(sender);
}

}  // namespace

void wake(std::uint32_t rank) {
  InboxMap* p = peer_inbox_if_mapped(rank);
  if (p == nullptr) {
    std::string why;  // first contact: map it (if it has finalized, it waits for nothing)
    p = peer_inbox(rank, why);
  }
  if (p != nullptr) ring_doorbell(*p);
}

// Delivers a matched message into r: eager payload at `payload`, or rendezvous data at
// `rndv_addr` in world rank `sender`'s memory. Completes r (status, truncation error).
void deliver(P2pRequest& r, std::uint32_t sender, std::uint32_t bits, int src, int tag, std::uint64_t bytes,
             const std::byte* payload, std::uint64_t rndv_addr) {
  const std::uint64_t cap = static_cast<std::uint64_t>(r.bytes);
  const std::uint64_t n = std::min(bytes, cap);
  const bool pipe = payload == nullptr && (bits & layout::kMsgPipe) != 0;
  int err = MPI_SUCCESS;
  if (n > 0 && !pipe) {
    if (payload != nullptr) {
      types::unpack_range(*r.type, *r.flat, payload, 0, static_cast<MPI_Count>(n), r.buf);
    } else {
      const pid_t pid = g_rt.seg.slot(sender).pid;
      bool ok;
      if (r.type->contiguous()) {
        ok = cma_read(pid, rndv_addr, static_cast<std::byte*>(r.buf) + r.type->lb, n);
      } else {
        std::unique_ptr<std::byte[]> tmp(new (std::nothrow) std::byte[n]);
        ok = tmp != nullptr && cma_read(pid, rndv_addr, tmp.get(), n);
        if (ok) types::unpack_range(*r.type, *r.flat, tmp.get(), 0, static_cast<MPI_Count>(n), r.buf);
      }
      const int cma_errno = errno;
      if (!ok && await_abort_after_peer_loss(cma_errno)) {
        err = make_error_code(MPI_ERR_PROC_ABORTED, std::string(r.call) + ": the sender (rank " + std::to_string(src) +
                                                        ") is gone; the job aborted: " + abort_reason());
      } else if (!ok) {
        errno = cma_errno;
        err = make_error_code(MPI_ERR_OTHER, std::string(r.call) + ": the receive from rank " + std::to_string(src) +
                                                 " could not copy " +
                                                 std::to_string(n) + " bytes out of the sender (pid " +
                                                 std::to_string(pid) + "): " + std::strerror(errno));
      }
    }
  }
  if (err == MPI_SUCCESS && bytes > cap) {
    err = make_error_code(MPI_ERR_TRUNCATE, std::string(r.call) + ": the message from rank " + std::to_string(src) +
                                                " (tag " +
                                                std::to_string(tag) + ") has " + std::to_string(bytes) +
                                                " bytes, the receive buffer holds " + std::to_string(cap) +
                                                " (count x type size); the first " + std::to_string(cap) +
                                                " bytes were delivered");
  }
  r.status.MPI_SOURCE = src;
  r.status.MPI_TAG = tag;
  r.status.MPI_ERROR = err;
  types::set_status_bytes(r.status, static_cast<MPI_Count>(n));
  r.status.MPI_internal[2] = 0;
  if (pipe) {
    // The data comes through the stream area once we clear it to send (pull_streams).
    r.streamed = 0;
    r.total = bytes;
    r.stream_sender = sender;
    r.ack_bits = bits;
    r.state = State::streaming;
    ++g_receiving;
    InRing& in = g_in[sender];
    if (in.current == nullptr) {
      in.current = &r;
      send_ack(sender, bits, layout::kAckCts);
    } else {
      in.cts_wait.push_back(&r);
    }
    return;
  }
  if ((bits & layout::kMsgAcked) != 0) send_ack(sender, bits);
  r.state = State::done;
}

namespace {

// A record drained from ring `sender`: to the first matching posted receive, else to
// the unexpected queue.
void handle_record(std::uint32_t sender, const MsgHeader& h) {
  const auto* body = reinterpret_cast<const std::byte*>(&h + 1);
  const bool eager = kind_of(h.kind_bits) == static_cast<std::uint32_t>(MsgKind::eager);
  std::uint64_t rndv_addr = 0;
  if (!eager) {
    layout::RndvPayload p;
    std::memcpy(&p, body, sizeof p);
    rndv_addr = p.addr;
  }
  for (P2pRequest* r = g_posted.first; r != nullptr; r = r->next) {
    if (!matches(h.context, h.src, h.tag, r->context, r->peer, r->tag)) continue;
    g_posted.remove(r);
    publish_posted();
    deliver(*r, sender, h.kind_bits, h.src, h.tag, h.bytes, eager ? body : nullptr, rndv_addr);
    return;
  }
  auto* u = new Unexpected;
  u->context = h.context;
  u->src = h.src;
  u->tag = h.tag;
  u->bytes = h.bytes;
  u->kind_bits = h.kind_bits;
  u->sender = sender;
  u->rndv_addr = rndv_addr;
  if (eager && h.bytes > 0) {
    u->payload.reset(new std::byte[h.bytes]);
    copy_bytes(u->payload.get(), body, h.bytes);
  }
  g_unexpected.push_back(u);
  publish_counts();
}

}  // namespace

bool drain(std::uint32_t sender) {
  InboxMap& own = own_inbox();
  InRing& in = g_in[sender];
  std::byte* data = own.data(sender);
  const std::uint64_t mask = own.ring_bytes - 1;
  const std::uint64_t start = in.head;
  for (;;) {
    const auto& h = *reinterpret_cast<const MsgHeader*>(data + (in.head & mask));
    if (h.pos.load(std::memory_order_acquire) != in.head) break;
    if (kind_of(h.kind_bits) == static_cast<std::uint32_t>(MsgKind::skip)) {
      in.head += own.ring_bytes - (in.head & mask);
      own.ctl(sender).head.store(in.head, std::memory_order_release);
      continue;
    }
    handle_record(sender, h);
    // The record's later lines held payload: clear their pos words before the writer may
    // reuse them, so no stale payload ever reads as the position a future head expects
    // (the header line keeps an old position, which no later lap repeats).
    const std::uint64_t rec = record_bytes(h);
    for (std::uint64_t at = layout::kRecordAlign; at < rec; at += layout::kRecordAlign) {
      reinterpret_cast<MsgHeader*>(data + ((in.head + at) & mask))->pos.store(0, std::memory_order_relaxed);
    }
    in.head += rec;
    // Published per record, so a streaming writer refills while we copy the next one.
    own.ctl(sender).head.store(in.head, std::memory_order_release);
  }
  if (in.head == start) return false;
  if (sender != g_rt.rank) wake(sender);  // it may wait for ring space
  return true;
}

// Copies the chunks the senders have streamed into their receives; clears the next
// matched pipelined receive of a sender to send when one completes.
bool pull_streams() {
  bool did = false;
  InboxMap& own = own_inbox();
  for (std::uint32_t s = 0; s < g_in.size(); ++s) {
    InRing& in = g_in[s];
    if (in.current == nullptr) continue;
    layout::StreamCtl& sc = own.stream_ctl(s);
    const std::byte* area = own.stream(s);
    const std::uint64_t written = sc.written.load(std::memory_order_acquire);
    bool moved = false;
    while (in.chunks_read < written && in.current != nullptr) {
      P2pRequest& r = *in.current;
      const std::uint64_t m = std::min(g_chunk, r.total - r.streamed);
      const auto cap = static_cast<std::uint64_t>(r.bytes);
      if (r.streamed < cap) {  // a truncated receive drops what does not fit
        types::unpack_range(*r.type, *r.flat, area + (in.chunks_read % layout::kStreamSlots) * g_chunk,
                            static_cast<MPI_Count>(r.streamed), static_cast<MPI_Count>(std::min(m, cap - r.streamed)),
                            r.buf);
      }
      sc.read.store(++in.chunks_read, std::memory_order_release);
      r.streamed += m;
      moved = true;
      if (r.streamed < r.total) continue;
      r.state = State::done;
      --g_receiving;
      in.current = in.cts_wait.first;
      if (in.current != nullptr) {
        in.cts_wait.remove(in.current);
        send_ack(s, in.current->ack_bits, layout::kAckCts);
      }
    }
    if (moved) {
      did = true;
      wake(s);  // it may wait for stream space
    }
  }
  return did;
}

}  // namespace shmpi::client::p2p::impl
