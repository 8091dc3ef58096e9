// Streams: how a contribution larger than kStageMax travels when its writer can copy
// it (shm_layout/comm.hpp kStreamChunk). The writer copies it chunk by chunk into its
// ring in the segment (pump) while each reader copies the chunks out (drain): the two
// copies run on two cores at once, and each costs about a memcpy, where the reader's
// process_vm_readv of the writer's memory costs ~3x that.
//
// Protocol (per writer w; chunk numbers c are w's, 32-bit, never reset):
//   writer: before writing chunk c over chunk c - kStreamChunks of the same call,
//           acquires that chunk's readers' ack(r, w) >= c - kStreamChunks + 1 (ring
//           room; an earlier call's chunks are free: its finish() waited for its
//           readers' `done`); writes the chunk; releases `streamed` = c + 1.
//   reader: acquires `streamed` >= c + 1, copies chunk c out, releases ack(r, w) = c + 1.
// The writer publishes the first chunk in its descriptor (kDescStreamed, value[0]) or
// piece (kPieceStreamed), sets kDescExposed (its readers publish `done` at once) and
// waits in finish() for its readers' `done` like an exposing writer. A reader posts in
// the call before it drains (a reader that passed invalid arguments posts an invalid
// descriptor instead): the writer checks that post before it waits for the reader's ack.
// One stream per rank and communicator at a time (nonblocking calls run interleaved on
// tasks): a call that finds the ring busy exposes instead (process_vm_readv).
#pragma once

#include <algorithm>
#include <cstdint>

#include "coll/engine.hpp"

