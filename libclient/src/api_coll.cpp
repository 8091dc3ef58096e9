// Blocking collectives (MPI-4.1 6): argument checks, then coll/. An invalid
// communicator or root returns at once (every member passes the same one); any other
// invalid argument is this rank's own, so the rank still takes part in the call without
// data (coll/collectives.hpp) and then reports the error: the other members do not hang,
// and those that needed its data fail with MPI_ERR_OTHER naming it.
#include <cstring>
#include <vector>

#include "api.hpp"
#include "api_datatype.hpp"
#include "coll/collectives.hpp"
#include "ops/datatype_elem.hpp"
#include "ops/op_table.hpp"

using namespace shmpi::client;
using coll::Buf;

namespace {

// The first invalid argument found (later checks are skipped).
struct Check {
  Check(const char* name, CommObj* comm) : call(name), c(comm) {}
  const char* call;
  CommObj* c;
  int cls = MPI_SUCCESS;
  std::string msg;
  bool ok() const { return cls == MPI_SUCCESS; }
  void fail(int k, const std::string& m) {
    if (cls != MPI_SUCCESS) return;
    cls = k;
    msg = std::string(call) + ": " + m;
  }
  // A count + datatype argument; fills b.
  void buf(const void* addr, MPI_Count count, MPI_Datatype dt, const char* what, Buf& b) {
    if (!ok()) return;
    if (count < 0) return fail(MPI_ERR_COUNT, std::string(what) + "count " + std::to_string(count) + " is negative");
    types::Datatype* t = types::lookup(dt);
    if (t == nullptr) return fail(MPI_ERR_TYPE, std::string(what) + "type is " + describe_bad_type(dt));
    if (!t->committed) return fail(MPI_ERR_TYPE, std::string(what) + "type is not committed (call MPI_Type_commit)");
    const types::Flat* f = types::flatten(t);
    if (f == nullptr) return fail(MPI_ERR_NO_MEM, std::string(what) + "type's type map is too fragmented to flatten");
    b = Buf{static_cast<std::byte*>(const_cast<void*>(addr)), count, t, f};
  }
  void not_in_place(const void* addr, const char* what) {
    if (addr == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, std::string(what) + " cannot be MPI_IN_PLACE here");
  }
  int raise_now() const { return raise(c, cls, msg); }
};

CommObj* comm_of(MPI_Comm comm, const char* call, int& rc) { return initialized_comm_arg(comm, call, rc); }

bool root_bad(CommObj* c, int root, const char* call, int& rc) {
  if (root >= 0 && root < c->size) return false;
  rc = raise(c, MPI_ERR_ROOT, std::string(call) + ": root " + std::to_string(root) + " is not a rank of the communicator (size " +
                                  std::to_string(c->size) + ")");
  return true;
}

// Result of a collective: the check's error (after taking part), the engine's, or success.
int outcome(const Check& ck, CommObj* c, int cls, const std::string& why) {
  if (!ck.ok()) return ck.raise_now();
  if (cls != MPI_SUCCESS) return raise(c, cls, std::string(ck.call) + ": " + why);
  return MPI_SUCCESS;
}

// Reusable piece arrays (no allocation once warm; MPI calls are serialized).
std::vector<Buf>& pieces(int which, int n) {
  static std::vector<Buf> v[2];
  v[which].assign(static_cast<std::size_t>(n), Buf{});
  return v[which];
}

template <class C, class D>
void fill_v(Check& ck, const void* base, const C* counts, const D* displs, MPI_Datatype dt, int n, const char* what,
            std::vector<Buf>& out) {
  if (counts == nullptr || displs == nullptr) return ck.fail(MPI_ERR_ARG, std::string(what) + "counts or displs is NULL");
  for (int r = 0; r < n && ck.ok(); ++r) {
    ck.buf(base, static_cast<MPI_Count>(counts[r]), dt, what, out[static_cast<std::size_t>(r)]);
    if (ck.ok()) {
      Buf& b = out[static_cast<std::size_t>(r)];
      b.addr = static_cast<std::byte*>(const_cast<void*>(base)) + static_cast<MPI_Count>(displs[r]) * b.type->extent();
    }
  }
}

void fill_regular(Check& ck, const void* base, MPI_Count count, MPI_Datatype dt, int n, const char* what,
                  std::vector<Buf>& out) {
  Buf one;
  ck.buf(base, count, dt, what, one);
  if (!ck.ok()) return;
  for (int r = 0; r < n; ++r) {
    out[static_cast<std::size_t>(r)] = one;
    out[static_cast<std::size_t>(r)].addr = one.addr + static_cast<MPI_Count>(r) * count * one.type->extent();
  }
}

// ---- bcast, scatter, gather, allgather, alltoall ------------------------------------------

int bcast(void* buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, const char* call) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  if (root_bad(c, root, call, rc)) return rc;
  Check ck{call, c};
  Buf b;
  ck.not_in_place(buf, "buffer");
  ck.buf(buf, count, dt, "", b);
  std::string why;
  const int cls = coll::bcast(c, b, root, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

template <class C, class D>
int scatter(const void* sbuf, const C* scounts, const D* displs, MPI_Count scount, MPI_Datatype stype, void* rbuf,
            MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, const char* call, bool v) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  if (root_bad(c, root, call, rc)) return rc;
  Check ck{call, c};
  const bool me_root = c->rank == root;
  const bool in_place = me_root && rbuf == MPI_IN_PLACE;
  std::vector<Buf>& send = pieces(0, c->size);
  Buf recv;
  if (me_root) {
    ck.not_in_place(sbuf, "sendbuf");
    if (v) fill_v(ck, sbuf, scounts, displs, stype, c->size, "send", send);
    else fill_regular(ck, sbuf, scount, stype, c->size, "send", send);
  } else {
    ck.not_in_place(rbuf, "recvbuf");
  }
  if (!in_place) ck.buf(rbuf, rcount, rtype, "recv", recv);
  std::string why;
  const int cls = coll::scatter(c, send.data(), recv, root, in_place, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

template <class C, class D>
int gather(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const C* rcounts, const D* displs,
           MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, const char* call, bool v) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  if (root_bad(c, root, call, rc)) return rc;
  Check ck{call, c};
  const bool me_root = c->rank == root;
  const bool in_place = me_root && sbuf == MPI_IN_PLACE;
  std::vector<Buf>& recv = pieces(1, c->size);
  Buf send;
  if (!in_place) {
    ck.not_in_place(sbuf, "sendbuf");
    ck.buf(sbuf, scount, stype, "send", send);
  }
  if (me_root) {
    ck.not_in_place(rbuf, "recvbuf");
    if (v) fill_v(ck, rbuf, rcounts, displs, rtype, c->size, "recv", recv);
    else fill_regular(ck, rbuf, rcount, rtype, c->size, "recv", recv);
  }
  std::string why;
  const int cls = coll::gather(c, send, recv.data(), root, in_place, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

template <class C, class D>
int allgather(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const C* rcounts, const D* displs,
              MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, const char* call, bool v) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  Check ck{call, c};
  const bool in_place = sbuf == MPI_IN_PLACE;
  std::vector<Buf>& recv = pieces(1, c->size);
  Buf send;
  if (!in_place) ck.buf(sbuf, scount, stype, "send", send);
  ck.not_in_place(rbuf, "recvbuf");
  if (v) fill_v(ck, rbuf, rcounts, displs, rtype, c->size, "recv", recv);
  else fill_regular(ck, rbuf, rcount, rtype, c->size, "recv", recv);
  std::string why;
  const int cls = coll::allgather(c, send, recv.data(), in_place, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

template <class C, class D>
int alltoall(const void* sbuf, const C* scounts, const D* sdispls, MPI_Count scount, MPI_Datatype stype, void* rbuf,
             const C* rcounts, const D* rdispls, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, const char* call, bool v) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  Check ck{call, c};
  const bool in_place = sbuf == MPI_IN_PLACE;
  std::vector<Buf>& send = pieces(0, c->size);
  std::vector<Buf>& recv = pieces(1, c->size);
  ck.not_in_place(rbuf, "recvbuf");
  if (v) fill_v(ck, rbuf, rcounts, rdispls, rtype, c->size, "recv", recv);
  else fill_regular(ck, rbuf, rcount, rtype, c->size, "recv", recv);
  if (!in_place) {
    if (v) fill_v(ck, sbuf, scounts, sdispls, stype, c->size, "send", send);
    else fill_regular(ck, sbuf, scount, stype, c->size, "send", send);
  }
  std::string why;
  const int cls = coll::alltoall(c, send.data(), recv.data(), in_place, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

// Alltoallw: a datatype per piece, byte displacements.
template <class C, class D>
int alltoallw(const void* sbuf, const C* scounts, const D* sdispls, const MPI_Datatype* stypes, void* rbuf,
              const C* rcounts, const D* rdispls, const MPI_Datatype* rtypes, MPI_Comm comm, const char* call) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  Check ck{call, c};
  const bool in_place = sbuf == MPI_IN_PLACE;
  std::vector<Buf>& send = pieces(0, c->size);
  std::vector<Buf>& recv = pieces(1, c->size);
  auto fill = [&](const void* base, const C* counts, const D* displs, const MPI_Datatype* ts, const char* what,
                  std::vector<Buf>& out) {
    if (counts == nullptr || displs == nullptr || ts == nullptr) {
      return ck.fail(MPI_ERR_ARG, std::string(what) + "counts, displs or types is NULL");
    }
    for (int r = 0; r < c->size && ck.ok(); ++r) {
      ck.buf(static_cast<const std::byte*>(base) + displs[r], static_cast<MPI_Count>(counts[r]), ts[r], what,
             out[static_cast<std::size_t>(r)]);
    }
  };
  ck.not_in_place(rbuf, "recvbuf");
  fill(rbuf, rcounts, rdispls, rtypes, "recv", recv);
  if (!in_place) fill(sbuf, scounts, sdispls, stypes, "send", send);
  std::string why;
  const int cls = coll::alltoall(c, send.data(), recv.data(), in_place, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

// ---- the reduce family --------------------------------------------------------------------

struct OpHold {
  OpObj* o = nullptr;
  ~OpHold() {
    if (o != nullptr) release_op(o);
  }
};

// The op and datatype of a reduction: a user op on any committed type; a predefined op
// on the predefined types of its groups (MPI-4.1 6.9.2); REPLACE and NO_OP belong to the
// accumulate calls.
void reducer(Check& ck, MPI_Op op, MPI_Datatype dt, OpHold& hold, coll::Reducer& r) {
  if (!ck.ok()) return;
  hold.o = acquire_op(op);
  if (hold.o == nullptr) {
    return ck.fail(MPI_ERR_OP, std::string("op is ") + (op == MPI_OP_NULL ? "MPI_OP_NULL" : "not a valid op (freed or never created)"));
  }
  types::Datatype* t = types::lookup(dt);
  if (t == nullptr) return ck.fail(MPI_ERR_TYPE, "datatype is " + describe_bad_type(dt));
  if (!t->committed) return ck.fail(MPI_ERR_TYPE, "datatype is not committed (call MPI_Type_commit)");
  if (types::flatten(t) == nullptr) return ck.fail(MPI_ERR_NO_MEM, "datatype's type map is too fragmented to flatten");
  r.op = hold.o;
  r.handle = dt;
  r.type = t;
  if (hold.o->user) return;
  namespace ops = shmpi::ops;
  const std::string what = std::string("MPI_") + ops::name(hold.o->kind);
  if (hold.o->kind == ops::OpKind::replace || hold.o->kind == ops::OpKind::no_op) {
    return ck.fail(MPI_ERR_OP, what + " is only for the accumulate calls, not for reductions");
  }
  ops::ElemInfo info{};
  if (!t->predefined || !ops::elem_of(dt, info)) {
    return ck.fail(MPI_ERR_OP, what + " is not defined on " + (t->predefined ? t->name : std::string("a derived datatype")) +
                                   " (predefined ops take the predefined types of MPI-4.1 6.9.2)");
  }
  const bool strict = ops::strict_types();
  r.kernel = ops::op_valid(hold.o->kind, info.group, strict) ? ops::kernel(hold.o->kind, info.elem) : nullptr;
  if (r.kernel == nullptr) {
    ck.fail(MPI_ERR_OP, what + " is not defined on " + t->name +
                            (info.group == ops::TypeGroup::character && strict ? " (SHMPI_STRICT_TYPES=1)" : ""));
  }
}

int reduce_call(coll::ReduceKind kind, const void* sbuf, void* rbuf, MPI_Count count, const MPI_Count* counts,
                MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm, const char* call) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  if (kind == coll::ReduceKind::reduce && root_bad(c, root, call, rc)) return rc;
  Check ck{call, c};
  const bool has_recv = kind != coll::ReduceKind::reduce || c->rank == root;
  const bool in_place = sbuf == MPI_IN_PLACE && has_recv;
  if (sbuf == MPI_IN_PLACE && !has_recv) ck.fail(MPI_ERR_BUFFER, "sendbuf can be MPI_IN_PLACE only at the root");
  if (has_recv) ck.not_in_place(rbuf, "recvbuf");
  if (counts == nullptr && count < 0) ck.fail(MPI_ERR_COUNT, "count " + std::to_string(count) + " is negative");
  OpHold hold;
  coll::Reducer r;
  reducer(ck, op, dt, hold, r);
  std::string why;
  const int cls = coll::reduce(c, kind, sbuf, rbuf, count, counts, r, root, in_place, !ck.ok(), why);
  return outcome(ck, c, cls, why);
}

template <class C>
int reduce_scatter(const void* sbuf, void* rbuf, const C* rcounts, MPI_Count block, MPI_Datatype dt, MPI_Op op,
                   MPI_Comm comm, const char* call) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_of(comm, call, rc);
  if (c == nullptr) return rc;
  static std::vector<MPI_Count> counts;
  counts.assign(static_cast<std::size_t>(c->size), block);
  if (rcounts != nullptr) {
    for (int i = 0; i < c->size; ++i) counts[static_cast<std::size_t>(i)] = static_cast<MPI_Count>(rcounts[i]);
  }
  bool bad = false;
  for (MPI_Count n : counts) bad = bad || n < 0;
  if (bad || block < 0) {
    // Every rank passes the same counts: fail before taking part, like a bad root.
    return raise(c, MPI_ERR_COUNT, std::string(call) + ": a receive count is negative");
  }
  return reduce_call(coll::ReduceKind::reduce_scatter, sbuf, rbuf, 0, counts.data(), dt, op, 0, comm, call);
}

}  // namespace

extern "C" {

int PMPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm comm) { return bcast(b, n, t, root, comm, "MPI_Bcast"); }
int PMPI_Bcast_c(void* b, MPI_Count n, MPI_Datatype t, int root, MPI_Comm comm) {
  return bcast(b, n, t, root, comm, "MPI_Bcast_c");
}

int PMPI_Scatter(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return scatter<int, int>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Scatter", false);
}
int PMPI_Scatter_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root,
                   MPI_Comm comm) {
  return scatter<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, rc, rt, root, comm, "MPI_Scatter_c", false);
}
int PMPI_Scatterv(const void* sb, const int sc[], const int d[], MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root,
                  MPI_Comm comm) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Scatterv", true);
}
int PMPI_Scatterv_c(const void* sb, const MPI_Count sc[], const MPI_Aint d[], MPI_Datatype st, void* rb, MPI_Count rc,
                    MPI_Datatype rt, int root, MPI_Comm comm) {
  return scatter(sb, sc, d, 0, st, rb, rc, rt, root, comm, "MPI_Scatterv_c", true);
}

int PMPI_Gather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  return gather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Gather", false);
}
int PMPI_Gather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, int root,
                  MPI_Comm comm) {
  return gather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, root, comm, "MPI_Gather_c", false);
}
int PMPI_Gatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt, int root,
                 MPI_Comm comm) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Gatherv", true);
}
int PMPI_Gatherv_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[],
                   MPI_Datatype rt, int root, MPI_Comm comm) {
  return gather(sb, sc, st, rb, rc, d, 0, rt, root, comm, "MPI_Gatherv_c", true);
}

