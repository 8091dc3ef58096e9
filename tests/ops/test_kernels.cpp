// Every valid (op, element) kernel of every ISA this CPU runs, against the scalar reference
// (reference.hpp): lengths 0-257 and two large ones, in/inout misaligned against the
// vector width and against each other, floats seeded with NaN/+-inf/+-0/denormals, small
// integers with their extremes (overflow), pairs with ties. Bytes outside [0, count) of
// inout must stay untouched, and `in` must not change at all. The three-operand kernel
// (Kernel3) of each pair is held to the same, writing into a third buffer.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ops/elem_types.hpp"
#include "ops/op_table.hpp"
#include "reference.hpp"

using namespace shmpi::ops;

namespace {

using Rng = std::mt19937_64;

// Significant bytes of a value (x87 long double: 10 of 16; the rest is padding).
template <class T>
constexpr std::size_t value_bytes() {
  if constexpr (std::is_same_v<T, long double>) return 10;
  else return sizeof(T);
}

template <class T>
T gen_scalar(Rng& rng, bool ties) {
  std::uniform_int_distribution<int> pick(0, 99);
  const int p = pick(rng);
  if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    const T specials[] = {T(0), -T(0), T(1), T(-1), L::infinity(), -L::infinity(),
                          L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(), -L::denorm_min(),
                          L::max(), L::lowest(), L::min(), T(0.5)};
    if (p < 15) return specials[std::uniform_int_distribution<std::size_t>(0, std::size(specials) - 1)(rng)];
    if (ties) return T(std::uniform_int_distribution<int>(-3, 3)(rng));
    return T(std::uniform_real_distribution<double>(-1e3, 1e3)(rng));
  } else {
    using L = std::numeric_limits<T>;
    const T specials[] = {L::min(), L::max(), T(0), T(1), static_cast<T>(-1),
                          static_cast<T>(L::max() - 1), static_cast<T>(L::min() + 1)};
    if (p < 20) return specials[std::uniform_int_distribution<std::size_t>(0, std::size(specials) - 1)(rng)];
    if (ties) return static_cast<T>(std::uniform_int_distribution<int>(-3, 3)(rng));
    std::uint64_t bits = rng();
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

template <Elem E>
ElemType<E> gen(Rng& rng) {
  using T = ElemType<E>;
  if constexpr (E == Elem::c_bool) {
    return static_cast<T>(rng() & 1);
  } else if constexpr (ElemInfo<E>::family == Family::complex) {
    T c{};  // zeroes long double padding
    c.re = gen_scalar<decltype(c.re)>(rng, false);
    c.im = gen_scalar<decltype(c.im)>(rng, false);
    return c;
  } else if constexpr (ElemInfo<E>::family == Family::pair) {
    T pr;
    std::memset(&pr, 0, sizeof pr);
    pr.value = gen_scalar<decltype(pr.value)>(rng, true);
    pr.index = static_cast<decltype(pr.index)>(std::uniform_int_distribution<int>(0, 3)(rng));
    return pr;
  } else {
    T v{};
    v = gen_scalar<T>(rng, false);
    return v;
  }
}

template <class T>
bool same_scalar(const T& x, const T& y, bool any_nan) {
  if constexpr (std::is_floating_point_v<T>) {
    if (any_nan && std::isnan(x) && std::isnan(y)) return true;
  }
  return std::memcmp(&x, &y, value_bytes<T>()) == 0;
}

// Selections (MIN/MAX/LOC/REPLACE) must pick the exact bits; arithmetic may produce any
// NaN where the reference produces one (payload choice between two NaN operands).
template <Elem E>
bool same(const ElemType<E>& x, const ElemType<E>& y, bool any_nan) {
  if constexpr (ElemInfo<E>::family == Family::complex)
    return same_scalar(x.re, y.re, any_nan) && same_scalar(x.im, y.im, any_nan);
  else if constexpr (ElemInfo<E>::family == Family::pair)
    return same_scalar(x.value, y.value, false) && same_scalar(x.index, y.index, false);
  else
    return same_scalar(x, y, any_nan);
}

template <Elem E>
std::string show(const ElemType<E>& x) {
  using T = ElemType<E>;
  char buf[128];
  if constexpr (ElemInfo<E>::family == Family::complex)
    std::snprintf(buf, sizeof buf, "(%Lg, %Lg)", static_cast<long double>(x.re), static_cast<long double>(x.im));
  else if constexpr (ElemInfo<E>::family == Family::pair)
    std::snprintf(buf, sizeof buf, "{%Lg, %Lg}", static_cast<long double>(x.value), static_cast<long double>(x.index));
  else if constexpr (std::is_floating_point_v<T>)
    std::snprintf(buf, sizeof buf, "%La", static_cast<long double>(x));
  else
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(x));
  return buf;
}

constexpr unsigned char kGuard = 0xA5;
constexpr std::size_t kGuardBytes = 128;

// A buffer of `count` elements starting `shift` elements past a 64-byte boundary, with
// guard bytes on both sides.
struct Placed {
  std::vector<unsigned char> storage;
  unsigned char* data = nullptr;
  std::size_t bytes = 0;
  Placed(std::size_t count, std::size_t elem_size, std::size_t align, std::size_t shift) {
    bytes = count * elem_size;
    storage.assign(bytes + 2 * kGuardBytes + 128, kGuard);
    auto base = reinterpret_cast<std::uintptr_t>(storage.data()) + kGuardBytes;
    base = (base + 63) & ~std::uintptr_t{63};
    data = reinterpret_cast<unsigned char*>(base + shift * align);
  }
  bool guards_intact() const {
    for (const unsigned char* p = storage.data(); p < data; ++p)
      if (*p != kGuard) return false;
    for (const unsigned char* p = data + bytes; p < storage.data() + storage.size(); ++p)
      if (*p != kGuard) return false;
    return true;
  }
};

// One instantiation per element kind (not per pair: keeps the sanitizer build's compile
// time reasonable); the op comes in as its reference function.
template <Elem E>
void check_lengths(Isa isa, OpKind O, Kernel k, Kernel3 k3, ElemType<E> (*reference)(ElemType<E>, ElemType<E>),
                   Rng& rng) {
  using T = ElemType<E>;
  const bool arithmetic = O == OpKind::sum || O == OpKind::prod;
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 257; ++n) lengths.push_back(n);
  lengths.push_back(4099);
  lengths.push_back(65536 + 37);
  // The avx512 build switches to 256-bit loops at kWideLimitBytes: cross it, with a tail.
  const std::size_t wide = kWideLimitBytes / sizeof(T) + 37;
  if (isa == Isa::avx512) lengths.push_back(wide);
  const std::pair<std::size_t, std::size_t> shifts[] = {{0, 0}, {1, 0}, {0, 3}, {3, 1}};

