#include "coll/path_choice.hpp"

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace shmpi::client::coll {

namespace {

enum class Forced : std::uint8_t { none, stream, copy };

Forced forced() {
  static const Forced f = [] {
    const char* s = std::getenv("SHMPI_COLL_PATH");
    if (s == nullptr) return Forced::none;
    if (std::strcmp(s, "stream") == 0) return Forced::stream;
    if (std::strcmp(s, "copy") == 0) return Forced::copy;
    return Forced::none;
  }();
  return f;
}

int size_class(std::uint64_t bytes) {
  const int log2 = 63 - __builtin_clzll(bytes | 1);
  return std::clamp(log2 - 15, 0, kPathClasses - 1);
}

PathStats::Cell& cell(PathStats& s, PathKind kind, std::uint64_t bytes) {
  return s.cells[static_cast<int>(kind)][size_class(bytes)];
}

std::uint64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // vDSO: no system call
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000U + static_cast<std::uint64_t>(t.tv_nsec);
}

}  // namespace

PathPick pick_path(PathStats& s, PathKind kind, std::uint64_t bytes, bool nonblocking) {
  if (const Forced f = forced(); f != Forced::none) return PathPick{f == Forced::stream, false, kind, bytes, 0};
  PathStats::Cell& c = cell(s, kind, bytes);
  PathPick p;
  p.kind = kind;
  p.bytes = bytes;
  if (c.samples[0] < 2 || c.samples[1] < 2) {
    p.stream = c.samples[0] <= c.samples[1];  // each path timed twice first, streams first
  } else {
    p.stream = c.mean_us[0] <= c.mean_us[1];
    if (!nonblocking && ++c.calls % kExploreEvery == 0) p.stream = !p.stream;  // the other one, now and then
  }
  if (!nonblocking) {
    p.timed = true;
    p.t0_ns = now_ns();
  }
  return p;
}

void path_done(PathStats& s, const PathPick& p) {
  if (!p.timed) return;
  PathStats::Cell& c = cell(s, p.kind, p.bytes);
  const int i = p.stream ? 0 : 1;
  const auto us = static_cast<float>(static_cast<double>(now_ns() - p.t0_ns) / 1000.0);
  // The better of the first two calls (a path's first call maps and faults pages), then
  // a running mean weighted 1/4 on the newest call.
  float& m = c.mean_us[i];
  if (c.samples[i] < 2) {
    m = c.samples[i] == 0 ? us : std::min(m, us);
  } else {
    m += (us - m) / 4.0F;
  }
  ++c.samples[i];
}

}  // namespace shmpi::client::coll
