#include "coll/exchange.hpp"

#include <sched.h>

#include <algorithm>
#include <vector>

#include "coll/stream.hpp"
#include "shmpi_common/cache.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

// One member's piece for us, as it is read (Incoming{}: waiting, nothing read; no
// default member initializers, so that an array of them costs nothing until used).
struct Incoming {
  enum class State : std::uint8_t { waiting, streaming, done } state;
  std::uint32_t first, chunks, next;  // its stream, and the next chunk to read
  std::uint64_t bytes, room;          // its size, and what fits our buffer
};

// Our streamed pieces, pumped in chunk order: one per member (send[r] for r, our piece
// table says which are streamed), or one contribution every other member reads whole
// (send[0], our descriptor's stream).
struct Outgoing {
  const Buf* send = nullptr;
  bool whole = false;
  int piece = 0;            // the part being pumped (parts(): all done)
  std::uint32_t chunk = 0;  // its next chunk
  // When the ring is full: the reader of the chunk that must be read first, and the
  // flag and value that say it was (its post, if it has not posted yet).
  int blocker = -1;
  layout::Flag* until = nullptr;
  std::uint32_t target = 0;
  int parts(const Call& k) const { return whole ? 1 : k.n; }
};

// Whether reader q has read chunk `back` of our stream (one that posted an invalid
// descriptor reads nothing; of one that has not posted yet, we cannot know). Else o says
// whom and what we wait for.
bool read_by(Call& k, int q, std::uint32_t back, Outgoing& o) {
  o.blocker = q;
  if (!posted_now(k, q)) {
    o.until = &k.b->rank(q).posted;
    o.target = k.seq;
    return false;
  }
  if (invalid(desc(k, q))) return true;
  o.until = &k.b->ack(q, k.me);
  o.target = back + 1;
  return reached(o.until->value.load(std::memory_order_acquire), back + 1);
}

// Whether chunk c of our stream may be written now: the chunk kStreamChunks back, if it
// is this call's, has been read by its reader (t: our piece table), or by every other
// member (t null: a whole contribution).
bool room_for(Call& k, const layout::PieceDesc* t, std::uint32_t c, Outgoing& o) {
  const std::uint32_t back = c - layout::kStreamChunks;
  if (static_cast<std::int32_t>(back - k.stream_first) < 0) return true;
  if (t == nullptr) {
    for (int q = 0; q < k.n; ++q) {
      if (q != k.me && !read_by(k, q, back, o)) return false;
    }
    return true;
  }
  const int q = piece_holding(k, t, back);
  return q < 0 || read_by(k, q, back, o);
}

// Pumps chunks while there is room; true if it wrote any.
bool pump_some(Call& k, Outgoing& o) {
  if (o.send == nullptr) return false;
  const layout::PieceDesc* t = o.whole ? nullptr : my_pieces(k);
  bool moved = false;
  while (o.piece < o.parts(k)) {
    // Part o.piece: its bytes and first chunk (0 bytes: a piece that is not streamed).
    std::uint64_t bytes = 0;
    std::uint32_t first = 0;
    if (o.whole) {
      const layout::CallDesc& d = my_desc(k);
      bytes = d.bytes;
      first = static_cast<std::uint32_t>(d.value[0]);
    } else if (const layout::PieceDesc& p = t[o.piece]; (p.stream & layout::kPieceStreamed) != 0) {
      bytes = p.bytes;
      first = static_cast<std::uint32_t>(p.stream);
    }
    if (o.chunk >= stream_chunks(bytes)) {
      ++o.piece;
      o.chunk = 0;
      continue;
    }
    const std::uint32_t c = first + o.chunk;
    if (!room_for(k, t, c, o)) break;
    const std::uint64_t off = std::uint64_t{o.chunk} * layout::kStreamChunk;
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(layout::kStreamChunk, bytes - off));
    stream_detail::write_chunk(k, StreamPart{&o.send[o.piece], nullptr, bytes, 0, o.whole ? -1 : o.piece}, off, len,
                               c);
    ++o.chunk;
    moved = true;
  }
  return moved;
}

// Reads what member r has for us now (its piece for us, or its whole contribution);
// true if anything moved. False in `ok` if a copy failed.
bool read_some(Call& k, int r, bool whole, Incoming& in, const Buf& dst, bool& ok) {
  if (in.state == Incoming::State::waiting) {
    if (!posted_now(k, r)) return false;
    // A writer that exposed or streams waits for our `done` of this call: no batching
    // (as wait_posted).
    if ((desc(k, r).status & layout::kDescExposed) != 0) k.urgent_done = true;
    // As wait_posted: a member that runs ahead may have posted its next call already.
    prefetch_for_read(&k.b->rank(r).desc[(k.slot + 1) % layout::kCallSlots]);
    in.state = Incoming::State::done;
    if (!peer_ok(k, r)) return true;
    std::uint64_t bytes = 0;
    Source src;
    if (whole) {
      bytes = desc(k, r).bytes;
      src = source(k, r, desc(k, r));
    } else {
      src = piece_from(k, r, bytes);
    }
    if (src.stream == 0) {
      ok = receive(k, r, src, 0, bytes, dst) && ok;  // staged or exposed: no waiting
      return true;
    }
    in.state = Incoming::State::streaming;
    in.first = static_cast<std::uint32_t>(src.stream);
    in.chunks = stream_chunks(bytes);
    in.bytes = bytes;
    in.room = receivable(k, r, bytes, dst);
  }
  if (in.state != Incoming::State::streaming) return false;
  const std::uint32_t written = k.b->rank(r).streamed.value.load(std::memory_order_acquire);
  bool moved = false;
  while (in.next < in.chunks && reached(written, in.first + in.next + 1)) {
    const std::uint64_t off = std::uint64_t{in.next} * layout::kStreamChunk;
    const std::uint64_t len = std::min<std::uint64_t>(layout::kStreamChunk, in.bytes - off);
    const std::uint64_t part = off < in.room ? std::min(len, in.room - off) : 0;
    if (part > 0) copy_out(stream_chunk(k, r, in.first + in.next), dst, off, part);
    ++in.next;
    signal_flag(k.b->ack(k.me, r), in.first + in.next);
    moved = true;
  }
  if (in.next == in.chunks) in.state = Incoming::State::done;
  return moved;
}

