// Communicator objects: the registry of user communicators, MPI_COMM_WORLD/SELF's
// collective blocks (made at MPI_Init), and the one creation routine every
// constructor (dup, split, split_type, create, create_group) goes through.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "objects.hpp"

namespace shmpi::client::comm {

// MPI_Init, after joining the job: world's and self's blocks. False with `why`.
bool init_predefined(std::string& why);
// MPI_Finalize: unmaps them (user communicators still alive are unmapped too).
void finalize_all();

// A user communicator handle's object, nullptr if unknown.
CommObj* lookup(MPI_Comm h);

// Collective over `parent`: every member passes a color (MPI_UNDEFINED: no new
// communicator) and a key; members with one color form a communicator ordered by
// (key, parent rank). *out is the new object or nullptr. Returns an MPI error class
// (MPI_SUCCESS) with `why`; every member of a new communicator gets the same result.
int split(CommObj* parent, int color, int key, CommObj** out, std::string& why);

// Collective over the members of `world_ranks` only (MPI_Comm_create_group): the
// members agree through the group's first rank; `tag` and the parent tell concurrent
// creations apart.
int create_group(CommObj* parent, const std::vector<int>& world_ranks, int tag, CommObj** out, std::string& why);

// MPI_Comm_free's local part: unregisters and unmaps (the block lives on while another
// member still maps it).
void destroy(CommObj* c);
// Unregisters the handle only (MPI_Comm_free while persistent collective requests still
// use `c`): destroy() follows when the last of them is freed (coll/nbc.cpp).
void retire(CommObj* c);

// MPI_Comm_set_name: the new name in this rank's directory entry, if it created `c`
// (what shmpi-dump shows).
void rename(CommObj* c);

// Small exchange of three integers per member (an allgather through the descriptors,
// no staging): used by creation and by MPI_Comm_compare-like agreements. False if the
// job aborted.
bool exchange(CommObj* c, const std::int64_t mine[3], std::vector<std::int64_t>& all);
// The same for `len` bytes per member (len <= coll::kStageMax): all = n * len bytes in
// rank order.
bool allgather_small(CommObj* c, const void* mine, std::size_t len, void* all);

}  // namespace shmpi::client::comm
