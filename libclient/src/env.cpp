#include "env.hpp"

#include <cerrno>
#include <cstdlib>

namespace shmpi::client {

bool env_u64(const char* name, std::uint64_t& out) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

int env_word(const char* name, std::initializer_list<std::string_view> words) {
  const char* s = std::getenv(name);
  if (s == nullptr) return -1;
  int i = 0;
  for (const std::string_view w : words) {
    if (w == s) return i;
    ++i;
  }
  return -1;
}

}  // namespace shmpi::client
