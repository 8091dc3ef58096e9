// The reduce family: reduce, allreduce, reduce_scatter(_block), scan, exscan.
//
// Inputs are memory images (count elements at the datatype's extent, from true_lb), so
// user ops on derived types see their own layout. Every result element is combined in
// rank order, right to left: acc = x(hi); acc = x(r) o acc for r = hi-1 .. lo, which is
// x(lo) o ... o x(hi) for any associative op (MPI-4.1 6.9.5: non-commutative ops in rank
// order) and the same bits on every run for floating point.
//   small (image <= kStageMax): every rank stages its image (a blocking reduce's root
//     folds its own from the user's buffer); each result is folded by the rank that
//     needs it, straight from the staging halves;
//   large allreduce, more ranks than CPUs, one ring's worth (chain_fits): a chain,
//     every member folding its input into the last member's ring in turn (chain.hpp);
//   large allreduce whose blocks all fit a ring (split_fits): "split", a reduce_scatter
//     then an allgather: every rank streams each other rank its block, folds its own
//     block from the streams and streams that block of the result to all (share_block);
//   other large reduce, allreduce: every rank but the root (allreduce: rank 0) streams
//     its image (stream.hpp; exposes it if its ring is busy), the root folds all of
//     them, chunk by chunk, as they come, and (allreduce) streams the result to all;
//   large reduce_scatter: every rank streams each other rank its block (stream_blocks;
//     blocks that pass the ring interleaved and pumped in step with the fold, up to
//     11 members), and folds its own block from the streams;
//   large scan, exscan: a chain, each member folding the prefix the member before it
//     streamed (or, its ring busy, exposed) with its own input, and streaming its own
//     prefix on to the next as it is folded (fold_prefix);
//   other large reduce_scatter: every rank exposes its image and folds its own block
//     in chunks (process_vm_readv of chunk r, fold, next) so copying and combining
//     overlap.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "coll/chain.hpp"
#include "coll/collectives.hpp"
#include "coll/fiber.hpp"
#include "coll/first_access.hpp"
#include "coll/image.hpp"
#include "coll/numa.hpp"
#include "coll/path_choice.hpp"
#include "coll/posted_fold.hpp"
#include "coll/stream.hpp"
#include "copy_bytes.hpp"
#include "errors.hpp"
#include "runtime.hpp"
#include "types/pack.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

void Reducer::apply(const void* in, void* inout, MPI_Count count) const {
  if (count <= 0) return;
  if (kernel != nullptr) {
    kernel(in, inout, static_cast<std::size_t>(count));
    return;
  }
  call_user_op(*op, in, inout, count, handle, type->extent());
}

void Reducer::apply3(const std::byte* a, const std::byte* b, std::byte* out, MPI_Count count,
                     std::size_t span) const {
  if (count <= 0) return;
  const MPI_Count tlb = type->true_lb;
  if (kernel3 != nullptr) {
    kernel3(a - tlb, b - tlb, out - tlb, static_cast<std::size_t>(count));
    return;
  }
  copy_bytes(out, b, span);
  apply(a - tlb, out - tlb, count);
}

void image_to_buffer(CommObj* c, const Reducer& op, const std::byte* img, std::byte* buf, MPI_Count n) {
  if (n == 0) return;
  const types::Datatype& t = *op.type;
  const types::Flat& f = *t.flat;
  std::byte* packed = scratch(c, 1, static_cast<std::size_t>(n * t.size));
  types::pack(t, f, img - t.true_lb, n, packed);
  types::unpack(t, f, packed, n, buf);
}

namespace {
// A copy of `bytes` of img in scratch 0, for an input the call overwrites (in place)
// while it or another member still reads it.
const std::byte* copy_aside(CommObj* c, const std::byte* img, std::size_t bytes) {
  std::byte* copy = scratch(c, 0, bytes);
  copy_bytes(copy, img, bytes);
  return copy;
}
}  // namespace

void contribute_image(Call& k, const std::byte* img, MPI_Count span, bool unstable) {
  layout::CallDesc& d = my_desc(k);
  const auto bytes = static_cast<std::uint64_t>(span);
  d.status = 0;
  d.bytes = bytes;
  if (bytes <= kStageMax) {
    d.addr = 0;
    std::byte* to = stage_for(k, bytes);
    if (bytes > 0) copy_bytes(to, img, bytes);
    return;
  }
  if (unstable) img = copy_aside(k.comm, img, bytes);
  d.addr = reinterpret_cast<std::uint64_t>(img);
  k.exposed = true;
}

