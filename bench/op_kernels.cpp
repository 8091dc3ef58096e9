// Throughput of the op engine's reduction kernels (libclient/src/ops) against a plain
// `a[i] += b[i]` loop compiled in this file with -O3 -march=native, in the same run.
//
//   build/bench/op_kernels [rounds]        (default 7)
//
// Cases: MPI_SUM on double, float, int32, int64 and MPI_MAX on double (its reference is
// the plain double add loop: same memory traffic), each at 4 KiB, 256 KiB, 8 MiB and
// 64 MiB per buffer. Buffers are pre-faulted before timing; every iteration alternates
// between two different `in` buffers and inout accumulates, so the data changes from one
// iteration to the next. Rounds interleave the plain loop and each available ISA's
// kernel; GB/s counts 3 x buffer bytes per call (read in, read inout, write inout) and is
// the median over rounds; "ratio" is kernel / plain loop from the medians, "best" from the
// fastest round of each (interference on a shared machine only ever slows a round down).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ops/op_table.hpp"

using namespace shmpi::ops;

namespace {

template <class T>
[[gnu::noinline]] void plain_add(const void* in, void* inout, std::size_t n) {
  const T* __restrict b = static_cast<const T*>(in);
  T* __restrict a = static_cast<T*>(inout);
  for (std::size_t i = 0; i < n; ++i) a[i] += b[i];
}

struct Case {
  const char* label;
  OpKind op;
  Elem elem;
  std::size_t elem_size;
  Kernel plain;
  void (*fill)(void* p, std::size_t n, unsigned seed);
};

// Small values (0..3): the plain int loops add in signed arithmetic and must not overflow.
template <class T>
void fill(void* p, std::size_t n, unsigned seed) {
  T* t = static_cast<T*>(p);
  std::uint32_t x = seed * 2654435761u + 1;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    t[i] = static_cast<T>((x >> 28) & 3);
  }
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds per call of k over `bytes`-sized buffers, alternating the two inputs.
double time_per_call(Kernel k, void* in0, void* in1, void* inout, std::size_t n, std::size_t bytes) {
  const std::size_t target = std::size_t{768} << 20;  // ~0.75 GiB of buffer per measurement
  const std::size_t iters = std::max<std::size_t>(4, target / bytes);
  k(in0, inout, n);  // warm (caches, branch predictors)
  const double t0 = seconds_now();
  for (std::size_t it = 0; it < iters; ++it) k((it & 1) ? in1 : in0, inout, n);
  return (seconds_now() - t0) / static_cast<double>(iters);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  if (rounds < 1 || rounds > 101) {
    std::fprintf(stderr, "usage: %s [rounds 1..101]\n", argv[0]);
    return 2;
  }
  const Case cases[] = {
      {"SUM double", OpKind::sum, Elem::f64, 8, &plain_add<double>, &fill<double>},
      {"SUM float", OpKind::sum, Elem::f32, 4, &plain_add<float>, &fill<float>},
      {"SUM int32", OpKind::sum, Elem::i32, 4, &plain_add<std::int32_t>, &fill<std::int32_t>},
      {"SUM int64", OpKind::sum, Elem::i64, 8, &plain_add<std::int64_t>, &fill<std::int64_t>},
      {"MAX double", OpKind::max, Elem::f64, 8, &plain_add<double>, &fill<double>},
  };
  const std::size_t sizes[] = {4u << 10, 256u << 10, 8u << 20, 64u << 20};
  const std::size_t max_bytes = 64u << 20;

  unsigned char* buf[3];
  for (auto& b : buf) {
    b = static_cast<unsigned char*>(std::aligned_alloc(4096, max_bytes));
    if (!b) { std::perror("aligned_alloc"); return 1; }
    std::memset(b, 0, max_bytes);  // pre-fault every page before any timing
  }

  std::vector<Isa> isas;
  for (std::size_t i = kIsaCount; i-- > 0;)
    if (isa_available(static_cast<Isa>(i))) isas.push_back(static_cast<Isa>(i));

  std::printf("op kernels vs plain a[i] += b[i] (-O3 -march=native); active ISA %s; %d rounds, median\n",
              active_isa_name(), rounds);
  std::printf("%-11s %8s %10s", "case", "size", "plain GB/s");
  for (Isa isa : isas) std::printf(" | %8s GB/s ratio  best", name(isa));
  std::printf("\n");

  for (const Case& c : cases) {
    for (std::size_t bytes : sizes) {
      const std::size_t n = bytes / c.elem_size;
      c.fill(buf[0], n, 1);
      c.fill(buf[1], n, 2);
      c.fill(buf[2], n, 3);
      std::vector<double> plain_t;
      std::vector<std::vector<double>> isa_t(isas.size());
      for (int r = 0; r < rounds; ++r) {
        plain_t.push_back(time_per_call(c.plain, buf[0], buf[1], buf[2], n, bytes));
        for (std::size_t i = 0; i < isas.size(); ++i)
          isa_t[i].push_back(time_per_call(kernel_for(isas[i], c.op, c.elem), buf[0], buf[1], buf[2], n, bytes));
      }
      const double gb = 3.0 * static_cast<double>(bytes) / 1e9;
      const double plain_gbs = gb / median(plain_t);
      const double plain_best = gb / *std::min_element(plain_t.begin(), plain_t.end());
      std::printf("%-11s %5zu %s %10.1f", c.label, bytes >= (1u << 20) ? bytes >> 20 : bytes >> 10,
                  bytes >= (1u << 20) ? "MiB" : "KiB", plain_gbs);
      for (std::size_t i = 0; i < isas.size(); ++i) {
        const double k_gbs = gb / median(isa_t[i]);
        const double k_best = gb / *std::min_element(isa_t[i].begin(), isa_t[i].end());
        std::printf(" | %13.1f %5.2f %5.2f", k_gbs, k_gbs / plain_gbs, k_best / plain_best);
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  for (auto& b : buf) std::free(b);
  return 0;
}
