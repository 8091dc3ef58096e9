// Reading the job's point-to-point inboxes: the listing in each rank slot, then the
// inbox through /proc/<pid>/fd/<fd>. The inbox lives in another process, which writes
// it all the time and frees it at MPI_Finalize (the fd number may then be reused):
// every value read is validated before use, every loop is bounded by the geometry the
// header must have, and every step that can fail yields a `problem` text instead.
//
// Reads go through pread(), not a mapping: a read fault on a shared memfd mapping
// allocates the page, so mapping the inbox would allocate every ring page nobody ever
// wrote (nranks^2 rings over a job); pread of a hole returns zeros and allocates
// nothing. It also cannot raise SIGBUS if the file shrank (a short read instead).
//
// Ring walk (shm_layout/p2p.hpp): the owner's read position is RingCtl::head (0 before
// its first drain: positions start at kRecordAlign); a record is there when the pos
// word of the line at head % ring_bytes equals head. The pos word is read on its own
// first and the header after it, so a header that is being written (pos stored last)
// is never read before its pos. Records then follow each other (skip records send the
// walk to the next lap) until the first line whose pos is not the expected position:
// where the writer will write next. head is read again after the walk: if the owner
// drained meanwhile, the walk is repeated from the new head.
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstddef>
#include <cstring>

#include "format.hpp"
#include "p2p_report.hpp"
#include "proc_block.hpp"