namespace {

// The share of a helped reduce's elements (the last ones) that the member who is not
// the root folds: it copies its part three times (its input, the root's, the result
// into the root) where the root copies once, so it takes less than half. A user
// function's pass costs more than a copy: 3/8; a predefined op's kernel costs about a
// copy: 1/3 (measured at 1 MiB, docs/collectives.md "Reductions").
constexpr MPI_Count kHelpShareNum = 3, kHelpShareDen = 8;
constexpr MPI_Count kKernelHelpShareNum = 1, kKernelHelpShareDen = 3;
// A predefined op is helped from this input size on: below it the second process'
// single copies cost more than the half-fold saves (64 KiB: 8.5-9.7 µs helped against
// 7.5 for the root's fold alone).
constexpr MPI_Count kKernelHelpMin = 256 * 1024;
// A 2-member allreduce is mutual from this input size on (64 KiB sum: 11.9-12.2 µs
// against 13.0-13.2 for the split; docs/collectives.md "Reductions").
constexpr MPI_Count kMutualMin = 64 * 1024;

struct Plan {
  ReduceKind kind;
  int root;
  MPI_Count total = 0;                  // input elements per rank
  MPI_Count res_first = 0, res_n = 0;   // the elements of the input this rank's result covers
  int lo = 0, hi = -1;                  // ranks folded into this rank's result (hi < lo: none)
  bool has_result = false;
  // It folds members' inputs into a result of its own (and so reads their posts).
  bool folds() const { return has_result && res_n > 0 && hi >= lo; }
};

// Whether member r may read this rank's exposed input (finish() waits for its `done`):
// a member that exposed its own takes the large path and reads every input; else it
// reads only inputs it folds into its result. Members that did not expose see exposed
// inputs only when the counts disagree (an erroneous call): they read none then
// (sizes_agree), and are still waited for as readers, which costs nothing.
bool may_read_input(const Call& k, int r) {
  const layout::CallDesc& d = desc(k, r);
  if (d.seq.load(std::memory_order_acquire) != k.seq) return false;  // r is past this call: done published
  if ((d.status & layout::kDescExposed) != 0) return true;
  const auto kind = static_cast<ReduceKind>(k.reader_arg & 7);
  const int root = k.reader_arg >> 3;
  switch (kind) {
    case ReduceKind::reduce: return r == root;
    case ReduceKind::allreduce:
    case ReduceKind::reduce_scatter: return true;
    case ReduceKind::scan: return k.me <= r;
    case ReduceKind::exscan: return k.me < r;
  }
  return true;
}

// A large reduce or allreduce (to_root below): the root reads every input, the others
// read the root's result (allreduce).
bool to_root_reads(const Call& k, int r) {
  const int root = k.reader_arg >> 3;
  return r == root || k.me == root;
}

// Whose `done` a member of a large scan or exscan (a chain: fold_prefix) waits for
// before its stream, or its exposed input and result, may go: the next member's.
bool chain_reads(const Call& k, int r) { return r == k.me + 1; }

// The blocks of the input vector a large reduce_scatter (its counts) or split allreduce
// (`total` elements evenly: block j is [total*j/n, total*(j+1)/n)) folds one per member.
struct Blocks {
  const MPI_Count* counts;  // nullptr: even
  MPI_Count total;
  int n;
  MPI_Count count(int j) const { return counts != nullptr ? counts[j] : first(j + 1) - first(j); }
  MPI_Count first(int j) const {
    if (counts == nullptr) return total * j / n;
    MPI_Count at = 0;
    for (int i = 0; i < j; ++i) at += counts[i];
    return at;
  }
};

// Reduce_scatter (and a split allreduce), large: streams every other member its block of
// our image when our ring is free: piece table entry j = block j (stage_off: its image
// offset).
//  - All of them fit the ring: every member writes and reads, so no pump may wait for
//    room. A split allreduce also takes the chunks of its own block's result, which it
//    streams to all after folding it (piece `me`; they must fit too).
//  - A reduce_scatter whose blocks pass the ring, up to InStep::kMaxStride + 1 members
//    (fewer for elements that do not tile a ring chunk: InStep::keeps_step; not three
//    on two cores): the blocks are interleaved chunk by chunk and pumped in step with
//    this member's fold (`step`, stream.hpp InStep). Otherwise the image is exposed.
// In place, the image is copied first (our result lands on it). False: nothing written.
bool stream_blocks(Call& k, const Geometry& g, const Blocks& bl, const std::byte*& img, bool in_place, bool split,
                   InStep& step) {
  if (!can_stream(k)) return false;
  std::uint64_t chunks = 0;
  std::uint32_t rounds = 0;  // the longest block's chunks
  for (int j = 0; j < k.n; ++j) {
    if (j == k.me && !split) continue;
    const std::uint32_t c = stream_chunks(static_cast<std::uint64_t>(g.span(bl.count(j))));
    chunks += c;
    rounds = std::max(rounds, c);
  }
  const bool interleaved = chunks > layout::kStreamChunks;
  const auto stride = static_cast<std::uint32_t>(k.n - 1);
  const auto fold_bytes = static_cast<std::uint64_t>(fold_chunk_bytes(g, true));
  // Three members on two cores: one core runs two of them, and members in step wait for
  // it; exposing measured faster there (docs/collectives.md "Reductions").
  const bool pays = k.n != 3 || !g_wait.oversubscribed;
  if (chunks == 0 || (interleaved && (split || !pays || !InStep::keeps_step(stride, fold_bytes)))) return false;
  if (in_place) img = copy_aside(k.comm, img, static_cast<std::size_t>(g.span(bl.first(k.n))));
  layout::CallDesc& d = my_desc(k);
  d.status = layout::kDescStreamed | layout::kDescBlocks;
  d.addr = d.addr2 = 0;
  layout::PieceDesc* t = my_pieces(k);
  // Interleaved: block j's chunks from base + its place among the others, every stride-th.
  const std::uint32_t base = interleaved ? take_chunks(k, std::uint64_t{rounds} * stride * layout::kStreamChunk) : 0;
  MPI_Count at = 0;
  for (int j = 0; j < k.n; ++j) {
    const MPI_Count cnt = bl.count(j);
    const auto bytes = static_cast<std::uint64_t>(g.span(cnt));
    t[j] = layout::PieceDesc{0, bytes, static_cast<std::uint64_t>(g.at(at)), 0};
    if (j != k.me && bytes > 0) {
      const auto place = static_cast<std::uint32_t>(j < k.me ? j : j - 1);
      const std::uint64_t run =
          interleaved ? (std::uint64_t{stride} << layout::kPieceStrideShift) | (base + place) : take_chunks(k, bytes);
      t[j].stream = layout::kPieceStreamed | run;
    }
    at += cnt;
  }
  if (split && t[k.me].bytes > 0) t[k.me].stream = layout::kPieceStreamed | take_chunks(k, t[k.me].bytes);
  d.bytes = static_cast<std::uint64_t>(g.span(at));
  if (interleaved) step = InStep{img, t, stride, rounds, 0};
  return true;
}

// A split allreduce's exposing member says in its descriptor's bytes2 which call's
// result block is final (then bumps ack(me, me)); atomic: readers poll it.
std::atomic_ref<std::uint64_t> final_of(const layout::CallDesc& d) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(d.bytes2));
}

// Whether a split allreduce's blocks all fit one ring (stream_blocks takes them all).
bool split_fits(const Geometry& g, const Blocks& bl) {
  std::uint64_t chunks = 0;
  for (int j = 0; j < bl.n; ++j) chunks += stream_chunks(static_cast<std::uint64_t>(g.span(bl.count(j))));
  return chunks <= layout::kStreamChunks;
}

// Split allreduce: member j's block of the result into res_img (at its place in the
// vector): streamed (j's piece j), or exposed in j's result image once j says it is
// final (its descriptor's bytes2 = the call, then ack(j, j) bumped: nonblocking calls
// may finish their folds out of order, so the flag alone cannot say which call).
// False if aborted or a copy failed.
bool share_block(Call& k, const Geometry& g, const Blocks& bl, int j, std::byte* res_img) {
  const MPI_Count first = bl.first(j);
  const auto bytes = static_cast<std::uint64_t>(g.span(bl.count(j)));
  if (bytes == 0) return true;
  std::byte* dst = res_img + g.at(first);
  const layout::CallDesc& d = desc(k, j);
  if ((d.status & layout::kDescStreamed) != 0) {
    const layout::PieceDesc& pc = pieces(k, j)[j];
    const auto chunk = static_cast<std::uint32_t>(pc.stream);
    const bool ok = stream_read(k, j, chunk, 0, dst, static_cast<std::size_t>(std::min(bytes, pc.bytes)));
    ack_all(k, j, chunk, pc.bytes);
    return ok;
  }
  layout::Flag& bumped = k.b->ack(j, j);
  for (;;) {
    const std::uint32_t seen = bumped.value.load(std::memory_order_acquire);
    if (final_of(d).load(std::memory_order_acquire) == k.seq) break;
    if (!wait_on(k, j, bumped, seen + 1)) return false;
  }
  return fetch(k, j, Source{nullptr, d.addr2}, static_cast<std::uint64_t>(g.at(first)), dst,
               static_cast<std::size_t>(bytes));
}

