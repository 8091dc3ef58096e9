// One definition per op: a functor with `applies<Family>` (which element families it can
// compute) and `apply(a, b)` giving `a op b` for one element, a = in[i], b = inout[i].
// The semantics are documented in op_table.hpp; tests/ops/reference.hpp restates them
// independently.
//
// Everything here has internal linkage on purpose (anonymous namespace in a header): it is
// included by kernels.cpp, which is compiled once per ISA with different -m flags, and by
// rma/elem_atomic.cpp (the CPU-atomic forms of the same ops).
// With external linkage the three builds' inline instantiations would be COMDAT-merged by
// the linker, and e.g. the baseline table could end up calling an AVX-512 copy.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ops/elem_types.hpp"

// GCC 12's vectorizer needs __builtin_assoc_barrier (see Prod); clang has no such builtin
// and never fuses or reassociates under -ffp-contract=off, so there it is the identity.
#if defined(__has_builtin) && __has_builtin(__builtin_assoc_barrier)
#define SHMPI_ASSOC_BARRIER(x) __builtin_assoc_barrier(x)
#else
#define SHMPI_ASSOC_BARRIER(x) (x)
#endif

namespace shmpi::ops {
namespace {

// Integer arithmetic wraps modulo 2^bits: compute in an unsigned type at least as wide as
// unsigned int (u16 * u16 would otherwise be promoted to int and could overflow), then
// convert back (modular since C++20).
template <class T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
[[gnu::always_inline]] inline bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

template <Family F, Family... Fs>
inline constexpr bool one_of = ((F == Fs) || ...);

// Floating MAX/MIN are IEEE 754-2019 maximumNumber/minimumNumber: a quiet NaN is missing
// data (the other operand wins; between two NaNs, `in`'s), and -0 < +0. Neither choice
// depends on operand order, so every reduction order and every rank gives the same bits
// (the peers' `a > b ? a : b` keeps or drops a NaN, and picks -0 or +0, by position).
// The AVX-512 build does these in one vrangepd/vrangeps (kernels.cpp); this form is the
// definition, the scalar tail elsewhere and what the other builds vectorize (written
// branch-free with the equal case as a bitwise AND/OR of the operands, which GCC 12
// vectorizes; with early returns or std::signbit it stays scalar, 0.05x).
// Signaling NaNs, which no arithmetic produces, are not covered: vrange quiets them.
template <class T, bool kAnd>
[[gnu::always_inline]] inline T equal_pick(T a, T b) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const U x = __builtin_bit_cast(U, a), y = __builtin_bit_cast(U, b);
    return __builtin_bit_cast(T, kAnd ? U(x & y) : U(x | y));  // only the sign bits differ
  } else {  // long double (padding bits): scalar anyway
    return (std::signbit(a) == kAnd) ? b : a;
  }
}

struct Max {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::floating>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    const T m = a > b ? a : b;
    if constexpr (std::is_floating_point_v<T>)
      return b != b ? a : (a == b ? equal_pick<T, true>(a, b) : m);  // +0 beats -0
    else return m;
  }
};

struct Min {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::floating>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    const T m = a < b ? a : b;
    if constexpr (std::is_floating_point_v<T>)
      return b != b ? a : (a == b ? equal_pick<T, false>(a, b) : m);  // -0 beats +0
    else return m;
  }
};

struct Sum {
  template <Family F>
  static constexpr bool applies = one_of<F, Family::integer, Family::floating, Family::complex>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(Wide<T>(a) + Wide<T>(b));
    else return a + b;
  }
  template <class T> [[gnu::always_inline]] static Complex<T> apply(Complex<T> a, Complex<T> b) {
    return {a.re + b.re, a.im + b.im};
  }
};

struct Prod {
  template <Family F>
  static constexpr bool applies = one_of<F, Family::integer, Family::floating, Family::complex>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(Wide<T>(a) * Wide<T>(b));
    else return a * b;
  }
  // The barriers keep each product rounded on its own: GCC 12's vectorizer recognizes
  // the complex multiplication and emits vfmaddsub despite -ffp-contract=off, which made
  // the AVX-512 body round differently from the scalar tail (tests/ops caught it).
  template <class T> [[gnu::always_inline]] static Complex<T> apply(Complex<T> a, Complex<T> b) {
    return {SHMPI_ASSOC_BARRIER(a.re * b.re) - SHMPI_ASSOC_BARRIER(a.im * b.im),
            SHMPI_ASSOC_BARRIER(a.re * b.im) + SHMPI_ASSOC_BARRIER(a.im * b.re)};
  }
};

// Logical ops: any non-zero element is true; the result is 0 or 1.
struct Land {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::logical>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    return static_cast<T>((a != 0) & (b != 0));
  }
};
struct Lor {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::logical>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    return static_cast<T>((a != 0) | (b != 0));
  }
};
struct Lxor {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::logical>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    return static_cast<T>((a != 0) ^ (b != 0));
  }
};

struct Band {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::byte>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct Bor {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::byte>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct Bxor {
  template <Family F> static constexpr bool applies = one_of<F, Family::integer, Family::byte>;
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};

// Lexicographic on (value, index): the winning pair is copied whole. A NaN value loses
// to any number (as in MIN/MAX); two NaN values tie and the smaller index wins.
struct Minloc {
  template <Family F> static constexpr bool applies = F == Family::pair;
  template <class P> [[gnu::always_inline]] static P apply(P a, P b) {
    const bool an = is_nan(a.value), bn = is_nan(b.value);
    const bool tie = (a.value == b.value) | (an & bn);
    const bool take_a = (a.value < b.value) | (bn & !an) | (tie & (a.index < b.index));
    return take_a ? a : b;
  }
};
struct Maxloc {
  template <Family F> static constexpr bool applies = F == Family::pair;
  template <class P> [[gnu::always_inline]] static P apply(P a, P b) {
    const bool an = is_nan(a.value), bn = is_nan(b.value);
    const bool tie = (a.value == b.value) | (an & bn);
    const bool take_a = (a.value > b.value) | (bn & !an) | (tie & (a.index < b.index));
    return take_a ? a : b;
  }
};

struct Replace {
  template <Family> static constexpr bool applies = true;
  template <class T> [[gnu::always_inline]] static T apply(T a, T) { return a; }
};

struct NoOp {
  template <Family> static constexpr bool applies = true;
};

}  // namespace
}  // namespace shmpi::ops
