// Collective window creation and MPI_Win_free.
//
// Creation, for a communicator of n ranks (MPI_COMM_SELF: n = 1, no exchange):
//   1. every rank publishes {size, disp_unit, base, ok} in its RankSlot::exchange;
//      barrier; all read all; barrier. A rank whose arguments were bad publishes ok = 0
//      so that every rank fails the call together instead of hanging.
//   2. comm rank 0 sizes the control block (+ data area for allocate flavours), creates
//      one memfd, writes the header and publishes {pid, fd}; barrier.
//   3. every other rank opens /proc/<pid>/fd/<fd> and maps it; every rank fills its
//      WinRank, binds its part of the data area to its NUMA node and touches it
//      (first touch costs 26-75 us a page on these VMs: paid once here, never per call);
//      barrier; all map every peer's part (MADV_POPULATE_WRITE), and the window is ready.
// Nothing is named in /dev/shm: the memfd vanishes with the last mapping, also when a
// rank is killed.
#include <fcntl.h>
#include <numaif.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include <memory>

#include "barrier.hpp"
#include "coll/collectives.hpp"
#include "comm/comm.hpp"
#include "errors.hpp"
#include "group/group.hpp"
#include "info/info.hpp"
#include "rma/fast_path.hpp"
#include "rma/shared_ranges.hpp"
#include "rma/window_create.hpp"
#include "runtime.hpp"
#include "wait.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace shmpi::client {

namespace {

std::mutex g_win_mutex;
std::unordered_set<WinObj*> g_wins;
std::uint32_t g_win_seq = 0;

constexpr std::uint64_t kPage = layout::kPage;

struct Published {
  std::uint64_t size;
  std::int64_t disp_unit;
  std::uint64_t base;
  std::int32_t ok;
  std::int32_t pid;
  std::int32_t fd;
  std::uint32_t win_id;
  std::uint64_t block_len;
};
static_assert(sizeof(Published) <= layout::kExchangeBytes);

bool comm_barrier(CommObj* c) {
  std::string why;
  return coll::barrier(c, why) == MPI_SUCCESS;
}

// Every rank of `c` contributes `mine`; returns false if the job aborted.
bool allgather(CommObj* c, const Published& mine, std::vector<Published>& all) {
  all.assign(static_cast<std::size_t>(c->size), Published{});
  return comm::allgather_small(c, &mine, sizeof mine, all.data());
}

// The window's own communicator (a dup of the caller's): its fences and creation steps
// never interleave with the user's collectives, and it outlives MPI_Comm_free of the
// caller's communicator. Destroyed unless kept.
struct OwnComm {
  CommObj* c = nullptr;
  bool keep = false;
  ~OwnComm() {
    if (!keep && c != nullptr) comm::destroy(c);
  }
};

std::uint32_t parse_info(MPI_Info info, std::uint32_t& granularity, std::string& bad) {
  std::uint32_t flags = 0;
  if (auto v = info_value(info, "accumulate_ordering")) {
    if (*v == "none") flags |= layout::kInfoOrderingNone;
    else {
      // A comma list of rar, raw, war, waw: any subset still orders everything we do.
      std::string s = *v;
      std::size_t p = 0;
      while (p <= s.size()) {
        const std::size_t q = std::min(s.find(',', p), s.size());
        const std::string item = s.substr(p, q - p);
        if (item != "rar" && item != "raw" && item != "war" && item != "waw") bad = "accumulate_ordering=" + s;
        p = q + 1;
      }
    }
  }
  if (auto v = info_value(info, "accumulate_ops")) {
    if (*v == "same_op") flags |= layout::kInfoOpsSameOp;
    else if (*v != "same_op_no_op") bad = "accumulate_ops=" + *v;
  }
  if (auto v = info_value(info, "no_locks"); v && *v == "true") flags |= layout::kInfoNoLocks;
  if (auto v = info_value(info, "alloc_shared_noncontig"); v && *v == "true") flags |= layout::kInfoNoncontig;
  if (auto v = info_value(info, "mpi_accumulate_granularity")) {
    char* end = nullptr;
    const long long g = std::strtoll(v->c_str(), &end, 10);
    if (end == v->c_str() || *end != '\0' || g < 0) {
      bad = "mpi_accumulate_granularity=" + *v;
    } else if (g > 0) {
      // Rounded to a power of two between 64 B and 1 MiB: stripes are cache-line multiples.
      std::uint64_t p2 = 64;
      while (p2 < static_cast<std::uint64_t>(g) && p2 < (1u << 20)) p2 <<= 1;
      granularity = static_cast<std::uint32_t>(p2);
    }
  }
  return flags;
}

void dir_publish(WinObj* w) {
  layout::RankSlot& s = g_rt.seg.slot(g_rt.rank);
  for (std::uint32_t i = 0; i < layout::kWinDirEntries; ++i) {
    layout::WinDirEntry& e = s.windows[i];
    if (e.state.load(std::memory_order_relaxed) != 0) continue;
    e.win_id = w->hdr->win_id;
    e.pid = static_cast<std::int32_t>(getpid());
    e.fd = w->memfd;
    e.meta_size = w->block_len;
    e.state.store(1, std::memory_order_release);
    w->dir_slot = static_cast<int>(i);
    return;
  }
}

void unmap(WinObj* w) {
  for (const auto& [p, len] : w->peer_maps) munmap(p, len);
  w->peer_maps.clear();
  if (w->block != nullptr) munmap(w->block, w->block_len);
  w->block = nullptr;
  if (w->dir_slot >= 0) g_rt.seg.slot(g_rt.rank).windows[w->dir_slot].state.store(0, std::memory_order_release);
  if (w->memfd >= 0) close(w->memfd);
  w->memfd = -1;
}

}  // namespace

