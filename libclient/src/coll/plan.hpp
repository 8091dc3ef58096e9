// One collective call with its arguments checked and resolved (buffers flattened, the
// reduction kernel chosen): what api_coll.cpp builds from the user's arguments and
// run() executes. A blocking call builds one and runs it at once; a nonblocking one
// keeps it in its request (coll/nbc.hpp) and runs it on a task; a persistent one builds
// it once at MPI_*_init and runs it at every MPI_Start.
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "coll/collectives.hpp"

namespace shmpi::client::coll {

// References a plan owns: moved with it, dropped when it goes.
struct OpRef {
  OpObj* o = nullptr;
  OpRef() = default;
  OpRef(OpRef&& x) noexcept : o(std::exchange(x.o, nullptr)) {}
  OpRef& operator=(OpRef&& x) noexcept {
    reset();
    o = std::exchange(x.o, nullptr);
    return *this;
  }
  ~OpRef() { reset(); }
  void reset() {
    if (o != nullptr) drop();
  }
  void drop();
  friend void swap(OpRef& a, OpRef& b) noexcept { std::swap(a.o, b.o); }
};
struct TypeRefs {
  std::vector<types::Datatype*> v;
  TypeRefs() = default;
  TypeRefs(TypeRefs&& x) noexcept : v(std::move(x.v)) { x.v.clear(); }
  TypeRefs& operator=(TypeRefs&& x) noexcept {
    reset();
    v = std::move(x.v);
    x.v.clear();
    return *this;
  }
  ~TypeRefs() { reset(); }
  void add(types::Datatype* t);
  void reset() {
    if (!v.empty()) drop();
  }
  void drop();
  friend void swap(TypeRefs& a, TypeRefs& b) noexcept { a.v.swap(b.v); }
};

enum class PlanKind : std::uint8_t { barrier, bcast, scatter, gather, allgather, alltoall, reduce };

struct Plan {
  PlanKind kind = PlanKind::barrier;
  CommObj* comm = nullptr;
  const char* call = "";
  // This rank's own argument error: it takes part without data (collectives.hpp), then
  // reports this. MPI_SUCCESS if the arguments are valid.
  int cls = MPI_SUCCESS;
  std::string msg;

  Buf one;                    // bcast: the buffer; scatter: recv; gather, allgather: send
  std::vector<Buf> send, recv;  // per-rank pieces (scatter: send; gather, allgather: recv; alltoall: both)
  int root = 0;
  bool in_place = false;

  // Reductions.
  ReduceKind rkind = ReduceKind::reduce;
  const void* sbuf = nullptr;
  void* rbuf = nullptr;
  MPI_Count count = 0;
  std::vector<MPI_Count> counts;  // reduce_scatter: per-rank block counts (else empty)
  Reducer reducer;
  OpRef op;  // the reference taken by the argument check (MPI_Op_free may come first)

  // Datatypes kept alive while a nonblocking or persistent call may still use them
  // (hold_types()); empty for a blocking call.
  TypeRefs held;

  // How much of a barrier or reduction run() does (engine.hpp Part): set around one run
  // by nbc.cpp's deferred calls, else whole.
  Part part = Part::whole;

  bool ok() const { return cls == MPI_SUCCESS; }
  // Takes a reference on every datatype the plan uses (MPI_Type_free may come before
  // the call completes, MPI-4.1 5.1.8).
  void hold_types();
  // Drops the op and datatype references (a reused blocking plan, between calls).
  void release() {
    op.reset();
    held.reset();
  }
  // Exchanges every member with x, references included (a nonblocking call's request
  // takes over the process's plan and leaves it its recycled one: nbc.cpp request_for).
  // Member by member: std::swap's three moves (a temporary built and destroyed, each
  // move resetting references and freeing vectors it overwrites) cost 336 instructions
  // per deferred call (callgrind, 8-byte MPI_Iallreduce), this one 150.
  void swap(Plan& x) noexcept;
};

// Runs the call: an MPI error class with a message in `why` (the engine's, not the
// argument check's).
int run(Plan& p, std::string& why);

}  // namespace shmpi::client::coll
