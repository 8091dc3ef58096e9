// The C++ type behind each Elem, and the family it belongs to. Types only: no code, so
// every ISA build of kernels.cpp can include this without sharing instantiated functions.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ops/op_kinds.hpp"

namespace shmpi::ops {

// The C structs of MPI_FLOAT_INT & co. (MPI 5.9.4), padding included: sizeof is the
// element stride (double_int is 16 bytes, long_double_int 32).
template <class V, class I>
struct ValueIndex {
  V value;
  I index;
};
using FloatInt = ValueIndex<float, int>;
using DoubleInt = ValueIndex<double, int>;
using LongInt = ValueIndex<long, int>;
using TwoInt = ValueIndex<int, int>;
using ShortInt = ValueIndex<short, int>;
using LongDoubleInt = ValueIndex<long double, int>;
using TwoReal = ValueIndex<float, float>;            // Fortran REAL pair
using TwoDoublePrecision = ValueIndex<double, double>;  // Fortran DOUBLE PRECISION pair
using TwoInteger = ValueIndex<std::int32_t, std::int32_t>;  // Fortran INTEGER pair

// Laid out as C's T _Complex (and std::complex<T>): real part first.
template <class T>
struct Complex {
  T re;
  T im;
};

static_assert(sizeof(FloatInt) == 8 && sizeof(DoubleInt) == 16 && sizeof(ShortInt) == 8);
static_assert(sizeof(TwoInt) == 8 && sizeof(TwoReal) == 8 && sizeof(TwoDoublePrecision) == 16);
static_assert(sizeof(Complex<float>) == 8 && sizeof(Complex<double>) == 16);

// Families decide which op definitions apply (see validity.cpp for the standard's groups).
enum class Family : std::uint8_t { integer, floating, logical, complex, byte, pair };

template <Elem E> struct ElemInfo;
#define SHMPI_ELEM(E, T, F) \
  template <> struct ElemInfo<Elem::E> { using type = T; static constexpr Family family = Family::F; }
SHMPI_ELEM(i8, std::int8_t, integer);
SHMPI_ELEM(u8, std::uint8_t, integer);
SHMPI_ELEM(i16, std::int16_t, integer);
SHMPI_ELEM(u16, std::uint16_t, integer);
SHMPI_ELEM(i32, std::int32_t, integer);
SHMPI_ELEM(u32, std::uint32_t, integer);
SHMPI_ELEM(i64, std::int64_t, integer);
SHMPI_ELEM(u64, std::uint64_t, integer);
SHMPI_ELEM(c_char, std::int8_t, integer);  // char is signed on x86-64 Linux
SHMPI_ELEM(f32, float, floating);
SHMPI_ELEM(f64, double, floating);
SHMPI_ELEM(f80, long double, floating);
SHMPI_ELEM(c_bool, std::uint8_t, logical);  // read as bytes: no bool loads of odd values
SHMPI_ELEM(c32, Complex<float>, complex);
SHMPI_ELEM(c64, Complex<double>, complex);
SHMPI_ELEM(c80, Complex<long double>, complex);
SHMPI_ELEM(byte, std::uint8_t, byte);
SHMPI_ELEM(float_int, FloatInt, pair);
SHMPI_ELEM(double_int, DoubleInt, pair);
SHMPI_ELEM(long_int, LongInt, pair);
SHMPI_ELEM(two_int, TwoInt, pair);
SHMPI_ELEM(short_int, ShortInt, pair);
SHMPI_ELEM(long_double_int, LongDoubleInt, pair);
SHMPI_ELEM(two_real, TwoReal, pair);
SHMPI_ELEM(two_double_precision, TwoDoublePrecision, pair);
SHMPI_ELEM(two_integer, TwoInteger, pair);
#undef SHMPI_ELEM

template <Elem E> using ElemType = typename ElemInfo<E>::type;

}  // namespace shmpi::ops