// A helped 2-member reduce: whether the other member's descriptor `d` says `bit` (the
// sender's kDescHelps, the root's kDescHelpOk) for a valid contribution of our size.
// Both members test the other's post this way, so they agree on the help.
bool offers(const layout::CallDesc& d, std::uint32_t bit, MPI_Count span) {
  return (d.status & (bit | layout::kDescInvalid)) == bit && d.bytes == static_cast<std::uint64_t>(span);
}

Plan plan(ReduceKind kind, int me, int n, MPI_Count count, const MPI_Count* counts, int root) {
  Plan p{kind, root};
  p.total = count;
  switch (kind) {
    case ReduceKind::reduce:
      p.has_result = me == root;
      p.res_n = count;
      p.lo = 0, p.hi = n - 1;
      break;
    case ReduceKind::allreduce:
      p.has_result = true;
      p.res_n = count;
      p.lo = 0, p.hi = n - 1;
      break;
    case ReduceKind::reduce_scatter: {
      p.total = 0;
      for (int r = 0; r < n; ++r) {
        if (r == me) p.res_first = p.total;
        p.total += counts[r];
      }
      p.res_n = counts[me];
      p.has_result = true;
      p.lo = 0, p.hi = n - 1;
      break;
    }
    case ReduceKind::scan:
      p.has_result = true;
      p.res_n = count;
      p.lo = 0, p.hi = me;
      break;
    case ReduceKind::exscan:
      p.has_result = me > 0;
      p.res_n = count;
      p.lo = 0, p.hi = me - 1;
      break;
  }
  return p;
}

// Acks what rank r streamed to us to its end, also where it was not read (an error, or
// counts that disagree): its writer may wait for that. r streamed its whole input (or,
// an allreduce's root, its result), or each member its block (kDescBlocks:
// reduce_scatter, split allreduce). `result`: also r's block of a split allreduce's
// result (a member that leaves the call early reads none of it).
void ack_streamed_input(Call& k, int r, bool result) {
  const layout::CallDesc& rd = desc(k, r);
  if (r == k.me || rd.seq.load(std::memory_order_acquire) != k.seq) return;
  if ((rd.status & layout::kDescStreamed) == 0) return;
  if ((rd.status & layout::kDescBlocks) == 0) return ack_all(k, r, static_cast<std::uint32_t>(rd.value[0]), rd.bytes);
  const layout::PieceDesc* t = pieces(k, r);
  auto ack_piece = [&](int j) {
    if ((t[j].stream & layout::kPieceStreamed) != 0) ack_all(k, r, chunk_run(t[j].stream), t[j].bytes);
  };
  ack_piece(k.me);
  if (result) ack_piece(r);
}

// A large scan or exscan (MPI-4.1 6.11.1-2): a chain, each member reading from the
// member before it only. With P(j) = x(0) o ... o x(j), combined left to right, one op
// per member, a scan's member r returns P(r) = P(r-1) o x(r), an exscan's P(r-1).
// Member r < n-1 streams P(r) to member r+1 through its ring (`out`: our result, or
// for an exscan P(r) = P(r-1) o x(r), folded beside it into `pr`; member 0: x(0)),
// each chunk as soon as it is final, so the n-1 steps overlap. Where the ring is busy
// (a nonblocking call of ours streams) the member exposes its input and result
// instead, and member r+1 reads them with process_vm_readv once its `done` of the
// call is out (finish() publishes it at once for an exposed call, before it waits for
// its own reader: chain_reads): a scan's P(r) is member r's result (member 0: its
// input); an exscan's P(r) = (member r's result) o x(r), both member r's. Either way
// the same ops in the same order: the bits do not depend on which rings were busy.
// Each member reads one or two vectors where the fold over every input below read r
// (n(n-1)/2 in all; docs/collectives.md "Reductions"). False (k.why) if a copy or
// wait failed; the caller pumps the rest of `out` (member r+1 waits for it).
bool fold_prefix(Call& k, const Reducer& op, const Geometry& g, ReduceKind kind, const std::byte* in_img,
                 std::byte* res_img, MPI_Count n, StreamCursor& out, std::byte* pr) {
  const int r = k.me;
  const bool scan = kind == ReduceKind::scan;
  const bool streams = out.bytes > 0;
  if (r == 0) {  // P(0) = x(0)
    if (streams && !out.pump_to(k, out.bytes)) return false;
    if (scan) copy_bytes(res_img, in_img, static_cast<std::size_t>(g.span(n)));
    return true;
  }
  // P(r-1): from member r-1's ring, or where it exposed it.
  const int prev = r - 1;
  const layout::CallDesc& pd = desc(k, prev);
  FoldIn in[3];
  int m = 1;
  if ((pd.status & layout::kDescStreamed) != 0) {
    in[0] = FoldIn{prev, source(k, prev, pd), nullptr};
  } else if (prev == 0) {
    in[0] = FoldIn{0, Source{nullptr, pd.addr}, nullptr};
  } else if (!wait_done(k, prev, k.seq)) {
    return false;
  } else {
    in[0] = FoldIn{prev, Source{nullptr, pd.addr2}, nullptr};
    if (!scan) in[m++] = FoldIn{prev, Source{nullptr, pd.addr}, nullptr};
  }
  if (scan) in[m++] = FoldIn{r, {}, in_img};
  // An exscan's P(r) for member r+1 (pr), from the result as the fold finishes it.
  MPI_Count made = 0;
  auto after = [&](MPI_Count e) {
    if (!streams) return true;
    if (pr != nullptr) {
      op.apply3(res_img + g.at(made), in_img + g.at(made), pr + g.at(made), e - made,
                static_cast<std::size_t>(g.span(e - made)));
      made = e;
    }
    return out.pump_to(k, static_cast<std::uint64_t>(g.span(e)));  // span(n) is all of it
  };
  return fold(k, op, g, [&](int i) { return in[i]; }, m, 0, n, res_img, after);
}

// Where a gated call's shared result of `len` bytes lives (comm.hpp CallGate): in the
// gate's line up to kGateInlineBytes, else in the slot's shared result area.
std::byte* shared_area(const Call& k, std::size_t len) {
  layout::CallGate& gt = k.b->gate(k.slot);
  assert(!k.small_stage && "a call reserved with reserve_small() shares a result");
  return len <= layout::kGateInlineBytes ? gt.result : k.b->shared_result(k.stage_slot);
}

