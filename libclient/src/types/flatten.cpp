// Flattening: the merged byte runs and basic-element runs of one element, built once.
#include <new>

#include "types/datatype.hpp"

namespace shmpi::client::types {
namespace {

struct Builder {
  Flat& out;
  bool overflow = false;

  void block(MPI_Count off, MPI_Count len) {
    if (len == 0) return;
    auto& b = out.blocks;
    if (!b.empty() && b.back().offset + b.back().length == off) {
      b.back().length += len;
      return;
    }
    if (b.size() >= kMaxBlocks) {
      overflow = true;
      return;
    }
    b.push_back({off, len});
  }
  void elems(MPI_Count off, MPI_Count n, std::uint16_t kind, std::uint16_t size) {
    if (n == 0) return;
    auto& e = out.elems;
    if (!e.empty() && e.back().kind == kind && e.back().offset + e.back().count * size == off) {
      e.back().count += n;
      return;
    }
    if (e.size() >= kMaxBlocks) {
      overflow = true;
      return;
    }
    e.push_back({off, n, kind, size});
  }

  // `reps` copies of `t` at base, base + extent, ...
  void emit(const Datatype* t, const Flat& f, MPI_Count base, MPI_Count reps) {
    const MPI_Count ext = t->extent();
    if (t->contiguous()) {
      // One run for all copies (also the basic-element run, if the type has only one).
      block(base + f.blocks[0].offset, reps * f.blocks[0].length);
      if (f.elems.size() == 1 && f.elems[0].count * f.elems[0].size == ext) {
        elems(base + f.elems[0].offset, reps * f.elems[0].count, f.elems[0].kind, f.elems[0].size);
        return;
      }
      for (MPI_Count k = 0; k < reps && !overflow; ++k) {
        for (const ElemRun& r : f.elems) elems(base + k * ext + r.offset, r.count, r.kind, r.size);
      }
      return;
    }
    for (MPI_Count k = 0; k < reps && !overflow; ++k) {
      const MPI_Count at = base + k * ext;
      for (const Block& b : f.blocks) block(at + b.offset, b.length);
      for (const ElemRun& r : f.elems) elems(at + r.offset, r.count, r.kind, r.size);
    }
  }
};

}  // namespace

const Flat* build_flat(Datatype* t) {
  auto f = std::make_unique<Flat>();
  try {
    Builder b{*f};
    const Layout& l = t->layout;
    if (l.regular) {
      Datatype* c = l.types.empty() ? nullptr : l.types[0];
      const Flat* cf = c != nullptr ? flatten(c) : nullptr;
      if (c != nullptr && cf == nullptr) return nullptr;
      if (c != nullptr && c->size > 0) {
        for (MPI_Count k = 0; k < l.count && !b.overflow; ++k) b.emit(c, *cf, k * l.stride, l.blocklen);
      }
    } else {
      for (std::size_t i = 0; i < l.disps.size() && !b.overflow; ++i) {
        Datatype* c = l.type_of(i);
        if (c->size == 0 || l.blocklens[i] == 0) continue;
        const Flat* cf = flatten(c);
        if (cf == nullptr) return nullptr;
        b.emit(c, *cf, l.disps[i], l.blocklens[i]);
      }
    }
    if (b.overflow) return nullptr;
    f->blocks.shrink_to_fit();
    f->elems.shrink_to_fit();
    if (!f->blocks.empty()) {
      f->uniform_length = f->blocks[0].length;
      for (const Block& x : f->blocks) {
        if (x.length != f->uniform_length) {
          f->uniform_length = 0;
          break;
        }
      }
    }
    if (f->uniform_length > 0 && f->blocks.size() >= 2) {
      f->stride = f->blocks[1].offset - f->blocks[0].offset;
      f->regular = true;
      for (std::size_t i = 2; i < f->blocks.size() && f->regular; ++i) {
        f->regular = f->blocks[i].offset - f->blocks[i - 1].offset == f->stride;
      }
    }
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  t->set_flat(std::move(f));
  return t->flat.get();
}

}  // namespace shmpi::client::types
