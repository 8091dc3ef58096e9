#include "types/basic_types.hpp"

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>

namespace shmpi::client::types {
namespace {

// Not constexpr: a handle is a pointer type, and reinterpret_cast is never a constant
// expression (clang refuses such a constexpr function).

template <class T>
BasicInfo c_type(MPI_Datatype h, const char* name) {
  return {static_cast<std::uint16_t>(reinterpret_cast<std::uintptr_t>(h)), sizeof(T), alignof(T), name, 0, 0, 0,
          sizeof(T)};
}
BasicInfo sized(MPI_Datatype h, std::uint16_t size, std::uint16_t align, const char* name) {
  return {static_cast<std::uint16_t>(reinterpret_cast<std::uintptr_t>(h)), size, align, name, 0, 0, 0, size};
}
std::uint16_t v(MPI_Datatype h) { return static_cast<std::uint16_t>(reinterpret_cast<std::uintptr_t>(h)); }

// A pair type: the C struct {A a; B b;}.
template <class A, class B>
BasicInfo pair(MPI_Datatype h, MPI_Datatype a, MPI_Datatype b, const char* name) {
  struct S {
    A a;
    B b;
  };
  return {v(h), sizeof(A) + sizeof(B), alignof(S), name, v(a), v(b), static_cast<std::uint16_t>(offsetof(S, b)),
          sizeof(S)};
}

using BasicTable = std::array<BasicInfo, kLastPredefinedType - kFirstPredefinedType + 1>;

BasicTable make_table() {
  // Fortran types with gfortran's sizes on x86-64 Linux (default INTEGER/REAL/LOGICAL:
  // 4 bytes; REAL*16 is __float128).
  const BasicInfo all[] = {
      c_type<MPI_Aint>(MPI_AINT, "MPI_AINT"),
      c_type<MPI_Count>(MPI_COUNT, "MPI_COUNT"),
      c_type<MPI_Offset>(MPI_OFFSET, "MPI_OFFSET"),
      sized(MPI_PACKED, 1, 1, "MPI_PACKED"),
      c_type<short>(MPI_SHORT, "MPI_SHORT"),
      c_type<int>(MPI_INT, "MPI_INT"),
      c_type<long>(MPI_LONG, "MPI_LONG"),
      c_type<long long>(MPI_LONG_LONG, "MPI_LONG_LONG"),
      c_type<unsigned short>(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT"),
      c_type<unsigned>(MPI_UNSIGNED, "MPI_UNSIGNED"),
      c_type<unsigned long>(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"),
      c_type<unsigned long long>(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG"),
      c_type<float>(MPI_FLOAT, "MPI_FLOAT"),
      c_type<std::complex<float>>(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX"),
      c_type<std::complex<float>>(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX"),
      c_type<double>(MPI_DOUBLE, "MPI_DOUBLE"),
      c_type<std::complex<double>>(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"),
      c_type<std::complex<double>>(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"),
      c_type<long double>(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE"),
      c_type<std::complex<long double>>(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"),
      c_type<std::complex<long double>>(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"),
      sized(MPI_LOGICAL, 4, 4, "MPI_LOGICAL"),
      sized(MPI_INTEGER, 4, 4, "MPI_INTEGER"),
      sized(MPI_REAL, 4, 4, "MPI_REAL"),
      sized(MPI_COMPLEX, 8, 4, "MPI_COMPLEX"),
      sized(MPI_DOUBLE_PRECISION, 8, 8, "MPI_DOUBLE_PRECISION"),
      sized(MPI_DOUBLE_COMPLEX, 16, 8, "MPI_DOUBLE_COMPLEX"),
      sized(MPI_CHARACTER, 1, 1, "MPI_CHARACTER"),
      pair<float, int>(MPI_FLOAT_INT, MPI_FLOAT, MPI_INT, "MPI_FLOAT_INT"),
      pair<double, int>(MPI_DOUBLE_INT, MPI_DOUBLE, MPI_INT, "MPI_DOUBLE_INT"),
      pair<long, int>(MPI_LONG_INT, MPI_LONG, MPI_INT, "MPI_LONG_INT"),
      pair<int, int>(MPI_2INT, MPI_INT, MPI_INT, "MPI_2INT"),
      pair<short, int>(MPI_SHORT_INT, MPI_SHORT, MPI_INT, "MPI_SHORT_INT"),
      pair<long double, int>(MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_INT, "MPI_LONG_DOUBLE_INT"),
      pair<float, float>(MPI_2REAL, MPI_REAL, MPI_REAL, "MPI_2REAL"),
      pair<double, double>(MPI_2DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION,
                           "MPI_2DOUBLE_PRECISION"),
      pair<int, int>(MPI_2INTEGER, MPI_INTEGER, MPI_INTEGER, "MPI_2INTEGER"),
      c_type<bool>(MPI_C_BOOL, "MPI_C_BOOL"),
      c_type<bool>(MPI_CXX_BOOL, "MPI_CXX_BOOL"),
      c_type<wchar_t>(MPI_WCHAR, "MPI_WCHAR"),
      c_type<std::int8_t>(MPI_INT8_T, "MPI_INT8_T"),
      c_type<std::uint8_t>(MPI_UINT8_T, "MPI_UINT8_T"),
      c_type<char>(MPI_CHAR, "MPI_CHAR"),
      c_type<signed char>(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"),
      c_type<unsigned char>(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR"),
      sized(MPI_BYTE, 1, 1, "MPI_BYTE"),
      c_type<std::int16_t>(MPI_INT16_T, "MPI_INT16_T"),
      c_type<std::uint16_t>(MPI_UINT16_T, "MPI_UINT16_T"),
      c_type<std::int32_t>(MPI_INT32_T, "MPI_INT32_T"),
      c_type<std::uint32_t>(MPI_UINT32_T, "MPI_UINT32_T"),
      c_type<std::int64_t>(MPI_INT64_T, "MPI_INT64_T"),
      c_type<std::uint64_t>(MPI_UINT64_T, "MPI_UINT64_T"),
      sized(MPI_LOGICAL1, 1, 1, "MPI_LOGICAL1"),
      sized(MPI_INTEGER1, 1, 1, "MPI_INTEGER1"),
      sized(MPI_LOGICAL2, 2, 2, "MPI_LOGICAL2"),
      sized(MPI_INTEGER2, 2, 2, "MPI_INTEGER2"),
      sized(MPI_REAL2, 2, 2, "MPI_REAL2"),
      sized(MPI_LOGICAL4, 4, 4, "MPI_LOGICAL4"),
      sized(MPI_INTEGER4, 4, 4, "MPI_INTEGER4"),
      sized(MPI_REAL4, 4, 4, "MPI_REAL4"),
      sized(MPI_COMPLEX4, 4, 2, "MPI_COMPLEX4"),
      sized(MPI_LOGICAL8, 8, 8, "MPI_LOGICAL8"),
      sized(MPI_INTEGER8, 8, 8, "MPI_INTEGER8"),
      sized(MPI_REAL8, 8, 8, "MPI_REAL8"),
      sized(MPI_COMPLEX8, 8, 4, "MPI_COMPLEX8"),
      sized(MPI_LOGICAL16, 16, 16, "MPI_LOGICAL16"),
      sized(MPI_INTEGER16, 16, 16, "MPI_INTEGER16"),
      sized(MPI_REAL16, 16, 16, "MPI_REAL16"),
      sized(MPI_COMPLEX16, 16, 8, "MPI_COMPLEX16"),
      sized(MPI_COMPLEX32, 32, 16, "MPI_COMPLEX32"),
  };
  BasicTable t{};
  for (const BasicInfo& b : all) t[b.handle - kFirstPredefinedType] = b;
  return t;
}

// Built on first use: other translation units' dynamic initializers (datatype.cpp's
// predefined objects) read it, and the order of initialization across them is
// unspecified (an LTO build ran datatype.cpp's first).
const BasicTable& table() {
  static const BasicTable t = make_table();
  return t;
}

}  // namespace

const BasicInfo* basic_info(std::uintptr_t value) {
  if (value < kFirstPredefinedType || value > kLastPredefinedType) return nullptr;
  const BasicInfo& b = table()[value - kFirstPredefinedType];
  return b.handle != 0 ? &b : nullptr;
}

const BasicInfo* basic_info(MPI_Datatype h) { return basic_info(reinterpret_cast<std::uintptr_t>(h)); }

}  // namespace shmpi::client::types
