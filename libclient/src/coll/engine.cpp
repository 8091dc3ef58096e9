#include "coll/engine.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "coll/fiber.hpp"
#include "coll/path_choice.hpp"
#include "coll/stream.hpp"
#include "copy_bytes.hpp"
#include "runtime.hpp"
#include "shmpi_common/cache.hpp"
#include "types/pack.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

// process_vm_readv/writev of one contiguous range, resumed after partial transfers.
bool cma(pid_t pid, bool write, void* local, std::uint64_t remote, std::size_t len, std::string& why) {
  auto* l = static_cast<char*>(local);
  while (len > 0) {
    iovec li{l, len};
    iovec ri{reinterpret_cast<void*>(remote), len};
    const ssize_t got = write ? process_vm_writev(pid, &li, 1, &ri, 1, 0) : process_vm_readv(pid, &li, 1, &ri, 1, 0);
    if (got <= 0) {
      const int err = got < 0 ? errno : EFAULT;
      why = std::string(write ? "process_vm_writev" : "process_vm_readv") + " with pid " + std::to_string(pid) + ": " +
            std::strerror(err);
      // A dead peer: let the job's abort arrive, so result() reports it as such.
      await_abort_after_peer_loss(err);
      return false;
    }
    l += got;
    remote += static_cast<std::uint64_t>(got);
    len -= static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

namespace {
bool wait_for(Call& k, int r, layout::Flag& f, std::uint32_t target);

void publish(CommObj* c, layout::CommRank& mine) {
  c->done_published = c->done_upto;
  signal_flag(mine.done, c->done_upto);
}
}  // namespace

void flush_done(CommObj* c) {
  if (c->block != nullptr && c->done_published != c->done_upto) publish(c, c->block->rank(c->rank));
}

std::optional<std::uint32_t> g_taken_seq;

std::uint32_t take_seq(CommObj* c, layout::CollKind kind) {
  const std::uint32_t seq = ++c->seq;
  layout::CommRank& mine = c->block->rank(c->rank);
  mine.calls.store(seq, std::memory_order_relaxed);
  mine.waiting_kind.store(static_cast<std::uint32_t>(kind), std::memory_order_relaxed);
  // Batched `done` (publish_done): on entering call s, `done` >= s - kDoneBatch. A
  // member in call s waits for our done >= s - kStageDepth at most, so it waits at
  // most until we enter its call, which a collective may do (MPI-4.1 6.14).
  if (c->done_upto - c->done_published >= kDoneBatch) publish(c, mine);
  return seq;
}

Call begin(CommObj* c, layout::CollKind kind) {
  Call k(c, g_taken_seq ? *std::exchange(g_taken_seq, std::nullopt) : take_seq(c, kind));
  // Every member of these posts once in every path (post() is the only store of a
  // descriptor's seq), and all of them wait for every post in their small paths.
  using K = layout::CollKind;
  k.gated = k.b->gated && (kind == K::barrier || kind == K::allgather || kind == K::alltoall ||
                           kind == K::allreduce || kind == K::reduce_scatter);
  // Our own call seq - kStageDepth may still be in flight (a nonblocking one, nbc.hpp):
  // no call starts before it has finished, so every call finishes less than
  // kStageDepth past done_upto (publish_done) and our own slots are free for reserve().
  // Blocking calls alone finish in order: then this always holds at once. An abort
  // is noticed by the call's next wait.
  const std::uint32_t need = k.seq - layout::kStageDepth;
  if (!reached(c->done_upto, need)) (void)wait_for(k, k.me, k.mine->done, need);
  return k;
}

namespace {
bool wait_for(Call& k, int r, layout::Flag& f, std::uint32_t target) {
  if (reached(f.value.load(std::memory_order_acquire), target)) return true;
  // Never wait with a `done` held back: the member we wait for may be waiting for it.
  flush_done(k.comm);
  k.mine->waiting_on.store(r, std::memory_order_relaxed);
  bool ok = true;
  if (current_task() != nullptr) {
    // A nonblocking call's task (nbc.hpp): suspend until the flag moves.
    while (!reached(f.value.load(std::memory_order_acquire), target)) {
      if (job_aborted()) {
        ok = false;
        break;
      }
      yield_on(f, target);
    }
  } else {
    ok = wait_flag(f, target, nullptr, AssumeCoreNeeded{}, g_wait.coll_spin_limit);
  }
  k.mine->waiting_on.store(-1, std::memory_order_relaxed);
  return ok;
}

// Publishes this rank's `done`: the highest call up to which every call of this
// communicator has finished here. Blocking calls finish in sequence order; a
// nonblocking one may finish before an earlier one, and `done` must not claim the
// earlier one too (its staging slot or exposed memory may still be read). A call
// finishes less than kStageDepth past done_upto (begin() waited for our own done), so
// 64 bits of done_ahead are enough. Calls are numbered per communicator on this rank,
// so these are plain fields of CommObj (MPI calls are serialized).
//
// Batching. A blocking call in which nobody exposed memory (k.lazy_done, and no
// kDescExposed seen, nothing written into a peer) may leave `done` unpublished: no
// member waits for it within this call (finish() waits only when something was
// exposed; a bcast reader waits for the root's done only after the root wrote into
// it), and reserve() asks for seq - kStageDepth at most. It is published by the next wait
// in the engine (wait_for, wait_posted), by begin() once kDoneBatch calls behind,
// and by flush_done() before the block goes away.
void publish_done(Call& k) {
  CommObj* c = k.comm;
  if (k.seq == c->done_upto + 1 && c->done_ahead == 0) {
    c->done_upto = k.seq;
    k.mine->finished.store(k.seq, std::memory_order_relaxed);
    if (k.lazy_done && !k.urgent_done && !k.exposed && current_task() == nullptr) return;
    publish(c, *k.mine);
    return;
  }
  const std::uint32_t ahead = k.seq - c->done_upto - 1;
  if (ahead >= 64) return;  // only after an abort, when begin() could not wait
  c->done_ahead |= std::uint64_t{1} << ahead;
  std::uint32_t upto = c->done_upto;
  while ((c->done_ahead & 1) != 0) {
    c->done_ahead >>= 1;
    ++upto;
  }
  if (upto == c->done_upto) return;
  c->done_upto = upto;
  k.mine->finished.store(upto, std::memory_order_relaxed);
  publish(c, *k.mine);
}
}  // namespace

std::uint32_t post_spins() {
  return current_task() != nullptr ? 1 : std::min<std::uint32_t>(256, g_wait.coll_spin_limit + 1);
}

bool wait_posted(Call& k, int r) {
  // Poll the descriptor line first (it carries the small data too); the posted flag
  // is the futex word for a reader that has to sleep. A task checks once and yields.
  const layout::CallDesc& d = k.b->rank(r).desc[k.slot];
  const std::atomic<std::uint32_t>& s = d.seq;
  // A member that runs ahead (a root in a stream of calls) may have posted its next
  // call already: fetch that line while this one is handled (2 ranks, 8-byte
  // MPI_Reduce stream: 73 -> 66 ns per call).
  prefetch_for_read(&k.b->rank(r).desc[(k.slot + 1) % layout::kCallSlots]);
  // A member that exposed memory waits for our `done` of this call: no batching.
  auto seen = [&] {
    if ((d.status & layout::kDescExposed) != 0) k.urgent_done = true;
    return true;
  };
  // Polling here is the spin phase of the wait (bounded like wait_flag's: a rank
  // sharing its core with the writer must yield at once, not spin out its slice).
  const std::uint32_t spins = post_spins();
  for (std::uint32_t i = 0; i < spins; ++i) {
    if (s.load(std::memory_order_acquire) == k.seq) return seen();
    cpu_relax();
  }
  flush_done(k.comm);
  // `posted` reaching seq does not prove that call seq has posted: with nonblocking
  // calls a member may post a later call first (post() keeps the flag increasing). So
  // the descriptor's seq decides; the flag is what we sleep on. Reading the flag before
  // the descriptor makes a post between the two reads raise the flag past what we saw.
  layout::Flag& f = k.b->rank(r).posted;
  for (;;) {
    const std::uint32_t now = f.value.load(std::memory_order_acquire);
    if (s.load(std::memory_order_acquire) == k.seq) return seen();
    const std::uint32_t target = reached(now, k.seq) ? now + 1 : k.seq;
    if (current_task() != nullptr) {
      // Resumed when the descriptor line shows the call (the flag is for sleeping).
      if (job_aborted()) return false;
      k.mine->waiting_on.store(r, std::memory_order_relaxed);
      yield_on(f, target, &s, k.seq);
      k.mine->waiting_on.store(-1, std::memory_order_relaxed);
      continue;
    }
    if (!wait_for(k, r, f, target)) return false;
  }
}

bool posts_arrive(Call& k, int lo, int hi) {
  int r = lo;  // members before r have posted
  return poll_briefly([&] {
    while (r <= hi && (r == k.me || k.b->rank(r).desc[k.slot].seq.load(std::memory_order_acquire) == k.seq)) ++r;
    return r > hi;
  });
}

bool wait_done(Call& k, int r, std::uint32_t target) { return wait_for(k, r, k.b->rank(r).done, target); }

bool wait_on(Call& k, int r, layout::Flag& f, std::uint32_t target) { return wait_for(k, r, f, target); }

int first_not_done(CommObj& c, std::uint32_t need) {
  if (reached(c.seen_done_min, need)) return -1;
  const int n = c.size;
  std::vector<std::uint32_t>& seen = c.seen_done;
  if (seen.size() != static_cast<std::size_t>(n)) seen.assign(static_cast<std::size_t>(n), 0);
  std::uint32_t least = UINT32_MAX;  // min over the members of seen - need (all >= 0 below)
  for (int r = 0; r < n; ++r) {
    if (r == c.rank) continue;
    std::uint32_t& s = seen[static_cast<std::size_t>(r)];
    if (!reached(s, need)) {
      s = c.block->rank(r).done.value.load(std::memory_order_acquire);
      if (!reached(s, need)) return r;
    }
    least = std::min(least, s - need);
  }
  c.seen_done_min = n > 1 ? need + least : need;
  return -1;
}

namespace {
// Every member is done with call `need` (our slots of it are free).
bool reserve_upto(Call& k, std::uint32_t need) {
  if (reached(k.comm->seen_done_min, need)) return true;  // the common case, inline
  for (int r; (r = first_not_done(*k.comm, need)) >= 0;) {
    if (!wait_done(k, r, need)) return false;
  }
  return true;
}
}  // namespace

// Staging slot seq % kStageDepth was last used by call seq - kStageDepth, the
// descriptor by call seq - kCallSlots: every reader must be done with those.
bool reserve(Call& k) { return reserve_upto(k, reserved_upto(k.seq, false)); }

std::uint64_t small_max() { return g_wait.oversubscribed ? layout::kSmallStage : layout::kInlineBytes; }

bool pieces_small(int n, const Buf* send, int skip) {
  std::uint64_t off = 0, sum = 0;
  bool uniform = n > 1;
  const std::uint64_t b = uniform ? static_cast<std::uint64_t>(send[skip == 0 ? 1 : 0].bytes()) : 0;
  for (int j = 0; j < n; ++j) {
    if (j == skip) continue;
    const auto bytes = static_cast<std::uint64_t>(send[j].bytes());
    off += (bytes + 63) / 64 * 64;
    sum += bytes;
    uniform = uniform && bytes == b;
  }
  return stages_small(off, sum, uniform);
}

bool pieces_staged(int n, const Buf* send, int skip) {
  std::uint64_t off = 0;
  for (int j = 0; j < n; ++j) {
    if (j == skip) continue;
    const auto bytes = static_cast<std::uint64_t>(send[j].bytes());
    if (bytes > kStageMax) return false;
    off += (bytes + 63) / 64 * 64;
  }
  return off <= layout::kStageSlot;
}

bool reserve_small(Call& k) {
  k.small_stage = true;
  return reserve_upto(k, reserved_upto(k.seq, true));
}

namespace {
// Counts our post in the call's gate; the last member's post opens it. acq_rel: the
// opener's count has read every earlier poster's (their descriptors happen before its
// `release` store, which the waiters acquire).
// True if ours was the last post (the caller opens the gate, now or, deferred, later).
bool arrive(Call& k) {
  layout::CallGate& g = k.b->gate(k.slot);
  const std::uint64_t tag = std::uint64_t{k.seq} << 32;
  std::uint64_t w = g.count.load(std::memory_order_relaxed);
  std::uint64_t next = 0;
  do {
    // A word of an older call in this slot: every member has finished that call
    // (reserve()), so ours is its first arrival.
    next = (w & ~std::uint64_t{0xffffffff}) == tag ? w + 1 : tag + 1;
  } while (!g.count.compare_exchange_weak(w, next, std::memory_order_acq_rel, std::memory_order_relaxed));
  return (next & 0xffffffff) == static_cast<std::uint64_t>(k.n);
}
}  // namespace

// The members pinned to our core (CommObj::core_mates); false if ranks are not pinned.
bool core_mates(CommObj* c) {
  if (!c->mates_pinned) {
    c->mates_pinned = g_rt.core >= 0;
    for (int r = 0; r < c->size && g_rt.core >= 0; ++r) {
      const int w = c->world_of[static_cast<std::size_t>(r)];
      if (r != c->rank && g_rt.seg.slot(static_cast<std::uint32_t>(w)).core == g_rt.core) c->core_mates.push_back(r);
    }
  }
  return *c->mates_pinned;
}

void open_gate(Call& k) {
  k.opener = false;
  signal_flag(k.b->gate(k.slot).release, k.seq);
}

namespace {
bool sleep_on_gate(Call& k, bool until_open) {
  layout::Flag& rel = k.b->gate(k.slot).release;
  if (reached(rel.value.load(std::memory_order_acquire), k.seq)) return true;
  // Never wait with a `done` held back (wait_for): a member may be waiting for it.
  flush_done(k.comm);
  // Yield only while a member pinned to our core has not posted: once they all wait,
  // the missing posts come from other cores and a yield would only switch between
  // waiters (as the world barrier, barrier.cpp central).
  const bool known = core_mates(k.comm);
  const std::vector<int>& mates = k.comm->core_mates;
  // One pass over the posts: shows the first member not yet posted (for shmpi-dump;
  // refreshed at every yield or idle spin below and before every sleep, so a sleeping
  // waiter names one that had not posted when it last went to sleep, at most a sleep
  // slice ago) and returns whether a missing one is pinned to our core (any missing one
  // if ranks are not pinned). `missing`: whether any is.
  int shown = -1;
  auto scan = [&](bool& missing) {
    int first = 0;
    while (first < k.n && posted_now(k, first)) ++first;
    missing = first < k.n;
    if (!missing) first = -1;
    if (first != shown) k.mine->waiting_on.store(shown = first, std::memory_order_relaxed);
    if (!missing || !known) return missing;
    // The mates before `first` have posted (just read).
    return std::any_of(mates.begin(), mates.end(), [&](int r) { return r >= first && !posted_now(k, r); });
  };
  bool missing = false;
  (void)scan(missing);
  if (!missing && !until_open) {
    k.mine->waiting_on.store(-1, std::memory_order_relaxed);
    return true;  // all posted; the opener's release is on its way
  }
  // Until a deferred opener opens: also while the opener folding for all is one of them.
  auto core_needed = [&] {
    if (scan(missing) || !known) return true;
    if (!until_open) return false;
    const std::uint64_t o = k.b->gate(k.slot).opened.load(std::memory_order_acquire);
    if ((o >> 32) != k.seq) return false;
    return std::find(mates.begin(), mates.end(), static_cast<int>(o & 0xffffffff)) != mates.end();
  };
  const bool ok = wait_flag(rel, k.seq, nullptr, core_needed, g_wait.coll_spin_limit, [&] { (void)scan(missing); });
  k.mine->waiting_on.store(-1, std::memory_order_relaxed);
  return ok;
}
}  // namespace

bool wait_arrivals(Call& k) {
  // Blocking calls only: a nonblocking call's rest runs when its posts are there
  // (ready.cpp), and must not wait in here (a wait runs the progress engine).
  return !k.gated || nonblocking_call() || sleep_on_gate(k, false);
}

bool wait_gate(Call& k) { return sleep_on_gate(k, true); }

void post(Call& k) {
  if (k.exposed) my_desc(k).status |= layout::kDescExposed;
  if (k.small_stage) my_desc(k).status |= layout::kDescSmallStage;
  my_desc(k).seq.store(k.seq, std::memory_order_release);
  // In order, `posted` = seq. A call posted after a later one (nonblocking calls) still
  // raises the flag by one, so that a reader waiting for it wakes (wait_posted).
  const std::uint32_t cur = k.mine->posted.value.load(std::memory_order_relaxed);
  signal_flag(k.mine->posted, static_cast<std::int32_t>(k.seq - cur) > 0 ? k.seq : cur + 1);
  if (k.gated && arrive(k)) {
    k.opener = true;
    if (!k.defer_open) {
      open_gate(k);
    } else {
      k.b->gate(k.slot).opened.store(std::uint64_t{k.seq} << 32 | static_cast<std::uint32_t>(k.me),
                                     std::memory_order_release);
    }
  }
  // Our next call's descriptor line, and if this call staged, the first line of its
  // staging slot, were read by the members since we last wrote them: take them back
  // now, while the members read this call, not when we next post (2 ranks, streams of
  // calls; numbers in docs/collectives.md "One call"). Only the first slot line: all of
  // a 4 KiB one (64 lines) made 4 KiB calls slower.
  prefetch_for_write(&k.mine->desc[(k.slot + 1) % layout::kCallSlots]);
  if (k.staged_slot) {
    prefetch_for_write(k.small_stage ? k.b->small_stage(k.me, (k.slot + 1) % layout::kCallSlots)
                                     : k.b->stage(k.me, (k.stage_slot + 1) % layout::kStageDepth));
  }
}

std::byte* stage_for(Call& k, std::uint64_t bytes) {
  layout::CallDesc& d = my_desc(k);
  if (bytes <= layout::kInlineBytes) {
    d.status |= layout::kDescInline;
    return reinterpret_cast<std::byte*>(d.value);
  }
  d.status &= ~layout::kDescInline;
  assert((!k.small_stage || bytes <= layout::kSmallStage) && "reserve_small() for more than kSmallStage bytes");
  return my_stage(k);
}

bool finish(Call& k) {
  // A call that read a member's exposed memory: when it was done, for a root that times
  // its nonblocking call by its readers (path_choice.hpp; ordered by the `done` below).
  if (k.urgent_done) {
    k.mine->finish_stamp.store(layout::finish_stamp(k.seq, path_clock_ns()), std::memory_order_relaxed);
  }
  publish_done(k);
  bool ok = true;
  if (k.exposed) {
    for (int r = 0; r < k.n && ok; ++r) {
      if (r != k.me && (k.may_read == nullptr || k.may_read(k, r))) ok = wait_done(k, r, k.seq);
    }
  }
  // Every reader is done with our stream's chunks: the ring is free for the next one.
  if (k.streaming && ok) k.comm->stream_busy = false;
  k.mine->waiting_kind.store(0, std::memory_order_relaxed);
  return ok;
}

void finish_now(Call& k) {
  k.urgent_done = true;  // an error path: whoever waits for this call hears at once
  publish_done(k);
  k.mine->waiting_kind.store(0, std::memory_order_relaxed);
}

int aborted(std::string& why) {
  why = "job aborted: " + abort_reason();
  return MPI_ERR_PROC_ABORTED;
}

void post_invalid(Call& k, int culprit) {
  layout::CallDesc& d = my_desc(k);
  d.status = layout::kDescInvalid;
  d.addr = d.bytes = d.addr2 = 0;
  d.bytes2 = static_cast<std::uint64_t>(culprit) + 1;
  layout::PieceDesc* p = my_pieces(k);
  for (int j = 0; j < k.n; ++j) p[j] = layout::PieceDesc{};
  post(k);
}

int sit_out(Call& k) {
  if (!reserve(k)) return MPI_ERR_PROC_ABORTED;
  post_invalid(k, k.me);
  finish_now(k);
  return MPI_SUCCESS;
}

int culprit(const Call& k, int r) {
  const layout::CallDesc& d = desc(k, r);
  return d.bytes2 > 0 && d.bytes2 <= static_cast<std::uint64_t>(k.n) ? static_cast<int>(d.bytes2 - 1) : r;
}

bool peer_bad(Call& k, int r) {
  if (k.error == MPI_SUCCESS) {
    k.error = MPI_ERR_OTHER;
    k.why = "rank " + std::to_string(culprit(k, r)) + " passed invalid arguments to this call";
  }
  return false;
}

namespace {
[[gnu::cold, gnu::noinline]] bool sizes_differ(Call& k, int r, std::uint64_t bytes, std::uint64_t theirs) {
  if (k.error == MPI_SUCCESS) {
    k.error = MPI_ERR_TRUNCATE;
    k.why = "members passed different counts (rank " + std::to_string(r) + ": " + std::to_string(theirs) +
            " bytes of input, this rank: " + std::to_string(bytes) + ")";
  }
  return false;
}
}  // namespace

bool size_matches(Call& k, int r, std::uint64_t bytes) {
  const std::uint64_t theirs = desc(k, r).bytes;
  return theirs == bytes || sizes_differ(k, r, bytes, theirs);
}

bool sizes_agree(Call& k, int lo, int hi, std::uint64_t bytes, bool& ok) {
  bool agree = true;
  for (int r = lo; r <= hi; ++r) {
    if (r != k.me && !wait_posted(k, r)) {
      ok = false;
      return false;
    }
    agree = peer_ok(k, r) && size_matches(k, r, bytes) && agree;
  }
  return agree;
}

int result_slow(Call& k, bool ok, std::string& why) {
  if (!ok) {
    if (job_aborted()) return aborted(why);
    why = k.why;
    return k.error != MPI_SUCCESS ? k.error : MPI_ERR_OTHER;
  }
  if (k.error != MPI_SUCCESS) why = k.why;
  return k.error;
}

Source source(const Call& k, int r, const layout::CallDesc& d) {
  if ((d.status & layout::kDescStreamed) != 0) {
    return Source{nullptr, 0, layout::kPieceStreamed | static_cast<std::uint32_t>(d.value[0])};
  }
  return d.addr != 0 ? Source{nullptr, d.addr} : Source{staged(k, r, d), 0};
}

Source source(const Call& k, int r, const layout::PieceDesc& p) {
  if ((p.stream & layout::kPieceStreamed) != 0) return Source{nullptr, p.addr, p.stream, 0, p.addr != 0 ? p.stage_off : 0};
  return p.addr != 0 ? Source{nullptr, p.addr} : Source{stage_of(k, r) + p.stage_off, 0};
}

// Rank r's piece of the call for this rank (r wrote its pieces with
// contribute_pieces, skipping its own): where it is, and its size in `bytes`.
Source piece_from(const Call& k, int r, std::uint64_t& bytes) {
  const layout::CallDesc& d = desc(k, r);
  if ((d.status & layout::kDescUniform) != 0) {
    bytes = d.bytes;
    const auto idx = static_cast<std::uint64_t>(k.me - (k.me > r ? 1 : 0));
    if ((d.status & layout::kDescInline) != 0) return Source{reinterpret_cast<const std::byte*>(d.value) + idx * bytes, 0};
    return Source{stage_of(k, r) + idx * ((bytes + 63) / 64 * 64), 0};
  }
  const layout::PieceDesc& p = pieces(k, r)[k.me];
  bytes = p.bytes;
  return source(k, r, p);
}

void prefetch_next_staged(const Call& k, int r, const Source& src) {
  // Where every rank has a core the writer takes that line back for writing as soon as
  // it posts (post's prefetchw), and a read prefetch here fights it: 2 ranks, 64-byte
  // MPI_Scatter stream 0.16 -> 0.22 us. Oversubscribed, the writer wrote it long ago.
  if (!g_wait.oversubscribed) return;
  const auto at = reinterpret_cast<std::uintptr_t>(src.staged);
  const bool small = (desc(k, r).status & layout::kDescSmallStage) != 0;
  const auto here = reinterpret_cast<std::uintptr_t>(stage_in(k, r, small));
  if (at < here || at >= here + (small ? layout::kSmallStage : layout::kStageSlot)) return;
  // The next call is likely of the same kind (a stream of calls).
  prefetch_for_read((small ? k.b->small_stage(r, (k.slot + 1) % layout::kCallSlots)
                           : k.b->stage(r, (k.stage_slot + 1) % layout::kStageDepth)) +
                    (at - here));
}

bool fetch(Call& k, int r, const Source& src, std::uint64_t offset, void* dst, std::size_t len) {
  if (len == 0) return true;
  if (src.stream != 0) {
    return stream_read(k, r, chunk_run(src.stream), offset - src.stream_base, dst, len);
  }
  if (src.staged != nullptr) {
    copy_bytes(dst, src.staged + offset, len);
    return true;
  }
  if (r == k.me) {
    copy_bytes(dst, reinterpret_cast<const std::byte*>(src.addr) + offset, len);
    return true;
  }
  return cma(k.b->member(r).pid, false, dst, src.addr + offset, len, k.why);
}

bool store_to(Call& k, int r, std::uint64_t remote, const void* src, std::size_t len) {
  if (len == 0) return true;
  if (r == k.me) {
    std::memmove(reinterpret_cast<void*>(remote), src, len);
    return true;
  }
  k.urgent_done = true;  // the peer may wait for our `done` to know the bytes are there
  return cma(k.b->member(r).pid, true, const_cast<void*>(src), remote, len, k.why);
}

std::vector<std::byte>* g_call_scratch = nullptr;

std::byte* scratch(CommObj* c, int which, std::size_t bytes) {
  // A task has its own, and so has a deferred call run from progress(): calls in
  // flight on one communicator must not share them.
  Task* t = current_task();
  std::vector<std::byte>* set = t != nullptr ? t->scratch : g_call_scratch != nullptr ? g_call_scratch : c->scratch;
  std::vector<std::byte>& v = set[which];
  if (v.size() < bytes) v.resize(std::max(bytes, v.size() * 2));
  return v.data();
}

void pack_to(const Buf& b, std::byte* to) {
  if (b.bytes() == 0) return;
  if (b.contiguous()) {
    copy_bytes(to, b.data(), static_cast<std::size_t>(b.bytes()));
  } else {
    types::pack(*b.type, *b.flat, b.addr, b.count, to);
  }
}

void contribute(Call& k, const Buf& src, bool stage) {
  layout::CallDesc& d = my_desc(k);
  const auto bytes = static_cast<std::uint64_t>(src.bytes());
  d.bytes = bytes;
  d.status = 0;
  if ((bytes <= kStageMax && stage) || bytes == 0) {
    d.addr = 0;
    std::byte* to = stage_for(k, bytes);
    pack_to(src, to);
    return;
  }
  if (src.contiguous()) {
    d.addr = reinterpret_cast<std::uint64_t>(src.data());
  } else {
    std::byte* s = scratch(k.comm, 0, bytes);
    types::pack(*src.type, *src.flat, src.addr, src.count, s);
    d.addr = reinterpret_cast<std::uint64_t>(s);
  }
  k.exposed = true;
}

bool receive_from(Call& k, int r, const Buf& dst) {
  const layout::CallDesc& d = desc(k, r);
  return receive(k, r, source(k, r, d), 0, d.bytes, dst);
}

namespace {
// (Out of line: a small call's path stays short.)
[[gnu::cold, gnu::noinline]] std::uint64_t truncated(Call& k, int r, std::uint64_t bytes, std::uint64_t room) {
  k.error = MPI_ERR_TRUNCATE;
  k.why = "rank " + std::to_string(r) + " sends " + std::to_string(bytes) + " bytes, the receive buffer holds " +
          std::to_string(room);
  return room;
}
}  // namespace

std::uint64_t receivable(Call& k, int r, std::uint64_t bytes, const Buf& dst) {
  const auto room = static_cast<std::uint64_t>(dst.bytes());
  return bytes <= room ? bytes : truncated(k, r, bytes, room);
}

bool receive(Call& k, int r, const Source& src, std::uint64_t offset, std::uint64_t bytes, const Buf& dst) {
  // The common small case first: staged, fits, contiguous (what the rest would do).
  if (src.staged != nullptr && bytes != 0 && dst.contiguous() && bytes <= static_cast<std::uint64_t>(dst.bytes())) {
    copy_bytes(dst.data(), src.staged + offset, bytes);
    return true;
  }
  // A stream is drained whole (its writer may wait for the acks of what does not fit);
  // a split source's exposed head first (its stream is being written meanwhile).
  if (src.stream != 0) {
    const std::uint64_t head = src.addr != 0 ? std::min(src.head, bytes) : 0;
    if (head > 0 && !receive(k, r, Source{nullptr, src.addr}, 0, std::min(head, receivable(k, r, bytes, dst)), dst)) {
      return false;
    }
    return drain(k, r, static_cast<std::uint32_t>(src.stream), bytes - head, dst, head);
  }
  bytes = receivable(k, r, bytes, dst);
  if (bytes == 0) return true;
  if (dst.contiguous()) return fetch(k, r, src, offset, dst.data(), bytes);
  const std::byte* from = src.staged != nullptr ? src.staged + offset : nullptr;
  if (from == nullptr) {
    std::byte* s = scratch(k.comm, 1, bytes);
    if (!fetch(k, r, src, offset, s, bytes)) return false;
    from = s;
  }
  types::unpack_range(*dst.type, *dst.flat, from, 0, static_cast<MPI_Count>(bytes), dst.addr);
  return true;
}

namespace {
[[gnu::cold, gnu::noinline]] std::uint64_t truncated_here(Call& k, std::uint64_t bytes, std::uint64_t room) {
  k.error = MPI_ERR_TRUNCATE;
  k.why = "the send part (" + std::to_string(bytes) + " bytes) is larger than the receive buffer (" +
          std::to_string(room) + " bytes)";
  return room;
}
}  // namespace

void local_copy(Call& k, const Buf& src, const Buf& dst) {
  std::uint64_t bytes = static_cast<std::uint64_t>(src.bytes());
  const auto room = static_cast<std::uint64_t>(dst.bytes());
  if (bytes > room) bytes = truncated_here(k, bytes, room);
  if (bytes == 0) return;
  if (src.contiguous() && dst.contiguous()) {
    // The standard forbids aliased buffers; ranges that overlap all the same take memmove.
    const auto from = reinterpret_cast<std::uintptr_t>(src.data());
    const auto to = reinterpret_cast<std::uintptr_t>(dst.data());
    if (to + bytes <= from || from + bytes <= to) {
      copy_bytes(dst.data(), src.data(), bytes);
    } else {
      std::memmove(dst.data(), src.data(), bytes);
    }
    return;
  }
  std::byte* s = scratch(k.comm, 1, bytes);
  types::pack_range(*src.type, *src.flat, src.addr, 0, static_cast<MPI_Count>(bytes), s);
  types::unpack_range(*dst.type, *dst.flat, s, 0, static_cast<MPI_Count>(bytes), dst.addr);
}

}  // namespace shmpi::client::coll
