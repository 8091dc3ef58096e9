// Collective creation and destruction of windows (window_create.cpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "rma/window.hpp"

namespace shmpi::client {

struct CreateArgs {
  const char* call;
  CommObj* comm;
  layout::WinFlavor flavor;
  std::uint64_t size;       // bytes this rank exposes (0 for dynamic)
  std::int64_t disp_unit;
  MPI_Info info;
  void* base;               // create: the caller's memory
  void* baseptr;            // allocate flavours: where to store the new base (void**)
  // A local argument error: the rank still takes part so that every rank fails together.
  int local_error = 0;
  std::string local_message;
};

// Returns MPI_SUCCESS and the new handle, or an error raised on the communicator.
int create_window(const CreateArgs& a, MPI_Win* out);
// MPI_Win_free's collective part; frees `w`.
int free_window(WinObj* w, const char* call);

}  // namespace shmpi::client
