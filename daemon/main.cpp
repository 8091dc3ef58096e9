// shmpid: the per-user, per-node broker. Usage:
//   shmpid [--foreground] [--idle-timeout SEC]
// Without --foreground it detaches, logs to <runtime dir>/shmpid.log and exits after
// SEC seconds (default 60) with no jobs and no connections; shmpirun starts it that way.
// With --foreground it logs to stderr and runs until SIGINT/SIGTERM (a service).
// SHMPI_LOG_LEVEL = trace|debug|info|warn|error|critical|off (default info).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "broker.hpp"
#include "shmpi_common/paths.hpp"
#include "shmpi_common/unix_socket.hpp"

namespace {
void usage() { std::fprintf(stderr, "usage: shmpid [--foreground] [--idle-timeout SEC]\n"); }

// Opens a file of ours in the runtime directory: created 0600, never through a symlink
// (O_NOFOLLOW), and only if it is a regular file owned by us. -1 with `why` otherwise.
int open_private(const std::string& path, int flags, std::string& why) {
  const int fd = ::open(path.c_str(), flags | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    why = "cannot open " + path + ": " +
          (errno == ELOOP ? std::string("it is a symlink (refusing to follow it)") : std::strerror(errno));
    return -1;
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
    why = "refusing " + path + ": not a regular file owned by uid " + std::to_string(::geteuid());
    ::close(fd);
    return -1;
  }
  return fd;
}

// A held lock alone does not mean a broker serves: the holder may be starting (lock
// taken, socket not yet bound) or leaving (socket unlinked, lock not yet released by
// exit). Leaving at once in the second case would strand the starter (shmpirun waits
// for a socket nobody will create), so wait until one of the two settles.
enum class LockResult { taken, other_broker_listens, holder_never_listened };
constexpr int kLockWaitMs = 10'000;

LockResult take_broker_lock(int lock_fd, const std::string& socket_path) {
  for (int waited = 0;; waited += 10) {
    if (::flock(lock_fd, LOCK_EX | LOCK_NB) == 0) return LockResult::taken;
    if (const int fd = shmpi::connect_unix(socket_path); fd >= 0) {
      ::close(fd);
      return LockResult::other_broker_listens;
    }
    if (waited >= kLockWaitMs) return LockResult::holder_never_listened;
    const timespec ts{0, 10'000'000};
    ::nanosleep(&ts, nullptr);
  }
}
}  // namespace

int main(int argc, char** argv) {
  bool foreground = false;
  int idle = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--foreground") {
      foreground = true;
    } else if (a == "--idle-timeout" && i + 1 < argc) {
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 0 || v > 86400) {
        std::fprintf(stderr, "shmpid: --idle-timeout takes 0..86400 seconds\n");
        return 2;
      }
      idle = static_cast<int>(v);
    } else if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else {
      usage();
      return 2;
    }
  }
  if (idle < 0) idle = foreground ? 0 : 60;

  // Whatever the broker creates (lock, log) is private whatever umask started it.
  ::umask(077);
  std::string why;
  const std::string dir = shmpi::paths::runtime_dir(why);
  if (dir.empty()) {
    std::fprintf(stderr, "shmpid: %s\n", why.c_str());
    return 1;
  }
  // One broker per user per node: whoever holds the lock is the broker.
  const int lock_fd = open_private(shmpi::paths::lock_path(dir), O_RDWR, why);
  if (lock_fd < 0) {
    std::fprintf(stderr, "shmpid: %s\n", why.c_str());
    return 1;
  }
  const std::string socket_path = shmpi::paths::socket_path(dir);
  switch (take_broker_lock(lock_fd, socket_path)) {
    case LockResult::taken:
      break;
    case LockResult::other_broker_listens:
      if (foreground) std::fprintf(stderr, "shmpid: another broker is running for this user (%s)\n", dir.c_str());
      return 0;
    case LockResult::holder_never_listened:
      std::fprintf(stderr, "shmpid: another process has held the broker lock of %s for %d s without listening on its socket\n",
                   dir.c_str(), kLockWaitMs / 1000);
      return 1;
  }

  if (!foreground) {
    // Opened (and checked) here, before detaching, so a refusal reaches the starter.
    const int log_fd = open_private(shmpi::paths::log_path(dir), O_WRONLY | O_APPEND, why);
    if (log_fd < 0) {
      std::fprintf(stderr, "shmpid: %s\n", why.c_str());
      return 1;
    }
    const pid_t child = ::fork();
    if (child < 0) return 1;
    if (child > 0) _exit(0);  // the lock stays with the child (shared open file)
    ::setsid();
    // stdout/stderr become the log (spdlog's file sink would reopen it by name,
    // following a symlink); stdin is /dev/null.
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    // Keep nothing else the starter (shmpirun, and whatever started it) left open but the lock.
    ::close_range(3, static_cast<unsigned>(lock_fd) - 1, 0);
    ::close_range(static_cast<unsigned>(lock_fd) + 1, ~0u, 0);
  }
  spdlog::set_default_logger(spdlog::stderr_logger_mt("shmpid"));
  spdlog::set_level(spdlog::level::info);
  if (const char* lvl = std::getenv("SHMPI_LOG_LEVEL")) spdlog::set_level(spdlog::level::from_str(lvl));
  spdlog::flush_on(spdlog::level::info);

  shmpi::daemon::Broker broker({socket_path, idle, true});
  if (!broker.start(why)) {
    spdlog::critical("{}", why);
    return 1;
  }
  broker.run(true);
  return 0;
}
