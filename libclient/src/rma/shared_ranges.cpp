#include "rma/shared_ranges.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace shmpi::client {
namespace {

constexpr std::uint64_t kPage = 4096;

struct Region {
  std::uint64_t len;
  int fd;
  bool alloc_mem;
};
std::mutex g_mutex;
std::map<std::uint64_t, Region> g_regions;  // by start address

// The registered region holding [lo, hi), if any.
const std::pair<const std::uint64_t, Region>* find(std::uint64_t lo, std::uint64_t hi) {
  auto it = g_regions.upper_bound(lo);
  if (it == g_regions.begin()) return nullptr;
  --it;
  if (lo >= it->first && hi <= it->first + it->second.len) return &*it;
  return nullptr;
}

bool overlaps_registered(std::uint64_t lo, std::uint64_t hi) {
  for (const auto& [start, r] : g_regions) {
    if (lo < start + r.len && start < hi) return true;
  }
  return false;
}

// True if every byte of [lo, hi) lies in private read-write mappings (anonymous, heap,
// or a private copy of a file such as .data: never written back), contiguous; never the
// stack or other special mappings, never devices.
bool private_anonymous(std::uint64_t lo, std::uint64_t hi) {
  FILE* f = std::fopen("/proc/self/maps", "re");
  if (f == nullptr) return false;
  char line[512];
  std::uint64_t covered = lo;
  bool ok = true;
  while (ok && covered < hi && std::fgets(line, sizeof line, f) != nullptr) {
    unsigned long long a = 0, b = 0, off = 0, inode = 0;
    char perms[8] = {};
    char dev[16] = {};
    int consumed = 0;
    if (std::sscanf(line, "%llx-%llx %7s %llx %15s %llu %n", &a, &b, perms, &off, dev, &inode, &consumed) < 6) continue;
    if (b <= covered || a >= hi) continue;
    if (a > covered) {
      ok = false;  // a hole
      break;
    }
    std::string path = consumed > 0 ? std::string(line + consumed) : std::string();
    while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
    const bool special = (!path.empty() && path[0] == '[' && path != "[heap]") || path.rfind("/dev/", 0) == 0;
    (void)inode;
    if (std::strncmp(perms, "rw-p", 4) != 0 || special) {
      ok = false;
      break;
    }
    covered = b;
  }
  std::fclose(f);
  return ok && covered >= hi;
}

// The whole pages around a window, neighbours included: under AddressSanitizer or
// ThreadSanitizer those neighbours may be freed heap bytes, which this copy must read
// without a report (and without being turned into a memcpy call, which the sanitizers
// intercept).
#if defined(__clang__)
#define SHMPI_NO_MEMCPY_IDIOM __attribute__((no_builtin("memcpy")))  // clang's spelling
#else
#define SHMPI_NO_MEMCPY_IDIOM [[gnu::optimize("no-tree-loop-distribute-patterns")]]
#endif
[[gnu::no_sanitize_address, gnu::no_sanitize_thread]] SHMPI_NO_MEMCPY_IDIOM void copy_pages(
    std::uint64_t* dst, const std::uint64_t* src, std::size_t words) {
  for (std::size_t i = 0; i < words; ++i) dst[i] = src[i];
}

}  // namespace

void add_alloc_mem(void* p, std::size_t len, int fd) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_regions[reinterpret_cast<std::uint64_t>(p)] = Region{len, fd, true};
}

bool remove_alloc_mem(void* p, std::size_t& len) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_regions.find(reinterpret_cast<std::uint64_t>(p));
  if (it == g_regions.end() || !it->second.alloc_mem) return false;
  len = it->second.len;
  close(it->second.fd);
  g_regions.erase(it);
  return true;
}

bool share_in_place(void* base, std::size_t size, SharedRange& out) {
  if (size == 0) return false;
  const auto b = reinterpret_cast<std::uint64_t>(base);
  const std::uint64_t lo = b / kPage * kPage;
  const std::uint64_t hi = (b + size + kPage - 1) / kPage * kPage;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (const auto* r = find(lo, hi)) {
    out = SharedRange{r->second.fd, lo - r->first, lo, hi - lo};
    return true;
  }
  const char* env = std::getenv("SHMPI_WIN_CREATE_SHARE");
  if (env != nullptr && std::strcmp(env, "0") == 0) return false;
  if (overlaps_registered(lo, hi) || !private_anonymous(lo, hi)) return false;
  const int fd = memfd_create("shmpi-win-mem", MFD_CLOEXEC);
  if (fd < 0) return false;
  const std::uint64_t len = hi - lo;
  bool ok = ftruncate(fd, static_cast<off_t>(len)) == 0;
  // Copy the current contents, then put the shared pages in place of the private ones.
  if (ok) {
    void* tmp = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ok = tmp != MAP_FAILED;
    if (ok) {
      copy_pages(static_cast<std::uint64_t*>(tmp), reinterpret_cast<const std::uint64_t*>(lo), len / 8);
      munmap(tmp, len);
    }
  }
  if (ok) {
    void* p = mmap(reinterpret_cast<void*>(lo), len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    ok = p == reinterpret_cast<void*>(lo);
  }
  if (!ok) {
    close(fd);
    return false;
  }
  g_regions[lo] = Region{len, fd, false};
  out = SharedRange{fd, 0, lo, len};
  return true;
}

}  // namespace shmpi::client
