// Per-element CPU atomics (libclient/src/rma/elem_atomic.hpp):
// (1) every valid (op, element) pair, single-threaded: the fetched old value is the target's
//     previous bits and the new target is the scalar reference (tests/ops/reference.hpp) and
//     every ISA's reduction kernel on one element, bit for bit, on random values seeded with
//     NaN, +-0, +-inf, denormals and integer extremes; with and without a result buffer;
// (2) concurrency: threads (and processes sharing a MAP_SHARED page) hammering one element:
//     exact totals, unique tickets, no torn 8/16-byte values;
// (3) the table's shape: nullptr exactly for invalid or non-atomic pairs, CAS only for the
//     standard's types, atomic_aligned false for every misaligned address.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "../ops/reference.hpp"
#include "ops/elem_types.hpp"
#include "ops/op_table.hpp"
#include "rma/elem_atomic.hpp"

using namespace shmpi::ops;
using shmpi::rma::atomic_aligned;
using shmpi::rma::atomic_capable;
using shmpi::rma::atomic_fn;
using shmpi::rma::AtomicFn;
using shmpi::rma::cas_fn;
using shmpi::rma::CasFn;

namespace {

#if defined(__SANITIZE_THREAD__)
constexpr int kIters = 16384;  // per thread (4x: a multiple of 256 for the int8 counter)
#else
constexpr int kIters = 200000;
#endif
constexpr int kThreads = 4;

using Rng = std::mt19937_64;

// doctest prints a const char* as a pointer: names go through std::string.
template <class X>
std::string nm(X x) {
  return name(x);
}

template <Elem E>
constexpr bool holds_long_double() {
  return E == Elem::f80 || E == Elem::c80 || E == Elem::long_double_int;
}

// ---- random values ------------------------------------------------------------------

template <class T>
T gen_scalar(Rng& rng, bool ties) {
  const int p = static_cast<int>(rng() % 100);
  if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    const T specials[] = {T(0), -T(0), T(1), T(-1), L::infinity(), -L::infinity(),
                          L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(), -L::denorm_min(),
                          L::max(), L::lowest(), L::min(), T(0.5)};
    if (p < 30) return specials[rng() % std::size(specials)];
    if (ties) return T(static_cast<int>(rng() % 7) - 3);
    return T(std::uniform_real_distribution<double>(-1e3, 1e3)(rng));
  } else {
    using L = std::numeric_limits<T>;
    const T specials[] = {L::min(), L::max(), T(0), T(1), static_cast<T>(-1),
                          static_cast<T>(L::max() - 1), static_cast<T>(L::min() + 1)};
    if (p < 30) return specials[rng() % std::size(specials)];
    if (ties || p < 45) return static_cast<T>(static_cast<int>(rng() % 7) - 3);
    const std::uint64_t bits = rng();
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

// Pairs get random padding bytes: the atomics must not depend on them.
template <Elem E>
ElemType<E> gen(Rng& rng) {
  using T = ElemType<E>;
  T v;
  for (std::size_t i = 0; i < sizeof v; ++i) reinterpret_cast<unsigned char*>(&v)[i] = static_cast<unsigned char>(rng());
  if constexpr (E == Elem::c_bool) {
    const unsigned char pick[] = {0, 1, 0, 1, 0, 1, 2, 255};  // C bool is 0/1; odd bytes too
    v = pick[rng() % 8];
  } else if constexpr (ElemInfo<E>::family == Family::complex) {
    v.re = gen_scalar<decltype(v.re)>(rng, false);
    v.im = gen_scalar<decltype(v.im)>(rng, false);
  } else if constexpr (ElemInfo<E>::family == Family::pair) {
    v.value = gen_scalar<decltype(v.value)>(rng, true);
    v.index = static_cast<decltype(v.index)>(rng() % 4);
  } else {
    v = gen_scalar<T>(rng, false);
  }
  return v;
}

template <class T>
bool same_scalar(const T& x, const T& y, bool any_nan) {
  if constexpr (std::is_floating_point_v<T>) {
    if (any_nan && std::isnan(x) && std::isnan(y)) return true;
  }
  return std::memcmp(&x, &y, sizeof x) == 0;
}

// The element's value bytes equal (pairs: value and index, not the padding). Selections
// (MAX/MIN/LOC/REPLACE/NO_OP, logical and bitwise ops) and integer arithmetic must give the
// exact bits; floating SUM/PROD may give any NaN where the reference gives one, as in
// tests/ops: which operand's payload and sign a NaN result carries depends on the operand
// order the compiler picks (complex SUM/PROD differ so even between the kernels' ISAs).
template <Elem E>
bool same(const ElemType<E>& x, const ElemType<E>& y, bool any_nan = false) {
  if constexpr (ElemInfo<E>::family == Family::pair)
    return std::memcmp(&x.value, &y.value, sizeof x.value) == 0 &&
           std::memcmp(&x.index, &y.index, sizeof x.index) == 0;
  else if constexpr (ElemInfo<E>::family == Family::complex)
    return same_scalar(x.re, y.re, any_nan) && same_scalar(x.im, y.im, any_nan);
  else
    return same_scalar(x, y, any_nan);
}

template <Elem E>
std::string show(const ElemType<E>& x) {
  using T = ElemType<E>;
  char buf[160];
  if constexpr (ElemInfo<E>::family == Family::complex)
    std::snprintf(buf, sizeof buf, "(%a, %a)", double(x.re), double(x.im));
  else if constexpr (ElemInfo<E>::family == Family::pair)
    std::snprintf(buf, sizeof buf, "{%a, %lld}", double(x.value), static_cast<long long>(x.index));
  else if constexpr (std::is_floating_point_v<T>)
    std::snprintf(buf, sizeof buf, "%a", double(x));
  else
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(x));
  return buf;
}

// A 64-byte aligned slot for one target element.
struct alignas(64) Slot {
  unsigned char bytes[64];
};

// ---- (1) every valid pair against the reference ---------------------------------------

std::size_t g_pairs_checked = 0;

template <OpKind O, Elem E>
void check_values(AtomicFn f, Rng& rng) {
  using T = ElemType<E>;
  const std::string what = std::string(name(O)) + " " + name(E);
  CAPTURE(what);
  constexpr bool pair = ElemInfo<E>::family == Family::pair;
  constexpr bool arithmetic = O == OpKind::sum || O == OpKind::prod;
  int failures = 0;
  for (int it = 0; it < 4000 && failures < 5; ++it) {
    const T a = gen<E>(rng), b = gen<E>(rng);
    const T want = ref::apply<O, T>(a, b);
    Slot slot{};
    T* target = reinterpret_cast<T*>(slot.bytes);
    const int mode = it % 3;  // 0: result buffer, 1: no result, 2: result aliasing origin
    T origin = a, result;
    std::memset(&result, 0x5a, sizeof result);
    std::memcpy(target, &b, sizeof b);
    if (mode == 0) f(&origin, target, &result);
    else if (mode == 1) f(&origin, target, nullptr);
    else f(&origin, target, &origin);
    T got;
    std::memcpy(&got, target, sizeof got);
    bool ok = same<E>(got, want, arithmetic);
    if (mode == 0) ok = ok && std::memcmp(&result, &b, sizeof b) == 0 && std::memcmp(&origin, &a, sizeof a) == 0;
    if (mode == 2) ok = ok && std::memcmp(&origin, &b, sizeof b) == 0;
    // A pair is copied whole: the new bytes are all the origin's or all the old target's.
    if constexpr (pair) ok = ok && (std::memcmp(&got, &a, sizeof a) == 0 || std::memcmp(&got, &b, sizeof b) == 0);
    // The rest of the slot is untouched.
    for (std::size_t i = sizeof(T); i < sizeof slot.bytes; ++i) ok = ok && slot.bytes[i] == 0;
    // Every ISA's kernel on one element gives the same bits.
    for (std::size_t i = 0; i < kIsaCount; ++i) {
      const auto isa = static_cast<Isa>(i);
      if (!isa_available(isa)) continue;
      T k = b;
      kernel_for(isa, O, E)(&a, &k, 1);
      if (!same<E>(k, got, arithmetic)) {
        ok = false;
        FAIL_CHECK(what << ": kernel " << nm(isa) << " gave " << show<E>(k));
      }
    }
    if (!ok) {
      ++failures;
      FAIL_CHECK(what << " mode " << mode << ": " << show<E>(a) << " op " << show<E>(b) << " gave "
                      << show<E>(got) << " (result " << show<E>(result) << "), want " << show<E>(want));
    }
  }
}

template <std::size_t O, std::size_t E>
void check_pair(Rng& rng) {
  constexpr auto op = static_cast<OpKind>(O);
  constexpr auto el = static_cast<Elem>(E);
  const AtomicFn f = atomic_fn(op, el);
  const bool want = op_valid(op, el, strict_types()) && atomic_capable(el);
  CHECK_MESSAGE((f != nullptr) == want, nm(op) << " " << nm(el));
  if (f == nullptr) return;
  constexpr bool loc = op == OpKind::minloc || op == OpKind::maxloc;
  constexpr bool any = op == OpKind::replace || op == OpKind::no_op;
  constexpr bool pair = ElemInfo<el>::family == Family::pair;
  if constexpr (!holds_long_double<el>() && (any || loc == pair)) {
    check_values<op, el>(f, rng);
    ++g_pairs_checked;
  }
}

template <std::size_t O, std::size_t... E>
void check_row(Rng& rng, std::index_sequence<E...>) {
  (check_pair<O, E>(rng), ...);
}

template <std::size_t... O>
void check_all(Rng& rng, std::index_sequence<O...>) {
  (check_row<O>(rng, std::make_index_sequence<kElemCount>{}), ...);
}

template <std::size_t... E>
std::size_t size_of(Elem e, std::index_sequence<E...>) {
  const std::size_t sizes[] = {sizeof(ElemType<static_cast<Elem>(E)>)...};
  return sizes[static_cast<std::size_t>(e)];
}
std::size_t size_of(Elem e) { return size_of(e, std::make_index_sequence<kElemCount>{}); }

bool have16() { return atomic_capable(Elem::c64); }

}  // namespace

