#include "coll/stream.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "coll/first_access.hpp"
#include "copy_bytes.hpp"
#include "types/pack.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {
std::byte* chunk_at(const CommBlock* b, int w, std::uint32_t c) {
  return b->ring(w) + static_cast<std::uint64_t>(c % layout::kStreamChunks) * layout::kStreamChunk;
}

// Maps member w's ring into our page tables in one call, the first time we write
// (w = us) or read it: else its 512 pages fault one by one in the first calls, which on
// this VM cost milliseconds per process (8 ranks, 256 KiB alltoall, few calls: see
// docs/collectives.md). Once per member and communicator, not per call; a hint (an
// older kernel without MADV_POPULATE_* just faults as before).
void map_ring(Call& k, int w) {
  std::vector<std::uint8_t>& m = k.comm->ring_mapped;
  if (m.size() != static_cast<std::size_t>(k.n)) m.assign(static_cast<std::size_t>(k.n), 0);
  std::uint8_t& done = m[static_cast<std::size_t>(w)];
  if (done != 0) return;
  done = 1;
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
  (void)madvise(k.b->ring(w), layout::kStreamRing, w == k.me ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
#endif
  // Then its first accesses (first_access.hpp), which the populate does not make here:
  // a store to each page of our own (before its first chunk: nothing in it is read
  // yet), a load from each of another's. The path choice's rare stream calls (32 calls
  // apart) always reached a part of the ring not accessed yet: a 2-rank 256 KiB bcast
  // that kept the single copy ran at a median of 21 us per call, 9.7 without them.
  if (w == k.me) {
    store_pages(k.b->ring(w), layout::kStreamRing);
  } else {
    load_pages(k.b->ring(w), layout::kStreamRing);
  }
}
}  // namespace

bool can_stream(const Call& k) { return k.streaming || !k.comm->stream_busy; }

std::uint32_t take_chunks(Call& k, std::uint64_t bytes) {
  CommObj* c = k.comm;
  if (!k.streaming) {
    map_ring(k, k.me);
    k.streaming = true;
    k.stream_first = c->stream_next;
    c->stream_busy = true;
    c->stream_readers.assign(static_cast<std::size_t>(k.n), 0);
  }
  k.exposed = true;
  const std::uint32_t first = c->stream_next;
  c->stream_next += stream_chunks(bytes);
  return first;
}

std::uint32_t stream_whole(Call& k, std::uint64_t bytes) {
  layout::CallDesc& d = my_desc(k);
  d.status = layout::kDescStreamed;
  d.addr = 0;
  d.bytes = bytes;
  const std::uint32_t first = take_chunks(k, bytes);
  d.value[0] = first;
  return first;
}

namespace stream_detail {

bool wait_room(Call& k, int r, std::uint32_t upto) {
  if (r < 0) {
    for (int q = 0; q < k.n; ++q) {
      if (q != k.me && !wait_room(k, q, upto)) return false;
    }
    return true;
  }
  // 0 unknown, 1 posted valid, 2 posted invalid (it reads nothing).
  std::uint8_t& state = k.comm->stream_readers[static_cast<std::size_t>(r)];
  if (state == 0) {
    if (!wait_posted(k, r)) return false;
    state = invalid(desc(k, r)) ? 2 : 1;
  }
  if (state == 2) return true;
  return wait_on(k, r, k.b->ack(r, k.me), upto);
}

void write_chunk(Call& k, const StreamPart& p, std::uint64_t off, std::size_t len, std::uint32_t c) {
  std::byte* to = chunk_at(k.b, k.me, c);
  if (p.src == nullptr) {
    copy_bytes(to, p.raw + off, len);
  } else if (const Buf& src = *p.src; src.contiguous()) {
    copy_bytes(to, src.data() + off, len);
  } else {
    types::pack_range(*src.type, *src.flat, src.addr, static_cast<MPI_Count>(off), static_cast<MPI_Count>(len), to);
  }
  signal_flag(k.mine->streamed, c + 1);
}

}  // namespace stream_detail

bool stream_read(Call& k, int w, ChunkRun run, std::uint64_t offset, void* dst, std::size_t len) {
  map_ring(k, w);
  layout::Flag& streamed = k.b->rank(w).streamed;
  auto* out = static_cast<std::byte*>(dst);
  const std::uint64_t end = offset + len;
  while (offset < end) {
    const std::uint32_t c = run.at(static_cast<std::uint32_t>(offset / layout::kStreamChunk));
    const std::uint64_t in = offset % layout::kStreamChunk;
    const std::uint64_t n = std::min(layout::kStreamChunk - in, end - offset);
    if (!wait_on(k, w, streamed, c + 1)) return false;
    copy_bytes(out, chunk_at(k.b, w, c) + in, n);
    out += n;
    offset += n;
    // A chunk read to its end is acked at once (the writer may wait for it).
    if (offset % layout::kStreamChunk == 0) signal_flag(k.b->ack(k.me, w), c + 1);
  }
  return true;
}

