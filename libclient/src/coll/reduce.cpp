// The reduce family: reduce, allreduce, reduce_scatter(_block), scan, exscan.
//
// Inputs are memory images (count elements at the datatype's extent, from true_lb), so
// user ops on derived types see their own layout. Every result element is combined in
// rank order, right to left: acc = x(hi); acc = x(r) o acc for r = hi-1 .. lo, which is
// x(lo) o ... o x(hi) for any associative op (MPI-4.1 6.9.5: non-commutative ops in rank
// order) and the same bits on every run for floating point.
//   small (image <= kStageMax): every rank stages its image; each result is folded by
//     the rank that needs it, straight from the staging halves;
//   large reduce, allreduce: every rank but the root (allreduce: rank 0) streams its
//     image (stream.hpp; exposes it if its ring is busy), the root folds all of them,
//     chunk by chunk, as they come, and (allreduce) streams the result to all;
//   large reduce_scatter: every rank streams each other rank its block, if they all
//     fit its ring (stream_blocks), and folds its own block from the streams;
//   other large calls: every rank exposes its image and folds its own block
//     (reduce_scatter) or prefix (scan) in chunks (process_vm_readv of chunk r, fold,
//     next) so copying and combining overlap.
#include <algorithm>
#include <cstring>

#include "coll/collectives.hpp"
#include "coll/fiber.hpp"
#include "coll/image.hpp"
#include "coll/numa.hpp"
#include "coll/stream.hpp"
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

void image_to_buffer(CommObj* c, const Reducer& op, const std::byte* img, std::byte* buf, MPI_Count n) {
  if (n == 0) return;
  const types::Datatype& t = *op.type;
  const types::Flat& f = *t.flat;
  std::byte* packed = scratch(c, 1, static_cast<std::size_t>(n * t.size));
  types::pack(t, f, img - t.true_lb, n, packed);
  types::unpack(t, f, packed, n, buf);
}

void contribute_image(Call& k, const std::byte* img, MPI_Count span, bool unstable) {
  layout::CallDesc& d = my_desc(k);
  const auto bytes = static_cast<std::uint64_t>(span);
  d.status = 0;
  d.bytes = bytes;
  if (bytes <= kStageMax) {
    d.addr = 0;
    std::byte* to = stage_for(k, bytes);
    if (bytes > 0) std::memcpy(to, img, bytes);
    return;
  }
  if (unstable) {
    std::byte* copy = scratch(k.comm, 0, bytes);
    std::memcpy(copy, img, bytes);
    img = copy;
  }
  d.addr = reinterpret_cast<std::uint64_t>(img);
  k.exposed = true;
}

