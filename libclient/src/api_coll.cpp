// Collectives (MPI-4.1 6): argument checks into a coll::Plan (coll/plan.hpp), then
// run at once (blocking), started (nonblocking, 6.12: run at issue when it need not
// wait, else deferred or on a task) or kept for every MPI_Start (persistent, 6.13;
// coll/nbc.hpp). An invalid communicator or root returns at once
// (every member passes the same one); any other invalid argument is this rank's own, so
// the rank still takes part in the call without data (coll/collectives.hpp) and then
// reports the error: the other members do not hang, and those that needed its data fail
// with MPI_ERR_OTHER naming it. A nonblocking call with such an argument returns the
// error at once (no request) while its sit-out runs in the background; a persistent
// one returns it from MPI_*_init, before any member can have started.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "api.hpp"
#include "api_datatype.hpp"
#include "coll/lean_allreduce.hpp"
#include "coll/nbc.hpp"
#include "coll/plan.hpp"
#include "info/info.hpp"
#include "ops/datatype_elem.hpp"
#include "ops/op_table.hpp"

using namespace shmpi::client;
using coll::Buf;
using coll::Plan;
using coll::PlanKind;

namespace {

// How a call was issued: MPI_X, MPI_Ix or MPI_X_init.
enum class Mode : std::uint8_t { blocking, nonblocking, persistent };
struct Tail {
  Mode mode = Mode::blocking;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Request* request = nullptr;
  coll::CollRequest* r = nullptr;  // the request being built (persistent)
};
Tail blocking() { return Tail{}; }
Tail nonblocking(MPI_Request* req) { return Tail{Mode::nonblocking, MPI_INFO_NULL, req, nullptr}; }
Tail persistent(MPI_Info info, MPI_Request* req) { return Tail{Mode::persistent, info, req, nullptr}; }

// The first invalid argument found, recorded in the plan (later checks are skipped).
struct Check {
  explicit Check(Plan& plan) : p(plan) {}
  Plan& p;
  bool ok() const { return p.ok(); }
  [[gnu::cold]] void fail(int k, const std::string& m) {
    if (!ok()) return;
    p.cls = k;
    p.msg = std::string(p.call) + ": " + m;
  }
  // A count + datatype argument; fills b.
  void buf(const void* addr, MPI_Count count, MPI_Datatype dt, const char* what, Buf& b) {
    types::Datatype* t = nullptr;
    const types::Flat* f = nullptr;
    if (resolve(addr, count, dt, what, t, f)) b = Buf{static_cast<std::byte*>(const_cast<void*>(addr)), count, t, f};
  }
  // The checks of buf(), the type and its flattened form in t and f. (Callers build
  // their Bufs from these registers: copying a Buf just written to memory stalled on
  // store forwarding, half of MPI_Scatter's argument handling.)
  bool resolve(const void* addr, MPI_Count count, MPI_Datatype dt, const char* what, types::Datatype*& t,
               const types::Flat*& f) {
    if (!ok()) return false;
    t = types::lookup(dt);
    // Every check in one branch, the failure's report out of line (the per-call cost
    // of a small collective is in such checks).
    if (count < 0 || t == nullptr || !t->committed || (f = types::flatten(t)) == nullptr) [[unlikely]] {
      resolve_failed(count, dt, what, t);
      return false;
    }
    not_null(addr, count, t, what);
    return ok();
  }
  [[gnu::cold, gnu::noinline]] void resolve_failed(MPI_Count count, MPI_Datatype dt, const char* what,
                                                   const types::Datatype* t) {
    if (count < 0) return fail(MPI_ERR_COUNT, std::string(what) + "count " + std::to_string(count) + " is negative");
    if (t == nullptr) return fail(MPI_ERR_TYPE, std::string(what) + "type is " + describe_bad_type(dt));
    if (!t->committed) return fail(MPI_ERR_TYPE, std::string(what) + "type is not committed (call MPI_Type_commit)");
    fail(MPI_ERR_NO_MEM, std::string(what) + "type's type map is too fragmented to flatten");
  }
  // MPI_BOTTOM is NULL in this ABI, so NULL is legal with a type of absolute
  // addresses; data that would start in the never-mapped first page is a NULL pointer
  // instead, refused rather than dereferenced (fuzz_rma_coll_args found MPI_Gatherv and
  // MPI_Reduce writing through a NULL recvbuf).
  void not_null(const void* addr, MPI_Count count, const types::Datatype* t, const char* what) {
    if (reinterpret_cast<std::uintptr_t>(addr) >= kNullPage) [[likely]] return;
    null_page(addr, count, t, what);
  }
  [[gnu::cold, gnu::noinline]] void null_page(const void* addr, MPI_Count count, const types::Datatype* t,
                                              const char* what) {
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    if (!ok() || count <= 0 || t->size == 0) return;
    // 128 bits: count and extent are the caller's and may be huge.
    const __int128 lowest = static_cast<__int128>(a) + t->true_lb +
                            std::min<__int128>(0, static_cast<__int128>(count - 1) * t->extent());
    if (lowest < static_cast<__int128>(kNullPage)) {
      fail(MPI_ERR_BUFFER, std::string(what) + "buf is " + (a == 0 ? "NULL" : "MPI_BOTTOM + " + std::to_string(a)) +
                               " with " + std::to_string(count) + " elements whose data starts at address " +
                               std::to_string(static_cast<long long>(lowest)));
    }
  }
  static constexpr std::uintptr_t kNullPage = 4096;
  void not_in_place(const void* addr, const char* what) {
    if (addr == MPI_IN_PLACE) [[unlikely]] fail(MPI_ERR_BUFFER, std::string(what) + " cannot be MPI_IN_PLACE here");
  }
};

bool tail_ok(CommObj* c, const char* call, const Tail& t, int& rc);

// The communicator, and the request and info arguments of the nonblocking and
// persistent forms; nullptr (rc set) if one is invalid.
CommObj* comm_of(MPI_Comm comm, const char* call, const Tail& t, int& rc) {
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr || t.mode == Mode::blocking || (t.mode == Mode::nonblocking && t.request != nullptr)) [[likely]] {
    return c;
  }
  return tail_ok(c, call, t, rc) ? c : nullptr;
}

[[gnu::noinline]] bool tail_ok(CommObj* c, const char* call, const Tail& t, int& rc) {
  if (t.request == nullptr) {
    rc = raise(c, MPI_ERR_ARG, std::string(call) + ": request is NULL");
    return false;
  }
  if (t.mode == Mode::persistent && t.info != MPI_INFO_NULL && to_info(t.info) == nullptr) {
    rc = raise(c, MPI_ERR_INFO, std::string(call) + ": info is not a valid info object");
    return false;
  }
  return true;
}