// The last handle to_win() validated; cleared whenever a window is unregistered, so a
// hit is always a live window (the RMA fast path skips the registry with it).
std::atomic<MPI_Win> g_cached_handle{MPI_WIN_NULL};

WinObj* to_win(MPI_Win h) {
  if (h == MPI_WIN_NULL) return nullptr;
  if (h == g_cached_handle.load(std::memory_order_relaxed)) return reinterpret_cast<WinObj*>(h);
  std::lock_guard<std::mutex> lock(g_win_mutex);
  auto* w = reinterpret_cast<WinObj*>(h);
  if (g_wins.count(w) == 0) return nullptr;
  g_cached_handle.store(h, std::memory_order_relaxed);
  return w;
}

namespace rma {
WinObj* cached_win(MPI_Win h) {
  return h != MPI_WIN_NULL && h == g_cached_handle.load(std::memory_order_relaxed) ? reinterpret_cast<WinObj*>(h) : nullptr;
}
}  // namespace rma

void register_win(WinObj* w) {
  std::lock_guard<std::mutex> lock(g_win_mutex);
  g_wins.insert(w);
  w->handle = reinterpret_cast<MPI_Win>(w);
}

void unregister_win(WinObj* w) {
  std::lock_guard<std::mutex> lock(g_win_mutex);
  g_cached_handle.store(MPI_WIN_NULL, std::memory_order_relaxed);
  g_wins.erase(w);
}

void WinObj::publish_epoch() const {
  std::uint32_t e = 0;
  if (fence_open) e |= layout::kEpochFence;
  if (lock_all != 0) e |= layout::kEpochLockAll;
  if (locks_held != 0) e |= layout::kEpochLock;
  if (start_group != nullptr) e |= layout::kEpochAccess;
  if (post_group != nullptr) e |= layout::kEpochExposure;
  me().epoch.store(e, std::memory_order_relaxed);
}