// A gated call's opener, after it folded the whole result into shared_area (`ok`
// false: it found an error, and each member then checks the posts itself): says
// whether there is a result, and opens the gate.
void publish_shared(Call& k, bool ok) {
  layout::CallGate& gt = k.b->gate(k.slot);
  gt.result_seq = k.seq;
  gt.result_ok = ok ? 1 : 0;
  open_gate(k);  // release: the waiters acquire all of the above
}

// Inputs beyond the descriptor line sit in each member's slot: asks for the first line
// of members lo..hi's (not our own) before the fold reads them.
void prefetch_stages(const Call& k, int lo, int hi, std::uint64_t in_bytes) {
  if (in_bytes <= layout::kInlineBytes) return;
  for (int r = lo; r <= hi; ++r) {
    if (r != k.me) __builtin_prefetch(stage_in(k, r, k.small_stage));
  }
}

// A call posted at issue whose rest is fold_staged() into the user's buffer: kept in
// g_posted_fold (posted_fold.hpp). Not on a gated communicator (the members may share
// one fold). A staged input never exposes memory, so finish() waits for nobody.
void keep_fold(const Call& k, const Geometry& g, const Plan& p, std::byte* res_img, MPI_Count in_span) {
  g_posted_fold = PostedFold{{p.lo, p.hi, g.at(p.res_first), p.res_n, g.span(p.res_n), g.tlb,
                              static_cast<std::uint64_t>(in_span), res_img},
                             k};
}

// A member of a gated call after the gate opened: `len` bytes at `off` of the opener's
// result of `full` bytes into res_img. False if there is none (the opener found an
// error, had no block of its own to fold, or took another path: its count differs).
bool take_shared(Call& k, std::byte* res_img, std::size_t full, std::size_t off, std::size_t len) {
  layout::CallGate& gt = k.b->gate(k.slot);
  if (!reached(gt.release.value.load(std::memory_order_acquire), k.seq)) return false;  // not yet
  if (gt.result_seq != k.seq || gt.result_ok != 1) return false;
  copy_bytes(res_img, shared_area(k, full) + off, len);
  return true;
}

// Small (the input image fits kStageMax): every member stages its image (its slot, or
// its descriptor line) and folds, in rank order, the inputs its own result needs,
// straight from the members' staging. Apart from the large cases below: a small call's
// cost is this path's instructions. in_img and res_img as in reduce().
// `shared`: folds_shared() says so. On a gated communicator (oversubscribed)
// the whole vector is folded once, by the member whose post was last (it has every
// input then, also at the issue of a nonblocking call), for all: the others copy their
// block of it (one fold instead of n, on the cores the n members share; every result
// is the same bits either way, folded in the same order). An opener with no block of
// its own (a reduce_scatter count of 0) folds nothing and opens with no result.
// A blocking member sleeps until the gate opens; a nonblocking one never waits for
// it: if the result is not there yet when its posts are, it folds for itself.
// `direct`: res_img is the user's buffer.
[[gnu::noinline]] int reduce_staged(Call& k, const Reducer& op, const Geometry& g, const Plan& p, const std::byte* in_img,
                                    std::byte* res_img, MPI_Count in_span, bool in_place, bool shared, bool direct,
                                    Part part, std::string& why) {
  k.defer_open = shared && k.gated;
  // A reduce root's input is read by no other member (may_read_input): a blocking root
  // folds it from the user's buffer and stages no copy; its post still says its size.
  // (In place the result is folded over it; a nonblocking root may fold after its
  // issue, from the staging: keep_fold.)
  const bool own_direct = p.kind == ReduceKind::reduce && p.has_result && !in_place && part == Part::whole;
  if (part != Part::after_post) {
    if (k.gated && static_cast<std::uint64_t>(in_span) > layout::kInlineBytes) {
      warm_staged(k, static_cast<std::uint64_t>(in_span));
    }
    if (own_direct) {
      layout::CallDesc& d = my_desc(k);
      d.status = 0;
      d.bytes = static_cast<std::uint64_t>(in_span);
      d.addr = 0;
    } else {
      // In place, the input is overwritten by results while others may read it.
      contribute_image(k, in_img, in_span, in_place);
    }
    my_desc(k).addr2 = reinterpret_cast<std::uint64_t>(res_img);
    post(k);
    // All this call waits for now are the posts of p.lo..p.hi, if it folds them.
    // (An opener has them all and goes on; were it ever to stop here, it opens first.)
    // A call that stops here with a rest that is one fold into the user's buffer keeps
    // what that fold needs (keep_fold); progress() runs it.
    if (part == Part::bounded && p.folds()) {
      const bool keep = direct && !k.gated;
      if ((keep && !poll_at_issue(*k.comm)) || !posts_arrive(k, p.lo, p.hi)) {
        if (k.opener) open_gate(k);
        if (keep) keep_fold(k, g, p, res_img, in_span);
        return kPostedOnly;
      }
    }
  }
  bool ok = true;
  const auto len = static_cast<std::size_t>(g.span(p.res_n));
  const auto full = static_cast<std::size_t>(g.span(p.total));
  const auto block_at = static_cast<std::size_t>(g.at(p.res_first));
  if (k.defer_open && !k.opener && p.res_n > 0) {
    if (!nonblocking_call() && !wait_gate(k)) return aborted(why);
    if (take_shared(k, res_img, full, block_at, len)) return finish(k) ? MPI_SUCCESS : aborted(why);
  }
  if (p.folds()) {
    // The staged inputs' first lines now, so that those misses overlap the descriptors'
    // instead of following them (in a stream the members posted long ago).
    prefetch_stages(k, p.lo, p.hi, static_cast<std::uint64_t>(in_span));
    // An allreduce or reduce_scatter member needs every post: on a gated communicator
    // it sleeps until the last one (a no-op otherwise).
    if (!k.opener && p.lo == 0 && p.hi == k.n - 1 && !wait_arrivals(k)) return aborted(why);
    // Every member's post is checked: an invalid one names its culprit, one of another
    // size (its count differs: it may have taken a large path and streamed) fails the
    // call; waits stop at an abort. Then every input is staged.
    const bool all = sizes_agree(k, p.lo, p.hi, static_cast<std::uint64_t>(in_span), ok);
    // Folded from the staging, in one pass (fold()'s generic reading, per input and
    // chunk, was half of a small call's cost).
    // A sharing opener folds the whole vector into the shared area, then copies its block.
    const bool share = k.defer_open && k.opener;
    if (all) {
      const MPI_Count n = share ? p.total : p.res_n;
      std::byte* const acc = share ? shared_area(k, full) : res_img;
      fold_staged(k, op, p.lo, p.hi, share ? 0 : g.at(p.res_first), n, g.span(n), g.tlb, acc,
                  own_direct ? in_img : nullptr);
      if (share) copy_bytes(res_img, acc + block_at, len);
    }
    if (share) publish_shared(k, all && k.error == MPI_SUCCESS);
    // Posts of our size are staged: only members whose counts differ may have streamed.
    if (!all) {
      for (int r = p.lo; r <= p.hi; ++r) ack_streamed_input(k, r, true);
    }
  }
  if (k.opener) open_gate(k);  // nothing to share (count 0): the gate must open all the same
  if (!finish(k)) return aborted(why);
  return ok && k.error == MPI_SUCCESS ? MPI_SUCCESS : result(k, ok, why);
}

}  // namespace