[[gnu::cold, gnu::noinline]] int bad_root(CommObj* c, int root, const char* call) {
  return raise(c, MPI_ERR_ROOT, std::string(call) + ": root " + std::to_string(root) +
                                    " is not a rank of the communicator (size " + std::to_string(c->size) + ")");
}

bool root_bad(CommObj* c, int root, const char* call, int& rc) {
  if (root >= 0 && root < c->size) [[likely]] return false;
  rc = bad_root(c, root, call);
  return true;
}

// (The rare steps of fresh() out of line: its per-call cost.)
[[gnu::noinline]] void size_pieces(Plan& p, std::size_t n) {
  p.send.resize(n);
  p.recv.resize(n);
}

[[gnu::noinline]] Plan* persistent_plan(Tail& t) {
  t.r = coll::new_request();
  return &t.r->plan;
}

Plan g_process_plan;

// The plan to fill: the process's reused one for a blocking or nonblocking call (no
// allocation once warm; MPI calls are serialized and a task never issues a call; a
// nonblocking call that cannot complete at issue moves it into its request), else the
// new persistent request's own.
Plan& fresh(PlanKind kind, CommObj* c, const char* call, Tail& t) {
  Plan* p = t.mode == Mode::persistent ? persistent_plan(t) : &g_process_plan;
  p->kind = kind;
  p->comm = c;
  p->call = call;
  p->cls = MPI_SUCCESS;
  p->msg.clear();
  p->one = Buf{};
  const bool pieces = kind == PlanKind::scatter || kind == PlanKind::gather || kind == PlanKind::allgather ||
                      kind == PlanKind::alltoall;
  const std::size_t n = pieces ? static_cast<std::size_t>(c->size) : 0;
  // Sized, not cleared (a fill per call is measurable at 8 B): the fill_* calls write
  // every entry the call reads, and an entry they leave stale belongs to a plan whose
  // check failed, which runs without data (hold_types() reads only the entries the
  // call uses, and none of a failed plan: a recycled request's may name freed types).
  if (p->send.size() != n || p->recv.size() != n) [[unlikely]] size_pieces(*p, n);
  p->root = 0;
  p->in_place = false;
  p->sbuf = nullptr;
  p->rbuf = nullptr;
  p->count = 0;
  p->counts.clear();
  p->reducer = coll::Reducer{};
  return *p;
}

int issue_nonblocking(Plan& p, Tail& t);

// The handle of a started nonblocking call's request: the preset one if it already
// completed without error (r goes back to the free list), else r's own.
int register_started(coll::CollRequest& r, Tail& t) {
  if (!r.running && r.status.MPI_ERROR == MPI_SUCCESS) {
    r.dispose();
    *t.request = coll::completed_handle();
    return MPI_SUCCESS;
  }
  r.plan.hold_types();
  coll::attach(r);
  *t.request = new_request_handle(&r);
  return MPI_SUCCESS;
}

// A blocking or nonblocking call run at issue that ended with error class cls (why):
// raised through the communicator's handler, or the nonblocking call's request carries it.
[[gnu::cold, gnu::noinline]] int failed(CommObj* c, const char* call, int cls, const std::string& why, Tail& t) {
  if (t.mode == Mode::blocking) return raise(c, cls, std::string(call) + ": " + why);
  *t.request = coll::failed_at_issue(c, call, cls, why);
  return MPI_SUCCESS;
}

inline bool trial_waits(int cls) { return cls == coll::kNotYet || cls == coll::kNeedsTask; }

// A nonblocking call whose trial run must wait (trial_waits; the trial took the call's
// sequence number): in flight from here with plan p.
[[gnu::noinline]] int taken(Plan& p, int trial, Tail& t) {
  coll::CollRequest* r = coll::request_for(p);
  coll::start_taken(*r, trial == coll::kNeedsTask);
  return register_started(*r, t);
}

// Runs, starts or keeps the plan, as the call's mode says.
int issue(Plan& p, Tail& t) {
  CommObj* c = p.comm;
  if (t.mode == Mode::blocking) {
    std::string why;
    const int cls = coll::run(p, why);
    p.release();
    if (!p.ok()) return raise(c, p.cls, p.msg);
    if (cls != MPI_SUCCESS) return failed(c, p.call, cls, why, t);
    return MPI_SUCCESS;
  }
  if (t.mode == Mode::nonblocking) return issue_nonblocking(p, t);
  coll::CollRequest* r = t.r;
  if (const int cls = p.cls; cls != MPI_SUCCESS) {
    const std::string msg = p.msg;  // the plan goes with the request
    r->dispose();
    *t.request = MPI_REQUEST_NULL;
    return raise(c, cls, msg);
  }
  p.hold_types();
  coll::attach(*r);
  r->persistent = true;
  r->active = false;
  *t.request = new_request_handle(r);
  return MPI_SUCCESS;
}

// MPI_Ixxx with the process's plan: run at once if the call need not wait (the preset
// request, or one carrying the call's error), else moved into a request and started,
// deferred or on a task.
int issue_nonblocking(Plan& p, Tail& t) {
  CommObj* c = p.comm;
  const coll::Start how = coll::start_mode(p);
  if (how == coll::Start::at_issue || how == coll::Start::posting || how == coll::Start::trial) {
    std::string why;
    const int cls = coll::run_now(how, p, why);
    if (cls == coll::kPostedOnly) {
      // Posted; the request is made only now (members waiting for our post need not
      // wait for it) and waits for the others' posts.
      coll::CollRequest* r = coll::request_for(p);
      coll::start_posted(*r);
      return register_started(*r, t);
    }
    if (trial_waits(cls)) return taken(p, cls, t);
    p.release();
    if (cls != MPI_SUCCESS) return failed(c, p.call, cls, why, t);
    *t.request = coll::completed_handle();
    return MPI_SUCCESS;
  }
  coll::CollRequest* r = coll::request_for(p);
  Plan& q = r->plan;
  if (!q.ok()) {
    // Takes part without data (on its task); frees itself when done (the plan with it).
    coll::attach(*r);
    const std::string msg = q.msg;
    const int cls = q.cls;
    r->orphan = true;
    coll::start_task(*r);
    *t.request = MPI_REQUEST_NULL;
    return raise(c, cls, msg);
  }
  // Started before it is registered: a member waiting for this rank's post should
  // not wait for our bookkeeping too.
  if (how == coll::Start::deferred) {
    coll::start_deferred(*r);
  } else {
    coll::start_task(*r);
  }
  return register_started(*r, t);
}

