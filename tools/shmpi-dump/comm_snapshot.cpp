// Reading the job's communicators: directory entries in the rank slots, then each
// communicator's collective block through /proc/<pid>/fd/<fd>. The block lives in
// another process, which may free it (and reuse the fd number), or scribble on it, at
// any moment: the header, the member table and the progress words are copied out of a
// read-only mapping first (SIGBUS-guarded, in case the file shrank), and only the copy
// is validated and used. Every step that can fail yields a `problem` text instead.
#include <cinttypes>
#include <cstddef>
#include <cstring>
#include <set>

#include "comm_report.hpp"
#include "format.hpp"
#include "proc_block.hpp"

namespace shmpi::dump {
using namespace shmpi::layout;

namespace {

// A field of type T at byte `off` of a copied-out region (no alignment assumed).
template <class T>
T field(const std::vector<std::uint64_t>& buf, std::size_t off) {
  T v;
  std::memcpy(&v, reinterpret_cast<const std::byte*>(buf.data()) + off, sizeof v);
  return v;
}

// Copies [off, off + bytes) of mapping m (bounds checked by the caller; off and bytes
// multiples of 8) into out. False if the pages vanished under us.
bool copy_out(const ReadMap& m, std::uint64_t off, std::uint64_t bytes, std::vector<std::uint64_t>& out) {
  out.assign(bytes / 8, 0);
  return guarded_copy(out.data(), reinterpret_cast<const std::uint64_t*>(m.base() + off), bytes / 8);
}

const char* rank_state_name(std::uint32_t s) {
  switch (static_cast<RankState>(s)) {
    case RankState::empty: return "not-joined";
    case RankState::joined: return "joining";
    case RankState::running: return "running";
    case RankState::finalized: return "finalized";
    case RankState::dead: return "dead";
  }
  return "corrupt";
}

// The name as recorded (at most 39 bytes, NUL-terminated in the entry); anything but
// printable ASCII becomes '?'.
std::string entry_name(const CommDirEntry& e) {
  std::string s;
  for (std::size_t i = 0; i + 1 < sizeof e.name; ++i) {
    const char c = rd(e.name[i]);
    if (c == '\0') break;
    s += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return s;
}

// Reads the collective block of directory entry c (pid, fd, context id, block_bytes
// set) into c; returns why it cannot, or "".
std::string read_block(const SegmentView& v, CommSnapshot& c) {
  int raw_fd = -1;
  std::uint64_t file_size = 0;
  std::string why = open_memfd(c.pid, c.fd, "shmpi-comm", "communicator", &raw_fd, &file_size);
  if (!why.empty()) return why;
  const Fd f(raw_fd);
  if (file_size < sizeof(CommHeader)) {
    return fmt("corrupt: block is %" PRIu64 " bytes, less than its %zu-byte header", file_size, sizeof(CommHeader));
  }

  // The header (the fields in its first 72 bytes).
  std::vector<std::uint64_t> hb;
  {
    const ReadMap m(f.get(), sizeof(CommHeader));
    if (!m.ok()) return fmt("cannot map /proc/%d/fd/%d: %s", c.pid, c.fd, std::strerror(errno));
    if (!copy_out(m, 0, offsetof(CommHeader, creator_pid) + sizeof(std::int32_t), hb)) {
      return "vanished: the block shrank while being read";
    }
  }
  const auto magic = field<std::uint64_t>(hb, offsetof(CommHeader, magic));
  if (magic != kCommMagic) return fmt("corrupt: magic 0x%016" PRIx64 ", expected 0x%016" PRIx64, magic, kCommMagic);
  const auto version = field<std::uint32_t>(hb, offsetof(CommHeader, layout_version));
  if (version != kCommLayoutVersion) {
    return fmt("communicator layout version %u, this shmpi-dump reads version %u", version, kCommLayoutVersion);
  }
  const auto ctx = field<std::uint32_t>(hb, offsetof(CommHeader, context_id));
  if (ctx != c.context_id) return fmt("vanished: fd %d of pid %d now holds communicator context %u", c.fd, c.pid, ctx);
  const auto creator = field<std::int32_t>(hb, offsetof(CommHeader, creator_pid));
  if (creator != c.pid) return fmt("corrupt: block created by pid %d, listed by pid %d", creator, c.pid);
  const auto n = field<std::uint32_t>(hb, offsetof(CommHeader, size));
  if (n == 0 || n > v.nranks()) return fmt("corrupt: %u members in the communicator, the job has %u ranks", n, v.nranks());
  // Every offset and size must be what n members give; then everything read below lies
  // inside [0, g.tables) of a file at least g.total bytes long.
  const CommGeometry g = comm_geometry(n);
  const auto total = field<std::uint64_t>(hb, offsetof(CommHeader, total_bytes));
  const auto members_off = field<std::uint64_t>(hb, offsetof(CommHeader, members_offset));
  const auto ranks_off = field<std::uint64_t>(hb, offsetof(CommHeader, ranks_offset));
  const auto tables_off = field<std::uint64_t>(hb, offsetof(CommHeader, tables_offset));
  const auto stage_off = field<std::uint64_t>(hb, offsetof(CommHeader, stage_offset));
  const auto stage_slot = field<std::uint64_t>(hb, offsetof(CommHeader, stage_slot));
  if (members_off != g.members || ranks_off != g.ranks || tables_off != g.tables || stage_off != g.stage ||
      stage_slot != kStageSlot || total != g.total) {
    return fmt("corrupt: header of %u members has offsets %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
               ", staging %" PRIu64 ", total %" PRIu64 "; expected %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
               ", %" PRIu64 ", %" PRIu64,
               n, members_off, ranks_off, tables_off, stage_off, stage_slot, total, g.members, g.ranks, g.tables,
               g.stage, kStageSlot, g.total);
  }
  if (file_size != total || c.block_bytes != total) {
    return fmt("corrupt: %u members need a %" PRIu64 "-byte block; the file has %" PRIu64 " bytes, the listing says %" PRIu64,
               n, total, file_size, c.block_bytes);
  }
  const std::uint64_t members_bytes = std::uint64_t{n} * sizeof(CommMember);
  const std::uint64_t ranks_bytes = std::uint64_t{n} * sizeof(CommRank);
  const std::uint64_t need = ranks_off + ranks_bytes;
  if (members_off + comm_round_up(members_bytes, 8) > ranks_off || need > file_size || ranks_off % kCacheLine != 0) {
    return fmt("corrupt: members at %" PRIu64 " and ranks at %" PRIu64 " do not fit a %" PRIu64 "-byte block",
               members_off, ranks_off, file_size);
  }

  std::vector<std::uint64_t> mb, rb;
  {
    const ReadMap m(f.get(), need);
    if (!m.ok()) return fmt("cannot map /proc/%d/fd/%d: %s", c.pid, c.fd, std::strerror(errno));
    if (!copy_out(m, members_off, comm_round_up(members_bytes, 8), mb) || !copy_out(m, ranks_off, ranks_bytes, rb)) {
      return "vanished: the block shrank while being read";
    }
  }
  c.size = n;
  std::set<std::int32_t> seen;
  for (std::uint32_t r = 0; r < n; ++r) {
    const auto w = field<std::int32_t>(mb, r * sizeof(CommMember) + offsetof(CommMember, world_rank));
    const auto pid = field<std::int32_t>(mb, r * sizeof(CommMember) + offsetof(CommMember, pid));
    if (w < 0 || static_cast<std::uint32_t>(w) >= v.nranks()) {
      return fmt("corrupt: member %u is world rank %d, the job has %u ranks", r, w, v.nranks());
    }
    if (!seen.insert(w).second) return fmt("corrupt: world rank %d is listed twice", w);
    const RankSlot& s = v.slot(static_cast<std::uint32_t>(w));
    if (pid != rd(s.pid)) return fmt("corrupt: member %u (world rank %d) has pid %d, the job says %d", r, w, pid, rd(s.pid));
    const std::size_t base = std::size_t{r} * sizeof(CommRank);
    CommRankRow row{};
    row.rank = r;
    row.world_rank = w;
    row.pid = pid;
    row.world_state = rank_state_name(s.state.load(std::memory_order_relaxed));
    row.posted = field<std::uint32_t>(rb, base + offsetof(CommRank, posted) + offsetof(Flag, value));
    // What the rank finished (the `done` flag may lag: batched, shm_layout/comm.hpp).
    row.done = field<std::uint32_t>(rb, base + offsetof(CommRank, finished));
    row.calls = field<std::uint64_t>(rb, base + offsetof(CommRank, calls));
    row.waiting_on = field<std::int32_t>(rb, base + offsetof(CommRank, waiting_on));
    row.waiting_kind = field<std::uint32_t>(rb, base + offsetof(CommRank, waiting_kind));
    row.waiting_on_world = -1;
    c.ranks.push_back(std::move(row));
  }
  // The world rank of whom each rank waits for (an out-of-range comm rank stays -1).
  for (CommRankRow& row : c.ranks) {
    if (row.waiting_on >= 0 && static_cast<std::uint32_t>(row.waiting_on) < n) {
      row.waiting_on_world = c.ranks[static_cast<std::size_t>(row.waiting_on)].world_rank;
    }
  }
  // Comm rank 0 created the block and the listing rank is it.
  if (c.ranks[0].pid != c.pid || static_cast<std::uint32_t>(c.ranks[0].world_rank) != c.creator_rank) {
    return fmt("corrupt: comm rank 0 is world rank %d (pid %d), listed by rank %u (pid %d)", c.ranks[0].world_rank,
               c.ranks[0].pid, c.creator_rank, c.pid);
  }
  return "";
}

// Sequence numbers are 32-bit generation counters (comm.hpp): compared wrap-safe.
bool ahead(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b)) > 0;
}

void find_stall(CommSnapshot& c) {
  c.stalled = false;
  if (c.ranks.empty()) return;
  std::uint64_t lead = c.ranks[0].calls;
  for (const CommRankRow& r : c.ranks) {
    if (ahead(r.calls, lead)) lead = r.calls;
  }
  Stall s;
  s.call = lead;
  for (const CommRankRow& r : c.ranks) {
    if (ahead(lead, r.calls)) {
      s.missing.push_back(r.rank);
    } else if (r.waiting_kind != 0) {
      s.inside.push_back(r.rank);
      const std::string k = coll_kind_name(r.waiting_kind);
      if (s.kind.empty()) s.kind = k;
      else if (("/" + s.kind + "/").find("/" + k + "/") == std::string::npos) s.kind += "/" + k;
    }
  }
  c.stalled = !s.missing.empty();
  c.stall = std::move(s);
}

}  // namespace