namespace {

struct Plan {
  ReduceKind kind;
  int root;
  MPI_Count total = 0;                  // input elements per rank
  MPI_Count res_first = 0, res_n = 0;   // the elements of the input this rank's result covers
  int lo = 0, hi = -1;                  // ranks folded into this rank's result (hi < lo: none)
  bool has_result = false;
};

// Whether member r may read this rank's exposed input (finish() waits for its `done`):
// a member that exposed its own takes the large path and reads every input; else it
// reads only inputs it folds into its result. Members that did not expose read
// exposed inputs only when the counts disagree (an erroneous call), and then they
// still must not leave the exposer waiting.
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

// Reduce_scatter, large: streams every other member its block of our image when our
// ring is free and all of them fit it (every member writes and reads, so no pump may
// wait for room): piece table entry j = block j (stage_off: its image offset). In
// place, the image is copied first (our result lands on it). False: nothing written.
bool stream_blocks(Call& k, const Geometry& g, const MPI_Count* counts, const std::byte*& img, bool in_place) {
  if (!can_stream(k)) return false;
  std::uint64_t chunks = 0;
  for (int j = 0; j < k.n; ++j) {
    if (j != k.me) chunks += stream_chunks(static_cast<std::uint64_t>(g.span(counts[j])));
  }
  if (chunks == 0 || chunks > layout::kStreamChunks) return false;
  if (in_place) {
    MPI_Count total = 0;
    for (int j = 0; j < k.n; ++j) total += counts[j];
    const auto span = static_cast<std::size_t>(g.span(total));
    std::byte* copy = scratch(k.comm, 0, span);
    std::memcpy(copy, img, span);
    img = copy;
  }
  layout::CallDesc& d = my_desc(k);
  d.status = layout::kDescStreamed;
  d.addr = d.addr2 = 0;
  layout::PieceDesc* t = my_pieces(k);
  MPI_Count at = 0;
  for (int j = 0; j < k.n; ++j) {
    const auto bytes = static_cast<std::uint64_t>(g.span(counts[j]));
    t[j] = layout::PieceDesc{0, bytes, static_cast<std::uint64_t>(g.at(at)), 0};
    if (j != k.me && bytes > 0) t[j].stream = layout::kPieceStreamed | take_chunks(k, bytes);
    at += counts[j];
  }
  d.bytes = static_cast<std::uint64_t>(g.span(at));
  return true;
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

}  // namespace

layout::CollKind coll_kind(ReduceKind kind) {
  return kind == ReduceKind::reduce           ? layout::CollKind::reduce
         : kind == ReduceKind::allreduce      ? layout::CollKind::allreduce
         : kind == ReduceKind::reduce_scatter ? layout::CollKind::reduce_scatter
         : kind == ReduceKind::scan           ? layout::CollKind::scan
                                              : layout::CollKind::exscan;
}

int reduce(CommObj* c, ReduceKind kind, const void* send, void* recv, MPI_Count count, const MPI_Count* counts,
           const Reducer& op, int root, bool in_place, bool invalid, std::string& why, Part part) {
  const layout::CollKind ck = coll_kind(kind);
  if (kind == ReduceKind::reduce || kind == ReduceKind::allreduce) {
    const NumaGroups& ng = numa_groups(c);
    if (ng.active && ng.contiguous && !nonblocking_call()) {
      return numa_reduce(c, ng, kind, send, recv, count, op, root, in_place, invalid, why);
    }
  }
  // A split run (part) is always staged (ready.cpp posts_first).
  Call k = begin(c, ck);
  k.lazy_done = true;
  k.may_read = &may_read_input;
  k.reader_arg = root * 8 + static_cast<int>(kind);
  if (part != Part::after_post && !reserve(k)) return aborted(why);
  layout::CallDesc& d = my_desc(k);
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
  const bool staged = static_cast<std::uint64_t>(in_span) <= kStageMax;
  // A large reduce or allreduce: the root (allreduce: rank 0) folds every input, the
  // others send theirs; allreduce: the root then streams the result to all (or, its
  // ring busy, exposes it: the others read it after its `done`). Measured against the
  // slices below: docs/collectives.md "Reductions".
  const bool to_root = (kind == ReduceKind::reduce || kind == ReduceKind::allreduce) && !staged;
  const bool shares = to_root && kind == ReduceKind::allreduce;  // the root's result goes to all
  if (to_root) k.may_read = &to_root_reads;

  if (to_root && part != Part::after_post) {
    const auto span = static_cast<std::uint64_t>(in_span);
    d.status = 0;
    d.bytes = span;
    d.addr = d.addr2 = 0;
    if (k.me == root) {
      // Nobody reads the root's input; in place, the results are folded over it.
      if (in_place) {
        std::byte* copy = scratch(c, 0, static_cast<std::size_t>(span));
        std::memcpy(copy, in_img, static_cast<std::size_t>(span));
        in_img = copy;
      }
      if (shares && can_stream(k)) {
        (void)stream_whole(k, span);  // the result, pumped after the fold
      } else if (shares) {
        d.addr2 = reinterpret_cast<std::uint64_t>(res_img);
        k.exposed = true;
      }
      post(k);
    } else if (can_stream(k)) {
      const std::uint32_t first = stream_whole(k, span);
      post(k);
      if (!pump(k, 1, [&](int) { return StreamPart{nullptr, in_img, span, first, root}; })) return aborted(why);
    } else {
      contribute_image(k, in_img, in_span, false);
      post(k);
    }
  } else if (part != Part::after_post && kind == ReduceKind::reduce_scatter && !staged &&
             stream_blocks(k, g, counts, in_img, in_place)) {
    post(k);
    // Every member streams and reads: the blocks fit the ring (stream_blocks), so the
    // pump never waits for room.
    const layout::PieceDesc* t = my_pieces(k);
    const bool pumped = pump(k, k.n, [&](int j) {
      StreamPart part = piece_part(t[j], j);
      part.raw = in_img + t[j].stage_off;
      return part;
    });
    if (!pumped) return aborted(why);
  } else if (part != Part::after_post) {
    // In place, the input is overwritten by results while others may read it.
    contribute_image(k, in_img, in_span, in_place);
    if (!staged) in_img = reinterpret_cast<const std::byte*>(d.addr);
    d.addr2 = reinterpret_cast<std::uint64_t>(res_img);
    post(k);
    // Staged (posts_first): all it waits for now are the posts of p.lo..p.hi.
    if (part == Part::bounded && !posts_arrive(k, p.lo, p.hi)) return kPostedOnly;
  }

  bool ok = true;
  auto ready = [&](int r) {
    if (!ok) return false;
    if (r != k.me && !wait_posted(k, r)) return ok = false;
    return peer_ok(k, r);
  };

  // Rank r's contribution as a fold input; this rank's own input is used where it lies.
  auto input = [&](int lo) {
    return [&, lo](int i) {
      const int r = lo + i;
      if (r == k.me && !staged) return FoldIn{r, {}, in_img};
      const layout::CallDesc& rd = desc(k, r);
      if (kind == ReduceKind::reduce_scatter && (rd.status & layout::kDescStreamed) != 0) {
        // r streamed each member its block: ours, read at offsets of the whole image.
        const layout::PieceDesc& pc = pieces(k, r)[k.me];
        return FoldIn{r, Source{nullptr, 0, pc.stream, static_cast<std::uint64_t>(g.at(p.res_first))}, nullptr};
      }
      return FoldIn{r, source(k, r, rd), nullptr};
    };
  };
  // Acks rank r's streamed input to its end, also where it was not read (an error, or
  // counts that disagree): its writer may wait for that.
  auto ack_input = [&](int r) {
    const layout::CallDesc& rd = desc(k, r);
    if (r == k.me || rd.seq.load(std::memory_order_acquire) != k.seq) return;
    if ((rd.status & layout::kDescStreamed) == 0) return;
    if (kind != ReduceKind::reduce_scatter) return ack_all(k, r, static_cast<std::uint32_t>(rd.value[0]), rd.bytes);
    const layout::PieceDesc& pc = pieces(k, r)[k.me];
    if ((pc.stream & layout::kPieceStreamed) != 0) ack_all(k, r, static_cast<std::uint32_t>(pc.stream), pc.bytes);
  };

  if (shares && k.me != root) {
    // The root's result: streamed, or exposed once the root is done folding.
    ok = ready(root);
    const layout::CallDesc& rd = desc(k, root);
    const auto span = static_cast<std::uint64_t>(g.span(p.res_n));
    if (ok && (rd.status & layout::kDescStreamed) != 0) {
      const auto first = static_cast<std::uint32_t>(rd.value[0]);
      ok = stream_read(k, root, first, 0, res_img, static_cast<std::size_t>(std::min(span, rd.bytes)));
      ack_all(k, root, first, rd.bytes);
    } else if (ok && span > 0) {
      ok = wait_done(k, root, k.seq) && fetch(k, root, Source{nullptr, rd.addr2}, 0, res_img, span);
    }
    // The root folded whatever it had: a member with invalid arguments fails the call
    // here too.
    for (int r = 0; r < k.n; ++r) ready(r);
  } else if (staged || to_root) {
    if (p.has_result && p.res_n > 0 && p.hi >= p.lo) {
      // Staged inputs beyond the descriptor line sit in each member's slot: ask for
      // their first lines now, so that those misses overlap the descriptors' instead of
      // following them (in a stream the members posted long ago).
      if (staged && static_cast<std::uint64_t>(in_span) > layout::kInlineBytes) {
        for (int r = p.lo; r <= p.hi; ++r) {
          if (r != k.me) __builtin_prefetch(k.b->stage(r, k.slot));
        }
      }
      bool all = true;
      for (int r = p.lo; r <= p.hi; ++r) all = ready(r) && all;
      if (all) ok = fold(k, op, g, input(p.lo), p.hi - p.lo + 1, p.res_first, p.res_n, res_img);
      for (int r = p.lo; r <= p.hi; ++r) ack_input(r);
    }
    // Allreduce: the result to every member (also after a failed fold: they wait for it).
    if (shares && k.streaming && !job_aborted()) {
      const auto span = static_cast<std::uint64_t>(in_span);
      const std::uint32_t first = k.stream_first;
      if (!pump(k, 1, [&](int) { return StreamPart{nullptr, res_img, span, first, -1}; })) return aborted(why);
    }
  } else {
    // Reduce_scatter, scan, exscan: this rank's block or prefix; fold() reads the
    // exposed inputs chunk by chunk, so copying and combining overlap.
    for (int r = 0; r < k.n && ok; ++r) ready(r);
    if (ok && p.has_result && p.res_n > 0 && p.hi >= p.lo) {
      ok = fold(k, op, g, input(p.lo), p.hi - p.lo + 1, p.res_first, p.res_n, res_img);
    }
    for (int r = 0; r < k.n; ++r) ack_input(r);
  }
  if (!finish(k)) return aborted(why);
  // A failed wait is an abort (MPI_ERR_PROC_ABORTED), else the error recorded.
  if (!ok || k.error != MPI_SUCCESS) return result(k, ok, why);
  if (!direct && p.has_result && p.res_n > 0) image_to_buffer(c, op, res_img, static_cast<std::byte*>(recv), p.res_n);
  return MPI_SUCCESS;
}

}  // namespace shmpi::client::coll