TEST_CASE("elem_atomic: every valid (op, element) pair matches the reference and the kernels") {
  Rng rng(20260611);
  check_all(rng, std::make_index_sequence<kOpCount>{});
  std::size_t want = 0;
  for (std::size_t o = 0; o < kOpCount; ++o)
    for (std::size_t e = 0; e < kElemCount; ++e)
      want += op_valid(static_cast<OpKind>(o), static_cast<Elem>(e), strict_types()) &&
              atomic_capable(static_cast<Elem>(e));
  CHECK(g_pairs_checked == want);
  std::printf("elem_atomic: %zu (op, element) pairs checked%s\n", g_pairs_checked,
              strict_types() ? " (strict types)" : "");
}

TEST_CASE("elem_atomic: hand-picked values") {
  SUBCASE("integer SUM wraps, old value returned") {
    std::int8_t t = 127, one = 1, old = 0;
    atomic_fn(OpKind::sum, Elem::i8)(&one, &t, &old);
    CHECK(old == 127);
    CHECK(t == -128);
    alignas(8) std::uint64_t u = ~0ull, two = 2, uold = 0;
    atomic_fn(OpKind::sum, Elem::u64)(&two, &u, &uold);
    CHECK(uold == ~0ull);
    CHECK(u == 1);
  }
  SUBCASE("floating MAX/MIN: maximumNumber/minimumNumber") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double t = nan, a = 1.0, old = 0;
    atomic_fn(OpKind::max, Elem::f64)(&a, &t, &old);
    CHECK(std::isnan(old));
    CHECK(t == 1.0);
    t = 2.0;
    a = nan;
    atomic_fn(OpKind::min, Elem::f64)(&a, &t, &old);
    CHECK(t == 2.0);
    t = -0.0;
    a = 0.0;
    atomic_fn(OpKind::max, Elem::f64)(&a, &t, nullptr);
    CHECK_FALSE(std::signbit(t));
    t = 0.0;
    a = -0.0;
    atomic_fn(OpKind::min, Elem::f64)(&a, &t, nullptr);
    CHECK(std::signbit(t));
  }
  SUBCASE("logical ops give 0/1, BAND/BOR/BXOR with and without result") {
    alignas(4) std::int32_t t = 7, a = 5, old = 0;
    atomic_fn(OpKind::land, Elem::i32)(&a, &t, &old);
    CHECK(old == 7);
    CHECK(t == 1);
    t = 0b1100;
    a = 0b1010;
    atomic_fn(OpKind::band, Elem::i32)(&a, &t, &old);
    CHECK(old == 0b1100);
    CHECK(t == 0b1000);
    atomic_fn(OpKind::bor, Elem::i32)(&a, &t, nullptr);
    CHECK(t == 0b1010);
    atomic_fn(OpKind::bxor, Elem::i32)(&a, &t, nullptr);
    CHECK(t == 0);
  }
  SUBCASE("REPLACE and NO_OP on a 16-byte element") {
    if (!have16()) return;
    alignas(16) Complex<double> t{1.5, -2.5};
    const Complex<double> a{3.0, 4.0};
    Complex<double> old{};
    atomic_fn(OpKind::no_op, Elem::c64)(nullptr, &t, &old);  // NO_OP does not read the origin
    CHECK(old.re == 1.5);
    CHECK(old.im == -2.5);
    CHECK(t.re == 1.5);
    atomic_fn(OpKind::replace, Elem::c64)(&a, &t, &old);
    CHECK(old.re == 1.5);
    CHECK(t.re == 3.0);
    CHECK(t.im == 4.0);
  }
  SUBCASE("MAXLOC ties go to the smaller index") {
    if (!have16()) return;
    alignas(16) DoubleInt t{1.0, 3};
    DoubleInt a{1.0, 2}, old{};
    atomic_fn(OpKind::maxloc, Elem::double_int)(&a, &t, &old);
    CHECK(old.index == 3);
    CHECK(t.index == 2);
    a = {1.0, 5};
    atomic_fn(OpKind::maxloc, Elem::double_int)(&a, &t, &old);
    CHECK(t.index == 2);
    a = {std::numeric_limits<double>::quiet_NaN(), 0};
    atomic_fn(OpKind::maxloc, Elem::double_int)(&a, &t, &old);
    CHECK(t.value == 1.0);  // a NaN value loses to any number
  }
}

