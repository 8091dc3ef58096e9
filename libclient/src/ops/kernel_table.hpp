// The (op, element) → kernel table each ISA build of kernels.cpp provides, and the three
// builds' accessors. Only dispatch.cpp and kernels.cpp include this.
#pragma once

#include "ops/op_kinds.hpp"

namespace shmpi::ops {

struct KernelTable {
  Kernel k[kOpCount][kElemCount];  // nullptr where the op cannot compute on the element
  Kernel3 k3[kOpCount][kElemCount];  // the same, three-operand; nullptr for REPLACE, NO_OP
};

// kernels.cpp compiled with -DSHMPI_OPS_ISA=<name>; only the builds meson made exist
// (all three on x86-64, baseline alone elsewhere).
namespace baseline { const KernelTable& table(); }
namespace avx2 { const KernelTable& table(); }
namespace avx512 { const KernelTable& table(); }

}  // namespace shmpi::ops
