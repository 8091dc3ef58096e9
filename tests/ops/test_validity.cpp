// The standard's (op, type group) table, the element-level table derived from it, strict
// mode, and that kernel() hands out a kernel exactly for the valid pairs.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

#include "ops/op_table.hpp"

using namespace shmpi::ops;

namespace {

constexpr OpKind kAllOps[] = {OpKind::max, OpKind::min, OpKind::sum, OpKind::prod,
                              OpKind::land, OpKind::band, OpKind::lor, OpKind::bor,
                              OpKind::lxor, OpKind::bxor, OpKind::minloc, OpKind::maxloc,
                              OpKind::replace, OpKind::no_op};

bool env_strict() {
  const char* s = std::getenv("SHMPI_STRICT_TYPES");
  return s != nullptr && std::strcmp(s, "1") == 0;
}

}  // namespace

TEST_CASE("ops: the standard's op x group table") {
  using G = TypeGroup;
  // MAX/MIN: integers, floating point, multi-language; not complex, logical, byte, pairs
  for (OpKind op : {OpKind::max, OpKind::min}) {
    CHECK(op_valid(op, G::c_integer, true));
    CHECK(op_valid(op, G::fortran_integer, true));
    CHECK(op_valid(op, G::floating_point, true));
    CHECK(op_valid(op, G::multi_language, true));
    CHECK_FALSE(op_valid(op, G::complex, false));
    CHECK_FALSE(op_valid(op, G::logical, false));
    CHECK_FALSE(op_valid(op, G::byte, false));
    CHECK_FALSE(op_valid(op, G::pair, false));
  }
  for (OpKind op : {OpKind::sum, OpKind::prod}) {
    CHECK(op_valid(op, G::complex, true));
    CHECK(op_valid(op, G::fortran_integer, true));
    CHECK(op_valid(op, G::multi_language, true));
    CHECK_FALSE(op_valid(op, G::logical, false));
    CHECK_FALSE(op_valid(op, G::byte, false));
    CHECK_FALSE(op_valid(op, G::pair, false));
  }
  for (OpKind op : {OpKind::land, OpKind::lor, OpKind::lxor}) {
    CHECK(op_valid(op, G::c_integer, true));
    CHECK(op_valid(op, G::logical, true));
    CHECK_FALSE(op_valid(op, G::fortran_integer, false));
    CHECK_FALSE(op_valid(op, G::multi_language, false));
    CHECK_FALSE(op_valid(op, G::floating_point, false));
    CHECK_FALSE(op_valid(op, G::byte, false));
  }
  for (OpKind op : {OpKind::band, OpKind::bor, OpKind::bxor}) {
    CHECK(op_valid(op, G::c_integer, true));
    CHECK(op_valid(op, G::fortran_integer, true));
    CHECK(op_valid(op, G::byte, true));
    CHECK(op_valid(op, G::multi_language, true));
    CHECK_FALSE(op_valid(op, G::logical, false));
    CHECK_FALSE(op_valid(op, G::floating_point, false));
    CHECK_FALSE(op_valid(op, G::complex, false));
  }
  for (OpKind op : {OpKind::minloc, OpKind::maxloc}) {
    CHECK(op_valid(op, G::pair, true));
    CHECK_FALSE(op_valid(op, G::c_integer, false));
    CHECK_FALSE(op_valid(op, G::floating_point, false));
    CHECK_FALSE(op_valid(op, G::character, false));
  }
  for (OpKind op : {OpKind::replace, OpKind::no_op})
    for (G g : {G::c_integer, G::fortran_integer, G::floating_point, G::logical, G::complex,
                G::byte, G::multi_language, G::pair, G::character})
      CHECK(op_valid(op, g, true));
}

TEST_CASE("ops: MPI_CHAR is an integer unless strict") {
  for (OpKind op : kAllOps) {
    const bool as_int = op_valid(op, TypeGroup::c_integer, false);
    CHECK(op_valid(op, TypeGroup::character, false) == as_int);
    CHECK(op_valid(op, Elem::c_char, false) == as_int);
    const bool rma_only = op == OpKind::replace || op == OpKind::no_op;
    CHECK(op_valid(op, TypeGroup::character, true) == rma_only);
    CHECK(op_valid(op, Elem::c_char, true) == rma_only);
  }
}

