// Where a user's broker lives and how shm objects are named.
#pragma once

#include <cstdint>
#include <string>

namespace shmpi::paths {

// $SHMPI_RUNTIME_DIR, else $XDG_RUNTIME_DIR/shmpi, else /tmp/shmpi-$UID. Created 0700 if
// missing; refused (empty result, reason in `why`) if it is not a directory owned by us
// with mode 0700 -- another user must not be able to plant a socket for us.
std::string runtime_dir(std::string& why);

std::string socket_path(const std::string& dir);
// False (reason in `why`) if `path` exists but is not a socket owned by us, e.g. a
// symlink: connect() would follow it to whatever it names.
bool socket_is_ours(const std::string& path, std::string& why);
std::string lock_path(const std::string& dir);
std::string log_path(const std::string& dir);

// "shmpi-<uid>-" : every shm object of this user starts with it.
std::string segment_prefix();
// "shmpi-<uid>-<job>-<16 random hex digits>": unguessable, unique per job.
std::string segment_name(std::uint64_t job_id);
// Parses the job id out of a segment name of this user; false if it is not one.
bool parse_segment_name(const std::string& name, std::uint64_t& job_id);

}  // namespace shmpi::paths
