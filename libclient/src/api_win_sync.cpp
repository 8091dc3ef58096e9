// RMA synchronization (MPI-4.1 13.5): fence, passive target (lock, lock_all, flush,
// sync) and PSCW (post, start, complete, wait, test).
//
// Every RMA call completes at the origin and at the target before it returns (stores
// into shared memory or process_vm_writev), so epochs close without moving data: fence
// is a barrier, unlock releases the lock word, complete bumps counters. Lock words live
// in the window's control block (shm_layout/window.hpp); docs/rma-atomicity.md has the
// protocol and its model check.
#include <algorithm>
#include <atomic>

#include "api.hpp"
#include "coll/collectives.hpp"
#include "barrier.hpp"
#include "group/group.hpp"
#include "rma/window.hpp"
#include "wait.hpp"

using namespace shmpi::client;
namespace layout = shmpi::layout;

namespace {

constexpr std::uint64_t kExclusiveOne = std::uint64_t{1} << 32;
constexpr std::uint64_t kLow = 0xffffffffull;

std::string str(long long v) { return std::to_string(v); }

WinObj* sync_win(MPI_Win win, const char* call, int& rc) {
  if (!initialized()) {
    rc = not_initialized(call);
    return nullptr;
  }
  WinObj* w = to_win(win);
  if (w == nullptr) {
    rc = raise(nullptr, MPI_ERR_WIN, std::string(call) + ": win is " + (win == MPI_WIN_NULL ? "MPI_WIN_NULL" : "not a valid window"));
  }
  return w;
}

bool bad_assert(WinObj* w, int assert_, int allowed, const char* call, int& rc) {
  if ((assert_ & ~allowed) == 0) return false;
  rc = raise_win(w, MPI_ERR_ASSERT, std::string(call) + ": assert " + str(assert_) + " has bits this call does not accept");
  return true;
}

// Makes this process's earlier stores visible before the synchronization that follows
// (x86 stores are ordered; an RMW is a full barrier that TSan also understands).
void full_barrier() {
  static std::atomic<int> word{0};
  word.fetch_add(1, std::memory_order_seq_cst);
}

void bump(layout::Flag& f) {
  f.value.fetch_add(1, std::memory_order_seq_cst);
  if (f.sleepers.load(std::memory_order_seq_cst) != 0) shmpi::futex_wake_all(&f.value);
}

// Waits until try_acquire() succeeds, sleeping on the generation flag `gen` between
// attempts. False if the job aborted.
template <class Try>
bool acquire(layout::Flag& gen, Try try_acquire) {
  for (;;) {
    const std::uint32_t g = gen.value.load(std::memory_order_seq_cst);
    if (try_acquire()) return true;
    if (!wait_flag(gen, g + 1)) return false;
  }
}

// Adds `delta` to `word` if allowed(value) holds, retrying while only the value changed
// under it: a CAS lost to another shared locker's increment must not count as "taken",
// since that locker bumps no release flag until it unlocks (a waiter would sleep until
// then, and deadlock if the holder then waits for it, e.g. in a fence).
template <class Allowed>
bool add_while(std::atomic<std::uint64_t>& word, std::uint64_t delta, Allowed allowed) {
  std::uint64_t v = word.load(std::memory_order_relaxed);
  while (allowed(v)) {
    if (word.compare_exchange_weak(v, v + delta, std::memory_order_acquire, std::memory_order_relaxed)) return true;
  }
  return false;
}

bool comm_barrier(WinObj* w) {
  std::string why;
  return coll::barrier(w->comm, why) == MPI_SUCCESS;
}

int aborted(WinObj* w, const char* call) {
  return raise_win(w, MPI_ERR_PROC_ABORTED, std::string(call) + ": job aborted: " + abort_reason());
}

bool in_passive(const WinObj* w) { return w->lock_all != 0 || w->locks_held != 0; }

// A fence without MPI_MODE_NOSUCCEED opens an epoch only if RMA calls follow it
// (MPI-4.1 13.5.1): another kind of epoch may start after it as long as none did.
bool fence_epoch_in_use(WinObj* w) {
  if (w->fence_open && !w->fence_used) w->fence_open = false;
  return w->fence_open;
}

}  // namespace

extern "C" {

int PMPI_Win_fence(int assert_, MPI_Win win) {
  constexpr const char* call = "MPI_Win_fence";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (bad_assert(w, assert_, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, call, rc)) return rc;
  if (in_passive(w) || w->start_group != nullptr || w->post_group != nullptr) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": the window is in a lock or PSCW epoch");
  }
  full_barrier();
  // Even with MPI_MODE_NOPRECEDE the fence separates the local stores before it from the
  // remote accesses after it, so it is always a barrier.
  if (!comm_barrier(w)) return aborted(w, call);
  w->fence_open = (assert_ & MPI_MODE_NOSUCCEED) == 0;
  w->fence_used = false;
  w->publish_epoch();
  return MPI_SUCCESS;
}

