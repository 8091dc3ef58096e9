// Fuzz target: argument validation of the RMA calls and the collectives.
//
// Public API on a singleton job (MPI_Init without shmpirun: one rank, no broker),
// MPI_ERRORS_RETURN everywhere. The input is a program of up to 12 actions:
//   - an RMA epoch on one of four windows (allocate, create, dynamic, shared; or a null
//     or garbage handle): fence, exclusive/shared lock or lock_all on a fuzzed rank (or
//     none at all), then 1-3 of Put, Get, Accumulate, Get_accumulate, Fetch_and_op,
//     Compare_and_swap and their R-forms, then the matching close;
//   - a collective on MPI_COMM_SELF, a dup of it, MPI_COMM_WORLD (size 1), or a null or
//     garbage communicator: Bcast, Scatter(v), Gather(v), Allgather, Reduce, Allreduce,
//     Reduce_scatter(_block), Alltoall(v/w), Scan, Exscan, Ibcast, Iallreduce, Ireduce,
//     Bcast_init, Allreduce_init.
// Counts, datatypes (valid predefined and derived, uncommitted, freed, null, garbage),
// ops (predefined, user, freed, null, garbage), roots, ranks, displacements and
// MPI_IN_PLACE (also where it is not allowed) come from the input. Buffers are sized
// for what the call touches when its arguments are valid (origin/target/send/receive
// each for its own count and type), never smaller.
//
// The harness classifies every call as valid, invalid or "either" (e.g. mismatched type
// signatures, which MPI makes erroneous but need not detect). Properties: no crash, no
// ASan/UBSan report, no hang; valid calls succeed and their results match a reference
// (data moved by the type maps; SUM/REPLACE/NO_OP/CAS on ints; one rank makes every
// reduction a copy); invalid ones fail with a class from the call's legal set; no byte
// outside what a call may write changes.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"

namespace {
using shmpi::fuzz::Input;

enum class V { valid, invalid, either };
V both(V a, V b) {
  if (a == V::invalid || b == V::invalid) return V::invalid;
  if (a == V::either || b == V::either) return V::either;
  return V::valid;
}

// ---- datatypes -----------------------------------------------------------------------

enum Kind { kInt, kDouble, kByte, k2Int };
struct Run {
  std::int64_t off, len;
};
struct TypeInfo {
  MPI_Datatype h;
  bool valid;  // a committed, live datatype
  Kind kind;
  int elems;   // basic elements of `kind` in one item
  std::vector<Run> map;
  std::int64_t ext;
  bool derived = false;
};
std::vector<TypeInfo> g_types;

const TypeInfo& pick_type(Input& in) {
  const std::uint8_t b = in.u8();
  // Mostly valid ones (the first six entries).
  return g_types[b < 200 ? b % 6 : 6 + b % (g_types.size() - 6)];
}

// ---- ops -------------------------------------------------------------------------------

enum OpId { kSum, kMax, kBand, kMaxloc, kReplace, kNoOp, kUser, kBadOp };
struct OpInfo {
  MPI_Op h;
  OpId id;
};
std::vector<OpInfo> g_ops;

void xor_op(void* in, void* inout, int* len, MPI_Datatype* t) {
  int size = 0;
  MPI_Type_size(*t, &size);
  auto* a = static_cast<unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (long i = 0; i < static_cast<long>(*len) * size; ++i) b[i] ^= a[i];
}

const OpInfo& pick_op(Input& in) {
  const std::uint8_t b = in.u8();
  return g_ops[b < 220 ? b % 7 : 7 + b % (g_ops.size() - 7)];
}

// Is `op` a valid reduction op for `t`? (MPI-4.1 6.9.1-2: predefined ops work on the
// listed predefined types; a derived type of one of them is accepted by some
// implementations, so either outcome is fine there.)
V reduce_op_ok(const OpInfo& op, const TypeInfo& t) {
  if (!t.valid || op.id == kBadOp) return V::invalid;
  if (t.derived && op.id != kUser) return V::either;
  switch (op.id) {
    case kUser: return V::valid;
    case kSum:
    case kMax: return t.kind == kInt || t.kind == kDouble ? V::valid : V::invalid;
    case kBand: return t.kind == kInt || t.kind == kByte ? V::valid : V::invalid;
    case kMaxloc: return t.kind == k2Int ? V::valid : V::invalid;
    default: return V::invalid;  // MPI_REPLACE, MPI_NO_OP: RMA only
  }
}
// For accumulate-style RMA calls (MPI-4.1 12.3.4): predefined ops only; MPI_NO_OP only
// where there is a result buffer.
// A derived target type made of one predefined type is fine here (MPI-4.1 12.3.4).
V acc_op_ok(const OpInfo& op, const TypeInfo& t, bool fetching) {
  if (op.id == kUser || op.id == kBadOp) return V::invalid;
  if (op.id == kReplace) return V::valid;
  if (op.id == kNoOp) return fetching ? V::valid : V::invalid;
  TypeInfo basic = t;
  basic.derived = false;
  return reduce_op_ok(op, basic);
}

// ---- buffers ---------------------------------------------------------------------------

// A buffer for `count` items of `t` starting at item `displ` (the MPI address is
// base(); element k of the type map is at base() + k * ext + off). Sized for exactly
// the bytes those items touch when count is sane, else a small dummy.
struct Buf {
  std::vector<unsigned char> mem;
  std::int64_t lo = 0;
  const TypeInfo* t = nullptr;
  std::int64_t count = 0, displ = 0;
  bool sane = false;