PostedFold g_posted_fold;

void fold_staged(const Call& k, const Reducer& op, int lo, int hi, MPI_Count off, MPI_Count n, MPI_Count span,
                 MPI_Count tlb, std::byte* acc, const std::byte* own) {
  auto x = [&](int r) { return (own != nullptr && r == k.me ? own : staged(k, r, desc(k, r))) + off; };
  if (hi == lo) {
    copy_bytes(acc, x(hi), static_cast<std::size_t>(span));
    return;
  }
  // The same order as fold(): acc = x(hi-1) o x(hi), then acc = x(r) o acc.
  op.apply3(x(hi - 1), x(hi), acc, n, static_cast<std::size_t>(span));
  for (int r = hi - 2; r >= lo; --r) op.apply(x(r) - tlb, acc - tlb, n);
}

FoldStep run_posted_fold(PostedFold& f, const Reducer& op) {
  Call& k = *f.k;
  if (!f.looked) {  // poll_at_issue()'s evidence
    f.looked = true;
    std::uint8_t& credit = k.comm->fold_credit;
    credit = ticks() - f.issued >= kWorkTicks ? kFoldCredit : credit > 0 ? credit - 1 : 0;
    k.comm->fold_since_look = 0;
  }
  int r = f.lo;  // members before r have posted
  while (r <= f.hi && (r == k.me || posted_now(k, r))) ++r;
  if (r <= f.hi) return job_aborted() ? FoldStep::general : FoldStep::waiting;
  return fold_posted(k, op, f);
}

FoldStep fold_posted(Call& k, const Reducer& op, const FoldArgs& f) {
  // What reduce_staged's sizes_agree() would find: every post valid, staged and as
  // long as ours; anything else goes the general way.
  constexpr std::uint32_t kNotStaged = layout::kDescInvalid | layout::kDescExposed | layout::kDescStreamed;
  for (int r = f.lo; r <= f.hi; ++r) {
    const layout::CallDesc& d = desc(k, r);
    if (r != k.me && ((d.status & kNotStaged) != 0 || d.bytes != f.in_bytes)) return FoldStep::general;
  }
  prefetch_stages(k, f.lo, f.hi, f.in_bytes);
  fold_staged(k, op, f.lo, f.hi, f.off, f.n, f.span, f.tlb, f.res);
  (void)finish(k);  // nothing exposed: it waits for nobody
  return FoldStep::done;
}

layout::CollKind coll_kind(ReduceKind kind) {
  return kind == ReduceKind::reduce           ? layout::CollKind::reduce
         : kind == ReduceKind::allreduce      ? layout::CollKind::allreduce
         : kind == ReduceKind::reduce_scatter ? layout::CollKind::reduce_scatter
         : kind == ReduceKind::scan           ? layout::CollKind::scan
                                              : layout::CollKind::exscan;
}