int PMPI_Win_lock(int lock_type, int rank, int assert_, MPI_Win win) {
  constexpr const char* call = "MPI_Win_lock";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) {
    return raise_win(w, MPI_ERR_LOCKTYPE, std::string(call) + ": lock_type " + str(lock_type) + " is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE");
  }
  if (bad_assert(w, assert_, MPI_MODE_NOCHECK, call, rc)) return rc;
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (rank < 0 || rank >= w->size) {
    return raise_win(w, MPI_ERR_RANK, std::string(call) + ": rank " + str(rank) + " is not in the window's group (size " + str(w->size) + ")");
  }
  const auto t = static_cast<std::size_t>(rank);
  if (w->held[t] != HeldLock::none || w->lock_all != 0) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": this process already holds a lock on target " + str(rank) +
                                              (w->lock_all ? " (MPI_Win_lock_all)" : ""));
  }
  if (fence_epoch_in_use(w) || w->start_group != nullptr) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": the window is in a fence or PSCW access epoch");
  }
  const bool excl = lock_type == MPI_LOCK_EXCLUSIVE;
  if ((assert_ & MPI_MODE_NOCHECK) != 0) {
    w->held[t] = excl ? HeldLock::exclusive_nocheck : HeldLock::shared_nocheck;
  } else {
    layout::WinRank& tr = w->slot(rank);
    layout::WinHeader& h = *w->hdr;
    bool ok;
    if (excl) {
      // Register as an exclusive locker once no lock_all holder remains, try the target's
      // word once, and if it is taken, withdraw the registration before waiting: holding
      // it while waiting would block lock_all callers that conflict with nothing held,
      // which can deadlock a correct program (docs/rma-atomicity.md, model B-msg).
      const std::uint64_t mine = static_cast<std::uint64_t>(w->rank + 1) << 32;
      ok = true;
      for (bool done = false; ok && !done;) {
        ok = acquire(h.all_release, [&] {
          return add_while(h.all_locks, kExclusiveOne, [](std::uint64_t v) { return (v & kLow) == 0; });
        });
        if (!ok) break;
        std::uint64_t free = 0;
        if (tr.lock.compare_exchange_strong(free, mine, std::memory_order_acquire)) {
          done = true;
          break;
        }
        h.all_locks.fetch_sub(kExclusiveOne, std::memory_order_release);
        bump(h.all_release);
        ok = acquire(tr.lock_release, [&] { return tr.lock.load(std::memory_order_acquire) == 0; });
      }
    } else {
      ok = acquire(tr.lock_release, [&] {
        return add_while(tr.lock, 1, [](std::uint64_t v) { return (v >> 32) == 0; });
      });
    }
    if (!ok) return aborted(w, call);
    w->held[t] = excl ? HeldLock::exclusive : HeldLock::shared;
    auto& cnt = excl ? w->me().locks_exclusive : w->me().locks_shared;
    cnt.store(cnt.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  ++w->locks_held;
  w->publish_epoch();
  return MPI_SUCCESS;
}

int PMPI_Win_unlock(int rank, MPI_Win win) {
  constexpr const char* call = "MPI_Win_unlock";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (rank < 0 || rank >= w->size) {
    return raise_win(w, MPI_ERR_RANK, std::string(call) + ": rank " + str(rank) + " is not in the window's group (size " + str(w->size) + ")");
  }
  const auto t = static_cast<std::size_t>(rank);
  const HeldLock h = w->held[t];
  if (h == HeldLock::none) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": this process holds no lock on target " + str(rank));
  }
  full_barrier();  // the epoch's stores are complete at the target before the release
  layout::WinRank& tr = w->slot(rank);
  if (h == HeldLock::exclusive) {
    tr.lock.store(0, std::memory_order_release);
    bump(tr.lock_release);
    w->hdr->all_locks.fetch_sub(kExclusiveOne, std::memory_order_release);
    bump(w->hdr->all_release);
    w->me().locks_exclusive.fetch_sub(1, std::memory_order_relaxed);
  } else if (h == HeldLock::shared) {
    tr.lock.fetch_sub(1, std::memory_order_release);
    bump(tr.lock_release);
    w->me().locks_shared.fetch_sub(1, std::memory_order_relaxed);
  }
  w->held[t] = HeldLock::none;
  --w->locks_held;
  w->publish_epoch();
  return MPI_SUCCESS;
}

