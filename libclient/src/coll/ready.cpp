// Mirrors the waits of the flat algorithms (move.cpp, reduce.cpp) for the calls that
// stage everything: a change to where those wait must be made here too (the test
// nbc_issue_order hangs if this file says "ready" for a call that then waits).
#include "coll/ready.hpp"

#include "coll/engine.hpp"
#include "coll/image.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

struct Next {
  const Plan* p;
  CommObj* c;
  CommBlock* b;
  std::uint32_t seq;  // the call's sequence number, once begin() has taken it
  int slot;
};

Next next_call(const Plan& p, std::uint32_t seq) {
  return {&p, p.comm, p.comm->block, seq, static_cast<int>(seq % layout::kCallSlots)};
}

// The first member that is not done with the call reserve() or reserve_small() waits
// for (engine.hpp reserved_upto), or -1, by engine.cpp's scan (it refreshes the bounds
// reserve() then finds). Which of the two is worked out only when needed: a reader
// reserves nothing, and a rank not ahead of the others is done with either call.
int first_not_done(const Next& x) {
  // Known done with the call kStageDepth back (the nearer one) means done with any
  // before it: the depth is then not needed. (Not a scan: a rank far ahead would read
  // every member's `done` line each call for a bound it does not need.)
  if (reached(x.c->seen_done_min, reserved_upto(x.seq, false))) return -1;
  return coll::first_not_done(*x.c, reserved_upto(x.seq, reserves_small(*x.p)));
}

bool reserved(const Next& x) { return first_not_done(x) < 0; }

// Whether rank r's posted descriptor of the call streams its contribution, or (piece
// >= 0) that piece: reading it waits for chunks (stream.hpp).
bool streams(const Next& x, int r, int piece = -1) {
  const layout::CallDesc& d = x.b->rank(r).desc[x.slot];
  if (piece < 0) return (d.status & layout::kDescStreamed) != 0;
  if ((d.status & (layout::kDescInvalid | layout::kDescUniform)) != 0) return false;
  return (x.b->table(r, x.slot)[piece].stream & layout::kPieceStreamed) != 0;
}

// wait_posted(k, r): r's descriptor of the call is there.
bool posted(const Next& x, int r) {
  return r == x.c->rank || x.b->rank(r).desc[x.slot].seq.load(std::memory_order_acquire) == x.seq;
}

bool all_posted(const Next& x, int lo, int hi) {
  for (int r = lo; r <= hi; ++r) {
    if (!posted(x, r)) return false;
  }
  return true;
}

bool staged(MPI_Count bytes) { return static_cast<std::uint64_t>(bytes) <= kStageMax; }

// A gather sender that stages its block (or sends nothing, in place): once its slot is
// free it runs through. reserve_first and runs_through must agree on this.
bool sender_stages(const Plan& p) { return p.in_place || staged(p.one.bytes()); }

bool pieces_staged(const std::vector<Buf>& send, int skip) {
  return coll::pieces_staged(static_cast<int>(send.size()), send.data(), skip);
}

// A reduction's staged path: whether it is staged, and the members whose posts this
// rank reads (lo..hi; none when hi < lo).
struct Folds {
  bool staged;
  int lo, hi;
  MPI_Count span;  // the input image's bytes
};
Folds reduce_folds(const Plan& p) {
  const int me = p.comm->rank, n = p.comm->size;
  MPI_Count total = p.count, mine = p.count;
  if (p.rkind == ReduceKind::reduce_scatter) {
    total = 0;
    for (MPI_Count m : p.counts) total += m;
    mine = p.counts[static_cast<std::size_t>(me)];
  }
  const MPI_Count span = geometry(*p.reducer.type).span(total);
  Folds f{staged(span), 0, -1, span};
  if (mine <= 0) return f;  // no result to fold: nothing read
  switch (p.rkind) {
    case ReduceKind::reduce: f.hi = me == p.root ? n - 1 : -1; break;
    case ReduceKind::allreduce:
    case ReduceKind::reduce_scatter: f.hi = n - 1; break;
    case ReduceKind::scan: f.hi = me; break;
    case ReduceKind::exscan: f.hi = me - 1; break;
  }
  return f;
}

bool reduce_ready(const Plan& p, const Next& x) {
  const Folds f = reduce_folds(p);
  return f.staged && reserved(x) && all_posted(x, f.lo, f.hi);
}

// The members whose posts a barrier or staged reduction waits for (after its own).
bool posted_waits(const Plan& p, int& lo, int& hi) {
  if (p.kind == PlanKind::barrier) {
    lo = 0, hi = p.comm->size - 1;
    return p.comm->size > 1;
  }
  if (p.kind != PlanKind::reduce) return false;
  const Folds f = reduce_folds(p);
  lo = f.lo, hi = f.hi;
  return f.staged && hi >= lo;
}