TEST_CASE("elem_atomic: compare-and-swap, bitwise, for every allowed element") {
  Rng rng(7);
  auto run = [&](auto tag) {
    constexpr Elem E = decltype(tag)::value;
    using T = ElemType<E>;
    const CasFn f = cas_fn(E);
    REQUIRE((f != nullptr));
    for (int it = 0; it < 2000; ++it) {
      const T a = gen<E>(rng), b = gen<E>(rng);
      const T c = (it % 2) ? b : gen<E>(rng);
      Slot slot{};
      T* target = reinterpret_cast<T*>(slot.bytes);
      std::memcpy(target, &b, sizeof b);
      T result;
      if (it % 4 == 3) {  // result aliasing compare
        T cr = c;
        f(&a, &cr, target, &cr);
        result = cr;
      } else {
        f(&a, &c, target, &result);
      }
      const bool match = std::memcmp(&b, &c, sizeof b) == 0;
      CHECK(std::memcmp(&result, &b, sizeof b) == 0);
      CHECK(std::memcmp(target, match ? &a : &b, sizeof(T)) == 0);
    }
  };
  run(std::integral_constant<Elem, Elem::i8>{});
  run(std::integral_constant<Elem, Elem::u8>{});
  run(std::integral_constant<Elem, Elem::i16>{});
  run(std::integral_constant<Elem, Elem::u16>{});
  run(std::integral_constant<Elem, Elem::i32>{});
  run(std::integral_constant<Elem, Elem::u32>{});
  run(std::integral_constant<Elem, Elem::i64>{});
  run(std::integral_constant<Elem, Elem::u64>{});
  run(std::integral_constant<Elem, Elem::c_bool>{});
  run(std::integral_constant<Elem, Elem::byte>{});
  if (!strict_types()) run(std::integral_constant<Elem, Elem::c_char>{});
}

