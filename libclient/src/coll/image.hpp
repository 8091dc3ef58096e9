// Memory images for the reduce family (reduce.cpp, numa.cpp): `count` elements at the
// datatype's extent starting at true_lb, so user ops on derived types see their own
// layout. Folds are right to left in rank order: acc = x(last); acc = x(i) o acc.
#pragma once

#include <algorithm>
#include <cstring>

#include "coll/collectives.hpp"

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
// images; `out` is an image of n elements. Chunked (read a chunk of each input with
// fetch, fold it while it is in cache). False (k.why) if a copy failed.
template <class Inputs>
bool fold(Call& k, const Reducer& op, const Geometry& g, Inputs in, int m, MPI_Count first, MPI_Count n,
          std::byte* out) {
  if (n <= 0 || m <= 0) return true;
  const MPI_Count chunk = std::max<MPI_Count>(1, kChunkBytes / std::max<MPI_Count>(1, g.ext));
  const auto cbytes = static_cast<std::size_t>(g.span(std::min(chunk, n)));
  std::byte* tmp = nullptr;
  // Where input i's chunk at image offset `off` can be read in place (local image or
  // staged in the block), else nullptr.
  auto direct = [&](const FoldIn& f, MPI_Count off) -> const std::byte* {
    if (f.local != nullptr) return f.local + off;
    if (f.src.staged != nullptr) return f.src.staged + off;
    return nullptr;
  };
  for (MPI_Count a = 0; a < n; a += chunk) {
    const MPI_Count cm = std::min(chunk, n - a);
    const MPI_Count off = g.at(first + a);
    const auto len = static_cast<std::size_t>(g.span(cm));
    std::byte* acc = out + g.at(a);
    const FoldIn last = in(m - 1);
    if (const std::byte* p = direct(last, off)) {
      std::memcpy(acc, p, len);
    } else if (!fetch(k, last.rank, last.src, static_cast<std::uint64_t>(off), acc, len)) {
      return false;
    }
    for (int i = m - 2; i >= 0; --i) {
      const FoldIn f = in(i);
      const std::byte* x = direct(f, off);
      if (x == nullptr) {
        if (tmp == nullptr) tmp = scratch(k.comm, 1, cbytes);
        if (!fetch(k, f.rank, f.src, static_cast<std::uint64_t>(off), tmp, len)) return false;
        x = tmp;
      }
      op.apply(x - g.tlb, acc - g.tlb, cm);
    }
  }
  return true;
}

}  // namespace shmpi::client::coll