  void make(const TypeInfo& type, std::int64_t n, std::int64_t d, std::uint8_t seed) {
    t = &type;
    count = n;
    displ = d;
    sane = n >= 0 && n <= 64 && type.valid;
    std::int64_t hi = 0;
    bool any = false;
    if (sane) {
      for (std::int64_t k = d; k < d + n; ++k) {
        for (const Run& r : type.map) {
          const std::int64_t a = k * type.ext + r.off;
          lo = any ? std::min(lo, a) : a;
          hi = any ? std::max(hi, a + r.len) : a + r.len;
          any = true;
        }
      }
    }
    mem.resize(any ? static_cast<std::size_t>(hi - lo) : 16);
    if (!any) lo = 0;
    for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<unsigned char>(seed + i * 29);
  }
  void* base() { return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(mem.data()) - static_cast<std::uintptr_t>(lo)); }
  // The bytes of the type map in order (count items from displ).
  std::vector<unsigned char> packed() const {
    std::vector<unsigned char> o;
    if (!sane) return o;
    for (std::int64_t k = displ; k < displ + count; ++k) {
      for (const Run& r : t->map) {
        const std::size_t a = static_cast<std::size_t>(k * t->ext + r.off - lo);
        o.insert(o.end(), mem.begin() + static_cast<std::ptrdiff_t>(a), mem.begin() + static_cast<std::ptrdiff_t>(a + static_cast<std::size_t>(r.len)));
      }
    }
    return o;
  }
  // Marks the type map's bytes.
  std::vector<bool> covered() const {
    std::vector<bool> c(mem.size(), false);
    if (!sane) return c;
    for (std::int64_t k = displ; k < displ + count; ++k) {
      for (const Run& r : t->map) {
        for (std::int64_t i = 0; i < r.len; ++i) c[static_cast<std::size_t>(k * t->ext + r.off - lo + i)] = true;
      }
    }
    return c;
  }
};

// Same element sequence on both sides (kind and element count)?
V signatures(const TypeInfo& a, std::int64_t na, const TypeInfo& b, std::int64_t nb) {
  if (!a.valid || !b.valid) return V::invalid;
  return a.kind == b.kind && na * a.elems == nb * b.elems ? V::valid : V::either;
}

// Counts: small, or an edge value (huge ones only where the harness need not back them).
std::int64_t pick_count(Input& in, bool allow_huge) {
  const std::uint8_t b = in.u8();
  if (b < 232) return b % 5;
  static constexpr std::int64_t edges[] = {-1, INT_MIN, -1000, 0, INT_MAX, 1 << 20, 65, 1 << 28};
  const std::int64_t v = edges[b % 8];
  return v > 64 && !allow_huge ? -1 : v;
}

int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

void judge(const char* call, int rc, V v, std::initializer_list<int> legal) {
  if (rc == MPI_SUCCESS) {
    if (v == V::invalid) std::fprintf(stderr, "%s accepted invalid arguments\n", call);
    FUZZ_CHECK_MSG(v != V::invalid, "invalid arguments were accepted");
    return;
  }
  const int cls = error_class(rc);
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  if (v == V::valid) std::fprintf(stderr, "%s failed on valid arguments: %s\n", call, msg);
  FUZZ_CHECK_MSG(v != V::valid, "valid arguments were refused");
  bool ok = false;
  for (int c : legal) ok |= c == cls;
  if (!ok) std::fprintf(stderr, "%s: error class %d outside the legal set: %s\n", call, cls, msg);
  FUZZ_CHECK_MSG(ok, "error class outside the call's legal set");
}

// ---- RMA -------------------------------------------------------------------------------

constexpr std::int64_t kWinBytes = 256;
struct WinInfo {
  MPI_Win h = MPI_WIN_NULL;
  bool valid = false;
  unsigned char* mem = nullptr;  // our (rank 0's) window memory
  int disp_unit = 1;
  MPI_Aint disp_base = 0;  // dynamic windows: the attached region's address
};
std::vector<WinInfo> g_wins;
std::vector<unsigned char> g_create_mem(kWinBytes), g_dynamic_mem(kWinBytes);

constexpr std::initializer_list<int> kRmaErrors = {MPI_ERR_WIN,   MPI_ERR_RMA_SYNC, MPI_ERR_COUNT, MPI_ERR_TYPE,
                                                   MPI_ERR_RANK,  MPI_ERR_ARG,      MPI_ERR_RMA_RANGE, MPI_ERR_OP,
                                                   MPI_ERR_BUFFER, MPI_ERR_DISP,    MPI_ERR_TRUNCATE};
