// The vocabulary of the op engine: which reduction (OpKind), on which element layout
// (Elem), by which instruction set (Isa), through which function type (Kernel).
//
// An Elem is a machine layout, not an MPI datatype: the datatype engine maps each
// predefined datatype onto one (MPI_INT32_T, MPI_INTEGER4 and MPI_INT all become i32;
// MPI_AINT, MPI_OFFSET and MPI_COUNT become i64; MPI_CHAR becomes c_char, which is laid
// out like i8 but has its own entry so that strict mode can refuse it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace shmpi::ops {

enum class OpKind : std::uint8_t {
  max, min, sum, prod,
  land, band, lor, bor, lxor, bxor,
  minloc, maxloc,
  replace,  // inout = in (MPI_REPLACE, for RMA accumulate)
  no_op,    // inout unchanged (MPI_NO_OP, for RMA get-accumulate)
};
inline constexpr std::size_t kOpCount = 14;

enum class Elem : std::uint8_t {
  // integers (C and Fortran integer groups, and the multi-language types)
  i8, u8, i16, u16, i32, u32, i64, u64,
  c_char,  // MPI_CHAR: an integer unless strict mode (SHMPI_STRICT_TYPES=1)
  // floating point
  f32, f64, f80,  // f80: C long double (x87 80-bit in a 16-byte slot)
  // logical
  c_bool,  // C _Bool / bool, one byte holding 0 or 1
  // complex: C float/double/long double _Complex (re, im)
  c32, c64, c80,
  // byte
  byte,
  // value-index pairs for MINLOC/MAXLOC, laid out as the C structs (padding included)
  float_int, double_int, long_int, two_int, short_int, long_double_int,
  // Fortran pairs of one type (the index coerced to the value's type)
  two_real, two_double_precision, two_integer,
};
inline constexpr std::size_t kElemCount = 26;

// Instruction-set variants of the kernel table, lowest first.
enum class Isa : std::uint8_t { baseline, avx2, avx512 };
inline constexpr std::size_t kIsaCount = 3;
// The avx512 build runs buffers of at least this many bytes with 256-bit vectors
// (kernels.cpp: faster at DRAM sizes).
inline constexpr std::size_t kWideLimitBytes = std::size_t{2} << 20;

// inout[i] = in[i] op inout[i] for i in [0, count). `in` and `inout` must not overlap
// (identical pointers are tolerated: every element is read before it is written).
using Kernel = void (*)(const void* in, void* inout, std::size_t count);
// out[i] = a[i] op b[i] (a in the place of `in`, b of `inout`): the same bits as Kernel
// on a copy of b. `out` overlaps neither a nor b.
using Kernel3 = void (*)(const void* a, const void* b, void* out, std::size_t count);

inline constexpr const char* kOpNames[kOpCount] = {
    "MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR",
    "MINLOC", "MAXLOC", "REPLACE", "NO_OP"};
inline constexpr const char* kElemNames[kElemCount] = {
    "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "c_char",
    "f32", "f64", "f80", "c_bool", "c32", "c64", "c80", "byte",
    "float_int", "double_int", "long_int", "2int", "short_int", "long_double_int",
    "2real", "2double_precision", "2integer"};
inline constexpr const char* kIsaNames[kIsaCount] = {"baseline", "avx2", "avx512"};

constexpr const char* name(OpKind o) { return kOpNames[static_cast<std::size_t>(o)]; }
constexpr const char* name(Elem e) { return kElemNames[static_cast<std::size_t>(e)]; }
constexpr const char* name(Isa i) { return kIsaNames[static_cast<std::size_t>(i)]; }

static_assert(static_cast<std::size_t>(OpKind::no_op) + 1 == kOpCount);
static_assert(static_cast<std::size_t>(Elem::two_integer) + 1 == kElemCount);
static_assert(static_cast<std::size_t>(Isa::avx512) + 1 == kIsaCount);

}  // namespace shmpi::ops