// ---- (3) table shape and alignment ---------------------------------------------------

TEST_CASE("elem_atomic: capability, invalid pairs, CAS types, alignment") {
  const bool cx16 = have16();
  for (std::size_t ei = 0; ei < kElemCount; ++ei) {
    const auto e = static_cast<Elem>(ei);
    const std::string elem_name = nm(e);
    CAPTURE(elem_name);
    const std::size_t n = size_of(e);
    const bool long_double = e == Elem::f80 || e == Elem::c80 || e == Elem::long_double_int;
    const bool capable = !long_double && (n <= 8 || (n == 16 && cx16));
    CHECK(atomic_capable(e) == capable);
    for (std::size_t oi = 0; oi < kOpCount; ++oi) {
      const auto op = static_cast<OpKind>(oi);
      const std::string op_name = nm(op);
      CAPTURE(op_name);
      const bool valid = op_valid(op, e, strict_types()) && capable;
      CHECK((atomic_fn(op, e) != nullptr) == valid);
    }
    const Family fam[] = {Family::integer, Family::integer, Family::integer, Family::integer,
                          Family::integer, Family::integer, Family::integer, Family::integer,
                          Family::integer, Family::floating, Family::floating, Family::floating,
                          Family::logical, Family::complex, Family::complex, Family::complex,
                          Family::byte, Family::pair, Family::pair, Family::pair, Family::pair,
                          Family::pair, Family::pair, Family::pair, Family::pair, Family::pair};
    const bool cas_ok = (fam[ei] == Family::integer || fam[ei] == Family::logical || fam[ei] == Family::byte) &&
                        !(e == Elem::c_char && strict_types());
    CHECK((cas_fn(e) != nullptr) == cas_ok);

    Slot slot{};
    for (std::size_t off = 0; off < 48; ++off) {
      const bool want = capable && off % n == 0;
      CHECK_MESSAGE(atomic_aligned(e, slot.bytes + off) == want, "offset " << off);
    }
  }
  // Out-of-range enumerators are refused, not looked up.
  CHECK((atomic_fn(static_cast<OpKind>(kOpCount), Elem::i32) == nullptr));
  CHECK((atomic_fn(OpKind::sum, static_cast<Elem>(kElemCount)) == nullptr));
  CHECK((cas_fn(static_cast<Elem>(kElemCount)) == nullptr));
  CHECK_FALSE(atomic_capable(static_cast<Elem>(kElemCount)));
  // The word is the element's size, stricter than the C alignment of the pair types.
  static_assert(alignof(TwoInt) == 4 && alignof(DoubleInt) == 8);
  alignas(16) unsigned char buf[64];
  CHECK_FALSE(atomic_aligned(Elem::two_int, buf + 4));
  CHECK_FALSE(atomic_aligned(Elem::c32, buf + 4));
  CHECK_FALSE(atomic_aligned(Elem::double_int, buf + 8));
  CHECK(atomic_aligned(Elem::i8, buf + 3));
}

