// Fuzz target: datatype constructors, commit/flattening, MPI_Pack/MPI_Unpack.
//
// Drives the public API (singleton MPI_Init, no broker, MPI_ERRORS_RETURN): one call
// then runs the argument checks (api_datatype*.cpp), the constructors
// (types/construct.cpp), flattening at commit (types/flatten.cpp) and the pack engine
// (types/pack.cpp), which the internal engine alone would not reach.
//
// The input is a program of up to 24 actions over a pool of predefined and previously
// built types (plus null, freed and garbage handles). The harness keeps its own
// reference type map of every type it built (the byte runs of one element, in type-map
// order, computed from the constructor arguments and the children's extents) and checks:
//   - valid arguments succeed; invalid ones fail with an allowed class only;
//   - MPI_Type_size == the reference's byte count, true lb/extent == its bounds, and
//     lb/extent follow MPI-4.1 5.1.7 for the non-struct constructors;
//   - MPI_Pack of `count` elements writes exactly count * size bytes, equal to the
//     reference gather; MPI_Unpack scatters them back to exactly the type map's bytes
//     (when the type map does not overlap itself) and leaves every other byte alone;
//   - too small an output buffer is an error, never an overflow (ASan watches);
//   - after freeing every handle, no derived type object is left alive.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fuzz_input.hpp"
#include "types/datatype.hpp"

namespace {
using shmpi::fuzz::Input;

struct Run {
  std::int64_t off, len;
};
using Map = std::vector<Run>;

// Keep every "normal" type small so one input stays fast; anything bigger is still
// built (and its overflow checks run) but never committed, packed or nested further.
constexpr std::size_t kMaxRuns = 2048;
constexpr std::int64_t kMaxSpan = std::int64_t{1} << 20;
constexpr std::int64_t kMaxSize = std::int64_t{1} << 16;

struct Node {
  MPI_Datatype h = MPI_DATATYPE_NULL;
  bool derived = false;
  bool big = false;  // no reference map: only used where its size cannot matter
  Map map;           // one element, type-map order
  MPI_Aint lb = 0, ext = 0;
};

struct Pool {
  std::vector<Node> nodes;
  std::vector<MPI_Datatype> freed;  // handle values freed earlier (may be reused)
};

void append(Map& m, const Map& src, std::int64_t shift, bool& too_big) {
  for (const Run& r : src) {
    if (too_big) return;
    const std::int64_t off = r.off + shift;
    if (!m.empty() && m.back().off + m.back().len == off) {
      m.back().len += r.len;
      continue;
    }
    if (m.size() >= kMaxRuns) {
      too_big = true;
      return;
    }
    m.push_back({off, r.len});
  }
}

Node predefined(MPI_Datatype h, Map map, MPI_Aint ext) {
  Node n;
  n.h = h;
  n.map = std::move(map);
  n.ext = ext;
  return n;
}

void init_pool(Pool& p) {
  p.nodes = {
      predefined(MPI_BYTE, {{0, 1}}, 1),
      predefined(MPI_CHAR, {{0, 1}}, 1),
      predefined(MPI_SHORT, {{0, 2}}, 2),
      predefined(MPI_INT, {{0, 4}}, 4),
      predefined(MPI_DOUBLE, {{0, 8}}, 8),
      predefined(MPI_INT64_T, {{0, 8}}, 8),
      predefined(MPI_C_DOUBLE_COMPLEX, {{0, 16}}, 16),
      predefined(MPI_DOUBLE_INT, {{0, 8}, {8, 4}}, 16),  // struct {double; int}
      predefined(MPI_SHORT_INT, {{0, 2}, {4, 4}}, 8),    // struct {short; int}
      predefined(MPI_2INT, {{0, 8}}, 8),
  };
}

// A type argument: a pool entry (valid) or a null/freed/garbage handle.
struct TypeArg {
  MPI_Datatype h;
  int node;  // index into the pool, or -1 when invalid
};

TypeArg pick_type(Input& in, const Pool& p) {
  const std::uint8_t b = in.u8();
  if (b < 244 && !p.nodes.empty()) {
    const int i = b % static_cast<int>(p.nodes.size());
    return {p.nodes[static_cast<std::size_t>(i)].h, i};
  }
  switch (b % 4) {
    case 0: return {MPI_DATATYPE_NULL, -1};
    case 1:
      if (!p.freed.empty()) {
        const MPI_Datatype h = p.freed[in.u8() % p.freed.size()];
        // A freed handle's address may belong to a newer type by now.
        for (std::size_t i = 0; i < p.nodes.size(); ++i) {
          if (p.nodes[i].h == h) return {h, static_cast<int>(i)};
        }
        return {h, -1};
      }
      return {MPI_DATATYPE_NULL, -1};
    case 2: return {reinterpret_cast<MPI_Datatype>(static_cast<std::uintptr_t>(0x0ff0)), -1};  // unused predefined slot
    default: {
      static int garbage;  // a real address that is no datatype
      return {reinterpret_cast<MPI_Datatype>(&garbage), -1};
    }
  }
}

// Counts/lengths: mostly small, sometimes an edge value.
std::int64_t small_count(Input& in) {
  const std::uint8_t b = in.u8();
  if (b < 240) return b % 6;
  static constexpr std::int64_t edges[] = {-1, INT_MIN, INT_MAX, 1 << 20, 0, -7, 1 << 30, 65536};
  return edges[b % 8];
}
std::int64_t small_disp(Input& in) {
  const std::uint8_t b = in.u8();
  if (b < 240) return static_cast<std::int64_t>(b % 33) - 16;
  static constexpr std::int64_t edges[] = {INT_MAX, INT_MIN, -(1 << 24), 1 << 24, INT_MAX / 2, -1, 1, 0};
  return edges[b % 8];
}

int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

void expect_error(int rc, std::initializer_list<int> allowed) {
  FUZZ_CHECK_MSG(rc != MPI_SUCCESS, "invalid arguments were accepted");
  const int cls = error_class(rc);
  bool ok = false;
  for (int a : allowed) ok |= cls == a;
  if (!ok) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    std::fprintf(stderr, "unexpected error class %d: %s\n", cls, msg);
  }
  FUZZ_CHECK_MSG(ok, "error class outside the allowed set");
}

