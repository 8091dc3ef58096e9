// Environment inquiries: versions, processor name, clocks.
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "api.hpp"

using namespace shmpi::client;

extern "C" int PMPI_Get_version(int* version, int* subversion) {
  if (version == nullptr || subversion == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Get_version: version or subversion is NULL");
  }
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Get_version, (int*, int*))

extern "C" int PMPI_Get_library_version(char* version, int* resultlen) {
  if (version == nullptr || resultlen == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Get_library_version: version or resultlen is NULL");
  }
  const char* text = "shmpi " SHMPI_VERSION " (single-node shared-memory MPI, MPI-5.0 ABI)";
  const std::size_t n = std::min<std::size_t>(std::strlen(text), MPI_MAX_LIBRARY_VERSION_STRING - 1);
  std::memcpy(version, text, n);
  version[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Get_library_version, (char*, int*))

extern "C" int PMPI_Get_processor_name(char* name, int* resultlen) {
  if (name == nullptr || resultlen == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Get_processor_name: name or resultlen is NULL");
  }
  char host[MPI_MAX_PROCESSOR_NAME];
  if (gethostname(host, sizeof host) != 0) std::strcpy(host, "localhost");
  host[sizeof host - 1] = '\0';
  const std::size_t n = std::strlen(host);
  std::memcpy(name, host, n + 1);
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Get_processor_name, (char*, int*))

extern "C" int PMPI_Abi_get_version(int* abi_major, int* abi_minor) {
  if (abi_major == nullptr || abi_minor == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Abi_get_version: abi_major or abi_minor is NULL");
  }
  *abi_major = MPI_ABI_VERSION;
  *abi_minor = MPI_ABI_SUBVERSION;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Abi_get_version, (int*, int*))

// CLOCK_MONOTONIC: one clock for all ranks of a node (so MPI_WTIME_IS_GLOBAL holds),
// no jumps when the wall clock is set.
extern "C" double PMPI_Wtime(void) {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
SHMPI_PMPI_ALIAS(double, MPI_Wtime, (void))

extern "C" double PMPI_Wtick(void) {
  timespec ts{};
  clock_getres(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
SHMPI_PMPI_ALIAS(double, MPI_Wtick, (void))