std::string coll_kind_name(std::uint32_t k) {
  switch (static_cast<CollKind>(k)) {
    case CollKind::none: return "-";
    case CollKind::barrier: return "barrier";
    case CollKind::bcast: return "bcast";
    case CollKind::scatter: return "scatter";
    case CollKind::gather: return "gather";
    case CollKind::allgather: return "allgather";
    case CollKind::alltoall: return "alltoall";
    case CollKind::reduce: return "reduce";
    case CollKind::allreduce: return "allreduce";
    case CollKind::reduce_scatter: return "reduce_scatter";
    case CollKind::scan: return "scan";
    case CollKind::exscan: return "exscan";
    case CollKind::comm_create: return "comm_create";
    case CollKind::other: return "other";
  }
  return fmt("corrupt(%u)", k);
}

std::vector<CommSnapshot> snapshot_comms(const SegmentView& v) {
  std::vector<CommSnapshot> out;
  for (std::uint32_t r = 0; r < v.nranks(); ++r) {
    const RankSlot& s = v.slot(r);
    for (std::uint32_t i = 0; i < kCommDirEntries; ++i) {
      const CommDirEntry& e = s.comms[i];
      if (e.state.load(std::memory_order_acquire) != 1) continue;
      CommSnapshot c{};
      c.creator_rank = r;
      c.dir_slot = i;
      c.context_id = rd(e.context_id);
      c.pid = rd(e.pid);
      c.fd = rd(e.fd);
      c.block_bytes = rd(e.block_bytes);
      c.name = entry_name(e);
      if (c.pid <= 0 || c.fd < 0 || c.pid != rd(s.pid)) {
        c.problem = fmt("corrupt directory entry: pid %d fd %d (rank %u is pid %d)", c.pid, c.fd, r, rd(s.pid));
      } else {
        c.problem = read_block(v, c);
      }
      // Freed (and the entry maybe reused) while we read: what we read may mix communicators.
      if (c.problem.empty() && (e.state.load(std::memory_order_acquire) != 1 || rd(e.context_id) != c.context_id ||
                                rd(e.fd) != c.fd)) {
        c.problem = "vanished: freed while being read";
      }
      if (!c.problem.empty()) {
        c.ranks.clear();
        c.size = 0;
      }
      find_stall(c);
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace shmpi::dump