namespace {
// A reduction whose input image exceeds kStageMax, from reduce() once the call is
// reserved and its plan made: the large paths named at the top of this file (reduce()
// itself is the set-up, then this or reduce_staged).
[[gnu::noinline]] int reduce_large(Call& k, ReduceKind kind, void* recv, MPI_Count count, const MPI_Count* counts,
                                   const Reducer& op, int root, bool in_place, std::string& why, const Geometry& g,
                                   const Plan& p, MPI_Count in_span, const std::byte* in_img, std::byte* recv_img,
                                   bool direct, std::byte* res_img) {
  CommObj* const c = k.comm;
  layout::CallDesc& d = my_desc(k);
  // The blocks a large reduce_scatter or split allreduce folds, one per member.
  const Blocks blocks{kind == ReduceKind::reduce_scatter ? counts : nullptr, p.total, k.n};
  // A large allreduce whose blocks all fit one ring is split: a reduce_scatter (every
  // member streams every other its block of the input and folds its own block), then
  // every member streams its block of the result to all. Every member folds 1/n and
  // copies about 2 (n-1)/n of the vector, where the root below folds all of it, and
  // each of the others copies it twice. The same choice on every member (size and
  // count only); docs/collectives.md "Reductions".
  // A large 2-member allreduce (not a chain; in place too) may be mutual instead: each
  // member exposes its input and result (kDescHelpOk), folds its half from both inputs
  // (the other's by process_vm_readv) and writes each finished chunk into its own result
  // and the other's (process_vm_writev). Nothing passes through the ring, and no member
  // reads a result the other just wrote. Rank 0 picks mutual or split by measured time
  // (path_choice.hpp) and posts it; rank 1 reads that post before its own
  // (docs/collectives.md "Reductions").
  PathPick pair_path;
  pair_path.kind = PathKind::allreduce;
  bool mutual = false;
  if (kind == ReduceKind::allreduce && k.n == 2 && in_span >= kMutualMin && g.text <= g.ext &&
      !chain_fits(g, count, k.n, direct)) {
    if (k.me == 0) {
      pair_path = pick_path(c->paths, PathKind::allreduce, static_cast<std::uint64_t>(in_span));
      mutual = !pair_path.stream;
    } else {
      if (!wait_posted(k, 0)) return aborted(why);
      // Rank 0's offer, whatever its size: a mismatch fails both sides below.
      mutual = (desc(k, 0).status & (layout::kDescHelpOk | layout::kDescInvalid)) == layout::kDescHelpOk;
    }
  }
  const bool split = !mutual && kind == ReduceKind::allreduce && k.n > 1 && split_fits(g, blocks);
  // This member's block (reduce_scatter, split allreduce): elements of the input, and
  // where its result lands in res_img.
  const MPI_Count blk_first = split ? blocks.first(k.me) : p.res_first;
  const MPI_Count blk_n = split ? blocks.count(k.me) : p.res_n;
  std::byte* const blk_img = split ? res_img + g.at(blk_first) : res_img;
  // Oversubscribed, a large allreduce is a chain when its last member's ring is free
  // (chain.hpp; else the split below, on every member: the last one says which).
  if (kind == ReduceKind::allreduce && chain_fits(g, count, k.n, direct)) {
    const int rc = chain_allreduce(k, op, g, in_img, recv_img, count, why);
    if (rc != kNotChained) return rc;
  }
  // A large reduce or allreduce not split: the root (allreduce: rank 0) folds every
  // input, the others send theirs; allreduce: the root then streams the result to all
  // (or, its ring busy, exposes it: the others read it after its `done`). Measured
  // against the slices below: docs/collectives.md "Reductions".
  const bool to_root = (kind == ReduceKind::reduce || kind == ReduceKind::allreduce) && !split && !mutual;
  const bool shares = to_root && kind == ReduceKind::allreduce;  // the root's result goes to all
  if (to_root) k.may_read = &to_root_reads;
  // A large scan or exscan: a chain (fold_prefix).
  const bool prefix = kind == ReduceKind::scan || kind == ReduceKind::exscan;
  if (prefix) k.may_read = &chain_reads;
  StreamCursor prefix_out;  // our prefix for the next member, if our ring carries it
  std::byte* prefix_img = nullptr;  // an exscan's, folded beside our result (fold_prefix)

  // A large 2-member reduce's root picks streams or single copies for its input and says
  // so in its CommRank line (path_choice.hpp); the other member follows what it reads
  // there. (8 ranks on 2 cores: streams measured ahead, and learning cost more than the
  // choice gained; docs/collectives.md "Reductions".)
  PathPick root_path;
  root_path.kind = PathKind::reduce;
  const bool root_picks = to_root && kind == ReduceKind::reduce && k.n == 2;
  // Two members: the member that exposes its input may also fold the last part of the
  // result into the root's (kDescHelps; the root folds the rest), so that both cores
  // fold: a user function always, a predefined op's kernel for large inputs. Elements
  // must not overlap in the image (true extent <= extent): the two write next to each
  // other. Both members decide from the same size and op.
  const bool user_fn = op.kernel == nullptr;
  const bool can_help = root_picks && (user_fn || in_span >= kKernelHelpMin) && g.text <= g.ext;
  bool helping = false;  // a member: we asked to fold elements [help_first, total)
  const MPI_Count help_first = user_fn ? p.total - p.total * kHelpShareNum / kHelpShareDen
                                       : p.total - p.total * kKernelHelpShareNum / kKernelHelpShareDen;
  // A reduce_scatter's blocks for the others, when they pass the ring: pumped in step
  // with our fold (none: t null).
  InStep in_step;
  if (mutual) {
    d.status = layout::kDescHelpOk;
    d.bytes = static_cast<std::uint64_t>(in_span);
    d.addr = reinterpret_cast<std::uint64_t>(in_img);
    d.addr2 = reinterpret_cast<std::uint64_t>(res_img);
    k.exposed = true;  // finish() waits for the other's `done`: it read and wrote here
    post(k);
    if (in_place && direct) {
      // Our fold writes our block where it reads it: it reads a copy. The other member
      // reads the rest of our input where it lies, and writes its result there only
      // after it has read each chunk.
      const MPI_Count first = blocks.first(k.me);
      std::byte* copy = scratch(c, 0, static_cast<std::size_t>(in_span));
      copy_bytes(copy + g.at(first), in_img + g.at(first), static_cast<std::size_t>(g.span(blocks.count(k.me))));
      in_img = copy;
    }
  } else if (to_root) {
    const auto span = static_cast<std::uint64_t>(in_span);
    d.status = 0;
    d.bytes = span;
    d.addr = d.addr2 = 0;
    if (root_picks && k.me == root) {
      root_path = pick_path(c->paths, PathKind::reduce, span);
      publish_pick(k.mine->copy_classes, root_path);
    }
    if (k.me == root) {
      // Nobody reads the root's input; in place, the results are folded over it.
      if (in_place) in_img = copy_aside(c, in_img, static_cast<std::size_t>(span));
      if (shares && can_stream(k)) {
        (void)stream_whole(k, span);  // the result, pumped after the fold
      } else if (shares) {
        d.addr2 = reinterpret_cast<std::uint64_t>(res_img);
        k.exposed = true;
      } else if (can_help) {
        // Not k.exposed: only a member that helps reads or writes here, and we wait for
        // its `done` alone (below).
        d.addr = reinterpret_cast<std::uint64_t>(in_img);
        d.addr2 = reinterpret_cast<std::uint64_t>(res_img);
        d.status = layout::kDescHelpOk;
      }
      post(k);
    } else if (can_stream(k) &&
               (!root_picks || follow_pick(k.b->rank(root).copy_classes, PathKind::reduce, span).stream)) {
      const std::uint32_t first = stream_whole(k, span);
      post(k);
      if (!pump(k, 1, [&](int) { return StreamPart{nullptr, in_img, span, first, root}; })) return aborted(why);
    } else {
      contribute_image(k, in_img, in_span, false);
      if (can_help) {
        helping = true;
        d.status |= layout::kDescHelps;
        d.bytes2 = static_cast<std::uint64_t>(help_first);
        d.value[1] = 0;
      }
      post(k);
    }
  } else if ((kind == ReduceKind::reduce_scatter || split) &&
             stream_blocks(k, g, blocks, in_img, in_place, split, in_step)) {
    post(k);
    const layout::PieceDesc* t = my_pieces(k);
    if (in_step.t != nullptr) {
      // Our blocks pass the ring: pumped in step with our fold, the first segments now.
      if (!in_step.pump_to(k, in_step.target(0))) return aborted(why);
    } else {
      // Every member streams and reads: the blocks fit the ring (stream_blocks), so the
      // pump never waits for room. (A split allreduce's piece `me` is its result, later.)
      const bool pumped = pump(k, k.n, [&](int j) {
        StreamPart part = j == k.me ? StreamPart{} : piece_part(t[j], j);
        part.raw = in_img + t[j].stage_off;
        return part;
      });
      if (!pumped) return aborted(why);
    }
  } else if (prefix && k.me < k.n - 1 && can_stream(k)) {
    // Our prefix to the next member through our ring (fold_prefix). In place, our fold
    // writes the result over the input it still reads: it reads a copy.
    if (in_place) in_img = copy_aside(c, in_img, static_cast<std::size_t>(in_span));
    const auto span = static_cast<std::uint64_t>(in_span);
    const std::uint32_t first = stream_whole(k, span);
    if (k.me > 0 && kind == ReduceKind::exscan) prefix_img = scratch(c, 3, static_cast<std::size_t>(span));
    const std::byte* from = k.me == 0 ? in_img : kind == ReduceKind::scan ? res_img : prefix_img;
    prefix_out = StreamCursor{from, first, span, k.me + 1};
    post(k);
  } else {
    // In place, the input is overwritten by results while others may read it.
    contribute_image(k, in_img, in_span, in_place);
    in_img = reinterpret_cast<const std::byte*>(d.addr);
    d.addr2 = reinterpret_cast<std::uint64_t>(res_img);
    post(k);
  }

  // Before any wait for another member's data, the posts this member depends on must
  // agree on the size: a member whose count differs (an erroneous call) may be on
  // another path, and never write what we would wait for. An allreduce's and a
  // reduce_scatter's members each check every post (each waits for every other's data),
  // so all of them leave together; a reduce's root and a scan's member check the inputs
  // they fold. Leaving, a member acks what was streamed to it (a writer may wait for
  // room), and nobody reads or writes another's result.
  bool ok = true;
  const bool everyone = kind == ReduceKind::allreduce || kind == ReduceKind::reduce_scatter;
  const int check_lo = everyone ? 0 : p.lo;
  const int check_hi = everyone ? k.n - 1 : p.has_result ? p.hi : p.lo - 1;
  if (!sizes_agree(k, check_lo, check_hi, static_cast<std::uint64_t>(in_span), ok)) {
    for (int r = 0; r < k.n; ++r) ack_streamed_input(k, r, true);
    if (!finish(k)) return aborted(why);
    return result(k, ok, why);
  }
  auto ready = [&](int r) {
    if (!ok) return false;
    if (r != k.me && !wait_posted(k, r)) return ok = false;
    return peer_ok(k, r);
  };

  // Rank r's contribution as a fold input; this rank's own input is used where it lies.
  auto input = [&](int lo) {
    return [&, lo](int i) {
      const int r = lo + i;
      if (r == k.me) return FoldIn{r, {}, in_img};
      const layout::CallDesc& rd = desc(k, r);
      if ((kind == ReduceKind::reduce_scatter || split) && (rd.status & layout::kDescStreamed) != 0) {
        // r streamed each member its block: ours, read at offsets of the whole image.
        const layout::PieceDesc& pc = pieces(k, r)[k.me];
        return FoldIn{r, Source{nullptr, 0, pc.stream, static_cast<std::uint64_t>(g.at(blk_first))}, nullptr};
      }
      return FoldIn{r, source(k, r, rd), nullptr};
    };
  };
  auto ack_input = [&](int r) { ack_streamed_input(k, r, false); };
  // Two members (the helped reduce's sender, the mutual allreduce): folds elements
  // [first, first + n) of both inputs into `acc` (an image of n elements) and writes each
  // finished chunk into member r's result image at `remote` (process_vm_writev) while it
  // is in cache.
  auto fold_into = [&](int r, std::uint64_t remote, MPI_Count first, MPI_Count n, std::byte* acc) {
    MPI_Count stored = 0;
    auto store = [&](MPI_Count e) {
      const bool w = store_to(k, r, remote + static_cast<std::uint64_t>(g.at(first + stored)), acc + g.at(stored),
                              static_cast<std::size_t>(g.span(e - stored)));
      stored = e;
      return w;
    };
    return fold(k, op, g, input(0), 2, first, n, acc, store);
  };

  // A result this member streams (allreduce: the root's whole result, or its block of a
  // split one); raw null: none.
  StreamCursor result_out;
  // The fold's `after`: pumps the result's ring chunks on as the fold finishes them
  // (still in cache, and the readers start copying at once), but only as far as the
  // ring holds them: waiting for room here would wait for readers that may still be
  // pumping their inputs to us. The rest follows the fold.
  auto pump_folded = [&](MPI_Count e, MPI_Count of) {
    const auto done = e == of ? result_out.bytes : static_cast<std::uint64_t>(g.span(e));
    return result_out.pump_to(k, std::min(done, layout::kStreamRing));
  };

  if (mutual) {
    // The other member is mutual too: its size agrees (above), so it took the same
    // decision (rank 1 follows rank 0's post). A write into its result fails only if that
    // memory is gone (it died: an abort, or passed a buffer shorter than its count): it
    // fails this call. The other learns nothing of it: unlike the helped reduce's root,
    // it cannot read our descriptor after our `done` (we may be calls ahead by then, the
    // line reused).
    const int other = 1 - k.me;
    const MPI_Count first = blocks.first(k.me);
    ok = fold_into(other, desc(k, other).addr2, first, blocks.count(k.me), res_img + g.at(first));
  } else if (shares && k.me != root) {
    // The root's result: streamed, or exposed once the root is done folding (every
    // member's post was checked above).
    const layout::CallDesc& rd = desc(k, root);
    const auto span = static_cast<std::uint64_t>(g.span(p.res_n));
    if ((rd.status & layout::kDescStreamed) != 0) {
      const auto first = static_cast<std::uint32_t>(rd.value[0]);
      ok = stream_read(k, root, first, 0, res_img, static_cast<std::size_t>(std::min(span, rd.bytes)));
      ack_all(k, root, first, rd.bytes);
    } else if (span > 0) {
      ok = wait_done(k, root, k.seq) && fetch(k, root, Source{nullptr, rd.addr2}, 0, res_img, span);
    }
  } else if (to_root) {
    if (shares && k.streaming) {
      result_out = StreamCursor{res_img, k.stream_first, static_cast<std::uint64_t>(in_span)};
    }
    if (p.folds()) {
      // (Every input's post was checked above.) A member that folds the last part of the
      // result (kDescHelps, same bytes): we fold the rest, then wait for its `done` (it
      // reads our input, writes our result).
      const int other = 1 - k.me;
      const bool helped = can_help && offers(desc(k, other), layout::kDescHelps, in_span);
      MPI_Count upto = p.res_n;
      if (helped) upto = std::min<MPI_Count>(static_cast<MPI_Count>(desc(k, other).bytes2), upto);
      auto after = [&](MPI_Count e) { return pump_folded(e, p.res_n); };
      ok = fold(k, op, g, input(p.lo), p.hi - p.lo + 1, p.res_first, upto, res_img, after);
      for (int r = p.lo; r <= p.hi; ++r) ack_input(r);
      // Timed by the path the sender's input took (it may have read an older pick).
      if (root_path.timed) root_path.stream = (desc(k, other).status & layout::kDescStreamed) != 0;
      if (helped) {
        const bool waited = wait_done(k, other, k.seq);
        if (waited && desc(k, other).value[1] != static_cast<std::int64_t>(layout::kHelpWritten)) {
          k.why = "rank " + std::to_string(other) + " could not fold its part of the result";
          ok = false;
        }
        ok = waited && ok;
      }
    } else if (helping) {
      // We exposed our input and offered to fold [help_first, total): if the root allows
      // it, fold that part from both inputs (its input by process_vm_readv) and write
      // each finished chunk into its result (process_vm_writev) while it is in cache.
      ok = ready(root);
      const layout::CallDesc& rd = desc(k, root);
      if (ok && offers(rd, layout::kDescHelpOk, in_span)) {
        const MPI_Count n_el = p.total - help_first;
        ok = fold_into(root, rd.addr2, help_first, n_el, scratch(c, 2, static_cast<std::size_t>(g.span(n_el))));
        d.value[1] = ok ? static_cast<std::int64_t>(layout::kHelpWritten) : 0;
      }
    }
    // Allreduce: the result to every member (also after a failed fold: they wait for it).
    if (!job_aborted() && !result_out.pump_to(k, result_out.bytes)) return aborted(why);
  } else {
    // Reduce_scatter: this rank's block; fold() reads the streamed or exposed inputs
    // chunk by chunk, so copying and combining overlap. Scan, exscan: fold_prefix.
    // Split allreduce: the same for its block, then every member's block of the result.
    // (The posts this member reads were checked above; a scan member also reports an
    // invalid member above it, as every member does.)
    for (int r = 0; r < k.n && ok; ++r) ready(r);
    // (Our piece table is this call's only if we streamed: an exposing member's holds
    // an earlier call's pieces.)
    const layout::PieceDesc& mine = my_pieces(k)[k.me];
    if (split && (d.status & layout::kDescStreamed) != 0 && (mine.stream & layout::kPieceStreamed) != 0) {
      result_out = StreamCursor{blk_img, static_cast<std::uint32_t>(mine.stream), mine.bytes};
    }
    if (prefix) {
      // (An exscan's member 0 has no result, but streams x(0).)
      ok = ok && fold_prefix(k, op, g, kind, in_img, res_img, p.total, prefix_out, prefix_img);
      // The rest of our prefix (also after a failed fold: the next member waits for it).
      if (!job_aborted() && !prefix_out.pump_to(k, prefix_out.bytes)) return aborted(why);
    } else if (ok && p.has_result && blk_n > 0 && p.hi >= p.lo) {
      ok = fold(k, op, g, input(p.lo), p.hi - p.lo + 1, blk_first, blk_n, blk_img, [&](MPI_Count e) {
        return pump_folded(e, blk_n) && in_step.pump_to(k, in_step.target(static_cast<std::uint64_t>(g.at(e))));
      });
    }
    for (int r = 0; r < k.n; ++r) ack_input(r);
    // The rest of our blocks for the others (also after a failed fold: they wait for them).
    if (!job_aborted() && !in_step.pump_all(k)) return aborted(why);
    // Our block to the others (also after a failed fold: they wait for it); streamed,
    // or (our ring was busy) exposed in our result image: share_block.
    if (split && !job_aborted()) {
      if (result_out.raw != nullptr && !result_out.pump_to(k, result_out.bytes)) return aborted(why);
      if (result_out.raw == nullptr) {
        final_of(d).store(k.seq, std::memory_order_release);
        layout::Flag& bump = k.b->ack(k.me, k.me);
        signal_flag(bump, bump.value.load(std::memory_order_relaxed) + 1);
      }
    }
    for (int j = 0; split && ok && j < k.n; ++j) {
      if (j != k.me) ok = share_block(k, g, blocks, j, res_img);
    }
  }
  if (!finish(k)) return aborted(why);
  if (ok) {
    path_done(c->paths, root_path);
    path_done(c->paths, pair_path);
  }
  // A failed wait is an abort (MPI_ERR_PROC_ABORTED), else the error recorded.
  if (!ok || k.error != MPI_SUCCESS) return result(k, ok, why);
  if (!direct && p.has_result && p.res_n > 0) image_to_buffer(c, op, res_img, static_cast<std::byte*>(recv), p.res_n);
  return MPI_SUCCESS;
}

}  // namespace