// ---- (2) concurrency ------------------------------------------------------------------

namespace {

// kThreads threads running fn(thread index), released together so that they overlap.
template <class Fn>
void run_threads(Fn fn) {
  std::atomic<int> ready{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      fn(t);
    });
  for (auto& t : ts) t.join();
}

// Fetch-and-add of 1 from every thread: the fetched values are the tickets 0..total-1,
// each once (modulo 2^bits: each residue equally often).
template <Elem E>
void ticket_counter() {
  using T = ElemType<E>;
  const std::string elem_name = nm(E);
  CAPTURE(elem_name);
  const AtomicFn f = atomic_fn(OpKind::sum, E);
  REQUIRE((f != nullptr));
  Slot slot{};
  T* target = reinterpret_cast<T*>(slot.bytes);
  std::vector<std::vector<T>> tickets(kThreads, std::vector<T>(kIters));
  run_threads([&](int t) {
    const T one = T(1);
    for (int i = 0; i < kIters; ++i) f(&one, target, &tickets[t][i]);
  });
  const std::uint64_t total = std::uint64_t(kThreads) * kIters;
  T final_value;
  std::memcpy(&final_value, target, sizeof final_value);
  if constexpr (std::is_floating_point_v<T>) {
    CHECK(final_value == T(total));
  } else {
    CHECK(final_value == static_cast<T>(total));  // modulo 2^bits
  }
  // Tickets as non-negative residues modulo min(2^bits, total).
  const std::uint64_t mod = sizeof(T) >= 4 || std::is_floating_point_v<T> ? total : (std::uint64_t(1) << (8 * sizeof(T)));
  std::vector<std::uint32_t> seen(mod, 0);
  bool in_range = true;
  for (const auto& v : tickets)
    for (T x : v) {
      std::uint64_t k;
      if constexpr (std::is_floating_point_v<T>) k = static_cast<std::uint64_t>(x);
      else k = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(x)) % mod;
      if (k >= mod) in_range = false;
      else ++seen[k];
    }
  CHECK(in_range);
  const std::uint64_t each = total / mod;
  CHECK(std::all_of(seen.begin(), seen.end(), [&](std::uint32_t c) { return c == each; }));
  // Each thread's tickets increase (wrap aside): the counter only moves forward.
  if constexpr (sizeof(T) >= 4) {
    for (const auto& v : tickets) CHECK(std::is_sorted(v.begin(), v.end()));
  }
}

