// SOCK_SEQPACKET Unix socket helpers shared by the broker and its clients.
#pragma once

#include <string>
#include <sys/types.h>

namespace shmpi {

// Connected socket to `path`, or -1 (errno set).
int connect_unix(const std::string& path);
// Listening socket bound to `path` (created 0600), or -1 with `why`.
int listen_unix(const std::string& path, std::string& why);
// Credentials of the peer; false if unavailable.
bool peer_credentials(int fd, pid_t& pid, uid_t& uid);

}  // namespace shmpi
