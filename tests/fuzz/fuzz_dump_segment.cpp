// Fuzz target: shmpi-dump reading a corrupted job segment and corrupted window,
// communicator and point-to-point blocks.
//
// shmpi-dump maps a segment and hands the bytes to check_header() and snapshot() (which
// already work on memory), so no refactoring was needed: the harness puts the input's
// segment image in a page-aligned heap buffer of exactly its size (ASan sees any read
// past it) and runs what `shmpi-dump --segment NAME` and `--json` run: check_header,
// snapshot with details, the table and the JSON report.
//
// Input: [flags u8][image_len u32][image][blocks...], block = [kind u8][rank u8]
// [entry u8][file size u32][content length u16][content] (the rest of the file reads
// as zeros). Each block (kind 0 window control block, 1 communicator
// block, 2 point-to-point inbox) goes into a memfd of this process named as the library
// names it, and the image's directory entry (rank, entry) is pointed at it (pid = ours,
// fd = the memfd), so the block readers run on fuzzed contents through /proc/self/fd,
// as they would on a live job. Flag bit 0 repairs the header identity (magic, version,
// checksum, sizes) so mutations get past check_header into the rank slots.
//
// Properties: no crash, no out-of-bounds read, no hang; a refused header comes with a
// reason; every report is valid JSON (names from the segment are escaped).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "job_report.hpp"
#include "shm_layout/layout_checksum.hpp"
#include "shm_layout/segment_view.hpp"

namespace {
using namespace shmpi;
using namespace shmpi::layout;
using shmpi::fuzz::Input;

constexpr std::size_t kMaxImage = 64 * kPage;      // 63 ranks
constexpr std::uint32_t kMaxBlock = 4u << 20;      // a block's file size (its content is shorter)

// A minimal JSON validator: true if `s` is exactly one JSON value.
struct Json {
  const std::string& s;
  std::size_t i = 0;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  bool lit(const char* w) {
    const std::size_t n = std::strlen(w);
    if (s.compare(i, n, w) != 0) return false;
    i += n;
    return true;
  }
  bool str() {
    if (i >= s.size() || s[i] != '"') return false;
    for (++i; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c < 0x20) return false;
      if (c == '\\') {
        if (++i >= s.size() || std::strchr("\"\\/bfnrtu", s[i]) == nullptr) return false;
      } else if (c == '"') {
        ++i;
        return true;
      }
    }
    return false;
  }
  bool num() {
    const std::size_t b = i;
    if (i < s.size() && s[i] == '-') ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || std::strchr(".eE+-", s[i]))) ++i;
    return i > b && std::isdigit(static_cast<unsigned char>(s[i - 1]));
  }
  bool value(int depth = 0) {
    if (depth > 64) return false;
    ws();
    if (i >= s.size()) return false;
    const char c = s[i];
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++i;
      ws();
      if (i < s.size() && s[i] == close) return ++i, true;
      for (;;) {
        ws();
        if (c == '{') {
          if (!str()) return false;
          ws();
          if (i >= s.size() || s[i++] != ':') return false;
        }
        if (!value(depth + 1)) return false;
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        return i < s.size() && s[i++] == close;
      }
    }
    if (c == '"') return str();
    if (lit("true") || lit("false") || lit("null")) return true;
    return num();
  }
  bool whole() { return value() && (ws(), i == s.size()); }
};

void check_json(const std::string& s) {
  Json j{s};
  if (!j.whole()) std::fprintf(stderr, "invalid JSON near byte %zu: %.200s\n", j.i, s.c_str() + std::min(j.i, s.size()));
  FUZZ_CHECK_MSG(Json{s}.whole(), "shmpi-dump produced invalid JSON");
}