const std::byte* stream_view(Call& k, int w, ChunkRun run, std::uint64_t offset, std::size_t len, bool& ok) {
  const auto j = static_cast<std::uint32_t>(offset / layout::kStreamChunk);
  const std::uint64_t in = offset % layout::kStreamChunk;
  if (len == 0 || in + len > layout::kStreamChunk) return nullptr;
  map_ring(k, w);
  // Reads go forward: the chunks before this one are done, also where a view did not
  // reach a chunk's end (elements whose true extent is below their extent leave a gap
  // at each fold chunk's end), else a writer waiting for ring room would wait forever.
  layout::Flag& ack = k.b->ack(k.me, w);
  if (j > 0 && ack.value.load(std::memory_order_relaxed) != run.at(j - 1) + 1) signal_flag(ack, run.at(j - 1) + 1);
  if (!wait_on(k, w, k.b->rank(w).streamed, run.at(j) + 1)) {
    ok = false;
    return nullptr;
  }
  return chunk_at(k.b, w, run.at(j)) + in;
}

std::byte* stream_chunk(Call& k, int w, std::uint32_t c) {
  map_ring(k, w);
  return chunk_at(k.b, w, c);
}

void stream_viewed(Call& k, int w, ChunkRun run, std::uint64_t end) {
  if (end == 0 || end % layout::kStreamChunk != 0) return;
  signal_flag(k.b->ack(k.me, w), run.at(static_cast<std::uint32_t>(end / layout::kStreamChunk) - 1) + 1);
}

void ack_all(Call& k, int w, ChunkRun run, std::uint64_t bytes) {
  const std::uint32_t n = stream_chunks(bytes);
  signal_flag(k.b->ack(k.me, w), n == 0 ? run.first : run.at(n - 1) + 1);
}

void copy_out(const std::byte* from, const Buf& dst, std::uint64_t at, std::uint64_t len) {
  if (dst.contiguous()) {
    copy_bytes(dst.data() + at, from, len);
  } else {
    types::unpack_range(*dst.type, *dst.flat, from, static_cast<MPI_Count>(at), static_cast<MPI_Count>(len), dst.addr);
  }
}

bool drain(Call& k, int w, std::uint32_t first, std::uint64_t bytes, const Buf& dst, std::uint64_t at) {
  map_ring(k, w);
  const std::uint64_t fits = receivable(k, w, at + bytes, dst);
  const std::uint64_t room = fits > at ? fits - at : 0;
  layout::Flag& streamed = k.b->rank(w).streamed;
  layout::Flag& ack = k.b->ack(k.me, w);
  const std::uint32_t count = stream_chunks(bytes);
  for (std::uint32_t j = 0; j < count; ++j) {
    const std::uint32_t c = first + j;
    const std::uint64_t off = std::uint64_t{j} * layout::kStreamChunk;
    const std::uint64_t len = std::min<std::uint64_t>(layout::kStreamChunk, bytes - off);
    const std::uint64_t part = off < room ? std::min(len, room - off) : 0;
    if (part > 0) {
      if (!wait_on(k, w, streamed, c + 1)) return false;
      copy_out(chunk_at(k.b, w, c), dst, at + off, part);
    }
    signal_flag(ack, c + 1);
  }
  return true;
}

namespace {
// Ring room for chunk c of an interleaved stream: the chunk kStreamChunks back, if it
// is this call's and one of the pieces' (a shorter piece leaves its later numbers
// unused), acked by its reader. False if aborted.
bool interleaved_room(Call& k, const layout::PieceDesc* t, std::uint32_t c) {
  const std::uint32_t back = c - layout::kStreamChunks;
  if (static_cast<std::int32_t>(back - k.stream_first) < 0) return true;
  const int q = piece_holding(k, t, back);
  return q < 0 || stream_detail::wait_room(k, q, back + 1);
}
}  // namespace

bool InStep::pump_to(Call& k, std::uint64_t upto) {
  if (t == nullptr) return true;
  const auto end = static_cast<std::uint32_t>(std::min<std::uint64_t>(rounds, stream_chunks(upto)));
  for (; next < end; ++next) {
    const std::uint64_t off = std::uint64_t{next} * layout::kStreamChunk;
    for (int j = 0; j < k.n; ++j) {
      const layout::PieceDesc& p = t[j];
      if ((p.stream & layout::kPieceStreamed) == 0 || off >= p.bytes) continue;
      const std::uint32_t c = chunk_run(p.stream).at(next);
      if (!interleaved_room(k, t, c)) return false;
      const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(layout::kStreamChunk, p.bytes - off));
      stream_detail::write_chunk(k, StreamPart{nullptr, raw + p.stage_off, p.bytes, 0, j}, off, len, c);
    }
  }
  return true;
}

}  // namespace shmpi::client::coll