int create_window(const CreateArgs& a, MPI_Win* out) {
  CommObj* const user = a.comm;
  OwnComm own;
  {
    std::string why;
    const int cls = comm::split(user, 0, user->rank, &own.c, why);
    if (cls != MPI_SUCCESS) return raise(user, cls, std::string(a.call) + ": " + why);
  }
  CommObj* c = own.c;  // inherits the caller's errhandler: creation errors go there
  const int n = c->size;
  const int me = c->rank;
  std::uint32_t granularity = 4096;
  std::string bad_info;
  const std::uint32_t info_flags = parse_info(a.info, granularity, bad_info);

  Published mine{};
  mine.size = a.size;
  mine.disp_unit = a.disp_unit;
  mine.base = reinterpret_cast<std::uint64_t>(a.base);
  mine.ok = a.local_error == 0 && bad_info.empty() ? 1 : 0;
  std::vector<Published> all;
  if (!allgather(c, mine, all)) return raise(c, MPI_ERR_PROC_ABORTED, std::string(a.call) + ": job aborted: " + abort_reason());
  if (a.local_error != 0) return raise(c, a.local_error, a.local_message);
  if (!bad_info.empty()) return raise(c, MPI_ERR_INFO_VALUE, std::string(a.call) + ": info value " + bad_info + " is not one the standard defines");
  for (int r = 0; r < n; ++r) {
    if (all[static_cast<std::size_t>(r)].ok == 0) {
      return raise(c, MPI_ERR_OTHER, std::string(a.call) + ": rank " + std::to_string(r) + " of the communicator failed the call (bad arguments there)");
    }
  }

  // Data area layout (allocate flavours).
  const bool has_data = a.flavor == layout::WinFlavor::allocate || a.flavor == layout::WinFlavor::shared;
  const bool contiguous = a.flavor == layout::WinFlavor::shared && (info_flags & layout::kInfoNoncontig) == 0;
  std::vector<std::uint64_t> part(static_cast<std::size_t>(n), 0);
  std::uint64_t data_size = 0;
  if (has_data) {
    for (int r = 0; r < n; ++r) {
      part[static_cast<std::size_t>(r)] = data_size;
      const std::uint64_t sz = all[static_cast<std::size_t>(r)].size;
      data_size += contiguous ? sz : layout::round_up(sz, kPage);
    }
    data_size = layout::round_up(data_size, kPage);
  }
  const layout::WinOffsets off = layout::win_offsets(static_cast<std::uint32_t>(n));
  const std::uint64_t block_len = off.meta_size + data_size;

  auto w = std::make_unique<WinObj>();
  w->comm = c;
  w->rank = me;
  w->size = n;
  w->flavor = a.flavor;
  w->errhandler = &g_errors_are_fatal;  // MPI-4.1 9.3: windows start with ERRORS_ARE_FATAL
  w->info_flags = info_flags;
  w->granularity = granularity;

  // 2. rank 0 creates and publishes the block.
  Published mine2{};
  mine2.ok = 1;
  if (me == 0) {
    const int fd = memfd_create("shmpi-win", MFD_CLOEXEC);
    void* p = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, static_cast<off_t>(block_len)) == 0) {
      p = mmap(nullptr, block_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (p == MAP_FAILED) {
      mine2.ok = 0;
      if (fd >= 0) close(fd);
    } else {
      w->memfd = fd;
      w->block = static_cast<std::byte*>(p);
      w->block_len = block_len;
      auto* h = reinterpret_cast<layout::WinHeader*>(w->block);
      h->magic = layout::kWinMagic;
      h->layout_version = layout::kWinLayoutVersion;
      h->nranks = static_cast<std::uint32_t>(n);
      h->job_id = g_rt.job_id;
      h->win_id = (g_rt.rank << 20) | (g_win_seq++ & 0xfffff);
      h->flavor = static_cast<std::uint32_t>(a.flavor);
      h->meta_size = off.meta_size;
      h->data_offset = has_data ? off.meta_size : 0;
      h->data_size = data_size;
      h->granularity = granularity;
      h->info_flags = info_flags;
      mine2.pid = static_cast<std::int32_t>(getpid());
      mine2.fd = fd;
      mine2.block_len = block_len;
    }
  }
  std::vector<Published> all2;
  if (!allgather(c, mine2, all2)) {
    unmap(w.get());
    return raise(c, MPI_ERR_PROC_ABORTED, std::string(a.call) + ": job aborted: " + abort_reason());
  }
  if (all2[0].ok == 0) {
    unmap(w.get());
    return raise(c, MPI_ERR_NO_MEM, std::string(a.call) + ": cannot create the window's shared memory (" + std::to_string(block_len) + " bytes)");
  }

  // 3. everyone else maps it.
  int map_ok = 1;
  if (me != 0) {
    const std::string path = "/proc/" + std::to_string(all2[0].pid) + "/fd/" + std::to_string(all2[0].fd);
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    void* p = fd >= 0 ? mmap(nullptr, block_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0) close(fd);
    if (p == MAP_FAILED) map_ok = 0;
    else {
      w->block = static_cast<std::byte*>(p);
      w->block_len = block_len;
    }
  }
  if (map_ok) {
    w->hdr = reinterpret_cast<layout::WinHeader*>(w->block);
    layout::WinRank& r = w->me();
    r.size = a.size;
    r.disp_unit = a.disp_unit;
    r.pid = static_cast<std::int32_t>(getpid());
    r.numa_node = g_rt.numa_node;
    r.world_rank = static_cast<std::uint32_t>(c->world_of[static_cast<std::size_t>(me)]);
    if (has_data) {
      std::byte* mine_at = w->block + off.meta_size + part[static_cast<std::size_t>(me)];
      r.data_offset = part[static_cast<std::size_t>(me)];
      r.base_addr = reinterpret_cast<std::uint64_t>(mine_at);
      // Place our pages on our NUMA node before first touch, then touch them.
      const std::uintptr_t lo = layout::round_up(reinterpret_cast<std::uintptr_t>(mine_at), kPage);
      const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(mine_at) + a.size) / kPage * kPage;
      if (g_rt.numa_node >= 0 && hi > lo) {
        unsigned long mask[16] = {};
        if (g_rt.numa_node < 1024) {
          mask[g_rt.numa_node / 64] = 1ul << (g_rt.numa_node % 64);
          mbind(reinterpret_cast<void*>(lo), hi - lo, MPOL_PREFERRED, mask, 1024, 0);
        }
      }
      if (a.size > 0) std::memset(mine_at, 0, a.size);
    } else {
      r.base_addr = reinterpret_cast<std::uint64_t>(a.base);
      SharedRange sr;
      if (a.flavor == layout::WinFlavor::create && n > 1 && share_in_place(a.base, a.size, sr)) {
        r.share_fd = sr.fd;
        r.share_fd_offset = sr.fd_offset;
        r.share_len = sr.length;
      }
    }
  }
  Published mine3{};
  mine3.ok = map_ok;
  std::vector<Published> all3;
  if (!allgather(c, mine3, all3)) {
    unmap(w.get());
    return raise(c, MPI_ERR_PROC_ABORTED, std::string(a.call) + ": job aborted: " + abort_reason());
  }
  for (int r = 0; r < n; ++r) {
    if (all3[static_cast<std::size_t>(r)].ok == 0) {
      unmap(w.get());
      return raise(c, MPI_ERR_OTHER, std::string(a.call) + ": rank " + std::to_string(r) + " could not map the window's shared memory");
    }
  }
  if (has_data && data_size > 0) madvise(w->block + off.meta_size, data_size, MADV_POPULATE_WRITE);

  // Targets.
  w->targets.resize(static_cast<std::size_t>(n));
  // MPI_Win_create memory shared in place: map each peer's memfd. Either every rank maps
  // every shared target or none treats any as shared (mixing CPU atomics on one side
  // with stripe locks on the other would break accumulate atomicity).
  int share_ok = 1;
  for (int r = 0; r < n && a.flavor == layout::WinFlavor::create; ++r) {
    const layout::WinRank& s = w->slot(r);
    if (s.share_len == 0) continue;
    WinTarget& t = w->targets[static_cast<std::size_t>(r)];
    const std::uint64_t page_lo = s.base_addr / kPage * kPage;
    if (r == me) {
      t.local = static_cast<std::byte*>(a.base);
      continue;
    }
    const std::string path = "/proc/" + std::to_string(s.pid) + "/fd/" + std::to_string(s.share_fd);
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    void* p = fd >= 0 ? mmap(nullptr, s.share_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(s.share_fd_offset))
                      : MAP_FAILED;
    if (fd >= 0) close(fd);
    if (p == MAP_FAILED) {
      share_ok = 0;
      continue;
    }
    w->peer_maps.push_back({p, s.share_len});
    t.local = static_cast<std::byte*>(p) + (s.base_addr - page_lo);
  }
  Published mine4{};
  mine4.ok = share_ok;
  std::vector<Published> all4;
  if (a.flavor == layout::WinFlavor::create && !allgather(c, mine4, all4)) {
    unmap(w.get());
    return raise(c, MPI_ERR_PROC_ABORTED, std::string(a.call) + ": job aborted: " + abort_reason());
  }
  bool all_shared = true;
  for (const Published& p : all4) all_shared = all_shared && p.ok != 0;
  for (int r = 0; r < n; ++r) {
    const layout::WinRank& s = w->slot(r);
    WinTarget& t = w->targets[static_cast<std::size_t>(r)];
    t.size = s.size;
    t.disp_unit = s.disp_unit;
    t.pid = s.pid;
    t.world_rank = static_cast<int>(s.world_rank);
    t.remote = s.base_addr;
    if (has_data) {
      t.local = w->block + off.meta_size + s.data_offset;
      t.shared = true;
    } else if (a.flavor == layout::WinFlavor::create && s.share_len > 0 && all_shared) {
      t.shared = true;  // t.local set above
    } else {
      t.local = r == me ? static_cast<std::byte*>(a.base) : nullptr;
    }
    if (n == 1) t.shared = true;  // nobody else can touch it
  }
  w->base = has_data ? static_cast<void*>(w->targets[static_cast<std::size_t>(me)].local) : a.base;
  if (has_data && a.size == 0) w->base = nullptr;
  w->my_size = a.size;
  w->my_disp_unit = a.disp_unit;
  w->create_disp_unit = static_cast<int>(a.disp_unit);
  w->held.assign(static_cast<std::size_t>(n), HeldLock::none);
  w->in_start.assign(static_cast<std::size_t>(n), 0);
  w->post_seen.assign(static_cast<std::size_t>(n), 0);
  w->done_seen.assign(static_cast<std::size_t>(n), 0);
  if (me == 0) dir_publish(w.get());
  WinObj* raw = w.release();
  register_win(raw);
  own.keep = true;
  if (a.baseptr != nullptr) *static_cast<void**>(a.baseptr) = raw->base;
  *out = raw->handle;
  return MPI_SUCCESS;
}

int free_window(WinObj* w, const char* call) {
  CommObj* c = w->comm;
  if (w->lock_all != 0 || w->locks_held != 0 || w->start_group != nullptr || w->post_group != nullptr) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": the window still has an open epoch (unlock, complete or wait first)");
  }
  // Collective: nobody unmaps while a peer may still access our memory.
  w->hdr->freed.fetch_add(1, std::memory_order_acq_rel);
  const bool ok = comm_barrier(c);
  unregister_win(w);
  unmap(w);
  const int rc = ok ? MPI_SUCCESS : raise_win(w, MPI_ERR_PROC_ABORTED, std::string(call) + ": job aborted: " + abort_reason());
  if (w->errhandler != nullptr) release(w->errhandler);
  delete w;
  comm::destroy(c);
  return rc;
}

}  // namespace shmpi::client
