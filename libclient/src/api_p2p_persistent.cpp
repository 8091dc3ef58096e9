// Persistent point-to-point requests (MPI-4.1 3.9): MPI_Send_init, MPI_Ssend_init,
// MPI_Rsend_init, MPI_Bsend_init, MPI_Recv_init (and _c); MPI_Start and MPI_Startall, which
// also start persistent collectives (MPI_Bcast_init & co., api_coll.cpp).
// The request is checked and set up once; each start only runs the engine's start.
// Completion makes it inactive (request.hpp), MPI_Request_free destroys it.
#include "api_p2p.hpp"
#include "coll/nbc.hpp"
#include "p2p/bsend.hpp"

using namespace shmpi::client;
using p2p::Mode;
using p2p::P2pRequest;

namespace {

int make_init(const char* call, P2pRequest::Op op, Mode mode, const void* buf, MPI_Count count, MPI_Datatype dt,
              int peer, int tag, MPI_Comm comm, MPI_Request* request) {
  int rc = MPI_SUCCESS;
  P2pArgs a;
  if (!p2p_args(call, comm, count, dt, peer, tag, op == P2pRequest::Op::send, a, rc) ||
      !p2p_buf_arg(call, "buf", buf, count, a, rc)) {
    return rc;
  }
  if (!request_out_arg(call, request, a.c, rc)) return rc;
  P2pRequest* r = new_p2p_request(a.c);
  p2p::setup(*r, op, mode, a.c, buf, count, a.t, a.f, peer, tag);
  r->call = call;
  r->persistent = true;
  r->active = false;
  r->state = P2pRequest::State::inactive;
  *request = new_request_handle(r);
  return MPI_SUCCESS;
}

// Starts one inactive persistent point-to-point request. MPI error class with `why`.
int start_one(RequestObj* base, std::string& why) {
  if (coll::CollRequest* q = coll::as_coll(base)) {
    if (!q->persistent) {
      why = "is a nonblocking collective's request, not a persistent one (MPI_Bcast_init, ...)";
      return MPI_ERR_REQUEST;
    }
    if (q->active) {
      why = "is already active (complete it with MPI_Wait/MPI_Test before starting it again)";
      return MPI_ERR_REQUEST;
    }
    coll::start(*q);
    return MPI_SUCCESS;
  }
  P2pRequest* r = p2p::as_p2p(base);
  if (r == nullptr || !r->persistent) {
    why = "is not a persistent request (MPI_Send_init, MPI_Recv_init, ...)";
    return MPI_ERR_REQUEST;
  }
  if (r->active) {
    why = "is already active (complete it with MPI_Wait/MPI_Test before starting it again)";
    return MPI_ERR_REQUEST;
  }
  r->active = true;
  if (r->mode == Mode::buffered && r->peer != MPI_PROC_NULL) {
    // The copy into the attached buffer is the whole operation (MPI-4.1 3.9).
    r->status = MPI_Status{};
    r->complete.store(false, std::memory_order_relaxed);
    const int cls = p2p::bsend(r->comm, r->buf, r->count, r->type, r->flat, r->peer, r->tag, why);
    r->state = P2pRequest::State::done;
    if (cls != MPI_SUCCESS) r->active = false;
    return cls;
  }
  const int cls = p2p::start(*r, why);
  return cls;
}

int raise_start(const char* call, const std::string& where, RequestObj* r, int cls, const std::string& why) {
  CommObj* c = nullptr;
  if (P2pRequest* p = p2p::as_p2p(r)) c = p->comm;
  if (coll::CollRequest* q = coll::as_coll(r)) c = q->plan.comm;
  return raise(c, cls, std::string(call) + ": " + where + " " + why);
}

}  // namespace

