// Decoding a fuzzer's bytes into structured choices: every read is bounded and an
// exhausted input reads as zeros, so any byte string is a valid (if short) program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace shmpi::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  bool empty() const { return pos_ >= n_; }
  std::size_t left() const { return n_ - pos_; }

  std::uint8_t u8() { return pos_ < n_ ? p_[pos_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(u16()) | (static_cast<std::uint32_t>(u16()) << 16); }
  std::uint64_t u64() { return static_cast<std::uint64_t>(u32()) | (static_cast<std::uint64_t>(u32()) << 32); }
  bool flag() { return (u8() & 1) != 0; }
  // Uniform-ish in [lo, hi] (inclusive); lo <= hi.
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    const std::uint64_t v = span <= 256 ? u8() : span <= 65536 ? u16() : u32();
    return lo + static_cast<std::int64_t>(v % span);
  }
  // Copies up to n bytes (zero-filled past the end).
  void bytes(void* out, std::size_t n) {
    if (n == 0) return;
    const std::size_t k = n < left() ? n : left();
    if (k != 0) std::memcpy(out, p_ + pos_, k);
    std::memset(static_cast<std::uint8_t*>(out) + k, 0, n - k);
    pos_ += k;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

// An invariant broke: print it and abort, so libFuzzer (and the replay test) reports
// the input as a crash.
[[noreturn]] inline void fail(const char* file, int line, const char* what) {
  std::fprintf(stderr, "fuzz invariant failed at %s:%d: %s\n", file, line, what);
  std::fflush(stderr);
  std::abort();
}

}  // namespace shmpi::fuzz

#define FUZZ_CHECK(cond)                                                  \
  do {                                                                    \
    if (!(cond)) ::shmpi::fuzz::fail(__FILE__, __LINE__, #cond);          \
  } while (0)
#define FUZZ_CHECK_MSG(cond, msg)                                         \
  do {                                                                    \
    if (!(cond)) ::shmpi::fuzz::fail(__FILE__, __LINE__, msg);            \
  } while (0)