// Bounds of copies of `child` at the given shifts: lb = min(shift + lb(child)), ub =
// max(shift + ub(child)) (MPI-4.1 5.1.7 with each child's bounds as markers). Checked
// only where this reading is unambiguous: copies placed at multiples of the child's
// extent (contiguous, vector, indexed), resized and dup; a child of negative extent
// opts out.
struct Bounds {
  bool any = false, negative = false;
  std::int64_t lb = 0, ub = 0;
  void add(std::int64_t shift, const Node& child) {
    const std::int64_t l = shift + child.lb, u = l + child.ext;
    lb = any ? std::min(lb, l) : l;
    ub = any ? std::max(ub, u) : u;
    any = true;
    negative |= child.ext < 0;
  }
};

// Checks a freshly built type against its reference and adds it to the pool.
void adopt(Pool& p, MPI_Datatype h, Node n, bool check_bounds, const Bounds& b) {
  n.h = h;
  n.derived = true;
  MPI_Aint lb = 0, ext = 0;
  FUZZ_CHECK(MPI_Type_get_extent(h, &lb, &ext) == MPI_SUCCESS);
  n.lb = lb;
  n.ext = ext;
  if (!n.big) {
    std::int64_t size = 0, lo = 0, hi = 0;
    for (std::size_t i = 0; i < n.map.size(); ++i) {
      size += n.map[i].len;
      lo = i ? std::min(lo, n.map[i].off) : n.map[i].off;
      hi = i ? std::max(hi, n.map[i].off + n.map[i].len) : n.map[i].off + n.map[i].len;
    }
    if (size > kMaxSize || hi - lo > kMaxSpan || std::abs(ext) > kMaxSpan || std::abs(lb) > kMaxSpan) {
      n.big = true;
    } else {
      int isize = -1;
      FUZZ_CHECK(MPI_Type_size(h, &isize) == MPI_SUCCESS);
      FUZZ_CHECK_MSG(isize == size, "MPI_Type_size differs from the type map's byte count");
      if (size > 0) {
        MPI_Aint tlb = 0, text = 0;
        FUZZ_CHECK(MPI_Type_get_true_extent(h, &tlb, &text) == MPI_SUCCESS);
        FUZZ_CHECK_MSG(tlb == lo && text == hi - lo, "true lb/extent differ from the type map's bounds");
      }
      if (check_bounds && !b.negative) {
        const std::int64_t want_lb = b.any ? b.lb : 0, want_ext = b.any ? b.ub - b.lb : 0;
        FUZZ_CHECK_MSG(lb == want_lb && ext == want_ext, "lb/extent differ from MPI-4.1 5.1.7");
      }
    }
  }
  if (n.big) n.map.clear();
  p.nodes.push_back(std::move(n));
}

