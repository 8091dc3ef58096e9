// Blocking and nonblocking sends and receives (MPI-4.1 3.2-3.7, 3.10): MPI_Send,
// MPI_Ssend, MPI_Rsend, MPI_Bsend, MPI_Recv, their I-forms, MPI_Sendrecv,
// MPI_Sendrecv_replace, and the _c variants. Argument checks here, then p2p/engine.
//
// A blocking call runs a request on its own stack (never registered, no allocation)
// and waits in p2p::wait. MPI_Rsend is a standard send (MPI-4.1 3.4 allows it: the
// ready-mode precondition only lets an implementation skip a handshake). MPI_Bsend
// copies into the attached buffer (p2p/bsend.hpp).
#include <unistd.h>

#include <cstring>
#include <memory>
#include <new>

#include "api_p2p.hpp"
#include "p2p/bsend.hpp"
#include "types/pack.hpp"

using namespace shmpi::client;
namespace layout = shmpi::layout;
using p2p::Mode;
using p2p::P2pRequest;

namespace shmpi::client {
int p2p_aborted(CommObj* c, const char* call) {
  return raise(c, MPI_ERR_PROC_ABORTED, std::string(call) + ": the job aborted while waiting: " + abort_reason());
}
}  // namespace shmpi::client

namespace {

int start_or_raise(P2pRequest& r, CommObj* c, const char* call) {
  std::string why;
  if (p2p::start(r, why) == MPI_SUCCESS) return MPI_SUCCESS;
  return raise(c, MPI_ERR_OTHER, std::string(call) + ": " + why);
}

int send(const char* call, Mode mode, const void* buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
         MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  P2pArgs a;
  if (!p2p_args(call, comm, count, dt, dest, tag, true, a, rc) || !p2p_buf_arg(call, "buf", buf, count, a, rc)) return rc;
  if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
  if (mode == Mode::buffered) {
    std::string why;
    const int cls = p2p::bsend(a.c, buf, count, a.t, a.f, dest, tag, why);
    return cls == MPI_SUCCESS ? MPI_SUCCESS : raise(a.c, cls, std::string(call) + ": " + why);
  }
  P2pRequest r;
  r.internal = true;
  p2p::setup(r, P2pRequest::Op::send, mode, a.c, buf, count, a.t, a.f, dest, tag);
  if ((rc = start_or_raise(r, a.c, call)) != MPI_SUCCESS) return rc;
  if (!p2p::wait(r, layout::P2pWait::send)) {
    p2p::abandon(r);
    return p2p_aborted(a.c, call);
  }
  return MPI_SUCCESS;
}

int recv(const char* call, void* buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
         MPI_Status* status) {
  int rc = MPI_SUCCESS;
  P2pArgs a;
  if (!p2p_args(call, comm, count, dt, source, tag, false, a, rc) || !p2p_buf_arg(call, "buf", buf, count, a, rc)) {
    return rc;
  }
  P2pRequest r;
  r.internal = true;
  p2p::setup(r, P2pRequest::Op::recv, Mode::standard, a.c, buf, count, a.t, a.f, source, tag);
  r.call = call;
  if ((rc = start_or_raise(r, a.c, call)) != MPI_SUCCESS) return rc;
  if (!p2p::wait(r, layout::P2pWait::recv)) {
    p2p::abandon(r);
    return p2p_aborted(a.c, call);
  }
  copy_recv_status(r.status, status);
  return r.status.MPI_ERROR == MPI_SUCCESS ? MPI_SUCCESS : raise_receive_error(a.c, r.status.MPI_ERROR);
}

int isend(const char* call, Mode mode, const void* buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
          MPI_Comm comm, MPI_Request* request) {
  int rc = MPI_SUCCESS;
  P2pArgs a;
  if (!p2p_args(call, comm, count, dt, dest, tag, true, a, rc) || !p2p_buf_arg(call, "buf", buf, count, a, rc)) return rc;
  if (!request_out_arg(call, request, a.c, rc)) return rc;
  P2pRequest* r = new_p2p_request(a.c);
  if (mode == Mode::buffered && dest != MPI_PROC_NULL) {
    // The copy is made now, so the request is complete at once (MPI-4.1 3.7.2).
    std::string why;
    const int cls = p2p::bsend(a.c, buf, count, a.t, a.f, dest, tag, why);
    if (cls != MPI_SUCCESS) {
      delete r;
      return raise(a.c, cls, std::string(call) + ": " + why);
    }
    p2p::setup(*r, P2pRequest::Op::send, mode, a.c, buf, count, a.t, a.f, MPI_PROC_NULL, tag);
  } else {
    p2p::setup(*r, P2pRequest::Op::send, mode, a.c, buf, count, a.t, a.f, dest, tag);
  }
  if ((rc = start_or_raise(*r, a.c, call)) != MPI_SUCCESS) {
    delete r;
    return rc;
  }
  *request = new_request_handle(r);
  return MPI_SUCCESS;
}

int irecv(const char* call, void* buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
          MPI_Request* request) {
  int rc = MPI_SUCCESS;
  P2pArgs a;
  if (!p2p_args(call, comm, count, dt, source, tag, false, a, rc) || !p2p_buf_arg(call, "buf", buf, count, a, rc)) {
    return rc;
  }
  if (!request_out_arg(call, request, a.c, rc)) return rc;
  P2pRequest* r = new_p2p_request(a.c);
  p2p::setup(*r, P2pRequest::Op::recv, Mode::standard, a.c, buf, count, a.t, a.f, source, tag);
  r->call = call;
  if ((rc = start_or_raise(*r, a.c, call)) != MPI_SUCCESS) {
    delete r;
    return rc;
  }
  *request = new_request_handle(r);
  return MPI_SUCCESS;
}

// Receive posted first, then the send: a send to ourselves matches it at once.
int sendrecv_run(const char* call, CommObj* c, P2pRequest& sr, P2pRequest& rr, MPI_Status* status) {
  int rc;
  if ((rc = start_or_raise(rr, c, call)) != MPI_SUCCESS) return rc;
  if ((rc = start_or_raise(sr, c, call)) != MPI_SUCCESS) {
    p2p::abandon(rr);
    return rc;
  }
  p2p::set_wait_target(rr.peer, rr.tag, rr.context);
  const bool ok = p2p::wait_until(
      [&] { return sr.state == P2pRequest::State::done && rr.state == P2pRequest::State::done; },
      layout::P2pWait::recv);
  if (!ok) {
    p2p::abandon(sr);
    p2p::abandon(rr);
    return p2p_aborted(c, call);
  }
  copy_recv_status(rr.status, status);
  return rr.status.MPI_ERROR == MPI_SUCCESS ? MPI_SUCCESS : raise_receive_error(c, rr.status.MPI_ERROR);
}

int sendrecv(const char* call, const void* sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
             MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  int rc = MPI_SUCCESS;
  P2pArgs s, r;
  if (!p2p_args(call, comm, scount, stype, dest, stag, true, s, rc)) return rc;
  if (!p2p_args(call, comm, rcount, rtype, source, rtag, false, r, rc)) return rc;
  if (!p2p_buf_arg(call, "sendbuf", sbuf, scount, s, rc) || !p2p_buf_arg(call, "recvbuf", rbuf, rcount, r, rc)) return rc;
  P2pRequest sr, rr;
  sr.internal = rr.internal = true;
  p2p::setup(sr, P2pRequest::Op::send, Mode::standard, s.c, sbuf, scount, s.t, s.f, dest, stag);
  p2p::setup(rr, P2pRequest::Op::recv, Mode::standard, r.c, rbuf, rcount, r.t, r.f, source, rtag);
  rr.call = call;
  return sendrecv_run(call, s.c, sr, rr, status);
}

// The outgoing message is packed first, so the receive may overwrite the buffer.
int sendrecv_replace(const char* call, void* buf, MPI_Count count, MPI_Datatype dt, int dest, int stag, int source,
                     int rtag, MPI_Comm comm, MPI_Status* status) {
  int rc = MPI_SUCCESS;
  P2pArgs s;
  if (!p2p_args(call, comm, count, dt, dest, stag, true, s, rc)) return rc;
  P2pArgs r = s;
  if (!p2p_args(call, comm, count, dt, source, rtag, false, r, rc)) return rc;
  if (!p2p_buf_arg(call, "buf", buf, count, s, rc)) return rc;
  const auto bytes = static_cast<std::size_t>(count * s.t->size);
  // A count no memory can hold is an error code, not an uncaught std::bad_alloc (nor a
  // sanitizer's abort on an impossible allocation): more than the node's memory is
  // refused up front, a failed allocation below that too.
  const auto node_memory =
      static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::unique_ptr<std::byte[]> copy(bytes > node_memory ? nullptr
                                                        : new (std::nothrow) std::byte[bytes > 0 ? bytes : 1]);
  if (copy == nullptr) {
    return raise(s.c, MPI_ERR_NO_MEM, std::string(call) + ": no memory for the " + std::to_string(bytes) +
                                          "-byte copy of the outgoing message (count " + std::to_string(count) + ")");
  }
  if (bytes > 0) types::pack(*s.t, *s.f, buf, count, copy.get());
  types::Datatype* byte_type = types::lookup(MPI_BYTE);
  P2pRequest sr, rr;
  sr.internal = rr.internal = true;
  p2p::setup(sr, P2pRequest::Op::send, Mode::standard, s.c, copy.get(), static_cast<MPI_Count>(bytes), byte_type,
             types::flatten(byte_type), dest, stag);
  p2p::setup(rr, P2pRequest::Op::recv, Mode::standard, r.c, buf, count, r.t, r.f, source, rtag);
  rr.call = call;
  return sendrecv_run(call, s.c, sr, rr, status);
}

}  // namespace

