// The generic kernel loop and the table built from it. This one source is compiled once
// per ISA (libclient/meson.build: baseline x86-64, -mavx2, -mavx512{f,bw,vl,dq}, each at
// -O3 with -ffp-contract=off) into namespace shmpi::ops::<SHMPI_OPS_ISA>; the compiler
// auto-vectorizes the loop for the ISA, with a scalar tail that applies the same functor,
// so body and tail agree by construction. dispatch.cpp picks one table at start.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ops/kernel_table.hpp"
#include "ops/op_functors.hpp"

#if defined(SHMPI_OPS_ISA_AVX512)
#include <immintrin.h>
#endif

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

// "No loop-carried dependence" for GCC. clang takes the __restrict pointers alone (its
// assume_safety pragma turns every loop it cannot vectorize, e.g. long double, into an error).
#if defined(__clang__)
#define SHMPI_IVDEP
// clang has no per-function prefer-vector-width: its avx512 build keeps 512 bits here.
#define SHMPI_YMM_TARGET
#else
#define SHMPI_IVDEP _Pragma("GCC ivdep")
#define SHMPI_YMM_TARGET , target("prefer-vector-width=256")
#endif

namespace shmpi::ops {
namespace {

#if defined(SHMPI_OPS_ISA_AVX512)
// Floating MAX/MIN: vrangepd/ps with imm8 = max|min, sign from the compare, is exactly
// op_functors.hpp's maximumNumber/minimumNumber for every non-signaling input (checked
// bit for bit against the scalar reference by tests/ops): one instruction per vector
// where the compiler's form of the functor needs three. The tail is a masked vector, so
// there is no scalar path to disagree with.
template <class Op, class T>
inline constexpr bool kRangeOp = (std::is_same_v<Op, Max> || std::is_same_v<Op, Min>) &&
                                 (std::is_same_v<T, double> || std::is_same_v<T, float>);

template <class Op, class T>
void reduce_range(const T* __restrict a, T* __restrict b, std::size_t count) {
  constexpr int imm = std::is_same_v<Op, Max> ? 0b0101 : 0b0100;
  constexpr std::size_t w = 64 / sizeof(T);
  std::size_t i = 0;
  if constexpr (std::is_same_v<T, double>) {
    for (; i + w <= count; i += w)
      _mm512_storeu_pd(b + i, _mm512_range_pd(_mm512_loadu_pd(a + i), _mm512_loadu_pd(b + i), imm));
    if (i < count) {
      const __mmask8 m = static_cast<__mmask8>((1u << (count - i)) - 1);
      _mm512_mask_storeu_pd(b + i, m, _mm512_maskz_range_pd(m, _mm512_maskz_loadu_pd(m, a + i),
                                                            _mm512_maskz_loadu_pd(m, b + i), imm));
    }
  } else {
    for (; i + w <= count; i += w)
      _mm512_storeu_ps(b + i, _mm512_range_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), imm));
    if (i < count) {
      const __mmask16 m = static_cast<__mmask16>((1u << (count - i)) - 1);
      _mm512_mask_storeu_ps(b + i, m, _mm512_maskz_range_ps(m, _mm512_maskz_loadu_ps(m, a + i),
                                                            _mm512_maskz_loadu_ps(m, b + i), imm));
    }
  }
}
#endif

#if defined(SHMPI_OPS_ISA_AVX512)
// Buffers this large come from DRAM, where 512-bit loops lose to 256-bit ones on the
// machines we measured (AMD EPYC, MPI_SUM int64 64 MiB: 4.3-5.7 ms with zmm, 3.3-3.5 ms
// with ymm, crossing over between 2 and 4 MiB; docs/architecture.md "Op engine"). Above
// this many bytes per buffer the avx512 build runs the same loop at 256 bits (AVX-512VL
// keeps the masked-tail and vrange forms available at that width). kWideLimitBytes: op_kinds.hpp.

// noinline: once inlined, GCC vectorizes the loop with the caller's 512-bit preference.
template <class Op, class T>
__attribute__((noinline SHMPI_YMM_TARGET)) void reduce_ymm(const T* __restrict a, T* __restrict b,
                                                                    std::size_t count) {
  if constexpr (kRangeOp<Op, T>) {
    constexpr int imm = std::is_same_v<Op, Max> ? 0b0101 : 0b0100;
    constexpr std::size_t w = 32 / sizeof(T);
    std::size_t i = 0;
    for (; i + w <= count; i += w) {
      if constexpr (std::is_same_v<T, double>)
        _mm256_storeu_pd(b + i, _mm256_range_pd(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i), imm));
      else
        _mm256_storeu_ps(b + i, _mm256_range_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), imm));
    }
    if (i < count) reduce_range<Op, T>(a + i, b + i, count - i);  // masked 512-bit tail
  } else {
SHMPI_IVDEP
    for (std::size_t i = 0; i < count; ++i) b[i] = Op::apply(a[i], b[i]);
  }
}
#endif

template <class T>
inline constexpr bool kPair = false;
template <class V, class I>
inline constexpr bool kPair<ValueIndex<V, I>> = true;