// A reads_first call (a bcast or scatter reader) whose root has posted call x: whether
// what it then reads needs no further wait.
bool reads_through(const Plan& p, const Next& x) {
  if (p.kind == PlanKind::scatter) return !streams(x, p.root, p.comm->rank);
  // A root that exposed a large message (an erroneous truncating call) would make us
  // offer and wait for its `done`.
  return staged(p.one.bytes()) && x.b->rank(p.root).desc[x.slot].addr == 0 && !streams(x, p.root);
}

}  // namespace

bool runs_through(const Plan& p) { return runs_through(p, p.comm->seq + 1); }

bool shares_result(const Plan& p) {
  if (p.kind != PlanKind::reduce || p.comm->block == nullptr || !p.comm->block->gated) return false;
  const Folds f = reduce_folds(p);
  return f.staged && f.hi >= f.lo && folds_shared(p.rkind, static_cast<std::uint64_t>(f.span));
}

int missing_post(const Plan& p, std::uint32_t seq) {
  const Next x = next_call(p, seq);
  int lo = p.root, hi = p.root;  // bcast, scatter: the root
  if (p.kind != PlanKind::bcast && p.kind != PlanKind::scatter && !posted_waits(p, lo, hi)) return -1;
  for (int r = lo; r <= hi; ++r) {
    if (!posted(x, r)) return r;
  }
  return -1;
}

bool reserve_first(const Plan& p) {
  // Bcast and scatter roots and reduction members find this out in their trial or
  // posting run (nbc.cpp start_mode), which then defers them itself (start_taken).
  if (p.comm->block == nullptr || p.kind != PlanKind::gather) return false;
  return p.comm->rank != p.root && sender_stages(p);
}

int missing_done(const Plan& p, std::uint32_t seq) { return first_not_done(next_call(p, seq)); }

bool reserves_small(const Plan& p) {
  const bool root = p.comm->rank == p.root;
  switch (p.kind) {
    case PlanKind::bcast: return bcast_small(root, p.one);
    case PlanKind::scatter: return scatter_small(root, p.comm->size, p.send.data(), p.root);
    case PlanKind::gather: return gather_small(root, p.one);
    case PlanKind::reduce: return reduce_small(p.rkind, static_cast<std::uint64_t>(reduce_folds(p).span));
    default: return false;
  }
}

PostOf post_of(const Plan& p, int r, std::uint32_t seq) {
  layout::CommRank& m = p.comm->block->rank(r);
  return {&m.posted, &m.desc[seq % layout::kCallSlots].seq};
}

bool reads_first(const Plan& p) {
  if (p.comm->rank == p.root || p.comm->block == nullptr) return false;
  return (p.kind == PlanKind::bcast && staged(p.one.bytes())) || p.kind == PlanKind::scatter;
}

bool runs_through(const Plan& p, std::uint32_t seq) {
  const CommObj* c = p.comm;
  if (c->block == nullptr) return false;
  const Next x = next_call(p, seq);
  const int me = c->rank, n = c->size;
  switch (p.kind) {
    case PlanKind::barrier:
      return n == 1 || (reserved(x) && all_posted(x, 0, n - 1));
    case PlanKind::bcast:
      if (me == p.root) return staged(p.one.bytes()) && reserved(x);
      return posted(x, p.root) && reads_through(p, x);
    case PlanKind::scatter:
      if (me == p.root) return pieces_staged(p.send, me) && reserved(x);
      return posted(x, p.root) && reads_through(p, x);
    case PlanKind::gather:
      if (me != p.root) return sender_stages(p) && reserved(x);
      if (!reserved(x) || !all_posted(x, 0, n - 1)) return false;
      for (int r = 0; r < n; ++r) {
        if (r != me && streams(x, r)) return false;
      }
      return true;
    case PlanKind::allgather:
      return staged(p.in_place ? p.recv[static_cast<std::size_t>(me)].bytes() : p.one.bytes()) && reserved(x) &&
             all_posted(x, 0, n - 1);
    case PlanKind::alltoall:
      if (!pieces_staged(p.in_place ? p.recv : p.send, me) || !reserved(x) || !all_posted(x, 0, n - 1)) return false;
      for (int r = 0; r < n; ++r) {
        if (r != me && streams(x, r, me)) return false;  // alltoallv: a large piece for us
      }
      return true;
    case PlanKind::reduce:
      return reduce_ready(p, x);
  }
  return false;
}

}  // namespace shmpi::client::coll