constexpr std::initializer_list<int> kSyncErrors = {MPI_ERR_WIN, MPI_ERR_RMA_SYNC, MPI_ERR_RANK, MPI_ERR_LOCKTYPE,
                                                    MPI_ERR_ARG, MPI_ERR_ASSERT};

int pick_rank(Input& in) {
  const std::uint8_t b = in.u8();
  if (b < 224) return 0;
  static constexpr int r[] = {1, -1, MPI_PROC_NULL, INT_MAX, MPI_ANY_SOURCE, 2, MPI_ROOT, 0};
  return r[b % 8];
}

// The target byte range [lo, hi) that `count` items of t at displacement disp touch.
V target_range(const WinInfo& w, MPI_Aint disp, const TypeInfo& t, std::int64_t count, std::int64_t& off) {
  if (!t.valid || count < 0) return V::invalid;
  if (count > 64) return V::invalid;  // the 256-byte windows cannot hold that many
  const __int128 wide = (static_cast<__int128>(disp) - w.disp_base) * w.disp_unit;
  // No data, no access: whether a displacement far outside is checked anyway is up to
  // the implementation.
  const bool empty = count == 0 || t.map.empty();
  if (wide < -(__int128{1} << 40) || wide > (__int128{1} << 40)) return empty ? V::either : V::invalid;
  const auto start = static_cast<std::int64_t>(wide);
  std::int64_t lo = 0, hi = 0;
  bool any = false;
  for (std::int64_t k = 0; k < count; ++k) {
    for (const Run& r : t.map) {
      const std::int64_t a = start + k * t.ext + r.off;
      lo = any ? std::min(lo, a) : a;
      hi = any ? std::max(hi, a + r.len) : a + r.len;
      any = true;
    }
  }
  off = start;
  if (!any) return start >= 0 && start <= kWinBytes ? V::valid : V::either;
  return lo >= 0 && hi <= kWinBytes ? V::valid : V::invalid;
}

MPI_Aint pick_disp(Input& in, const WinInfo& w) {
  const std::uint8_t b = in.u8();
  if (b < 232) return w.disp_base + static_cast<MPI_Aint>(b % 70) - 2;
  static constexpr MPI_Aint edges[] = {-1, LONG_MIN / 2, LONG_MAX / 2, 1 << 20, 0, 255, 256, -256};
  return w.disp_base + edges[b % 8];
}

