// Streams or a single copy, chosen from the calls' own measured times.
//
// A large contribution of a bcast or scatter root (its message, its pieces) can go
// through its ring
// (stream.hpp: a memcpy on each side, in parallel) or be copied once by the other side
// with process_vm_readv/writev. Which is faster depends on the machine's state and on
// the data, not on the call alone (docs/collectives.md "Streams or a single copy"): in
// the VM's fast state the ring won by 10-45 %, in its slow memory state the single copy
// by up to 3x, and a single copy keeps the unchanged lines of a message valid in the
// reader's cache. The root alone decides (its readers follow its descriptor), so
// members need not agree, and its call is the whole collective's (it waits for its
// readers' `done` either way): each blocking call of a kind and size class times itself
// from its choice to its finish(), and the next takes the path with the lower running
// mean, trying the other one every kExploreEvery calls. (A gather's senders cannot
// judge: the root's drain is the cost, and it is not theirs; move.cpp gather.) Nonblocking calls (their time
// includes the caller's) take the current choice without timing themselves.
// SHMPI_COLL_PATH=stream|copy fixes the choice (tests, benchmarks).
#pragma once

#include <cstdint>

namespace shmpi::client::coll {

enum class PathKind : std::uint8_t { bcast, scatter };
inline constexpr int kPathKinds = 2;
// Size classes: log2 of the bytes from 15 (kStageMax) up; larger sizes share the last.
inline constexpr int kPathClasses = 12;
inline constexpr std::uint32_t kExploreEvery = 32;

struct PathStats {
  struct Cell {
    float mean_us[2] = {0.0F, 0.0F};  // [0] stream, [1] single copy
    std::uint32_t samples[2] = {0, 0};
    std::uint32_t calls = 0;
  };
  Cell cells[kPathKinds][kPathClasses];
};

// The path of one call's large contribution: stream (else a single copy). `timed`: the
// caller reports the call's time with path_done() after its finish().
struct PathPick {
  bool stream = true;
  bool timed = false;
  PathKind kind = PathKind::bcast;
  std::uint64_t bytes = 0;
  std::uint64_t t0_ns = 0;
};
// The path for `bytes` (the size class's choice), timed unless `nonblocking`.
PathPick pick_path(PathStats& s, PathKind kind, std::uint64_t bytes, bool nonblocking);
// A timed call finished: its time goes into its path's running mean (no-op untimed).
void path_done(PathStats& s, const PathPick& p);

}  // namespace shmpi::client::coll