// ---- the lean path of small calls -----------------------------------------------------------
// A blocking or nonblocking bcast or scatter(v), a blocking gather(v), reduce, allreduce,
// scan or exscan whose arguments are plainly valid (contiguous buffers for the moving
// calls; a user op, or a predefined op x type reducer() already took), on a communicator
// with nothing of ours in flight, goes from these checks straight to its run in move.cpp
// or reduce.cpp (a nonblocking one as a trial, nbc.hpp start_mode): no plan, no run()
// dispatch, no piece array for a scatter or gather root (scatter_uniform,
// gather_uniform). What it does is what the general path does for such a call, step
// for step (docs/collectives.md "The lean path of small calls"); anything else takes
// the general path, whose checks report what is wrong.
bool lean_ok(const CommObj* c, const Tail& t) {
  return t.mode != Mode::persistent && c->block != nullptr && c->nbc_running == 0 &&
         coll::current_task() == nullptr && (t.mode == Mode::blocking || coll::own_slot_free(*c));
}

// A committed contiguous datatype with a count that passes Check::resolve, else nullptr.
// Its data starts at or past a buffer's address (true_lb >= 0), so that lean_addr is
// Check::not_null's answer.
[[gnu::always_inline]] inline types::Datatype* lean_type(MPI_Count count, MPI_Datatype dt) {
  types::Datatype* t = types::lookup(dt);
  return t != nullptr && t->committed && t->contiguous() && t->true_lb >= 0 && count >= 0 ? t : nullptr;
}
// Whether a buffer of such a type passes Check::not_null whatever the count (and is not
// MPI_IN_PLACE).
inline bool lean_addr(const void* addr) { return reinterpret_cast<std::uintptr_t>(addr) >= Check::kNullPage; }

// A contiguous buffer that passes Check::buf, as a Buf.
[[gnu::always_inline]] inline bool lean_buf(const void* addr, MPI_Count count, MPI_Datatype dt, Buf& out) {
  types::Datatype* t = lean_type(count, dt);
  if (t == nullptr || !lean_addr(addr)) return false;
  out = Buf{static_cast<std::byte*>(const_cast<void*>(addr)), count, t, t->flat.get()};
  return true;
}

// Runs run(part, why) as the call's mode says (a nonblocking call at issue: a trial).
// The call's return code, or kNotYet or kNeedsTask: a nonblocking call that must wait,
// whose trial took the call's sequence number; the caller makes the general path's plan
// and passes it to taken().
template <class Run>
int lean_call(CommObj* c, const char* call, Tail& t, Run&& run) {
  std::string why;
  const bool nb = t.mode == Mode::nonblocking;
  coll::g_at_issue = nb;
  const int cls = run(nb ? coll::Part::trial : coll::Part::whole, why);
  coll::g_at_issue = false;
  if (cls == MPI_SUCCESS) [[likely]] {
    if (nb) *t.request = coll::completed_handle();
    return MPI_SUCCESS;
  }
  if (trial_waits(cls)) return cls;
  return failed(c, call, cls, why, t);
}
// The plan made: issued, or in flight after its lean trial (trial: lean_call's code).
int issue_or_taken(Plan& p, int trial, Tail& t) { return trial_waits(trial) ? taken(p, trial, t) : issue(p, t); }

// Piece r's address, base + displ extents, in integer arithmetic: base may be
// MPI_BOTTOM (NULL) with absolute displacements; the checks judge the piece's own address.
inline std::byte* piece_at(const void* base, MPI_Count displ, MPI_Count ext) {
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(base) +
                                      static_cast<std::uintptr_t>(displ) * static_cast<std::uintptr_t>(ext));
}

// The lean path's scatter and gather roots (coll::scatter_uniform, gather_uniform): at
// most this many members.
constexpr int kLeanPieces = 64;
// A scatter(v) root's send pieces or a gather(v) root's receive blocks for the lean
// path: all of one count (`regular`, or every entry of counts), of a contiguous type,
// staged (coll::uniform_staged), each passing the checks fill_regular / fill_v make;
// their first bytes in at[], the root's own in own.
template <class C, class D>
bool lean_pieces(const void* base, const C* counts, const D* displs, MPI_Count regular, MPI_Datatype dt, int n,
                 int root, bool v, std::byte** at, Buf& own) {
  if (n > kLeanPieces || (v && (counts == nullptr || displs == nullptr))) return false;
  const MPI_Count count = v ? static_cast<MPI_Count>(counts[0]) : regular;
  types::Datatype* t = lean_type(count, dt);
  if (t == nullptr || !coll::uniform_staged(n, static_cast<std::uint64_t>(count * t->size))) return false;
  const MPI_Count ext = t->extent();
  for (int j = 0; j < n; ++j) {
    if (v && static_cast<MPI_Count>(counts[j]) != count) return false;
    std::byte* a = piece_at(base, v ? static_cast<MPI_Count>(displs[j]) : j * count, ext);
    if (!lean_addr(a)) return false;
    if (j == root) own = Buf{a, count, t, t->flat.get()};
    at[j] = a + t->lb;
  }
  return true;
}

template <class C, class D>
void fill_v(Check& ck, const void* base, const C* counts, const D* displs, MPI_Datatype dt, int n, const char* what,
            std::vector<Buf>& out) {
  if (counts == nullptr || displs == nullptr) return ck.fail(MPI_ERR_ARG, std::string(what) + "counts or displs is NULL");
  types::Datatype* t = types::lookup(dt);
  const types::Flat* f = nullptr;
  if (ck.ok() && t != nullptr && t->committed && (f = types::flatten(t)) != nullptr) [[likely]] {
    // One type for every piece: checked once; a negative count is reported by ck.buf.
    const MPI_Count ext = t->extent();
    for (int r = 0; r < n && ck.ok(); ++r) {
      const auto count = static_cast<MPI_Count>(counts[r]);
      std::byte* const at = piece_at(base, static_cast<MPI_Count>(displs[r]), ext);
      if (count < 0) return ck.buf(at, count, dt, what, out[static_cast<std::size_t>(r)]);
      ck.not_null(at, count, t, what);
      out[static_cast<std::size_t>(r)] = Buf{at, count, t, f};
    }
    return;
  }
  // The type failed its checks (or an earlier check failed): ck.buf reports it.
  const MPI_Count ext = t != nullptr ? t->extent() : 0;
  for (int r = 0; r < n && ck.ok(); ++r) {
    ck.buf(piece_at(base, static_cast<MPI_Count>(displs[r]), ext), static_cast<MPI_Count>(counts[r]), dt, what,
           out[static_cast<std::size_t>(r)]);
  }
}