// One RMA call in an open (or missing) epoch. `epoch_ok`: rank 0 is a target of the
// current epoch; `fence`: the epoch is a fence epoch (no R-forms there).
void rma_call(Input& in, WinInfo& w, V epoch_ok, bool fence) {
  const int call = in.u8() % 10;  // put get acc get_acc fop cas rput rget racc rget_acc
  const bool req_form = call >= 6;
  const int base_call = req_form ? call - 6 : call;
  const TypeInfo& ot = pick_type(in);
  const std::int64_t ocount = base_call >= 4 ? 1 : pick_count(in, true);
  const TypeInfo& tt = base_call >= 4 ? ot : pick_type(in);
  const std::int64_t tcount = base_call >= 4 ? 1 : pick_count(in, true);
  const TypeInfo& rt = base_call == 3 ? pick_type(in) : ot;
  const std::int64_t rcount = base_call == 3 ? pick_count(in, true) : ocount;
  const int rank = pick_rank(in);
  const MPI_Aint disp = pick_disp(in, w);
  const OpInfo& op = pick_op(in);
  Buf origin, result, compare;
  origin.make(ot, ocount, 0, in.u8());
  result.make(rt, rcount, 0, in.u8());
  compare.make(ot, 1, 0, in.u8());
  const bool null_origin = in.u8() >= 250;  // NULL origin with data to move: invalid
  void* obuf = null_origin ? nullptr : origin.base();

  V v = w.valid ? epoch_ok : V::invalid;
  if (req_form && fence) v = both(v, V::invalid);  // R-forms need a passive-target epoch
  // MPI_NO_OP in Get_accumulate: origin buffer, count and datatype are ignored
  // (MPI-4.1 12.3.4), so bad ones there may or may not be noticed.
  const bool origin_ignored = base_call == 3 && op.id == kNoOp;
  const bool origin_bad = ocount < 0 || !ot.valid;
  if (origin_bad) v = origin_ignored ? both(v, V::either) : V::invalid;
  if (tcount < 0 || rcount < 0 || !tt.valid || !rt.valid) v = V::invalid;
  if (rank != 0 && rank != MPI_PROC_NULL) v = V::invalid;
  std::int64_t toff = 0;
  if (rank == 0) v = both(v, target_range(w, disp, tt, tcount, toff));
  if (base_call != 1 && base_call != 5 && !origin_ignored) v = both(v, signatures(ot, ocount, tt, tcount));
  if (base_call == 1) v = both(v, signatures(tt, tcount, ot, ocount));
  if (base_call == 3) v = both(v, signatures(tt, tcount, rt, rcount));
  if (base_call == 2 || base_call == 3 || base_call == 4) v = both(v, acc_op_ok(op, tt, base_call != 2));
  if (base_call >= 4 && ot.elems != 1) v = both(v, V::either);  // one predefined element
  if (base_call == 5 && ot.kind != kInt && ot.kind != kByte) v = both(v, V::either);  // CAS: integer/byte types
  // NULL origin with data to move: must be refused or ignored (NO_OP), never dereferenced.
  if (null_origin && ocount > 0) v = both(v, V::either);
  // MPI_PROC_NULL: no data moves (MPI-4.1 12.3); an implementation may return before
  // looking at anything else, so any outcome but a crash or an illegal class is fine.
  if (rank == MPI_PROC_NULL) v = V::either;

  std::vector<unsigned char> before(w.mem, w.mem + kWinBytes);
  const std::vector<unsigned char> opacked = origin.packed();
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Request* rq = req_form ? &req : nullptr;
  const int oc = static_cast<int>(std::clamp<std::int64_t>(ocount, INT_MIN, INT_MAX));
  const int tc = static_cast<int>(std::clamp<std::int64_t>(tcount, INT_MIN, INT_MAX));
  const int rc_ = static_cast<int>(std::clamp<std::int64_t>(rcount, INT_MIN, INT_MAX));
  int rc = MPI_SUCCESS;
  const char* name = "";
  switch (call) {
    case 0: name = "MPI_Put"; rc = MPI_Put(obuf, oc, ot.h, rank, disp, tc, tt.h, w.h); break;
    case 1: name = "MPI_Get"; rc = MPI_Get(obuf, oc, ot.h, rank, disp, tc, tt.h, w.h); break;
    case 2: name = "MPI_Accumulate"; rc = MPI_Accumulate(obuf, oc, ot.h, rank, disp, tc, tt.h, op.h, w.h); break;
    case 3:
      name = "MPI_Get_accumulate";
      rc = MPI_Get_accumulate(obuf, oc, ot.h, result.base(), rc_, rt.h, rank, disp, tc, tt.h, op.h, w.h);
      break;
    case 4: name = "MPI_Fetch_and_op"; rc = MPI_Fetch_and_op(obuf, result.base(), ot.h, rank, disp, op.h, w.h); break;
    case 5:
      name = "MPI_Compare_and_swap";
      rc = MPI_Compare_and_swap(obuf, compare.base(), result.base(), ot.h, rank, disp, w.h);
      break;
    case 6: name = "MPI_Rput"; rc = MPI_Rput(obuf, oc, ot.h, rank, disp, tc, tt.h, w.h, rq); break;
    case 7: name = "MPI_Rget"; rc = MPI_Rget(obuf, oc, ot.h, rank, disp, tc, tt.h, w.h, rq); break;
    case 8: name = "MPI_Raccumulate"; rc = MPI_Raccumulate(obuf, oc, ot.h, rank, disp, tc, tt.h, op.h, w.h, rq); break;
    default:
      name = "MPI_Rget_accumulate";
      rc = MPI_Rget_accumulate(obuf, oc, ot.h, result.base(), rc_, rt.h, rank, disp, tc, tt.h, op.h, w.h, rq);
      break;
  }
  char what[256];
  std::snprintf(what, sizeof what, "%s(win %s, epoch %d, origin %d x%lld, target %d x%lld, result %d x%lld, rank %d, disp %lld, op %d%s)",
                name, w.valid ? "ok" : "bad", static_cast<int>(epoch_ok), static_cast<int>(&ot - g_types.data()),
                static_cast<long long>(ocount), static_cast<int>(&tt - g_types.data()), static_cast<long long>(tcount),
                static_cast<int>(&rt - g_types.data()), static_cast<long long>(rcount), rank,
                static_cast<long long>(disp - w.disp_base), static_cast<int>(op.id), null_origin ? ", NULL origin" : "");
  judge(what, rc, v, kRmaErrors);
  if (rc == MPI_SUCCESS && req_form) FUZZ_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  if (rc != MPI_SUCCESS) {
    FUZZ_CHECK_MSG(std::equal(before.begin(), before.end(), w.mem), "a refused RMA call changed the window");
    return;
  }
  // Reference for the cheap cases, in passive-target epochs: after MPI_Win_flush the
  // call is complete at origin and target (in a fence epoch only the closing fence
  // would say so).
  if (v != V::valid || null_origin || fence) return;
  FUZZ_CHECK(MPI_Win_flush(0, w.h) == MPI_SUCCESS);
  Buf target;  // the window seen through the target type map
  target.t = &tt;
  target.count = tcount;
  target.sane = true;
  target.lo = -toff;
  std::vector<unsigned char> tb(before);
  target.mem = tb;
  const std::vector<unsigned char> old_t = target.packed();
  target.mem.assign(w.mem, w.mem + kWinBytes);
  const std::vector<unsigned char> new_t = target.packed();
  std::vector<bool> tcov = target.covered();
  for (std::int64_t i = 0; i < kWinBytes; ++i) {
    if (!tcov[static_cast<std::size_t>(i)]) FUZZ_CHECK_MSG(w.mem[i] == before[static_cast<std::size_t>(i)], "RMA wrote outside the target type map");
  }
  const auto ints = [](const std::vector<unsigned char>& b) {
    std::vector<std::int32_t> o(b.size() / 4);
    if (!o.empty()) std::memcpy(o.data(), b.data(), o.size() * 4);
    return o;
  };
  const bool replace_like = base_call == 0 || ((base_call == 2 || base_call == 3 || base_call == 4) && op.id == kReplace);
  if (replace_like) FUZZ_CHECK_MSG(new_t == opacked, "target does not hold the origin data");
  if (base_call == 1) {
    FUZZ_CHECK_MSG(origin.packed() == old_t && new_t == old_t, "MPI_Get did not fetch the target data");
  }
  if ((base_call == 3 || base_call == 4 || base_call == 5) && result.sane) {
    FUZZ_CHECK_MSG(result.packed() == old_t, "fetched result is not the old target value");
  }
  if (op.id == kNoOp && (base_call == 3 || base_call == 4)) FUZZ_CHECK_MSG(new_t == old_t, "MPI_NO_OP changed the target");
  if (op.id == kSum && tt.kind == kInt && (base_call == 2 || base_call == 3 || base_call == 4)) {
    const auto a = ints(old_t), b = ints(opacked), c = ints(new_t);
    for (std::size_t i = 0; i < a.size(); ++i) {
      FUZZ_CHECK_MSG(c[i] == static_cast<std::int32_t>(static_cast<std::uint32_t>(a[i]) + static_cast<std::uint32_t>(b[i])),
                     "MPI_SUM accumulate result is wrong");
    }
  }
  if (base_call == 5) {
    const bool eq = compare.packed() == old_t;
    FUZZ_CHECK_MSG(new_t == (eq ? opacked : old_t), "compare-and-swap result is wrong");
  }
}