  std::vector<T> a_src(isa == Isa::avx512 ? wide + 64 : 65536 + 64), b_src(a_src.size());
  // Random values for the first 65600; the wide length repeats them (generating millions
  // per pair would dominate the test's time).
  for (std::size_t i = 0; i < a_src.size(); ++i) a_src[i] = i < 65600 ? gen<E>(rng) : a_src[i % 65600];
  for (std::size_t i = 0; i < b_src.size(); ++i) b_src[i] = i < 65600 ? gen<E>(rng) : b_src[i % 65600];

  std::size_t failures = 0;
  for (std::size_t n : lengths) {
    for (auto [sa, sb] : shifts) {
      if (n > 257 && sa == 1) continue;  // large lengths: two placements are enough
      if (n > 65536 + 37 && !(sa == 0 && sb == 3)) continue;  // the wide one: one misaligned placement
      const std::size_t from = n > 0 ? rng() % (a_src.size() - n + 1) : 0;
      Placed in(n, sizeof(T), alignof(T), sa), inout(n, sizeof(T), alignof(T), sb);
      if (n) std::memcpy(in.data, &a_src[from], n * sizeof(T));
      if (n) std::memcpy(inout.data, &b_src[from], n * sizeof(T));
      const std::vector<unsigned char> in_before(in.storage);

      k(in.data, inout.data, n);

      CHECK(in.storage == in_before);
      CHECK(inout.guards_intact());
      // The three-operand form into a third buffer (placed like neither input) must give
      // the same elements, leaving both inputs and the bytes around `out` alone.
      Placed b3(n, sizeof(T), alignof(T), sb), out3(n, sizeof(T), alignof(T), (sa + sb + 2) % 4);
      if (k3 != nullptr) {
        if (n) std::memcpy(b3.data, &b_src[from], n * sizeof(T));
        const std::vector<unsigned char> b3_before(b3.storage);
        k3(in.data, b3.data, out3.data, n);
        CHECK(in.storage == in_before);
        CHECK(b3.storage == b3_before);
        CHECK(out3.guards_intact());
      }
      for (std::size_t i = 0; i < n && failures < 5; ++i) {
        // The wide length runs one uniform loop: its ends in full, the middle sampled.
        if (n > 65536 + 37 && i >= 4096 && i + 4096 < n && i % 97 != 0) continue;
        T a, b, got;
        std::memcpy(&a, in.data + i * sizeof(T), sizeof(T));
        std::memcpy(&b, &b_src[from + i], sizeof(T));
        std::memcpy(&got, inout.data + i * sizeof(T), sizeof(T));
        const T want = reference(a, b);
        if (!same<E>(got, want, arithmetic)) {
          ++failures;
          const std::string what = std::string(name(isa)) + " " + name(O) + " " + name(E);
          FAIL_CHECK(what << " n=" << n << " shift=("
                     << sa << "," << sb << ") i=" << i << ": " << show<E>(a) << " op "
                     << show<E>(b) << " gave " << show<E>(got) << ", want " << show<E>(want));
        }
        if (k3 == nullptr) continue;
        std::memcpy(&got, out3.data + i * sizeof(T), sizeof(T));
        if (!same<E>(got, want, arithmetic)) {
          ++failures;
          const std::string what = std::string(name(isa)) + " " + name(O) + " " + name(E) + " (3-operand)";
          FAIL_CHECK(what << " n=" << n << " shift=(" << sa << "," << sb << ") i=" << i << ": " << show<E>(a)
                     << " op " << show<E>(b) << " gave " << show<E>(got) << ", want " << show<E>(want));
        }
      }
    }
  }
}

