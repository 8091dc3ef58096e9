#include "rma/data_path.hpp"

#include <sched.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "copy_bytes.hpp"
#include "rma/elem_atomic.hpp"
#include "runtime.hpp"
#include "shmpi_common/futex.hpp"
#include "types/pack.hpp"
#include "wait.hpp"

namespace shmpi::client::rma {
namespace {

// ---- addressing -------------------------------------------------------------------

bool direct_to(const WinObj& w, int t) { return w.targets[static_cast<std::size_t>(t)].local != nullptr; }
bool shared_target(const WinObj& w, int t) { return w.targets[static_cast<std::size_t>(t)].shared; }

// The target's byte at window offset `off` in our address space (direct targets only).
std::byte* at(const WinObj& w, int t, std::int64_t off) {
  const WinTarget& d = w.targets[static_cast<std::size_t>(t)];
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(d.local) + static_cast<std::uintptr_t>(off));
}
std::uint64_t remote_at(const WinObj& w, int t, std::int64_t off) {
  return w.targets[static_cast<std::size_t>(t)].remote + static_cast<std::uint64_t>(off);
}

// ---- streams: an origin/result buffer seen as contiguous bytes ----------------------

MPI_Count stream_bytes(const Side& s) { return s.count * s.type->size; }

// The origin's bytes in type-map order: the buffer itself when contiguous, else packed
// into `staging` (grown once, reused).
const std::byte* origin_stream(const Side& s, std::vector<std::byte>& staging) {
  if (s.addr == nullptr || s.count == 0) return s.addr;
  if (s.type->contiguous()) return s.addr + s.type->lb;
  const auto n = static_cast<std::size_t>(stream_bytes(s));
  if (staging.size() < n) staging.resize(n);
  types::pack(*s.type, *s.flat, s.addr, s.count, staging.data());
  return staging.data();
}
// Where to write a result stream: the buffer when contiguous, else staging (then unpack).
std::byte* result_stream(const Side& s, std::vector<std::byte>& staging) {
  if (s.count == 0) return s.addr;
  if (s.type->contiguous()) return s.addr + s.type->lb;
  const auto n = static_cast<std::size_t>(stream_bytes(s));
  if (staging.size() < n) staging.resize(n);
  return staging.data();
}
void finish_result(const Side& s, const std::byte* stream) {
  if (s.count != 0 && !s.type->contiguous()) types::unpack(*s.type, *s.flat, stream, s.count, s.addr);
}

// Calls f(target_off, stream_off, len) for each contiguous run of the target side, in
// type-map order; target_off is relative to the window base.
template <class F>
void target_runs(const Side& t, F&& f) {
  const std::int64_t base = reinterpret_cast<std::intptr_t>(t.addr);
  if (t.count == 0) return;
  if (t.type->contiguous()) {
    f(base + t.type->lb, std::int64_t{0}, static_cast<std::int64_t>(t.count * t.type->size));
    return;
  }
  std::int64_t stream = 0;
  const std::int64_t ext = t.type->extent();
  for (MPI_Count e = 0; e < t.count; ++e) {
    for (const types::Block& b : t.flat->blocks) {
      if (b.length == 0) continue;
      f(base + e * ext + b.offset, stream, static_cast<std::int64_t>(b.length));
      stream += b.length;
    }
  }
}

// ---- process_vm_readv/writev batches -------------------------------------------------

class Cma {
 public:
  Cma(pid_t pid, bool write) : pid_(pid), write_(write) {}
  bool add(void* local, std::uint64_t remote, std::size_t len) {
    if (len == 0) return true;
    l_[n_] = {local, len};
    r_[n_] = {reinterpret_cast<void*>(remote), len};
    bytes_ += len;
    if (++n_ == kBatch) return flush();
    return true;
  }
  bool flush() {
    std::size_t i = 0;
    while (i < n_) {
      // A partial transfer resumes where it stopped (the kernel may stop at a page).
      const ssize_t got = write_ ? process_vm_writev(pid_, l_ + i, n_ - i, r_ + i, n_ - i, 0)
                                 : process_vm_readv(pid_, l_ + i, n_ - i, r_ + i, n_ - i, 0);
      if (got <= 0) {
        errno_ = got < 0 ? errno : EFAULT;
        n_ = 0;
        return false;
      }
      std::size_t left = static_cast<std::size_t>(got);
      while (i < n_ && left >= l_[i].iov_len) left -= l_[i++].iov_len;
      if (left > 0) {
        l_[i].iov_base = static_cast<char*>(l_[i].iov_base) + left;
        l_[i].iov_len -= left;
        r_[i].iov_base = static_cast<char*>(r_[i].iov_base) + left;
        r_[i].iov_len -= left;
      }
    }
    n_ = 0;
    return true;
  }
  int error() const { return errno_; }