void rma_epoch(Input& in) {
  const std::uint8_t wb = in.u8();
  static WinInfo bad_null, bad_garbage;
  bad_garbage.h = reinterpret_cast<MPI_Win>(&bad_garbage);
  static unsigned char dummy[kWinBytes];
  bad_null.mem = bad_garbage.mem = dummy;
  WinInfo& w = wb < 240 ? g_wins[wb % g_wins.size()] : (wb & 1 ? bad_null : bad_garbage);
  const int mode = in.u8() % 6;  // none, fence, lock excl, lock shared, lock_all, lock(bad rank)
  V epoch = V::invalid;
  int lock_rank = 0;
  bool opened = false;
  int rc;
  switch (mode) {
    case 1:
      rc = MPI_Win_fence(0, w.h);
      judge("MPI_Win_fence", rc, w.valid ? V::valid : V::invalid, kSyncErrors);
      opened = rc == MPI_SUCCESS;
      break;
    case 2:
    case 3:
    case 5:
      lock_rank = mode == 5 ? pick_rank(in) : 0;
      rc = MPI_Win_lock(mode == 3 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, lock_rank, 0, w.h);
      judge("MPI_Win_lock", rc,
            !w.valid ? V::invalid : lock_rank == 0 ? V::valid : lock_rank == MPI_PROC_NULL ? V::either : V::invalid,
            kSyncErrors);
      opened = rc == MPI_SUCCESS;
      break;
    case 4:
      rc = MPI_Win_lock_all(0, w.h);
      judge("MPI_Win_lock_all", rc, w.valid ? V::valid : V::invalid, kSyncErrors);
      opened = rc == MPI_SUCCESS;
      break;
    default: break;
  }
  if (opened) epoch = lock_rank == 0 ? V::valid : V::either;
  const int n = 1 + in.u8() % 3;
  for (int i = 0; i < n; ++i) rma_call(in, w, epoch, mode == 1);
  if (!opened) return;
  switch (mode) {
    case 1: FUZZ_CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.h) == MPI_SUCCESS); break;
    case 4: FUZZ_CHECK(MPI_Win_unlock_all(w.h) == MPI_SUCCESS); break;
    default: FUZZ_CHECK(MPI_Win_unlock(lock_rank, w.h) == MPI_SUCCESS); break;
  }
}

// ---- collectives ---------------------------------------------------------------------

std::vector<MPI_Comm> g_comms;  // valid communicators, all of size 1
constexpr std::initializer_list<int> kCollErrors = {MPI_ERR_COMM, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP, MPI_ERR_ROOT,
                                                    MPI_ERR_ARG,  MPI_ERR_BUFFER, MPI_ERR_TRUNCATE, MPI_ERR_REQUEST,
                                                    MPI_ERR_INFO};

int pick_root(Input& in) { return pick_rank(in); }