std::vector<std::string> g_checked;  // "op/elem" pairs run, for the summary check

template <std::size_t O, std::size_t E>
void check_pair(Rng& rng) {
  constexpr auto op = static_cast<OpKind>(O);
  constexpr auto el = static_cast<Elem>(E);
  if (!op_valid(op, el, strict_types())) return;
  for (std::size_t i = 0; i < kIsaCount; ++i) {
    const auto isa = static_cast<Isa>(i);
    if (!isa_available(isa)) continue;
    const Kernel k = kernel_for(isa, op, el);
    REQUIRE((k != nullptr));
    // Every reduction op has the three-operand form; REPLACE and NO_OP (RMA only) none.
    const Kernel3 k3 = kernel3_for(isa, op, el);
    CHECK(((k3 == nullptr) == (op == OpKind::replace || op == OpKind::no_op)));
    // (the constexpr guard only avoids instantiating references for invalid pairs)
    constexpr bool loc = op == OpKind::minloc || op == OpKind::maxloc;
    constexpr bool any = op == OpKind::replace || op == OpKind::no_op;
    constexpr bool pair = ElemInfo<el>::family == Family::pair;
    if constexpr (any || loc == pair) check_lengths<el>(isa, op, k, k3, &ref::apply<op, ElemType<el>>, rng);
  }
  g_checked.push_back(std::string(name(op)) + "/" + name(el));
}

template <std::size_t O, std::size_t... E>
void check_row(Rng& rng, std::index_sequence<E...>) {
  (check_pair<O, E>(rng), ...);
}

template <std::size_t... O>
void check_all(Rng& rng, std::index_sequence<O...>) {
  (check_row<O>(rng, std::make_index_sequence<kElemCount>{}), ...);
}

}  // namespace

TEST_CASE("ops: every valid (op, element) kernel of every available ISA matches the reference") {
  std::printf("ops: active ISA %s; kernel variants tested:", active_isa_name());
  for (std::size_t i = 0; i < kIsaCount; ++i)
    if (isa_available(static_cast<Isa>(i))) std::printf(" %s", kIsaNames[i]);
  std::printf("\n");
  Rng rng(20261123);
  check_all(rng, std::make_index_sequence<kOpCount>{});
  std::size_t valid = 0;
  for (std::size_t o = 0; o < kOpCount; ++o)
    for (std::size_t e = 0; e < kElemCount; ++e)
      valid += op_valid(static_cast<OpKind>(o), static_cast<Elem>(e), strict_types());
  CHECK(g_checked.size() == valid);
  std::printf("ops: %zu valid (op, element) pairs checked\n", g_checked.size());
}

namespace {

// The same fixed inputs through every ISA at a length that puts element i both in the
// vector body (i < 64) and in the scalar tail (i >= 64 of 67).
template <class T>
std::vector<T> run_all_isas(OpKind op, Elem e, const std::vector<T>& a, const std::vector<T>& b,
                            Isa isa) {
  std::vector<T> out = b;
  kernel_for(isa, op, e)(a.data(), out.data(), out.size());
  return out;
}

template <class T>
std::vector<T> tiled(std::initializer_list<T> pattern, std::size_t n) {
  std::vector<T> v;
  while (v.size() < n) for (T x : pattern) if (v.size() < n) v.push_back(x);
  return v;
}

}  // namespace

