// Streams or a single copy, chosen from the calls' own measured times.
//
// A large contribution of a bcast or scatter root (its message, its pieces), of an
// alltoall member (its pieces) or of a 2-member gather's or reduce's sender to its root
// can go through the writer's ring (stream.hpp: a memcpy on each side, in parallel) or
// be copied once, by one side, with process_vm_readv/writev. Which is faster depends
// on the machine's state and on the data, not on the call alone (docs/collectives.md
// "Streams or a single copy"): in the VM's fast state the ring won by 10-45 %, in its
// slow memory state the single copy by up to 3x, and a single copy keeps the unchanged
// lines of a message valid in the reader's cache. The writer alone decides (its readers follow its descriptor), so
// members need not agree, and its call is the whole collective's (it waits for its
// readers' `done` either way, and an alltoall member reads everyone); a 2-member gather's
// or reduce's root decides for its sender (below).
//
// Each blocking call of a kind and size class times itself from its choice to its
// finish(). Only warm calls count, those right after a call picked the same way (one
// after the other path finds caches and pages as that one left them), timed or not:
// the first of a pair is often untimed, where followers read the decider's pick a call
// late (below). When only timed calls counted as the previous one, an alltoall of 8
// ranks on 2 cores never had a warm call and alternated pairs for good. The first
// eight calls go in pairs (stream, stream, copy, copy, twice; four when one path took
// over twice the other's time in the first pairs); then each takes the
// path whose best of its last kPathWindow warm calls is lower (noise only ever adds
// time, so the best of a few is steadier than a mean), and every kExploreEvery calls
// (4x as rarely when the other path was more than twice as slow) two calls try the
// other one.
// Nonblocking calls are timed too, from their start to their end, less the time their
// task spent returned to the program between its start at issue and the next MPI call
// that made progress (fiber.hpp Task::away_ns; the program's computation between two
// MPI_Test calls still counts). Counting that computation made a path that waits for
// its peer after the computation look slower than one that finished at issue: a 2-rank
// 4 MiB MPI_Iscatter root, computing ~400 µs before MPI_Wait as OSU's overlap loops do,
// timed its single copies (its own block at issue; after the computation, the wait for
// the reader that copied its block meanwhile) at 760-830 µs against 600-640 for streams
// that ran whole at issue (the reader was waiting), and streamed half of the time: each
// iteration took the root's two copies plus its computation, 1040 µs against 800.
// Untimed, a program that only ever starts them would never learn (a blocking call of
// the same size took the single copy while the nonblocking one kept streaming, 2-3x
// slower). But a single copy's readers copy while the root's task is away: left out,
// that time made a 2-rank 256 KiB MPI_Iscatter root count 5-8 us for its copies (its
// own block) where its reader took 20, and settle on them at 19-25 us a call against
// 13-15 for streams. So a bcast or scatter root's nonblocking call counts at least
// until the last reader of its copies finished (each reader stamps the time it
// finished a call that read exposed memory, comm.hpp CommRank::finish_stamp; the root
// reads the stamps after their `done`, move.cpp note_readers). In the 4 MiB case the
// reader finished within the root's 400 us: unchanged. A stamp of a later call (the
// reader ran ahead) is not this call's: then the time away is left out as before.
//
// A 2-member reduce's (and a gather's) sender cannot judge this way: the cost of its
// stream is the root's fold (drain), not its own, and a streaming sender is done long
// before its root when the ring holds its input. A large reduce's root therefore
// decides: it picks and times its calls as above and publishes its pick per size class
// in its CommRank line (copy_classes), which the other member reads once per call
// before it streams or exposes its input. A member that posted before the root
// published follows the root's previous pick, so the root times each call by the path
// its inputs actually took (untimed if they differ), and the pairs above still give
// warm calls when that lags a call behind. A 2-member gather's root decides too, and
// says so in its descriptor (kDescWantsWrite): its sender reads the root's post before
// it sends a large block anyway (for the root's offer), so the choice never lags.
// An alltoall of more than two members is decided like a reduce, by comm rank 0 for
// all: each member's call waits for all the others, so its own pick moved its time by
// a fraction that noise hid, and members that picked each for themselves settled near
// streams where single copies were 20 % faster (8 ranks on 2 cores). A 2-member
// allgather's members pick each for itself, as an alltoall's: streams were its fixed
// path until session 41, which measured them 2.2x slower than single copies at 256 KiB
// and 1.2-1.4x at 1 MiB (2 ranks, docs/collectives-measured.md). Of more
// members it keeps its fixed path (streams within the ring, else single copies): with
// rank 0 deciding as for an alltoall, 8 ranks on 2 cores ran 1 MiB calls up to 1.8x
// slower in the same session (the benchmark's few calls per size spent on learning).
// A 2-member allreduce's rank 0 decides between the split (streams) and the mutual
// fold (single copies each way) and says so in its descriptor (kDescHelpOk); the other
// member reads rank 0's post before it posts its own, so the choice never lags either.
// SHMPI_COLL_PATH=stream|copy fixes the choice (tests, benchmarks).
#pragma once

#include <atomic>
#include <cstdint>

namespace shmpi::client::coll {

enum class PathKind : std::uint8_t { bcast, scatter, alltoall, reduce, gather, allreduce, allgather };
inline constexpr int kPathKinds = 7;
// Size classes: log2 of the bytes from 15 (kStageMax) up; larger sizes share the last.
inline constexpr int kPathClasses = 12;
static_assert(kPathClasses <= 16, "path_hint_bit: two kinds' classes in a 32-bit mask");
inline constexpr std::uint32_t kExploreEvery = 32;

inline constexpr int kPathWindow = 4;  // warm calls per path that its estimate is the best of

struct PathStats {
  struct Cell {
    float recent_us[2][kPathWindow] = {};  // [0] stream, [1] single copy: the last warm calls
    std::uint32_t warm[2] = {0, 0};        // warm calls timed (a call right after one of the same path)
    std::uint32_t calls = 0;
    std::int8_t last = -1;    // the path of the last picked call
    std::uint8_t burst = 0;   // calls left of the other path (exploring)
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
  bool picked = false;  // pick_path's own choice: path_done() remembers it, timed or not
  std::uint64_t away0_ns = 0;  // its task's away_ns at the pick (fiber.hpp)
  // A nonblocking call's readers' latest finish (CLOCK_MONOTONIC ns, comm.hpp
  // CommRank::finish_stamp; 0: none known): its time runs at least until then.
  std::uint64_t readers_end_ns = 0;
};
// CLOCK_MONOTONIC in nanoseconds (vDSO: no system call): what calls are timed with.
std::uint64_t path_clock_ns();
// The path for `bytes` (the size class's choice); the call is timed.
PathPick pick_path(PathStats& s, PathKind kind, std::uint64_t bytes);
// A picked call finished: it is the size class's last pick, and if timed and warm its
// time joins its path's recent ones.
void path_done(PathStats& s, const PathPick& p);
// Where one member decides for others (a 2-member reduce's root, an alltoall's rank
// 0), it publishes its picks in `hint` (layout::CommRank::copy_classes, its own line):
// bit path_hint_bit(kind, bytes) set = single copies. Only reduce and alltoall have
// bits.
std::uint32_t path_hint_bit(PathKind kind, std::uint64_t bytes);
void publish_pick(std::atomic<std::uint32_t>& hint, const PathPick& p);
// A member that follows: the decider's last published pick for `bytes` (or
// SHMPI_COLL_PATH), untimed.
PathPick follow_pick(const std::atomic<std::uint32_t>& hint, PathKind kind, std::uint64_t bytes);

}  // namespace shmpi::client::coll