void fill_regular(Check& ck, const void* base, MPI_Count count, MPI_Datatype dt, int n, const char* what,
                  std::vector<Buf>& out) {
  types::Datatype* t = nullptr;
  const types::Flat* f = nullptr;
  if (!ck.resolve(base, count, dt, what, t, f)) return;
  // Integer arithmetic: base may be MPI_BOTTOM (NULL) with absolute displacements.
  auto addr = reinterpret_cast<std::uintptr_t>(base);
  const auto step = static_cast<std::uintptr_t>(count * t->extent());
  for (int r = 0; r < n; ++r, addr += step) out[static_cast<std::size_t>(r)] = Buf{reinterpret_cast<std::byte*>(addr), count, t, f};
}

// ---- barrier, bcast, scatter, gather, allgather, alltoall -----------------------------------

int barrier(MPI_Comm comm, const char* call, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  return issue(fresh(PlanKind::barrier, c, call, t), t);
}

int bcast(void* buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, const char* call, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  if (root_bad(c, root, call, rc)) return rc;
  int trial = MPI_SUCCESS;
  if (Buf one; lean_ok(c, t) && lean_buf(buf, count, dt, one) &&
               static_cast<std::uint64_t>(one.bytes()) <= coll::kStageMax) {
    trial = lean_call(c, call, t,
                      [&](coll::Part part, std::string& why) { return coll::bcast(c, one, root, false, why, part); });
    if (!trial_waits(trial)) return trial;
  }
  Plan& p = fresh(PlanKind::bcast, c, call, t);
  Check ck{p};
  p.root = root;
  ck.not_in_place(buf, "buffer");
  ck.buf(buf, count, dt, "", p.one);
  return issue_or_taken(p, trial, t);
}

template <class C, class D>
int scatter(const void* sbuf, const C* scounts, const D* displs, MPI_Count scount, MPI_Datatype stype, void* rbuf,
            MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, const char* call, bool v, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  if (root_bad(c, root, call, rc)) return rc;
  const bool me_root = c->rank == root;
  const bool in_place = me_root && rbuf == MPI_IN_PLACE;
  int trial = MPI_SUCCESS;
  // A reader's call is its receive buffer alone; a root's, pieces of one size (lean_pieces).
  std::byte* at[kLeanPieces];
  if (Buf recv, own; lean_ok(c, t) && (in_place || lean_buf(rbuf, rcount, rtype, recv)) &&
                     (!me_root || lean_pieces(sbuf, scounts, displs, scount, stype, c->size, root, v, at, own))) {
    trial = lean_call(c, call, t, [&](coll::Part part, std::string& why) {
      if (!me_root) return coll::scatter(c, nullptr, recv, root, false, false, why, part);
      return coll::scatter_uniform(c, at, own, recv, in_place, why, part);
    });
    if (!trial_waits(trial)) return trial;
  }
  Plan& p = fresh(PlanKind::scatter, c, call, t);
  Check ck{p};
  p.root = root;
  p.in_place = in_place;
  if (me_root) {
    ck.not_in_place(sbuf, "sendbuf");
    if (v) fill_v(ck, sbuf, scounts, displs, stype, c->size, "send", p.send);
    else fill_regular(ck, sbuf, scount, stype, c->size, "send", p.send);
  } else {
    ck.not_in_place(rbuf, "recvbuf");
  }
  if (!p.in_place) ck.buf(rbuf, rcount, rtype, "recv", p.one);
  return issue_or_taken(p, trial, t);
}

template <class C, class D>
int gather(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const C* rcounts, const D* displs,
           MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, const char* call, bool v, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  if (root_bad(c, root, call, rc)) return rc;
  const bool me_root = c->rank == root;
  const bool in_place = me_root && sbuf == MPI_IN_PLACE;
  // Blocking only (a nonblocking gather checks readiness first: ready.cpp): a sender's
  // call is its small send buffer alone; a root's, receive blocks of one size.
  std::byte* at[kLeanPieces];
  if (Buf send, own; t.mode == Mode::blocking && lean_ok(c, t) &&
                     (in_place || (lean_buf(sbuf, scount, stype, send) &&
                                   static_cast<std::uint64_t>(send.bytes()) <= coll::kStageMax)) &&
                     (!me_root || lean_pieces(rbuf, rcounts, displs, rcount, rtype, c->size, root, v, at, own))) {
    return lean_call(c, call, t, [&](coll::Part, std::string& why) {
      if (!me_root) return coll::gather(c, send, nullptr, root, false, false, why);
      return coll::gather_uniform(c, send, at, own, in_place, why);
    });
  }
  Plan& p = fresh(PlanKind::gather, c, call, t);
  Check ck{p};
  p.root = root;
  p.in_place = in_place;
  if (!p.in_place) {
    ck.not_in_place(sbuf, "sendbuf");
    ck.buf(sbuf, scount, stype, "send", p.one);
  }
  if (me_root) {
    ck.not_in_place(rbuf, "recvbuf");
    if (v) fill_v(ck, rbuf, rcounts, displs, rtype, c->size, "recv", p.recv);
    else fill_regular(ck, rbuf, rcount, rtype, c->size, "recv", p.recv);
  }
  return issue(p, t);
}

template <class C, class D>
int allgather(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const C* rcounts, const D* displs,
              MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, const char* call, bool v, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  Plan& p = fresh(PlanKind::allgather, c, call, t);
  Check ck{p};
  p.in_place = sbuf == MPI_IN_PLACE;
  if (!p.in_place) ck.buf(sbuf, scount, stype, "send", p.one);
  ck.not_in_place(rbuf, "recvbuf");
  if (v) fill_v(ck, rbuf, rcounts, displs, rtype, c->size, "recv", p.recv);
  else fill_regular(ck, rbuf, rcount, rtype, c->size, "recv", p.recv);
  return issue(p, t);
}

template <class C, class D>
int alltoall(const void* sbuf, const C* scounts, const D* sdispls, MPI_Count scount, MPI_Datatype stype, void* rbuf,
             const C* rcounts, const D* rdispls, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, const char* call, bool v,
             Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  Plan& p = fresh(PlanKind::alltoall, c, call, t);
  Check ck{p};
  p.in_place = sbuf == MPI_IN_PLACE;
  ck.not_in_place(rbuf, "recvbuf");
  if (v) fill_v(ck, rbuf, rcounts, rdispls, rtype, c->size, "recv", p.recv);
  else fill_regular(ck, rbuf, rcount, rtype, c->size, "recv", p.recv);
  if (!p.in_place) {
    if (v) fill_v(ck, sbuf, scounts, sdispls, stype, c->size, "send", p.send);
    else fill_regular(ck, sbuf, scount, stype, c->size, "send", p.send);
  }
  return issue(p, t);
}

