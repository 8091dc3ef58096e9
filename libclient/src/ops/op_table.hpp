// The op engine's internal API: which (op, element) pairs the standard allows, and the
// reduction kernel for each, picked once per process for the CPU's instruction set.
//
//   Kernel k = kernel(OpKind::sum, Elem::f64);   // nullptr: the pair is not allowed
//   if (k) k(in, inout, count);                  // inout[i] = in[i] + inout[i]
//
// Semantics every ISA variant follows bit for bit (tests/ops checks them against a
// scalar reference, lengths 0-257 and large, misaligned, with NaN/inf/-0 and overflow):
// - integer SUM/PROD wrap modulo 2^bits, in the vector body exactly as in the tail;
// - floating MAX/MIN are IEEE 754-2019 maximumNumber/minimumNumber (a = in[i],
//   b = inout[i]): a quiet NaN loses to any number (two NaNs: `in`'s), -0 < +0, so the
//   result is the same in any operand or reduction order (signaling NaNs: unspecified);
// - floating SUM/PROD are single IEEE operations in the element's precision, never
//   contracted into FMAs (-ffp-contract=off), so every ISA rounds the same way;
// - complex PROD is (ar*br - ai*bi, ar*bi + ai*br), without C Annex G's inf/NaN recovery;
// - logical ops treat any non-zero element as true and store 0 or 1 in the element type;
// - MINLOC/MAXLOC are lexicographic: the pair with the smaller (larger) value wins, equal
//   values go to the smaller index (equal indices: inout's pair); a NaN value loses to any
//   number, two NaN values tie. The winning pair is copied whole;
// - REPLACE: inout = in; NO_OP: inout unchanged.
#pragma once

#include "ops/op_kinds.hpp"

namespace shmpi::ops {

// The standard's datatype groups (MPI-4.1 6.9.2; MPI_CHAR is "character"). The datatype
// engine knows each predefined datatype's group; the kernels only know its Elem.
enum class TypeGroup : std::uint8_t {
  c_integer, fortran_integer, floating_point, logical, complex, byte, multi_language,
  pair,       // MPI_FLOAT_INT & co., MPI_2REAL & co.
  character,  // MPI_CHAR: a C integer for reductions unless strict
};

// Whether the standard allows `op` on a datatype of group `g` (MPI_CHAR only when not
// strict). REPLACE and NO_OP accept every predefined datatype.
bool op_valid(OpKind op, TypeGroup g, bool strict);

// The same at element level (an integer Elem counts as a C integer, the most permissive
// integer group: the MPI layer must refuse logical ops on Fortran and multi-language
// integers through the group form above).
bool op_valid(OpKind op, Elem e, bool strict);

// SHMPI_STRICT_TYPES=1 in the environment (read once, at the first call): MPI_CHAR in a
// reduction is then an error, as the standard says, instead of an integer as Open MPI and
// MPICH (and OSU) have it.
bool strict_types();

// The kernel for (op, e) of the ISA chosen at start, or nullptr if !op_valid(op, e,
// strict_types()).
Kernel kernel(OpKind op, Elem e);

// The three-operand kernel for (op, e) of the same ISA (op_kinds.hpp Kernel3), or
// nullptr where kernel() is, and for REPLACE and NO_OP.
Kernel3 kernel3(OpKind op, Elem e);

// The ISA chosen at start: the best one this CPU supports (AVX-512 needs F, BW, VL and DQ),
// lowered by SHMPI_OPS_ISA=baseline|avx2 if set (never raised above what the CPU has).
Isa active_isa();
const char* active_isa_name();

// For tests and benchmarks: whether this CPU can run `isa`'s table, and its kernel
// (nullptr if the ISA is unavailable here or the pair is invalid).
bool isa_available(Isa isa);
Kernel kernel_for(Isa isa, OpKind op, Elem e);
Kernel3 kernel3_for(Isa isa, OpKind op, Elem e);

}  // namespace shmpi::ops