 private:
  static constexpr std::size_t kBatch = 64;
  pid_t pid_;
  bool write_;
  iovec l_[kBatch];
  iovec r_[kBatch];
  std::size_t n_ = 0;
  std::size_t bytes_ = 0;
  int errno_ = 0;
};

// A failed cross-memory access; a target whose process is gone is the job's abort.
int cma_failure(int err, const std::string& what, std::string& why) {
  if (await_abort_after_peer_loss(err)) {
    why = "the target's process is gone; job aborted: " + abort_reason();
    return MPI_ERR_PROC_ABORTED;
  }
  why = what + " failed: " + std::strerror(err);
  return MPI_ERR_OTHER;
}

int cma_error(const Cma& c, std::string& why, const char* what) { return cma_failure(c.error(), what, why); }

// ---- waits inside the accumulate protocol -------------------------------------------

// Spins, then yields (8 ranks on 2 cores: the holder may need our core); watches the
// abort word so a dead holder ends in an error, not a hang.
template <class Done>
bool spin_until(Done done) {
  for (std::uint32_t i = 0;; ++i) {
    if (done()) return true;
    if ((i & 63) == 63) {
      if (job_aborted()) return false;
      sched_yield();
    } else {
      cpu_relax();
    }
  }
}

bool lock_stripe(WinObj& w, int t, std::uint32_t s) {
  std::atomic<std::uint32_t>& word = w.slot(t).stripe[s];
  const std::uint32_t me = static_cast<std::uint32_t>(w.rank) + 1;
  return spin_until([&] {
    std::uint32_t free = 0;
    return word.load(std::memory_order_relaxed) == 0 &&
           word.compare_exchange_weak(free, me, std::memory_order_acquire, std::memory_order_relaxed);
  });
}
void unlock_stripe(WinObj& w, int t, std::uint32_t s) { w.slot(t).stripe[s].store(0, std::memory_order_release); }

std::uint32_t stripe_of(const WinObj& w, std::int64_t off) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(off) / w.granularity) & (layout::kStripes - 1);
}

// Calls f(off, len) for consecutive pieces of [off, off+len), each under the stripe lock
// of its first byte. An element belongs to the stripe its first byte is in (single-
// element ops lock that one): a piece ends at the first element boundary at or after the
// granule's end, so no element is ever split (elements may be misaligned with disp_unit 1).
template <class F>
bool by_stripe(WinObj& w, int t, std::int64_t off, std::int64_t len, std::int64_t elem, F&& f) {
  while (len > 0) {
    const std::int64_t g = w.granularity;
    const std::int64_t rest = g - static_cast<std::int64_t>(static_cast<std::uint64_t>(off) % static_cast<std::uint64_t>(g));
    const std::int64_t piece = std::min(len, (rest + elem - 1) / elem * elem);
    const std::uint32_t s = stripe_of(w, off);
    if (!lock_stripe(w, t, s)) return false;
    const bool ok = f(off, piece);
    unlock_stripe(w, t, s);
    if (!ok) return false;
    off += piece;
    len -= piece;
  }
  return true;
}