int reduce(CommObj* c, ReduceKind kind, const void* send, void* recv, MPI_Count count, const MPI_Count* counts,
           const Reducer& op, int root, bool in_place, bool invalid, std::string& why, Part part) {
  const layout::CollKind ck = coll_kind(kind);
  if (kind == ReduceKind::reduce || kind == ReduceKind::allreduce) {
    const NumaGroups& ng = numa_groups(c);
    if (ng.active && ng.contiguous && !nonblocking_call()) {
      return numa_reduce(c, ng, kind, send, recv, count, op, root, in_place, invalid, why);
    }
  }
  // A split run (part != Part::whole) is always staged (a `bounded` one that is not
  // stops below): the large path runs whole.
  Call k = begin(c, ck);
  k.lazy_done = true;
  k.may_read = &may_read_input;
  k.reader_arg = root * 8 + static_cast<int>(kind);
  // A reduce's, scan's or exscan's small contribution stages in the small slot (each
  // member folds into its own buffer): it may run further ahead. The allreduce and
  // reduce_scatter may share a result.
  const bool small = !invalid && reduce_small(kind, static_cast<std::uint64_t>(geometry(*op.type).span(count)));
  if (part == Part::after_post) {
    k.small_stage = small;  // reserved at issue, in the call's first part
  } else if (part != Part::bounded && !(small ? reserve_small(k) : reserve(k))) {
    return aborted(why);
  }
  assert(!invalid || part == Part::whole);  // nbc.cpp start_mode: a split run is valid
  if (invalid) {
    post_invalid(k, k.me);
    finish_now(k);
    return MPI_SUCCESS;
  }
  const types::Datatype& t = *op.type;
  const Geometry g = geometry(t);
  const Plan p = plan(kind, k.me, k.n, count, counts, root);
  const MPI_Count in_span = g.span(p.total);
  const auto* in_img = static_cast<const std::byte*>(in_place ? recv : send) + g.tlb;
  auto* recv_img = static_cast<std::byte*>(recv) + g.tlb;
  // Where this rank's result is folded: the user's buffer, or an image in scratch 2.
  const bool direct = writable(t);
  std::byte* res_img = nullptr;
  if (p.has_result && p.res_n > 0) {
    res_img = direct ? recv_img : scratch(c, 2, static_cast<std::size_t>(g.span(p.res_n)));
  }
  if (part == Part::bounded) {
    // At issue (nbc.cpp run_posting), nothing written yet: a large call, or one whose slot
    // is not free, stops here. One with nothing to fold runs through once reserved, so it
    // waits for that alone (deferred); one that folds would then wait for posts too.
    if (static_cast<std::uint64_t>(in_span) > kStageMax) return kNeedsTask;
    if (!reservable(k, small)) return p.folds() ? kNeedsTask : kNotYet;
    (void)(small ? reserve_small(k) : reserve(k));  // at once (marks a small one's staging)
  }
  if (static_cast<std::uint64_t>(in_span) <= kStageMax) {
    const int rc =
        reduce_staged(k, op, g, p, in_img, res_img, in_span, in_place,
                      folds_shared(kind, static_cast<std::uint64_t>(in_span)), direct, part, why);
    if (rc == MPI_SUCCESS && !direct && p.has_result && p.res_n > 0) {
      image_to_buffer(c, op, res_img, static_cast<std::byte*>(recv), p.res_n);
    }
    return rc;
  }
  return reduce_large(k, kind, recv, count, counts, op, root, in_place, why, g, p, in_span, in_img, recv_img, direct,
                      res_img);
}

}  // namespace shmpi::client::coll