int PMPI_Allgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm) {
  return allgather<int, int>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Allgather", false);
}
int PMPI_Allgather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm) {
  return allgather<MPI_Count, MPI_Aint>(sb, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Allgather_c", false);
}
int PMPI_Allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int d[], MPI_Datatype rt,
                    MPI_Comm comm) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Allgatherv", true);
}
int PMPI_Allgatherv_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, const MPI_Count rc[], const MPI_Aint d[],
                      MPI_Datatype rt, MPI_Comm comm) {
  return allgather(sb, sc, st, rb, rc, d, 0, rt, comm, "MPI_Allgatherv_c", true);
}

int PMPI_Alltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm) {
  return alltoall<int, int>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Alltoall", false);
}
int PMPI_Alltoall_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc, MPI_Datatype rt, MPI_Comm comm) {
  return alltoall<MPI_Count, MPI_Aint>(sb, nullptr, nullptr, sc, st, rb, nullptr, nullptr, rc, rt, comm, "MPI_Alltoall_c",
                                       false);
}
int PMPI_Alltoallv(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb, const int rc[], const int rd[],
                   MPI_Datatype rt, MPI_Comm comm) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Alltoallv", true);
}
int PMPI_Alltoallv_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], MPI_Datatype st, void* rb,
                     const MPI_Count rc[], const MPI_Aint rd[], MPI_Datatype rt, MPI_Comm comm) {
  return alltoall(sb, sc, sd, 0, st, rb, rc, rd, 0, rt, comm, "MPI_Alltoallv_c", true);
}
int PMPI_Alltoallw(const void* sb, const int sc[], const int sd[], const MPI_Datatype st[], void* rb, const int rc[],
                   const int rd[], const MPI_Datatype rt[], MPI_Comm comm) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Alltoallw");
}
int PMPI_Alltoallw_c(const void* sb, const MPI_Count sc[], const MPI_Aint sd[], const MPI_Datatype st[], void* rb,
                     const MPI_Count rc[], const MPI_Aint rd[], const MPI_Datatype rt[], MPI_Comm comm) {
  return alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm, "MPI_Alltoallw_c");
}