// Bulk protocol, steps 1-2: raise the target's summary, then wait until no origin has a
// single-element atomic on this target in flight (docs/rma-atomicity.md).
bool begin_bulk(WinObj& w, int t) {
  w.slot(t).bulk.fetch_add(1, std::memory_order_seq_cst);
  const std::uint32_t mark = static_cast<std::uint32_t>(t) + 1;
  for (int p = 0; p < w.size; ++p) {
    if (p == w.rank) continue;
    std::atomic<std::uint32_t>& a = w.slot(p).announce;
    if (!spin_until([&] { return a.load(std::memory_order_seq_cst) != mark; })) return false;
  }
  return true;
}
void end_bulk(WinObj& w, int t) { w.slot(t).bulk.fetch_sub(1, std::memory_order_seq_cst); }

// Whether p may be accessed as an element of elem_size bytes: aligned to the largest
// power of two dividing it (at most 16; stricter than some C alignments, never looser).
bool elem_aligned(const void* p, std::size_t elem_size) {
  std::size_t a = elem_size & (~elem_size + 1);
  if (a > 16) a = 16;
  return reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

void apply(const AccSpec& acc, const std::byte* origin, std::byte* inout, std::size_t bytes) {
  if (acc.kernel == nullptr || bytes == 0) return;
  if (acc.bytes_only) {
    acc.kernel(origin, inout, bytes);
    return;
  }
  if (elem_aligned(origin, acc.elem_size) && elem_aligned(inout, acc.elem_size)) {
    acc.kernel(origin, inout, bytes / acc.elem_size);
    return;
  }
  // The kernels read and write typed elements. A byte displacement (disp_unit 1) or an
  // origin buffer can put them at any address, so run those through aligned copies
  // (fuzz_rma_coll_args: UBSan saw MPI_MAXLOC on an MPI_2INT at an odd address).
  alignas(64) std::byte a[4096], b[4096];
  const std::size_t step = sizeof a / acc.elem_size * acc.elem_size;
  const std::size_t whole = bytes / acc.elem_size * acc.elem_size;
  for (std::size_t done = 0; done < whole; done += step) {
    const std::size_t n = std::min(step, whole - done);
    std::memcpy(a, origin + done, n);
    std::memcpy(b, inout + done, n);
    acc.kernel(a, b, n / acc.elem_size);
    std::memcpy(inout + done, b, n);
  }
}

}  // namespace

int put(WinObj& w, int t, const Side& origin, const Side& tgt, std::string& why) {
  const std::byte* src = origin_stream(origin, w.staging);
  if (direct_to(w, t)) {
    target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
      copy_bytes(at(w, t, off), src + so, static_cast<std::size_t>(len));
    });
    return MPI_SUCCESS;
  }
  Cma cma(w.targets[static_cast<std::size_t>(t)].pid, true);
  bool ok = true;
  target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
    if (ok) ok = cma.add(const_cast<std::byte*>(src + so), remote_at(w, t, off), static_cast<std::size_t>(len));
  });
  if (!ok || !cma.flush()) return cma_error(cma, why, "process_vm_writev to the target");
  return MPI_SUCCESS;
}

int get(WinObj& w, int t, const Side& origin, const Side& tgt, std::string& why) {
  std::byte* dst = result_stream(origin, w.staging);
  if (direct_to(w, t)) {
    target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
      copy_bytes(dst + so, at(w, t, off), static_cast<std::size_t>(len));
    });
  } else {
    Cma cma(w.targets[static_cast<std::size_t>(t)].pid, false);
    bool ok = true;
    target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
      if (ok) ok = cma.add(dst + so, remote_at(w, t, off), static_cast<std::size_t>(len));
    });
    if (!ok || !cma.flush()) return cma_error(cma, why, "process_vm_readv from the target");
  }
  finish_result(origin, dst);
  return MPI_SUCCESS;
}

