// The blocking collectives over a communicator's block. Arguments are validated by the
// API layer (api_coll.cpp); a rank whose own arguments were invalid still takes part
// with `invalid` set, so that no other rank waits for it forever (its descriptor
// carries kDescInvalid and readers fail the call with MPI_ERR_OTHER).
//
// Each function returns an MPI error class (MPI_SUCCESS) and a message in `why`.
#pragma once

#include <mpi.h>

#include <string>

#include "coll/engine.hpp"
#include "coll/fiber.hpp"
#include "op_objects.hpp"

namespace shmpi::client::coll {

int barrier(CommObj* c, std::string& why, Part part = Part::whole);
// Whether a barrier on c is MPI_COMM_WORLD's tuned one (barrier.cpp world_barrier, on
// the job segment): a blocking call on it with more than one rank (an MPI_Ibarrier takes
// the communicator's block like any other nonblocking call). barrier() asks first;
// MPI_Barrier asks before it, so that at 2 ranks no instruction of barrier()'s own
// lies between the partner's flag and the next post.
inline bool takes_world_barrier(const CommObj* c) { return c == &g_world && c->size > 1 && !nonblocking_call(); }
int bcast(CommObj* c, const Buf& buf, int root, bool invalid, std::string& why, Part part = Part::whole);
// send: n pieces at the root (ignored elsewhere); recv_in_place: the root keeps its piece.
int scatter(CommObj* c, const Buf* send, const Buf& recv, int root, bool recv_in_place, bool invalid, std::string& why,
            Part part = Part::whole);
// A scatter root whose n pieces are contiguous, all the same size and staged
// (uniform_staged): scatter()'s root without Bufs for its pieces, for the lean path
// (api_coll.cpp). Piece j's first byte is at[j]; `own` is the root's piece. Its readers
// run scatter().
inline bool uniform_staged(int n, std::uint64_t bytes) {
  return bytes <= kStageMax && static_cast<std::uint64_t>(n - 1) * ((bytes + 63) / 64 * 64) <= layout::kStageSlot;
}
int scatter_uniform(CommObj* c, const std::byte* const* at, const Buf& own, const Buf& recv, bool recv_in_place,
                    std::string& why, Part part = Part::whole);
// recv: n pieces at the root; send_in_place: the root's piece is already in recv[root].
int gather(CommObj* c, const Buf& send, const Buf* recv, int root, bool send_in_place, bool invalid, std::string& why);
// gather() at its root for the lean path (api_coll.cpp): member r's block of `block`'s
// count and type (contiguous) starts at at[r]. Its senders run gather().
int gather_uniform(CommObj* c, const Buf& send, std::byte* const* at, const Buf& block, bool send_in_place,
                   std::string& why);
// recv: n pieces; in_place: this rank's contribution is recv[me].
int allgather(CommObj* c, const Buf& send, const Buf* recv, bool in_place, bool invalid, std::string& why);
// send/recv: n pieces each; in_place: send is recv (snapshotted before anything moves).
int alltoall(CommObj* c, const Buf* send, const Buf* recv, bool in_place, bool invalid, std::string& why);

// A reduction operator applied to memory images of `count` elements of one datatype.
struct Reducer {
  const OpObj* op = nullptr;
  ops::Kernel kernel = nullptr;  // predefined op on a predefined type
  ops::Kernel3 kernel3 = nullptr;  // its three-operand form (out = a op b), if any
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  types::Datatype* type = nullptr;
  // inout = in op inout over `count` elements; `in`/`inout` point at element 0's lb.
  void apply(const void* in, void* inout, MPI_Count count) const;
  // out = a op b over `count` elements of memory images (pointers at true_lb, `span`
  // bytes each; out overlaps neither): one pass where kernel3 exists, else out = b and
  // then apply(a, out).
  void apply3(const std::byte* a, const std::byte* b, std::byte* out, MPI_Count count, std::size_t span) const;
};

enum class ReduceKind { reduce, allreduce, reduce_scatter, scan, exscan };
// What the communicator's block (and shmpi-dump) calls a call of this kind.
layout::CollKind coll_kind(ReduceKind kind);

// A staged call of this kind and input image that, on a gated communicator, its
// opener folds once for all (reduce.cpp reduce_staged; ready.cpp shares_result): an
// allreduce (each member would fold the whole vector), a reduce_scatter up to 4 KiB
// (each would fold only its block: beyond that, one member folding all of them while
// the others wait costs more; 8 ranks on 2 cores, MPI_Reduce_scatter_block, blocks of
// 8 B: 9.5 -> 8.6 us, 512 B: 12.6 -> 12.1, 4 KiB: 27.9 -> 36.0).
inline bool folds_shared(ReduceKind kind, std::uint64_t in_span) {
  return kind == ReduceKind::allreduce || (kind == ReduceKind::reduce_scatter && in_span <= (std::uint64_t{4} << 10));
}

// Which members' calls take reserve_small() (engine.hpp) and may run kCallSlots calls
// ahead: a bcast root and a gather sender whose message fits small_max(), a scatter
// root whose pieces do (pieces_small), a gather root (it stages nothing), a reduce,
// scan or exscan member whose input does (each folds into its own buffer; the other
// kinds may share a result). One place for the flat calls (move.cpp, reduce.cpp) and the nonblocking
// readiness (ready.cpp reserves_small), which must agree: a nonblocking call found ready
// kCallSlots calls back whose flat run then reserves kStageDepth back would wait inside its task.
// (A member that is not concerned never reads its buffer arguments: a gather root's
// send may be MPI_IN_PLACE, a description with no type.)
inline bool bcast_small(bool root, const Buf& buf) {
  return root && static_cast<std::uint64_t>(buf.bytes()) <= small_max();
}
inline bool scatter_small(bool root, int n, const Buf* send, int skip) { return root && pieces_small(n, send, skip); }
inline bool gather_small(bool root, const Buf& send) {
  return root || static_cast<std::uint64_t>(send.bytes()) <= small_max();
}
inline bool reduce_small(ReduceKind kind, std::uint64_t in_span) {
  return (kind == ReduceKind::reduce || kind == ReduceKind::scan || kind == ReduceKind::exscan) &&
         in_span <= small_max();
}

// One routine for the reduce family. send/recv are the user's buffers (in_place: the
// input is in recv); counts: per-rank block counts for reduce_scatter (n entries), else
// nullptr with `count` elements everywhere. Elements are combined in rank order
// (x0 o x1 o ... o x(n-1)), for commutative ops too: results are the same bits on every
// run and every rank.
int reduce(CommObj* c, ReduceKind kind, const void* send, void* recv, MPI_Count count, const MPI_Count* counts,
           const Reducer& op, int root, bool in_place, bool invalid, std::string& why, Part part = Part::whole);

}  // namespace shmpi::client::coll
