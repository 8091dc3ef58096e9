#include "p2p/inbox.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime.hpp"
#include "wait.hpp"

namespace shmpi::client::p2p {
namespace {

InboxMap g_own;
int g_own_fd = -1;
std::vector<InboxMap> g_peers;  // by world rank; base == nullptr until mapped

// Data bytes per ring: 64 KiB unless SHMPI_P2P_RING_BYTES says otherwise (a power of two,
// 4 KiB .. 16 MiB). The eager limit (engine.cpp) is a quarter of it.
std::uint32_t ring_bytes_setting() {
  std::uint32_t v = 64 * 1024;
  if (const char* e = std::getenv("SHMPI_P2P_RING_BYTES")) {
    const unsigned long x = std::strtoul(e, nullptr, 0);
    if (x >= 4096 && x <= (16u << 20) && (x & (x - 1)) == 0) v = static_cast<std::uint32_t>(x);
  }
  return v;
}

bool map_fd(int fd, std::size_t bytes, InboxMap& m, std::string& why) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    why = "cannot map a point-to-point inbox of " + std::to_string(bytes) + " bytes: " + std::strerror(errno);
    return false;
  }
  m.base = static_cast<std::byte*>(p);
  m.bytes = bytes;
  return true;
}

}  // namespace

InboxMap& own_inbox() { return g_own; }

bool create_own_inbox(std::string& why) {
  const std::uint32_t n = g_rt.size;
  const std::uint32_t ring = ring_bytes_setting();
  const layout::InboxGeometry g = layout::inbox_geometry(n, ring);
  const int fd = memfd_create("shmpi-inbox", MFD_CLOEXEC);
  if (fd < 0) {
    why = std::string("memfd_create (point-to-point inbox): ") + std::strerror(errno);
    return false;
  }
  if (ftruncate(fd, static_cast<off_t>(g.total)) != 0 || !map_fd(fd, g.total, g_own, why)) {
    if (why.empty()) why = std::string("ftruncate (point-to-point inbox): ") + std::strerror(errno);
    close(fd);
    return false;
  }
  g_own_fd = fd;
  g_own.ring_bytes = ring;
  g_own.ring_stride = g.ring_stride;
  layout::InboxHeader& h = g_own.header();
  h.magic = layout::kInboxMagic;
  h.layout_version = layout::kInboxLayoutVersion;
  h.owner_rank = g_rt.rank;
  h.nrings = n;
  h.ring_bytes = ring;
  h.ring_stride = g.ring_stride;
  h.rings_offset = g.rings_offset;
  h.total_bytes = g.total;
  g_peers.assign(n, InboxMap{});
  layout::InboxDir& dir = g_rt.seg.slot(g_rt.rank).inbox;
  dir.pid = static_cast<std::int32_t>(getpid());
  dir.fd = fd;
  dir.ring_bytes = ring;
  dir.bytes = g.total;
  dir.state.store(1, std::memory_order_release);
  return true;
}

void close_inboxes() {
  for (InboxMap& m : g_peers) {
    if (m.base != nullptr && m.base != g_own.base) munmap(m.base, m.bytes);
    m = InboxMap{};
  }
  if (g_own.base != nullptr) {
    g_rt.seg.slot(g_rt.rank).inbox.state.store(2, std::memory_order_release);
    munmap(g_own.base, g_own.bytes);
    g_own = InboxMap{};
  }
  if (g_own_fd >= 0) close(g_own_fd);
  g_own_fd = -1;
}

InboxMap* peer_inbox_if_mapped(std::uint32_t r) {
  if (r == g_rt.rank) return &g_own;
  return r < g_peers.size() && g_peers[r].base != nullptr ? &g_peers[r] : nullptr;
}

InboxMap* peer_inbox(std::uint32_t r, std::string& why) {
  if (InboxMap* m = peer_inbox_if_mapped(r)) return m;
  if (r >= g_peers.size()) {
    why = "no rank " + std::to_string(r);
    return nullptr;
  }
  // A rank publishes its inbox in MPI_Init, before its first barrier: a peer that is
  // still starting up is waited for (this is the first message to it, not a hot path).
  layout::InboxDir& dir = g_rt.seg.slot(r).inbox;
  std::uint32_t spins = 0;
  std::uint32_t state;
  while ((state = dir.state.load(std::memory_order_acquire)) == 0) {
    if (job_aborted()) {
      why = "the job aborted before rank " + std::to_string(r) + " published its inbox";
      return nullptr;
    }
    if (++spins < 1000) {
      cpu_relax();
    } else {
      timespec ts{0, 100'000};
      nanosleep(&ts, nullptr);
    }
  }
  if (state != 1) {
    why = "rank " + std::to_string(r) + " has finalized";
    return nullptr;
  }
  const std::string path = "/proc/" + std::to_string(dir.pid) + "/fd/" + std::to_string(dir.fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    why = "cannot open rank " + std::to_string(r) + "'s inbox " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  InboxMap m;
  const bool ok = map_fd(fd, dir.bytes, m, why);
  close(fd);
  if (!ok) return nullptr;
  const layout::InboxHeader& h = m.header();
  if (h.magic != layout::kInboxMagic || h.layout_version != layout::kInboxLayoutVersion || h.nrings != g_rt.size ||
      h.total_bytes != dir.bytes ||
      h.ring_stride != layout::inbox_geometry(h.nrings, h.ring_bytes).ring_stride) {
    why = "rank " + std::to_string(r) + "'s inbox has an unexpected layout (version " +
          std::to_string(h.layout_version) + ", this library's " + std::to_string(layout::kInboxLayoutVersion) + ")";
    munmap(m.base, m.bytes);
    return nullptr;
  }
  m.ring_bytes = h.ring_bytes;
  m.ring_stride = h.ring_stride;
  // Our own ring in it is written by us only: allocate its pages now, not one page
  // fault at a time inside sends (first touch is slow on virtual machines).
#ifdef MADV_POPULATE_WRITE
  (void)madvise(m.base + layout::kPage + g_rt.rank * m.ring_stride, layout::kRingCtlBytes + m.ring_bytes,
                MADV_POPULATE_WRITE);
#endif
  g_peers[r] = m;
  return &g_peers[r];
}

void populate_stream(InboxMap& peer) {
#ifdef MADV_POPULATE_WRITE
  std::byte* first = peer.stream(g_rt.rank);
  const auto page = reinterpret_cast<std::uintptr_t>(first) & ~std::uintptr_t{layout::kPage - 1};
  const std::size_t len = layout::kStreamSlots * layout::stream_chunk(peer.ring_bytes);
  (void)madvise(reinterpret_cast<void*>(page), reinterpret_cast<std::uintptr_t>(first) + len - page,
                MADV_POPULATE_WRITE);
#else
  (void)peer;
#endif
}

void ring_doorbell(InboxMap& peer) {
  layout::Flag& bell = peer.header().doorbell;
  if (!has_sleepers(bell)) return;
  // Many wakers: a count, not a generation, so FUTEX_WAIT's value check sees any wake.
  bell.value.fetch_add(1, std::memory_order_release);
  futex_wake_all(&bell.value);
}

}  // namespace shmpi::client::p2p
