// Scalar reference of every predefined op, written from the documented semantics in
// libclient/src/ops/op_table.hpp and independently of the kernels' functors, in plain
// if/else form. a = in[i], b = inout[i]; returns the new inout[i].
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ops/elem_types.hpp"

namespace ref {

using shmpi::ops::Complex;
using shmpi::ops::OpKind;
using shmpi::ops::ValueIndex;

template <class T> struct is_complex : std::false_type {};
template <class T> struct is_complex<Complex<T>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class V, class I> struct is_pair<ValueIndex<V, I>> : std::true_type {};

template <class T>
bool nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  else return false;
}

// Integer sum/product modulo 2^bits, through 64-bit arithmetic.
template <class T>
T wrap_sum(T a, T b) {
  if constexpr (sizeof(T) < 8) return static_cast<T>(static_cast<std::int64_t>(a) + static_cast<std::int64_t>(b));
  else return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
template <class T>
T wrap_prod(T a, T b) {
  if constexpr (sizeof(T) < 4) return static_cast<T>(static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b));
  else return static_cast<T>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

template <OpKind O, class T>
T apply(T a, T b) {
  if constexpr (O == OpKind::replace) {
    return a;
  } else if constexpr (O == OpKind::no_op) {
    return b;
  } else if constexpr (is_pair<T>::value) {
    static_assert(O == OpKind::minloc || O == OpKind::maxloc);
    if (nan(a.value) && !nan(b.value)) return b;  // a NaN value loses to any number
    if (nan(b.value) && !nan(a.value)) return a;
    if (nan(a.value)) return a.index < b.index ? a : b;  // two NaNs tie
    const bool a_better = O == OpKind::minloc ? a.value < b.value : a.value > b.value;
    const bool b_better = O == OpKind::minloc ? b.value < a.value : b.value > a.value;
    if (a_better) return a;
    if (b_better) return b;
    return a.index < b.index ? a : b;  // equal values: the smaller index; equal: inout
  } else if constexpr (is_complex<T>::value) {
    if constexpr (O == OpKind::sum) return {a.re + b.re, a.im + b.im};
    else return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (O == OpKind::sum) return a + b;
    else if constexpr (O == OpKind::prod) return a * b;
    else {
      // maximumNumber/minimumNumber: NaN is missing data, -0 < +0.
      if (std::isnan(a) && std::isnan(b)) return a;
      if (std::isnan(a)) return b;
      if (std::isnan(b)) return a;
      if (a == 0 && b == 0) {
        const bool a_neg = std::signbit(a);
        if constexpr (O == OpKind::max) return a_neg ? b : a;
        else return a_neg ? a : b;
      }
      if constexpr (O == OpKind::max) return a > b ? a : b;
      else return a < b ? a : b;
    }
  } else {  // integers, C bool and byte (as unsigned char)
    if constexpr (O == OpKind::max) return a > b ? a : b;
    else if constexpr (O == OpKind::min) return a < b ? a : b;
    else if constexpr (O == OpKind::sum) return wrap_sum(a, b);
    else if constexpr (O == OpKind::prod) return wrap_prod(a, b);
    else if constexpr (O == OpKind::land) return (a != 0 && b != 0) ? T{1} : T{0};
    else if constexpr (O == OpKind::lor) return (a != 0 || b != 0) ? T{1} : T{0};
    else if constexpr (O == OpKind::lxor) return ((a != 0) != (b != 0)) ? T{1} : T{0};
    else if constexpr (O == OpKind::band) return static_cast<T>(a & b);
    else if constexpr (O == OpKind::bor) return static_cast<T>(a | b);
    else return static_cast<T>(a ^ b);
  }
}

}  // namespace ref
