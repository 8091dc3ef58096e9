#include "shmpi_common/paths.hpp"

#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace shmpi::paths {

std::string runtime_dir(std::string& why) {
  std::string dir;
  if (const char* d = std::getenv("SHMPI_RUNTIME_DIR"); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_RUNTIME_DIR"); x && *x) {
    dir = std::string(x) + "/shmpi";
  } else {
    dir = "/tmp/shmpi-" + std::to_string(getuid());
  }
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    why = "cannot create " + dir + ": " + std::strerror(errno);
    return {};
  }
  struct stat st{};
  if (lstat(dir.c_str(), &st) != 0) {
    why = "cannot stat " + dir + ": " + std::strerror(errno);
    return {};
  }
  // lstat, not stat: a symlink here is refused, never followed (whoever planted it
  // would choose where our socket and log go).
  std::string wrong;
  if (S_ISLNK(st.st_mode)) {
    wrong = "it is a symlink";
  } else if (!S_ISDIR(st.st_mode)) {
    wrong = "it is not a directory";
  } else if (st.st_uid != getuid()) {
    wrong = "it is owned by uid " + std::to_string(st.st_uid);
  } else if ((st.st_mode & 0777) != 0700) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 0777));
    wrong = std::string("its mode is ") + mode;
  }
  if (!wrong.empty()) {
    why = "refusing runtime directory " + dir + ": " + wrong + "; it must be a directory owned by uid " +
          std::to_string(getuid()) + " with mode 0700";
    return {};
  }
  return dir;
}

std::string socket_path(const std::string& dir) { return dir + "/broker.sock"; }
bool socket_is_ours(const std::string& path, std::string& why) {
  struct stat st{};
  if (lstat(path.c_str(), &st) != 0) return true;  // absent: nothing to follow
  if (S_ISSOCK(st.st_mode) && st.st_uid == getuid()) return true;
  why = "refusing " + path + ": " +
        (S_ISLNK(st.st_mode) ? std::string("it is a symlink")
                             : "not a socket owned by uid " + std::to_string(getuid()));
  return false;
}
std::string lock_path(const std::string& dir) { return dir + "/broker.lock"; }
std::string log_path(const std::string& dir) { return dir + "/shmpid.log"; }

std::string segment_prefix() { return "shmpi-" + std::to_string(getuid()) + "-"; }

std::string segment_name(std::uint64_t job_id) {
  // 64 bits from the kernel's CSPRNG: nothing about the name follows from pid, time or
  // job id, so nobody can create it first (the broker creates with O_EXCL anyway).
  std::uint64_t r = 0;
  for (;;) {
    const ssize_t n = getrandom(&r, sizeof r, 0);
    if (n == static_cast<ssize_t>(sizeof r)) break;
    if (n < 0 && errno != EINTR) std::abort();  // no kernel randomness: never fall back to a guessable name
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%" PRIu64 "-%016" PRIx64, job_id, r);
  return segment_prefix() + buf;
}

bool parse_segment_name(const std::string& name, std::uint64_t& job_id) {
  const std::string prefix = segment_prefix();
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  const char* p = name.c_str() + prefix.size();
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(p, &end, 10);
  if (errno != 0 || end == p || *end != '-' || std::strlen(end + 1) != 16) return false;
  job_id = v;
  return true;
}

}  // namespace shmpi::paths
