// MPI_Info objects (MPI-4.1 chapter 10): (key, value) string pairs in insertion order, so
// MPI_Info_get_nthkey numbers keys stably. User objects are registry-checked like the
// other object kinds; MPI_INFO_ENV is a static, read-only object built at first use.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shmpi::client {

struct InfoObj {
  std::vector<std::pair<std::string, std::string>> entries;  // insertion order kept
};

// nullptr if `i` is not a valid info handle (MPI_INFO_NULL included); MPI_INFO_ENV gives
// a static object (see info.cpp for its keys), which must not be modified.
InfoObj* to_info(MPI_Info i);
MPI_Info to_handle(InfoObj* i);
// A new user info object holding `init`'s entries (keys must be distinct).
MPI_Info new_info_handle(InfoObj init);
// The value of `key`; nullopt for MPI_INFO_NULL, an invalid handle or a missing key.
std::optional<std::string> info_value(MPI_Info info, std::string_view key);

// For the API layer.
bool is_predefined(const InfoObj* i);
void free_info(InfoObj* i);  // a user object: unregisters and deletes it
// The entry of `key` in `i`, or nullptr.
std::pair<std::string, std::string>* find_entry(InfoObj& i, std::string_view key);
// What MPI_Info_create_env(argc, argv) returns: MPI_INFO_ENV's keys, with "command" and
// "argv" taken from argv when argc > 0 and argv is not NULL.
InfoObj env_info(int argc, char* const* argv);

}  // namespace shmpi::client
