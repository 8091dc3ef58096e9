// Reading a block that lives in another process's fd table (a window's control block, a
// communicator's collective block): a memfd opened through /proc/<pid>/fd/<fd>, never
// written. Shared by window_snapshot.cpp and comm_snapshot.cpp.
#pragma once

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "format.hpp"

namespace shmpi::dump {

// A plain (non-atomic) field of shared memory another process may write: one load,
// never cached or re-read by the compiler.
template <class T>
T rd(const T& x) {
  return *static_cast<const volatile T*>(&x);
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// A read-only shared mapping of [0, len) of a file, unmapped when it goes out of scope.
class ReadMap {
 public:
  ReadMap(int fd, std::size_t len) : len_(len), p_(mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, 0)) {}
  ReadMap(const ReadMap&) = delete;
  ReadMap& operator=(const ReadMap&) = delete;
  ~ReadMap() {
    if (ok()) munmap(p_, len_);
  }
  bool ok() const { return p_ != MAP_FAILED; }
  const std::byte* base() const { return static_cast<const std::byte*>(p_); }
  std::size_t size() const { return len_; }

 private:
  std::size_t len_;
  void* p_;
};

// Why /proc/<pid>/fd/<fd> could not be used (errno e from readlink/open); `what` names
// the object ("window", "communicator").
inline std::string gone_text(std::int32_t pid, std::int32_t fd, int e, const char* what) {
  if (e == ENOENT || e == ESRCH) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return fmt("vanished: creator pid %d exited", pid);
    return fmt("vanished: fd %d of pid %d is closed (%s freed since it was listed)", fd, pid, what);
  }
  return fmt("cannot open /proc/%d/fd/%d: %s", pid, fd, std::strerror(e));
}

// Opens /proc/<pid>/fd/<fd> read-only if it still is a memfd whose name starts with
// `memfd_name` (e.g. "shmpi-comm"); sets *fd_out and *size_out, or returns why not.
// The fd number may have been reused for anything since the listing: look before
// opening (a FIFO or terminal must never be opened), then check what was opened.
inline std::string open_memfd(std::int32_t pid, std::int32_t fd, const char* memfd_name, const char* what,
                              int* fd_out, std::uint64_t* size_out) {
  *fd_out = -1;
  const std::string path = fmt("/proc/%d/fd/%d", pid, fd);
  char target[256] = {};
  const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
  if (n < 0) return gone_text(pid, fd, errno, what);
  const std::string want = std::string("/memfd:") + memfd_name;
  if (std::strncmp(target, want.c_str(), want.size()) != 0) {
    return fmt("vanished: fd %d of pid %d is now %.100s, not a %s block", fd, pid, target, what);
  }
  const int f = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (f < 0) return gone_text(pid, fd, errno, what);
  struct stat st {};
  if (fstat(f, &st) != 0) {
    const int e = errno;
    close(f);
    return fmt("cannot stat %s: %s", path.c_str(), std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(f);
    return fmt("vanished: %s is no longer a memfd", path.c_str());
  }
  *fd_out = f;
  *size_out = static_cast<std::uint64_t>(st.st_size);
  return "";
}

namespace detail {
// volatile: the stores around the copy loop must not be optimised away, the handler
// reads them (the compiler sees no reader otherwise).
inline thread_local sigjmp_buf* volatile g_bus_jump = nullptr;
inline void on_sigbus(int sig) {
  if (g_bus_jump != nullptr) siglongjmp(*g_bus_jump, 1);
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace detail

// Copies `words` 64-bit words out of a shared mapping, one volatile load each. The file
// behind the mapping belongs to another process, which may shrink it at any moment
// (the pages then raise SIGBUS): returns false instead of dying in that case.
// Precondition: src is 8-byte aligned and [src, src + words) lies inside the mapping.
inline bool guarded_copy(std::uint64_t* dst, const std::uint64_t* src, std::size_t words) {
  struct sigaction sa {}, old{};
  sa.sa_handler = detail::on_sigbus;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGBUS, &sa, &old) != 0) return false;
  sigjmp_buf jb;
  volatile bool ok = false;
  if (sigsetjmp(jb, 1) == 0) {
    detail::g_bus_jump = &jb;
    const volatile std::uint64_t* s = src;
    for (std::size_t i = 0; i < words; ++i) dst[i] = s[i];
    ok = true;
  }
  detail::g_bus_jump = nullptr;
  sigaction(SIGBUS, &old, nullptr);
  return ok;
}

}  // namespace shmpi::dump
