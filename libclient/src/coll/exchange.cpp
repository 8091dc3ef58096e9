#include "coll/exchange.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "coll/stream.hpp"
#include "types/pack.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

// One member's piece for us, as it is read.
struct Incoming {
  enum class State : std::uint8_t { waiting, streaming, done } state = State::waiting;
  std::uint32_t first = 0, chunks = 0, next = 0;  // its stream, and the next chunk to read
  std::uint64_t bytes = 0, room = 0;               // its size, and what fits our buffer
};

bool posted_now(const Call& k, int r) { return desc(k, r).seq.load(std::memory_order_acquire) == k.seq; }

// Our streamed pieces, pumped in chunk order.
struct Outgoing {
  const Buf* send = nullptr;
  int piece = 0;            // the piece being pumped (k.n: all done)
  std::uint32_t chunk = 0;  // its next chunk
  // When the ring is full: the reader of the chunk that must be read first, and the
  // flag and value that say it was (its post, if it has not posted yet).
  int blocker = -1;
  layout::Flag* until = nullptr;
  std::uint32_t target = 0;
};

// Whether chunk c of our stream may be written now: the chunk kStreamChunks back, if it
// is this call's, has been read by its reader (one that posted an invalid descriptor
// reads nothing; of one that has not posted yet, we cannot know). Else o says whom we
// wait for.
bool room_for(Call& k, const layout::PieceDesc* t, std::uint32_t c, Outgoing& o) {
  const std::uint32_t back = c - layout::kStreamChunks;
  if (static_cast<std::int32_t>(back - k.stream_first) < 0) return true;
  for (int q = 0; q < k.n; ++q) {
    const std::uint64_t s = t[q].stream;
    if ((s & layout::kPieceStreamed) == 0) continue;
    if (back - static_cast<std::uint32_t>(s) >= stream_chunks(t[q].bytes)) continue;
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
  return true;
}

// Pumps chunks while there is room; true if it wrote any.
bool pump_some(Call& k, Outgoing& o) {
  if (o.send == nullptr) return false;
  const layout::PieceDesc* t = my_pieces(k);
  bool moved = false;
  while (o.piece < k.n) {
    const layout::PieceDesc& p = t[o.piece];
    const std::uint32_t count = (p.stream & layout::kPieceStreamed) != 0 ? stream_chunks(p.bytes) : 0;
    if (o.chunk >= count) {
      ++o.piece;
      o.chunk = 0;
      continue;
    }
    const std::uint32_t c = static_cast<std::uint32_t>(p.stream) + o.chunk;
    if (!room_for(k, t, c, o)) break;
    const std::uint64_t off = std::uint64_t{o.chunk} * layout::kStreamChunk;
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(layout::kStreamChunk, p.bytes - off));
    stream_detail::write_chunk(k, StreamPart{&o.send[o.piece], nullptr, p.bytes, 0, o.piece}, off, len, c);
    ++o.chunk;
    moved = true;
  }
  return moved;
}

// Reads what member r has for us now; true if anything moved. False in `ok` if a copy
// failed.
bool read_some(Call& k, int r, Incoming& in, const Buf& dst, bool& ok) {
  if (in.state == Incoming::State::waiting) {
    if (!posted_now(k, r)) return false;
    // A writer that exposed or streams waits for our `done` of this call: no batching
    // (as wait_posted).
    if ((desc(k, r).status & layout::kDescExposed) != 0) k.urgent_done = true;
    in.state = Incoming::State::done;
    if (!peer_ok(k, r)) return true;
    std::uint64_t bytes = 0;
    const Source src = piece_from(k, r, bytes);
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
    if (part > 0) {
      const std::byte* from = stream_chunk(k, r, in.first + in.next);
      if (dst.contiguous()) {
        std::memcpy(dst.data() + off, from, part);
      } else {
        types::unpack_range(*dst.type, *dst.flat, from, static_cast<MPI_Count>(off), static_cast<MPI_Count>(part),
                            dst.addr);
      }
    }
    ++in.next;
    signal_flag(k.b->ack(k.me, r), in.first + in.next);
    moved = true;
  }
  if (in.next == in.chunks) in.state = Incoming::State::done;
  return moved;
}

// Nothing could move: pause (a core of our own) or give the core to the members that
// must move (oversubscribed), and after a while sleep briefly on the flag most likely
// to move. Briefly: what frees us may come on another member's flag.
constexpr std::uint32_t kIdleRounds = 256;
constexpr std::int64_t kIdleSleepNs = 200'000;
void idle(Call& k, int who, layout::Flag& likely, std::uint32_t target, std::uint32_t& rounds) {
  if (rounds++ == 0) {
    flush_done(k.comm);  // a member may wait for our batched `done`
    k.mine->waiting_on.store(who, std::memory_order_relaxed);
  }
  if (rounds < kIdleRounds) {
    if (g_wait.oversubscribed) {
      sched_yield();
    } else {
      cpu_relax();
    }
    return;
  }
  sleep_on_flag(likely, kIdleSleepNs, [target](std::uint32_t seen) { return reached(seen, target); });
}

}  // namespace

bool exchange(Call& k, const Buf* send, const Buf* recv) {
  std::vector<Incoming> in(static_cast<std::size_t>(k.n));
  in[static_cast<std::size_t>(k.me)].state = Incoming::State::done;
  Outgoing out{k.streaming ? send : nullptr, 0, 0};
  bool ok = true;
  std::uint32_t rounds = 0;
  for (;;) {
    bool moved = pump_some(k, out);
    int pending = -1;  // a member whose piece we still wait for
    for (int i = 1; i < k.n; ++i) {
      const int r = (k.me + i) % k.n;
      Incoming& x = in[static_cast<std::size_t>(r)];
      moved = read_some(k, r, x, recv[r], ok) || moved;
      if (x.state != Incoming::State::done && pending < 0) pending = r;
    }
    const bool pumped = out.send == nullptr || out.piece >= k.n;
    if ((pumped && pending < 0) || (!moved && job_aborted())) {
      k.mine->waiting_on.store(-1, std::memory_order_relaxed);
      return ok && !job_aborted();
    }
    if (moved) {
      if (rounds > 0) k.mine->waiting_on.store(-1, std::memory_order_relaxed);
      rounds = 0;
      continue;
    }
    // The flag to sleep on: the next chunk (or post) of the first member we wait for,
    // else our readers' acks (our ring is full).
    if (pending >= 0) {
      const Incoming& x = in[static_cast<std::size_t>(pending)];
      if (x.state == Incoming::State::waiting) {
        idle(k, pending, k.b->rank(pending).posted, k.seq, rounds);
      } else {
        idle(k, pending, k.b->rank(pending).streamed, x.first + x.next + 1, rounds);
      }
    } else {
      idle(k, out.blocker, *out.until, out.target, rounds);
    }
  }
}

}  // namespace shmpi::client::coll