void coll_call(Input& in) {
  const std::uint8_t cb = in.u8();
  const bool comm_ok = cb < 232;
  static int garbage;
  const MPI_Comm comm = comm_ok ? g_comms[cb % g_comms.size()]
                                : (cb & 1 ? MPI_COMM_NULL : reinterpret_cast<MPI_Comm>(&garbage));
  const int call = in.u8() % 20;
  const TypeInfo& st = pick_type(in);
  const TypeInfo& rt = pick_type(in);
  std::int64_t sc = pick_count(in, false), rcn = pick_count(in, false);
  const int sd = in.u8() % 4, rd = in.u8() % 4;  // v-variant displacements (items / bytes)
  const int root = pick_root(in);
  const OpInfo& op = pick_op(in);
  const std::uint8_t ip = in.u8();
  const bool in_place = ip >= 192;          // MPI_IN_PLACE as the send buffer
  const bool in_place_recv = ip >= 250;     // ... or (invalid) as the receive buffer
  const bool null_recv = ip == 191;         // NULL receive buffer

  // Which buffers the call has, per kind of call.
  const bool reduction = call == 5 || call == 6 || call == 7 || call == 8 || call == 12 || call == 13 ||
                         call == 16 || call == 18 || call == 19;
  const bool v_send = call == 2 || call == 10 || call == 11, v_recv = call == 4 || call == 10 || call == 11;
  // One count for both sides of a reduction; Reduce_scatter(_block) sends recvcount * size.
  if (reduction) {
    if (call == 7 || call == 8) sc = rcn;
    else rcn = sc;
  }
  const TypeInfo& rtype = reduction ? st : rt;
  Buf s, r;
  s.make(st, sc, v_send ? sd : 0, in.u8());
  r.make(rtype, rcn, v_recv ? rd : 0, in.u8());
  void* sbuf = in_place ? MPI_IN_PLACE : s.base();
  void* rbuf = in_place_recv ? MPI_IN_PLACE : null_recv ? nullptr : r.base();
  const int sci = static_cast<int>(sc), rci = static_cast<int>(rcn);
  const int sdisp = sd, rdisp = rd;
  // Alltoallw's displacements are bytes (the same items as the other v-forms).
  const int sdb = sd * static_cast<int>(st.ext), rdb = rd * static_cast<int>(rt.ext);
  const std::vector<unsigned char> rb0 = r.mem;
  const std::vector<unsigned char> sp = s.packed(), rp0 = r.packed();

  // Validity for a size-1 communicator.
  V v = comm_ok ? V::valid : V::invalid;
  const bool rooted = call == 0 || call == 1 || call == 2 || call == 3 || call == 4 || call == 5 || call == 15 ||
                      call == 17 || call == 18;
  if (rooted && root != 0) v = V::invalid;
  const bool has_send = call != 0 && call != 15 && call != 17;  // bcast forms have one buffer
  // Counts that matter: the receive count always; the send count unless there is no
  // send buffer or it is MPI_IN_PLACE (then sendcount is ignored; a reduction's one
  // count is both).
  if (rcn < 0 || (has_send && !in_place && sc < 0) || (reduction && sc < 0)) v = V::invalid;
  if (has_send && !in_place && !st.valid) v = V::invalid;
  if (!rtype.valid) v = V::invalid;
  if (reduction) v = both(v, reduce_op_ok(op, st));
  if (!reduction && has_send && !in_place) v = both(v, signatures(st, sc, rt, rcn));
  // A NULL receive buffer is fine for no data; MPI_IN_PLACE as the receive buffer only
  // for the root of a scatter.
  if (null_recv) v = both(v, rcn == 0 ? V::either : V::invalid);
  if (in_place_recv) v = both(v, call == 1 || call == 2 || rcn == 0 ? V::either : V::invalid);
  // MPI_IN_PLACE as the send buffer: allowed by every call here except the bcast forms
  // (which have no send buffer) -- at the root for the rooted ones (we are the root).
  if (in_place && (call == 0 || call == 15 || call == 17)) v = both(v, V::either);
  if (in_place && (call == 1 || call == 2)) v = both(v, V::either);  // scatters: IN_PLACE goes in recvbuf

  int rc = MPI_SUCCESS;
  const char* name = "";
  MPI_Request req = MPI_REQUEST_NULL;
  bool request = false, persistent = false;
  switch (call) {
    case 0: name = "MPI_Bcast"; rc = MPI_Bcast(rbuf, rci, rtype.h, root, comm); break;
    case 1: name = "MPI_Scatter"; rc = MPI_Scatter(sbuf, sci, st.h, rbuf, rci, rt.h, root, comm); break;
    case 2: name = "MPI_Scatterv"; rc = MPI_Scatterv(sbuf, &sci, &sdisp, st.h, rbuf, rci, rt.h, root, comm); break;
    case 3: name = "MPI_Gather"; rc = MPI_Gather(sbuf, sci, st.h, rbuf, rci, rt.h, root, comm); break;
    case 4: name = "MPI_Gatherv"; rc = MPI_Gatherv(sbuf, sci, st.h, rbuf, &rci, &rdisp, rt.h, root, comm); break;
    case 5: name = "MPI_Reduce"; rc = MPI_Reduce(sbuf, rbuf, sci, st.h, op.h, root, comm); break;
    case 6: name = "MPI_Allreduce"; rc = MPI_Allreduce(sbuf, rbuf, sci, st.h, op.h, comm); break;
    case 7: name = "MPI_Reduce_scatter"; rc = MPI_Reduce_scatter(sbuf, rbuf, &rci, st.h, op.h, comm); break;
    case 8: name = "MPI_Reduce_scatter_block"; rc = MPI_Reduce_scatter_block(sbuf, rbuf, rci, st.h, op.h, comm); break;
    case 9: name = "MPI_Alltoall"; rc = MPI_Alltoall(sbuf, sci, st.h, rbuf, rci, rt.h, comm); break;
    case 10: name = "MPI_Alltoallv"; rc = MPI_Alltoallv(sbuf, &sci, &sdisp, st.h, rbuf, &rci, &rdisp, rt.h, comm); break;
    case 11:
      name = "MPI_Alltoallw";
      rc = MPI_Alltoallw(sbuf, &sci, &sdb, &st.h, rbuf, &rci, &rdb, &rt.h, comm);
      break;
    case 12: name = "MPI_Scan"; rc = MPI_Scan(sbuf, rbuf, sci, st.h, op.h, comm); break;
    case 13: name = "MPI_Exscan"; rc = MPI_Exscan(sbuf, rbuf, sci, st.h, op.h, comm); break;
    case 14: name = "MPI_Allgather"; rc = MPI_Allgather(sbuf, sci, st.h, rbuf, rci, rt.h, comm); break;
    case 15: name = "MPI_Ibcast"; rc = MPI_Ibcast(rbuf, rci, rtype.h, root, comm, &req); request = true; break;
    case 16: name = "MPI_Iallreduce"; rc = MPI_Iallreduce(sbuf, rbuf, sci, st.h, op.h, comm, &req); request = true; break;
    case 17:
      name = "MPI_Bcast_init";
      rc = MPI_Bcast_init(rbuf, rci, rtype.h, root, comm, MPI_INFO_NULL, &req);
      request = persistent = true;
      break;
    case 18: name = "MPI_Ireduce"; rc = MPI_Ireduce(sbuf, rbuf, sci, st.h, op.h, root, comm, &req); request = true; break;
    default:
      name = "MPI_Allreduce_init";
      rc = MPI_Allreduce_init(sbuf, rbuf, sci, st.h, op.h, comm, MPI_INFO_NULL, &req);
      request = persistent = true;
      break;
  }
  char what[256];
  std::snprintf(what, sizeof what, "%s(comm %s %d, displs %d %d, sendtype %d x%lld, recvtype %d x%lld, root %d, op %d, %s)", name,
                comm_ok ? "ok" : "bad", static_cast<int>(cb % g_comms.size()), sd, rd, static_cast<int>(&st - g_types.data()), static_cast<long long>(sc),
                static_cast<int>(&rt - g_types.data()), static_cast<long long>(rcn), root, static_cast<int>(op.id),
                in_place ? "send IN_PLACE" : in_place_recv ? "recv IN_PLACE" : null_recv ? "recv NULL" : "buffers");
  judge(what, rc, v, kCollErrors);
  if (rc == MPI_SUCCESS && request) {
    if (persistent) FUZZ_CHECK(MPI_Start(&req) == MPI_SUCCESS);
    MPI_Status st_{};
    const int wrc = MPI_Wait(&req, &st_);
    judge(name, wrc, v == V::valid ? V::valid : V::either, kCollErrors);
    if (persistent) FUZZ_CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
  }
  // Nothing outside the receive type map may ever change; a refused call changes
  // nothing, except that MPI_ERR_TRUNCATE may leave the part that fitted.
  const std::vector<bool> cov = r.covered();
  const bool truncated = rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_TRUNCATE;
  for (std::size_t i = 0; i < r.mem.size(); ++i) {
    if (!cov[i] || (rc != MPI_SUCCESS && !truncated)) {
      FUZZ_CHECK_MSG(r.mem[i] == rb0[i], "a collective wrote outside the receive type map, or failed and wrote");
    }
  }
  if (rc != MPI_SUCCESS) return;
  if (v != V::valid || in_place_recv || null_recv) return;
  // One rank: every collective delivers our own contribution (a reduction of one value
  // is that value); in place, the receive buffer keeps its contents; Exscan leaves it
  // undefined.
  if (call == 13) return;
  const std::vector<unsigned char> got = r.packed();
  if (call == 0 || call == 15 || call == 17 || in_place) {
    FUZZ_CHECK_MSG(got == rp0, "the buffer changed where it must not");
  } else {
    FUZZ_CHECK_MSG(got == sp, "received data differs from what was sent");
  }
}