int PMPI_Win_lock_all(int assert_, MPI_Win win) {
  constexpr const char* call = "MPI_Win_lock_all";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (bad_assert(w, assert_, MPI_MODE_NOCHECK, call, rc)) return rc;
  if (in_passive(w) || fence_epoch_in_use(w) || w->start_group != nullptr) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": the window is already in an access epoch of this process");
  }
  if ((assert_ & MPI_MODE_NOCHECK) != 0) {
    w->lock_all = 2;
  } else {
    layout::WinHeader& h = *w->hdr;
    // O(1): one word for the whole window, whatever the number of targets.
    const bool ok = acquire(h.all_release, [&] {
      return add_while(h.all_locks, 1, [](std::uint64_t v) { return (v >> 32) == 0; });
    });
    if (!ok) return aborted(w, call);
    w->lock_all = 1;
  }
  w->publish_epoch();
  return MPI_SUCCESS;
}

int PMPI_Win_unlock_all(MPI_Win win) {
  constexpr const char* call = "MPI_Win_unlock_all";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (w->lock_all == 0) return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": no MPI_Win_lock_all epoch is open");
  full_barrier();
  if (w->lock_all == 1) {
    w->hdr->all_locks.fetch_sub(1, std::memory_order_release);
    bump(w->hdr->all_release);
  }
  w->lock_all = 0;
  w->publish_epoch();
  return MPI_SUCCESS;
}

// Flushes: every RMA call is complete at the target when it returns; a flush only has
// to order this process's stores (and check the epoch, MPI-4.1 13.5.4).
static int flush(MPI_Win win, int rank, bool one, const char* call) {
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (one && rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size)) {
    return raise_win(w, MPI_ERR_RANK, std::string(call) + ": rank " + str(rank) + " is not in the window's group (size " + str(w->size) + ")");
  }
  const bool ok = w->lock_all != 0 || (one ? (rank == MPI_PROC_NULL || w->held[static_cast<std::size_t>(rank)] != HeldLock::none) : w->locks_held != 0);
  if (!ok) return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": only valid inside a passive-target epoch (MPI_Win_lock / MPI_Win_lock_all)");
  if (w->unfenced) {
    full_barrier();
    w->unfenced = false;
  }
  return MPI_SUCCESS;
}

int PMPI_Win_flush(int rank, MPI_Win win) { return flush(win, rank, true, "MPI_Win_flush"); }
int PMPI_Win_flush_local(int rank, MPI_Win win) { return flush(win, rank, true, "MPI_Win_flush_local"); }
int PMPI_Win_flush_all(MPI_Win win) { return flush(win, 0, false, "MPI_Win_flush_all"); }
int PMPI_Win_flush_local_all(MPI_Win win) { return flush(win, 0, false, "MPI_Win_flush_local_all"); }

int PMPI_Win_sync(MPI_Win win) {
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, "MPI_Win_sync", rc);
  if (w == nullptr) return rc;
  full_barrier();  // unified model: public and private copies are the same memory
  return MPI_SUCCESS;
}

// ---- PSCW ----------------------------------------------------------------------------
// post[t][o] counts the exposure epochs t opened to o; done[t][o] the access epochs o
// closed at t. Both only grow; each side remembers how many it consumed.

static bool group_to_comm_ranks(WinObj* w, GroupObj* g, std::vector<int>& out, const char* call, int& rc) {
  out.clear();
  for (int world : g->world) {
    const std::vector<int>& members = w->comm->world_of;
    const int r = static_cast<int>(std::find(members.begin(), members.end(), world) - members.begin());
    if (r < 0 || r >= w->size) {
      rc = raise_win(w, MPI_ERR_GROUP, std::string(call) + ": the group holds world rank " + str(world) + ", which is not in the window's group");
      return false;
    }
    out.push_back(r);
  }
  return true;
}

static GroupObj* group_arg(WinObj* w, MPI_Group group, const char* call, int& rc) {
  GroupObj* g = to_group(group);
  if (g == nullptr) rc = raise_win(w, MPI_ERR_GROUP, std::string(call) + ": group is " + (group == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "not a valid group"));
  return g;
}

int PMPI_Win_post(MPI_Group group, int assert_, MPI_Win win) {
  constexpr const char* call = "MPI_Win_post";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (bad_assert(w, assert_, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, call, rc)) return rc;
  GroupObj* g = group_arg(w, group, call, rc);
  if (g == nullptr) return rc;
  if (w->post_group != nullptr || fence_epoch_in_use(w)) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": an exposure epoch is already open on this window");
  }
  std::vector<int> origins;
  if (!group_to_comm_ranks(w, g, origins, call, rc)) return rc;
  full_barrier();
  for (int o : origins) {
    std::atomic<std::uint32_t>& word = w->post_word(w->rank, o);
    word.store(word.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    bump(w->slot(o).doorbell);
  }
  retain(g);
  w->post_group = g;
  w->post_origins = std::move(origins);
  w->publish_epoch();
  return MPI_SUCCESS;
}