// Alltoallw: a datatype per piece, byte displacements.
template <class C, class D>
int alltoallw(const void* sbuf, const C* scounts, const D* sdispls, const MPI_Datatype* stypes, void* rbuf,
              const C* rcounts, const D* rdispls, const MPI_Datatype* rtypes, MPI_Comm comm, const char* call, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  Plan& p = fresh(PlanKind::alltoall, c, call, t);
  Check ck{p};
  p.in_place = sbuf == MPI_IN_PLACE;
  auto fill = [&](const void* base, const C* counts, const D* displs, const MPI_Datatype* ts, const char* what,
                  std::vector<Buf>& out) {
    if (counts == nullptr || displs == nullptr || ts == nullptr) {
      return ck.fail(MPI_ERR_ARG, std::string(what) + "counts, displs or types is NULL");
    }
    for (int r = 0; r < c->size && ck.ok(); ++r) {
      // Integer arithmetic: base may be MPI_BOTTOM (NULL) with absolute displacements.
      const auto at = reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(base) +
                                                    static_cast<std::uintptr_t>(static_cast<std::intptr_t>(displs[r])));
      ck.buf(at, static_cast<MPI_Count>(counts[r]), ts[r], what, out[static_cast<std::size_t>(r)]);
    }
  };
  ck.not_in_place(rbuf, "recvbuf");
  fill(rbuf, rcounts, rdispls, rtypes, "recv", p.recv);
  if (!p.in_place) fill(sbuf, scounts, sdispls, stypes, "send", p.send);
  return issue(p, t);
}

// ---- the reduce family --------------------------------------------------------------------

// A reduction in a loop asks for the same predefined op x type every call: the last
// valid answer stands (neither changes; a plain static: MPI calls are serialized).
struct KernelChoice {
  shmpi::ops::OpKind kind;
  MPI_Datatype dt;
  shmpi::ops::Kernel k;
  shmpi::ops::Kernel3 k3;
};
KernelChoice g_last_choice{shmpi::ops::OpKind::no_op, MPI_DATATYPE_NULL, nullptr, nullptr};

// The op and datatype of a reduction: a user op on any committed type; a predefined op
// on the predefined types of its groups (MPI-4.1 6.9.2); REPLACE and NO_OP belong to the
// accumulate calls.
// A call borrows the op (borrow_op: no reference per call); a request holds one (a
// persistent one from here, a nonblocking one from coll::request_for).
void reducer(Check& ck, MPI_Op op, MPI_Datatype dt, Plan& p, bool borrow) {
  if (!ck.ok()) return;
  coll::Reducer& r = p.reducer;
  OpObj* const o = borrow ? borrow_op(op) : acquire_op(op);
  if (o == nullptr) {
    return ck.fail(MPI_ERR_OP, std::string("op is ") + (op == MPI_OP_NULL ? "MPI_OP_NULL" : "not a valid op (freed or never created)"));
  }
  if (!borrow) p.op.o = o;
  const OpObj& held = *o;
  types::Datatype* t = types::lookup(dt);
  if (t == nullptr) return ck.fail(MPI_ERR_TYPE, "datatype is " + describe_bad_type(dt));
  if (!t->committed) return ck.fail(MPI_ERR_TYPE, "datatype is not committed (call MPI_Type_commit)");
  if (types::flatten(t) == nullptr) return ck.fail(MPI_ERR_NO_MEM, "datatype's type map is too fragmented to flatten");
  r.op = o;
  r.handle = dt;
  r.type = t;
  if (held.user) return;
  namespace ops = shmpi::ops;
  KernelChoice& last = g_last_choice;
  if (held.kind == last.kind && dt == last.dt) {
    r.kernel = last.k;
    r.kernel3 = last.k3;
    return;
  }
  // Only an error names the op (a string per call is measurable at 8 bytes).
  const auto what = [&] { return std::string("MPI_") + ops::name(held.kind); };
  if (held.kind == ops::OpKind::replace || held.kind == ops::OpKind::no_op) {
    return ck.fail(MPI_ERR_OP, what() + " is only for the accumulate calls, not for reductions");
  }
  ops::ElemInfo info{};
  if (!t->predefined || !ops::elem_of(dt, info)) {
    return ck.fail(MPI_ERR_OP, what() + " is not defined on " + (t->predefined ? t->name : std::string("a derived datatype")) +
                                   " (predefined ops take the predefined types of MPI-4.1 6.9.2)");
  }
  const bool strict = ops::strict_types();
  r.kernel = ops::op_valid(held.kind, info.group, strict) ? ops::kernel(held.kind, info.elem) : nullptr;
  if (r.kernel != nullptr) {
    r.kernel3 = ops::kernel3(held.kind, info.elem);
    last = KernelChoice{held.kind, dt, r.kernel, r.kernel3};
    return;
  }
  ck.fail(MPI_ERR_OP, what() + " is not defined on " + t->name +
                          (info.group == ops::TypeGroup::character && strict ? " (SHMPI_STRICT_TYPES=1)" : ""));
}

// The lean path's op and datatype (a borrowed op): what reducer() finds for a user op,
// or for the predefined op and type of its last answer; false for anything else (the
// general path then checks it).
bool lean_reducer(MPI_Op op, MPI_Datatype dt, coll::Reducer& r) {
  const OpObj* o = borrow_op(op);
  types::Datatype* t = types::lookup(dt);
  // Any committed type whose data starts at or past a buffer's address (lean_addr).
  if (o == nullptr || t == nullptr || !t->committed || t->flat == nullptr || t->true_lb < 0 || t->extent() < 0) {
    return false;
  }
  r.op = o;
  r.handle = dt;
  r.type = t;
  if (o->user) return true;
  if (o->kind != g_last_choice.kind || dt != g_last_choice.dt) return false;
  r.kernel = g_last_choice.k;
  r.kernel3 = g_last_choice.k3;
  return true;
}