namespace {

// Pair types with padding, one pair at a time through the single-element path: unpack
// the origin's packed pair into the C struct, apply, pack the old value into the result.
int accumulate_pairs(WinObj& w, int t, const std::byte* src, std::byte* res, const Side& tgt, const AccSpec& acc,
                     std::string& why) {
  const std::int64_t ps = acc.pair_size;
  std::vector<std::int64_t>& bases = w.pair_bases;
  bases.clear();
  target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
    for (std::int64_t s = (so + ps - 1) / ps * ps; s < so + len; s += ps) bases.push_back(off + (s - so));
  });
  alignas(16) std::byte in[64];
  alignas(16) std::byte old[64];
  for (std::size_t j = 0; j < bases.size(); ++j) {
    std::memset(in, 0, sizeof in);
    std::int64_t k = static_cast<std::int64_t>(j) * ps;
    if (src != nullptr) {
      for (const types::Block& b : acc.pair->blocks) {
        copy_bytes(in + b.offset, src + k, static_cast<std::size_t>(b.length));
        k += b.length;
      }
    }
    const int rc = fetch_and_op(w, t, src != nullptr ? in : nullptr, res != nullptr ? old : nullptr,
                                static_cast<std::uint64_t>(bases[j]), acc, why);
    if (rc != MPI_SUCCESS) return rc;
    if (res != nullptr) {
      k = static_cast<std::int64_t>(j) * ps;
      for (const types::Block& b : acc.pair->blocks) {
        copy_bytes(res + k, old + b.offset, static_cast<std::size_t>(b.length));
        k += b.length;
      }
    }
  }
  return MPI_SUCCESS;
}

}  // namespace

int accumulate(WinObj& w, int t, const Side& origin, const Side* result, const Side& tgt, const AccSpec& acc,
               std::string& why) {
  const std::byte* src = acc.op == ops::OpKind::no_op ? nullptr : origin_stream(origin, w.staging);
  std::byte* res = result != nullptr ? result_stream(*result, w.staging_result) : nullptr;
  const std::int64_t total = static_cast<std::int64_t>(tgt.count * tgt.type->size);
  if (total == 0) return MPI_SUCCESS;
  if (acc.pair != nullptr) {
    const int rc = accumulate_pairs(w, t, src, res, tgt, acc, why);
    if (rc == MPI_SUCCESS && result != nullptr) finish_result(*result, res);
    return rc;
  }

  if (direct_to(w, t)) {
    // One element with a CPU atomic, on a shared window: the single-element protocol.
    if (shared_target(w, t) && total == acc.elem_size && !w.exclusive_on(t) && !acc.bytes_only) {
      std::int64_t off = -1;
      target_runs(tgt, [&](std::int64_t o, std::int64_t, std::int64_t) {
        if (off < 0) off = o;  // the element starts at its first run
      });
      if (::shmpi::rma::atomic_fn(acc.op, acc.elem) != nullptr && ::shmpi::rma::atomic_aligned(acc.elem, at(w, t, off))) {
        const int rc = fetch_and_op(w, t, src, res, static_cast<std::uint64_t>(off), acc, why);
        if (rc == MPI_SUCCESS && result != nullptr) finish_result(*result, res);
        return rc;
      }
    }
    auto run = [&](std::int64_t off, std::int64_t so, std::int64_t len) {
      std::byte* p = at(w, t, off);
      if (res != nullptr) copy_bytes(res + so, p, static_cast<std::size_t>(len));
      apply(acc, src != nullptr ? src + so : nullptr, p, static_cast<std::size_t>(len));
      return true;
    };
    if (w.exclusive_on(t)) {
      // MPI_LOCK_EXCLUSIVE: nobody else may touch the target: plain SIMD.
      target_runs(tgt, run);
    } else {
      const bool shared = shared_target(w, t);
      bool ok = !shared || begin_bulk(w, t);
      if (ok) {
        target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
          if (ok) ok = by_stripe(w, t, off, len, acc.elem_size, [&](std::int64_t o, std::int64_t l) { return run(o, so + (o - off), l); });
        });
      }
      if (shared) end_bulk(w, t);
      if (!ok) {
        why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
        return MPI_ERR_PROC_ABORTED;
      }
    }
    if (result != nullptr) finish_result(*result, res);
    return MPI_SUCCESS;
  }

  // Another rank's private memory: read, compute, write back under the stripe lock.
  const pid_t pid = w.targets[static_cast<std::size_t>(t)].pid;
  bool ok = true;
  bool aborted = false;
  int err = 0;
  target_runs(tgt, [&](std::int64_t off, std::int64_t so, std::int64_t len) {
    if (!ok) return;
    auto piece = [&](std::int64_t o, std::int64_t l) {
      const std::int64_t s = so + (o - off);
      if (w.staging_remote.size() < static_cast<std::size_t>(l)) w.staging_remote.resize(static_cast<std::size_t>(l));
      iovec li{w.staging_remote.data(), static_cast<std::size_t>(l)};
      iovec ri{reinterpret_cast<void*>(remote_at(w, t, o)), static_cast<std::size_t>(l)};
      if (process_vm_readv(pid, &li, 1, &ri, 1, 0) != l) {
        err = errno;
        return false;
      }
      if (res != nullptr) copy_bytes(res + s, w.staging_remote.data(), static_cast<std::size_t>(l));
      if (acc.op == ops::OpKind::no_op) return true;
      apply(acc, src != nullptr ? src + s : nullptr, w.staging_remote.data(), static_cast<std::size_t>(l));
      if (process_vm_writev(pid, &li, 1, &ri, 1, 0) != l) {
        err = errno;
        return false;
      }
      return true;
    };
    if (!by_stripe(w, t, off, len, acc.elem_size, piece)) {
      ok = false;
      aborted = err == 0;
    }
  });
  if (!ok) {
    if (aborted) {
      why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    return cma_failure(err, "cross-memory access to the target", why);
  }
  if (result != nullptr) finish_result(*result, res);
  return MPI_SUCCESS;
}