namespace shmpi::client::coll {

// One part of a writer's stream: `bytes` of src (packed; or of `raw`, a memory image,
// when src is null) from chunk `first`, for `reader` (-1: every other member).
struct StreamPart {
  const Buf* src = nullptr;
  const std::byte* raw = nullptr;
  std::uint64_t bytes = 0;
  std::uint32_t first = 0;
  int reader = -1;
  // Chunks of the same run, for the same reader, written before `first` (a StreamCursor's
  // earlier parts): pump() waits for that reader's acks of them, not everybody's.
  std::uint32_t before = 0;
};

// Chunks that `bytes` take (a part of 0 bytes takes none; streamed ones are > kStageMax).
inline std::uint32_t stream_chunks(std::uint64_t bytes) {
  return static_cast<std::uint32_t>((bytes + layout::kStreamChunk - 1) / layout::kStreamChunk);
}

// Where a streamed contribution's chunks are: its i-th is first + i * stride (stride 1:
// one after the other; more: a piece interleaved with its writer's others, InStep).
// From a uint32 first chunk: contiguous.
struct ChunkRun {
  ChunkRun(std::uint32_t f, std::uint32_t s = 1) : first(f), stride(s) {}  // NOLINT: a first chunk is a run
  std::uint32_t first;
  std::uint32_t stride;
  std::uint32_t at(std::uint32_t i) const { return first + i * stride; }
};
// A piece's or Source's `stream` word (comm.hpp PieceDesc) as a run.
inline ChunkRun chunk_run(std::uint64_t stream) {
  const auto stride = static_cast<std::uint32_t>((stream >> layout::kPieceStrideShift) & layout::kPieceStrideMask);
  return ChunkRun{static_cast<std::uint32_t>(stream), stride == 0 ? 1 : stride};
}

// The member whose streamed piece in our table t holds chunk c of our stream (its run,
// chunk_run), or -1 (a chunk of no piece: interleaved pieces of different lengths leave
// numbers unused).
inline int piece_holding(const Call& k, const layout::PieceDesc* t, std::uint32_t c) {
  for (int q = 0; q < k.n; ++q) {
    if ((t[q].stream & layout::kPieceStreamed) == 0) continue;
    const ChunkRun run = chunk_run(t[q].stream);
    const std::uint32_t d = c - run.first;
    if (d % run.stride == 0 && d / run.stride < stream_chunks(t[q].bytes)) return q;
  }
  return -1;
}

// Piece j of a piece table as a stream part (0 bytes unless it is streamed); the
// caller says where its bytes are (src or raw).
inline StreamPart piece_part(const layout::PieceDesc& p, int j) {
  const bool s = (p.stream & layout::kPieceStreamed) != 0;
  return StreamPart{nullptr, nullptr, s ? p.bytes : 0, static_cast<std::uint32_t>(p.stream), j};
}

// Whether this call may stream: no other call of this rank on the communicator is.
bool can_stream(const Call& k);
// Takes the chunks for `bytes` in this call's stream: the first one's number. The first
// take starts the stream (k.streaming: finish() ends it; k.exposed).
std::uint32_t take_chunks(Call& k, std::uint64_t bytes);

// A whole contribution of `bytes` streamed: our descriptor says so (kDescStreamed, the
// first chunk in value[0]; post it next) and the chunks are taken. The first chunk.
std::uint32_t stream_whole(Call& k, std::uint64_t bytes);

// Writes the parts (part(i) for i < n, in chunk order) into the ring. False if aborted.
template <class Parts>
bool pump(Call& k, int n, Parts part);

// Copies `len` bytes of a chunk into dst from byte `at` of its packed form (memcpy, or
// unpacked into a non-contiguous buffer).
void copy_out(const std::byte* from, const Buf& dst, std::uint64_t at, std::uint64_t len);

// Copies writer w's `bytes` from chunk `first` into dst from byte `at` of it (after a
// split's head), acking each chunk; what does not fit in dst is acked unread (k.error =
// MPI_ERR_TRUNCATE). False if aborted.
bool drain(Call& k, int w, std::uint32_t first, std::uint64_t bytes, const Buf& dst, std::uint64_t at = 0);

// Split contributions (2 members only; scatter, gather): a block of at least kSplitMin
// bytes that is contiguous on both sides moves 1/kSplitShare of itself (its head) by
// process_vm_readv/writev, done by the side that would otherwise wait for the writer
// (the scatter reader while the root copies its own block; the gather sender while
// the root does), and the rest through the writer's ring: the root's two copies of a
// block against the other side's one become balanced (docs/collectives.md "Split
// blocks"). process_vm_readv costs ~3-4x a memcpy here, so a quarter balances (a
// fifth, a third: slower); below 1 MiB the system call costs more than it saves.
inline constexpr std::uint64_t kSplitMin = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kSplitShare = 4;
// The head of a split block of `bytes` (a multiple of 64, the stream starts aligned).
inline std::uint64_t split_head(std::uint64_t bytes) { return bytes / kSplitShare / 64 * 64; }

// Random access in increasing order (a fold, reduce.cpp): copies `len` bytes at
// `offset` of writer w's stream in the chunks of `run` into dst, acking each chunk it
// reads to its end (ack_all the rest). False if aborted.
bool stream_read(Call& k, int w, ChunkRun run, std::uint64_t offset, void* dst, std::size_t len);
// Acks all `bytes` of writer w's stream in `run` (the rest a reader does not read).
void ack_all(Call& k, int w, ChunkRun run, std::uint64_t bytes);

// Chunk c of member w's ring, where it lies (mapped on first use): a chain allreduce
// folds into it in place (chain.hpp).
std::byte* stream_chunk(Call& k, int w, std::uint32_t c);

// In-place reading (a fold, image.hpp: the kernel reads the ring, no copy out first):
// the `len` bytes at `offset` of writer w's stream in the chunks of `run`, where they lie in
// the ring, once written, if they lie within one chunk; else nullptr, nothing waited
// for (read them with stream_read). `ok` turns false if the job was aborted.
const std::byte* stream_view(Call& k, int w, ChunkRun run, std::uint64_t offset, std::size_t len, bool& ok);
// After reading a view up to stream offset `end`: acks its chunk if that is its end.
void stream_viewed(Call& k, int w, ChunkRun run, std::uint64_t end);

// pump's pieces, not templated.
namespace stream_detail {
// Waits until reader r (-1: all but us; r that posted an invalid descriptor: never)
// has acked `upto`. False if aborted.
bool wait_room(Call& k, int r, std::uint32_t upto);
// Copies `len` bytes at `off` of src (packed) into chunk c's ring place, then
// publishes streamed = c + 1.
void write_chunk(Call& k, const StreamPart& p, std::uint64_t off, std::size_t len, std::uint32_t c);
}  // namespace stream_detail

template <class Parts>
bool pump(Call& k, int n, Parts part) {
  for (int i = 0; i < n; ++i) {
    const StreamPart p = part(i);
    const std::uint32_t count = stream_chunks(p.bytes);
    for (std::uint32_t j = 0; j < count; ++j) {
      const std::uint32_t c = p.first + j;
      // Ring room: the chunk kStreamChunks back, if it is this call's, must be read.
      const std::uint32_t back = c - layout::kStreamChunks;
      if (static_cast<std::int32_t>(back - k.stream_first) >= 0) {
        int owner = -1;
        for (int q = 0; q <= i; ++q) {
          const StreamPart o = part(q);
          if (static_cast<std::uint32_t>(back - (o.first - o.before)) < o.before + stream_chunks(o.bytes)) {
            owner = o.reader;
          }
        }
        if (!stream_detail::wait_room(k, owner, back + 1)) return false;
      }
      const std::uint64_t off = std::uint64_t{j} * layout::kStreamChunk;
      const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(layout::kStreamChunk, p.bytes - off));
      stream_detail::write_chunk(k, p, off, len, c);
    }
  }
  return true;
}

