// Shared by the api_*.cpp files, which hold the C entry points.
//
// Every entry point is defined as PMPI_Xxx (the profiling interface) and exported as
// MPI_Xxx through a weak alias, so a tool can interpose MPI_Xxx and call PMPI_Xxx.
#pragma once

#include <mpi.h>

#include "errors.hpp"
#include "objects.hpp"
#include "runtime.hpp"

#define SHMPI_PMPI_ALIAS(ret, name, params) \
  extern "C" ret name params __attribute__((weak, alias("P" #name)));

namespace shmpi::client {

inline bool initialized() { return g_rt.phase == Phase::initialized; }

}  // namespace shmpi::client
