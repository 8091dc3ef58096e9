// The collective engine's building blocks over a communicator's block (comm_block.hpp):
// one call = one sequence number; contributions are staged in the segment (small),
// streamed through the writer's ring (stream.hpp: large bcast, scatter, gather,
// reduce, allreduce; alltoall and reduce_scatter within the ring) or exposed in the
// owner's memory and read with process_vm_readv (other large ones). The protocol and
// its memory orders are in shm_layout/comm.hpp and docs/collectives.md.
#pragma once

#include <mpi.h>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coll/comm_block.hpp"
#include "objects.hpp"
#include "types/datatype.hpp"

namespace shmpi::client::coll {

// Contributions up to this many bytes are staged (two copies, the writer never waits
// for readers); larger ones are streamed or exposed (the writer waits until every
// reader is done).
inline constexpr std::uint64_t kStageMax = std::uint64_t{32} << 10;
static_assert(kStageMax <= layout::kSharedResultBytes, "a small allreduce's result fits the shared result area");
// Except in a blocking alltoall or 2-member allgather, whose pieces (blocks) from
// kStageMax bytes up are streamed or exposed by measured time (path_choice.hpp): at 32
// KiB, 2 ranks, single copies took 3.6-4.0 us a call there, staging 5.3-7.6; 8 ranks on
// 2 cores, alltoall 148-253 against 240-357 (session 41).
inline constexpr std::uint64_t kChoiceStageMax = kStageMax - 1;

// A call in which nobody exposed memory may leave its `done` unpublished, for up to
// this many calls (publish_done): a rank that runs ahead (a gather sender, a bcast
// root) polls the `done` of the rank it waits for, and a store per call to that line
// costs the slower rank a cross-core transfer per call.
inline constexpr std::uint32_t kDoneBatch = 16;
static_assert(kDoneBatch < layout::kCallSlots, "a member that entered call s must have published done >= s - kCallSlots");

// A user buffer: `count` elements of `type` at `addr` (as given to MPI).
struct Buf {
  std::byte* addr = nullptr;
  MPI_Count count = 0;
  types::Datatype* type = nullptr;
  const types::Flat* flat = nullptr;
  MPI_Count bytes() const { return count * type->size; }
  bool contiguous() const { return type->contiguous() || count == 0 || type->size == 0; }
  std::byte* data() const { return addr + type->lb; }  // first byte, if contiguous
};

// One collective call in progress on this rank (begin() makes it: a constructor, not
// a zero fill then assignments, which measured a few ns per call).
struct Call {
  Call(CommObj* c, std::uint32_t s)
      : comm(c), b(c->block), me(c->rank), n(c->size), seq(s), slot(static_cast<int>(s % layout::kCallSlots)),
        stage_slot(static_cast<int>(s % layout::kStageDepth)), mine(&b->rank(me)) {}
  CommObj* comm;
  CommBlock* b;
  int me, n;
  std::uint32_t seq;
  int slot;        // seq % kCallSlots: this call's descriptor, piece table and gate
  int stage_slot;  // seq % kStageDepth: its staging and shared result
  layout::CommRank* mine;
  bool exposed = false;  // this rank exposed its own memory: wait for all done at the end
  bool staged_slot = false;  // this rank wrote into its staging slot (my_stage)
  // Reserved by reserve_small(): stages in its small staging slot (at most kSmallStage
  // bytes; post() marks the descriptor kDescSmallStage) and shares no result.
  bool small_stage = false;
  // This call writes a stream (stream.hpp take_chunks), from chunk stream_first;
  // finish() ends it.
  bool streaming = false;
  std::uint32_t stream_first = 0;
  // Whether this call's `done` may be published late (publish_done): a collective
  // opts in; seeing a peer's exposed memory, or writing into a peer, opts out.
  bool lazy_done = false;
  bool urgent_done = false;
  // The members that may read this rank's exposed memory (finish() waits for their
  // `done`); nullptr: every member. `reader_arg` is the predicate's own argument.
  bool (*may_read)(const Call& k, int r) = nullptr;
  int reader_arg = 0;
  int error = MPI_SUCCESS;  // a class found while moving data (e.g. MPI_ERR_TRUNCATE)
  // The call counts its posts in its slot's gate (comm.hpp CallGate): a gated
  // communicator, and a kind whose every member posts and waits for every post.
  bool gated = false;
  // defer_open: the caller opens the gate itself (open_gate) once it has published a
  // shared result; opener: this member's post was the last (set by post()).
  bool defer_open = false;
  bool opener = false;
  std::string why;
};

// Enters the communicator's next call: its sequence number, or the one take_seq()
// took for it earlier (g_taken_seq, consumed here), and (if that call's slot was last
// used by our own call seq - kStageDepth, still in flight) waits for that call.
Call begin(CommObj* c, layout::CollKind kind);
// The first step of begin(): takes the next sequence number and says so in the block.
// A nonblocking call that waits before doing anything else takes its number at issue
// and runs later (nbc.cpp start_deferred): then g_taken_seq holds it for its begin().
std::uint32_t take_seq(CommObj* c, layout::CollKind kind);
extern std::optional<std::uint32_t> g_taken_seq;
// How much of a call barrier() and reduce() run (nbc.cpp, through Plan::part): all of
// it; for a nonblocking call at issue whose waits all come after its post (staged),
// `bounded`: all of it if the posts it then needs arrive soon (wait.hpp poll_briefly),
// else only up to its post, returning kPostedOnly (the rest waits for those posts
// without a task); or that rest, `after_post` (its begin() takes g_taken_seq). A
// `bounded` run first stops as a `trial` one does (below) where its reservation would
// wait, or if the reduction is too large to stage.
// `trial` (bcast, scatter; nbc.cpp run_trial): a nonblocking call at issue, not checked
// for readiness first. Its first wait (a reader's for the root's post, a root's
// reservation) does not wait: if it would, or if what the call then does would wait,
// it returns kNotYet (or kNeedsTask: a path with waits throughout, e.g. a large
// message) before it has written anything, with its sequence number taken (c->seq).
enum class Part : std::uint8_t { whole, bounded, after_post, trial };
inline constexpr int kPostedOnly = -1;  // not an error class: see Part::bounded
inline constexpr int kNotYet = -2;      // nor these: see Part::trial
inline constexpr int kNeedsTask = -3;
// Part::bounded: polls members lo..hi's descriptors of the call (this rank's is
// skipped; wait.hpp poll_briefly): true once all have posted.
bool posts_arrive(Call& k, int lo, int hi);
// Waits for rank r's `posted` (or `done`) to reach the call's sequence number (or
// `target`). False if the job was aborted.
// Polls of a member's descriptor before a wait for its post publishes a batched `done`
// and yields or sleeps: wait_posted's spin phase (1 on a task, which yields at once).
std::uint32_t post_spins();
bool wait_posted(Call& k, int r);
// A gated blocking call (Call::gated, not on a task) that needs every member's post:
// sleeps on the gate until the last member has posted (one wake for all, instead of
// one wait per member). Without a gate it returns at once; either way the caller then
// checks each post (wait_posted) as before. False if the job was aborted.
bool wait_arrivals(Call& k);
// The same, but the gate's release alone ends the wait (a deferred opener publishes a
// result before it opens): for a member that will read that result.
bool wait_gate(Call& k);
// A deferred opener (Call::defer_open, Call::opener) opens its gate: once per call.
void open_gate(Call& k);
bool wait_done(Call& k, int r, std::uint32_t target);
// Waits for flag f (of rank r: shown in shmpi-dump) to reach target, suspending a
// task instead of blocking. False if the job was aborted.
bool wait_on(Call& k, int r, layout::Flag& f, std::uint32_t target);
// The first member of c not done with call `need`, or -1 (they all are), without
// waiting. `done` only grows, so a value seen once stays a lower bound: the members'
// done lines are read about once per depth calls, not per call, and seen_done_min
// bounds them all (the check is then one compare). reserve() and the readiness checks
// (ready.cpp) share it, and with it that bound.
int first_not_done(CommObj& c, std::uint32_t need);
// The call that reserve_small() (small) or reserve() for call `seq` waits until every
// member is done with: the last that used the slots it is about to write.
constexpr std::uint32_t reserved_upto(std::uint32_t seq, bool small) {
  return seq - (small ? layout::kCallSlots : layout::kStageDepth);
}
// Before writing this rank's staging slot / descriptor of the call: every member has
// finished the call kStageDepth back, the last that used the staging slot.
bool reserve(Call& k);
// Before writing the descriptor, piece table and small staging slot alone (a call
// that stages at most kSmallStage bytes): every member has finished the call
// kCallSlots back. A rank that runs ahead of the others (bcast or scatter root, gather
// sender, reduce contributor) runs 8x further with small data.
bool reserve_small(Call& k);
// Whether reserve_small() (small) or reserve() would return at once (a trial run,
// Part::trial): never waits.
inline bool reservable(Call& k, bool small) { return first_not_done(*k.comm, reserved_upto(k.seq, small)) < 0; }
// The most a call may stage and still take reserve_small(): kSmallStage when ranks share
// cores (a rank that runs 256 calls ahead saves switches), else kInlineBytes. With a core
// each, 2 ranks, a 1 KiB MPI_Reduce stream took 0.26 us per call with 32 slots and 0.45
// with 128 small ones: the root read data written 128 calls before, out of L1.
std::uint64_t small_max();
// Whether contribute_pieces() (move.cpp) stages the n pieces but `skip`'s within
// small_max() bytes (64-byte steps), or puts them all in the descriptor line (uniform,
// kInlineBytes in all): then a scatter root may take reserve_small().
bool pieces_small(int n, const Buf* send, int skip);
// pieces_small's rule, for pieces that take `off` bytes of staging at 64-byte steps and
// `sum` bytes in all (`uniform`: more than one, all of one size; scatter_uniform asks it
// of its pieces directly).
inline bool stages_small(std::uint64_t off, std::uint64_t sum, bool uniform) {
  return off <= small_max() || (uniform && sum <= layout::kInlineBytes);
}
// Whether contribute_pieces() (move.cpp) stages every piece but `skip`'s: each fits
// kStageMax and all fit the slot at 64-byte steps (else the writer waits for readers).
bool pieces_staged(int n, const Buf* send, int skip);
// (Inline, as the other one-line accessors here: each is used several times a call.)
inline layout::CallDesc& my_desc(Call& k) { return k.mine->desc[k.slot]; }
inline layout::CallDesc& desc(const Call& k, int r) { return k.b->rank(r).desc[k.slot]; }
// Whether member r's descriptor of the call is posted (one acquire load, no wait).
inline bool posted_now(const Call& k, int r) { return desc(k, r).seq.load(std::memory_order_acquire) == k.seq; }
inline layout::PieceDesc* my_pieces(Call& k) { return k.b->table(k.me, k.slot); }
inline const layout::PieceDesc* pieces(const Call& k, int r) { return k.b->table(r, k.slot); }
// Rank r's staging of this call: its small slot (reserve_small) or its staging slot.
// Before r has posted (a prefetch), `small` is what the call's arguments predict.
inline std::byte* stage_in(const Call& k, int r, bool small) {
  return small ? k.b->small_stage(r, k.slot) : k.b->stage(r, k.stage_slot);
}
inline std::byte* my_stage(Call& k) {
  k.staged_slot = true;
  return stage_in(k, k.me, k.small_stage);
}
// Rank r's staging of this call, once posted (its descriptor says which slot).
inline std::byte* stage_of(const Call& k, int r) {
  return stage_in(k, r, (desc(k, r).status & layout::kDescSmallStage) != 0);
}
// Where rank r's staged bytes of this call are: inline in its descriptor, or its slot.
inline const std::byte* staged(const Call& k, int r, const layout::CallDesc& d) {
  if ((d.status & layout::kDescInline) != 0) return reinterpret_cast<const std::byte*>(d.value);
  return stage_of(k, r);
}
// This rank's staging area for `bytes` of the call: the descriptor's inline bytes when
// they fit (marks the descriptor), else the slot.
std::byte* stage_for(Call& k, std::uint64_t bytes);
inline bool invalid(const layout::CallDesc& d) { return (d.status & layout::kDescInvalid) != 0; }
void post(Call& k);
// Marks this rank done reading (every other rank may reuse what it read) and, if it
// exposed its own memory, waits until every member that may read it is done. False if
// aborted.
bool finish(Call& k);
// Publishes a `done` that publish_done held back (a batched one): before any wait in
// the engine that is not satisfied at once, and before the comm's block goes away.
void flush_done(CommObj* c);
// Marks done without waiting (used when a call ends early on invalid arguments).
void finish_now(Call& k);

// MPI_ERR_PROC_ABORTED with the job's abort reason in `why`.
int aborted(std::string& why);
// Posts this rank's descriptor as invalid: `culprit` is the rank whose arguments were
// invalid (this rank, or the rank a NUMA leader could not forward data from).
void post_invalid(Call& k, int culprit);
// A rank that passed invalid arguments takes part without data (collectives.hpp):
// reserve, post an invalid descriptor, done. MPI_SUCCESS, or MPI_ERR_PROC_ABORTED.
int sit_out(Call& k);
// True if rank r's descriptor of the call is valid; else records MPI_ERR_OTHER naming
// the rank that passed invalid arguments.
bool peer_bad(Call& k, int r);  // records it; false
inline bool peer_ok(Call& k, int r) { return !invalid(desc(k, r)) || peer_bad(k, r); }
// Whether member r's (valid, posted) contribution is `bytes` long, as ours is (a
// reduction's members pass the same count and datatype, MPI-4.1 6.9.1); if not, records
// MPI_ERR_TRUNCATE naming both sizes.
bool size_matches(Call& k, int r, std::uint64_t bytes);
// Waits for the posts of members lo..hi (this rank included, its own posted) and checks
// that each is valid and contributes `bytes` (size_matches). False if not: k.error says
// why (an invalid member: MPI_ERR_OTHER naming it; a size that differs:
// MPI_ERR_TRUNCATE), or `ok` turned false (aborted). Members that check the same range
// reach the same answer, so they can all leave the call without waiting for each
// other's data.
bool sizes_agree(Call& k, int lo, int hi, std::uint64_t bytes, bool& ok);
// The rank an invalid descriptor of rank r names: the original culprit a NUMA leader
// forwarded (post_invalid), else r itself.
int culprit(const Call& k, int r);
// The call's MPI error class: `ok` false without a class is an abort or a copy failure.
int result_slow(Call& k, bool ok, std::string& why);
inline int result(Call& k, bool ok, std::string& why) {
  return ok && k.error == MPI_SUCCESS ? MPI_SUCCESS : result_slow(k, ok, why);
}

// Where rank r's contribution (or one piece of it) is: staged in its slot or descriptor
// (a pointer into the block), exposed at `addr` in its own memory, or streamed.
struct Source {
  const std::byte* staged = nullptr;
  std::uint64_t addr = 0;
  std::uint64_t stream = 0;  // a streamed piece: kPieceStreamed | first chunk (stream.hpp drain)
  std::uint64_t stream_base = 0;  // the offset fetch() is given for the stream's first byte
  // Split between the two (stream and addr both set; stream.hpp kSplitMin): bytes
  // [0, head) exposed at addr, the rest streamed (receive() only).
  std::uint64_t head = 0;
};
Source source(const Call& k, int r, const layout::CallDesc& d);
Source source(const Call& k, int r, const layout::PieceDesc& p);
// Rank r's piece of the call for this rank (r wrote its pieces with
// contribute_pieces, skipping its own): where it is, and its size in `bytes`.
Source piece_from(const Call& k, int r, std::uint64_t& bytes);
// A member that runs ahead (a root in a stream of small calls) has likely staged its
// next call already, at the same place: fetches that line of r's next staging slot
// while this call finishes (oversubscribed only). Nothing for data inline in the
// descriptor (wait_posted fetches the next descriptor line).
void prefetch_next_staged(const Call& k, int r, const Source& src);

// Copies `len` bytes at `offset` of rank r's source to dst (memcpy; stream.hpp
// stream_read for a streamed one, at increasing offsets; process_vm_readv for another
// rank's exposed memory). False (errno in k.why) if the copy failed.
bool fetch(Call& k, int r, const Source& src, std::uint64_t offset, void* dst, std::size_t len);
// Writes len bytes to rank r's exposed address `remote` (process_vm_writev, or memcpy
// for this rank).
bool store_to(Call& k, int r, std::uint64_t remote, const void* src, std::size_t len);

// Per-communicator reusable scratch (grown, never shrunk: no allocation once warm):
// 0 a packed or copied contribution that is exposed, 1 fold and unpack temporaries,
// 2 result images, 3 reduce accumulators (a NUMA leader's partial).
std::byte* scratch(CommObj* c, int which, std::size_t bytes);
// The four scratch buffers of a call that runs neither on a task nor as the
// communicator's blocking call (a deferred call run from progress(), nbc.cpp, maybe
// inside a blocking call's wait); nullptr otherwise.
extern std::vector<std::byte>* g_call_scratch;

// Copies the buffer's bytes to `to`, packed (a memcpy when it is contiguous).
void pack_to(const Buf& b, std::byte* to);

// Publishes `src` (bytes of a buffer, packed when non-contiguous) as this rank's
// contribution in my_desc: staged when small, otherwise exposed (the user's memory if
// contiguous, else packed into scratch 0). Call reserve() first. `stage` false: exposed
// at any size (a single copy the call chose, path_choice.hpp).
void contribute(Call& k, const Buf& src, bool stage = true);
// The part of rank r's `bytes` that fits in dst; sets k.error to MPI_ERR_TRUNCATE
// (naming r) when not all of it does.
std::uint64_t receivable(Call& k, int r, std::uint64_t bytes, const Buf& dst);
// Receives `bytes` at `offset` of rank r's source into dst, unpacking as needed (a
// streamed source: stream.hpp drain, from offset 0). Sets k.error to MPI_ERR_TRUNCATE
// when they do not fit in dst (and copies what fits).
bool receive(Call& k, int r, const Source& src, std::uint64_t offset, std::uint64_t bytes, const Buf& dst);
// Receives rank r's contribution (contribute()) of the call into dst.
bool receive_from(Call& k, int r, const Buf& dst);
// Local copy between two buffers with matching signatures (what fits in dst).
void local_copy(Call& k, const Buf& src, const Buf& dst);

}  // namespace shmpi::client::coll
