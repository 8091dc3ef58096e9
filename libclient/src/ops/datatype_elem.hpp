// Which kernel element and which of the standard's type groups a predefined datatype
// is, for the reduction and accumulate calls (MPI-4.1 6.9.2).
#pragma once

#include <mpi.h>

#include "ops/op_table.hpp"

namespace shmpi::ops {

struct ElemInfo {
  Elem elem;
  TypeGroup group;
};

// False if `basic` (a predefined datatype handle) has no reduction kernel: MPI_WCHAR,
// MPI_PACKED, Fortran LOGICAL and the optional sizes without a C counterpart.
bool elem_of(MPI_Datatype basic, ElemInfo& out);

}  // namespace shmpi::ops
