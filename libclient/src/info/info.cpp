#include "info/info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <unordered_set>

#include "runtime.hpp"

namespace shmpi::client {
namespace {

std::mutex g_mutex;
std::unordered_set<InfoObj*> g_infos;  // live user info objects

// The command line this process was started with (/proc/self/cmdline), whatever
// MPI_Init was given: MPI_Init(NULL, NULL) is legal, and the kernel's copy is the truth.
std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start < all.size()) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

// The number of processes the job was started with: the runner's SHMPI_SIZE, else 1
// (a program started without shmpirun is a singleton).
int job_size() {
  if (g_rt.phase == Phase::initialized) return static_cast<int>(g_rt.size);
  const char* s = std::getenv("SHMPI_SIZE");
  if (s == nullptr || std::getenv("SHMPI_JOB_ID") == nullptr) return 1;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  return (end != s && *end == '\0' && v > 0 && v <= INT_MAX) ? static_cast<int>(v) : 0;
}

void add(InfoObj& info, const char* key, std::string value) {
  // A value that does not fit MPI_MAX_INFO_VAL is left out rather than cut.
  if (value.size() < static_cast<std::size_t>(MPI_MAX_INFO_VAL)) info.entries.emplace_back(key, std::move(value));
}

InfoObj& env_object() {
  static InfoObj env = env_info(0, nullptr);
  return env;
}

}  // namespace

// The MPI_INFO_ENV keys of MPI-4.1 chapter 11, where they are known to be true: command and argv (as started),
// maxprocs (the job's size), host, arch. Not soft, file or thread_level (nobody asked for
// them before the program started), nor wdir (the directory may have changed since).
InfoObj env_info(int argc, char* const* argv) {
  std::vector<std::string> args;
  if (argc > 0 && argv != nullptr) {
    for (int i = 0; i < argc && argv[i] != nullptr; ++i) args.emplace_back(argv[i]);
  } else {
    args = command_line();
  }
  InfoObj info;
  if (!args.empty()) {
    add(info, "command", args[0]);
    if (args.size() > 1) {
      std::string joined;
      for (std::size_t i = 1; i < args.size(); ++i) joined += (i > 1 ? " " : "") + args[i];
      add(info, "argv", std::move(joined));
    }
  }
  if (const int n = job_size(); n > 0) add(info, "maxprocs", std::to_string(n));
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0 && host[0] != '\0') add(info, "host", host);
  struct utsname u {};
  if (uname(&u) == 0 && u.machine[0] != '\0') add(info, "arch", u.machine);
  return info;
}

InfoObj* to_info(MPI_Info i) {
  if (i == MPI_INFO_ENV) return &env_object();
  if (i == MPI_INFO_NULL) return nullptr;
  auto* p = reinterpret_cast<InfoObj*>(i);
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_infos.count(p) ? p : nullptr;
}

MPI_Info to_handle(InfoObj* i) {
  if (i == &env_object()) return MPI_INFO_ENV;
  return reinterpret_cast<MPI_Info>(i);
}

MPI_Info new_info_handle(InfoObj init) {
  auto* p = new InfoObj(std::move(init));
  std::lock_guard<std::mutex> lock(g_mutex);
  g_infos.insert(p);
  return reinterpret_cast<MPI_Info>(p);
}

std::optional<std::string> info_value(MPI_Info info, std::string_view key) {
  InfoObj* i = to_info(info);
  if (i == nullptr) return std::nullopt;
  const auto* e = find_entry(*i, key);
  if (e == nullptr) return std::nullopt;
  return e->second;
}

bool is_predefined(const InfoObj* i) { return i == &env_object(); }

void free_info(InfoObj* i) {
  if (is_predefined(i)) return;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_infos.erase(i);
  }
  delete i;
}

std::pair<std::string, std::string>* find_entry(InfoObj& i, std::string_view key) {
  for (auto& e : i.entries) {
    if (e.first == key) return &e;
  }
  return nullptr;
}

}  // namespace shmpi::client