void check_envelope(MPI_Datatype h, int combiner) {
  MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
  int comb = -1;
  FUZZ_CHECK(MPI_Type_get_envelope_c(h, &ni, &na, &nc, &nd, &comb) == MPI_SUCCESS);
  FUZZ_CHECK_MSG(comb == combiner, "MPI_Type_get_envelope returned another combiner");
}

// --- constructors -------------------------------------------------------------------

// contiguous / vector / hvector (regular layouts).
void act_regular(Input& in, Pool& p, int kind) {
  const bool large = in.flag();
  const std::int64_t count = kind == 0 ? small_count(in) : small_count(in);
  const std::int64_t bl = kind == 0 ? 1 : small_count(in);
  std::int64_t stride = kind == 2 ? small_disp(in) * 4 : small_disp(in) / 4;
  const TypeArg t = pick_type(in, p);
  if (!large) {
    // int arguments: clamp what does not fit, as a C caller could not pass it.
    stride = std::clamp<std::int64_t>(stride, INT_MIN, INT_MAX);
  }
  MPI_Datatype nt = MPI_DATATYPE_NULL;
  int rc;
  if (kind == 0) {
    rc = large ? MPI_Type_contiguous_c(count, t.h, &nt) : MPI_Type_contiguous(static_cast<int>(count), t.h, &nt);
  } else if (kind == 1) {
    rc = large ? MPI_Type_vector_c(count, bl, stride, t.h, &nt)
               : MPI_Type_vector(static_cast<int>(count), static_cast<int>(bl), static_cast<int>(stride), t.h, &nt);
  } else {
    rc = large ? MPI_Type_create_hvector_c(count, bl, stride, t.h, &nt)
               : MPI_Type_create_hvector(static_cast<int>(count), static_cast<int>(bl), stride, t.h, &nt);
  }
  if (t.node < 0 || count < 0 || bl < 0) {
    expect_error(rc, {MPI_ERR_TYPE, MPI_ERR_COUNT, MPI_ERR_ARG});
    return;
  }
  const Node& old = p.nodes[static_cast<std::size_t>(t.node)];
  Node n;
  n.big = old.big;
  Bounds b;
  bool too_big = n.big;
  // Bound the reference's work first: the engine may legitimately build a huge type.
  if (count * std::max<std::int64_t>(bl, 1) > static_cast<std::int64_t>(kMaxRuns)) too_big = true;
  for (std::int64_t i = 0; i < count && !too_big; ++i) {
    for (std::int64_t j = 0; j < bl && !too_big; ++j) {
      const std::int64_t shift = kind == 0   ? i * old.ext
                                 : kind == 1 ? (i * stride + j) * old.ext
                                             : i * stride + j * old.ext;
      append(n.map, old.map, shift, too_big);
      b.add(shift, old);
    }
  }
  if (rc != MPI_SUCCESS) {
    // Only a type too large to describe may be refused.
    FUZZ_CHECK_MSG(too_big, "valid regular constructor failed");
    expect_error(rc, {MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_NO_MEM, MPI_ERR_TYPE});
    return;
  }
  n.big = too_big;
  check_envelope(nt, kind == 0 ? MPI_COMBINER_CONTIGUOUS : kind == 1 ? MPI_COMBINER_VECTOR : MPI_COMBINER_HVECTOR);
  adopt(p, nt, std::move(n), kind != 2, b);
}

