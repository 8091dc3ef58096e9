// Per-element CPU atomics on shared window memory: what MPI_Fetch_and_op, one-element
// MPI_Accumulate / MPI_Get_accumulate and MPI_Compare_and_swap do when the target element
// has a lock-free atomic of its size. Other processes act on the same memory concurrently
// through these same functions, so every call is one atomic read-modify-write of the whole
// element; the caller falls back to a lock only where atomic_fn/cas_fn give nullptr or
// atomic_aligned is false (and must then take that lock for every accumulate to the window,
// since a lock does not exclude these atomics).
//
//   if (AtomicFn f = atomic_fn(OpKind::sum, Elem::i64); f && atomic_aligned(Elem::i64, t))
//     f(&origin, t, &old);   // old = *t; *t = origin + old, as one lock xadd
//
// The new value is op_functors.hpp's functor applied to (a = *origin, b = old), the same
// definition the reduction kernels vectorize, so it is bit for bit what MPI_Accumulate on a
// long buffer would store (semantics in ops/op_table.hpp). Instructions (x86-64, seq_cst;
// each locked instruction is a full barrier):
//   NO_OP                     one atomic load (mov); 16 bytes: lock cmpxchg16b of 0 with 0,
//                             which never changes the value (so the target must be writable)
//   REPLACE                   xchg; 16 bytes: lock cmpxchg16b loop
//   SUM on integers           lock xadd (lock add when result is null)
//   BAND/BOR/BXOR on integers lock and/or/xor when result is null, else a lock cmpxchg loop
//     and byte                (x86 has no fetching form)
//   everything else           a lock cmpxchg (16 bytes: lock cmpxchg16b) loop that computes
//                             the functor on the value it last saw. Up to 8 bytes, a result
//                             equal to the value seen (MAX/MIN/MINLOC/MAXLOC where the target
//                             wins, LAND of a 0, ...) is not written: the atomic load that saw
//                             it is then the operation, as if the same bits had been stored
// MINLOC/MAXLOC store the winning element's bytes whole (the origin's, padding included, or
// leave the target's); integer SUM wraps modulo 2^bits like the kernels.
//
// 16-byte elements (Complex<double>, DoubleInt, LongInt, TwoDoublePrecision) use lock
// cmpxchg16b, inlined (compiled with -mcx16, never libatomic, which may take a lock), and
// only if the CPU has it. Types holding an x87 long double (f80, c80, long_double_int:
// 10 significant bytes in a 16- or 32-byte slot) never have an atomic.
#pragma once

#include "ops/op_kinds.hpp"

namespace shmpi::rma {

// old = *target; *target = op(*origin, old) (REPLACE: *origin; NO_OP: unchanged, an atomic
// read, and origin is not read: it may be null, as MPI ignores the origin for MPI_NO_OP);
// if (result) *result = old. origin and result may be unaligned and may alias each other
// (origin is read before result is written); target must satisfy atomic_aligned.
using AtomicFn = void (*)(const void* origin, void* target, void* result);

// nullptr if !ops::op_valid(op, elem, ops::strict_types()) (the op engine's rule for
// reductions and RMA: REPLACE and NO_OP apply to every element; MPI_CHAR only when not
// strict) or if !atomic_capable(elem).
AtomicFn atomic_fn(ops::OpKind op, ops::Elem elem);

// MPI-4.1 13.3.4.4 MPI_Compare_and_swap: "replaces the value at the target with the value in
// the origin buffer if the compare buffer and the target buffer are identical", datatype of
// group C integer, Fortran integer, logical, multi-language or byte. For those types
// "identical" is implemented as bitwise equality of the element (for integers the same as
// equal values; a C bool holding a byte other than 0 or 1 matches only that byte):
//   old = *target; if (old bitwise== *compare) *target = *origin; *result = old;
// as one lock cmpxchg. origin, compare and result may be unaligned and may alias one
// another (all inputs are read before result is written); result may be null.
using CasFn = void (*)(const void* origin, const void* compare, void* target, void* result);

// The CAS for an integer (i8..u64; c_char, i.e. MPI_CHAR, only when not strict, as in
// reductions), c_bool or byte element; nullptr for every other element (floating point,
// complex and pair types are not allowed by the standard).
CasFn cas_fn(ops::Elem elem);

// Whether elem has a lock-free CPU atomic of its whole size: 1, 2, 4 or 8 bytes, or 16 bytes
// where the CPU has cmpxchg16b (Complex<double>, DoubleInt, LongInt, TwoDoublePrecision);
// never for types holding a long double.
bool atomic_capable(ops::Elem elem);

// Whether target is aligned to the element's atomic word: its size (1, 2, 4, 8 or 16), which
// for the 8- and 16-byte pair and complex types exceeds their C alignment. A misaligned
// locked instruction is a split lock (a bus lock: very slow, and a fault where the kernel
// enforces split-lock detection), so the caller must use a lock instead when this is false.
// Always false when !atomic_capable(elem).
bool atomic_aligned(ops::Elem elem, const void* target);

}  // namespace shmpi::rma
