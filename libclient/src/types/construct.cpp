#include "types/construct.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace shmpi::client::types {
namespace {

using Wide = __int128;  // intermediate arithmetic: products of two MPI_Counts fit

constexpr Wide kMin = std::numeric_limits<MPI_Count>::min();
constexpr Wide kMax = std::numeric_limits<MPI_Count>::max();

bool fits(Wide v) { return v >= kMin && v <= kMax; }

// Bounds of a type map built from pieces, following MPI-4.1 5.1.6 / 5.1.7: the lower
// bound is the least lb among pieces whose child has an explicit (resized) lb, if any,
// else among all pieces; likewise ub. True bounds cover the data only.
struct Bounds {
  bool any = false, any_data = false;
  bool sticky_lb = false, sticky_ub = false;
  Wide lb = 0, ub = 0, true_lb = 0, true_ub = 0, size = 0, elements = 0;
  int align = 1;
  std::uintptr_t basic = 0;
  bool mixed = false;

  // blocklen copies of c at disp (consecutive copies one extent apart).
  void piece(Wide disp, MPI_Count blocklen, const Datatype* c) {
    if (blocklen == 0) return;
    const Wide ext = c->extent();
    const Wide span = static_cast<Wide>(blocklen - 1) * ext;
    const Wide lo = disp + std::min<Wide>(0, span);
    const Wide hi = disp + std::max<Wide>(0, span);
    const Wide plb = lo + c->lb, pub = hi + c->ub;
    if (!any) {
      lb = plb;
      ub = pub;
      sticky_lb = c->sticky_lb;
      sticky_ub = c->sticky_ub;
    } else {
      merge(lb, sticky_lb, plb, c->sticky_lb, true);
      merge(ub, sticky_ub, pub, c->sticky_ub, false);
    }
    if (c->size > 0) {
      const Wide tlb = lo + c->true_lb, tub = hi + c->true_ub;
      true_lb = any_data ? std::min(true_lb, tlb) : tlb;
      true_ub = any_data ? std::max(true_ub, tub) : tub;
      any_data = true;
    }
    any = true;
    // Saturate just past MPI_Count: many huge pieces must not wrap the wide sum.
    size = std::min(size + static_cast<Wide>(blocklen) * c->size, kMax + 1);
    elements = std::min(elements + static_cast<Wide>(blocklen) * c->elements, kMax + 1);
    align = std::max(align, c->align);
    if (c->size > 0) {
      if (basic == 0 && !mixed) {
        basic = c->basic;
        mixed = c->basic == 0;
      } else if (basic != c->basic) {
        basic = 0;
        mixed = true;
      }
    }
  }
  static void merge(Wide& cur, bool& cur_sticky, Wide v, bool v_sticky, bool lower) {
    if (v_sticky && !cur_sticky) {
      cur = v;
      cur_sticky = true;
    } else if (v_sticky == cur_sticky) {
      cur = lower ? std::min(cur, v) : std::max(cur, v);
    }
  }
  // Writes the bounds into t; false (with why) on overflow.
  bool store(Datatype& t, bool struct_padding, std::string& why) {
    if (struct_padding && any && !sticky_lb && !sticky_ub && align > 1) {
      // MPI-4.1 5.1.6: ub is padded so the extent is a multiple of the largest
      // alignment of the components (epsilon in the definition of ub).
      const Wide rem = (ub - lb) % align;
      if (rem > 0) ub += align - rem;
    }
    if (!fits(lb) || !fits(ub) || !fits(ub - lb) || !fits(true_lb) || !fits(true_ub) || !fits(size) ||
        !fits(elements) || !fits(true_ub - true_lb)) {
      why = "the type's size or extent does not fit in MPI_Count";
      return false;
    }
    t.lb = static_cast<MPI_Count>(lb);
    t.ub = static_cast<MPI_Count>(ub);
    t.true_lb = static_cast<MPI_Count>(true_lb);
    t.true_ub = static_cast<MPI_Count>(true_ub);
    t.sticky_lb = sticky_lb;
    t.sticky_ub = sticky_ub;
    t.size = static_cast<MPI_Count>(size);
    t.elements = static_cast<MPI_Count>(elements);
    t.align = align;
    t.basic = mixed ? 0 : basic;
    return true;
  }
};

void set_layout(Datatype& t, std::vector<Datatype*> layout_types) {
  for (Datatype* c : layout_types) retain_internal(c);
  t.layout.types = std::move(layout_types);
}

}  // namespace

