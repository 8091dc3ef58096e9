// The predefined datatypes of the MPI-5.0 ABI (handles 0x200..0x2ff): size, alignment
// and name of each, and for the pair types (MPI_DOUBLE_INT, MPI_2REAL, ...) their two
// components, laid out as the C struct {first; second;} (MPI-4.1 6.9.4).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace shmpi::client::types {

struct BasicInfo {
  std::uint16_t handle = 0;  // value of the predefined handle; 0 = no such type
  std::uint16_t size = 0;    // bytes of data
  std::uint16_t align = 0;   // C (or gfortran) alignment on this platform
  const char* name = nullptr;
  // Pair types only: the two component handles and the second one's offset. The
  // extent is the struct's size (size rounded up to align).
  std::uint16_t first = 0, second = 0, second_offset = 0;
  std::uint16_t extent = 0;
};

constexpr std::uintptr_t kFirstPredefinedType = 0x200;
constexpr std::uintptr_t kLastPredefinedType = 0x2ff;

// The entry for a predefined handle, or nullptr (MPI_DATATYPE_NULL, an unassigned value
// in the reserved range, or not a predefined handle at all).
const BasicInfo* basic_info(MPI_Datatype h);
const BasicInfo* basic_info(std::uintptr_t handle_value);

inline bool is_predefined_value(MPI_Datatype h) {
  const auto v = reinterpret_cast<std::uintptr_t>(h);
  return v >= 1 && v <= 4095;
}

}  // namespace shmpi::client::types
