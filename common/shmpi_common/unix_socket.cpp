#include "shmpi_common/unix_socket.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace shmpi {
namespace {

// A socket path longer than sun_path (108 bytes; deep build trees in CI reach it) is
// reached through an O_PATH descriptor of its directory: /proc/self/fd/N/name.
class SocketAddress {
 public:
  explicit SocketAddress(const std::string& path) {
    std::memset(&addr_, 0, sizeof addr_);
    addr_.sun_family = AF_UNIX;
    std::string p = path;
    if (p.size() >= sizeof addr_.sun_path) {
      const auto slash = p.rfind('/');
      if (slash == std::string::npos) return;
      dir_fd_ = ::open(p.substr(0, slash).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (dir_fd_ < 0) return;
      p = "/proc/self/fd/" + std::to_string(dir_fd_) + p.substr(slash);
      if (p.size() >= sizeof addr_.sun_path) return;
    }
    std::memcpy(addr_.sun_path, p.c_str(), p.size() + 1);
    ok_ = true;
  }
  ~SocketAddress() {
    if (dir_fd_ >= 0) ::close(dir_fd_);
  }
  SocketAddress(const SocketAddress&) = delete;
  SocketAddress& operator=(const SocketAddress&) = delete;
  bool ok() const { return ok_; }
  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&addr_); }
  socklen_t size() const { return sizeof addr_; }

 private:
  sockaddr_un addr_;
  int dir_fd_ = -1;
  bool ok_ = false;
};

}  // namespace

int connect_unix(const std::string& path) {
  const SocketAddress a(path);
  if (!a.ok()) {
    errno = ENAMETOOLONG;
    return -1;
  }
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, a.get(), a.size()) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

int listen_unix(const std::string& path, std::string& why) {
  const SocketAddress a(path);
  if (!a.ok()) {
    why = "socket path too long and its directory cannot be opened: " + path;
    return -1;
  }
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    why = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  const mode_t old = ::umask(0177);  // the socket file is created 0600
  const int rc = ::bind(fd, a.get(), a.size());
  ::umask(old);
  if (rc != 0 || ::listen(fd, 128) != 0) {
    why = "bind/listen " + path + ": " + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

bool peer_credentials(int fd, pid_t& pid, uid_t& uid) {
  ucred c{};
  socklen_t len = sizeof c;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) != 0) return false;
  pid = c.pid;
  uid = c.uid;
  return true;
}

}  // namespace shmpi