// counts: reduce_scatter's per-rank counts (n entries), already checked; else nullptr.
int reduce_call(coll::ReduceKind kind, const void* sbuf, void* rbuf, MPI_Count count, const std::vector<MPI_Count>* counts,
                MPI_Datatype dt, MPI_Op op, int root, CommObj* c, const char* call, Tail& t) {
  int rc = MPI_SUCCESS;
  if (kind == coll::ReduceKind::reduce && root_bad(c, root, call, rc)) return rc;
  const bool has_recv = kind != coll::ReduceKind::reduce || c->rank == root;
  // A blocking reduce, allreduce, scan or exscan whose arguments lean_reducer and
  // lean_addr take: straight to coll::reduce (the lean path of small calls).
  if (coll::Reducer r; t.mode == Mode::blocking && counts == nullptr && count >= 0 && lean_ok(c, t) &&
                       (sbuf == MPI_IN_PLACE ? has_recv : lean_addr(sbuf)) && (!has_recv || lean_addr(rbuf)) &&
                       lean_reducer(op, dt, r)) {
    const bool in_place = sbuf == MPI_IN_PLACE;
    return lean_call(c, call, t, [&](coll::Part part, std::string& why) {
      return coll::reduce(c, kind, sbuf, rbuf, count, nullptr, r, root, in_place, false, why, part);
    });
  }
  Plan& p = fresh(PlanKind::reduce, c, call, t);
  Check ck{p};
  p.rkind = kind;
  p.sbuf = sbuf;
  p.rbuf = rbuf;
  p.count = count;
  p.root = root;
  p.in_place = sbuf == MPI_IN_PLACE && has_recv;
  if (counts != nullptr) p.counts = *counts;
  if (sbuf == MPI_IN_PLACE && !has_recv) ck.fail(MPI_ERR_BUFFER, "sendbuf can be MPI_IN_PLACE only at the root");
  if (has_recv) ck.not_in_place(rbuf, "recvbuf");
  if (counts == nullptr && count < 0) ck.fail(MPI_ERR_COUNT, "count " + std::to_string(count) + " is negative");
  reducer(ck, op, dt, p, t.mode != Mode::persistent);
  if (ck.ok()) {
    constexpr MPI_Count kMaxCount = std::numeric_limits<MPI_Count>::max();
    MPI_Count total = count, mine = count;
    if (counts != nullptr) {
      total = 0;
      for (MPI_Count n : *counts) total = n > kMaxCount - total ? kMaxCount : total + n;  // saturating
      mine = (*counts)[static_cast<std::size_t>(c->rank)];
    }
    if (sbuf != MPI_IN_PLACE) ck.not_null(sbuf, total, p.reducer.type, "send");
    if (has_recv) ck.not_null(rbuf, mine, p.reducer.type, "recv");
  }
  // A small MPI_Iallreduce's own path (coll/lean_allreduce.hpp).
  if (t.mode == Mode::nonblocking && kind == coll::ReduceKind::allreduce && ck.ok() && t.request != nullptr &&
      coll::lean_allreduce_fits(p)) {
    return coll::lean_allreduce(p, t.request);
  }
  return issue(p, t);
}

int reduce(coll::ReduceKind kind, const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
           MPI_Comm comm, const char* call, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  return reduce_call(kind, sbuf, rbuf, count, nullptr, dt, op, root, c, call, t);
}

template <class C>
int reduce_scatter(const void* sbuf, void* rbuf, const C* rcounts, MPI_Count block, MPI_Datatype dt, MPI_Op op,
                   MPI_Comm comm, const char* call, bool v, Tail&& t) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, t, rc);
  if (c == nullptr) return rc;
  if (v && rcounts == nullptr) return raise(c, MPI_ERR_ARG, std::string(call) + ": recvcounts is NULL");
  static std::vector<MPI_Count> counts;
  counts.assign(static_cast<std::size_t>(c->size), block);
  if (v) {
    for (int i = 0; i < c->size; ++i) counts[static_cast<std::size_t>(i)] = static_cast<MPI_Count>(rcounts[i]);
  }
  bool bad = false;
  for (MPI_Count n : counts) bad = bad || n < 0;
  if (bad || block < 0) {
    // Every rank passes the same counts: fail before taking part, like a bad root.
    return raise(c, MPI_ERR_COUNT, std::string(call) + ": a receive count is negative");
  }
  return reduce_call(coll::ReduceKind::reduce_scatter, sbuf, rbuf, 0, &counts, dt, op, 0, c, call, t);
}

}  // namespace

extern "C" {

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* req) { return barrier(comm, "MPI_Ibarrier", nonblocking(req)); }
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return barrier(comm, "MPI_Barrier_init", persistent(info, req));
}

int PMPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm comm) {
  return bcast(b, n, t, root, comm, "MPI_Bcast", blocking());
}

int PMPI_Ibcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request* req) {
  return bcast(b, n, t, root, comm, "MPI_Ibcast", nonblocking(req));
}

int PMPI_Bcast_init(void* b, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return bcast(b, n, t, root, comm, "MPI_Bcast_init", persistent(info, req));
}

int PMPI_Scatter(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return scatter<int, int>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Scatter", false, blocking());
}

int PMPI_Iscatter(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return scatter<int, int>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Iscatter", false, nonblocking(req));
}

int PMPI_Scatter_init(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return scatter<int, int>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Scatter_init", false, persistent(info, req));
}

int PMPI_Scatterv(const void* sb, const int sc[], const int d[], MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Scatterv", true, blocking());
}

int PMPI_Iscatterv(const void* sb, const int sc[], const int d[], MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Iscatterv", true, nonblocking(req));
}

int PMPI_Scatterv_init(const void* sb, const int sc[], const int d[], MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Scatterv_init", true, persistent(info, req));
}

int PMPI_Gather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return gather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Gather", false, blocking());
}

int PMPI_Igather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return gather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Igather", false, nonblocking(req));
}

int PMPI_Gather_init(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return gather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Gather_init", false, persistent(info, req));
}

int PMPI_Gatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, int root, MPI_Comm comm) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Gatherv", true, blocking());
}

int PMPI_Igatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Igatherv", true, nonblocking(req));
}

int PMPI_Gatherv_init(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Gatherv_init", true, persistent(info, req));
}

int PMPI_Allgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm) {
  return allgather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Allgather", false, blocking());
}

int PMPI_Iallgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return allgather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Iallgather", false, nonblocking(req));
}

int PMPI_Allgather_init(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return allgather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Allgather_init", false, persistent(info, req));
}

int PMPI_Allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, MPI_Comm comm) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Allgatherv", true, blocking());
}

int PMPI_Iallgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Iallgatherv", true, nonblocking(req));
}

int PMPI_Allgatherv_init(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Allgatherv_init", true, persistent(info, req));
}

int PMPI_Alltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm) {
  return alltoall<int, int>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Alltoall", false, blocking());
}

int PMPI_Ialltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return alltoall<int, int>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Ialltoall", false, nonblocking(req));
}

int PMPI_Alltoall_init(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return alltoall<int, int>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Alltoall_init", false, persistent(info, req));
}

int PMPI_Alltoallv(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb, const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm comm) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Alltoallv", true, blocking());
}

int PMPI_Ialltoallv(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb, const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Ialltoallv", true, nonblocking(req));
}

int PMPI_Alltoallv_init(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb, const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Alltoallv_init", true, persistent(info, req));
}

int PMPI_Alltoallw(const void* sb, const int sc[], const int sd[], const MPI_Datatype st[], void* rb, const int rc[], const int rd[], const MPI_Datatype rt[], MPI_Comm comm) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Alltoallw", blocking());
}

int PMPI_Ialltoallw(const void* sb, const int sc[], const int sd[], const MPI_Datatype st[], void* rb, const int rc[], const int rd[], const MPI_Datatype rt[], MPI_Comm comm, MPI_Request* req) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Ialltoallw", nonblocking(req));
}