int PMPI_Win_start(MPI_Group group, int assert_, MPI_Win win) {
  constexpr const char* call = "MPI_Win_start";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (bad_assert(w, assert_, MPI_MODE_NOCHECK, call, rc)) return rc;
  GroupObj* g = group_arg(w, group, call, rc);
  if (g == nullptr) return rc;
  if (w->start_group != nullptr || fence_epoch_in_use(w) || in_passive(w)) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": an access epoch is already open on this window");
  }
  std::vector<int> targets;
  if (!group_to_comm_ranks(w, g, targets, call, rc)) return rc;
  // Wait for each target's matching post (also with MPI_MODE_NOCHECK we consume it when
  // it comes, so the counters stay matched; NOCHECK promises it has already happened).
  layout::Flag& bell = w->me().doorbell;
  for (int t : targets) {
    const std::uint32_t want = ++w->post_seen[static_cast<std::size_t>(t)];
    std::atomic<std::uint32_t>& word = w->post_word(t, w->rank);
    for (;;) {
      const std::uint32_t g0 = bell.value.load(std::memory_order_seq_cst);
      if (reached(word.load(std::memory_order_acquire), want)) break;
      if (!wait_flag(bell, g0 + 1)) return aborted(w, call);
    }
  }
  retain(g);
  w->start_group = g;
  for (int t : targets) w->in_start[static_cast<std::size_t>(t)] = 1;
  w->start_targets = std::move(targets);
  w->publish_epoch();
  return MPI_SUCCESS;
}

int PMPI_Win_complete(MPI_Win win) {
  constexpr const char* call = "MPI_Win_complete";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (w->start_group == nullptr) return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": no access epoch was started (MPI_Win_start)");
  full_barrier();
  for (int t : w->start_targets) {
    std::atomic<std::uint32_t>& word = w->done_word(t, w->rank);
    word.store(word.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    bump(w->slot(t).doorbell);
    w->in_start[static_cast<std::size_t>(t)] = 0;
  }
  release(w->start_group);
  w->start_group = nullptr;
  w->start_targets.clear();
  w->publish_epoch();
  return MPI_SUCCESS;
}

static bool exposure_done(WinObj* w) {
  for (int o : w->post_origins) {
    if (!reached(w->done_word(w->rank, o).load(std::memory_order_acquire), w->done_seen[static_cast<std::size_t>(o)] + 1)) return false;
  }
  return true;
}

static void close_exposure(WinObj* w) {
  for (int o : w->post_origins) ++w->done_seen[static_cast<std::size_t>(o)];
  release(w->post_group);
  w->post_group = nullptr;
  w->post_origins.clear();
  w->publish_epoch();
}

int PMPI_Win_wait(MPI_Win win) {
  constexpr const char* call = "MPI_Win_wait";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (w->post_group == nullptr) return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": no exposure epoch was posted (MPI_Win_post)");
  layout::Flag& bell = w->me().doorbell;
  for (;;) {
    const std::uint32_t g0 = bell.value.load(std::memory_order_seq_cst);
    if (exposure_done(w)) break;
    if (!wait_flag(bell, g0 + 1)) return aborted(w, call);
  }
  close_exposure(w);
  return MPI_SUCCESS;
}

int PMPI_Win_test(MPI_Win win, int* flag) {
  constexpr const char* call = "MPI_Win_test";
  int rc = MPI_SUCCESS;
  WinObj* w = sync_win(win, call, rc);
  if (w == nullptr) return rc;
  if (flag == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": flag is NULL");
  if (w->post_group == nullptr) return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": no exposure epoch was posted (MPI_Win_post)");
  *flag = exposure_done(w) ? 1 : 0;
  if (*flag) close_exposure(w);
  else if (job_aborted()) return aborted(w, call);
  return MPI_SUCCESS;
}

}  // extern "C"

SHMPI_PMPI_ALIAS(int, MPI_Win_fence, (int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_lock, (int, int, int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_unlock, (int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_lock_all, (int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_unlock_all, (MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_flush, (int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_flush_local, (int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_flush_all, (MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_flush_local_all, (MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_sync, (MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_post, (MPI_Group, int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_start, (MPI_Group, int, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_complete, (MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_wait, (MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Win_test, (MPI_Win, int*))
