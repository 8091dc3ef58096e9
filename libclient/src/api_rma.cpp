// MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
// MPI_Compare_and_swap, their request (R-) and large-count (_c) variants (MPI-4.1 13.3).
//
// Each call: window, epoch (MPI_ERR_RMA_SYNC), target rank (MPI_PROC_NULL: no-op),
// counts and datatypes, then the target range against the target's window
// (MPI_ERR_RMA_RANGE, checked before a byte moves, so a failed call never writes), then
// rma/data_path.cpp. Accumulate-family calls take predefined ops only (no user ops,
// MPI-4.1 13.3.4) on datatypes whose basic components are all one predefined type.
#include <cstring>

#include "api.hpp"
#include "ops/datatype_elem.hpp"
#include "ops/op_table.hpp"
#include "request/request.hpp"
#include "rma/data_path.hpp"
#include "rma/fast_path.hpp"
#include "rma/window.hpp"
#include "types/datatype.hpp"
#include "types/status.hpp"

using namespace shmpi::client;
namespace types = shmpi::client::types;
namespace ops = shmpi::ops;
namespace dp = shmpi::client::rma;

namespace {

// Predefined op handle → OpKind (MPI-5.0 ABI values 0x20..0x3f).
bool predefined_op(MPI_Op op, ops::OpKind& k) {
  switch (reinterpret_cast<std::uintptr_t>(op)) {
    case 0x21: k = ops::OpKind::sum; return true;
    case 0x22: k = ops::OpKind::min; return true;
    case 0x23: k = ops::OpKind::max; return true;
    case 0x24: k = ops::OpKind::prod; return true;
    case 0x28: k = ops::OpKind::band; return true;
    case 0x29: k = ops::OpKind::bor; return true;
    case 0x2a: k = ops::OpKind::bxor; return true;
    case 0x30: k = ops::OpKind::land; return true;
    case 0x31: k = ops::OpKind::lor; return true;
    case 0x32: k = ops::OpKind::lxor; return true;
    case 0x38: k = ops::OpKind::minloc; return true;
    case 0x39: k = ops::OpKind::maxloc; return true;
    case 0x3c: k = ops::OpKind::replace; return true;
    case 0x3d: k = ops::OpKind::no_op; return true;
    default: return false;
  }
}

std::string str(long long v) { return std::to_string(v); }

// Window + target rank + epoch. Returns nullptr with rc set (or rc = MPI_SUCCESS and
// proc_null = true for MPI_PROC_NULL).
WinObj* rma_win(MPI_Win win, int target, const char* call, int& rc, bool& proc_null) {
  proc_null = false;
  if (!initialized()) {
    rc = not_initialized(call);
    return nullptr;
  }
  WinObj* w = to_win(win);
  if (w == nullptr) {
    rc = raise(nullptr, MPI_ERR_WIN, std::string(call) + ": win is " + (win == MPI_WIN_NULL ? "MPI_WIN_NULL" : "not a valid window"));
    return nullptr;
  }
  if (target == MPI_PROC_NULL) {
    proc_null = true;
    rc = MPI_SUCCESS;
    return nullptr;
  }
  if (target < 0 || target >= w->size) {
    rc = raise_win(w, MPI_ERR_RANK, std::string(call) + ": target_rank " + str(target) + " is not in the window's group (size " + str(w->size) + ")");
    return nullptr;
  }
  if (!w->access_epoch_to(target)) {
    rc = raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": no access epoch to target " + str(target) +
                                            " (call MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first)");
    return nullptr;
  }
  return w;
}

// Request-based RMA calls are only valid in passive-target epochs (MPI-4.1 13.3.5).
bool passive_epoch(WinObj* w, int target, const char* call, int& rc) {
  if (w->lock_all != 0 || w->held[static_cast<std::size_t>(target)] != HeldLock::none) return true;
  rc = raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": request-based RMA needs a passive-target epoch (MPI_Win_lock or MPI_Win_lock_all) on target " + str(target));
  return false;
}

