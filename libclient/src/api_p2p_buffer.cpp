// MPI_Buffer_attach and MPI_Buffer_detach (and _c), MPI-4.1 3.6.1: the buffer that
// buffered-mode sends copy into (p2p/bsend.hpp).
#include "api.hpp"
#include "p2p/bsend.hpp"

using namespace shmpi::client;

namespace {

int attach(const char* call, void* buffer, MPI_Count size) {
  if (!initialized()) return not_initialized(call);
  std::string why;
  const int cls = p2p::buffer_attach(buffer, size, why);
  return cls == MPI_SUCCESS ? MPI_SUCCESS : raise(nullptr, cls, std::string(call) + ": " + why);
}

template <class CT>
int detach(const char* call, void* buffer_addr, CT* size) {
  if (!initialized()) return not_initialized(call);
  if (buffer_addr == nullptr || size == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": " + (buffer_addr == nullptr ? "buffer_addr" : "size") +
                                           " is NULL");
  }
  std::string why;
  void* addr = nullptr;
  MPI_Count n = 0;
  const int cls = p2p::buffer_detach(&addr, &n, why);
  if (cls != MPI_SUCCESS) return raise(nullptr, cls, std::string(call) + ": " + why);
  *static_cast<void**>(buffer_addr) = addr;  // buffer_addr is really a void** (MPI-4.1 3.6.1)
  *size = static_cast<CT>(n);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Buffer_attach(void* buffer, int size) { return attach("MPI_Buffer_attach", buffer, size); }
SHMPI_PMPI_ALIAS(int, MPI_Buffer_attach, (void*, int))

extern "C" int PMPI_Buffer_attach_c(void* buffer, MPI_Count size) { return attach("MPI_Buffer_attach_c", buffer, size); }
SHMPI_PMPI_ALIAS(int, MPI_Buffer_attach_c, (void*, MPI_Count))

extern "C" int PMPI_Buffer_detach(void* buffer_addr, int* size) { return detach("MPI_Buffer_detach", buffer_addr, size); }
SHMPI_PMPI_ALIAS(int, MPI_Buffer_detach, (void*, int*))

extern "C" int PMPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  return detach("MPI_Buffer_detach_c", buffer_addr, size);
}
SHMPI_PMPI_ALIAS(int, MPI_Buffer_detach_c, (void*, MPI_Count*))