int PMPI_Alltoallw_init(const void* sb, const int sc[], const int sd[], const MPI_Datatype st[], void* rb, const int rc[], const int rd[], const MPI_Datatype rt[], MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Alltoallw_init", persistent(info, req));
}

int PMPI_Allreduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce(coll::ReduceKind::allreduce, sb, rb, n, t, op, 0, comm, "MPI_Allreduce", blocking());
}

int PMPI_Iallreduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::allreduce, sb, rb, n, t, op, 0, comm, "MPI_Iallreduce", nonblocking(req));
}

int PMPI_Allreduce_init(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::allreduce, sb, rb, n, t, op, 0, comm, "MPI_Allreduce_init", persistent(info, req));
}

int PMPI_Scan(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce(coll::ReduceKind::scan, sb, rb, n, t, op, 0, comm, "MPI_Scan", blocking());
}

int PMPI_Iscan(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::scan, sb, rb, n, t, op, 0, comm, "MPI_Iscan", nonblocking(req));
}

int PMPI_Scan_init(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::scan, sb, rb, n, t, op, 0, comm, "MPI_Scan_init", persistent(info, req));
}

int PMPI_Exscan(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce(coll::ReduceKind::exscan, sb, rb, n, t, op, 0, comm, "MPI_Exscan", blocking());
}

int PMPI_Iexscan(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::exscan, sb, rb, n, t, op, 0, comm, "MPI_Iexscan", nonblocking(req));
}

int PMPI_Exscan_init(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::exscan, sb, rb, n, t, op, 0, comm, "MPI_Exscan_init", persistent(info, req));
}

int PMPI_Reduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  return reduce(coll::ReduceKind::reduce, sb, rb, n, t, op, root, comm, "MPI_Reduce", blocking());
}

int PMPI_Ireduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::reduce, sb, rb, n, t, op, root, comm, "MPI_Ireduce", nonblocking(req));
}

int PMPI_Reduce_init(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::reduce, sb, rb, n, t, op, root, comm, "MPI_Reduce_init", persistent(info, req));
}

int PMPI_Reduce_scatter_block(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter<int>(sb, rb, nullptr, n, t, op, comm, "MPI_Reduce_scatter_block", false, blocking());
}

int PMPI_Ireduce_scatter_block(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce_scatter<int>(sb, rb, nullptr, n, t, op, comm, "MPI_Ireduce_scatter_block", false, nonblocking(req));
}

int PMPI_Reduce_scatter_block_init(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce_scatter<int>(sb, rb, nullptr, n, t, op, comm, "MPI_Reduce_scatter_block_init", false, persistent(info, req));
}

int PMPI_Reduce_scatter(const void* sb, void* rb, const int rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter<int>(sb, rb, rc, 0, t, op, comm, "MPI_Reduce_scatter", true, blocking());
}

int PMPI_Ireduce_scatter(const void* sb, void* rb, const int rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce_scatter<int>(sb, rb, rc, 0, t, op, comm, "MPI_Ireduce_scatter", true, nonblocking(req));
}

int PMPI_Reduce_scatter_init(const void* sb, void* rb, const int rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce_scatter<int>(sb, rb, rc, 0, t, op, comm, "MPI_Reduce_scatter_init", true, persistent(info, req));
}

int PMPI_Bcast_c(void* b, MPI_Count n, MPI_Datatype t, int root, MPI_Comm comm) {
  return bcast(b, n, t, root, comm, "MPI_Bcast_c", blocking());
}

int PMPI_Ibcast_c(void* b, MPI_Count n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request* req) {
  return bcast(b, n, t, root, comm, "MPI_Ibcast_c", nonblocking(req));
}

int PMPI_Bcast_init_c(void* b, MPI_Count n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return bcast(b, n, t, root, comm, "MPI_Bcast_init_c", persistent(info, req));
}

int PMPI_Scatter_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return scatter<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Scatter_c", false, blocking());
}

int PMPI_Iscatter_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return scatter<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Iscatter_c", false, nonblocking(req));
}

int PMPI_Scatter_init_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return scatter<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Scatter_init_c", false, persistent(info, req));
}

int PMPI_Scatterv_c(const void* sb, const MPI_Count sc[], const MPI_Aint d[], MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Scatterv_c", true, blocking());
}

int PMPI_Iscatterv_c(const void* sb, const MPI_Count sc[], const MPI_Aint d[], MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Iscatterv_c", true, nonblocking(req));
}

int PMPI_Scatterv_init_c(const void* sb, const MPI_Count sc[], const MPI_Aint d[], MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Scatterv_init_c", true, persistent(info, req));
}

int PMPI_Gather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return gather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Gather_c", false, blocking());
}

int PMPI_Igather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return gather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Igather_c", false, nonblocking(req));
}

int PMPI_Gather_init_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return gather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Gather_init_c", false, persistent(info, req));
}

int PMPI_Gatherv_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[], MPI_Datatype rt, int root, MPI_Comm comm) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Gatherv_c", true, blocking());
}

int PMPI_Igatherv_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request* req) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Igatherv_c", true, nonblocking(req));
}

int PMPI_Gatherv_init_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Gatherv_init_c", true, persistent(info, req));
}

int PMPI_Allgather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm) {
  return allgather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Allgather_c", false, blocking());
}

int PMPI_Iallgather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return allgather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Iallgather_c", false, nonblocking(req));
}

int PMPI_Allgather_init_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return allgather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Allgather_init_c", false, persistent(info, req));
}

int PMPI_Allgatherv_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[], MPI_Datatype rt, MPI_Comm comm) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Allgatherv_c", true, blocking());
}

int PMPI_Iallgatherv_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[], MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Iallgatherv_c", true, nonblocking(req));
}

int PMPI_Allgatherv_init_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[], MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Allgatherv_init_c", true, persistent(info, req));
}

int PMPI_Alltoall_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm) {
  return alltoall<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Alltoall_c", false, blocking());
}

int PMPI_Ialltoall_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return alltoall<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Ialltoall_c", false, nonblocking(req));
}

int PMPI_Alltoall_init_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return alltoall<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Alltoall_init_c", false, persistent(info, req));
}

int PMPI_Alltoallv_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint rd[], MPI_Datatype rt, MPI_Comm comm) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Alltoallv_c", true, blocking());
}

int PMPI_Ialltoallv_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint rd[], MPI_Datatype rt, MPI_Comm comm, MPI_Request* req) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Ialltoallv_c", true, nonblocking(req));
}

int PMPI_Alltoallv_init_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint rd[], MPI_Datatype rt, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Alltoallv_init_c", true, persistent(info, req));
}