// indexed / hindexed / indexed_block / hindexed_block / struct.
void act_list(Input& in, Pool& p, int kind) {
  const bool bytes = kind == 1 || kind == 3 || kind == 4;
  const bool per_block = kind == 0 || kind == 1 || kind == 4;
  const bool is_struct = kind == 4;
  const bool large = in.flag() && kind <= 1;  // _c forms of indexed/hindexed
  const std::int64_t n = std::clamp<std::int64_t>(small_count(in), -1, 6);
  const std::size_t len = static_cast<std::size_t>(std::max<std::int64_t>(n, 0));
  std::vector<int> ibl(len), idisp(len);
  std::vector<MPI_Aint> adisp(len);
  std::vector<MPI_Count> cbl(len), cdisp(len);
  std::vector<MPI_Datatype> types(len);
  std::vector<int> tnode(len, -1);
  const std::int64_t one_bl = per_block ? 0 : small_count(in);
  bool valid = n >= 0 && one_bl >= 0;
  TypeArg common{MPI_DATATYPE_NULL, -1};
  if (!is_struct) {
    common = pick_type(in, p);
    valid &= common.node >= 0;
  }
  for (std::size_t i = 0; i < len; ++i) {
    const std::int64_t bl = per_block ? small_count(in) : one_bl;
    const std::int64_t d = small_disp(in) * (bytes ? 4 : 1);
    valid &= bl >= 0;
    ibl[i] = static_cast<int>(bl);
    cbl[i] = bl;
    idisp[i] = static_cast<int>(std::clamp<std::int64_t>(d, INT_MIN, INT_MAX));
    adisp[i] = d;
    cdisp[i] = large ? d : idisp[i];
    if (is_struct) {
      const TypeArg t = pick_type(in, p);
      types[i] = t.h;
      tnode[i] = t.node;
      valid &= t.node >= 0;
    }
  }
  MPI_Datatype nt = MPI_DATATYPE_NULL;
  const int cnt = static_cast<int>(n);
  int rc = MPI_SUCCESS;
  int combiner = 0;
  switch (kind) {
    case 0:
      rc = large ? MPI_Type_indexed_c(n, cbl.data(), cdisp.data(), common.h, &nt)
                 : MPI_Type_indexed(cnt, ibl.data(), idisp.data(), common.h, &nt);
      combiner = MPI_COMBINER_INDEXED;
      break;
    case 1:
      rc = large ? MPI_Type_create_hindexed_c(n, cbl.data(), cdisp.data(), common.h, &nt)
                 : MPI_Type_create_hindexed(cnt, ibl.data(), adisp.data(), common.h, &nt);
      combiner = MPI_COMBINER_HINDEXED;
      break;
    case 2:
      rc = MPI_Type_create_indexed_block(cnt, static_cast<int>(one_bl), idisp.data(), common.h, &nt);
      combiner = MPI_COMBINER_INDEXED_BLOCK;
      break;
    case 3:
      rc = MPI_Type_create_hindexed_block(cnt, static_cast<int>(one_bl), adisp.data(), common.h, &nt);
      combiner = MPI_COMBINER_HINDEXED_BLOCK;
      break;
    default:
      rc = MPI_Type_create_struct(cnt, ibl.data(), adisp.data(), types.data(), &nt);
      combiner = MPI_COMBINER_STRUCT;
      break;
  }
  if (!valid) {
    expect_error(rc, {MPI_ERR_TYPE, MPI_ERR_COUNT, MPI_ERR_ARG});
    return;
  }
  Node out;
  Bounds b;
  bool too_big = false;
  for (std::size_t i = 0; i < len && !too_big; ++i) {
    const Node& c = p.nodes[static_cast<std::size_t>(is_struct ? tnode[i] : common.node)];
    if (c.big) {  // unknown extent: no reference, and no arithmetic on it
      too_big = true;
      break;
    }
    const std::int64_t bl = large ? cbl[i] : ibl[i];
    const std::int64_t d = bytes ? (large ? cdisp[i] : adisp[i]) : (large ? cdisp[i] : idisp[i]) * c.ext;
    if (bl > static_cast<std::int64_t>(kMaxRuns) || c.big) too_big = true;
    for (std::int64_t j = 0; j < bl && !too_big; ++j) {
      append(out.map, c.map, d + j * c.ext, too_big);
      b.add(d + j * c.ext, c);
    }
  }
  if (rc != MPI_SUCCESS) {
    FUZZ_CHECK_MSG(too_big, "valid indexed/struct constructor failed");
    expect_error(rc, {MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_NO_MEM, MPI_ERR_TYPE});
    return;
  }
  out.big = too_big;
  check_envelope(nt, combiner);
  // Byte displacements (hindexed*, struct) may need alignment padding (epsilon), which
  // the reference does not model.
  adopt(p, nt, std::move(out), !bytes, b);
}

