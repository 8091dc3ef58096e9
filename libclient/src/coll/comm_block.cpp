#include "coll/comm_block.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "env.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {
// SHMPI_COLL_GATE=on|off: gate every communicator of more than two members, or none,
// whatever the CPU count (tests cover both ways on any machine; benchmarks compare).
// Read by each creator: the header carries its choice to the members.
bool gate_communicator(std::uint32_t n) {
  static const int forced = env_word("SHMPI_COLL_GATE", {"off", "on"});  // -1: neither
  return n > 2 && (forced >= 0 ? forced == 1 : g_wait.oversubscribed);
}
}  // namespace

CommBlock* create_block(const std::vector<layout::CommMember>& members, std::uint32_t context_id, std::string& why) {
  const auto n = static_cast<std::uint32_t>(members.size());
  const layout::CommGeometry g = layout::comm_geometry(n);
  const int fd = memfd_create("shmpi-comm", MFD_CLOEXEC);
  if (fd < 0) {
    why = std::string("memfd_create: ") + std::strerror(errno);
    return nullptr;
  }
  // Sparse: staging pages cost memory only once a rank writes them.
  void* p = ftruncate(fd, static_cast<off_t>(g.total)) == 0
                ? mmap(nullptr, g.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                : MAP_FAILED;
  if (p == MAP_FAILED) {
    why = "cannot map " + std::to_string(g.total) + " bytes: " + std::strerror(errno);
    close(fd);
    return nullptr;
  }
  auto* b = new CommBlock{static_cast<std::byte*>(p), g.total, fd, n, g};
  layout::CommHeader& h = b->header();
  h.magic = layout::kCommMagic;
  h.layout_version = layout::kCommLayoutVersion;
  h.size = n;
  h.total_bytes = g.total;
  h.members_offset = g.members;
  h.ranks_offset = g.ranks;
  h.tables_offset = g.tables;
  h.stage_offset = g.stage;
  h.stage_slot = layout::kStageSlot;
  h.context_id = context_id;
  h.creator_pid = static_cast<std::int32_t>(getpid());
  // Oversubscribed, a call that waits for every member's post sleeps on its gate
  // (engine.cpp wait_arrivals); with two members a gate is no fewer wakes than a flag.
  b->gated = gate_communicator(n);
  h.flags = b->gated ? layout::kCommGated : 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    b->member(static_cast<int>(r)) = members[r];
    b->rank(static_cast<int>(r)).waiting_on.store(-1, std::memory_order_relaxed);
  }
  return b;
}

CommBlock* open_block(pid_t pid, int fd, std::string& why) {
  const std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
  const int f = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (f < 0) {
    why = "cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  struct stat st{};
  void* p = MAP_FAILED;
  if (fstat(f, &st) == 0 && static_cast<std::size_t>(st.st_size) >= sizeof(layout::CommHeader)) {
    p = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
  }
  close(f);
  if (p == MAP_FAILED) {
    why = "cannot map " + path;
    return nullptr;
  }
  const auto* h = static_cast<const layout::CommHeader*>(p);
  const layout::CommGeometry g = layout::comm_geometry(h->size);
  if (h->magic != layout::kCommMagic || h->layout_version != layout::kCommLayoutVersion ||
      h->total_bytes != static_cast<std::uint64_t>(st.st_size) || g.total != h->total_bytes ||
      h->stage_slot != layout::kStageSlot) {
    why = "communicator block " + path + " has another layout (version " + std::to_string(h->layout_version) +
          ", this library: " + std::to_string(layout::kCommLayoutVersion) + ")";
    munmap(p, static_cast<std::size_t>(st.st_size));
    return nullptr;
  }
  return new CommBlock{static_cast<std::byte*>(p), static_cast<std::size_t>(st.st_size), -1, h->size, g,
                       (h->flags & layout::kCommGated) != 0};
}

void close_block(CommBlock* b) {
  if (b == nullptr) return;
  if (b->base != nullptr) munmap(b->base, b->bytes);
  if (b->fd >= 0) close(b->fd);
  delete b;
}

}  // namespace shmpi::client::coll