int PMPI_Alltoallw_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], const MPI_Datatype st[], void* rb, const MPI_Count rc[], const MPI_Aint rd[], const MPI_Datatype rt[], MPI_Comm comm) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Alltoallw_c", blocking());
}

int PMPI_Ialltoallw_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], const MPI_Datatype st[], void* rb, const MPI_Count rc[], const MPI_Aint rd[], const MPI_Datatype rt[], MPI_Comm comm, MPI_Request* req) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Ialltoallw_c", nonblocking(req));
}

int PMPI_Alltoallw_init_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], const MPI_Datatype st[], void* rb, const MPI_Count rc[], const MPI_Aint rd[], const MPI_Datatype rt[], MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Alltoallw_init_c", persistent(info, req));
}

int PMPI_Allreduce_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce(coll::ReduceKind::allreduce, sb, rb, n, t, op, 0, comm, "MPI_Allreduce_c", blocking());
}

int PMPI_Iallreduce_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::allreduce, sb, rb, n, t, op, 0, comm, "MPI_Iallreduce_c", nonblocking(req));
}

int PMPI_Allreduce_init_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::allreduce, sb, rb, n, t, op, 0, comm, "MPI_Allreduce_init_c", persistent(info, req));
}

int PMPI_Scan_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce(coll::ReduceKind::scan, sb, rb, n, t, op, 0, comm, "MPI_Scan_c", blocking());
}

int PMPI_Iscan_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::scan, sb, rb, n, t, op, 0, comm, "MPI_Iscan_c", nonblocking(req));
}

int PMPI_Scan_init_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::scan, sb, rb, n, t, op, 0, comm, "MPI_Scan_init_c", persistent(info, req));
}

int PMPI_Exscan_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce(coll::ReduceKind::exscan, sb, rb, n, t, op, 0, comm, "MPI_Exscan_c", blocking());
}

int PMPI_Iexscan_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::exscan, sb, rb, n, t, op, 0, comm, "MPI_Iexscan_c", nonblocking(req));
}

int PMPI_Exscan_init_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::exscan, sb, rb, n, t, op, 0, comm, "MPI_Exscan_init_c", persistent(info, req));
}

int PMPI_Reduce_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  return reduce(coll::ReduceKind::reduce, sb, rb, n, t, op, root, comm, "MPI_Reduce_c", blocking());
}

int PMPI_Ireduce_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Request* req) {
  return reduce(coll::ReduceKind::reduce, sb, rb, n, t, op, root, comm, "MPI_Ireduce_c", nonblocking(req));
}

int PMPI_Reduce_init_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce(coll::ReduceKind::reduce, sb, rb, n, t, op, root, comm, "MPI_Reduce_init_c", persistent(info, req));
}

int PMPI_Reduce_scatter_block_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter<MPI_Count>(sb, rb, nullptr, n, t, op, comm, "MPI_Reduce_scatter_block_c", false, blocking());
}

int PMPI_Ireduce_scatter_block_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce_scatter<MPI_Count>(sb, rb, nullptr, n, t, op, comm, "MPI_Ireduce_scatter_block_c", false, nonblocking(req));
}

int PMPI_Reduce_scatter_block_init_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce_scatter<MPI_Count>(sb, rb, nullptr, n, t, op, comm, "MPI_Reduce_scatter_block_init_c", false, persistent(info, req));
}

int PMPI_Reduce_scatter_c(const void* sb, void* rb, const MPI_Count rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter<MPI_Count>(sb, rb, rc, 0, t, op, comm, "MPI_Reduce_scatter_c", true, blocking());
}

int PMPI_Ireduce_scatter_c(const void* sb, void* rb, const MPI_Count rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return reduce_scatter<MPI_Count>(sb, rb, rc, 0, t, op, comm, "MPI_Ireduce_scatter_c", true, nonblocking(req));
}

int PMPI_Reduce_scatter_init_c(const void* sb, void* rb, const MPI_Count rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* req) {
  return reduce_scatter<MPI_Count>(sb, rb, rc, 0, t, op, comm, "MPI_Reduce_scatter_init_c", true, persistent(info, req));
}

}  // extern "C"

SHMPI_PMPI_ALIAS(int, MPI_Ibarrier, (MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Barrier_init, (MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Bcast, (void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ibcast, (void*, int, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Bcast_init, (void*, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatter, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iscatter, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatter_init, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatterv, (const void*, const int[], const int[], MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iscatterv, (const void*, const int[], const int[], MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatterv_init, (const void*, const int[], const int[], MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gather, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Igather, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gather_init, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gatherv, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Igatherv, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gatherv_init, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgather, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iallgather, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgather_init, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgatherv, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iallgatherv, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgatherv_init, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoall, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ialltoall, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoall_init, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallv, (const void*, const int[], const int[], MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ialltoallv, (const void*, const int[], const int[], MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallv_init, (const void*, const int[], const int[], MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallw, (const void*, const int[], const int[], const MPI_Datatype[], void*, const int[], const int[], const MPI_Datatype[], MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ialltoallw, (const void*, const int[], const int[], const MPI_Datatype[], void*, const int[], const int[], const MPI_Datatype[], MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallw_init, (const void*, const int[], const int[], const MPI_Datatype[], void*, const int[], const int[], const MPI_Datatype[], MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allreduce, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iallreduce, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allreduce_init, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scan, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iscan, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scan_init, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Exscan, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iexscan, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Exscan_init, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce, (const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ireduce, (const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_init, (const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_block, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ireduce_scatter_block, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_block_init, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter, (const void*, void*, const int[], MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ireduce_scatter, (const void*, void*, const int[], MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_init, (const void*, void*, const int[], MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Bcast_c, (void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ibcast_c, (void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Bcast_init_c, (void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatter_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iscatter_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatter_init_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatterv_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iscatterv_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scatterv_init_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gather_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Igather_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gather_init_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gatherv_c, (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Igatherv_c, (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Gatherv_init_c, (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgather_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iallgather_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgather_init_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgatherv_c, (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iallgatherv_c, (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allgatherv_init_c, (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoall_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ialltoall_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoall_init_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallv_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ialltoallv_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallv_init_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallw_c, (const void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ialltoallw_c, (const void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallw_init_c, (const void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allreduce_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iallreduce_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Allreduce_init_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scan_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iscan_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Scan_init_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Exscan_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Iexscan_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Exscan_init_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ireduce_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_init_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_block_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ireduce_scatter_block_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_block_init_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_c, (const void*, void*, const MPI_Count[], MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Ireduce_scatter_c, (const void*, void*, const MPI_Count[], MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_init_c, (const void*, void*, const MPI_Count[], MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request*))
