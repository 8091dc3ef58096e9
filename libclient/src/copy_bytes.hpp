// copy_bytes: memcpy for the data path's bulk copies (ring and staging <-> user buffers,
// windows, packed messages).
//
// glibc (2.36, Debian 12) copies from 4 KiB up with `rep movsb`. On the AMD EPYC VMs
// this project is measured on, `rep movsb` runs 10-15x slower (1 MiB: 380-600 against
// 33-45 us) when the destination lies 1-31 bytes past the source modulo 4 KiB: the CPU
// takes the page offsets for an overlap. That is the common case here: ring chunks and
// staging slots start on page or cache-line boundaries, and malloc() returns large
// buffers 16 bytes past a page, so draining a ring into a malloc'd buffer hit it (a
// 2-rank 1 MiB MPI_Alltoall on streams: 1040 against 145 us into a page-aligned
// buffer; docs/collectives.md "Copies into user buffers"). Those distances take a
// plain 16-byte vector loop, which runs at memcpy's speed there. Intel's `rep movsb`
// has no such case (a Xeon VM, 1 MiB in 64 KiB chunks at distance 16: 38 against 36
// us/MiB at 0), and there the loop ran up to 15 % slower than memcpy in 32-64 KiB
// copies (level in 4 KiB ones): it is taken on AMD CPUs only. Every other copy is memcpy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace shmpi::client {

// Below this glibc does not use `rep movsb` (its threshold is 2-8 KiB by vector size).
inline constexpr std::size_t kCopyAliasMin = 2048;
// Distances (destination - source, modulo 4 KiB) taken by the vector loop: 1-31 measured
// slow, 32-63 within 10 % of memcpy; the loop costs nothing there either.
inline constexpr std::uintptr_t kCopyAliasSpan = 64;

inline bool copy_aliases(const void* dst, const void* src, std::size_t n) {
  const std::uintptr_t d = (reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src)) & 4095;
  return n >= kCopyAliasMin && d != 0 && d < kCopyAliasSpan;
}

// The CPU's `rep movsb` is slow at those distances: AMD's (Zen 3 and later set FSRM,
// and glibc then uses it for unaligned copies too). Asked once (CPUID), on the first
// copy that could alias.
inline bool rep_movsb_aliases() {
#if defined(__x86_64__)
  static const bool amd = [] {
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") != 0;
  }();
  return amd;
#else
  return false;
#endif
}

// The vector loop copy_bytes takes instead of memcpy where `rep movsb` is slow.
inline void copy_vector(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  std::size_t i = 0;
#if defined(__x86_64__)
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), a);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
  }
#endif
  if (i < n) std::memcpy(d + i, s + i, n - i);  // < 64 bytes on x86: no rep movsb
}

inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  if (copy_aliases(dst, src, n) && rep_movsb_aliases()) {
    copy_vector(dst, src, n);
    return;
  }
  std::memcpy(dst, src, n);
}

}  // namespace shmpi::client