// CAS increment: read, then CAS old -> old+1 until it succeeds.
template <Elem E>
void cas_counter() {
  using T = ElemType<E>;
  const std::string elem_name = nm(E);
  CAPTURE(elem_name);
  const CasFn cas = cas_fn(E);
  const AtomicFn read = atomic_fn(OpKind::no_op, E);
  REQUIRE((cas != nullptr));
  Slot slot{};
  T* target = reinterpret_cast<T*>(slot.bytes);
  std::vector<std::uint64_t> retries(kThreads, 0);
  run_threads([&](int t) {
    T seen;
    read(nullptr, target, &seen);  // NO_OP does not read the origin
    for (int i = 0; i < kIters; ++i) {
      for (;;) {
        const T next = static_cast<T>(seen + 1);
        // Now and then give the CPU away between read and CAS, so that threads sharing a
        // core interleave there too (the loaded machine may run them one after another).
        if (i % 512 == 0) std::this_thread::yield();
        T old;
        cas(&next, &seen, target, &old);
        if (old == seen) {
          seen = next;
          break;
        }
        seen = old;
        ++retries[t];
      }
    }
  });
  T final_value;
  std::memcpy(&final_value, target, sizeof final_value);
  CHECK(final_value == static_cast<T>(std::uint64_t(kThreads) * kIters));
  std::uint64_t r = 0;
  for (auto x : retries) r += x;
  MESSAGE(elem_name << " CAS counter: " << r << " failed CAS retries");
}

}  // namespace

TEST_CASE("elem_atomic: concurrent fetch-and-op SUM counters give exact totals and unique tickets") {
  ticket_counter<Elem::i64>();
  ticket_counter<Elem::u32>();
  ticket_counter<Elem::i8>();
  ticket_counter<Elem::f64>();  // CAS loop; integer-valued, so exact
  ticket_counter<Elem::f32>();
}

TEST_CASE("elem_atomic: concurrent CAS increment loops are exact") {
  cas_counter<Elem::i64>();
  cas_counter<Elem::u16>();  // wraps modulo 2^16
  cas_counter<Elem::i32>();
}