TEST_CASE("ops: element-level spot checks") {
  CHECK(op_valid(OpKind::sum, Elem::c64, true));
  CHECK_FALSE(op_valid(OpKind::max, Elem::c64, false));
  CHECK_FALSE(op_valid(OpKind::band, Elem::f64, false));
  CHECK_FALSE(op_valid(OpKind::land, Elem::f32, false));
  CHECK(op_valid(OpKind::land, Elem::c_bool, true));
  CHECK_FALSE(op_valid(OpKind::sum, Elem::c_bool, false));
  CHECK_FALSE(op_valid(OpKind::bor, Elem::c_bool, false));
  CHECK(op_valid(OpKind::bxor, Elem::byte, true));
  CHECK_FALSE(op_valid(OpKind::sum, Elem::byte, false));
  CHECK_FALSE(op_valid(OpKind::minloc, Elem::i32, false));
  CHECK(op_valid(OpKind::maxloc, Elem::long_double_int, true));
  CHECK_FALSE(op_valid(OpKind::sum, Elem::double_int, false));
  CHECK(op_valid(OpKind::replace, Elem::double_int, true));
  CHECK(op_valid(OpKind::prod, Elem::f80, true));
}

TEST_CASE("ops: kernel() exists exactly for the valid pairs, in every available ISA") {
  CHECK(strict_types() == env_strict());
  CHECK(isa_available(Isa::baseline));
  CHECK(isa_available(active_isa()));
  CHECK(std::strcmp(active_isa_name(), name(active_isa())) == 0);
  for (std::size_t o = 0; o < kOpCount; ++o) {
    for (std::size_t e = 0; e < kElemCount; ++e) {
      const auto op = static_cast<OpKind>(o);
      const auto el = static_cast<Elem>(e);
      const bool valid = op_valid(op, el, strict_types());
      const std::string pair = std::string(name(op)) + "/" + name(el);
      CAPTURE(pair);
      CHECK((kernel(op, el) != nullptr) == valid);
      for (std::size_t i = 0; i < kIsaCount; ++i) {
        const auto isa = static_cast<Isa>(i);
        CHECK((kernel_for(isa, op, el) != nullptr) == (valid && isa_available(isa)));
      }
    }
  }
  // Out-of-range enum values (a corrupted handle) are refused, not indexed.
  CHECK((kernel(static_cast<OpKind>(kOpCount), Elem::i32) == nullptr));
  CHECK((kernel(OpKind::sum, static_cast<Elem>(kElemCount)) == nullptr));
}

TEST_CASE("ops: dispatch picks the best ISA, lowered by SHMPI_OPS_ISA") {
  Isa best = Isa::baseline;
  for (std::size_t i = 0; i < kIsaCount; ++i)
    if (isa_available(static_cast<Isa>(i))) best = static_cast<Isa>(i);
  Isa want = best;
  if (const char* s = std::getenv("SHMPI_OPS_ISA"))
    for (std::size_t i = 0; i < kIsaCount; ++i)
      if (std::strcmp(s, kIsaNames[i]) == 0 && i < static_cast<std::size_t>(best)) want = static_cast<Isa>(i);
  CHECK(active_isa() == want);
  CHECK((kernel(OpKind::sum, Elem::f64) == kernel_for(want, OpKind::sum, Elem::f64)));
  // Each ISA has its own code, not one copy merged by the linker.
  for (std::size_t i = 0; i < kIsaCount; ++i)
    for (std::size_t j = i + 1; j < kIsaCount; ++j)
      if (isa_available(static_cast<Isa>(i)) && isa_available(static_cast<Isa>(j)))
        CHECK((kernel_for(static_cast<Isa>(i), OpKind::sum, Elem::f64) !=
               kernel_for(static_cast<Isa>(j), OpKind::sum, Elem::f64)));
}