void act_resized(Input& in, Pool& p) {
  const TypeArg t = pick_type(in, p);
  const MPI_Aint lb = small_disp(in) * 2, ext = small_disp(in) * 2;
  MPI_Datatype nt = MPI_DATATYPE_NULL;
  const int rc = MPI_Type_create_resized(t.h, lb, ext, &nt);
  if (t.node < 0) {
    expect_error(rc, {MPI_ERR_TYPE, MPI_ERR_ARG});
    return;
  }
  if (rc != MPI_SUCCESS) {
    FUZZ_CHECK_MSG(p.nodes[static_cast<std::size_t>(t.node)].big, "valid MPI_Type_create_resized failed");
    expect_error(rc, {MPI_ERR_ARG, MPI_ERR_TYPE});
    return;
  }
  Node n = p.nodes[static_cast<std::size_t>(t.node)];
  n.derived = true;
  check_envelope(nt, MPI_COMBINER_RESIZED);
  Bounds b;
  b.any = true;
  b.lb = lb;
  b.ub = lb + ext;
  adopt(p, nt, std::move(n), true, b);
}

void act_dup(Input& in, Pool& p) {
  const TypeArg t = pick_type(in, p);
  MPI_Datatype nt = MPI_DATATYPE_NULL;
  const int rc = MPI_Type_dup(t.h, &nt);
  if (t.node < 0) {
    expect_error(rc, {MPI_ERR_TYPE, MPI_ERR_ARG});
    return;
  }
  FUZZ_CHECK_MSG(rc == MPI_SUCCESS, "valid MPI_Type_dup failed");
  Node n = p.nodes[static_cast<std::size_t>(t.node)];
  check_envelope(nt, MPI_COMBINER_DUP);
  Bounds b;
  b.any = true;
  b.lb = n.lb;
  b.ub = n.lb + n.ext;
  adopt(p, nt, std::move(n), true, b);
}