TEST_CASE("elem_atomic: concurrent MAX/MIN give the extreme") {
  Slot s1{}, s2{}, s3{};
  auto* imax = reinterpret_cast<std::int64_t*>(s1.bytes);
  auto* dmax = reinterpret_cast<double*>(s2.bytes);
  auto* fmin = reinterpret_cast<float*>(s3.bytes);
  *imax = std::numeric_limits<std::int64_t>::min();
  *dmax = -std::numeric_limits<double>::infinity();
  *fmin = std::numeric_limits<float>::quiet_NaN();  // missing data: the first number wins
  const AtomicFn fi = atomic_fn(OpKind::max, Elem::i64), fd = atomic_fn(OpKind::max, Elem::f64),
                 ff = atomic_fn(OpKind::min, Elem::f32);
  std::vector<std::int64_t> best_i(kThreads, std::numeric_limits<std::int64_t>::min());
  std::vector<double> best_d(kThreads, -std::numeric_limits<double>::infinity());
  std::vector<float> best_f(kThreads, std::numeric_limits<float>::infinity());
  std::vector<int> nonmonotone(kThreads, 0);
  run_threads([&](int t) {
    Rng rng(100 + t);
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (int i = 0; i < kIters; ++i) {
      const std::int64_t v = static_cast<std::int64_t>(rng());
      std::int64_t old;
      fi(&v, imax, &old);
      if (old < last) ++nonmonotone[t];
      last = std::max(old, v);
      best_i[t] = std::max(best_i[t], v);
      const double d = std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
      fd(&d, dmax, nullptr);
      best_d[t] = std::max(best_d[t], d);
      const float g = (i % 17 == 0) ? std::numeric_limits<float>::quiet_NaN()
                                    : std::uniform_real_distribution<float>(-1e6f, 1e6f)(rng);
      ff(&g, fmin, nullptr);
      if (!std::isnan(g)) best_f[t] = std::min(best_f[t], g);
    }
  });
  CHECK(*imax == *std::max_element(best_i.begin(), best_i.end()));
  CHECK(*dmax == *std::max_element(best_d.begin(), best_d.end()));
  CHECK(*fmin == *std::min_element(best_f.begin(), best_f.end()));
  for (int n : nonmonotone) CHECK(n == 0);
}

TEST_CASE("elem_atomic: 8- and 16-byte elements under contention are never torn") {
  SUBCASE("Complex<float> SUM (8-byte CAS on a 4-aligned type)") {
    Slot slot{};
    auto* t = reinterpret_cast<Complex<float>*>(slot.bytes);
    const AtomicFn f = atomic_fn(OpKind::sum, Elem::c32);
    std::vector<int> torn(kThreads, 0);
    run_threads([&](int th) {
      const Complex<float> inc{1.0f, 2.0f};
      Complex<float> old;
      for (int i = 0; i < kIters / 2; ++i) {  // float is exact up to 2^24
        f(&inc, t, &old);
        if (old.im != 2 * old.re) ++torn[th];
      }
    });
    CHECK(t->re == float(kThreads * (kIters / 2)));
    CHECK(t->im == float(2 * kThreads * (kIters / 2)));
    for (int n : torn) CHECK(n == 0);
  }
  if (!have16()) {
    MESSAGE("no cmpxchg16b: 16-byte cases skipped");
    return;
  }
  SUBCASE("Complex<double> SUM: exact, unique tickets, im == 2 re in every fetched value") {
    Slot slot{};
    auto* t = reinterpret_cast<Complex<double>*>(slot.bytes);
    const AtomicFn f = atomic_fn(OpKind::sum, Elem::c64);
    const AtomicFn rd = atomic_fn(OpKind::no_op, Elem::c64);
    std::vector<std::vector<double>> tickets(kThreads);
    std::vector<int> torn(kThreads, 0);
    run_threads([&](int th) {
      const Complex<double> inc{1.0, 2.0};
      Complex<double> old;
      for (int i = 0; i < kIters; ++i) {
        if (th == kThreads - 1 && i % 2) {  // one thread also reads with NO_OP
          rd(&inc, t, &old);
          if (old.im != 2 * old.re) ++torn[th];
          continue;
        }
        f(&inc, t, &old);
        if (old.im != 2 * old.re) ++torn[th];
        tickets[th].push_back(old.re);
      }
    });
    std::vector<double> all;
    for (auto& v : tickets) all.insert(all.end(), v.begin(), v.end());
    std::sort(all.begin(), all.end());
    const std::size_t n = all.size();
    CHECK(t->re == double(n));
    CHECK(t->im == double(2 * n));
    bool unique = true;
    for (std::size_t i = 0; i < n; ++i) unique = unique && all[i] == double(i);
    CHECK(unique);
    for (int x : torn) CHECK(x == 0);
  }
  SUBCASE("DoubleInt MAXLOC: the sequential answer, fetched values only rise") {
    Slot slot{};
    auto* t = reinterpret_cast<DoubleInt*>(slot.bytes);
    *t = {-std::numeric_limits<double>::infinity(), 1 << 30};
    const AtomicFn f = atomic_fn(OpKind::maxloc, Elem::double_int);
    std::vector<DoubleInt> best(kThreads, *t);
    std::vector<int> bad(kThreads, 0);
    run_threads([&](int th) {
      Rng rng(500 + th);
      DoubleInt last = best[th];
      for (int i = 0; i < kIters; ++i) {
        // Values from a small range (many ties, decided by index); value == index % 64
        // in every element, so a torn fetch shows.
        const int idx = static_cast<int>(rng() % 100000) * 64 + static_cast<int>(i % 50);
        const DoubleInt v{double(idx % 64), idx};
        DoubleInt old;
        f(&v, t, &old);
        const bool consistent = old.index == (1 << 30) || double(old.index % 64) == old.value;
        // MAXLOC order: old must be at least the last value this thread saw.
        const DoubleInt m = ref::apply<OpKind::maxloc>(old, last);
        if (!consistent || m.value != old.value || m.index != old.index) ++bad[th];
        last = ref::apply<OpKind::maxloc>(v, old);
        best[th] = ref::apply<OpKind::maxloc>(v, best[th]);
      }
    });
    DoubleInt want = best[0];
    for (const auto& b : best) want = ref::apply<OpKind::maxloc>(b, want);
    CHECK(t->value == want.value);
    CHECK(t->index == want.index);
    for (int x : bad) CHECK(x == 0);
  }
  SUBCASE("TwoDoublePrecision REPLACE vs NO_OP readers: whole pairs only") {
    Slot slot{};
    auto* t = reinterpret_cast<TwoDoublePrecision*>(slot.bytes);
    const AtomicFn wr = atomic_fn(OpKind::replace, Elem::two_double_precision);
    const AtomicFn rd = atomic_fn(OpKind::no_op, Elem::two_double_precision);
    std::vector<int> torn(kThreads, 0);
    run_threads([&](int th) {
      TwoDoublePrecision old;
      for (int i = 0; i < kIters; ++i) {
        const double x = double(th * kIters + i);
        const TwoDoublePrecision v{x, -x};
        if (th % 2) wr(&v, t, &old);
        else rd(&v, t, &old);
        if (old.index != -old.value) ++torn[th];
      }
    });
    for (int x : torn) CHECK(x == 0);
  }
}