int fetch_and_op(WinObj& w, int t, const void* origin, void* result, std::uint64_t disp, const AccSpec& acc,
                 std::string& why) {
  const auto off = static_cast<std::int64_t>(disp);
  if (direct_to(w, t)) {
    std::byte* p = at(w, t, off);
    const ::shmpi::rma::AtomicFn fn = shared_target(w, t) && !acc.bytes_only ? ::shmpi::rma::atomic_fn(acc.op, acc.elem) : nullptr;
    if (w.exclusive_on(t)) {
      if (result != nullptr) std::memcpy(result, p, acc.elem_size);
      apply(acc, static_cast<const std::byte*>(origin), p, acc.elem_size);
      return MPI_SUCCESS;
    }
    if (fn != nullptr && ::shmpi::rma::atomic_aligned(acc.elem, p)) {
      // Single-element protocol: announce (seq_cst: the store must not pass the load of
      // the summary below), then the CPU atomic unless a bulk accumulate is running.
      std::atomic<std::uint32_t>& announce = w.me().announce;
      layout::WinRank& target = w.slot(t);
      // Precheck (docs/rma-atomicity.md): while a bulk op runs, skip the announce, so a
      // stream of single ops cannot keep a bulk op waiting.
      if (target.bulk.load(std::memory_order_relaxed) == 0 &&
          (announce.store(static_cast<std::uint32_t>(t) + 1, std::memory_order_seq_cst),
           target.bulk.load(std::memory_order_seq_cst) == 0)) {
        fn(origin, p, result);
        announce.store(0, std::memory_order_release);
        return MPI_SUCCESS;
      }
      announce.store(0, std::memory_order_release);
      const std::uint32_t s = stripe_of(w, off);
      if (!lock_stripe(w, t, s)) {
        why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
        return MPI_ERR_PROC_ABORTED;
      }
      fn(origin, p, result);
      unlock_stripe(w, t, s);
      return MPI_SUCCESS;
    }
    // No CPU atomic for this element (or misaligned), or private memory: stripe lock.
    const bool ok = by_stripe(w, t, off, acc.elem_size, acc.elem_size, [&](std::int64_t, std::int64_t) {
      if (result != nullptr) std::memcpy(result, p, acc.elem_size);
      apply(acc, static_cast<const std::byte*>(origin), p, acc.elem_size);
      return true;
    });
    if (!ok) {
      why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    return MPI_SUCCESS;
  }
  // Private memory of another rank: one element through the general path.
  alignas(16) std::byte old[64];
  const pid_t pid = w.targets[static_cast<std::size_t>(t)].pid;
  int err = 0;
  const bool ok = by_stripe(w, t, off, acc.elem_size, acc.elem_size, [&](std::int64_t, std::int64_t) {
    iovec li{old, acc.elem_size};
    iovec ri{reinterpret_cast<void*>(remote_at(w, t, off)), acc.elem_size};
    if (process_vm_readv(pid, &li, 1, &ri, 1, 0) != static_cast<ssize_t>(acc.elem_size)) {
      err = errno;
      return false;
    }
    if (result != nullptr) std::memcpy(result, old, acc.elem_size);
    if (acc.op == ops::OpKind::no_op) return true;
    apply(acc, static_cast<const std::byte*>(origin), old, acc.elem_size);
    if (process_vm_writev(pid, &li, 1, &ri, 1, 0) != static_cast<ssize_t>(acc.elem_size)) {
      err = errno;
      return false;
    }
    return true;
  });
  if (!ok) {
    if (err == 0) {
      why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    return cma_failure(err, "cross-memory access to the target", why);
  }
  return MPI_SUCCESS;
}

int compare_and_swap(WinObj& w, int t, const void* origin, const void* compare, void* result, std::uint64_t disp,
                     ops::Elem elem, std::uint32_t size, std::string& why) {
  const auto off = static_cast<std::int64_t>(disp);
  auto plain = [&](std::byte* p) {
    std::memcpy(result, p, size);
    if (std::memcmp(p, compare, size) == 0) std::memcpy(p, origin, size);
  };
  if (direct_to(w, t)) {
    std::byte* p = at(w, t, off);
    if (w.exclusive_on(t)) {
      plain(p);
      return MPI_SUCCESS;
    }
    const ::shmpi::rma::CasFn fn = shared_target(w, t) ? ::shmpi::rma::cas_fn(elem) : nullptr;
    if (fn != nullptr && ::shmpi::rma::atomic_aligned(elem, p)) {
      std::atomic<std::uint32_t>& announce = w.me().announce;
      layout::WinRank& target = w.slot(t);
      if (target.bulk.load(std::memory_order_relaxed) == 0 &&
          (announce.store(static_cast<std::uint32_t>(t) + 1, std::memory_order_seq_cst),
           target.bulk.load(std::memory_order_seq_cst) == 0)) {
        fn(origin, compare, p, result);
        announce.store(0, std::memory_order_release);
        return MPI_SUCCESS;
      }
      announce.store(0, std::memory_order_release);
    }
    const bool ok = by_stripe(w, t, off, size, size, [&](std::int64_t, std::int64_t) {
      if (fn != nullptr && ::shmpi::rma::atomic_aligned(elem, p)) fn(origin, compare, p, result);
      else plain(p);
      return true;
    });
    if (!ok) {
      why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    return MPI_SUCCESS;
  }
  alignas(16) std::byte old[64];
  const pid_t pid = w.targets[static_cast<std::size_t>(t)].pid;
  int err = 0;
  const bool ok = by_stripe(w, t, off, size, size, [&](std::int64_t, std::int64_t) {
    iovec li{old, size};
    iovec ri{reinterpret_cast<void*>(remote_at(w, t, off)), size};
    if (process_vm_readv(pid, &li, 1, &ri, 1, 0) != static_cast<ssize_t>(size)) {
      err = errno;
      return false;
    }
    std::memcpy(result, old, size);
    if (std::memcmp(old, compare, size) != 0) return true;
    iovec ni{const_cast<void*>(origin), size};
    if (process_vm_writev(pid, &ni, 1, &ri, 1, 0) != static_cast<ssize_t>(size)) {
      err = errno;
      return false;
    }
    return true;
  });
  if (!ok) {
    if (err == 0) {
      why = "job aborted while waiting for a concurrent accumulate: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    return cma_failure(err, "cross-memory access to the target", why);
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::client::rma