void act_subarray(Input& in, Pool& p) {
  const int ndims = static_cast<int>(in.range(-1, 3));
  const int order = in.u8() < 240 ? (in.flag() ? MPI_ORDER_C : MPI_ORDER_FORTRAN) : 12345;
  const std::size_t nd = static_cast<std::size_t>(std::max(ndims, 0));
  std::vector<int> sizes(nd), subs(nd), starts(nd);
  bool valid = ndims >= 1 && (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN);
  for (std::size_t d = 0; d < nd; ++d) {
    sizes[d] = static_cast<int>(small_count(in));
    subs[d] = static_cast<int>(small_count(in));
    starts[d] = static_cast<int>(small_count(in));
    // MPI-4.1 5.1.3: sizes >= 1, 1 <= subsizes <= sizes, 0 <= starts <= sizes - subsizes.
    valid &= sizes[d] >= 1 && subs[d] >= 1 && subs[d] <= sizes[d] && starts[d] >= 0 &&
             starts[d] <= sizes[d] - subs[d];
  }
  const TypeArg t = pick_type(in, p);
  valid &= t.node >= 0;
  MPI_Datatype nt = MPI_DATATYPE_NULL;
  const int rc = MPI_Type_create_subarray(ndims, sizes.data(), subs.data(), starts.data(), order, t.h, &nt);
  if (!valid) {
    expect_error(rc, {MPI_ERR_TYPE, MPI_ERR_ARG, MPI_ERR_DIMS, MPI_ERR_COUNT});
    return;
  }
  const Node& old = p.nodes[static_cast<std::size_t>(t.node)];
  Node n;
  bool too_big = old.big;
  __int128 total = 1, elems = 1;  // up to three 2^31 factors
  for (std::size_t d = 0; d < nd; ++d) {
    total *= sizes[d];
    elems *= subs[d];
  }
  if (elems > static_cast<__int128>(kMaxRuns) || total > kMaxSpan) too_big = true;
  // Iterate the sub-block in type-map order: the fastest dimension is the last one
  // for C order, the first for Fortran order.
  std::vector<int> idx(nd, 0);
  for (std::int64_t e = 0; e < elems && !too_big; ++e) {
    std::int64_t lin = 0, mul = 1;
    for (std::size_t k = 0; k < nd; ++k) {
      const std::size_t d = order == MPI_ORDER_C ? nd - 1 - k : k;
      lin += (starts[d] + idx[d]) * mul;
      mul *= sizes[d];
    }
    append(n.map, old.map, lin * old.ext, too_big);
    for (std::size_t k = 0; k < nd; ++k) {  // advance the odometer
      const std::size_t d = order == MPI_ORDER_C ? nd - 1 - k : k;
      if (++idx[d] < subs[d]) break;
      idx[d] = 0;
    }
  }
  if (rc != MPI_SUCCESS) {
    FUZZ_CHECK_MSG(too_big, "valid MPI_Type_create_subarray failed");
    expect_error(rc, {MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_NO_MEM, MPI_ERR_TYPE});
    return;
  }
  n.big = too_big;
  check_envelope(nt, MPI_COMBINER_SUBARRAY);
  MPI_Aint lb = 0, ext = 0;
  FUZZ_CHECK(MPI_Type_get_extent(nt, &lb, &ext) == MPI_SUCCESS);
  // The subarray spans the whole array (MPI-4.1 5.1.3).
  if (!too_big) FUZZ_CHECK_MSG(ext == static_cast<std::int64_t>(total) * old.ext, "subarray extent is not prod(sizes) * extent(oldtype)");
  adopt(p, nt, std::move(n), false, Bounds{});
}

// --- commit, pack, unpack -----------------------------------------------------------