#if !defined(__SANITIZE_THREAD__)
TEST_CASE("elem_atomic: processes sharing a MAP_SHARED page") {
  void* mem = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mem != MAP_FAILED);
  auto* counter = static_cast<std::int64_t*>(mem);
  auto* fcounter = reinterpret_cast<double*>(static_cast<char*>(mem) + 64);
  auto* c64 = reinterpret_cast<Complex<double>*>(static_cast<char*>(mem) + 128);
  const AtomicFn add = atomic_fn(OpKind::sum, Elem::i64);
  const AtomicFn fadd = atomic_fn(OpKind::sum, Elem::f64);
  const AtomicFn cadd = have16() ? atomic_fn(OpKind::sum, Elem::c64) : nullptr;
  constexpr int kProcs = 3;
  std::vector<pid_t> kids;
  for (int p = 0; p < kProcs; ++p) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const std::int64_t one = 1;
      const double fone = 1.0;
      const Complex<double> inc{1.0, 2.0};
      for (int i = 0; i < kIters; ++i) {
        add(&one, counter, nullptr);
        fadd(&fone, fcounter, nullptr);
        if (cadd) cadd(&inc, c64, nullptr);
      }
      _exit(0);
    }
    kids.push_back(pid);
  }
  for (pid_t k : kids) {
    int status = 0;
    waitpid(k, &status, 0);
    CHECK(WIFEXITED(status));
  }
  CHECK(*counter == std::int64_t(kProcs) * kIters);
  CHECK(*fcounter == double(kProcs) * kIters);
  if (cadd) {
    CHECK(c64->re == double(kProcs) * kIters);
    CHECK(c64->im == 2.0 * kProcs * kIters);
  }
  munmap(mem, 4096);
}
#endif
