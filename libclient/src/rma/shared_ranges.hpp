// Process memory that peers can map: MPI_Alloc_mem regions (memfd mappings from the
// start) and ranges given to MPI_Win_create that were moved onto a memfd in place.
//
// Moving in place (share_in_place): for the pages covering [base, base + size), when
// /proc/self/maps shows them as private anonymous read-write memory (heap, .bss/.data
// anonymous parts, anonymous mmaps; never the stack, files or special mappings), copy
// their contents into a new memfd and map it MAP_SHARED|MAP_FIXED over the same
// addresses. The process sees the same bytes at the same addresses; peers map the memfd
// and reach the window with plain loads, stores and CPU atomics instead of a syscall per
// access. Costs and risks (docs/architecture.md, "MPI_Win_create"): one copy of the pages
// at creation; neighbours on the first and last page become shared too (harmless unless
// the process forks: a child would share them instead of copying); another thread writing
// those pages during the copy would lose its write (MPI_THREAD_SERIALIZED at most).
// SHMPI_WIN_CREATE_SHARE=0 switches it off (then such windows use process_vm_readv/writev).
#pragma once

#include <cstddef>
#include <cstdint>

namespace shmpi::client {

struct SharedRange {
  int fd = -1;                // memfd, open for the life of the process (peers open it)
  std::uint64_t fd_offset = 0;  // offset in the memfd of the first page of the range
  std::uint64_t page_lo = 0;  // first page of [base, base + size), page aligned
  std::uint64_t length = 0;   // bytes from page_lo, whole pages
};

// Registers an MPI_Alloc_mem mapping.
void add_alloc_mem(void* p, std::size_t len, int fd);
// Unregisters it; false if `p` was not returned by MPI_Alloc_mem. Closes the fd.
bool remove_alloc_mem(void* p, std::size_t& len);
// Finds or creates a memfd backing [base, base + size); false if the memory cannot be
// shared (then the window uses cross-memory attach for this rank).
bool share_in_place(void* base, std::size_t size, SharedRange& out);

}  // namespace shmpi::client
