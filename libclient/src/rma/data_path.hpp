// The RMA data path: moving bytes and applying accumulate ops between an origin buffer
// and a target's window memory, with the accumulate-atomicity protocol
// (docs/rma-atomicity.md).
//
// A transfer is described by two sides, each `count` elements of a committed datatype
// at an address (origin) or at a byte offset into the target's window (target). zip()
// walks both flattened type maps at once and yields the maximal runs that are
// contiguous on both sides; the data path then either addresses the target directly
// (shared memory: allocate flavours, or the caller's own memory) or through
// process_vm_readv/writev (another rank's private memory: create / dynamic flavours).
#pragma once

#include <mpi.h>

#include <cstdint>

#include "ops/op_kinds.hpp"
#include "rma/window.hpp"
#include "types/datatype.hpp"

namespace shmpi::client::rma {

struct Side {
  std::byte* addr = nullptr;  // origin: buffer address; target: offset from the window base
  MPI_Count count = 0;
  types::Datatype* type = nullptr;
  const types::Flat* flat = nullptr;
};

// What an accumulate does with each element: inout = op(origin, inout); result (if any)
// receives the old target value. origin may be null for NO_OP.
struct AccSpec {
  ops::OpKind op;
  ops::Elem elem;
  std::uint32_t elem_size;
  ops::Kernel kernel;   // nullptr for NO_OP
  // The element has no kernel type of its own (MPI_WCHAR, MPI_PACKED, Fortran LOGICAL:
  // REPLACE/NO_OP only): moved as bytes, always under the stripe lock, never a CPU atomic.
  bool bytes_only = false;
  // Pair types with padding (MPI_SHORT_INT, MPI_DOUBLE_INT, ...): their data bytes are
  // not contiguous, so the type map's runs split elements. Then elem_size is the pair's
  // extent (the C struct) and `pair` its own flattened layout; accumulate() works pair
  // by pair (rare types; correctness over speed).
  const types::Flat* pair = nullptr;
  std::uint32_t pair_size = 0;  // data bytes of one pair
};

// Each returns MPI_SUCCESS or an MPI error class (the caller raises it with a message;
// `why` says what failed, e.g. the errno of process_vm_writev).
int put(WinObj& w, int target, const Side& origin, const Side& tgt, std::string& why);
int get(WinObj& w, int target, const Side& origin, const Side& tgt, std::string& why);
// result: nullptr for MPI_Accumulate.
int accumulate(WinObj& w, int target, const Side& origin, const Side* result, const Side& tgt,
               const AccSpec& acc, std::string& why);
// One element at byte offset `disp` of the target's window (MPI_Fetch_and_op).
int fetch_and_op(WinObj& w, int target, const void* origin, void* result, std::uint64_t disp,
                 const AccSpec& acc, std::string& why);
int compare_and_swap(WinObj& w, int target, const void* origin, const void* compare, void* result,
                     std::uint64_t disp, ops::Elem elem, std::uint32_t size, std::string& why);

}  // namespace shmpi::client::rma