struct Memfd {
  int fd = -1;
  ~Memfd() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const std::uint8_t flags = in.u8();
  const std::size_t image_len = std::min<std::size_t>({in.u32(), in.left(), kMaxImage});
  // Page-aligned (the structs are alignas(kPage)) and exactly the mapped size.
  const std::size_t mapped = (image_len + kPage - 1) / kPage * kPage;
  void* base = mapped ? std::aligned_alloc(kPage, mapped) : nullptr;
  if (mapped) {
    std::memset(base, 0, mapped);
    in.bytes(base, image_len);
  }
  if ((flags & 1) && mapped >= sizeof(JobHeader)) {
    auto* h = static_cast<JobHeader*>(base);
    h->magic = kMagic;
    h->layout_version = kLayoutVersion;
    h->header_size = sizeof(JobHeader);
    h->layout_checksum = kLayoutChecksum;
    h->rank_slot_size = sizeof(RankSlot);
    h->rank_table_offset = kRankTableOffset;
    const std::uint32_t fits = static_cast<std::uint32_t>((mapped - kRankTableOffset) / sizeof(RankSlot));
    if (h->nranks == 0 || h->nranks > fits) h->nranks = std::max<std::uint32_t>(fits, 1);
    h->segment_size = segment_size_for(h->nranks);
    h->barrier_algo %= 2;
    if (h->creator_pid.load() == 0) h->creator_pid.store(1);
  }
  // Blocks, each in a memfd this process holds while the dump reads it.
  std::vector<Memfd> fds(8);
  const std::uint32_t slots = mapped > kRankTableOffset ? static_cast<std::uint32_t>((mapped - kRankTableOffset) / sizeof(RankSlot)) : 0;
  for (std::size_t b = 0; b < fds.size() && !in.empty() && slots > 0; ++b) {
    const int kind = in.u8() % 3;
    const std::uint32_t rank = in.u8() % slots;
    const std::uint32_t entry = in.u8();
    const std::uint32_t file_len = std::min(in.u32(), kMaxBlock);
    static const char* const kNames[] = {"shmpi-win", "shmpi-comm", "shmpi-inbox"};
    fds[b].fd = memfd_create(kNames[kind], MFD_CLOEXEC);
    FUZZ_CHECK(fds[b].fd >= 0);
    const std::size_t content_len = std::min<std::size_t>(in.u16(), file_len);
    std::vector<std::uint8_t> content(std::min(content_len, in.left()));
    in.bytes(content.data(), content.size());
    FUZZ_CHECK(ftruncate(fds[b].fd, static_cast<off_t>(file_len)) == 0);
    if (!content.empty()) FUZZ_CHECK(pwrite(fds[b].fd, content.data(), content.size(), 0) == static_cast<ssize_t>(content.size()));
    auto* slot = reinterpret_cast<RankSlot*>(static_cast<std::byte*>(base) + kRankTableOffset + std::size_t{rank} * sizeof(RankSlot));
    const std::int32_t me = getpid();
    slot->pid = me;
    if (kind == 0) {
      WinDirEntry& e = slot->windows[entry % kWinDirEntries];
      e.pid = me;
      e.fd = fds[b].fd;
      e.state.store(1);
    } else if (kind == 1) {
      CommDirEntry& e = slot->comms[entry % kCommDirEntries];
      e.pid = me;
      e.fd = fds[b].fd;
      e.state.store(1);
    } else {
      slot->inbox.pid = me;
      slot->inbox.fd = fds[b].fd;
      slot->inbox.state.store(1);
    }
  }
  // Directory entries the input did not point at one of our memfds must not make the
  // dump probe other processes: they name this process and an fd it does not have open.
  for (std::uint32_t r = 0; r < slots; ++r) {
    auto* slot = reinterpret_cast<RankSlot*>(static_cast<std::byte*>(base) + kRankTableOffset + std::size_t{r} * sizeof(RankSlot));
    const auto ours = [&](std::int32_t fd) {
      for (const Memfd& m : fds) {
        if (m.fd >= 0 && m.fd == fd) return true;
      }
      return false;
    };
    const std::int32_t me = getpid();
    if (slot->pid != me) slot->pid = me;
    for (auto& e : slot->windows) {
      if (!ours(e.fd)) e.pid = me, e.fd = 1000000;
    }
    for (auto& e : slot->comms) {
      if (!ours(e.fd)) e.pid = me, e.fd = 1000000;
    }
    if (!ours(slot->inbox.fd)) slot->inbox.pid = me, slot->inbox.fd = 1000000;
  }

  const std::string why = check_header(base, mapped);
  if (!why.empty()) {
    std::free(base);
    return 0;  // refused, with a reason: what shmpi-dump prints
  }
  const SegmentView v(base, mapped);
  const dump::JobSnapshot j = dump::snapshot("shmpi-fuzz", v, true);
  FUZZ_CHECK(j.ranks.size() == v.nranks());
  for (const auto& w : j.windows) FUZZ_CHECK(w.problem.empty() || w.ranks.empty());
  const std::string table = dump::job_table(j);
  FUZZ_CHECK(!table.empty());
  check_json(dump::job_json(j));
  check_json(dump::job_list_json({j}));
  std::free(base);
  return 0;
}
