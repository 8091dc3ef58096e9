// Library objects behind MPI handles, and handle <-> object conversion.
//
// Handles follow the MPI-5.0 ABI: predefined handles are small fixed integers
// (mpi.h); every other handle is a pointer to one of these objects. Conversion of a
// predefined value is a table lookup; a user handle is accepted only if the registry
// of live objects holds it, so a freed or garbage handle is an MPI error, not a crash.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coll/numa_groups.hpp"
#include "coll/path_choice.hpp"

namespace shmpi::client {

struct ErrhandlerObj {
  enum class Kind { fatal, abort, ret, user };
  Kind kind;
  MPI_Comm_errhandler_function* fn = nullptr;
  // Created by MPI_Win_create_errhandler: `fn` holds an MPI_Win_errhandler_function*.
  bool for_win = false;
  // Handle references (user's handle + each comm using it). Freed at zero.
  std::atomic<int> refs{1};
};

namespace attr {
struct AttrList;  // attr/attr.hpp: cached attributes (keyvals) of one object
}
namespace coll {
struct CommBlock;  // coll/comm_block.hpp: the communicator's collective block
}

struct CommObj {
  MPI_Comm handle = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  ErrhandlerObj* errhandler = nullptr;
  std::string name;
  attr::AttrList* attrs = nullptr;  // created on first MPI_Comm_set_attr
  std::vector<int> world_of;         // world rank of each comm rank
  std::uint32_t context_id = 0;      // job-unique (0 world, 1 self)
  coll::CommBlock* block = nullptr;  // collective block, mapped by every member
  std::uint32_t seq = 0;             // collective calls made on this communicator
  std::vector<std::uint32_t> seen_done;  // lower bounds of the members' `done` (coll/engine.cpp)
  std::uint32_t seen_done_min = 0;       // a lower bound of them all (reserve()'s shortcut)
  // This rank's finished calls (coll/engine.cpp publish_done): every call up to
  // done_upto, plus bit i of done_ahead for call done_upto + 1 + i (nonblocking
  // collectives may finish out of order; `done` publishes done_upto only).
  std::uint32_t done_upto = 0;
  std::uint64_t done_ahead = 0;
  std::uint32_t done_published = 0;  // the value of our `done` flag (<= done_upto)
  // Nonblocking and persistent collective requests on this communicator (coll/nbc.cpp).
  int nbc_requests = 0;  // alive: a freed communicator is destroyed with the last one
  int nbc_running = 0;   // in flight
  // The issue-time poll of a kept fold (coll/posted_fold.hpp poll_at_issue): the
  // evidence that the program works between issue and wait, and calls since a fold
  // last looked.
  std::uint8_t fold_credit = 0;
  std::uint8_t fold_since_look = 0;
  bool freed = false;    // MPI_Comm_free came while requests were alive
  std::uint32_t create_group_calls = 0;  // MPI_Comm_create_group calls with this parent
  std::vector<std::byte> scratch[4];  // reusable collective buffers (coll/engine.hpp)
  // This rank's stream (coll/stream.hpp): chunks written so far (our `streamed` flag),
  // whether a call is streaming (one at a time), and what the stream's writer knows of
  // each reader's post (0 not seen, 1 valid, 2 invalid).
  std::uint32_t stream_next = 0;
  bool stream_busy = false;
  std::vector<std::uint8_t> stream_readers;
  std::vector<std::uint8_t> ring_mapped;  // members whose ring our mapping has populated
  std::uint64_t staged_warm = 0;  // bytes of every staging slot first accessed (coll/first_access.hpp)
  coll::PathStats paths;  // stream or single copy, by measured call time (coll/path_choice.hpp)
  coll::NumaGroups numa;              // members by NUMA node (coll/numa_groups.hpp)
  // The members pinned to this rank's core (coll/engine.cpp wait_arrivals), once
  // mates_pinned is true; false: ranks are not pinned, so any member may need our core;
  // empty: not looked up yet.
  std::vector<int> core_mates;
  std::optional<bool> mates_pinned;
  bool predefined = false;
};

namespace coll {
inline const NumaGroups& numa_groups(CommObj* c) { return c->numa.known ? c->numa : compute_numa_groups(c); }
}  // namespace coll

extern CommObj g_world;
extern CommObj g_self;
extern ErrhandlerObj g_errors_are_fatal;
extern ErrhandlerObj g_errors_abort;
extern ErrhandlerObj g_errors_return;

// nullptr if `c` is not a valid communicator handle (MPI_COMM_NULL included).
CommObj* to_comm(MPI_Comm c);
// nullptr if `e` is not a valid errhandler handle (MPI_ERRHANDLER_NULL included).
ErrhandlerObj* to_errhandler(MPI_Errhandler e);
MPI_Errhandler to_handle(ErrhandlerObj* e);

ErrhandlerObj* new_user_errhandler(MPI_Comm_errhandler_function* fn);
void retain(ErrhandlerObj* e);
void release(ErrhandlerObj* e);

}  // namespace shmpi::client