// A count + datatype argument.
bool side_arg(WinObj* w, MPI_Count count, MPI_Datatype dt, const char* call, const char* what, dp::Side& s, int& rc) {
  if (count < 0) {
    rc = raise_win(w, MPI_ERR_COUNT, std::string(call) + ": " + what + "_count " + str(count) + " is negative");
    return false;
  }
  types::Datatype* t = types::lookup(dt);
  if (t == nullptr || !t->committed) {
    rc = raise_win(w, MPI_ERR_TYPE, std::string(call) + ": " + what + "_datatype is " +
                                        (dt == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : t == nullptr ? "not a valid datatype" : "not committed"));
    return false;
  }
  const types::Flat* f = types::flatten(t);
  if (f == nullptr) {
    rc = raise_win(w, MPI_ERR_NO_MEM, std::string(call) + ": " + what + "_datatype is too fragmented to flatten");
    return false;
  }
  s.count = count;
  s.type = t;
  s.flat = f;
  return true;
}

// Checks [disp*unit + range of the target type map) against the target's window and
// sets tgt.addr to the window offset (dynamic windows: the absolute address).
bool target_range(WinObj* w, int target, MPI_Aint disp, dp::Side& tgt, const char* call, int& rc) {
  const WinTarget& d = w->targets[static_cast<std::size_t>(target)];
  const bool dynamic = w->flavor == shmpi::layout::WinFlavor::dynamic;
  const std::int64_t unit = dynamic ? 1 : d.disp_unit;
  std::int64_t start = 0;
  bool bad = __builtin_mul_overflow(static_cast<std::int64_t>(disp), unit, &start);
  std::int64_t lo = start, hi = start;
  if (!bad && tgt.count > 0 && tgt.type->size > 0) {
    const std::int64_t ext = tgt.type->extent();
    std::int64_t span = 0;
    bad = __builtin_mul_overflow(static_cast<std::int64_t>(tgt.count - 1), ext, &span);
    if (!bad) {
      bad = __builtin_add_overflow(start, tgt.type->true_lb + (span < 0 ? span : 0), &lo) ||
            __builtin_add_overflow(start, tgt.type->true_ub + (span > 0 ? span : 0), &hi);
    }
  }
  auto fail = [&](const std::string& what) {
    rc = raise_win(w, MPI_ERR_RMA_RANGE, std::string(call) + ": target_disp " + str(disp) + " with target_count " + str(tgt.count) +
                                             " reaches " + what);
    return false;
  };
  if (bad) return fail("beyond the address range");
  if (hi > lo) {
    if (dynamic) {
      const shmpi::layout::AttachTable& a = w->attach_table(target);
      bool inside = false;
      for (const auto& r : a.regions) {
        if (r.base != 0 && static_cast<std::uint64_t>(lo) >= r.base && static_cast<std::uint64_t>(hi) <= r.base + r.size) {
          inside = true;
          break;
        }
      }
      if (!inside) return fail("bytes [" + str(lo) + ", " + str(hi) + ") that no region attached at target " + str(target) + " covers");
    } else if (lo < 0 || static_cast<std::uint64_t>(hi) > d.size) {
      return fail("bytes [" + str(lo) + ", " + str(hi) + ") outside target " + str(target) + "'s window of " + str(static_cast<long long>(d.size)) + " bytes");
    }
  }
  tgt.addr = reinterpret_cast<std::byte*>(static_cast<std::intptr_t>(start));
  return true;
}

// MPI_BOTTOM is NULL: a NULL buffer is valid only for datatypes whose displacements are
// absolute addresses. One whose bytes would start in the never-mapped first page is a
// NULL pointer with a relative datatype, which would fault in the data path.
bool null_buffer(WinObj* w, const void* addr, const dp::Side& s, const char* call, const char* what, int& rc) {
  if (addr != nullptr || s.count == 0 || s.type->size == 0) return false;
  MPI_Count span = 0, lo = 0;
  if (__builtin_mul_overflow(s.count - 1, s.type->extent(), &span) ||
      __builtin_add_overflow(s.type->true_lb, span < 0 ? span : 0, &lo) || lo >= 4096) {
    return false;  // starts past the first page (or beyond any address): not a NULL buffer
  }
  rc = raise_win(w, MPI_ERR_BUFFER, std::string(call) + ": " + what + "_addr is NULL (MPI_BOTTOM) with a datatype of relative displacements");
  return true;
}

