#include "rma/fast_path.hpp"

#include <algorithm>

#include "ops/datatype_elem.hpp"
#include "ops/op_table.hpp"
#include "types/datatype.hpp"

namespace shmpi::client::rma {
namespace {

bool op_kind_of(std::uintptr_t v, ops::OpKind& k) {
  switch (v) {
    case 0x21: k = ops::OpKind::sum; return true;
    case 0x22: k = ops::OpKind::min; return true;
    case 0x23: k = ops::OpKind::max; return true;
    case 0x24: k = ops::OpKind::prod; return true;
    case 0x28: k = ops::OpKind::band; return true;
    case 0x29: k = ops::OpKind::bor; return true;
    case 0x2a: k = ops::OpKind::bxor; return true;
    case 0x30: k = ops::OpKind::land; return true;
    case 0x31: k = ops::OpKind::lor; return true;
    case 0x32: k = ops::OpKind::lxor; return true;
    case 0x38: k = ops::OpKind::minloc; return true;
    case 0x39: k = ops::OpKind::maxloc; return true;
    case 0x3c: k = ops::OpKind::replace; return true;
    case 0x3d: k = ops::OpKind::no_op; return true;
    default: return false;
  }
}

bool cas_group(ops::TypeGroup g) {
  using G = ops::TypeGroup;
  return g == G::c_integer || g == G::fortran_integer || g == G::logical || g == G::multi_language || g == G::byte ||
         (g == G::character && !ops::strict_types());
}

}  // namespace

const FastTables& fast_tables() {
  static const FastTables* tables = [] {
    auto* t = new FastTables{};
    for (std::uintptr_t d = 0; d < kFastTypeSpan; ++d) {
      const auto dt = reinterpret_cast<MPI_Datatype>(kFastTypeBase + d);
      ops::ElemInfo info{};
      const types::Datatype* type = types::lookup(dt);
      if (type == nullptr || !type->predefined || !ops::elem_of(dt, info)) continue;
      // The bytes an atomic touches: a padded pair (MPI_SHORT_INT) spans its whole struct.
      const auto size = static_cast<std::uint32_t>(std::max(type->size, type->extent()));
      if (cas_group(info.group)) t->cas[d] = FastCas{::shmpi::rma::cas_fn(info.elem), size, info.elem};
      for (std::uintptr_t o = 0; o < kFastOpSpan; ++o) {
        ops::OpKind k{};
        if (!op_kind_of(kFastOpBase + o, k) || !ops::op_valid(k, info.group, ops::strict_types())) continue;
        t->acc[o][d] = FastAcc{::shmpi::rma::atomic_fn(k, info.elem), size, info.elem};
      }
    }
    return t;
  }();
  return *tables;
}

}  // namespace shmpi::client::rma
