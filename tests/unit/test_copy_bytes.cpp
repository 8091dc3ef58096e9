// copy_bytes (libclient/src/copy_bytes.hpp), and its vector loop alone (which it takes on
// AMD CPUs only): every size around its thresholds, at every destination - source
// distance it treats apart (1-63 modulo 4 KiB) and a few it leaves to memcpy, copies
// exactly the bytes asked for and writes nothing around them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "copy_bytes.hpp"

using shmpi::client::copy_aliases;
using shmpi::client::copy_bytes;
using shmpi::client::copy_vector;

TEST_CASE("copy_bytes copies exactly n bytes at every distance and size") {
  const std::size_t sizes[] = {0, 1, 63, 64, 65, 2047, 2048, 2049, 4096 + 17, 65536 + 5};
  constexpr std::size_t kMax = 65536 + 5, kPad = 64;
  std::vector<unsigned char> src(kMax + 4096 + 2 * kPad), dst(kMax + 3 * 4096 + 2 * kPad);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  const auto* s = src.data() + kPad;
  // dst - src modulo 4 KiB, set by where in dst the copy lands
  const auto base = reinterpret_cast<std::uintptr_t>(s);
  int aliased = 0;
  for (std::uintptr_t dist : {0u, 1u, 8u, 16u, 31u, 32u, 48u, 63u, 64u, 100u, 4080u}) {
    const std::uintptr_t at0 = reinterpret_cast<std::uintptr_t>(dst.data()) + kPad;
    const std::uintptr_t at = at0 + ((base + dist - at0) & 4095);
    auto* d = reinterpret_cast<unsigned char*>(at);
    for (std::size_t n : sizes) {
      aliased += copy_aliases(d, s, n) ? 1 : 0;
      CHECK(((reinterpret_cast<std::uintptr_t>(d) - base) & 4095) == dist);
      for (auto copy : {&copy_bytes, &copy_vector}) {
        std::fill(dst.begin(), dst.end(), 0xA5);
        copy(d, s, n);
        bool same = true;
        for (std::size_t i = 0; i < n; ++i) same = same && d[i] == s[i];
        CHECK_MESSAGE(same, "distance ", dist, ", ", n, " bytes", copy == &copy_vector ? " (vector loop)" : "");
        CHECK(d[-1] == 0xA5);
        CHECK(d[n] == 0xA5);
      }
    }
  }
  // distances 1-63 from 2 KiB up may alias (the vector loop on AMD): 7 distances x 4 sizes
  CHECK(aliased == 28);
}
