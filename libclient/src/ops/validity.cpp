// Which (op, datatype group) pairs the standard allows: MPI-4.1 6.9.2 "Predefined Reduction
// Operations" for the reduction ops, 6.9.4 for MINLOC/MAXLOC, 13.3.4 for REPLACE/NO_OP.
//
//   op                      allowed groups
//   MAX, MIN                C integer, Fortran integer, floating point, multi-language
//   SUM, PROD               C integer, Fortran integer, floating point, complex, multi-language
//   LAND, LOR, LXOR         C integer, logical
//   BAND, BOR, BXOR         C integer, Fortran integer, byte, multi-language
//   MINLOC, MAXLOC          the pair types
//   REPLACE, NO_OP          every predefined datatype
//
// MPI_CHAR (group "character") is not allowed in reductions (MPI 5.9.3), but Open MPI and
// MPICH accept it as a C integer and OSU relies on that: so do we unless strict.
#include <cstdlib>
#include <cstring>
#include <utility>

#include "ops/elem_types.hpp"
#include "ops/op_table.hpp"

namespace shmpi::ops {

namespace {

using G = TypeGroup;

constexpr bool group_allowed(OpKind op, G g) {
  switch (op) {
    case OpKind::max:
    case OpKind::min:
      return g == G::c_integer || g == G::fortran_integer || g == G::floating_point ||
             g == G::multi_language;
    case OpKind::sum:
    case OpKind::prod:
      return g == G::c_integer || g == G::fortran_integer || g == G::floating_point ||
             g == G::complex || g == G::multi_language;
    case OpKind::land:
    case OpKind::lor:
    case OpKind::lxor:
      return g == G::c_integer || g == G::logical;
    case OpKind::band:
    case OpKind::bor:
    case OpKind::bxor:
      return g == G::c_integer || g == G::fortran_integer || g == G::byte ||
             g == G::multi_language;
    case OpKind::minloc:
    case OpKind::maxloc:
      return g == G::pair;
    case OpKind::replace:
    case OpKind::no_op:
      return true;
  }
  return false;
}

template <std::size_t... I>
constexpr Family family_of(Elem e, std::index_sequence<I...>) {
  constexpr Family families[] = {ElemInfo<static_cast<Elem>(I)>::family...};
  return families[static_cast<std::size_t>(e)];
}

constexpr G group_of(Elem e) {
  if (e == Elem::c_char) return G::character;
  switch (family_of(e, std::make_index_sequence<kElemCount>{})) {
    case Family::integer: return G::c_integer;
    case Family::floating: return G::floating_point;
    case Family::logical: return G::logical;
    case Family::complex: return G::complex;
    case Family::byte: return G::byte;
    case Family::pair: return G::pair;
  }
  return G::byte;
}

}  // namespace

bool op_valid(OpKind op, TypeGroup g, bool strict) {
  if (g == G::character) {
    if (op == OpKind::replace || op == OpKind::no_op) return true;
    return !strict && group_allowed(op, G::c_integer);
  }
  return group_allowed(op, g);
}

bool op_valid(OpKind op, Elem e, bool strict) { return op_valid(op, group_of(e), strict); }

bool strict_types() {
  static const bool strict = [] {
    const char* s = std::getenv("SHMPI_STRICT_TYPES");
    return s != nullptr && std::strcmp(s, "1") == 0;
  }();
  return strict;
}

}  // namespace shmpi::ops
