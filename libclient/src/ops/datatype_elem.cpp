#include "ops/datatype_elem.hpp"

#include <climits>
#include <cstdint>

namespace shmpi::ops {
namespace {

struct Row {
  MPI_Datatype type;
  ElemInfo info;
};

// Sizes are those of this ABI on LP64 Linux: long is 64 bits, wchar_t is not a
// reduction type, gfortran's default INTEGER/REAL are 4 bytes.
static_assert(sizeof(long) == 8 && sizeof(long long) == 8 && sizeof(short) == 2 && sizeof(int) == 4);
static_assert(CHAR_MIN < 0, "MPI_CHAR maps to a signed 8-bit element");

const Row kRows[] = {
    // C integers
    {MPI_SIGNED_CHAR, {Elem::i8, TypeGroup::c_integer}},
    {MPI_UNSIGNED_CHAR, {Elem::u8, TypeGroup::c_integer}},
    {MPI_SHORT, {Elem::i16, TypeGroup::c_integer}},
    {MPI_UNSIGNED_SHORT, {Elem::u16, TypeGroup::c_integer}},
    {MPI_INT, {Elem::i32, TypeGroup::c_integer}},
    {MPI_UNSIGNED, {Elem::u32, TypeGroup::c_integer}},
    {MPI_LONG, {Elem::i64, TypeGroup::c_integer}},
    {MPI_UNSIGNED_LONG, {Elem::u64, TypeGroup::c_integer}},
    {MPI_LONG_LONG, {Elem::i64, TypeGroup::c_integer}},
    {MPI_UNSIGNED_LONG_LONG, {Elem::u64, TypeGroup::c_integer}},
    {MPI_INT8_T, {Elem::i8, TypeGroup::c_integer}},
    {MPI_UINT8_T, {Elem::u8, TypeGroup::c_integer}},
    {MPI_INT16_T, {Elem::i16, TypeGroup::c_integer}},
    {MPI_UINT16_T, {Elem::u16, TypeGroup::c_integer}},
    {MPI_INT32_T, {Elem::i32, TypeGroup::c_integer}},
    {MPI_UINT32_T, {Elem::u32, TypeGroup::c_integer}},
    {MPI_INT64_T, {Elem::i64, TypeGroup::c_integer}},
    {MPI_UINT64_T, {Elem::u64, TypeGroup::c_integer}},
    // MPI_CHAR: "character" in the standard, an integer unless SHMPI_STRICT_TYPES=1
    {MPI_CHAR, {Elem::c_char, TypeGroup::character}},
    // Fortran integers
    {MPI_INTEGER, {Elem::i32, TypeGroup::fortran_integer}},
    {MPI_INTEGER1, {Elem::i8, TypeGroup::fortran_integer}},
    {MPI_INTEGER2, {Elem::i16, TypeGroup::fortran_integer}},
    {MPI_INTEGER4, {Elem::i32, TypeGroup::fortran_integer}},
    {MPI_INTEGER8, {Elem::i64, TypeGroup::fortran_integer}},
    // floating point
    {MPI_FLOAT, {Elem::f32, TypeGroup::floating_point}},
    {MPI_DOUBLE, {Elem::f64, TypeGroup::floating_point}},
    {MPI_LONG_DOUBLE, {Elem::f80, TypeGroup::floating_point}},
    {MPI_REAL, {Elem::f32, TypeGroup::floating_point}},
    {MPI_DOUBLE_PRECISION, {Elem::f64, TypeGroup::floating_point}},
    {MPI_REAL4, {Elem::f32, TypeGroup::floating_point}},
    {MPI_REAL8, {Elem::f64, TypeGroup::floating_point}},
    // logical
    {MPI_C_BOOL, {Elem::c_bool, TypeGroup::logical}},
    {MPI_CXX_BOOL, {Elem::c_bool, TypeGroup::logical}},
    // Fortran LOGICAL as gfortran stores it: an integer of the kind's size, 0 false, 1
    // true (any non-zero is read as true; the logical kernels store 0 or 1).
    {MPI_LOGICAL, {Elem::i32, TypeGroup::logical}},
    {MPI_LOGICAL1, {Elem::u8, TypeGroup::logical}},
    {MPI_LOGICAL2, {Elem::u16, TypeGroup::logical}},
    {MPI_LOGICAL4, {Elem::i32, TypeGroup::logical}},
    {MPI_LOGICAL8, {Elem::i64, TypeGroup::logical}},
    // complex
    {MPI_C_FLOAT_COMPLEX, {Elem::c32, TypeGroup::complex}},
    {MPI_C_DOUBLE_COMPLEX, {Elem::c64, TypeGroup::complex}},
    {MPI_C_LONG_DOUBLE_COMPLEX, {Elem::c80, TypeGroup::complex}},
    {MPI_CXX_FLOAT_COMPLEX, {Elem::c32, TypeGroup::complex}},
    {MPI_CXX_DOUBLE_COMPLEX, {Elem::c64, TypeGroup::complex}},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, {Elem::c80, TypeGroup::complex}},
    {MPI_COMPLEX, {Elem::c32, TypeGroup::complex}},
    {MPI_DOUBLE_COMPLEX, {Elem::c64, TypeGroup::complex}},
    {MPI_COMPLEX8, {Elem::c32, TypeGroup::complex}},
    {MPI_COMPLEX16, {Elem::c64, TypeGroup::complex}},
    // byte
    {MPI_BYTE, {Elem::byte, TypeGroup::byte}},
    // multi-language
    {MPI_AINT, {Elem::i64, TypeGroup::multi_language}},
    {MPI_OFFSET, {Elem::i64, TypeGroup::multi_language}},
    {MPI_COUNT, {Elem::i64, TypeGroup::multi_language}},
    // MINLOC/MAXLOC pairs
    {MPI_FLOAT_INT, {Elem::float_int, TypeGroup::pair}},
    {MPI_DOUBLE_INT, {Elem::double_int, TypeGroup::pair}},
    {MPI_LONG_INT, {Elem::long_int, TypeGroup::pair}},
    {MPI_2INT, {Elem::two_int, TypeGroup::pair}},
    {MPI_SHORT_INT, {Elem::short_int, TypeGroup::pair}},
    {MPI_LONG_DOUBLE_INT, {Elem::long_double_int, TypeGroup::pair}},
    {MPI_2REAL, {Elem::two_real, TypeGroup::pair}},
    {MPI_2DOUBLE_PRECISION, {Elem::two_double_precision, TypeGroup::pair}},
    {MPI_2INTEGER, {Elem::two_integer, TypeGroup::pair}},
};

// The predefined handles are small integers (mpi.h: 0x200..0x2ff): a direct table, built
// once from kRows, answers a reduction's per-call lookup without a scan.
constexpr std::uintptr_t kHandleBase = 0x200, kHandles = 0x100;
struct Direct {
  ElemInfo info[kHandles]{};
  bool known[kHandles]{};
  Direct() {
    for (const Row& r : kRows) {
      const auto h = reinterpret_cast<std::uintptr_t>(r.type) - kHandleBase;
      if (h < kHandles) info[h] = r.info, known[h] = true;
    }
  }
};
const Direct kDirect;

}  // namespace

bool elem_of(MPI_Datatype basic, ElemInfo& out) {
  const auto h = reinterpret_cast<std::uintptr_t>(basic) - kHandleBase;
  if (h < kHandles) {
    if (!kDirect.known[h]) return false;
    out = kDirect.info[h];
    return true;
  }
  for (const Row& r : kRows) {
    if (r.type == basic) {
      out = r.info;
      return true;
    }
  }
  return false;
}

}  // namespace shmpi::ops
