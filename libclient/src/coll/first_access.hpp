// First accesses of the communicator block's pages, made ahead of the calls that would
// otherwise pay for them one page at a time. On this VM the first access of each page
// by each process costs ~5 us, MADV_POPULATE_* or not (presumably the hypervisor fills
// its own page tables then), after a page fault of 26-75 us for a page nobody wrote
// yet (docs/collectives.md "First accesses").
#pragma once

#include <cstdint>

#include "coll/engine.hpp"

namespace shmpi::client::coll {

// One load from each page of [p, p + len).
void load_pages(const std::byte* p, std::uint64_t len);
// One store of 0 to each page: only for memory nobody uses yet.
void store_pages(std::byte* p, std::uint64_t len);
// One atomic add of 0 to each page: a write access that leaves the bytes alone, for
// memory that other members may be reading or writing meanwhile.
void touch_pages_for_write(std::byte* p, std::uint64_t len);

// A gated staged reduction of `span` bytes (reduce.cpp reduce_staged), before it posts:
// if this communicator's earlier ones were smaller, makes this rank's first accesses
// of every member's staging and of the shared results up to `span`, in every slot.
// The member that folds a gated call (its opener, the last to post) changes from call
// to call, so without this each rank met each page in its own time: at 8 ranks on 2
// cores a 32 KiB MPI_Allreduce took 300-600 calls to settle (~2 ms per call in the
// first 32, 0.1-0.5 ms up to then, 0.05 ms after; now 0.05 ms from the 33rd).
void warm_staged(Call& k, std::uint64_t span);

}  // namespace shmpi::client::coll