int PMPI_Reduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::reduce, sb, rb, n, nullptr, t, op, root, comm, "MPI_Reduce");
}
int PMPI_Reduce_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::reduce, sb, rb, n, nullptr, t, op, root, comm, "MPI_Reduce_c");
}
int PMPI_Allreduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::allreduce, sb, rb, n, nullptr, t, op, 0, comm, "MPI_Allreduce");
}
int PMPI_Allreduce_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::allreduce, sb, rb, n, nullptr, t, op, 0, comm, "MPI_Allreduce_c");
}
int PMPI_Scan(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::scan, sb, rb, n, nullptr, t, op, 0, comm, "MPI_Scan");
}
int PMPI_Scan_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::scan, sb, rb, n, nullptr, t, op, 0, comm, "MPI_Scan_c");
}
int PMPI_Exscan(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::exscan, sb, rb, n, nullptr, t, op, 0, comm, "MPI_Exscan");
}
int PMPI_Exscan_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_call(coll::ReduceKind::exscan, sb, rb, n, nullptr, t, op, 0, comm, "MPI_Exscan_c");
}
int PMPI_Reduce_scatter_block(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter<int>(sb, rb, nullptr, n, t, op, comm, "MPI_Reduce_scatter_block");
}
int PMPI_Reduce_scatter_block_c(const void* sb, void* rb, MPI_Count n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter<MPI_Count>(sb, rb, nullptr, n, t, op, comm, "MPI_Reduce_scatter_block_c");
}
int PMPI_Reduce_scatter(const void* sb, void* rb, const int rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  if (rc == nullptr) return raise(to_comm(comm), MPI_ERR_ARG, "MPI_Reduce_scatter: recvcounts is NULL");
  return reduce_scatter<int>(sb, rb, rc, 0, t, op, comm, "MPI_Reduce_scatter");
}
int PMPI_Reduce_scatter_c(const void* sb, void* rb, const MPI_Count rc[], MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  if (rc == nullptr) return raise(to_comm(comm), MPI_ERR_ARG, "MPI_Reduce_scatter_c: recvcounts is NULL");
  return reduce_scatter<MPI_Count>(sb, rb, rc, 0, t, op, comm, "MPI_Reduce_scatter_c");
}

}  // extern "C"

SHMPI_PMPI_ALIAS(int, MPI_Bcast, (void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Bcast_c, (void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Scatter, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Scatter_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Scatterv, (const void*, const int[], const int[], MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Scatterv_c,
                 (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Gather, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Gather_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Gatherv, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Gatherv_c,
                 (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Allgather, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Allgather_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Allgatherv, (const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Allgatherv_c,
                 (const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Alltoall, (const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Alltoall_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallv,
                 (const void*, const int[], const int[], MPI_Datatype, void*, const int[], const int[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallv_c, (const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*,
                                        const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallw, (const void*, const int[], const int[], const MPI_Datatype[], void*, const int[],
                                      const int[], const MPI_Datatype[], MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Alltoallw_c, (const void*, const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], void*,
                                        const MPI_Count[], const MPI_Aint[], const MPI_Datatype[], MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Reduce, (const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Allreduce, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Allreduce_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Scan, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Scan_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Exscan, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Exscan_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_block, (const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_block_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter, (const void*, void*, const int[], MPI_Datatype, MPI_Op, MPI_Comm))
SHMPI_PMPI_ALIAS(int, MPI_Reduce_scatter_c, (const void*, void*, const MPI_Count[], MPI_Datatype, MPI_Op, MPI_Comm))
