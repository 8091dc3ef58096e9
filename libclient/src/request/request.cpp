#include "request/request.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "errors.hpp"
#include "shmpi_common/futex.hpp"
#include "types/status.hpp"
#include "wait.hpp"

namespace shmpi::client {
namespace {

// Live requests. Lookups are one uncontended lock and a hash probe (no allocation).
// The lock also orders MPI_Grequest_complete (possibly on another thread) against the
// calls that destroy a request: whoever comes second under the lock destroys it.
// A test-and-set lock rather than std::mutex: one locked instruction per lookup instead
// of two plus a library call (MPI_Wait and the start of every nonblocking call take
// it); holders never block, and another thread (MPI_Grequest_complete) is rare.
class SpinLock {
 public:
  void lock() {
    while (held_.exchange(true, std::memory_order_acquire)) {
      while (held_.load(std::memory_order_relaxed)) sched_yield();
    }
  }
  void unlock() { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};
SpinLock g_mutex;
// The live requests: open addressing with linear probing over a power-of-two table,
// at most half full (it doubles), deletion by backward shift. Unlike a node-based set,
// registering and retiring a request allocates nothing once the table has grown.
class LiveSet {
 public:
  std::size_t count(RequestObj* p) const {
    for (std::size_t i = home(p);; i = (i + 1) & mask_) {
      if (t_[i] == p) return 1;
      if (t_[i] == nullptr) return 0;
    }
  }
  void insert(RequestObj* p) {
    if (2 * (n_ + 1) > t_.size()) grow();
    std::size_t i = home(p);
    while (t_[i] != nullptr && t_[i] != p) i = (i + 1) & mask_;
    if (t_[i] == nullptr) {
      t_[i] = p;
      ++n_;
    }
  }
  void erase(RequestObj* p) {
    std::size_t i = home(p);
    while (t_[i] != p) {
      if (t_[i] == nullptr) return;
      i = (i + 1) & mask_;
    }
    t_[i] = nullptr;
    --n_;
    // Close the gap: move back every later entry of the run whose home is not in (i, j].
    for (std::size_t j = (i + 1) & mask_; t_[j] != nullptr; j = (j + 1) & mask_) {
      const std::size_t k = home(t_[j]);
      const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (stays) continue;
      t_[i] = t_[j];
      t_[j] = nullptr;
      i = j;
    }
  }

