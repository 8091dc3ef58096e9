// The (op, element) → atomic function table, built from op_functors.hpp like the kernel
// table in ops/kernels.cpp (its functors have internal linkage, so this file gets its own
// copies). Compiled into its own static library (libclient/meson.build) with -mcx16, which
// makes GCC inline __sync_val_compare_and_swap on 16 bytes as lock cmpxchg16b instead of
// calling libatomic, and -ffp-contract=off so no build fuses the complex product into an
// FMA that the kernels do not use.
#include "rma/elem_atomic.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__x86_64__)
#include <cpuid.h>
#include <emmintrin.h>
#endif

#include "ops/elem_types.hpp"
#include "ops/op_functors.hpp"
#include "ops/op_table.hpp"

#if defined(__x86_64__) && !defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
#error "elem_atomic.cpp needs -mcx16 on x86-64 (see libclient/meson.build)"
#endif

namespace shmpi::rma {

using ops::Elem;
using ops::ElemInfo;
using ops::ElemType;
using ops::Family;
using ops::OpKind;

namespace {

// ---- the atomic word of each element -------------------------------------------------

template <class T> struct HoldsLongDouble : std::is_same<T, long double> {};
template <class T> struct HoldsLongDouble<ops::Complex<T>> : HoldsLongDouble<T> {};
template <class V, class I> struct HoldsLongDouble<ops::ValueIndex<V, I>> : HoldsLongDouble<V> {};

#if defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
using U128 = unsigned __int128;
[[maybe_unused]] inline constexpr bool kHave16 = true;  // read only off x86-64
#else
using U128 = void;
[[maybe_unused]] inline constexpr bool kHave16 = false;
#endif

template <std::size_t N> struct WordOf { using type = void; };
template <> struct WordOf<1> { using type = std::uint8_t; };
template <> struct WordOf<2> { using type = std::uint16_t; };
template <> struct WordOf<4> { using type = std::uint32_t; };
template <> struct WordOf<8> { using type = std::uint64_t; };
template <> struct WordOf<16> { using type = U128; };
template <Elem E> using Word = typename WordOf<sizeof(ElemType<E>)>::type;

// Compile-time capability; 16 bytes also needs the CPU check in atomic_capable().
template <Elem E>
inline constexpr bool kCapable = !HoldsLongDouble<ElemType<E>>::value && !std::is_void_v<Word<E>>;

template <Elem E> inline constexpr bool kWide = sizeof(ElemType<E>) == 16;

bool cpu_has_cx16() {
#if defined(__x86_64__)
  static const bool has = [] {
    // CPUID.01H:ECX bit 13 (CX16); clang's __builtin_cpu_supports does not know "cmpxchg16b".
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_CMPXCHG16B) != 0;
  }();
  return has;
#else
  return kHave16;
#endif
}

// ---- word operations -------------------------------------------------------------------
// 1-8 bytes: __atomic builtins (mov, xchg, lock xadd/add/and/or/xor, lock cmpxchg).
// 16 bytes: __sync_val_compare_and_swap, inlined as lock cmpxchg16b under -mcx16.

constexpr int kSeq = __ATOMIC_SEQ_CST;

template <class W>
W atomic_read(W* p) {
  if constexpr (sizeof(W) == 16) return __sync_val_compare_and_swap(p, W{0}, W{0});
  else return __atomic_load_n(p, kSeq);
}

// A starting guess for a CAS loop. 16 bytes: one plain 16-byte load, which may tear on a
// CPU that does not make it atomic (the CAS then fails and returns the true value). In asm,
// so that the compiler can neither split it nor load again for the CAS's comparand; it is
// an SSE load because two 8-byte loads, combined on the stack into the 16-byte value the
// functor reads, cost a store-forwarding stall (elem_atomic_bench, complex<double> SUM
// uncontended on an AMD EPYC: 119-201 ns a call with them, 27-33 ns with this). Under TSan,
// which cannot see into asm, two relaxed 8-byte atomic loads instead.
template <class W>
W first_guess(W* p) {
  if constexpr (sizeof(W) == 16) {
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
    __m128i x;
    asm volatile("movdqa %1, %0" : "=x"(x) : "m"(*reinterpret_cast<const __m128i*>(p)));
    W w;
    std::memcpy(&w, &x, sizeof w);
    return w;
#else
    auto* h = reinterpret_cast<std::uint64_t*>(p);
    const std::uint64_t lo = __atomic_load_n(h, __ATOMIC_RELAXED);
    const std::uint64_t hi = __atomic_load_n(h + 1, __ATOMIC_RELAXED);
    return (W{hi} << 64) | W{lo};
#endif
  } else {
    return __atomic_load_n(p, kSeq);
  }
}

// One compare-exchange; on failure `expected` becomes the value found.
template <class W>
bool cas_word(W* p, W& expected, W desired) {
  if constexpr (sizeof(W) == 16) {
    const W found = __sync_val_compare_and_swap(p, expected, desired);
    const bool ok = found == expected;
    expected = found;
    return ok;
  } else {
    return __atomic_compare_exchange_n(p, &expected, desired, false, kSeq, kSeq);
  }
}

template <class W, class T>
W to_word(const T& v) {
  static_assert(sizeof(W) == sizeof(T));
  W w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}

template <class T, class W>
T from_word(W w) {
  static_assert(sizeof(W) == sizeof(T));
  T v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}

// ---- which instruction each (op, element) gets ----------------------------------------

enum class Strategy { load, exchange, fetch_add, fetch_bitwise, cas_loop };

template <class Op, Elem E>
constexpr Strategy strategy() {
  constexpr Family f = ElemInfo<E>::family;
  constexpr bool wide = kWide<E>;
  if constexpr (std::is_same_v<Op, ops::NoOp>) return Strategy::load;
  else if constexpr (std::is_same_v<Op, ops::Replace>) return wide ? Strategy::cas_loop : Strategy::exchange;
  else if constexpr (std::is_same_v<Op, ops::Sum> && f == Family::integer) return Strategy::fetch_add;
  else if constexpr ((std::is_same_v<Op, ops::Band> || std::is_same_v<Op, ops::Bor> ||
                      std::is_same_v<Op, ops::Bxor>) && (f == Family::integer || f == Family::byte))
    return Strategy::fetch_bitwise;
  else return Strategy::cas_loop;
}

// The new bits for old bits `b` and origin bits `a`: the functor on the element values.
// MINLOC/MAXLOC pick one operand whole, so the winner's bytes are taken as they are
// (padding included) rather than the functor's copy, whose padding is unspecified; a
// target that wins is left bit for bit as it was, which the CAS loop then does not write.
template <class Op, Elem E, class W>
W compute(W a, W b) {
  using T = ElemType<E>;
  const T av = from_word<T>(a), bv = from_word<T>(b);
  const T r = Op::apply(av, bv);
  if constexpr (ElemInfo<E>::family == Family::pair) {
    const bool b_won = std::memcmp(&r.value, &bv.value, sizeof r.value) == 0 &&
                       std::memcmp(&r.index, &bv.index, sizeof r.index) == 0;
    return b_won ? b : a;
  } else {
    return to_word<W>(r);
  }
}

template <class Op, Elem E>
void atomic_op(const void* origin, void* target, void* result) {
  using W = Word<E>;
  W* const t = static_cast<W*>(target);
  constexpr Strategy s = strategy<Op, E>();
  W a{};
  if constexpr (s != Strategy::load) std::memcpy(&a, origin, sizeof a);  // NO_OP: not read
  W old;
  if constexpr (s == Strategy::load) {
    old = atomic_read(t);
  } else if constexpr (s == Strategy::exchange) {
    old = __atomic_exchange_n(t, a, kSeq);
  } else if constexpr (s == Strategy::fetch_add) {
    if (result == nullptr) {
      __atomic_add_fetch(t, a, kSeq);  // lock add
      return;
    }
    old = __atomic_fetch_add(t, a, kSeq);  // lock xadd
  } else if constexpr (s == Strategy::fetch_bitwise) {
    // Unused results make GCC emit lock and/or/xor; a used one, a lock cmpxchg loop.
    if (result == nullptr) {
      if constexpr (std::is_same_v<Op, ops::Band>) __atomic_and_fetch(t, a, kSeq);
      else if constexpr (std::is_same_v<Op, ops::Bor>) __atomic_or_fetch(t, a, kSeq);
      else __atomic_xor_fetch(t, a, kSeq);
      return;
    }
    if constexpr (std::is_same_v<Op, ops::Band>) old = __atomic_fetch_and(t, a, kSeq);
    else if constexpr (std::is_same_v<Op, ops::Bor>) old = __atomic_fetch_or(t, a, kSeq);
    else old = __atomic_fetch_xor(t, a, kSeq);
  } else {
    old = first_guess(t);
    for (;;) {
      W desired;
      if constexpr (std::is_same_v<Op, ops::Replace>) desired = a;
      else desired = compute<Op, E>(a, old);
      // Up to 8 bytes `old` came from an atomic load (or a failed CAS): if the op leaves it
      // as it is, that load is the operation. (A 16-byte guess may be torn: always CAS.)
      if constexpr (!kWide<E>) {
        if (desired == old) break;
      }
      if (cas_word(t, old, desired)) break;
    }
  }
  if (result != nullptr) std::memcpy(result, &old, sizeof old);
}

template <Elem E>
void cas_op(const void* origin, const void* compare, void* target, void* result) {
  using W = Word<E>;
  W desired, expected;
  std::memcpy(&desired, origin, sizeof desired);
  std::memcpy(&expected, compare, sizeof expected);
  cas_word(static_cast<W*>(target), expected, desired);  // expected := the old value
  if (result != nullptr) std::memcpy(result, &expected, sizeof expected);
}

// ---- the tables ----------------------------------------------------------------------

// In OpKind order, as in kernels.cpp.
using Functors = std::tuple<ops::Max, ops::Min, ops::Sum, ops::Prod, ops::Land, ops::Band,
                            ops::Lor, ops::Bor, ops::Lxor, ops::Bxor, ops::Minloc, ops::Maxloc,
                            ops::Replace, ops::NoOp>;
static_assert(std::tuple_size_v<Functors> == ops::kOpCount);

struct Tables {
  AtomicFn atomic[ops::kOpCount][ops::kElemCount];
  CasFn cas[ops::kElemCount];
};

template <std::size_t O, std::size_t E>
constexpr AtomicFn atomic_entry() {
  constexpr auto e = static_cast<Elem>(E);
  using F = std::tuple_element_t<O, Functors>;
  if constexpr (!kCapable<e>) return nullptr;
  else if constexpr (F::template applies<ElemInfo<e>::family>) return &atomic_op<F, e>;
  else return nullptr;
}

template <std::size_t E>
constexpr CasFn cas_entry() {
  constexpr auto e = static_cast<Elem>(E);
  constexpr Family f = ElemInfo<e>::family;
  if constexpr (kCapable<e> && (f == Family::integer || f == Family::logical || f == Family::byte))
    return &cas_op<e>;
  else return nullptr;
}

template <std::size_t O, std::size_t... E>
constexpr void fill_row(Tables& t, std::index_sequence<E...>) {
  ((t.atomic[O][E] = atomic_entry<O, E>()), ...);
}

template <std::size_t... O, std::size_t... E>
constexpr Tables make_tables(std::index_sequence<O...>, std::index_sequence<E...> elems) {
  Tables t{};
  (fill_row<O>(t, elems), ...);
  ((t.cas[E] = cas_entry<E>()), ...);
  return t;
}

constexpr Tables kTables = make_tables(std::make_index_sequence<ops::kOpCount>{},
                                       std::make_index_sequence<ops::kElemCount>{});

template <std::size_t... E>
constexpr std::size_t size_of(Elem e, std::index_sequence<E...>) {
  constexpr std::size_t sizes[] = {(kCapable<static_cast<Elem>(E)> ? sizeof(ElemType<static_cast<Elem>(E)>) : 0)...};
  return sizes[static_cast<std::size_t>(e)];
}

// The atomic word's size, 0 where there is none (16 bytes without cmpxchg16b included).
std::size_t word_size(Elem e) {
  if (static_cast<std::size_t>(e) >= ops::kElemCount) return 0;
  const std::size_t n = size_of(e, std::make_index_sequence<ops::kElemCount>{});
  if (n == 16 && !cpu_has_cx16()) return 0;
  return n;
}

}  // namespace

bool atomic_capable(Elem elem) { return word_size(elem) != 0; }

bool atomic_aligned(Elem elem, const void* target) {
  const std::size_t n = word_size(elem);
  return n != 0 && reinterpret_cast<std::uintptr_t>(target) % n == 0;
}

AtomicFn atomic_fn(OpKind op, Elem elem) {
  if (static_cast<std::size_t>(op) >= ops::kOpCount || !atomic_capable(elem)) return nullptr;
  if (!ops::op_valid(op, elem, ops::strict_types())) return nullptr;
  return kTables.atomic[static_cast<std::size_t>(op)][static_cast<std::size_t>(elem)];
}

CasFn cas_fn(Elem elem) {
  if (!atomic_capable(elem)) return nullptr;
  // MPI_CHAR ("character") is not among CAS's groups; as in reductions it counts as a C
  // integer unless strict.
  if (elem == Elem::c_char && ops::strict_types()) return nullptr;
  return kTables.cas[static_cast<std::size_t>(elem)];
}

}  // namespace shmpi::rma
