#include "p2p/engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "errors.hpp"
#include "p2p/state.hpp"
#include "runtime.hpp"
#include "types/status.hpp"

namespace shmpi::client::p2p {
namespace impl {

std::vector<OutRing> g_out;  // by world rank
std::vector<InRing> g_in;    // by world rank
Queue<P2pRequest> g_posted;
Queue<P2pRequest> g_acking;
Queue<Unexpected> g_unexpected;
std::uint32_t g_pending = 0;  // queued sends over all peers
std::uint32_t g_streaming = 0;  // pipelined sends being written
std::uint32_t g_receiving = 0;  // pipelined receives being drained
std::uint64_t g_eager = 0;
bool g_pipeline = true;         // stream rendezvous data through the stream area (else CMA)
std::uint64_t g_chunk = 0;      // stream chunk bytes

// ---- what shmpi-dump sees ------------------------------------------------------------

void publish_posted() {
  // Only the entries that can have changed: a receive usually waits alone, so posting
  // it writes one entry and matching it clears one.
  static std::uint32_t shown = 0;  // entries published non-empty last time
  layout::InboxHeader& h = own_inbox().header();
  h.posted.store(g_posted.size, std::memory_order_relaxed);
  const std::uint32_t n = std::min<std::uint32_t>(g_posted.size, layout::kShownPosted);
  const P2pRequest* r = g_posted.first;
  for (std::uint32_t i = 0; i < n; ++i, r = r->next) h.shown[i] = layout::PostedShown{r->context, r->peer, r->tag, 0};
  for (std::uint32_t i = n; i < shown; ++i) h.shown[i] = layout::PostedShown{};
  shown = n;
}

void publish_counts() {
  layout::InboxHeader& h = own_inbox().header();
  h.unexpected.store(g_unexpected.size, std::memory_order_relaxed);
  h.sends_pending.store(g_pending + g_acking.size + g_streaming, std::memory_order_relaxed);
}

}  // namespace impl

using namespace impl;

namespace {

bool poll_hook(RequestObj* base) {
  auto* r = static_cast<P2pRequest*>(base);
  if (r->state != State::done) progress();
  return r->state == State::done;
}

// MPI_Wait & co. with point-to-point requests pending (request.cpp's Backoff).
void polled_sleep(long timeout_ns) {
  layout::InboxHeader& h = own_inbox().header();
  h.waiting.store(static_cast<std::uint32_t>(layout::P2pWait::requests), std::memory_order_relaxed);
  sleep_on_doorbell(timeout_ns, [] { return progress(); });
  h.waiting.store(static_cast<std::uint32_t>(layout::P2pWait::none), std::memory_order_relaxed);
}

}  // namespace

P2pRequest::~P2pRequest() {
  if (type != nullptr) types::release_internal(type);
}

bool init(std::string& why) {
  if (!create_own_inbox(why)) return false;
  g_polled_sleep = &polled_sleep;
  g_wait.engine_poll = [] {
    progress();  // drains even when idle: frees ring space for a blocked sender
    return busy();
  };
  g_out.assign(g_rt.size, OutRing{});
  g_in.assign(g_rt.size, InRing{});
  g_eager = own_inbox().ring_bytes / 4;
  // Pipelining needs sender and receiver running at once: not when ranks share cores.
  g_pipeline = !g_wait.oversubscribed;
  if (const char* e = std::getenv("SHMPI_P2P_PIPELINE")) g_pipeline = std::strcmp(e, "0") != 0;
  g_chunk = layout::stream_chunk(own_inbox().ring_bytes);
  if (const char* e = std::getenv("SHMPI_P2P_EAGER_BYTES")) {
    const unsigned long long x = std::strtoull(e, nullptr, 0);
    if (x <= own_inbox().ring_bytes / 4) g_eager = x;
  }
  return true;
}

bool flush_sends() {
  set_wait_target(MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
  return wait_until([] { return g_pending == 0 && g_acking.empty() && g_streaming == 0; }, layout::P2pWait::send);
}

void finalize() {
  g_polled_sleep = nullptr;
  g_wait.engine_poll = nullptr;
  while (Unexpected* u = g_unexpected.first) {
    g_unexpected.remove(u);
    delete u;
  }
  g_posted = {};
  g_acking = {};
  g_out.clear();
  g_in.clear();
  g_pending = g_streaming = g_receiving = 0;
  close_inboxes();
}

void setup(P2pRequest& r, P2pRequest::Op op, Mode mode, CommObj* c, const void* buf, MPI_Count count,
           types::Datatype* t, const types::Flat* f, int peer, int tag) {
  r.op = op;
  r.mode = mode;
  r.comm = c;
  r.context = c->context_id;
  r.my_rank = c->rank;
  r.peer = peer;
  r.world_peer = peer >= 0 ? static_cast<std::uint32_t>(c->world_of[static_cast<std::size_t>(peer)]) : 0;
  r.tag = tag;
  r.buf = const_cast<void*>(buf);
  r.count = count;
  if (r.type != t) {
    types::retain_internal(t);
    if (r.type != nullptr) types::release_internal(r.type);
    r.type = t;
  }
  r.flat = f;
  r.bytes = count * t->size;
  r.poll = &poll_hook;
}

int start(P2pRequest& r, std::string& why) {
  r.status = MPI_Status{};
  r.cancel_requested = false;
  r.complete.store(false, std::memory_order_relaxed);
  if (r.peer == MPI_PROC_NULL) {
    proc_null_status(r.status);
    r.state = State::done;
    return MPI_SUCCESS;
  }
  if (r.op == P2pRequest::Op::recv) {
    if (Unexpected* u = find_unexpected(r.context, r.peer, r.tag)) {
      take_unexpected(u);
      receive_message(r, u);
      return MPI_SUCCESS;
    }
    r.state = State::posted;
    g_posted.push_back(&r);
    publish_posted();
    return MPI_SUCCESS;
  }
  OutRing& o = g_out[r.world_peer];
  if (o.inbox == nullptr) {
    o.inbox = peer_inbox(r.world_peer, why);
    if (o.inbox == nullptr) {
      r.status.MPI_ERROR = make_error_code(MPI_ERR_OTHER, why);
      r.state = State::done;
      return MPI_ERR_OTHER;
    }
  }
  if (o.pending.empty() && try_write(o, r)) {
    if (r.state != State::done) publish_counts();
    return MPI_SUCCESS;
  }
  r.state = State::queued;
  o.pending.push_back(&r);
  ++g_pending;
  publish_counts();
  return MPI_SUCCESS;
}

bool progress() {
  bool did = false;
  for (std::uint32_t s = 0; s < g_in.size(); ++s) did |= drain(s);
  if (g_pending != 0) did |= push_pending();
  if (!g_acking.empty()) did |= collect_acks();
  if (g_streaming != 0) did |= push_streams();
  if (g_receiving != 0) did |= pull_streams();
  if (did) {
    ++g_engine_events;
    publish_counts();
  }
  return did;
}

bool busy() { return !g_posted.empty() || g_pending != 0 || !g_acking.empty() || g_streaming != 0 || g_receiving != 0; }

void cancel(P2pRequest& r) {
  if (r.op != P2pRequest::Op::recv || r.state != State::posted) return;  // sends: MPI-4.1 3.8.4, may fail
  g_posted.remove(&r);
  publish_posted();
  r.status.MPI_SOURCE = MPI_ANY_SOURCE;
  r.status.MPI_TAG = MPI_ANY_TAG;
  r.status.MPI_ERROR = MPI_SUCCESS;
  types::set_status_bytes(r.status, 0);
  set_status_cancelled(r.status, true);
  r.state = State::done;
}

void abandon(P2pRequest& r) {
  switch (r.state) {
    case State::posted: g_posted.remove(&r); publish_posted(); break;
    case State::queued: g_out[r.world_peer].pending.remove(&r); --g_pending; break;
    case State::acking: g_acking.remove(&r); break;
    case State::streaming:
      if (r.op == P2pRequest::Op::recv) {
        InRing& in = g_in[r.stream_sender];
        if (in.current == &r) {
          in.current = nullptr;  // the job is dying: the sender's stream is left unread
        } else {
          in.cts_wait.remove(&r);
        }
        --g_receiving;
      } else {
        g_out[r.world_peer].streams.remove(&r);
        --g_streaming;
      }
      break;
    default: break;
  }
  r.state = State::done;
  publish_counts();
}

Unexpected* find_unexpected(std::uint32_t context, int src, int tag) {
  for (Unexpected* u = g_unexpected.first; u != nullptr; u = u->next) {
    if (matches(u->context, u->src, u->tag, context, src, tag)) return u;
  }
  return nullptr;
}

void take_unexpected(Unexpected* u) {
  g_unexpected.remove(u);
  publish_counts();
}

void receive_message(P2pRequest& r, Unexpected* u) {
  const bool eager = kind_of(u->kind_bits) == static_cast<std::uint32_t>(MsgKind::eager);
  deliver(r, u->sender, u->kind_bits, u->src, u->tag, u->bytes, eager ? u->payload.get() : nullptr, u->rndv_addr);
  delete u;
}

void probe_status(const Unexpected& u, MPI_Status* st) {
  if (st == MPI_STATUS_IGNORE) return;
  st->MPI_SOURCE = u.src;
  st->MPI_TAG = u.tag;
  types::set_status_bytes(*st, static_cast<MPI_Count>(u.bytes));
  st->MPI_internal[2] = 0;
}

void proc_null_status(MPI_Status& s) {
  s.MPI_SOURCE = MPI_PROC_NULL;
  s.MPI_TAG = MPI_ANY_TAG;
  s.MPI_ERROR = MPI_SUCCESS;
  types::set_status_bytes(s, 0);
  s.MPI_internal[2] = 0;
}

}  // namespace shmpi::client::p2p