// ---- entry points --------------------------------------------------------------------

#define SHMPI_SEND(NAME, MODE, CT)                                                                           \
  extern "C" int P##NAME(const void* buf, CT count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) { \
    return send(#NAME, MODE, buf, count, datatype, dest, tag, comm);                                        \
  }                                                                                                          \
  SHMPI_PMPI_ALIAS(int, NAME, (const void*, CT, MPI_Datatype, int, int, MPI_Comm))

SHMPI_SEND(MPI_Send, Mode::standard, int)
SHMPI_SEND(MPI_Send_c, Mode::standard, MPI_Count)
SHMPI_SEND(MPI_Ssend, Mode::sync, int)
SHMPI_SEND(MPI_Ssend_c, Mode::sync, MPI_Count)
SHMPI_SEND(MPI_Rsend, Mode::ready, int)
SHMPI_SEND(MPI_Rsend_c, Mode::ready, MPI_Count)
SHMPI_SEND(MPI_Bsend, Mode::buffered, int)
SHMPI_SEND(MPI_Bsend_c, Mode::buffered, MPI_Count)

#define SHMPI_ISEND(NAME, MODE, CT)                                                                        \
  extern "C" int P##NAME(const void* buf, CT count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, \
                         MPI_Request* request) {                                                           \
    return isend(#NAME, MODE, buf, count, datatype, dest, tag, comm, request);                            \
  }                                                                                                        \
  SHMPI_PMPI_ALIAS(int, NAME, (const void*, CT, MPI_Datatype, int, int, MPI_Comm, MPI_Request*))

SHMPI_ISEND(MPI_Isend, Mode::standard, int)
SHMPI_ISEND(MPI_Isend_c, Mode::standard, MPI_Count)
SHMPI_ISEND(MPI_Issend, Mode::sync, int)
SHMPI_ISEND(MPI_Issend_c, Mode::sync, MPI_Count)
SHMPI_ISEND(MPI_Irsend, Mode::ready, int)
SHMPI_ISEND(MPI_Irsend_c, Mode::ready, MPI_Count)
SHMPI_ISEND(MPI_Ibsend, Mode::buffered, int)
SHMPI_ISEND(MPI_Ibsend_c, Mode::buffered, MPI_Count)

extern "C" int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                         MPI_Status* status) {
  return recv("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Recv, (void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status*))

extern "C" int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                           MPI_Status* status) {
  return recv("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Recv_c, (void*, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Status*))

extern "C" int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return irecv("MPI_Irecv", buf, count, datatype, source, tag, comm, request);
}
SHMPI_PMPI_ALIAS(int, MPI_Irecv, (void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*))

extern "C" int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                            MPI_Request* request) {
  return irecv("MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}
SHMPI_PMPI_ALIAS(int, MPI_Irecv_c, (void*, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Request*))

extern "C" int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                             MPI_Status* status) {
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Sendrecv,
                 (const void*, int, MPI_Datatype, int, int, void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status*))

extern "C" int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                               void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Sendrecv_c, (const void*, MPI_Count, MPI_Datatype, int, int, void*, MPI_Count, MPI_Datatype,
                                       int, int, MPI_Comm, MPI_Status*))

extern "C" int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                     int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Sendrecv_replace, (void*, int, MPI_Datatype, int, int, int, int, MPI_Comm, MPI_Status*))

extern "C" int PMPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                       int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Sendrecv_replace_c,
                 (void*, MPI_Count, MPI_Datatype, int, int, int, int, MPI_Comm, MPI_Status*))
