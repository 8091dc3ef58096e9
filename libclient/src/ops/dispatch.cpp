// Picks the kernel table once per process from the CPU's features:
//   avx512  if the CPU (and the OS, which libgcc checks through XCR0) has AVX-512 F, BW,
//           VL and DQ: the avx512 build uses all four (an AVX-512F-only CPU such as
//           Knights Landing gets the AVX2 table);
//   avx2    if it has AVX2;
//   baseline otherwise (x86-64 SSE2, or any other architecture).
// SHMPI_OPS_ISA=baseline|avx2|avx512 lowers the choice (for tests and benchmarks); a value
// above what the CPU supports, or an unknown one, is ignored.
#include <cstdlib>
#include <cstring>

#include "ops/kernel_table.hpp"
#include "ops/op_table.hpp"

namespace shmpi::ops {

namespace {

bool cpu_has(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  switch (isa) {
    case Isa::baseline:
      return true;
    case Isa::avx2:
      return __builtin_cpu_supports("avx2");
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  }
  return false;
#else
  return isa == Isa::baseline;
#endif
}

const KernelTable* table_of(Isa isa) {
  switch (isa) {
    case Isa::baseline:
      return &baseline::table();
#if defined(SHMPI_OPS_HAVE_X86_BUILDS)
    case Isa::avx2:
      return &avx2::table();
    case Isa::avx512:
      return &avx512::table();
#else
    default:
      return nullptr;
#endif
  }
  return nullptr;
}

struct Choice {
  Isa isa = Isa::baseline;
  bool available[kIsaCount] = {};
};

const Choice& choice() {
  static const Choice c = [] {
    Choice r;
    for (std::size_t i = 0; i < kIsaCount; ++i) {
      const auto isa = static_cast<Isa>(i);
      r.available[i] = cpu_has(isa) && table_of(isa) != nullptr;
      if (r.available[i]) r.isa = isa;
    }
    if (const char* want = std::getenv("SHMPI_OPS_ISA")) {
      for (std::size_t i = 0; i < kIsaCount; ++i)
        if (std::strcmp(want, kIsaNames[i]) == 0 && i < static_cast<std::size_t>(r.isa))
          r.isa = static_cast<Isa>(i);
    }
    return r;
  }();
  return c;
}

template <class K>
K lookup(const K (&k)[kOpCount][kElemCount], OpKind op, Elem e) {
  if (static_cast<std::size_t>(op) >= kOpCount || static_cast<std::size_t>(e) >= kElemCount)
    return nullptr;
  if (!op_valid(op, e, strict_types())) return nullptr;
  return k[static_cast<std::size_t>(op)][static_cast<std::size_t>(e)];
}

const KernelTable& active_table() {
  static const KernelTable* const active = table_of(active_isa());
  return *active;
}

}  // namespace

Isa active_isa() { return choice().isa; }
const char* active_isa_name() { return name(active_isa()); }

bool isa_available(Isa isa) {
  return static_cast<std::size_t>(isa) < kIsaCount && choice().available[static_cast<std::size_t>(isa)];
}

Kernel kernel(OpKind op, Elem e) { return lookup(active_table().k, op, e); }
Kernel3 kernel3(OpKind op, Elem e) { return lookup(active_table().k3, op, e); }

Kernel kernel_for(Isa isa, OpKind op, Elem e) {
  if (!isa_available(isa)) return nullptr;
  return lookup(table_of(isa)->k, op, e);
}

Kernel3 kernel3_for(Isa isa, OpKind op, Elem e) {
  if (!isa_available(isa)) return nullptr;
  return lookup(table_of(isa)->k3, op, e);
}

}  // namespace shmpi::ops
