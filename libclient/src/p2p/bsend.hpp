// Buffered mode (MPI-4.1 3.6): the user's attached buffer, and buffered sends copied
// into it. A buffered send packs the message into a free part of the buffer (its packed
// size + MPI_BSEND_OVERHEAD, the amount MPI-4.1 3.6.1 tells users to reserve) and
// sends that copy with an internal standard-mode request; the part is free again once
// that request completes. MPI_Buffer_detach waits for all of them.
#pragma once

#include <mpi.h>

#include <string>

#include "objects.hpp"
#include "types/datatype.hpp"

namespace shmpi::client::p2p {

// MPI error class (MPI_SUCCESS) with `why`.
int buffer_attach(void* buf, MPI_Count size, std::string& why);
int buffer_detach(void** addr, MPI_Count* size, std::string& why);
int bsend(CommObj* c, const void* buf, MPI_Count count, types::Datatype* t, const types::Flat* f, int dest, int tag,
          std::string& why);

}  // namespace shmpi::client::p2p