bool same_size(WinObj* w, const dp::Side& a, const dp::Side& b, const char* call, const char* an, const char* bn, int& rc) {
  if (a.count * a.type->size == b.count * b.type->size) return true;
  rc = raise_win(w, MPI_ERR_TYPE, std::string(call) + ": " + an + " (" + str(a.count * a.type->size) + " bytes) and " + bn + " (" +
                                      str(b.count * b.type->size) + " bytes) have different type signatures");
  return false;
}

// Called once a call's arguments all passed, just before it moves data: only then does
// it use the fence epoch (a failed call leaves the window as it was).
void count_call(WinObj* w, shmpi::layout::RmaCall c) {
  w->fence_used = true;
  w->count(c);
}

int finish(WinObj* w, int cls, const std::string& why, const char* call) {
  if (cls == MPI_SUCCESS) return MPI_SUCCESS;
  return raise_win(w, cls, std::string(call) + ": " + why);
}

// The accumulate op and element: predefined op, valid for the one basic type of `t`.
bool acc_spec(WinObj* w, MPI_Op op, const types::Datatype* t, const char* call, dp::AccSpec& acc, int& rc) {
  ops::OpKind k{};
  if (!predefined_op(op, k)) {
    rc = raise_win(w, MPI_ERR_OP, std::string(call) + ": op must be a predefined operation (user-defined ops are not allowed in accumulate calls, MPI-4.1 13.3.4)");
    return false;
  }
  ops::ElemInfo info{};
  const auto basic = reinterpret_cast<MPI_Datatype>(t->basic);
  if (t->basic != 0 && (k == ops::OpKind::replace || k == ops::OpKind::no_op) && !ops::elem_of(basic, info)) {
    // REPLACE and NO_OP take every predefined type, also those without an op kernel.
    acc.op = k;
    acc.elem = ops::Elem::byte;
    acc.elem_size = static_cast<std::uint32_t>(types::lookup(basic)->size);
    acc.kernel = k == ops::OpKind::no_op ? nullptr : ops::kernel(k, ops::Elem::byte);
    acc.bytes_only = true;
    return true;
  }
  if (t->basic == 0 || !ops::elem_of(basic, info)) {
    rc = raise_win(w, MPI_ERR_TYPE, std::string(call) + ": the datatype's basic components must all be one predefined type with an accumulate kernel" +
                                        (t->basic != 0 ? " (basic type " + types::lookup(basic)->name + " has none)" : std::string(" (they are mixed)")));
    return false;
  }
  if (!ops::op_valid(k, info.group, ops::strict_types())) {
    rc = raise_win(w, MPI_ERR_OP, std::string(call) + ": this op is not defined on the datatype's basic type (MPI-4.1 6.9.2)");
    return false;
  }
  acc.op = k;
  acc.elem = info.elem;
  types::Datatype* b = types::lookup(basic);
  acc.elem_size = static_cast<std::uint32_t>(b->size);
  if (b->size != b->extent()) {  // a pair type with padding
    acc.elem_size = static_cast<std::uint32_t>(b->extent());
    acc.pair = types::flatten(b);
    acc.pair_size = static_cast<std::uint32_t>(b->size);
  }
  acc.kernel = k == ops::OpKind::no_op ? nullptr : ops::kernel(k, info.elem);
  return true;
}

MPI_Request rma_request(WinObj* w, MPI_Count bytes) {
  MPI_Status st{};
  set_empty_status(st);
  st.MPI_SOURCE = MPI_PROC_NULL;
  st.MPI_TAG = MPI_ANY_TAG;
  st.MPI_ERROR = MPI_SUCCESS;
  types::set_status_bytes(st, bytes);
  MPI_Request r = new_completed_request(RequestObj::Kind::rma, st);
  (void)w;
  return r;
}

