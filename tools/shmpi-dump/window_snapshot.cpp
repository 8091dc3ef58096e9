// Reading the job's windows: directory entries in the rank slots, then each window's
// control block through /proc/<pid>/fd/<fd>. Everything read is validated before use;
// the block lives in another process and may be freed (or its fd number reused) at any
// moment, so every step that can fail yields a `problem` text instead.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>

#include "format.hpp"
#include "proc_block.hpp"
#include "window_report.hpp"

namespace shmpi::dump {
using namespace shmpi::layout;

namespace {

const char* flavor_name(std::uint32_t f) {
  switch (static_cast<WinFlavor>(f)) {
    case WinFlavor::create: return "create";
    case WinFlavor::allocate: return "allocate";
    case WinFlavor::dynamic: return "dynamic";
    case WinFlavor::shared: return "shared";
  }
  return nullptr;
}

// Reads the control block of directory entry (pid, fd, meta_size) into w; returns why
// it cannot, or "".
std::string read_block(std::int32_t pid, std::int32_t fd, std::uint64_t entry_size, const SegmentView& v,
                       WindowSnapshot& w) {
  const std::string path = fmt("/proc/%d/fd/%d", pid, fd);
  // The fd number may have been reused for anything since the listing: look before
  // opening (a FIFO or terminal must never be opened), then check what was opened.
  char target[256] = {};
  const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
  if (n < 0) return gone_text(pid, fd, errno, "window");
  const char kMemfd[] = "/memfd:shmpi-win";
  if (std::strncmp(target, kMemfd, sizeof kMemfd - 1) != 0) {
    return fmt("vanished: fd %d of pid %d is now %.100s, not a window control block", fd, pid, target);
  }
  const Fd f(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (f.get() < 0) return gone_text(pid, fd, errno, "window");
  struct stat st {};
  if (fstat(f.get(), &st) != 0) return fmt("cannot stat %s: %s", path.c_str(), std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fmt("vanished: %s is no longer a memfd", path.c_str());
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  if (file_size < kPage) return fmt("corrupt: control block is %" PRIu64 " bytes, less than one page", file_size);

  std::uint32_t nranks = 0;
  {
    const ReadMap m(f.get(), kPage);
    if (!m.ok()) return fmt("cannot map %s: %s", path.c_str(), std::strerror(errno));
    const auto& h = *reinterpret_cast<const WinHeader*>(m.base());
    const std::uint64_t magic = rd(h.magic);
    if (magic != kWinMagic) return fmt("corrupt: magic 0x%016" PRIx64 ", expected 0x%016" PRIx64, magic, kWinMagic);
    const std::uint32_t version = rd(h.layout_version);
    if (version != kWinLayoutVersion) {
      return fmt("window layout version %u, this shmpi-dump reads version %u", version, kWinLayoutVersion);
    }
    const std::uint64_t job = rd(h.job_id);
    if (job != rd(v.header().job_id)) return fmt("corrupt: control block names job %" PRIu64, job);
    const std::uint32_t id = rd(h.win_id);
    if (id != w.win_id) return fmt("vanished: fd %d of pid %d now holds window 0x%08x", fd, pid, id);
    nranks = rd(h.nranks);
    if (nranks == 0 || nranks > v.nranks()) {
      return fmt("corrupt: %u ranks in the window, the job has %u", nranks, v.nranks());
    }
    const char* flavor = flavor_name(rd(h.flavor));
    if (flavor == nullptr) return fmt("corrupt: flavor %u", rd(h.flavor));
    w.flavor = flavor;
    const std::uint64_t need = win_offsets(nranks).meta_size;
    const std::uint64_t meta = rd(h.meta_size);
    if (meta != need) return fmt("corrupt: control block size %" PRIu64 ", %u ranks need %" PRIu64, meta, nranks, need);
    if (entry_size < need || file_size < entry_size) {
      return fmt("corrupt: listed size %" PRIu64 ", file size %" PRIu64 ", control block needs %" PRIu64, entry_size,
                 file_size, need);
    }
    const std::uint64_t data_off = rd(h.data_offset), data_size = rd(h.data_size);
    if ((data_off != 0 && data_off != need) || data_size > file_size - need) {
      return fmt("corrupt: data area at %" PRIu64 " of %" PRIu64 " bytes in a %" PRIu64 "-byte block", data_off,
                 data_size, file_size);
    }
    w.control_bytes = need;
    w.data_bytes = data_size;
    w.granularity = rd(h.granularity);
    w.info_flags = rd(h.info_flags);
  }

  const ReadMap m(f.get(), win_offsets(nranks).meta_size);
  if (!m.ok()) return fmt("cannot map %s: %s", path.c_str(), std::strerror(errno));
  const auto& h = *reinterpret_cast<const WinHeader*>(m.base());
  const std::uint64_t all = h.all_locks.load(std::memory_order_relaxed);
  w.exclusive_lockers = static_cast<std::uint32_t>(all >> 32);
  w.lock_all_holders = static_cast<std::uint32_t>(all);
  w.freed = h.freed.load(std::memory_order_relaxed);
  w.nranks = nranks;
  const auto* ranks = reinterpret_cast<const WinRank*>(m.base() + kWinRankOffset);
  for (std::uint32_t r = 0; r < nranks; ++r) {
    const WinRank& s = ranks[r];
    WinRankRow row{};
    row.rank = r;
    row.world_rank = rd(s.world_rank);
    row.pid = rd(s.pid);
    row.numa_node = rd(s.numa_node);
    row.size = rd(s.size);
    row.disp_unit = rd(s.disp_unit);
    if (w.flavor == "allocate" || w.flavor == "shared") row.memory = "window-block";
    else row.memory = rd(s.share_len) > 0 ? "shared-in-place" : "private";
    const std::uint64_t lock = s.lock.load(std::memory_order_relaxed);
    row.exclusive_holder = static_cast<std::int64_t>(lock >> 32) - 1;
    row.shared_holders = static_cast<std::uint32_t>(lock);
    row.bulk = s.bulk.load(std::memory_order_relaxed);
    for (std::uint32_t k = 0; k < kStripes; ++k) {
      const std::uint32_t holder = s.stripe[k].load(std::memory_order_relaxed);
      if (holder != 0) row.stripes.emplace_back(k, static_cast<std::int64_t>(holder) - 1);
    }
    row.announce = static_cast<std::int64_t>(s.announce.load(std::memory_order_relaxed)) - 1;
    row.epoch = s.epoch.load(std::memory_order_relaxed);
    for (std::size_t c = 0; c < kRmaCallKinds; ++c) row.calls[c] = s.calls[c].load(std::memory_order_relaxed);
    row.locks_shared = s.locks_shared.load(std::memory_order_relaxed);
    row.locks_exclusive = s.locks_exclusive.load(std::memory_order_relaxed);
    w.ranks.push_back(std::move(row));
  }
  // Rank 0 of the window's communicator created the block and lists it.
  if (w.ranks[0].pid != pid) {
    return fmt("corrupt: window rank 0 has pid %d, the listing creator pid %d", w.ranks[0].pid, pid);
  }
  return "";
}

}  // namespace

std::vector<WindowSnapshot> snapshot_windows(const SegmentView& v) {
  std::vector<WindowSnapshot> out;
  for (std::uint32_t r = 0; r < v.nranks(); ++r) {
    const RankSlot& s = v.slot(r);
    for (std::uint32_t i = 0; i < kWinDirEntries; ++i) {
      const WinDirEntry& e = s.windows[i];
      if (e.state.load(std::memory_order_acquire) != 1) continue;
      WindowSnapshot w{};
      w.creator_rank = r;
      w.dir_slot = i;
      w.win_id = rd(e.win_id);
      w.pid = rd(e.pid);
      w.fd = rd(e.fd);
      const std::uint64_t size = rd(e.meta_size);
      if (w.pid <= 0 || w.fd < 0 || w.pid != rd(s.pid)) {
        w.problem = fmt("corrupt directory entry: pid %d fd %d (rank %u is pid %d)", w.pid, w.fd, r, rd(s.pid));
      } else {
        w.problem = read_block(w.pid, w.fd, size, v, w);
      }
      // Freed (and the entry maybe reused) while we read: what we read may mix windows.
      if (w.problem.empty() && (e.state.load(std::memory_order_acquire) != 1 || rd(e.win_id) != w.win_id)) {
        w.problem = "vanished: freed while being read";
      }
      if (!w.problem.empty()) w.ranks.clear();
      out.push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace shmpi::dump