// A stream pumped a part at a time, in order: `bytes` of the image `raw` from chunk
// `first`, for `reader` (-1: every other member), `sent` of them so far. reduce.cpp
// pumps a result on as its fold finishes it, and a 2-member reduce_scatter's block in
// step with its own fold. bytes 0: nothing to pump.
struct StreamCursor {
  const std::byte* raw = nullptr;
  std::uint32_t first = 0;
  std::uint64_t bytes = 0;
  int reader = -1;
  std::uint64_t sent = 0;

  // Pumps bytes [sent, upto) in whole chunks (every part starts at a chunk), all of
  // them once upto reaches `bytes`. False if aborted.
  bool pump_to(Call& k, std::uint64_t upto) {
    upto = upto < bytes ? upto / layout::kStreamChunk * layout::kStreamChunk : bytes;
    if (upto <= sent) return true;
    const auto before = static_cast<std::uint32_t>(sent / layout::kStreamChunk);
    const StreamPart part{nullptr, raw + sent, upto - sent, first + before, reader, before};
    sent = upto;
    return pump(k, 1, [&](int) { return part; });
  }
};

// A writer's pieces for all the other members, interleaved chunk by chunk: piece j's
// chunk i is chunk first_j + i * stride (stride n - 1, first_j the writer's first chunk
// plus j's place among the other members), written a round (chunk i of every piece) at
// a time, so the chunk numbers rise. A large reduce_scatter's blocks, pumped in step
// with the writer's own fold (reduce.cpp): every reader gets its first chunks at once,
// and no member waits for another's wait:
//  - A fold reads round i of every writer. A writer has pumped that round before its
//    own fold got that far (target() leads its fold by at least one round).
//  - A pump of round i needs the ring place of a chunk kStreamChunks back, which is at
//    least ring_rounds() rounds back. target() leads by at most two segments of a
//    quarter of those (at least one round each), and the reader of that chunk folded
//    it once every writer, the pumping one too, had pumped its round. (A reader may
//    ack a round only when it reads the next, elements with holes: ring_rounds() >= 3,
//    kMaxStride.)
//  - A fold reads a chunk of its own (image.hpp fold_chunk_bytes) past what it said it
//    folded: a ring chunk where it starts, else up to that chunk's rounds past it, which
//    the writer's lead of at least a segment must cover (keeps_step).
// Two members (stride 1) take segments of 8 chunks, 512 KiB.
struct InStep {
  static constexpr std::uint32_t kMaxStride = 10;
  const std::byte* raw = nullptr;        // the image the pieces' stage_off are offsets of
  const layout::PieceDesc* t = nullptr;  // our piece table; null: nothing to pump
  std::uint32_t stride = 1;
  std::uint32_t rounds = 0;  // the longest piece's chunks
  std::uint32_t next = 0;    // the next round to pump

  static std::uint32_t ring_rounds(std::uint32_t stride) { return layout::kStreamChunks / stride; }
  static std::uint64_t segment_bytes(std::uint32_t stride) {
    return std::max<std::uint32_t>(1, ring_rounds(stride) / 4) * layout::kStreamChunk;
  }
  // Whether members that fold `fold_bytes` at a time can keep in step at this stride.
  static bool keeps_step(std::uint32_t stride, std::uint64_t fold_bytes) {
    return stride <= kMaxStride && (fold_bytes == layout::kStreamChunk || segment_bytes(stride) >= fold_bytes);
  }
  // The bytes of every piece pumped once `folded` bytes of our own block are folded:
  // through the segment after the next.
  std::uint64_t target(std::uint64_t folded) const {
    const std::uint64_t seg = segment_bytes(stride);
    return (folded / seg + 2) * seg;
  }
  // Pumps the rounds that start below byte `upto` of a piece. False if aborted.
  bool pump_to(Call& k, std::uint64_t upto);
  bool pump_all(Call& k) { return pump_to(k, std::uint64_t{rounds} * layout::kStreamChunk); }
};

}  // namespace shmpi::client::coll
