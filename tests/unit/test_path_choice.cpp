// Streams or a single copy (libclient/src/coll/path_choice.hpp), with call times given
// by hand: a size class learns in pairs, then keeps the faster path and tries the other
// every kExploreEvery calls (4x as rarely when that one was more than twice as slow),
// and moves over when the other path becomes the faster one. Classes learn apart. A
// decider whose followers lag a call (the first of each pair untimed) learns too. A
// nonblocking call's time leaves out its task's time returned to the program, but runs
// at least until its readers finished.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "coll/fiber.hpp"
#include "coll/path_choice.hpp"

using namespace shmpi::client::coll;

namespace {

constexpr std::uint64_t k256K = 256 * 1024, k1M = 1024 * 1024;

// One call of `bytes` that takes stream_us or copy_us by the path picked: its path.
char call(PathStats& s, std::uint64_t bytes, float stream_us, float copy_us) {
  PathPick p = pick_path(s, PathKind::allreduce, bytes);
  p.t0_ns -= static_cast<std::uint64_t>((p.stream ? stream_us : copy_us) * 1000.0F);
  path_done(s, p);
  return p.stream ? 's' : 'c';
}

std::string calls(PathStats& s, std::uint64_t bytes, int n, float stream_us, float copy_us) {
  std::string out;
  for (int i = 0; i < n; ++i) out += call(s, bytes, stream_us, copy_us);
  return out;
}

long count(const std::string& picks, char c) { return std::count(picks.begin(), picks.end(), c); }

}  // namespace

TEST_CASE("path choice: learns in pairs, keeps the faster path, explores the other") {
  PathStats s;
  CHECK(calls(s, k256K, 8, 150, 100) == "ssccsscc");
  // 8 calls so far: the 32nd and 64th explore, each two calls of streams.
  const std::string next = calls(s, k256K, 64, 150, 100);
  CHECK(count(next, 's') == 4);
  CHECK(next.substr(0, 23) == std::string(23, 'c'));
  CHECK(next.substr(23, 2) == "ss");
  // The other class has learnt nothing: pairs again, whatever 256 KiB found.
  CHECK(calls(s, k1M, 8, 600, 400) == "ssccsscc");
}

TEST_CASE("path choice: a path more than twice as slow is explored 4x as rarely") {
  PathStats s;
  (void)calls(s, k256K, 8, 300, 100);
  CHECK(count(calls(s, k256K, 119, 300, 100), 's') == 0);
  CHECK(calls(s, k256K, 3, 300, 100) == "ssc");  // the 128th call and the next
}

TEST_CASE("path choice: moves to the other path once it is faster") {
  PathStats s;
  (void)calls(s, k256K, 8, 150, 100);
  // Streams become faster: the next exploration times them, and they are kept.
  const std::string after = calls(s, k256K, 40, 50, 100);
  const auto first = after.find('s');
  REQUIRE(first != std::string::npos);
  CHECK(after.substr(first) == std::string(after.size() - first, 's'));
}

TEST_CASE("path choice: a decider whose followers lag a call still learns") {
  // An alltoall's rank 0 (move.cpp untimed_unless_followed): the first call of each
  // pair mixes paths (followers read the pick a call late) and is untimed; the second
  // follows the first's pick and counts as warm.
  PathStats s;
  std::string picks;
  for (int i = 0; i < 16; ++i) {
    PathPick p = pick_path(s, PathKind::alltoall, k256K);
    p.t0_ns -= static_cast<std::uint64_t>((p.stream ? 150.0F : 100.0F) * 1000.0F);
    if (i < 8 && i % 2 == 0) p.timed = false;
    path_done(s, p);
    picks += p.stream ? 's' : 'c';
  }
  // Learnt after the pairs: copies from then on (the 32nd call explores).
  CHECK(picks == "ssccsscccccccccc");
}

TEST_CASE("path choice: a clear winner is kept after one pair of each") {
  PathStats s;
  // Copies over twice as slow: learnt after s s c c.
  CHECK(calls(s, k256K, 8, 100, 250) == "ssccssss");
  // Within twice: both pairs.
  CHECK(calls(s, k1M, 8, 100, 190) == "ssccsscc");
}

namespace {

// OSU's overlap loops for a scatter root on a task (nbc.cpp, coll/fiber.hpp): n calls of
// `bytes`, each taking stream_us or copy_us from its pick to its end; single copies
// spend away_us of that returned to the program, and their reader finished reader_us
// after the start (move.cpp note_readers; < 0: no stamp of the call). Its picks.
std::string overlapped(PathStats& s, std::uint64_t bytes, int n, float stream_us, float copy_us, float away_us,
                       float reader_us) {
  Task task;
  g_current = &task;
  std::string picks;
  for (int i = 0; i < n; ++i) {
    PathPick p = pick_path(s, PathKind::scatter, bytes);
    CHECK(task.timed);
    if (!p.stream) task.away_ns += static_cast<std::uint64_t>(away_us * 1000.0F);
    p.t0_ns -= static_cast<std::uint64_t>((p.stream ? stream_us : copy_us) * 1000.0F);
    if (!p.stream && reader_us >= 0) p.readers_end_ns = p.t0_ns + static_cast<std::uint64_t>(reader_us * 1000.0F);
    path_done(s, p);
    picks += p.stream ? 's' : 'c';
  }
  g_current = nullptr;
  return picks;
}

}  // namespace

TEST_CASE("path choice: a nonblocking call's time leaves out the program's computation") {
  // A 4 MiB MPI_Iscatter root: single copies run 300 µs at issue, then the task waits
  // for its reader over the program's 400 µs of computation (away from MPI) and 100 µs
  // more in MPI_Wait; streams run 620 µs whole at issue. Counted whole, the copies'
  // 800 µs looked slower.
  PathStats s;
  CHECK(overlapped(s, 4 * k1M, 16, 620, 800, 400, -1) == "ssccsscccccccccc");
}

TEST_CASE("path choice: a nonblocking call's time runs until its readers finished") {
  // A 2-rank 256 KiB MPI_Iscatter root: single copies cost the root 6 µs of its own,
  // then its task is away for the program's 30 µs while the reader copies its block
  // (done 20 µs after the root's start); streams take 14 µs at issue. Left out with
  // the time away, the copies counted 6 µs and won.
  PathStats s;
  CHECK(overlapped(s, k256K, 16, 14, 36, 30, 20) == "ssccssccssssssss");
  // The 4 MiB case above, its reader done 300 µs after the start, within the root's
  // 400 µs away: the copies still count 400 µs against 620 and are kept.
  PathStats t;
  CHECK(overlapped(t, 4 * k1M, 16, 620, 800, 400, 300) == "ssccsscccccccccc");
}
