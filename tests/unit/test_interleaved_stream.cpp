// The in-step rule of an interleaved reduce_scatter (libclient/src/coll/stream.hpp
// InStep): a model of n members, each pumping its blocks for the others round by round
// into its ring and folding its own block from theirs, with InStep's lead (target), the
// ring's room rule and the readers' acks as reduce.cpp and stream.cpp apply them. Every
// member's step that can move moves, in random orders; the model must never reach a
// state where no member can move before all are done, for every member count and fold
// chunk that InStep::keeps_step accepts, and must reach one for those it refuses and for
// a lead longer than the ring allows (the model can find a deadlock).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "coll/stream.hpp"

using shmpi::client::coll::ChunkRun;
using shmpi::client::coll::chunk_run;
using shmpi::client::coll::InStep;
namespace layout = shmpi::layout;

namespace {

constexpr std::uint64_t kChunk = layout::kStreamChunk;
// The fold chunk of 40-byte elements, which do not tile a ring chunk (image.hpp
// fold_chunk_bytes: 256 KiB of whole elements), so its reads start anywhere in a chunk.
constexpr std::uint64_t kUntiled = (std::uint64_t{256} << 10) / 40 * 40;

struct Member {
  std::uint32_t round = 0;     // the next round to pump
  int piece = 0;               // ... its next piece (member index)
  std::uint64_t folded = 0;    // bytes of its own block folded and reported (after())
  bool pumped_all = false;     // the fold is over: pumping the rest
  bool done = false;
  std::vector<std::uint32_t> written;  // chunks written (in rising order: the flag `streamed`)
};

struct Model {
  int n;
  std::uint32_t stride;
  std::vector<std::uint64_t> block;  // bytes of each member's block
  std::uint64_t fold_bytes;
  std::uint64_t extra_lead;  // bytes added to the lead (0: InStep's rule)
  bool holes;                // a chunk read to its end is acked only at the next read
  std::vector<Member> m;
  std::vector<std::vector<std::uint32_t>> ack;  // ack[r][w]: reader r's ack of writer w

  std::uint32_t chunks(int j) const { return static_cast<std::uint32_t>((block[j] + kChunk - 1) / kChunk); }
  std::uint32_t rounds(int w) const {
    std::uint32_t r = 0;
    for (int j = 0; j < n; ++j) {
      if (j != w) r = std::max(r, chunks(j));
    }
    return r;
  }
  // Writer w's stream word for reader j, as reduce.cpp stream_blocks writes it (base 0).
  std::uint64_t stream(int w, int j) const {
    const auto place = static_cast<std::uint64_t>(j < w ? j : j - 1);
    return layout::kPieceStreamed | std::uint64_t{stride} << layout::kPieceStrideShift | place;
  }
  std::uint64_t target(std::uint64_t folded) const {
    InStep s;
    s.stride = stride;
    return s.target(folded) + extra_lead;
  }

  // Writer w may write its next chunk: the one 32 back, if any piece's, is acked.
  bool room(int w, std::uint32_t c) const {
    if (c < layout::kStreamChunks) return true;
    const std::uint32_t back = c - layout::kStreamChunks;
    for (int q = 0; q < n; ++q) {
      if (q == w || block[q] == 0) continue;
      const ChunkRun run = chunk_run(stream(w, q));
      const std::uint32_t d = back - run.first;
      if (d % run.stride == 0 && d / run.stride < chunks(q)) return ack[q][w] >= back + 1;
    }
    return true;
  }
  // One chunk of w's pump, if its target allows it and there is room. A member's pump
  // runs to its target before it folds on (reduce.cpp: pump_to in the fold's after()).
  enum class Pump { moved, blocked, at_target };
  Pump pump_one(int w) {
    Member& x = m[w];
    const std::uint64_t upto = x.pumped_all ? ~std::uint64_t{0} : target(x.folded);
    for (;;) {
      if (x.round >= rounds(w) || std::uint64_t{x.round} * kChunk >= upto) return Pump::at_target;
      if (x.piece >= n) {
        ++x.round;
        x.piece = 0;
        continue;
      }
      const int j = x.piece;
      if (j == w || std::uint64_t{x.round} * kChunk >= block[j]) {
        ++x.piece;
        continue;
      }
      const std::uint32_t c = chunk_run(stream(w, j)).at(x.round);
      if (!room(w, c)) return Pump::blocked;
      x.written.push_back(c);
      ++x.piece;
      return Pump::moved;
    }
  }
  bool written(int w, std::uint32_t c) const { return !m[w].written.empty() && m[w].written.back() >= c; }
  // One fold chunk of r's own block, if every writer wrote what it reads.
  bool fold_one(int r) {
    Member& x = m[r];
    if (x.pumped_all) return false;
    const std::uint64_t end = std::min(block[r], x.folded + fold_bytes);
    if (x.folded >= block[r]) {
      for (int w = 0; w < n; ++w) {
        if (w != r && block[r] > 0) ack[r][w] = chunk_run(stream(w, r)).at(chunks(r) - 1) + 1;
      }
      x.pumped_all = true;
      return true;
    }
    const auto last = static_cast<std::uint32_t>((end - 1) / kChunk);
    for (int w = 0; w < n; ++w) {
      if (w != r && !written(w, chunk_run(stream(w, r)).at(last))) return false;
    }
    // Acks: chunks read to their end; with holes the last one waits for the next read.
    const auto full = static_cast<std::uint32_t>(end / kChunk);  // chunks below `end`
    const std::uint32_t acked = holes && end % kChunk == 0 && full > 0 ? full - 1 : full;
    for (int w = 0; w < n; ++w) {
      if (w != r && acked > 0) ack[r][w] = std::max(ack[r][w], chunk_run(stream(w, r)).at(acked - 1) + 1);
    }
    x.folded = end;
    return true;
  }
  bool step(int w) {
    Member& x = m[w];
    if (x.done) return false;
    const Pump p = pump_one(w);
    if (p != Pump::at_target) return p == Pump::moved;
    if (fold_one(w)) return true;
    if (x.pumped_all && x.round >= rounds(w)) {
      x.done = true;
      return true;
    }
    return false;
  }
  // Runs to the end in a random order of moves; false on a deadlock.
  bool run(std::mt19937& rng) {
    m.assign(static_cast<std::size_t>(n), Member{});
    ack.assign(static_cast<std::size_t>(n), std::vector<std::uint32_t>(static_cast<std::size_t>(n), 0));
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    for (;;) {
      std::shuffle(order.begin(), order.end(), rng);
      bool moved = false;
      for (int w : order) {
        // A member runs a random number of steps before the next one gets the core.
        for (int k = static_cast<int>(rng() % 6); k >= 0 && step(w); --k) moved = true;
      }
      if (std::all_of(m.begin(), m.end(), [](const Member& x) { return x.done; })) return true;
      if (!moved) return false;
    }
  }
};

}  // namespace