TEST_CASE("ops: integer SUM/PROD wrap in the vector body as in the tail") {
  for (std::size_t i = 0; i < kIsaCount; ++i) {
    const auto isa = static_cast<Isa>(i);
    if (!isa_available(isa)) continue;
    const std::string isa_name = name(isa);
    CAPTURE(isa_name);
    const auto s8 = run_all_isas<std::int8_t>(OpKind::sum, Elem::i8, std::vector<std::int8_t>(131, 127),
                                              std::vector<std::int8_t>(131, 1), isa);
    for (auto v : s8) CHECK(v == -128);
    const auto u16 = run_all_isas<std::uint16_t>(OpKind::prod, Elem::u16, std::vector<std::uint16_t>(67, 65535),
                                                 std::vector<std::uint16_t>(67, 65535), isa);
    for (auto v : u16) CHECK(v == 1);
    const auto i16 = run_all_isas<std::int16_t>(OpKind::prod, Elem::i16, std::vector<std::int16_t>(67, -32768),
                                                std::vector<std::int16_t>(67, -1), isa);
    for (auto v : i16) CHECK(v == -32768);
    const auto i32 = run_all_isas<std::int32_t>(OpKind::sum, Elem::i32, std::vector<std::int32_t>(67, INT32_MAX),
                                                std::vector<std::int32_t>(67, INT32_MAX), isa);
    for (auto v : i32) CHECK(v == -2);
    const auto i64 = run_all_isas<std::int64_t>(OpKind::prod, Elem::i64, std::vector<std::int64_t>(67, INT64_MIN),
                                                std::vector<std::int64_t>(67, -1), isa);
    for (auto v : i64) CHECK(v == INT64_MIN);
  }
}

TEST_CASE("ops: floating MIN/MAX on NaN, inf and signed zeros, vector and tail alike") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // (in, inout) -> MAX, MIN
  struct Row { double a, b, max, min; };
  const Row rows[] = {
      {1, 2, 2, 1}, {2, 1, 2, 1}, {nan, 1, 1, 1}, {1, nan, 1, 1},  // NaN is missing data
      {-inf, inf, inf, -inf}, {inf, nan, inf, inf}, {nan, -inf, -inf, -inf},
      {0.0, -0.0, 0.0, -0.0},  // -0 < +0 in either order
      {-0.0, 0.0, 0.0, -0.0}, {-0.0, -0.0, -0.0, -0.0},
  };
  for (std::size_t i = 0; i < kIsaCount; ++i) {
    const auto isa = static_cast<Isa>(i);
    if (!isa_available(isa)) continue;
    const std::string isa_name = name(isa);
    CAPTURE(isa_name);
    for (const Row& r : rows) {
      const std::size_t n = 67;
      const auto mx = run_all_isas<double>(OpKind::max, Elem::f64, std::vector<double>(n, r.a), std::vector<double>(n, r.b), isa);
      const auto mn = run_all_isas<double>(OpKind::min, Elem::f64, std::vector<double>(n, r.a), std::vector<double>(n, r.b), isa);
      const auto mxf = run_all_isas<float>(OpKind::max, Elem::f32, std::vector<float>(n, float(r.a)), std::vector<float>(n, float(r.b)), isa);
      for (std::size_t k = 0; k < n; ++k) {
        CAPTURE(r.a);
        CAPTURE(r.b);
        CHECK(std::memcmp(&mx[k], &r.max, sizeof(double)) == 0);
        CHECK(std::memcmp(&mn[k], &r.min, sizeof(double)) == 0);
        const float want = float(r.max);
        CHECK(std::memcmp(&mxf[k], &want, sizeof(float)) == 0);
      }
    }
    // Two different NaNs: `in`'s.
    const double nan2 = -nan;
    const auto mx = run_all_isas<double>(OpKind::max, Elem::f64, std::vector<double>(67, nan2), std::vector<double>(67, nan), isa);
    for (double v : mx) CHECK(std::signbit(v));
  }
}

