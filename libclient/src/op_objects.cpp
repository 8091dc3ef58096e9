#include "op_objects.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <mutex>
#include <utility>
#include <unordered_set>

namespace shmpi::client {
namespace {

using ops::OpKind;

struct Predefined {
  MPI_Op handle;
  OpObj obj;
};

Predefined g_predefined[] = {
    {MPI_MAX, {false, OpKind::max}},       {MPI_MIN, {false, OpKind::min}},
    {MPI_SUM, {false, OpKind::sum}},       {MPI_PROD, {false, OpKind::prod}},
    {MPI_LAND, {false, OpKind::land}},     {MPI_BAND, {false, OpKind::band}},
    {MPI_LOR, {false, OpKind::lor}},       {MPI_BOR, {false, OpKind::bor}},
    {MPI_LXOR, {false, OpKind::lxor}},     {MPI_BXOR, {false, OpKind::bxor}},
    {MPI_MINLOC, {false, OpKind::minloc}}, {MPI_MAXLOC, {false, OpKind::maxloc}},
    {MPI_REPLACE, {false, OpKind::replace}}, {MPI_NO_OP, {false, OpKind::no_op}},
};

// The predefined handles are mpi.h's small constants (0x20..0x3f, the MPI ABI's): a
// table indexed by handle - kFirstHandle finds one in a load, where a search of
// g_predefined cost ~70 instructions per reduction with a user op (which it misses).
constexpr std::uintptr_t kFirstHandle = 0x20, kHandleSlots = 0x20;
std::array<OpObj*, kHandleSlots> g_by_handle = [] {
  std::array<OpObj*, kHandleSlots> t{};
  for (Predefined& p : g_predefined) {
    const std::uintptr_t i = reinterpret_cast<std::uintptr_t>(p.handle) - kFirstHandle;
    if (i >= kHandleSlots) std::abort();  // mpi.h and this table disagree
    t[i] = &p.obj;
  }
  return t;
}();

std::mutex g_mutex;
std::unordered_set<OpObj*> g_user_ops;  // live user ops (handle or call references)

}  // namespace

namespace {
// The last user op this thread validated, with a reference of its own: a reduction
// with a user op in a loop validates the same handle every call, and this answers
// without the registry's mutex. The reference keeps the object (not the handle: see
// `freed`) alive; it is dropped when the thread validates another user op, or exits.
struct LastOp {
  OpObj* o = nullptr;
  ~LastOp() {
    if (o != nullptr) release_op(o);
  }
};
thread_local LastOp t_last;
}  // namespace

OpObj* borrow_op(MPI_Op op) {
  const std::uintptr_t i = reinterpret_cast<std::uintptr_t>(op) - kFirstHandle;
  if (i < kHandleSlots) return g_by_handle[i];  // null: MPI_OP_NULL or no op
  auto* o = reinterpret_cast<OpObj*>(op);
  if (o != nullptr && o == t_last.o) return o->freed.load(std::memory_order_acquire) ? nullptr : o;
  OpObj* dropped = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_user_ops.count(o) == 0 || o->freed.load(std::memory_order_acquire)) return nullptr;
    o->refs.fetch_add(1, std::memory_order_relaxed);  // the cache's
    dropped = std::exchange(t_last.o, o);
  }
  if (dropped != nullptr) release_op(dropped);
  return o;
}

OpObj* acquire_op(MPI_Op op) {
  OpObj* o = borrow_op(op);
  return o != nullptr ? retain_op(o) : nullptr;  // the caller's reference
}

void release_op(OpObj* o) {
  if (!o->user) return;
  if (o->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_user_ops.erase(o);
    delete o;
  }
}

MPI_Op new_user_op(MPI_User_function* fn, MPI_User_function_c* fn_c, bool commute) {
  auto* o = new OpObj;
  o->user = true;
  o->fn = fn;
  o->fn_c = fn_c;
  o->commute = commute;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_user_ops.insert(o);
  return reinterpret_cast<MPI_Op>(o);
}

void call_user_op(const OpObj& o, const void* in, void* inout, MPI_Count count, MPI_Datatype dt, MPI_Count extent) {
  if (o.fn_c != nullptr) {
    MPI_Count len = count;
    o.fn_c(const_cast<void*>(in), inout, &len, &dt);
    return;
  }
  auto* a = static_cast<const std::byte*>(in);
  auto* b = static_cast<std::byte*>(inout);
  while (count > 0) {
    int len = count > INT_MAX ? INT_MAX : static_cast<int>(count);
    const MPI_Count done = len;
    o.fn(const_cast<std::byte*>(a), b, &len, &dt);
    a += done * extent;
    b += done * extent;
    count -= done;
  }
}

}  // namespace shmpi::client
