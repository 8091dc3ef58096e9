// What MPI_Status's reserved ints hold (mpi.h section 3): MPI_internal[0] and [1] are
// the low and high 32 bits of the number of bytes received. Read by MPI_Get_count/_elements, written by receives and
// MPI_Status_set_elements. Bit 0 of MPI_internal[2] is the cancelled flag (request/request.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace shmpi::client::types {

inline void set_status_bytes(MPI_Status& s, MPI_Count bytes) {
  const auto u = static_cast<std::uint64_t>(bytes);
  s.MPI_internal[0] = static_cast<int>(static_cast<std::uint32_t>(u));
  s.MPI_internal[1] = static_cast<int>(static_cast<std::uint32_t>(u >> 32));
}

inline MPI_Count status_bytes(const MPI_Status& s) {
  const std::uint64_t lo = static_cast<std::uint32_t>(s.MPI_internal[0]);
  const std::uint64_t hi = static_cast<std::uint32_t>(s.MPI_internal[1]);
  return static_cast<MPI_Count>(lo | (hi << 32));
}

}  // namespace shmpi::client::types
