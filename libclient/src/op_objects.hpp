// MPI_Op handles: the predefined ops map to the op engine's OpKind; user ops
// (MPI_Op_create, _c) are registry-checked objects, like errhandlers.
#pragma once

#include <mpi.h>

#include <atomic>

#include "ops/op_kinds.hpp"

namespace shmpi::client {

struct OpObj {
  bool user = false;
  ops::OpKind kind = ops::OpKind::sum;      // predefined ops
  MPI_User_function* fn = nullptr;          // MPI_Op_create
  MPI_User_function_c* fn_c = nullptr;      // MPI_Op_create_c
  bool commute = true;
  // The user's handle plus each call using the op: MPI_Op_free while a call runs leaves
  // the op valid until that call ends (MPI-4.1 6.9.5).
  std::atomic<int> refs{1};
  // MPI_Op_free came: the handle is invalid from then on, even while references (calls
  // in flight, acquire_op's per-thread cache) keep the object.
  std::atomic<bool> freed{false};
};

// nullptr if `op` is not a valid op handle (MPI_OP_NULL included). A user op returned
// here holds a reference the caller drops with release_op().
OpObj* acquire_op(MPI_Op op);
void release_op(OpObj* o);
// Another reference on an op already held or borrowed (released with release_op()).
inline OpObj* retain_op(OpObj* o) {
  if (o->user) o->refs.fetch_add(1, std::memory_order_relaxed);
  return o;
}
// The same check without a reference for the caller: the op stays valid until this
// thread checks another user op (the per-thread cache's reference keeps it). For a
// call that uses the op only before it returns (a blocking collective).
OpObj* borrow_op(MPI_Op op);
MPI_Op new_user_op(MPI_User_function* fn, MPI_User_function_c* fn_c, bool commute);

// Calls a user op's function on `count` elements (extent bytes apart): an int-count
// function on chunks of at most INT_MAX elements (MPI-4.1 6.9.5: large counts with the
// int binding).
void call_user_op(const OpObj& o, const void* in, void* inout, MPI_Count count, MPI_Datatype dt, MPI_Count extent);

}  // namespace shmpi::client
