// The fast path of the single-element calls every RMA benchmark and shared counter
// makes (MPI_Fetch_and_op, MPI_Compare_and_swap, count-1 MPI_Accumulate and
// MPI_Get_accumulate of a predefined type): table loads, a bounds check and the
// announce protocol around one CPU atomic — no search, no allocation, no syscall.
// Anything unusual (an error, a derived type, a private-memory target, a bulk
// accumulate running on the target) falls back to the general path, which produces the
// same result or the error with its message.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "ops/op_kinds.hpp"
#include "rma/elem_atomic.hpp"
#include "rma/window.hpp"

namespace shmpi::client::rma {

// What (op, predefined datatype) does in an accumulate, if valid and atomic-capable.
struct FastAcc {
  ::shmpi::rma::AtomicFn atomic = nullptr;  // nullptr: not on the fast path
  std::uint32_t size = 0;
  ops::Elem elem{};
};
// Per predefined datatype: compare-and-swap's atomic, if allowed.
struct FastCas {
  ::shmpi::rma::CasFn cas = nullptr;
  std::uint32_t size = 0;
  ops::Elem elem{};
};

inline constexpr std::uintptr_t kFastOpBase = 0x20, kFastOpSpan = 0x20;
inline constexpr std::uintptr_t kFastTypeBase = 0x200, kFastTypeSpan = 0x100;

struct FastTables {
  FastAcc acc[kFastOpSpan][kFastTypeSpan];
  FastCas cas[kFastTypeSpan];
};
const FastTables& fast_tables();

inline const FastAcc* fast_acc(MPI_Op op, MPI_Datatype dt) {
  const std::uintptr_t o = reinterpret_cast<std::uintptr_t>(op) - kFastOpBase;
  const std::uintptr_t t = reinterpret_cast<std::uintptr_t>(dt) - kFastTypeBase;
  if (o >= kFastOpSpan || t >= kFastTypeSpan) return nullptr;
  const FastAcc& f = fast_tables().acc[o][t];
  return f.atomic != nullptr ? &f : nullptr;
}
inline const FastCas* fast_cas(MPI_Datatype dt) {
  const std::uintptr_t t = reinterpret_cast<std::uintptr_t>(dt) - kFastTypeBase;
  if (t >= kFastTypeSpan) return nullptr;
  const FastCas& f = fast_tables().cas[t];
  return f.cas != nullptr ? &f : nullptr;
}

// The last window handle validated by to_win(), while no window was freed since.
WinObj* cached_win(MPI_Win h);

// The target address of one element of `size` bytes at `disp`, if the target's memory
// is shared and the element lies inside its window and is naturally aligned for the
// atomic; else nullptr.
inline std::byte* fast_target(const WinObj& w, int target, MPI_Aint disp, std::uint32_t size, ops::Elem elem) {
  if (target < 0 || target >= w.size) return nullptr;
  const WinTarget& d = w.targets[static_cast<std::size_t>(target)];
  if (!d.shared || disp < 0 || w.flavor == layout::WinFlavor::dynamic) return nullptr;
  const auto off = static_cast<std::uint64_t>(disp) * static_cast<std::uint64_t>(d.disp_unit);
  if (static_cast<std::uint64_t>(disp) > d.size || off > d.size || d.size - off < size) return nullptr;
  std::byte* p = d.local + off;
  return ::shmpi::rma::atomic_aligned(elem, p) ? p : nullptr;
}

// The announce protocol around one CPU atomic (docs/rma-atomicity.md). False if a bulk
// accumulate is running on the target: the caller takes the general path.
template <class F>
inline bool announced(WinObj& w, int target, F&& op) {
  std::atomic<std::uint32_t>& announce = w.me().announce;
  std::atomic<std::uint32_t>& bulk = w.slot(target).bulk;
  // Precheck: while a bulk op runs, do not announce at all (no starvation of the bulk
  // op by a stream of single ops; verified in docs/models).
  if (bulk.load(std::memory_order_relaxed) != 0) return false;
  announce.store(static_cast<std::uint32_t>(target) + 1, std::memory_order_seq_cst);
  if (bulk.load(std::memory_order_seq_cst) != 0) {
    announce.store(0, std::memory_order_release);
    return false;
  }
  op();
  announce.store(0, std::memory_order_release);
  return true;
}

}  // namespace shmpi::client::rma