int do_put(const void* oaddr, MPI_Count ocount, MPI_Datatype otype, int target, MPI_Aint disp, MPI_Count tcount,
           MPI_Datatype ttype, MPI_Win win, const char* call, MPI_Request* req) {
  if (req != nullptr) *req = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  bool pn = false;
  WinObj* w = rma_win(win, target, call, rc, pn);
  if (w == nullptr) {
    if (pn && req != nullptr) *req = rma_request(nullptr, 0);
    return rc;
  }
  if (req != nullptr && !passive_epoch(w, target, call, rc)) return rc;
  dp::Side o, t;
  if (!side_arg(w, ocount, otype, call, "origin", o, rc) || !side_arg(w, tcount, ttype, call, "target", t, rc)) return rc;
  if (!same_size(w, o, t, call, "origin", "target", rc) || !target_range(w, target, disp, t, call, rc)) return rc;
  if (null_buffer(w, oaddr, o, call, "origin", rc)) return rc;
  o.addr = static_cast<std::byte*>(const_cast<void*>(oaddr));
  count_call(w, shmpi::layout::RmaCall::put);
  w->unfenced = true;
  std::string why;
  const int cls = dp::put(*w, target, o, t, why);
  if (cls != MPI_SUCCESS) return finish(w, cls, why, call);
  if (req != nullptr) *req = rma_request(w, o.count * o.type->size);
  return MPI_SUCCESS;
}

int do_get(void* oaddr, MPI_Count ocount, MPI_Datatype otype, int target, MPI_Aint disp, MPI_Count tcount,
           MPI_Datatype ttype, MPI_Win win, const char* call, MPI_Request* req) {
  if (req != nullptr) *req = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  bool pn = false;
  WinObj* w = rma_win(win, target, call, rc, pn);
  if (w == nullptr) {
    if (pn && req != nullptr) *req = rma_request(nullptr, 0);
    return rc;
  }
  if (req != nullptr && !passive_epoch(w, target, call, rc)) return rc;
  dp::Side o, t;
  if (!side_arg(w, ocount, otype, call, "origin", o, rc) || !side_arg(w, tcount, ttype, call, "target", t, rc)) return rc;
  if (!same_size(w, o, t, call, "origin", "target", rc) || !target_range(w, target, disp, t, call, rc)) return rc;
  if (null_buffer(w, oaddr, o, call, "origin", rc)) return rc;
  o.addr = static_cast<std::byte*>(oaddr);
  count_call(w, shmpi::layout::RmaCall::get);
  std::string why;
  const int cls = dp::get(*w, target, o, t, why);
  if (cls != MPI_SUCCESS) return finish(w, cls, why, call);
  if (req != nullptr) *req = rma_request(w, o.count * o.type->size);
  return MPI_SUCCESS;
}

int do_acc(const void* oaddr, MPI_Count ocount, MPI_Datatype otype, void* raddr, MPI_Count rcount, MPI_Datatype rtype,
           bool fetch, int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win,
           const char* call, MPI_Request* req) {
  if (req != nullptr) *req = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  bool pn = false;
  WinObj* w = rma_win(win, target, call, rc, pn);
  if (w == nullptr) {
    if (pn && req != nullptr) *req = rma_request(nullptr, 0);
    return rc;
  }
  if (req != nullptr && !passive_epoch(w, target, call, rc)) return rc;
  dp::Side o, r, t;
  if (!side_arg(w, tcount, ttype, call, "target", t, rc)) return rc;
  dp::AccSpec acc{};
  if (!acc_spec(w, op, t.type, call, acc, rc)) return rc;
  const bool no_op = acc.op == shmpi::ops::OpKind::no_op;
  if (no_op && !fetch) {
    return raise_win(w, MPI_ERR_OP, std::string(call) + ": MPI_NO_OP is only for MPI_Get_accumulate and MPI_Fetch_and_op (MPI-4.1 13.3.4)");
  }
  // MPI_NO_OP in MPI_Get_accumulate: the origin arguments are ignored (MPI-4.1 13.3.4.2).
  if (!(fetch && no_op)) {
    if (!side_arg(w, ocount, otype, call, "origin", o, rc)) return rc;
    if (o.type->basic != t.type->basic && o.count * o.type->size != 0) {
      return raise_win(w, MPI_ERR_TYPE, std::string(call) + ": origin_datatype and target_datatype are built from different basic types");
    }
    if (!same_size(w, o, t, call, "origin", "target", rc) || null_buffer(w, oaddr, o, call, "origin", rc)) return rc;
    o.addr = static_cast<std::byte*>(const_cast<void*>(oaddr));
  }
  if (fetch) {
    if (!side_arg(w, rcount, rtype, call, "result", r, rc)) return rc;
    if (r.type->basic != t.type->basic && r.count * r.type->size != 0) {
      return raise_win(w, MPI_ERR_TYPE, std::string(call) + ": result_datatype and target_datatype are built from different basic types");
    }
    if (!same_size(w, r, t, call, "result", "target", rc) || null_buffer(w, raddr, r, call, "result", rc)) return rc;
    r.addr = static_cast<std::byte*>(raddr);
  }
  if (!target_range(w, target, disp, t, call, rc)) return rc;
  count_call(w, fetch ? shmpi::layout::RmaCall::get_acc : shmpi::layout::RmaCall::acc);
  w->unfenced = true;
  std::string why;
  const int cls = dp::accumulate(*w, target, o, fetch ? &r : nullptr, t, acc, why);
  if (cls != MPI_SUCCESS) return finish(w, cls, why, call);
  if (req != nullptr) *req = rma_request(w, fetch ? r.count * r.type->size : o.count * o.type->size);
  return MPI_SUCCESS;
}

