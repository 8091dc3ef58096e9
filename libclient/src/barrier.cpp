// Two barrier algorithms; the broker picks one per job (header.barrier_algo) and
// SHMPI_BARRIER=dissemination|central overrides it (for benchmarks).
//
// Dissemination (ranks have cores of their own). Barrier number e (counted per rank,
// never reset) has ceil(log2 n) rounds; in round k rank r
//   1. stores e into its own round-k flag (release; single writer: r),
//   2. waits until the round-k flag of rank (r - 2^k) mod n has reached e (acquire),
//      then wakes its own flag's sleepers if any (the deferred wake of wait.hpp).
// No read-modify-write, no shared counter: each round is one cache-line transfer per
// rank, all in parallel. At n = 2 it is exactly the bare two-process flag barrier.
// A rank can be at most one barrier ahead of its partner, so "reached e" (wrap-aware
// >=) is unambiguous.
//
// Central (more ranks than cores). Every rank takes a ticket t from the job's arrival
// counter (fetch_add, acq_rel; monotonic, never reset): its barrier is g = t / n + 1.
//   1. the rank holding ticket g*n - 1 arrived last: it stores g into the release flag
//      (seq_cst) and issues one FUTEX_WAKE if anyone sleeps,
//   2. everyone else waits until the release flag has reached g (acquire).
// Waiters spin briefly, then yield their core to the ranks still arriving, then sleep;
// one store (plus one FUTEX_WAKE if anyone sleeps) releases them all.
#include "barrier.hpp"

#include "wait.hpp"

namespace shmpi::client {
using namespace shmpi::layout;

namespace {

bool dissemination(const SegmentView& seg, std::uint32_t rank) {
  const std::uint32_t n = seg.nranks();
  RankSlot& me = seg.slot(rank);
  const auto e = static_cast<std::uint32_t>(me.barriers_entered.load(std::memory_order_relaxed));
  for (std::uint32_t k = 0, dist = 1; dist < n; ++k, dist <<= 1) {
    post_flag(me.barrier_round[k], e);
    // (rank - dist) mod n without a division: the waiter's first load of the partner's
    // line depended on a divl right after the post (~10 ns at 2 ranks, a fifth of the
    // bare flag barrier).
    RankSlot& from = seg.slot(rank >= dist ? rank - dist : rank + n - dist);
    if (!wait_flag(from.barrier_round[k], e, &me.barrier_round[k], AssumeCoreNeeded{}, g_wait.coll_spin_limit)) return false;
  }
  return true;
}

bool central(const SegmentView& seg, RankSlot& me, const CoreMates& mates) {
  JobHeader& h = seg.header();
  const std::uint64_t n = seg.nranks();
  const std::uint64_t t = h.barrier_arrivals.fetch_add(1, std::memory_order_acq_rel);
  const std::uint64_t mine = me.barriers_entered.load(std::memory_order_relaxed);
  me.barriers_arrived.store(mine, std::memory_order_release);
  const auto g = static_cast<std::uint32_t>(t / n + 1);
  if (t % n == n - 1) {
    signal_flag(h.barrier_release, g);
    return true;
  }
  // Yield only while a rank on this core has not taken its ticket: once all of them
  // wait, the missing arrivals are on other cores and a yield would just switch
  // between waiters (8 ranks on 2 cores: 7.2-7.6 us instead of 7.6-7.9 us per barrier,
  // against a context-switch floor of 5.1-5.3 us in the same runs).
  auto core_needed = [&] {
    if (!mates.known) return true;
    for (const RankSlot* m : mates.slots) {
      if (m->barriers_arrived.load(std::memory_order_acquire) < mine) return true;
    }
    return false;
  };
  return wait_flag(h.barrier_release, g, nullptr, core_needed, g_wait.coll_spin_limit);
}

}  // namespace

bool world_barrier(const SegmentView& seg, std::uint32_t rank, BarrierAlgo algo, const CoreMates& mates) {
  RankSlot& me = seg.slot(rank);
  // Single writer: plain load + store, no locked instruction on the fast path.
  me.barriers_entered.store(me.barriers_entered.load(std::memory_order_relaxed) + 1,
                            std::memory_order_relaxed);
  me.waiting_in.store(static_cast<std::uint32_t>(WaitKind::barrier), std::memory_order_relaxed);
  const bool ok = algo == BarrierAlgo::central ? central(seg, me, mates) : dissemination(seg, rank);
  me.waiting_in.store(static_cast<std::uint32_t>(WaitKind::none), std::memory_order_relaxed);
  if (ok) {
    me.barriers_completed.store(me.barriers_completed.load(std::memory_order_relaxed) + 1,
                                std::memory_order_relaxed);
  }
  return ok;
}

}  // namespace shmpi::client