void act_pack(Input& in, Pool& p) {
  if (p.nodes.empty()) return;
  Node& n = p.nodes[in.u8() % p.nodes.size()];
  const int count = in.u8() % 4;
  if (n.big) return;
  if (n.derived) FUZZ_CHECK(MPI_Type_commit(&n.h) == MPI_SUCCESS);
  std::int64_t size = 0;
  for (const Run& r : n.map) size += r.len;
  // The typed buffer: every byte any of the `count` elements touches.
  std::int64_t lo = 0, hi = 0;
  bool any = false;
  for (int k = 0; k < count; ++k) {
    for (const Run& r : n.map) {
      const std::int64_t a = k * n.ext + r.off;
      lo = any ? std::min(lo, a) : a;
      hi = any ? std::max(hi, a + r.len) : a + r.len;
      any = true;
    }
  }
  std::vector<unsigned char> src(static_cast<std::size_t>(hi - lo) + 1);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  // MPI addresses element 0 at buf; buf itself may lie outside the touched range.
  const auto at = [lo](std::vector<unsigned char>& v) {
    return reinterpret_cast<unsigned char*>(reinterpret_cast<std::uintptr_t>(v.data()) - static_cast<std::uintptr_t>(lo));
  };
  std::vector<unsigned char> want;
  for (int k = 0; k < count; ++k) {
    for (const Run& r : n.map) {
      const std::size_t a = static_cast<std::size_t>(k * n.ext + r.off - lo);
      want.insert(want.end(), src.begin() + static_cast<std::ptrdiff_t>(a),
                  src.begin() + static_cast<std::ptrdiff_t>(a + static_cast<std::size_t>(r.len)));
    }
  }
  FUZZ_CHECK(static_cast<std::int64_t>(want.size()) == size * count);
  int psize = -1;
  FUZZ_CHECK(MPI_Pack_size(count, n.h, MPI_COMM_SELF, &psize) == MPI_SUCCESS);
  FUZZ_CHECK_MSG(psize >= size * count, "MPI_Pack_size below count * size");
  std::vector<unsigned char> packed(static_cast<std::size_t>(psize) + 1, 0xEE);
  int pos = 0;
  FUZZ_CHECK(MPI_Pack(at(src), count, n.h, packed.data(), psize, &pos, MPI_COMM_SELF) == MPI_SUCCESS);
  FUZZ_CHECK_MSG(pos == size * count, "MPI_Pack position is not count * size");
  FUZZ_CHECK_MSG(std::equal(want.begin(), want.end(), packed.begin()), "packed bytes differ from the type map");
  if (size * count > 0) {
    // One byte short: an error, and nothing written past the buffer (a separate
    // allocation of exactly that size, so ASan sees an overflow).
    std::vector<unsigned char> small(static_cast<std::size_t>(size * count - 1) + 0);
    int spos = 0;
    const int rc = MPI_Pack(at(src), count, n.h, small.empty() ? nullptr : small.data(),
                            static_cast<int>(small.size()), &spos, MPI_COMM_SELF);
    expect_error(rc, {MPI_ERR_TRUNCATE, MPI_ERR_ARG, MPI_ERR_BUFFER, MPI_ERR_COUNT});
  }
  // Unpack into two differently filled buffers: written bytes must equal the source,
  // the rest must keep the fill.
  std::vector<bool> covered(src.size(), false);
  bool overlap = false;
  for (int k = 0; k < count; ++k) {
    for (const Run& r : n.map) {
      for (std::int64_t i = 0; i < r.len; ++i) {
        const std::size_t a = static_cast<std::size_t>(k * n.ext + r.off - lo + i);
        overlap |= covered[a];
        covered[a] = true;
      }
    }
  }
  if (overlap) return;  // unpacking into an overlapping type map is erroneous (MPI-4.1 5.1.11)
  for (unsigned char fill : {0x00, 0xFF}) {
    std::vector<unsigned char> dst(src.size(), fill);
    int upos = 0;
    FUZZ_CHECK(MPI_Unpack(packed.data(), psize, &upos, at(dst), count, n.h, MPI_COMM_SELF) == MPI_SUCCESS);
    FUZZ_CHECK_MSG(upos == size * count, "MPI_Unpack position is not count * size");
    for (std::size_t i = 0; i < dst.size(); ++i) {
      FUZZ_CHECK_MSG(dst[i] == (covered[i] ? src[i] : fill), "unpack wrote outside the type map or lost a byte");
    }
  }
}

void act_free(Input& in, Pool& p) {
  if (p.nodes.empty()) return;
  const std::size_t i = in.u8() % p.nodes.size();
  MPI_Datatype h = p.nodes[i].h;
  const int rc = MPI_Type_free(&h);
  if (!p.nodes[i].derived) {
    expect_error(rc, {MPI_ERR_TYPE, MPI_ERR_ARG});
    return;
  }
  FUZZ_CHECK(rc == MPI_SUCCESS && h == MPI_DATATYPE_NULL);
  p.freed.push_back(p.nodes[i].h);
  p.nodes.erase(p.nodes.begin() + static_cast<std::ptrdiff_t>(i));
  // Types built from it stay usable (MPI-4.1 5.1.9): they keep their own references.
}

void init_once() {
  static bool done = false;
  if (done) return;
  done = true;
  unsetenv("SHMPI_JOB_ID");  // a singleton: no broker, no shared segment
  FUZZ_CHECK(MPI_Init(nullptr, nullptr) == MPI_SUCCESS);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  init_once();
  Input in(data, size);
  Pool p;
  init_pool(p);
  for (int step = 0; step < 24 && !in.empty(); ++step) {
    const int op = in.u8() % 13;
    switch (op) {
      case 0: case 1: case 2: act_regular(in, p, op); break;
      case 3: case 4: case 5: case 6: case 7: act_list(in, p, op - 3); break;
      case 8: act_resized(in, p); break;
      case 9: act_dup(in, p); break;
      case 10: act_subarray(in, p); break;
      case 11: act_pack(in, p); break;
      default: act_free(in, p); break;
    }
  }
  for (Node& n : p.nodes) {
    if (n.derived) FUZZ_CHECK(MPI_Type_free(&n.h) == MPI_SUCCESS);
  }
  FUZZ_CHECK_MSG(shmpi::client::types::live_derived_types() == 0, "a derived type outlived its last handle");
  return 0;
}
