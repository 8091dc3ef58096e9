#include "broker_link.hpp"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "shmpi_common/paths.hpp"
#include "shmpi_common/unix_socket.hpp"

extern char** environ;

namespace shmpi::runner {
namespace {

bool executable(const std::string& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0; }

// $SHMPID, then next to this binary (installed layout), then the build tree's daemon/,
// then the configured install path, then $PATH.
std::string find_shmpid() {
  if (const char* e = std::getenv("SHMPID"); e && executable(e)) return e;
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    std::string dir(self);
    dir.resize(dir.rfind('/'));
    for (const std::string& c : {dir + "/shmpid", dir + "/../../daemon/shmpid", dir + "/../daemon/shmpid"}) {
      if (executable(c)) return c;
    }
  }
  if (executable(SHMPI_INSTALLED_SHMPID)) return SHMPI_INSTALLED_SHMPID;
  return "shmpid";
}

void sleep_ms(int ms) {
  timespec ts{0, ms * 1'000'000L};
  nanosleep(&ts, nullptr);
}

}  // namespace

BrokerLink::~BrokerLink() {
  if (fd_ >= 0) ::close(fd_);
}

bool BrokerLink::connect(std::string& why) {
  const std::string dir = paths::runtime_dir(why);
  if (dir.empty()) return false;
  socket_path_ = paths::socket_path(dir);
  if (!paths::socket_is_ours(socket_path_, why)) return false;
  fd_ = connect_unix(socket_path_);
  if (fd_ >= 0) return true;

  const std::string daemon = find_shmpid();
  char* argv[] = {const_cast<char*>(daemon.c_str()), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, daemon.c_str(), nullptr, nullptr, argv, environ) != 0) {
    why = "cannot start the broker " + daemon + ": " + std::strerror(errno);
    return false;
  }
  int st = 0;
  ::waitpid(pid, &st, 0);  // the daemon detaches; its first process exits at once
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    // It refused to start (e.g. a planted symlink) and said why on our stderr.
    why = "the broker " + daemon + " failed to start (see its message above)";
    return false;
  }
  for (int i = 0; i < 500; ++i) {
    fd_ = connect_unix(socket_path_);
    if (fd_ >= 0) return true;
    sleep_ms(10);
  }
  why = "started " + daemon + " but it did not listen on " + socket_path_ + " within 5 s (see " +
        paths::log_path(dir) + ")";
  return false;
}

bool BrokerLink::request(const proto::Message& req, proto::Message& reply, std::string& why) {
  return proto::request(fd_, req, reply, why);
}

}  // namespace shmpi::runner