// ---- set-up ------------------------------------------------------------------------------

// What init_once() made, freed at exit: the objects live as long as the process, and
// LeakSanitizer's exit check (replay driver under ASan) must not see them as leaks.
MPI_Datatype g_contig, g_vec, g_uncommitted;
MPI_Op g_user_op;

void teardown() {
  for (WinInfo& w : g_wins) {
    if (w.mem == g_dynamic_mem.data()) MPI_Win_detach(w.h, w.mem);
    MPI_Win_free(&w.h);
  }
  MPI_Comm_free(&g_comms[1]);
  MPI_Op_free(&g_user_op);
  for (MPI_Datatype* t : {&g_contig, &g_vec, &g_uncommitted}) MPI_Type_free(t);
  MPI_Finalize();
}

void init_once() {
  static bool done = false;
  if (done) return;
  done = true;
  unsetenv("SHMPI_JOB_ID");
  FUZZ_CHECK(MPI_Init(nullptr, nullptr) == MPI_SUCCESS);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

  MPI_Datatype &contig = g_contig, &vec = g_vec, &uncommitted = g_uncommitted, freed;
  MPI_Type_contiguous(2, MPI_INT, &contig);
  MPI_Type_commit(&contig);
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);  // ints at 0 and 8, extent 12
  MPI_Type_commit(&vec);
  MPI_Type_contiguous(3, MPI_INT, &uncommitted);
  MPI_Type_contiguous(4, MPI_INT, &freed);
  const MPI_Datatype freed_value = freed;
  MPI_Type_free(&freed);
  static int garbage;
  g_types = {
      {MPI_INT, true, kInt, 1, {{0, 4}}, 4},
      {MPI_DOUBLE, true, kDouble, 1, {{0, 8}}, 8},
      {MPI_BYTE, true, kByte, 1, {{0, 1}}, 1},
      {MPI_2INT, true, k2Int, 1, {{0, 8}}, 8},
      {contig, true, kInt, 2, {{0, 8}}, 8, true},
      {vec, true, kInt, 2, {{0, 4}, {8, 4}}, 12, true},
      {uncommitted, false, kInt, 3, {{0, 12}}, 12, true},
      {MPI_DATATYPE_NULL, false, kInt, 1, {{0, 4}}, 4},
      {freed_value, false, kInt, 4, {{0, 16}}, 16, true},
      {reinterpret_cast<MPI_Datatype>(&garbage), false, kInt, 1, {{0, 4}}, 4},
  };

  MPI_Op& user = g_user_op;
  MPI_Op freed_op;
  MPI_Op_create(xor_op, 1, &user);
  MPI_Op_create(xor_op, 1, &freed_op);
  const MPI_Op freed_op_value = freed_op;
  MPI_Op_free(&freed_op);
  g_ops = {{MPI_SUM, kSum},         {MPI_MAX, kMax},       {MPI_BAND, kBand},
           {MPI_MAXLOC, kMaxloc},   {MPI_REPLACE, kReplace}, {MPI_NO_OP, kNoOp},
           {user, kUser},           {MPI_OP_NULL, kBadOp}, {freed_op_value, kBadOp},
           {reinterpret_cast<MPI_Op>(&garbage), kBadOp}};

  MPI_Comm dup;
  FUZZ_CHECK(MPI_Comm_dup(MPI_COMM_SELF, &dup) == MPI_SUCCESS);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  g_comms = {MPI_COMM_SELF, dup, MPI_COMM_WORLD};

  // One window of each flavour over 256 bytes, errors returned.
  WinInfo a, c, d, s;
  FUZZ_CHECK(MPI_Win_allocate(kWinBytes, 4, MPI_INFO_NULL, MPI_COMM_SELF, &a.mem, &a.h) == MPI_SUCCESS);
  a.disp_unit = 4;
  FUZZ_CHECK(MPI_Win_create(g_create_mem.data(), kWinBytes, 1, MPI_INFO_NULL, MPI_COMM_SELF, &c.h) == MPI_SUCCESS);
  c.mem = g_create_mem.data();
  FUZZ_CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &d.h) == MPI_SUCCESS);
  FUZZ_CHECK(MPI_Win_attach(d.h, g_dynamic_mem.data(), kWinBytes) == MPI_SUCCESS);
  d.mem = g_dynamic_mem.data();
  MPI_Get_address(d.mem, &d.disp_base);
  FUZZ_CHECK(MPI_Win_allocate_shared(kWinBytes, 8, MPI_INFO_NULL, MPI_COMM_SELF, &s.mem, &s.h) == MPI_SUCCESS);
  s.disp_unit = 8;
  for (WinInfo* w : {&a, &c, &d, &s}) {
    w->valid = true;
    MPI_Win_set_errhandler(w->h, MPI_ERRORS_RETURN);
    g_wins.push_back(*w);
  }
  std::atexit(teardown);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  init_once();
  Input in(data, size);
  for (int step = 0; step < 12 && !in.empty(); ++step) {
    if (in.u8() & 1) {
      rma_epoch(in);
    } else {
      coll_call(in);
    }
  }
  return 0;
}