TEST_CASE("ops: MINLOC/MAXLOC ties go to the smaller index") {
  for (std::size_t i = 0; i < kIsaCount; ++i) {
    const auto isa = static_cast<Isa>(i);
    if (!isa_available(isa)) continue;
    const std::string isa_name = name(isa);
    CAPTURE(isa_name);
    const auto in = tiled<DoubleInt>({{1.0, 5}, {1.0, 2}, {3.0, 9}, {0.5, 7}}, 67);
    const auto io = tiled<DoubleInt>({{1.0, 3}, {1.0, 3}, {2.0, 1}, {0.5, 7}}, 67);
    const auto mx = run_all_isas<DoubleInt>(OpKind::maxloc, Elem::double_int, in, io, isa);
    const auto mn = run_all_isas<DoubleInt>(OpKind::minloc, Elem::double_int, in, io, isa);
    const int want_max_idx[] = {3, 2, 9, 7};
    const int want_min_idx[] = {3, 2, 1, 7};
    for (std::size_t k = 0; k < 67; ++k) {
      CHECK(mx[k].index == want_max_idx[k % 4]);
      CHECK(mn[k].index == want_min_idx[k % 4]);
    }
  }
}

namespace {

// Elements of small values (ties among the pairs' values), the same bits twice: 16-byte
// aligned, and 8 bytes past that; every kernel and three-operand kernel of e.
template <Elem e>
void check_at_8_mod_16(Isa isa) {
  using T = ElemType<e>;
  constexpr std::size_t n = 5, sz = sizeof(T);
  static_assert(alignof(T) == 16, "an over-aligned element type");
  static_assert(std::numeric_limits<long double>::digits == 64, "x87 extended: 10 value bytes of 16");
  for (std::size_t o = 0; o < kOpCount; ++o) {
    const auto op = static_cast<OpKind>(o);
    const Kernel k = kernel_for(isa, op, e);
    if (k == nullptr || op == OpKind::no_op || op == OpKind::replace) continue;
    const std::string what = std::string(name(isa)) + " " + name(op) + " " + name(e);
    CAPTURE(what);
    alignas(16) std::byte a[n * sz + 8] = {}, b[n * sz + 8] = {}, ra[n * sz] = {}, rb[n * sz + 8] = {},
                          out[n * sz + 8] = {};
    alignas(16) T ta[n] = {}, tb[n] = {};
    for (std::size_t j = 0; j < n; ++j) {
      const long double va = static_cast<long double>(j % 3) + 0.5L, vb = static_cast<long double>(j % 2) + 0.5L;
      if constexpr (e == Elem::long_double_int) {
        ta[j].value = va, ta[j].index = static_cast<int>(j) + 1;
        tb[j].value = vb, tb[j].index = static_cast<int>(j);
      } else if constexpr (e == Elem::c80) {
        ta[j].re = va, ta[j].im = vb;
        tb[j].re = vb, tb[j].im = va;
      } else {
        ta[j] = va, tb[j] = vb;
      }
    }
    std::memcpy(a, ta, sizeof ta);
    std::memcpy(b, tb, sizeof tb);
    // The value bytes of each element: an x87 long double's 10 of 16 (the other 6 are
    // padding, written with whatever a copy holds), a pair's index.
    const auto same = [&](const std::byte* x, const std::byte* y) {
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t at = j * sz;
        if (std::memcmp(x + at, y + at, 10) != 0) return false;
        if (sz == 32 && std::memcmp(x + at + 16, y + at + 16, e == Elem::c80 ? 10 : 4) != 0) return false;
      }
      return true;
    };
    std::memcpy(ra, b, n * sz);
    k(a, ra, n);  // aligned: ra = a op b
    std::memmove(a + 8, a, n * sz);
    std::memcpy(rb + 8, b, n * sz);
    k(a + 8, rb + 8, n);
    CHECK(same(ra, rb + 8));
    if (const Kernel3 k3 = kernel3_for(isa, op, e)) {
      std::memcpy(rb + 8, b, n * sz);
      k3(a + 8, rb + 8, out + 8, n);
      CHECK(same(ra, out + 8));
    }
  }
}

}  // namespace

TEST_CASE("ops: over-aligned elements at 8 mod 16 give the bits they give aligned") {
  // A staged input inline in a collective's descriptor starts at 8 mod 16, and MPI puts
  // no alignment rule on buffers: long double, its complex and its pair with an int
  // (16-byte aligned types) are combined wherever they lie (kernels.cpp load/store;
  // under UBSan a misaligned access fails this test).
  for (std::size_t i = 0; i < kIsaCount; ++i) {
    const auto isa = static_cast<Isa>(i);
    if (!isa_available(isa)) continue;
    check_at_8_mod_16<Elem::f80>(isa);
    check_at_8_mod_16<Elem::c80>(isa);
    check_at_8_mod_16<Elem::long_double_int>(isa);
  }
}