// Nothing could move. First a spin phase as wait_posted's (a batched `done` stays
// unpublished: the members usually arrive within it); then, having published it (a
// member may wait for it), pause (a core of our own) or give the core to the members
// that must move (oversubscribed); after a while sleep briefly on the flag most likely
// to move. Briefly: what frees us may come on another member's flag. As wait_flag
// (wait.hpp), the point-to-point engine and the nonblocking calls in flight make
// progress at each yield, every 64 pauses and before each sleep: a member may wait for
// a message of ours before it enters this call.
constexpr std::uint32_t kIdleRounds = 256;
constexpr std::int64_t kIdleSleepNs = 200'000;
void idle(Call& k, int who, layout::Flag& likely, std::uint32_t target, std::uint32_t& rounds) {
  const std::uint32_t quiet = post_spins();
  if (++rounds <= quiet) {
    cpu_relax();
    return;
  }
  if (rounds == quiet + 1) {
    flush_done(k.comm);
    k.mine->waiting_on.store(who, std::memory_order_relaxed);
  }
  const auto engine = [] { return g_wait.engine_poll != nullptr && g_wait.engine_poll(); };
  // With a core each, as long as wait_posted spins (wait_flag's coll_spin_limit) before
  // it sleeps: 256 rounds here made 2-rank 8-byte MPI_Alltoall loops bimodal in a VM's
  // slow phases (median 0.66-1.14 us per call, min 0.37-0.93; with this 0.40-0.42,
  // min 0.38-0.39, where MPI_Allreduce, through wait_posted, held 0.45-0.57).
  const std::uint32_t budget = g_wait.oversubscribed ? kIdleRounds : std::max(kIdleRounds, g_wait.coll_spin_limit);
  if (rounds < quiet + budget) {
    if (g_wait.oversubscribed) {
      engine();
      sched_yield();
    } else {
      if (rounds % 64 == 0) engine();
      cpu_relax();
    }
    return;
  }
  engine();
  sleep_on_flag(likely, kIdleSleepNs, [target](std::uint32_t seen) { return reached(seen, target); });
}

// The exchange: pumps `out` while there is room, reads every other member's part into
// recv[r] as it comes.
bool run(Call& k, Outgoing out, const Buf* recv) {
  // On the stack up to 64 members (no allocation, no TLS lookup per call).
  constexpr int kOnStack = 64;
  Incoming on_stack[kOnStack];
  std::vector<Incoming> on_heap(k.n > kOnStack ? static_cast<std::size_t>(k.n) : 0);
  Incoming* const in = k.n > kOnStack ? on_heap.data() : on_stack;
  for (int r = 0; r < k.n; ++r) in[r] = Incoming{};
  in[k.me].state = Incoming::State::done;
  bool ok = true;
  std::uint32_t rounds = 0;
  for (;;) {
    bool moved = pump_some(k, out);
    int pending = -1;  // a member whose piece we still wait for
    for (int i = 1; i < k.n; ++i) {
      const int r = (k.me + i) % k.n;
      Incoming& x = in[r];
      moved = read_some(k, r, out.whole, x, recv[r], ok) || moved;
      if (x.state != Incoming::State::done && pending < 0) pending = r;
    }
    const bool pumped = out.send == nullptr || out.piece >= out.parts(k);
    if ((pumped && pending < 0) || (!moved && job_aborted())) {
      k.mine->waiting_on.store(-1, std::memory_order_relaxed);
      return ok && !job_aborted();
    }
    if (moved) {
      if (rounds > post_spins()) {
        k.mine->waiting_on.store(-1, std::memory_order_relaxed);
      }
      rounds = 0;
      continue;
    }
    // The flag to sleep on: the next chunk (or post) of the first member we wait for,
    // else our readers' acks (our ring is full).
    if (pending >= 0) {
      const Incoming& x = in[pending];
      if (x.state == Incoming::State::waiting) {
        // Its post is what we wait for: in the spin phase poll just that line, as
        // wait_posted does (small calls, members arriving together).
        const std::uint32_t quiet = post_spins();
        while (rounds < quiet && !posted_now(k, pending)) {
          ++rounds;
          cpu_relax();
        }
        if (rounds < quiet) continue;
        idle(k, pending, k.b->rank(pending).posted, k.seq, rounds);
      } else {
        idle(k, pending, k.b->rank(pending).streamed, x.first + x.next + 1, rounds);
      }
    } else {
      idle(k, out.blocker, *out.until, out.target, rounds);
    }
  }
}

}  // namespace

bool exchange(Call& k, const Buf* send, const Buf* recv) {
  return run(k, Outgoing{k.streaming ? send : nullptr, false}, recv);
}

bool exchange_whole(Call& k, const Buf* mine, const Buf* recv) {
  return run(k, Outgoing{k.streaming ? mine : nullptr, true}, recv);
}

}  // namespace shmpi::client::coll
