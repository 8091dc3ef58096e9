// Memory images for the reduce family (reduce.cpp, numa.cpp): `count` elements at the
// datatype's extent starting at true_lb, so user ops on derived types see their own
// layout. Folds are right to left in rank order: acc = x(last); acc = x(i) o acc.
#pragma once

#include <algorithm>
#include <cstring>

#include "coll/collectives.hpp"
#include "coll/stream.hpp"
#include "copy_bytes.hpp"

namespace shmpi::client::coll {

// Elements per chunk of a large fold: accumulator + incoming chunk stay in L2 (1 MiB on
// the EPYC VMs), and each process_vm_readv/writev moves 256 KiB.
inline constexpr MPI_Count kChunkBytes = MPI_Count{256} << 10;

struct Geometry {
  MPI_Count ext, tlb, text;
  MPI_Count span(MPI_Count n) const { return n > 0 ? (n - 1) * ext + text : 0; }
  MPI_Count at(MPI_Count e) const { return e * ext; }  // image offset of element e
};
inline Geometry geometry(const types::Datatype& t) { return {t.extent(), t.true_lb, t.true_extent()}; }

// The bytes a fold (below) combines at a time: a ring chunk when it reads a stream and
// elements tile a ring chunk (then every read of a stream lies within one chunk), else
// kChunkBytes.
inline MPI_Count fold_chunk_bytes(const Geometry& g, bool streamed) {
  const auto ring_chunk = static_cast<MPI_Count>(layout::kStreamChunk);
  return streamed && g.ext > 0 && ring_chunk % g.ext == 0 ? ring_chunk : kChunkBytes;
}

// A result image can be folded in the user's buffer when the type has no holes to keep.
inline bool writable(const types::Datatype& t) { return t.predefined || (t.contiguous() && t.size == t.extent()); }

// Copies the type map of `n` elements from an image to the user's buffer `buf` (the
// holes of a derived type in `buf` stay untouched).
void image_to_buffer(CommObj* c, const Reducer& op, const std::byte* img, std::byte* buf, MPI_Count n);

// Publishes `span` bytes of image `img` as this rank's contribution (my_desc: bytes,
// addr, status): staged when small, else exposed, through a copy in scratch 0 when
// `unstable` (the caller overwrites img before the call ends, e.g. in place).
void contribute_image(Call& k, const std::byte* img, MPI_Count span, bool unstable);

// One input of a fold: rank `rank`'s contribution `src`, or an image in this process
// (`local`, used as is).
struct FoldIn {
  int rank = 0;
  Source src;
  const std::byte* local = nullptr;
};

// out = in(0) o in(1) o ... o in(m-1) over elements [first, first + n) of the input
// images; `out` is an image of n elements. Chunk by chunk, each input read where it lies
// (local image, staging, or its writer's ring: stream_view) or else copied in (fetch),
// so a chunk is folded while it is in cache; the first combination is one pass,
// out = in(m-2) o in(m-1) (Reducer::apply3), not a copy and then a fold. A fold with a
// streamed input takes ring-chunk-sized chunks when elements tile a ring chunk, so that
// every chunk of the stream can be read in place. after(e) runs once the first e
// elements of out are final (a reduce's root pumps them on: reduce.cpp). False (k.why)
// if a copy failed or the job was aborted.
template <class Inputs, class After>
bool fold(Call& k, const Reducer& op, const Geometry& g, Inputs in, int m, MPI_Count first, MPI_Count n,
          std::byte* out, After after) {
  if (n <= 0 || m <= 0) return true;
  bool streamed = false;
  for (int i = 0; i < m && !streamed; ++i) streamed = in(i).src.stream != 0;
  const MPI_Count chunk_bytes = fold_chunk_bytes(g, streamed);
  const MPI_Count chunk = std::max<MPI_Count>(1, chunk_bytes / std::max<MPI_Count>(1, g.ext));
  const auto cbytes = static_cast<std::size_t>(g.span(std::min(chunk, n)));
  std::byte* tmp = nullptr;
  bool ok = true;
  // Where input f's `len` bytes at image offset `off` can be read in place, else nullptr.
  auto view = [&](const FoldIn& f, MPI_Count off, std::size_t len) -> const std::byte* {
    if (f.local != nullptr) return f.local + off;
    if (f.src.staged != nullptr) return f.src.staged + off;
    if (f.src.stream == 0) return nullptr;
    const auto at = static_cast<std::uint64_t>(off) - f.src.stream_base;
    return stream_view(k, f.rank, chunk_run(f.src.stream), at, len, ok);
  };
  // Done with a view of input f up to `off` + len: its ring chunk may be acked.
  auto viewed = [&](const FoldIn& f, MPI_Count off, std::size_t len) {
    if (f.local != nullptr || f.src.staged != nullptr || f.src.stream == 0) return;
    const auto end = static_cast<std::uint64_t>(off) - f.src.stream_base + len;
    stream_viewed(k, f.rank, chunk_run(f.src.stream), end);
  };
  for (MPI_Count a = 0; a < n; a += chunk) {
    const MPI_Count cm = std::min(chunk, n - a);
    const MPI_Count off = g.at(first + a);
    const auto len = static_cast<std::size_t>(g.span(cm));
    std::byte* acc = out + g.at(a);
    int i = m - 1;  // inputs i .. m-1 are in acc
    const FoldIn last = in(m - 1);
    const std::byte* x = view(last, off, len);
    if (!ok) return false;
    if (x != nullptr && m >= 2) {
      const FoldIn prev = in(m - 2);
      if (const std::byte* y = view(prev, off, len)) {
        op.apply3(y, x, acc, cm, len);
        viewed(prev, off, len);
        i = m - 2;
      } else if (!ok) {
        return false;
      }
    }
    if (i == m - 1) {
      if (x != nullptr) {
        copy_bytes(acc, x, len);
      } else if (!fetch(k, last.rank, last.src, static_cast<std::uint64_t>(off), acc, len)) {
        return false;
      }
    }
    if (x != nullptr) viewed(last, off, len);
    while (--i >= 0) {
      const FoldIn f = in(i);
      const std::byte* y = view(f, off, len);
      if (!ok) return false;
      if (y == nullptr) {
        if (tmp == nullptr) tmp = scratch(k.comm, 1, cbytes);
        if (!fetch(k, f.rank, f.src, static_cast<std::uint64_t>(off), tmp, len)) return false;
        op.apply(tmp - g.tlb, acc - g.tlb, cm);
      } else {
        op.apply(y - g.tlb, acc - g.tlb, cm);
        viewed(f, off, len);
      }
    }
    if (!after(a + cm)) return false;
  }
  return true;
}

template <class Inputs>
bool fold(Call& k, const Reducer& op, const Geometry& g, Inputs in, int m, MPI_Count first, MPI_Count n,
          std::byte* out) {
  return fold(k, op, g, in, m, first, n, out, [](MPI_Count) { return true; });
}

}  // namespace shmpi::client::coll
