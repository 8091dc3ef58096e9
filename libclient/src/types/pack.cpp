#include "types/pack.hpp"

#include <cstddef>
#include <cstring>

#include "copy_bytes.hpp"

namespace shmpi::client::types {
namespace {

// Copies between the user buffer and the packed stream; ToPacked selects direction.
template <bool ToPacked>
inline void copy(std::byte* user, std::byte* packed, std::size_t n) {
  if constexpr (ToPacked) {
    copy_bytes(packed, user, n);
  } else {
    copy_bytes(user, packed, n);
  }
}

// Every block of the element has the same length: Len bytes when Len != 0 (a constant
// size the compiler turns into inlined moves), else f.uniform_length.
template <bool ToPacked, std::size_t Len>
void runs_uniform(const Flat& f, std::byte* user, MPI_Count extent, MPI_Count count, std::byte* packed) {
  const std::size_t len = Len != 0 ? Len : static_cast<std::size_t>(f.uniform_length);
  if (f.regular) {  // a vector: block addresses by arithmetic, no block list to read
    const std::size_t n = f.blocks.size();
    for (MPI_Count k = 0; k < count; ++k, user += extent) {
      std::byte* p = user + f.blocks[0].offset;
      for (std::size_t i = 0; i < n; ++i, p += f.stride, packed += len) copy<ToPacked>(p, packed, len);
    }
    return;
  }
  for (MPI_Count k = 0; k < count; ++k, user += extent) {
    for (const Block& b : f.blocks) {
      copy<ToPacked>(user + b.offset, packed, len);
      packed += len;
    }
  }
}

template <bool ToPacked>
void runs(const Datatype& t, const Flat& f, std::byte* user, MPI_Count count, std::byte* packed) {
  if (count <= 0 || t.size == 0) return;
  if (t.contiguous()) {
    copy<ToPacked>(user + t.lb, packed, static_cast<std::size_t>(count * t.size));
    return;
  }
  const MPI_Count ext = t.extent();
  switch (f.uniform_length) {
    case 0: break;  // blocks of different lengths: below
    case 4: return runs_uniform<ToPacked, 4>(f, user, ext, count, packed);
    case 8: return runs_uniform<ToPacked, 8>(f, user, ext, count, packed);
    case 16: return runs_uniform<ToPacked, 16>(f, user, ext, count, packed);
    case 32: return runs_uniform<ToPacked, 32>(f, user, ext, count, packed);
    default: return runs_uniform<ToPacked, 0>(f, user, ext, count, packed);
  }
  for (MPI_Count k = 0; k < count; ++k, user += ext) {
    for (const Block& b : f.blocks) {
      copy<ToPacked>(user + b.offset, packed, static_cast<std::size_t>(b.length));
      packed += b.length;
    }
  }
}

// The byte range [first, first + nbytes) of the packed stream.
template <bool ToPacked>
void range(const Datatype& t, const Flat& f, std::byte* user, MPI_Count first, MPI_Count nbytes, std::byte* packed) {
  if (nbytes <= 0 || t.size == 0) return;
  if (t.contiguous()) {
    copy<ToPacked>(user + t.lb + first, packed, static_cast<std::size_t>(nbytes));
    return;
  }
  const MPI_Count ext = t.extent();
  MPI_Count k = first / t.size;
  MPI_Count skip = first % t.size;  // bytes of element k already done
  std::size_t i = 0;
  while (skip >= f.blocks[i].length) skip -= f.blocks[i++].length;
  while (nbytes > 0) {
    const Block& b = f.blocks[i];
    const MPI_Count n = std::min(b.length - skip, nbytes);
    copy<ToPacked>(user + k * ext + b.offset + skip, packed, static_cast<std::size_t>(n));
    packed += n;
    nbytes -= n;
    skip = 0;
    if (++i == f.blocks.size()) {
      i = 0;
      ++k;
    }
  }
}

std::byte* mut(const void* p) { return static_cast<std::byte*>(const_cast<void*>(p)); }

}  // namespace

void pack(const Datatype& t, const Flat& f, const void* buf, MPI_Count count, void* packed) {
  runs<true>(t, f, mut(buf), count, static_cast<std::byte*>(packed));
}
void unpack(const Datatype& t, const Flat& f, const void* packed, MPI_Count count, void* buf) {
  runs<false>(t, f, static_cast<std::byte*>(buf), count, mut(packed));
}
void pack_range(const Datatype& t, const Flat& f, const void* buf, MPI_Count first, MPI_Count nbytes, void* packed) {
  range<true>(t, f, mut(buf), first, nbytes, static_cast<std::byte*>(packed));
}
void unpack_range(const Datatype& t, const Flat& f, const void* packed, MPI_Count first, MPI_Count nbytes,
                  void* buf) {
  range<false>(t, f, static_cast<std::byte*>(buf), first, nbytes, mut(packed));
}

}  // namespace shmpi::client::types