TEST_CASE("interleaved reduce_scatter members keep in step without deadlock") {
  std::mt19937 rng(12345);
  for (int n = 2; n <= static_cast<int>(InStep::kMaxStride) + 1; ++n) {
    const auto stride = static_cast<std::uint32_t>(n - 1);
    for (std::uint64_t fold : {kChunk, kUntiled}) {
      if (!InStep::keeps_step(stride, fold)) continue;
      for (bool holes : {false, true}) {
        // Equal blocks of 37 chunks; then uneven ones, one member without a block.
        for (int shape = 0; shape < 2; ++shape) {
          Model md{n, stride, {}, fold, 0, holes, {}, {}};
          for (int j = 0; j < n; ++j) {
            md.block.push_back(shape == 0 ? 37 * kChunk : j % 3 == 1 ? 0 : (29 + 5 * (j % 3)) * kChunk + 8 * j);
          }
          for (int rep = 0; rep < 20; ++rep) {
            CAPTURE(n);
            CAPTURE(fold);
            CAPTURE(holes);
            CAPTURE(shape);
            REQUIRE(md.run(rng));
          }
        }
      }
    }
  }
}

TEST_CASE("interleaved reduce_scatter: the lead's bound is needed") {
  // InStep's lead (up to two segments) plus `extra` rounds, 8 members: a lead up to the
  // ring's rounds keeps moving (without holes), one round more deadlocks.
  const int n = 8;
  const auto stride = static_cast<std::uint32_t>(n - 1);
  const auto seg = static_cast<std::uint32_t>(InStep::segment_bytes(stride) / kChunk);
  const std::uint32_t last_ok = InStep::ring_rounds(stride) - 2 * seg;
  for (std::uint32_t extra = 0; extra <= last_ok + 1; ++extra) {
    std::mt19937 rng(7);
    Model md{n, stride, std::vector<std::uint64_t>(static_cast<std::size_t>(n), 37 * kChunk), kChunk,
             extra * kChunk, false, {}, {}};
    bool deadlocked = false;
    for (int rep = 0; rep < 20 && !deadlocked; ++rep) deadlocked = !md.run(rng);
    CAPTURE(extra);
    CHECK(deadlocked == (extra > last_ok));
  }
}

TEST_CASE("interleaved reduce_scatter: InStep::keeps_step refuses what deadlocks") {
  // With holes (the worst case for acks), every member count and fold chunk it refuses
  // deadlocks in the model: the line is where it must be, not further in.
  std::mt19937 rng(99);
  for (int n = 2; n <= 18; ++n) {
    const auto stride = static_cast<std::uint32_t>(n - 1);
    for (std::uint64_t fold : {kChunk, kUntiled}) {
      if (InStep::keeps_step(stride, fold)) continue;
      Model md{n, stride, std::vector<std::uint64_t>(static_cast<std::size_t>(n), 37 * kChunk), fold, 0, true, {}, {}};
      bool deadlocked = false;
      for (int rep = 0; rep < 20 && !deadlocked; ++rep) deadlocked = !md.run(rng);
      CAPTURE(n);
      CAPTURE(fold);
      CHECK(deadlocked);
    }
  }
}

TEST_CASE("a piece's stream word names its chunks") {
  const std::uint64_t word = layout::kPieceStreamed | std::uint64_t{7} << layout::kPieceStrideShift | 1000u;
  const ChunkRun run = chunk_run(word);
  CHECK(run.first == 1000u);
  CHECK(run.stride == 7u);
  CHECK(run.at(3) == 1021u);
  // A contiguous piece (stride bits 0) and a plain first chunk read as stride 1.
  CHECK(chunk_run(layout::kPieceStreamed | 55u).stride == 1u);
  CHECK(ChunkRun{55u}.at(2) == 57u);
}