namespace shmpi::dump {
using namespace shmpi::layout;

namespace {

constexpr std::uint64_t kFirstPos = kRecordAlign;  // positions start here (fresh memory reads 0)
// The identity line and lines 2..4 (counts, waiting state, shown posted receives).
constexpr std::size_t kHeaderRead = offsetof(InboxHeader, shown) + kShownPosted * sizeof(PostedShown);
static_assert(kHeaderRead == 5 * kCacheLine);
// Walks of one ring while the owner keeps draining it.
constexpr int kWalkAttempts = 3;

// Reads [off, off + n) of the file; false if the file ended first (it shrank) or failed.
bool read_at(int fd, std::uint64_t off, void* dst, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = pread(fd, static_cast<std::byte*>(dst) + got, n - got, static_cast<off_t>(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}

// A field of type T at byte `off` of a copied-out region (no alignment assumed).
template <class T>
T field(const void* buf, std::size_t off) {
  T v;
  std::memcpy(&v, static_cast<const std::byte*>(buf) + off, sizeof v);
  return v;
}

std::uint64_t round_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }

const char* const kShrank = "vanished: the inbox shrank while being read";

// The owner's read position of the ring at `ring_off`, or why it is unusable.
bool read_head(int fd, std::uint64_t ring_off, std::uint64_t& head, std::string& problem) {
  if (!read_at(fd, ring_off + offsetof(RingCtl, head), &head, sizeof head)) {
    problem = kShrank;
    return false;
  }
  if (head == 0) head = kFirstPos;  // nothing drained yet
  if (head % kRecordAlign != 0) {
    problem = fmt("corrupt: head %" PRIu64 " is not a multiple of %zu", head, kRecordAlign);
    return false;
  }
  return true;
}

// One walk of the ring whose data starts at `data_off`, from position `head`. Fills the
// counts, the first envelopes and, if it stopped on something inconsistent, row.problem.
// False only if the file could not be read (then `io` is set).
bool walk(int fd, std::uint64_t data_off, std::uint32_t ring_bytes, std::uint64_t head, RingRow& row,
          std::string& io) {
  row.head = head;
  row.queued = row.queued_bytes = row.ring_used = 0;
  row.first.clear();
  row.problem.clear();
  const std::uint64_t R = ring_bytes, mask = R - 1;
  std::uint64_t pos = head;
  // Every step advances pos by at least one line and pos - head never exceeds R.
  const std::uint64_t max_steps = R / kRecordAlign + 1;
  std::uint64_t step = 0;
  for (; step < max_steps; ++step) {
    const std::uint64_t off = pos & mask;
    std::uint64_t p = 0;
    if (!read_at(fd, data_off + off, &p, sizeof p)) {
      io = kShrank;
      return false;
    }
    if (p != pos) break;  // not written yet: the writer's next position
    std::uint64_t line[sizeof(MsgHeader) / 8];
    if (!read_at(fd, data_off + off, line, sizeof line)) {
      io = kShrank;
      return false;
    }
    if (field<std::uint64_t>(line, offsetof(MsgHeader, pos)) != pos) break;
    const auto bits = field<std::uint32_t>(line, offsetof(MsgHeader, kind_bits));
    const std::uint32_t kind = bits & 0xfu;
    if (kind == static_cast<std::uint32_t>(MsgKind::skip)) {
      // A skip record fills the rest of a lap; at a lap's start it would skip a whole ring.
      if (off == 0) {
        row.problem = fmt("corrupt: skip record at position %" PRIu64 ", the start of a lap", pos);
        break;
      }
      pos += R - off;
      continue;
    }
    const auto bytes = field<std::uint64_t>(line, offsetof(MsgHeader, bytes));
    std::uint64_t rec;
    if (kind == static_cast<std::uint32_t>(MsgKind::eager)) {
      if (bytes > R) {
        row.problem = fmt("corrupt: eager record at position %" PRIu64 " claims %" PRIu64 " bytes in a %u-byte ring",
                          pos, bytes, ring_bytes);
        break;
      }
      rec = round_up(sizeof(MsgHeader) + bytes, kRecordAlign);
    } else if (kind == static_cast<std::uint32_t>(MsgKind::rndv)) {
      rec = kRecordAlign;
    } else {
      row.problem = fmt("corrupt: record at position %" PRIu64 " has kind %u", pos, kind);
      break;
    }
    if (off + rec > R) {
      row.problem = fmt("corrupt: the %" PRIu64 "-byte record at position %" PRIu64 " crosses the end of the ring",
                        rec, pos);
      break;
    }
    if (pos + rec - head > R) {
      row.problem = fmt("corrupt: the records from position %" PRIu64 " span more than the ring's %u bytes", head,
                        ring_bytes);
      break;
    }
    if (row.first.size() < kShownRecords) {
      QueuedRecord q{};
      q.pos = pos;
      q.rendezvous = kind == static_cast<std::uint32_t>(MsgKind::rndv);
      q.sync = (bits & kMsgSync) != 0;
      q.context = field<std::uint32_t>(line, offsetof(MsgHeader, context));
      q.src = field<std::int32_t>(line, offsetof(MsgHeader, src));
      q.tag = field<std::int32_t>(line, offsetof(MsgHeader, tag));
      q.bytes = bytes;
      row.first.push_back(q);
    }
    ++row.queued;
    row.queued_bytes += bytes;
    pos += rec;
  }
  if (step == max_steps && row.problem.empty()) {
    row.problem = fmt("corrupt: more than %" PRIu64 " records from position %" PRIu64, max_steps, head);
  }
  row.ring_used = pos - head;
  return true;
}

// Reads the ring of `sender` (at ring_off) into row; false with `io` if the file could
// not be read.
bool read_ring(int fd, std::uint64_t ring_off, std::uint32_t ring_bytes, RingRow& row, std::string& io) {
  std::uint64_t head = 0;
  if (!read_head(fd, ring_off, head, row.problem)) {
    if (row.problem == kShrank) {
      io = row.problem;
      return false;
    }
    row.head = head;
    return true;
  }
  for (int attempt = 0;; ++attempt) {
    if (!walk(fd, ring_off + kRingCtlBytes, ring_bytes, head, row, io)) return false;
    std::uint64_t again = 0;
    std::string why;
    if (!read_head(fd, ring_off, again, why)) {
      if (why == kShrank) {
        io = why;
        return false;
      }
      row.problem = why;
      return true;
    }
    if (again == head) return true;
    if (attempt + 1 == kWalkAttempts) {
      if (row.problem.empty()) row.problem = "changing: the rank was draining this ring while it was read";
      return true;
    }
    head = again;
  }
}

// Reads the inbox listed in `in` (pid, fd, ring_bytes, inbox_bytes set) of world rank
// in.rank; returns why it cannot, or "".
std::string read_inbox(const SegmentView& v, InboxSnapshot& in) {
  int raw_fd = -1;
  std::uint64_t file_size = 0;
  std::string why = open_memfd(in.pid, in.fd, "shmpi-inbox", "inbox", &raw_fd, &file_size);
  if (!why.empty()) return why;
  const Fd f(raw_fd);
  if (file_size < sizeof(InboxHeader)) {
    return fmt("corrupt: inbox is %" PRIu64 " bytes, less than its %zu-byte header", file_size, sizeof(InboxHeader));
  }
  std::uint64_t hb[kHeaderRead / 8];
  if (!read_at(f.get(), 0, hb, sizeof hb)) return kShrank;
  const auto magic = field<std::uint64_t>(hb, offsetof(InboxHeader, magic));
  if (magic != kInboxMagic) return fmt("corrupt: magic 0x%016" PRIx64 ", expected 0x%016" PRIx64, magic, kInboxMagic);
  const auto version = field<std::uint32_t>(hb, offsetof(InboxHeader, layout_version));
  if (version != kInboxLayoutVersion) {
    return fmt("inbox layout version %u, this shmpi-dump reads version %u", version, kInboxLayoutVersion);
  }
  const auto owner = field<std::uint32_t>(hb, offsetof(InboxHeader, owner_rank));
  if (owner != in.rank) return fmt("corrupt: inbox of rank %u listed by rank %u", owner, in.rank);
  const auto nrings = field<std::uint32_t>(hb, offsetof(InboxHeader, nrings));
  if (nrings != v.nranks()) return fmt("corrupt: %u rings in the inbox, the job has %u ranks", nrings, v.nranks());
  const auto ring_bytes = field<std::uint32_t>(hb, offsetof(InboxHeader, ring_bytes));
  if (ring_bytes < kRecordAlign || (ring_bytes & (ring_bytes - 1)) != 0 || ring_bytes != in.ring_bytes) {
    return fmt("corrupt: rings of %u bytes (a power of two of at least %zu expected), the listing says %u",
               ring_bytes, kRecordAlign, in.ring_bytes);
  }
  // Every offset and size must be what the geometry gives; then every ring read below
  // lies inside a file of g.total bytes.
  const InboxGeometry g = inbox_geometry(nrings, ring_bytes);
  const auto stride = field<std::uint64_t>(hb, offsetof(InboxHeader, ring_stride));
  const auto rings_off = field<std::uint64_t>(hb, offsetof(InboxHeader, rings_offset));
  const auto total = field<std::uint64_t>(hb, offsetof(InboxHeader, total_bytes));
  if (stride != g.ring_stride || rings_off != g.rings_offset || total != g.total) {
    return fmt("corrupt: %u rings of %u bytes have stride %" PRIu64 ", offset %" PRIu64 ", total %" PRIu64
               "; expected %" PRIu64 ", %" PRIu64 ", %" PRIu64,
               nrings, ring_bytes, stride, rings_off, total, g.ring_stride, g.rings_offset, g.total);
  }
  if (file_size != total || in.inbox_bytes != total) {
    return fmt("corrupt: %u rings need a %" PRIu64 "-byte inbox; the file has %" PRIu64 " bytes, the listing says %" PRIu64,
               nrings, total, file_size, in.inbox_bytes);
  }
  in.posted = field<std::uint32_t>(hb, offsetof(InboxHeader, posted));
  in.unexpected = field<std::uint32_t>(hb, offsetof(InboxHeader, unexpected));
  in.waiting = field<std::uint32_t>(hb, offsetof(InboxHeader, waiting));
  in.wait_src = field<std::int32_t>(hb, offsetof(InboxHeader, wait_src));
  in.wait_tag = field<std::int32_t>(hb, offsetof(InboxHeader, wait_tag));
  in.wait_context = field<std::uint32_t>(hb, offsetof(InboxHeader, wait_context));
  in.sends_pending = field<std::uint64_t>(hb, offsetof(InboxHeader, sends_pending));
  const std::uint32_t shown = in.posted < kShownPosted ? in.posted : kShownPosted;
  for (std::uint32_t i = 0; i < shown; ++i) {
    const std::size_t at = offsetof(InboxHeader, shown) + i * sizeof(PostedShown);
    in.shown.push_back(PostedRow{field<std::uint32_t>(hb, at + offsetof(PostedShown, context)),
                                 field<std::int32_t>(hb, at + offsetof(PostedShown, src)),
                                 field<std::int32_t>(hb, at + offsetof(PostedShown, tag))});
  }
  for (std::uint32_t s = 0; s < nrings; ++s) {
    RingRow row{};
    row.sender = s;
    std::string io;
    if (!read_ring(f.get(), rings_off + std::uint64_t{s} * stride, ring_bytes, row, io)) return io;
    in.queued += row.queued;
    in.queued_bytes += row.queued_bytes;
    if (row.queued != 0 || !row.problem.empty()) in.rings.push_back(std::move(row));
  }
  return "";
}

}  // namespace

std::string p2p_wait_name(std::uint32_t w) {
  switch (static_cast<P2pWait>(w)) {
    case P2pWait::none: return "none";
    case P2pWait::recv: return "recv";
    case P2pWait::send: return "send";
    case P2pWait::probe: return "probe";
    case P2pWait::requests: return "requests";
  }
  return fmt("corrupt(%u)", w);
}

std::vector<InboxSnapshot> snapshot_p2p(const SegmentView& v) {
  std::vector<InboxSnapshot> out;
  for (std::uint32_t r = 0; r < v.nranks(); ++r) {
    const RankSlot& s = v.slot(r);
    const InboxDir& d = s.inbox;
    InboxSnapshot in{};
    in.rank = r;
    in.dir_state = d.state.load(std::memory_order_acquire);
    in.pid = rd(d.pid);
    in.fd = rd(d.fd);
    in.ring_bytes = rd(d.ring_bytes);
    in.inbox_bytes = rd(d.bytes);
    if (in.dir_state == 1) {
      if (in.pid <= 0 || in.fd < 0 || in.pid != rd(s.pid)) {
        in.problem = fmt("corrupt listing: pid %d fd %d (rank %u is pid %d)", in.pid, in.fd, r, rd(s.pid));
      } else {
        in.problem = read_inbox(v, in);
      }
      // Closed (MPI_Finalize) while we read: the fd may now hold something else.
      if (in.problem.empty() &&
          (d.state.load(std::memory_order_acquire) != 1 || rd(d.pid) != in.pid || rd(d.fd) != in.fd)) {
        in.problem = "vanished: closed while being read";
      }
      in.read = in.problem.empty();
    } else if (in.dir_state > 2) {
      in.problem = fmt("corrupt listing: inbox state %u", in.dir_state);
    }
    if (!in.read) {
      in.shown.clear();
      in.rings.clear();
      in.posted = in.unexpected = in.waiting = 0;
      in.queued = in.queued_bytes = in.sends_pending = 0;
    }
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace shmpi::dump