 private:
  std::size_t home(RequestObj* p) const {
    auto x = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return static_cast<std::size_t>(x) & mask_;
  }
  void grow() {
    std::vector<RequestObj*> old(t_.size() * 2, nullptr);
    old.swap(t_);
    mask_ = t_.size() - 1;
    n_ = 0;
    for (RequestObj* p : old) {
      if (p != nullptr) insert(p);
    }
  }
  std::vector<RequestObj*> t_ = std::vector<RequestObj*>(64, nullptr);
  std::size_t mask_ = 63;
  std::size_t n_ = 0;
};
LiveSet g_live;
// User-freed, incomplete requests of the polled kinds (generalized ones are destroyed
// by MPI_Grequest_complete instead). g_detached_count lets the completion calls skip
// the lock when there are none.
std::vector<RequestObj*> g_detached;
std::atomic<std::size_t> g_detached_count{0};

// Bumped by every complete_request(); completion calls with nothing to poll sleep on it.
std::atomic<std::uint32_t> g_generation{0};
std::atomic<std::uint32_t> g_sleepers{0};

// Sched_yield rounds before sleeping when the rank has a core of its own (the
// oversubscribed budget, g_wait.yield_limit, is larger): a completion from another
// thread of this process most likely needs this core.
constexpr std::uint32_t kMinYields = 64;
constexpr long kMaxSleepNs = 1'000'000;

std::uint32_t g_mark = 0;

// Destroys an unregistered request: free_fn first for a generalized one.
int destroy(RequestObj* r) {
  int rc = MPI_SUCCESS;
  if (r->kind == RequestObj::Kind::generalized && r->free_fn != nullptr) rc = r->free_fn(r->extra_state);
  r->dispose();
  return rc;
}

}  // namespace

std::atomic<RequestObj*> g_preset{nullptr};

RequestObj* to_request(MPI_Request r) {
  if (r == MPI_REQUEST_NULL) return nullptr;
  auto* p = reinterpret_cast<RequestObj*>(r);
  if (is_preset(r)) return p;
  std::lock_guard<SpinLock> lock(g_mutex);
  return g_live.count(p) != 0 && !p->user_freed ? p : nullptr;
}

RequestObj* to_request_any(MPI_Request r) {
  if (r == MPI_REQUEST_NULL) return nullptr;
  auto* p = reinterpret_cast<RequestObj*>(r);
  std::lock_guard<SpinLock> lock(g_mutex);
  return g_live.count(p) != 0 ? p : nullptr;
}

int first_invalid_request(int count, const MPI_Request reqs[]) {
  std::lock_guard<SpinLock> lock(g_mutex);
  for (int i = 0; i < count; ++i) {
    if (reqs[i] == MPI_REQUEST_NULL) continue;
    auto* p = reinterpret_cast<RequestObj*>(reqs[i]);
    if (g_live.count(p) == 0 || p->user_freed) return i;
  }
  return -1;
}

MPI_Request new_request_handle(RequestObj* r) {
  std::lock_guard<SpinLock> lock(g_mutex);
  g_live.insert(r);
  return reinterpret_cast<MPI_Request>(r);
}

MPI_Request new_preset_handle(RequestObj* r) {
  r->preset = true;
  r->complete.store(true, std::memory_order_relaxed);
  const MPI_Request h = new_request_handle(r);
  g_preset.store(r, std::memory_order_relaxed);
  return h;
}

MPI_Request new_completed_request(RequestObj::Kind kind, const MPI_Status& st) {
  auto* r = new RequestObj(kind);
  r->status = st;
  r->complete.store(true, std::memory_order_relaxed);
  return new_request_handle(r);
}

int complete_request(RequestObj* r) {
  bool doomed = false;
  {
    std::lock_guard<SpinLock> lock(g_mutex);
    r->complete.store(true, std::memory_order_release);
    if (r->user_freed) {
      doomed = true;
      g_live.erase(r);
      auto it = std::find(g_detached.begin(), g_detached.end(), r);
      if (it != g_detached.end()) {
        g_detached.erase(it);
        g_detached_count.store(g_detached.size(), std::memory_order_relaxed);
      }
    }
  }
  // Once the lock is released a waiter may destroy r: from here on only globals.
  // Dekker with Backoff::pause: the waiter increments g_sleepers before its futex wait
  // compares the generation; one of us sees the other (both RMWs are totally ordered).
  g_generation.fetch_add(1, std::memory_order_seq_cst);
  if (g_sleepers.fetch_add(0, std::memory_order_seq_cst) != 0) futex_wake_all(&g_generation);
  return doomed ? destroy(r) : MPI_SUCCESS;
}

void reap_detached_requests() {
  if (g_detached_count.load(std::memory_order_relaxed) == 0) return;
  std::vector<RequestObj*> pending;
  {
    std::lock_guard<SpinLock> lock(g_mutex);
    pending.swap(g_detached);
    g_detached_count.store(0, std::memory_order_relaxed);
  }
  std::vector<RequestObj*> keep;
  for (RequestObj* r : pending) {
    if (request_done(r)) {
      {
        std::lock_guard<SpinLock> lock(g_mutex);
        g_live.erase(r);
      }
      destroy(r);
    } else {
      keep.push_back(r);
    }
  }
  if (keep.empty()) return;
  std::lock_guard<SpinLock> lock(g_mutex);
  g_detached.insert(g_detached.end(), keep.begin(), keep.end());
  g_detached_count.store(g_detached.size(), std::memory_order_relaxed);
}

void set_empty_status(MPI_Status& s) {
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  types::set_status_bytes(s, 0);
  s.MPI_internal[2] = 0;
  s.MPI_internal[3] = 0;
  s.MPI_internal[4] = 0;
}

int query_request(RequestObj* r) {
  if (r->kind != RequestObj::Kind::generalized) return r->status.MPI_ERROR;
  set_empty_status(r->status);
  r->status.MPI_ERROR = MPI_SUCCESS;
  const int rc = r->query_fn != nullptr ? r->query_fn(r->extra_state, &r->status) : MPI_SUCCESS;
  return rc != MPI_SUCCESS ? rc : r->status.MPI_ERROR;
}

int retire_request(RequestObj* r) {
  if (r->preset) return MPI_SUCCESS;
  if (r->persistent) {
    r->active = false;
    return MPI_SUCCESS;
  }
  {
    std::lock_guard<SpinLock> lock(g_mutex);
    g_live.erase(r);
  }
  return destroy(r);
}

int free_request(RequestObj* r) {
  // A polled kind gets one last chance to report completion, outside the lock.
  if (r->kind != RequestObj::Kind::generalized) (void)request_done(r);
  {
    std::lock_guard<SpinLock> lock(g_mutex);
    const bool finished = r->complete.load(std::memory_order_acquire) || (r->persistent && !r->active);
    if (!finished) {
      // MPI-4.1 13.4.1: a generalized request is destroyed (free_fn called) in
      // MPI_Grequest_complete, whichever of the two comes last.
      r->user_freed = true;
      if (r->kind != RequestObj::Kind::generalized) {
        g_detached.push_back(r);
        g_detached_count.store(g_detached.size(), std::memory_order_relaxed);
      }
      return MPI_SUCCESS;
    }
    g_live.erase(r);
  }
  return destroy(r);
}

int ErrorSink::raise(int code) const {
  if (raise_on_owner != nullptr) return raise_on_owner(owner, code);
  return invoke_errhandler(nullptr, code);
}

void (*g_polled_sleep)(long timeout_ns) = nullptr;
std::uint64_t g_engine_events = 0;

std::uint32_t Backoff::generation() { return g_generation.load(std::memory_order_seq_cst); }

void Backoff::pause(std::uint32_t seen_generation, bool polled_pending, bool collective) {
  if (g_engine_events != events_) {  // the engine is moving: keep up with it
    events_ = g_engine_events;
    spins_ = yields_ = 0;
    sleep_ns_ = 10'000;
  }
  if (spins_ < (collective ? g_wait.coll_spin_limit : g_wait.spin_limit)) {
    ++spins_;
    cpu_relax();
    return;
  }
  if (yields_ < std::max(g_wait.yield_limit, kMinYields)) {
    ++yields_;
    sched_yield();
    return;
  }
  if (!polled_pending) {
    // Only complete_request() can end this wait: sleep until it bumps the generation.
    // The bound keeps the abort word read (the broker's abort wake targets in-segment
    // words only).
    g_sleepers.fetch_add(1, std::memory_order_seq_cst);
    futex_wait(&g_generation, seen_generation, kSleepSliceNs);
    g_sleepers.fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  if (g_polled_sleep != nullptr) {
    g_polled_sleep(sleep_ns_);
  } else {
    timespec ts{0, sleep_ns_};
    nanosleep(&ts, nullptr);
  }
  sleep_ns_ = std::min(sleep_ns_ * 2, kMaxSleepNs);
}

std::uint32_t next_mark() {
  if (++g_mark == 0) ++g_mark;
  return g_mark;
}

}  // namespace shmpi::client