// The single-element fast path (rma/fast_path.hpp): true when it did the whole call.
bool fast_fetch_op(const void* origin, void* result, MPI_Datatype dt, int target, MPI_Aint disp, MPI_Op op, MPI_Win win,
                   shmpi::layout::RmaCall kind) {
  WinObj* w = dp::cached_win(win);
  if (w == nullptr) return false;
  const dp::FastAcc* f = dp::fast_acc(op, dt);
  if (f == nullptr) return false;
  std::byte* p = dp::fast_target(*w, target, disp, f->size, f->elem);
  if (p == nullptr || !w->access_epoch_to(target)) return false;
  if (origin == nullptr && reinterpret_cast<std::uintptr_t>(op) != 0x3d) return false;
  if (w->exclusive_on(target)) f->atomic(origin, p, result);
  else if (!dp::announced(*w, target, [&] { f->atomic(origin, p, result); })) return false;
  w->fence_used = true;
  w->count(kind);
  return true;
}

}  // namespace

extern "C" {

int PMPI_Put(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win) {
  return do_put(oa, oc, ot, tr, td, tc, tt, win, "MPI_Put", nullptr);
}
int PMPI_Put_c(const void* oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Win win) {
  return do_put(oa, oc, ot, tr, td, tc, tt, win, "MPI_Put_c", nullptr);
}
int PMPI_Rput(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win, MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Rput: request is NULL");
  return do_put(oa, oc, ot, tr, td, tc, tt, win, "MPI_Rput", rq);
}
int PMPI_Rput_c(const void* oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Win win,
                MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Rput_c: request is NULL");
  return do_put(oa, oc, ot, tr, td, tc, tt, win, "MPI_Rput_c", rq);
}
int PMPI_Get(void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win) {
  return do_get(oa, oc, ot, tr, td, tc, tt, win, "MPI_Get", nullptr);
}
int PMPI_Get_c(void* oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Win win) {
  return do_get(oa, oc, ot, tr, td, tc, tt, win, "MPI_Get_c", nullptr);
}
int PMPI_Rget(void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Win win, MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Rget: request is NULL");
  return do_get(oa, oc, ot, tr, td, tc, tt, win, "MPI_Rget", rq);
}
int PMPI_Rget_c(void* oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Win win,
                MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Rget_c: request is NULL");
  return do_get(oa, oc, ot, tr, td, tc, tt, win, "MPI_Rget_c", rq);
}
int PMPI_Accumulate(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                    MPI_Win win) {
  if (oc == 1 && tc == 1 && ot == tt && oa != nullptr && op != MPI_NO_OP &&
      fast_fetch_op(oa, nullptr, ot, tr, td, op, win, shmpi::layout::RmaCall::acc)) {
    return MPI_SUCCESS;
  }
  return do_acc(oa, oc, ot, nullptr, 0, MPI_DATATYPE_NULL, false, tr, td, tc, tt, op, win, "MPI_Accumulate", nullptr);
}
int PMPI_Accumulate_c(const void* oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td, MPI_Count tc, MPI_Datatype tt,
                      MPI_Op op, MPI_Win win) {
  return do_acc(oa, oc, ot, nullptr, 0, MPI_DATATYPE_NULL, false, tr, td, tc, tt, op, win, "MPI_Accumulate_c", nullptr);
}
int PMPI_Raccumulate(const void* oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                     MPI_Win win, MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Raccumulate: request is NULL");
  return do_acc(oa, oc, ot, nullptr, 0, MPI_DATATYPE_NULL, false, tr, td, tc, tt, op, win, "MPI_Raccumulate", rq);
}
int PMPI_Raccumulate_c(const void* oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td, MPI_Count tc, MPI_Datatype tt,
                       MPI_Op op, MPI_Win win, MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Raccumulate_c: request is NULL");
  return do_acc(oa, oc, ot, nullptr, 0, MPI_DATATYPE_NULL, false, tr, td, tc, tt, op, win, "MPI_Raccumulate_c", rq);
}
int PMPI_Get_accumulate(const void* oa, int oc, MPI_Datatype ot, void* ra, int rc, MPI_Datatype rt, int tr, MPI_Aint td,
                        int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win) {
  if (rc == 1 && tc == 1 && rt == tt && ra != nullptr && (op == MPI_NO_OP || (oc == 1 && ot == tt && oa != nullptr)) &&
      fast_fetch_op(op == MPI_NO_OP ? nullptr : oa, ra, tt, tr, td, op, win, shmpi::layout::RmaCall::get_acc)) {
    return MPI_SUCCESS;
  }
  return do_acc(oa, oc, ot, ra, rc, rt, true, tr, td, tc, tt, op, win, "MPI_Get_accumulate", nullptr);
}
int PMPI_Get_accumulate_c(const void* oa, MPI_Count oc, MPI_Datatype ot, void* ra, MPI_Count rc, MPI_Datatype rt, int tr,
                          MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Op op, MPI_Win win) {
  return do_acc(oa, oc, ot, ra, rc, rt, true, tr, td, tc, tt, op, win, "MPI_Get_accumulate_c", nullptr);
}
int PMPI_Rget_accumulate(const void* oa, int oc, MPI_Datatype ot, void* ra, int rc, MPI_Datatype rt, int tr, MPI_Aint td,
                         int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Rget_accumulate: request is NULL");
  return do_acc(oa, oc, ot, ra, rc, rt, true, tr, td, tc, tt, op, win, "MPI_Rget_accumulate", rq);
}
int PMPI_Rget_accumulate_c(const void* oa, MPI_Count oc, MPI_Datatype ot, void* ra, MPI_Count rc, MPI_Datatype rt, int tr,
                           MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request* rq) {
  if (rq == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Rget_accumulate_c: request is NULL");
  return do_acc(oa, oc, ot, ra, rc, rt, true, tr, td, tc, tt, op, win, "MPI_Rget_accumulate_c", rq);
}

// One element of a predefined datatype (MPI-4.1 13.3.4.3): the common case of every
// RMA benchmark and shared counter, so it skips the general machinery.
int PMPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype dt, int target, MPI_Aint disp, MPI_Op op, MPI_Win win) {
  if (result != nullptr && fast_fetch_op(origin, result, dt, target, disp, op, win, shmpi::layout::RmaCall::fetch_and_op)) {
    return MPI_SUCCESS;
  }
  constexpr const char* call = "MPI_Fetch_and_op";
  int rc = MPI_SUCCESS;
  bool pn = false;
  WinObj* w = rma_win(win, target, call, rc, pn);
  if (w == nullptr) return rc;
  types::Datatype* t = types::lookup(dt);
  if (t == nullptr || !t->predefined) {
    return raise_win(w, MPI_ERR_TYPE, std::string(call) + ": datatype must be a predefined datatype");
  }
  dp::AccSpec acc{};
  if (!acc_spec(w, op, t, call, acc, rc)) return rc;
  if (result == nullptr) return raise_win(w, MPI_ERR_BUFFER, std::string(call) + ": result_addr is NULL");
  if (origin == nullptr && acc.op != ops::OpKind::no_op) {
    return raise_win(w, MPI_ERR_BUFFER, std::string(call) + ": origin_addr is NULL (only MPI_NO_OP ignores it)");
  }
  dp::Side s;
  s.count = 1;
  s.type = t;
  s.flat = types::flatten(t);
  if (!target_range(w, target, disp, s, call, rc)) return rc;
  count_call(w, shmpi::layout::RmaCall::fetch_and_op);
  w->unfenced = true;
  std::string why;
  const int cls = dp::fetch_and_op(*w, target, origin, result, static_cast<std::uint64_t>(reinterpret_cast<std::intptr_t>(s.addr)),
                                   acc, why);
  return finish(w, cls, why, call);
}

int PMPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype dt, int target, MPI_Aint disp,
                          MPI_Win win) {
  if (WinObj* w = dp::cached_win(win); w != nullptr && origin != nullptr && compare != nullptr && result != nullptr) {
    if (const dp::FastCas* f = dp::fast_cas(dt)) {
      std::byte* p = dp::fast_target(*w, target, disp, f->size, f->elem);
      if (p != nullptr && w->access_epoch_to(target)) {
        bool done = true;
        if (w->exclusive_on(target)) f->cas(origin, compare, p, result);
        else done = dp::announced(*w, target, [&] { f->cas(origin, compare, p, result); });
        if (done) {
          w->fence_used = true;
          w->count(shmpi::layout::RmaCall::cas);
          return MPI_SUCCESS;
        }
      }
    }
  }
  constexpr const char* call = "MPI_Compare_and_swap";
  int rc = MPI_SUCCESS;
  bool pn = false;
  WinObj* w = rma_win(win, target, call, rc, pn);
  if (w == nullptr) return rc;
  types::Datatype* t = types::lookup(dt);
  ops::ElemInfo info{};
  // C integer, Fortran integer, logical, multi-language and byte types (MPI-4.1 13.3.4.4).
  const bool allowed = t != nullptr && t->predefined && ops::elem_of(dt, info) &&
                       (info.group == ops::TypeGroup::c_integer || info.group == ops::TypeGroup::fortran_integer ||
                        info.group == ops::TypeGroup::logical || info.group == ops::TypeGroup::multi_language ||
                        info.group == ops::TypeGroup::byte ||
                        (info.group == ops::TypeGroup::character && !ops::strict_types()));
  if (!allowed) {
    return raise_win(w, MPI_ERR_TYPE, std::string(call) + ": datatype must be a predefined integer, logical, byte or multi-language type");
  }
  if (origin == nullptr || compare == nullptr || result == nullptr) {
    return raise_win(w, MPI_ERR_BUFFER, std::string(call) + ": origin_addr, compare_addr and result_addr must not be NULL");
  }
  dp::Side s;
  s.count = 1;
  s.type = t;
  s.flat = types::flatten(t);
  if (!target_range(w, target, disp, s, call, rc)) return rc;
  count_call(w, shmpi::layout::RmaCall::cas);
  w->unfenced = true;
  std::string why;
  const int cls = dp::compare_and_swap(*w, target, origin, compare, result,
                                       static_cast<std::uint64_t>(reinterpret_cast<std::intptr_t>(s.addr)), info.elem,
                                       static_cast<std::uint32_t>(t->size), why);
  return finish(w, cls, why, call);
}

}  // extern "C"

SHMPI_PMPI_ALIAS(int, MPI_Put, (const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Put_c, (const void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Rput, (const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Rput_c,
                 (const void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Get, (void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Get_c, (void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Rget, (void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Rget_c, (void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Accumulate, (const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Accumulate_c,
                 (const void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Op, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Raccumulate,
                 (const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Raccumulate_c,
                 (const void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Op, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Get_accumulate,
                 (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Get_accumulate_c,
                 (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype,
                  MPI_Op, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Rget_accumulate,
                 (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win,
                  MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Rget_accumulate_c,
                 (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Aint, MPI_Count, MPI_Datatype,
                  MPI_Op, MPI_Win, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Fetch_and_op, (const void*, void*, MPI_Datatype, int, MPI_Aint, MPI_Op, MPI_Win))
SHMPI_PMPI_ALIAS(int, MPI_Compare_and_swap, (const void*, const void*, void*, MPI_Datatype, int, MPI_Aint, MPI_Win))