// Elements may sit at any address their size allows, not at their type's alignment: a
// staged input inline in a collective's descriptor starts at 8 mod 16 (comm.hpp
// CallDesc::value), and MPI puts no alignment rule on buffers. Types aligned to more
// than 8 bytes (long double, its complex and pair forms) are read and written with
// memcpy, which compiles to unaligned moves (through a long double* at 8 mod 16 is
// undefined behaviour: UBSan found it in a 1-element MPI_LONG_DOUBLE_INT allreduce).
template <class T>
inline constexpr bool kOveraligned = alignof(T) > alignof(std::uint64_t);
template <class T>
inline T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// (A long double's 6 padding bytes are written with whatever the value's copy holds, as
// the compiler's own copies of a long double do: they are not part of its value.)
template <class T>
inline void store(std::byte* p, const T& v) {
  std::memcpy(p, &v, sizeof v);
}

// Pair elements are read and written field by field: a struct's tail padding is outside
// the type map (MPI_DOUBLE_INT: 12 of its 16 bytes), so a buffer or image may end right
// after the last index, and bytes of the padding must not be written either. out[i] =
// a[i] op b[i]; out may be b (element i is read before it is written).
template <class Op, class P>
void combine_pairs(const void* in_a, const void* in_b, void* to, std::size_t count) {
  using V = decltype(P::value);
  using I = decltype(P::index);
  constexpr std::size_t vo = offsetof(P, value), io = offsetof(P, index);
  const auto* a = static_cast<const std::byte*>(in_a);
  const auto* b = static_cast<const std::byte*>(in_b);
  auto* out = static_cast<std::byte*>(to);
  for (std::size_t i = 0, at = 0; i < count; ++i, at += sizeof(P)) {
    const P x{load<V>(a + at + vo), load<I>(a + at + io)};
    const P y{load<V>(b + at + vo), load<I>(b + at + io)};
    const P r = Op::apply(x, y);
    store(out + at + vo, r.value);
    store(out + at + io, r.index);
  }
}

// out[i] = Op(a[i], b[i]) for an over-aligned element type, element by element.
template <class Op, class T>
void combine_unaligned(const void* in_a, const void* in_b, void* to, std::size_t count) {
  const auto* a = static_cast<const std::byte*>(in_a);
  const auto* b = static_cast<const std::byte*>(in_b);
  auto* out = static_cast<std::byte*>(to);
  for (std::size_t i = 0, at = 0; i < count; ++i, at += sizeof(T)) {
    store(out + at, static_cast<T>(Op::apply(load<T>(a + at), load<T>(b + at))));
  }
}

// The loop every kernel is: inout[i] = Op(in[i], inout[i]). The buffers do not overlap
// (op_kinds.hpp), which restrict/ivdep tell the vectorizer.
template <class Op, class T>
void reduce(const void* in, void* inout, std::size_t count) {
  if constexpr (kPair<T>) {
    combine_pairs<Op, T>(in, inout, inout, count);
    return;
  } else if constexpr (kOveraligned<T>) {
    combine_unaligned<Op, T>(in, inout, inout, count);
    return;
  }
#if defined(SHMPI_OPS_ISA_AVX512)
  if (count >= kWideLimitBytes / sizeof(T)) {
    reduce_ymm<Op, T>(static_cast<const T*>(in), static_cast<T*>(inout), count);
    return;
  }
  if constexpr (kRangeOp<Op, T>) {
    reduce_range<Op, T>(static_cast<const T*>(in), static_cast<T*>(inout), count);
    return;
  }
#endif
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
SHMPI_IVDEP
  for (std::size_t i = 0; i < count; ++i) b[i] = Op::apply(a[i], b[i]);
}

void no_op(const void*, void*, std::size_t) {}

// The three-operand form, out[i] = Op(a[i], b[i]) (Kernel3, op_kinds.hpp): a reduction's
// first combination, which otherwise is a copy of b into the result and then the kernel
// above, two passes over the data where this is one (docs/collectives.md "Reductions").
// The same functor on the same elements, so the same bits as reduce(); no vrange or
// 256-bit special forms: its callers' buffers are at most a fold chunk (256 KiB), far
// below kWideLimitBytes, and GCC vectorizes the functors' MIN/MAX forms itself.
template <class Op, class T>
void combine(const void* in_a, const void* in_b, void* to, std::size_t count) {
  if constexpr (kPair<T>) {
    combine_pairs<Op, T>(in_a, in_b, to, count);
  } else if constexpr (kOveraligned<T>) {
    combine_unaligned<Op, T>(in_a, in_b, to, count);
  } else {
    const T* __restrict a = static_cast<const T*>(in_a);
    const T* __restrict b = static_cast<const T*>(in_b);
    T* __restrict out = static_cast<T*>(to);
SHMPI_IVDEP
    for (std::size_t i = 0; i < count; ++i) out[i] = Op::apply(a[i], b[i]);
  }
}

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

// REPLACE and NO_OP have none: only RMA uses them, and it has no third operand.
template <std::size_t O, std::size_t E>
constexpr Kernel3 entry3() {
  constexpr auto op = static_cast<OpKind>(O);
  constexpr auto e = static_cast<Elem>(E);
  using F = std::tuple_element_t<O, Functors>;
  if constexpr (op == OpKind::no_op || op == OpKind::replace) {
    return nullptr;
  } else if constexpr (F::template applies<ElemInfo<e>::family>) {
    return &combine<F, ElemType<e>>;
  } else {
    return nullptr;
  }
}

template <std::size_t O, std::size_t... E>
constexpr void fill_row(KernelTable& t, std::index_sequence<E...>) {
  ((t.k[O][E] = entry<O, E>()), ...);
  ((t.k3[O][E] = entry3<O, E>()), ...);
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
