// Pack and unpack `count` elements of a flattened type by memcpy of whole runs: a
// contiguous type is one memcpy for all elements; otherwise one memcpy per merged run
// (fixed-size copies when every run has the same small length, e.g. a vector of
// doubles). `buf` is the buffer address as given to MPI (element k's run b is at
// buf + k * extent + b.offset); the packed side is count * size bytes.
#pragma once

#include "types/datatype.hpp"

namespace shmpi::client::types {

void pack(const Datatype& t, const Flat& f, const void* buf, MPI_Count count, void* packed);
void unpack(const Datatype& t, const Flat& f, const void* packed, MPI_Count count, void* buf);

// Same for the packed byte range [first, first + nbytes) of the count elements (for
// engines that move data in chunks). first + nbytes <= count * size.
void pack_range(const Datatype& t, const Flat& f, const void* buf, MPI_Count first, MPI_Count nbytes, void* packed);
void unpack_range(const Datatype& t, const Flat& f, const void* packed, MPI_Count first, MPI_Count nbytes, void* buf);

}  // namespace shmpi::client::types
