// Shared by the api_*.cpp files, which hold the C entry points.
//
// Every entry point is defined as PMPI_Xxx (the profiling interface) and exported as
// MPI_Xxx through a weak alias, so a tool can interpose MPI_Xxx and call PMPI_Xxx.
#pragma once

#include <mpi.h>

#include <string>

#include "errors.hpp"
#include "objects.hpp"
#include "runtime.hpp"

#define SHMPI_PMPI_ALIAS(ret, name, params) \
  extern "C" ret name params __attribute__((weak, alias("P" #name)));

namespace shmpi::client {

inline bool initialized() { return g_rt.phase == Phase::initialized; }

// Decodes the communicator argument of `call`; on failure raises MPI_ERR_COMM (on
// MPI_COMM_SELF: there is no valid object to raise it on) and leaves the code in `rc`.
// (MPI_COMM_WORLD inline, the error out of line: a collective's per-call cost.)
inline CommObj* comm_arg(MPI_Comm comm, const char* call, int& rc) {
  CommObj* c = comm == MPI_COMM_WORLD ? &g_world : to_comm(comm);
  if (c == nullptr) [[unlikely]] rc = bad_comm_arg(comm, call);
  return c;
}

// comm_arg for calls valid only between MPI_Init and MPI_Finalize.
inline CommObj* initialized_comm_arg(MPI_Comm comm, const char* call, int& rc) {
  if (!initialized()) [[unlikely]] {
    rc = not_initialized(call);
    return nullptr;
  }
  return comm_arg(comm, call, rc);
}

}  // namespace shmpi::client
