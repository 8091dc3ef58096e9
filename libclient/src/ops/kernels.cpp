// The generic kernel loop and the table built from it. This one source is compiled once
// per ISA (libclient/meson.build: baseline x86-64, -mavx2, -mavx512{f,bw,vl,dq}, each at
// -O3 with -ffp-contract=off) into namespace shmpi::ops::<SHMPI_OPS_ISA>; the compiler
// auto-vectorizes the loop for the ISA, with a scalar tail that applies the same functor,
// so body and tail agree by construction. dispatch.cpp picks one table at start.
#include <cstddef>
#include <tuple>
#include <utility>

#include "ops/kernel_table.hpp"
#include "ops/op_functors.hpp"

#ifndef SHMPI_OPS_ISA
#error "compile with -DSHMPI_OPS_ISA=baseline|avx2|avx512 (see libclient/meson.build)"
#endif
// A build whose flags do not match its name would put the wrong code behind the CPU check.
#if defined(SHMPI_OPS_ISA_AVX512) && !(defined(__AVX512F__) && defined(__AVX512BW__) && \
                                       defined(__AVX512VL__) && defined(__AVX512DQ__))
#error "the avx512 kernel build needs -mavx512f -mavx512bw -mavx512vl -mavx512dq"
#endif
#if defined(SHMPI_OPS_ISA_AVX2) && (!defined(__AVX2__) || defined(__AVX512F__))
#error "the avx2 kernel build needs -mavx2 and no AVX-512"
#endif
#if defined(SHMPI_OPS_ISA_BASELINE) && defined(__AVX__)
#error "the baseline kernel build must not use AVX"
#endif

namespace shmpi::ops {
namespace {

// The loop every kernel is: inout[i] = Op(in[i], inout[i]). The buffers do not overlap
// (op_kinds.hpp), which restrict/ivdep tell the vectorizer.
template <class Op, class T>
void reduce(const void* in, void* inout, std::size_t count) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
#pragma GCC ivdep
  for (std::size_t i = 0; i < count; ++i) b[i] = Op::apply(a[i], b[i]);
}

void no_op(const void*, void*, std::size_t) {}

// In OpKind order.
using Functors = std::tuple<Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Minloc,
                            Maxloc, Replace, NoOp>;
static_assert(std::tuple_size_v<Functors> == kOpCount);

template <std::size_t O, std::size_t E>
constexpr Kernel entry() {
  constexpr auto op = static_cast<OpKind>(O);
  constexpr auto e = static_cast<Elem>(E);
  using F = std::tuple_element_t<O, Functors>;
  if constexpr (op == OpKind::no_op) {
    return &no_op;
  } else if constexpr (F::template applies<ElemInfo<e>::family>) {
    return &reduce<F, ElemType<e>>;
  } else {
    return nullptr;
  }
}

template <std::size_t O, std::size_t... E>
constexpr void fill_row(KernelTable& t, std::index_sequence<E...>) {
  ((t.k[O][E] = entry<O, E>()), ...);
}

template <std::size_t... O>
constexpr KernelTable make_table(std::index_sequence<O...>) {
  KernelTable t{};
  (fill_row<O>(t, std::make_index_sequence<kElemCount>{}), ...);
  return t;
}

// Constant-initialized: no code of this ISA runs before dispatch.cpp has checked the CPU.
constexpr KernelTable kTable = make_table(std::make_index_sequence<kOpCount>{});

}  // namespace

namespace SHMPI_OPS_ISA {
const KernelTable& table() { return kTable; }
}  // namespace SHMPI_OPS_ISA

}  // namespace shmpi::ops