int make_regular(MPI_Count count, MPI_Count blocklen, MPI_Count stride, Datatype* old, TypePtr& out,
                 std::string& why) {
  Bounds b;
  if (count > 0) {
    // The extreme pieces are the first and the last: they bound every other one.
    b.piece(0, blocklen, old);
    b.piece(static_cast<Wide>(count - 1) * stride, blocklen, old);
    const Wide copies = static_cast<Wide>(count) * blocklen;
    if (!fits(copies)) {
      why = "count * blocklength overflows MPI_Count";
      return MPI_ERR_ARG;
    }
    b.size = copies * old->size;
    b.elements = copies * old->elements;
  }
  TypePtr t = std::make_unique<Datatype>();
  if (!b.store(*t, false, why)) return MPI_ERR_ARG;
  set_layout(*t, {old});
  t->layout.regular = true;
  t->layout.count = count;
  t->layout.blocklen = blocklen;
  t->layout.stride = stride;
  out = std::move(t);
  return MPI_SUCCESS;
}

int make_list(std::vector<MPI_Count> disps, std::vector<MPI_Count> blocklens, std::vector<Datatype*> types,
              bool struct_padding, TypePtr& out, std::string& why) {
  Bounds b;
  for (std::size_t i = 0; i < disps.size(); ++i) b.piece(disps[i], blocklens[i], types.size() == 1 ? types[0] : types[i]);
  TypePtr t = std::make_unique<Datatype>();
  if (!b.store(*t, struct_padding, why)) return MPI_ERR_ARG;
  set_layout(*t, std::move(types));
  t->layout.regular = false;
  t->layout.disps = std::move(disps);
  t->layout.blocklens = std::move(blocklens);
  out = std::move(t);
  return MPI_SUCCESS;
}

int make_resized(Datatype* old, MPI_Count lb, MPI_Count extent, TypePtr& out, std::string& why) {
  // MPI-4.1 5.1.7: same type map and true bounds, lb and ub = lb + extent set
  // explicitly (they then bound any type built from this one).
  const Wide ub = static_cast<Wide>(lb) + extent;
  if (!fits(ub)) {
    why = "lb + extent overflows MPI_Aint";
    return MPI_ERR_ARG;
  }
  TypePtr t;
  if (int rc = make_list({0}, {1}, {old}, false, t, why); rc != MPI_SUCCESS) return rc;
  t->lb = lb;
  t->ub = static_cast<MPI_Count>(ub);
  t->sticky_lb = t->sticky_ub = true;
  out = std::move(t);
  return MPI_SUCCESS;
}

int make_dup(Datatype* old, TypePtr& out, std::string& why) {
  TypePtr t;
  if (int rc = make_list({0}, {1}, {old}, false, t, why); rc != MPI_SUCCESS) return rc;
  t->lb = old->lb;
  t->ub = old->ub;
  t->sticky_lb = old->sticky_lb;
  t->sticky_ub = old->sticky_ub;
  t->committed = old->committed;
  out = std::move(t);
  return MPI_SUCCESS;
}

int make_subarray(int ndims, const MPI_Count* sizes, const MPI_Count* subsizes, const MPI_Count* starts, int order,
                  Datatype* old, TypePtr& out, std::string& why) {
  // MPI-4.1 5.1.3: the subarray is a nest of vectors over the dimensions, fastest
  // dimension innermost, displaced to the start corner and resized to the whole array
  // (lb 0, extent = product of sizes * extent(oldtype)).
  const Wide ext = old->extent();
  Wide stride = ext, offset = 0;
  Datatype* cur = old;
  Datatype* stage = nullptr;
  for (int i = 0; i < ndims; ++i) {
    const int d = order == MPI_ORDER_C ? ndims - 1 - i : i;
    TypePtr t;
    if (!fits(stride)) {
      why = "the array's extent overflows MPI_Aint";
      if (stage != nullptr) release_internal(stage);
      return MPI_ERR_ARG;
    }
    const int rc = make_regular(subsizes[d], 1, static_cast<MPI_Count>(stride), cur, t, why);
    if (stage != nullptr) release_internal(stage);  // now held by t (if made)
    if (rc != MPI_SUCCESS) return rc;
    stage = adopt_internal(std::move(t));
    retain_internal(stage);
    cur = stage;
    offset += starts[d] * stride;
    stride *= sizes[d];
    if (!fits(offset)) break;  // reported below
  }
  if (!fits(stride) || !fits(offset)) {
    why = "the array's extent overflows MPI_Aint";
    release_internal(stage);
    return MPI_ERR_ARG;
  }
  TypePtr t;
  const int rc = make_list({static_cast<MPI_Count>(offset)}, {1}, {stage}, false, t, why);
  release_internal(stage);
  if (rc != MPI_SUCCESS) return rc;
  t->lb = 0;
  t->ub = static_cast<MPI_Count>(stride);
  t->sticky_lb = t->sticky_ub = true;
  out = std::move(t);
  return MPI_SUCCESS;
}

}  // namespace shmpi::client::types
