#include "coll/path_choice.hpp"

#include <time.h>

#include <algorithm>

#include "coll/fiber.hpp"
#include "env.hpp"

namespace shmpi::client::coll {

namespace {

enum class Forced : std::uint8_t { none, stream, copy };

Forced forced() {
  static const Forced f = static_cast<Forced>(env_word("SHMPI_COLL_PATH", {"stream", "copy"}) + 1);
  return f;
}

int size_class(std::uint64_t bytes) {
  const int log2 = 63 - __builtin_clzll(bytes | 1);
  return std::clamp(log2 - 15, 0, kPathClasses - 1);
}

PathStats::Cell& cell(PathStats& s, PathKind kind, std::uint64_t bytes) {
  return s.cells[static_cast<int>(kind)][size_class(bytes)];
}

// Path i's estimate: the best of its last warm calls (of those timed so far).
float estimate(const PathStats::Cell& c, int i) {
  const int n = static_cast<int>(std::min<std::uint32_t>(c.warm[i], kPathWindow));
  return *std::min_element(c.recent_us[i], c.recent_us[i] + n);
}

// A size class has learnt once it has two warm calls of each path, or one of each where
// one path took more than kClearWin times the other's: a clear winner does not wait for
// the second pair (a benchmark that runs ten 1 MiB calls spent eight of them learning).
constexpr float kClearWin = 2.0F;
bool learnt(const PathStats::Cell& c) {
  if (c.warm[0] >= 2 && c.warm[1] >= 2) return true;
  if (c.warm[0] < 1 || c.warm[1] < 1) return false;
  const float st = estimate(c, 0), cp = estimate(c, 1);
  return st > kClearWin * cp || cp > kClearWin * st;
}

}  // namespace

std::uint64_t path_clock_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000U + static_cast<std::uint64_t>(t.tv_nsec);
}

std::uint32_t path_hint_bit(PathKind kind, std::uint64_t bytes) {
  const int shift = kind == PathKind::alltoall ? 16 : 0;
  return std::uint32_t{1} << (shift + size_class(bytes));
}

void publish_pick(std::atomic<std::uint32_t>& hint, const PathPick& p) {
  const std::uint32_t bit = path_hint_bit(p.kind, p.bytes), was = hint.load(std::memory_order_relaxed);
  const std::uint32_t now = p.stream ? was & ~bit : was | bit;
  if (now != was) hint.store(now, std::memory_order_relaxed);
}

PathPick follow_pick(const std::atomic<std::uint32_t>& hint, PathKind kind, std::uint64_t bytes) {
  if (const Forced f = forced(); f != Forced::none) return PathPick{f == Forced::stream, false, kind, bytes, 0};
  const bool copy = (hint.load(std::memory_order_relaxed) & path_hint_bit(kind, bytes)) != 0;
  return PathPick{!copy, false, kind, bytes, 0};
}

PathPick pick_path(PathStats& s, PathKind kind, std::uint64_t bytes) {
  if (const Forced f = forced(); f != Forced::none) return PathPick{f == Forced::stream, false, kind, bytes, 0};
  PathStats::Cell& c = cell(s, kind, bytes);
  PathPick p;
  p.kind = kind;
  p.bytes = bytes;
  const bool known = learnt(c);
  const float est[2] = {known ? estimate(c, 0) : 0.0F, known ? estimate(c, 1) : 0.0F};
  const bool best = !known || est[0] <= est[1];  // stream?
  if (!known) {
    p.stream = (c.calls++ / 2) % 2 == 0;  // pairs: stream, stream, copy, copy, ...
  } else if (c.burst > 0) {
    --c.burst;
    p.stream = !best;
  } else {
    const float ratio = best ? est[1] / est[0] : est[0] / est[1];
    const std::uint32_t every = ratio > 2.0F ? 4 * kExploreEvery : kExploreEvery;
    p.stream = best;
    if (++c.calls % every == 0) {
      p.stream = !best;
      c.burst = 1;
    }
  }
  p.timed = p.picked = true;
  if (Task* t = current_task()) {
    t->timed = true;  // nbc.cpp counts its time away from here on
    p.away0_ns = t->away_ns;
  }
  p.t0_ns = path_clock_ns();
  return p;
}

void path_done(PathStats& s, const PathPick& p) {
  if (!p.picked) return;
  PathStats::Cell& c = cell(s, p.kind, p.bytes);
  const int i = p.stream ? 0 : 1;
  const bool warm = c.last == i;
  c.last = static_cast<std::int8_t>(i);
  if (!warm || !p.timed) return;
  std::uint64_t ns = path_clock_ns() - p.t0_ns;
  if (const Task* t = current_task()) {
    ns -= std::min(ns, t->away_ns - p.away0_ns);
    if (p.readers_end_ns > p.t0_ns) ns = std::max(ns, p.readers_end_ns - p.t0_ns);
  }
  const auto us = static_cast<float>(static_cast<double>(ns) / 1000.0);
  c.recent_us[i][c.warm[i] % kPathWindow] = us;
  ++c.warm[i];
}

}  // namespace shmpi::client::coll