#define SHMPI_SEND_INIT(NAME, MODE, CT)                                                                           \
  extern "C" int P##NAME(const void* buf, CT count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,      \
                         MPI_Request* request) {                                                                \
    return make_init(#NAME, P2pRequest::Op::send, MODE, buf, count, datatype, dest, tag, comm, request);        \
  }                                                                                                             \
  SHMPI_PMPI_ALIAS(int, NAME, (const void*, CT, MPI_Datatype, int, int, MPI_Comm, MPI_Request*))

SHMPI_SEND_INIT(MPI_Send_init, Mode::standard, int)
SHMPI_SEND_INIT(MPI_Send_init_c, Mode::standard, MPI_Count)
SHMPI_SEND_INIT(MPI_Ssend_init, Mode::sync, int)
SHMPI_SEND_INIT(MPI_Ssend_init_c, Mode::sync, MPI_Count)
SHMPI_SEND_INIT(MPI_Rsend_init, Mode::ready, int)
SHMPI_SEND_INIT(MPI_Rsend_init_c, Mode::ready, MPI_Count)
SHMPI_SEND_INIT(MPI_Bsend_init, Mode::buffered, int)
SHMPI_SEND_INIT(MPI_Bsend_init_c, Mode::buffered, MPI_Count)

extern "C" int PMPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return make_init("MPI_Recv_init", P2pRequest::Op::recv, Mode::standard, buf, count, datatype, source, tag, comm,
                   request);
}
SHMPI_PMPI_ALIAS(int, MPI_Recv_init, (void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*))

extern "C" int PMPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                                MPI_Request* request) {
  return make_init("MPI_Recv_init_c", P2pRequest::Op::recv, Mode::standard, buf, count, datatype, source, tag, comm,
                   request);
}
SHMPI_PMPI_ALIAS(int, MPI_Recv_init_c, (void*, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Request*))

extern "C" int PMPI_Start(MPI_Request* request) {
  if (!initialized()) return not_initialized("MPI_Start");
  if (request == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Start: request is NULL");
  RequestObj* r = to_request(*request);
  if (r == nullptr) {
    return raise(nullptr, MPI_ERR_REQUEST,
                 std::string("MPI_Start: *request is ") +
                     (*request == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL" : "not a valid request"));
  }
  std::string why;
  const int cls = start_one(r, why);
  return cls == MPI_SUCCESS ? MPI_SUCCESS : raise_start("MPI_Start", "*request", r, cls, why);
}
SHMPI_PMPI_ALIAS(int, MPI_Start, (MPI_Request*))

extern "C" int PMPI_Startall(int count, MPI_Request array_of_requests[]) {
  if (!initialized()) return not_initialized("MPI_Startall");
  if (count < 0) return raise(nullptr, MPI_ERR_COUNT, "MPI_Startall: count " + std::to_string(count) + " is negative");
  if (count > 0 && array_of_requests == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Startall: array_of_requests is NULL");
  }
  // Every handle is checked before any request starts.
  for (int i = 0; i < count; ++i) {
    RequestObj* r = to_request(array_of_requests[i]);
    P2pRequest* p = p2p::as_p2p(r);
    coll::CollRequest* q = coll::as_coll(r);
    const bool startable = (p != nullptr && p->persistent && !p->active) || (q != nullptr && q->persistent && !q->active);
    if (!startable) {
      return raise(p != nullptr ? p->comm : q != nullptr ? q->plan.comm : nullptr, MPI_ERR_REQUEST,
                   "MPI_Startall: array_of_requests[" + std::to_string(i) + "] is " +
                       (r == nullptr                                                          ? "not a valid request"
                        : (p == nullptr || !p->persistent) && (q == nullptr || !q->persistent) ? "not a persistent request"
                                                                                               : "already active"));
    }
  }
  for (int i = 0; i < count; ++i) {
    RequestObj* r = to_request(array_of_requests[i]);
    std::string why;
    const int cls = start_one(r, why);
    if (cls != MPI_SUCCESS) {
      return raise_start("MPI_Startall", "array_of_requests[" + std::to_string(i) + "]", r, cls, why);
    }
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Startall, (int, MPI_Request[]))
