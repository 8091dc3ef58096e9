// The rest of a small staged reduction that posted at issue (nbc.hpp `posting`,
// kPostedOnly) when that rest is one fold of the members' staged inputs into the user's
// buffer: kept from the issue, so that progress() folds and finishes the call without
// running its plan a second time (docs/collectives.md "Nonblocking and persistent
// collectives", item 3, "Kept folds").
#pragma once

#include <time.h>

#include <cstdint>
#include <optional>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "coll/collectives.hpp"
#include "coll/engine.hpp"

namespace shmpi::client::coll {

// What the fold of a posted call reads and writes.
struct FoldArgs {
  int lo = 0, hi = -1;    // the members whose inputs are folded, in rank order
  MPI_Count off = 0;      // image offset of this rank's block within each input
  MPI_Count n = 0;        // result elements
  MPI_Count span = 0;     // their image bytes
  MPI_Count tlb = 0;      // the datatype's true lower bound
  std::uint64_t in_bytes = 0;  // every member's staged input image
  std::byte* res = nullptr;    // the result image: the user's receive buffer
};

struct PostedFold : FoldArgs {
  std::optional<Call> k;  // the call as it posted; empty: nothing kept
  bool looked = false;         // run_posted_fold() has run
  std::uint64_t issued = 0;    // ticks() when its request was started
};

// A cheap clock for poll_at_issue's evidence: the time stamp counter (no syscall, a few
// ns), else the vDSO's monotonic clock in ns.
inline std::uint64_t ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
#endif
}
// From its start to its first look, a kept fold whose program waits at once (MPI_Wait
// right after the MPI_I call) took under 128 ticks (60 ns of this VM's 2.1 GHz counter)
// in nbc_latency's loops; at least this many (~180 ns) mean work in between.
inline constexpr std::uint64_t kWorkTicks = 384;

// Whether a call whose rest would be kept polls at issue for its members' posts first
// (wait.hpp poll_briefly, as every posting call). Not while the communicator's kept
// folds are first waited for or tested at least kWorkTicks after their start: the
// program works between issue and wait, its members, issuing together, have posted by
// then, and a poll would spend the cross-core latency that the work hides (each such
// fold sets kFoldCredit, each other one takes one off, so that one hurried wait does
// not end it). The program's habit decides, not whether the posts were there: members
// in different modes would make each other's evidence. Otherwise it polls (back-to-back
// issue and wait: the call completes at issue, faster), except every
// kFoldLookEvery-th call, which keeps its fold to look again.
inline constexpr std::uint8_t kFoldLookEvery = 16;
inline constexpr std::uint8_t kFoldCredit = 3;
inline bool poll_at_issue(CommObj& c) {
  if (c.fold_credit > 0) return false;
  return ++c.fold_since_look % kFoldLookEvery != 0;
}

// Kept by reduce() at issue for the request that start_posted() makes next, which
// takes it (nbc.cpp).
extern PostedFold g_posted_fold;

// waiting: a member has not posted yet; done: folded, finished, the request complete;
// general: a post this fold does not cover (invalid, of another size, not staged) or
// an abort: the call's plan runs its rest, which reports it.
enum class FoldStep : std::uint8_t { waiting, done, general };
FoldStep run_posted_fold(PostedFold& f, const Reducer& op);
// Its fold once members f.lo..f.hi have all posted (done), or general if a post is not
// one it covers.
FoldStep fold_posted(Call& k, const Reducer& op, const FoldArgs& f);

// Folds members lo..hi's staged inputs (each from image offset `off`) into acc in rank
// order, right to left (reduce.cpp): n elements, `span` bytes. All have posted. `own`:
// this rank's input image where it did not stage it (nullptr: staged like the others').
void fold_staged(const Call& k, const Reducer& op, int lo, int hi, MPI_Count off, MPI_Count n, MPI_Count span,
                 MPI_Count tlb, std::byte* acc, const std::byte* own = nullptr);

}  // namespace shmpi::client::coll
