// Shared by the api_p2p*.cpp files: the argument checks every point-to-point call makes
// (MPI-4.1 3.2-3.4), and turning a request into a handle.
#pragma once

#include <climits>
#include <limits>
#include <string>

#include "api.hpp"
#include "api_datatype.hpp"
#include "p2p/engine.hpp"

namespace shmpi::client {

// A validated buffer + envelope.
struct P2pArgs {
  CommObj* c = nullptr;
  types::Datatype* t = nullptr;
  const types::Flat* f = nullptr;
};

// Checks count and datatype of a buffer (a.t, a.f), raising on c (nullptr:
// MPI_COMM_SELF's handler). False with the code in rc.
inline bool p2p_buffer_args(const char* call, MPI_Count count, MPI_Datatype dt, CommObj* c, P2pArgs& a, int& rc) {
  if (count < 0) {
    rc = raise(c, MPI_ERR_COUNT, std::string(call) + ": count " + std::to_string(count) + " is negative");
    return false;
  }
  a.t = committed_type_arg(dt, call, "datatype", rc, a.f, c);
  if (a.t == nullptr) return false;
  if (a.t->size > 0 && count > std::numeric_limits<MPI_Count>::max() / a.t->size) {
    rc = raise(c, MPI_ERR_COUNT, std::string(call) + ": count " + std::to_string(count) + " x type size " +
                                     std::to_string(a.t->size) + " bytes overflows MPI_Count");
    return false;
  }
  return true;
}

// Checks comm, count, datatype, peer and tag of a send (`send`) or a receive. On failure
// raises on the communicator (MPI_COMM_SELF's handler for a bad comm) and returns false
// with the code in rc.
inline bool p2p_args(const char* call, MPI_Comm comm, MPI_Count count, MPI_Datatype dt, int peer, int tag, bool send,
                     P2pArgs& a, int& rc) {
  a.c = initialized_comm_arg(comm, call, rc);
  if (a.c == nullptr || !p2p_buffer_args(call, count, dt, a.c, a, rc)) return false;
  const bool rank_ok = (peer >= 0 && peer < a.c->size) || peer == MPI_PROC_NULL || (!send && peer == MPI_ANY_SOURCE);
  if (!rank_ok) {
    rc = raise(a.c, MPI_ERR_RANK, std::string(call) + ": " + (send ? "dest " : "source ") + std::to_string(peer) +
                                      " is not a rank of the communicator (size " + std::to_string(a.c->size) + ")" +
                                      (send && peer == MPI_ANY_SOURCE ? " (MPI_ANY_SOURCE is for receives)" : ""));
    return false;
  }
  if (tag < 0 && !(tag == MPI_ANY_TAG && !send)) {
    rc = raise(a.c, MPI_ERR_TAG, std::string(call) + ": tag " + std::to_string(tag) +
                                     (tag == MPI_ANY_TAG ? " (MPI_ANY_TAG) is for receives only"
                                                         : " is negative (tags are 0..MPI_TAG_UB)"));
    return false;
  }
  return true;
}

// A NULL buffer with data at no absolute address (bottom_without_addresses): MPI_ERR_BUFFER.
// `what` names the argument ("buf", "sendbuf", ...).
inline bool p2p_buf_arg(const char* call, const char* what, const void* buf, MPI_Count count, const P2pArgs& a,
                        int& rc) {
  if (!bottom_without_addresses(buf, count, *a.t)) return true;
  rc = raise(a.c, MPI_ERR_BUFFER, bottom_message(call, what, count, *a.t));
  return false;
}

inline bool request_out_arg(const char* call, MPI_Request* request, CommObj* c, int& rc) {
  if (request != nullptr) return true;
  rc = raise(c, MPI_ERR_ARG, std::string(call) + ": request is NULL");
  return false;
}

// Errors of a point-to-point request go through its communicator's handler.
inline int raise_on_comm(void* owner, int code) { return invoke_errhandler(static_cast<CommObj*>(owner), code); }

inline p2p::P2pRequest* new_p2p_request(CommObj* c) {
  auto* r = new p2p::P2pRequest;
  r->owner = c;
  r->raise_on_owner = &raise_on_comm;
  return r;
}

// Copies a completed receive's status out (all but MPI_ERROR, MPI-4.1 3.2.5).
inline void copy_recv_status(const MPI_Status& from, MPI_Status* to) {
  if (to == MPI_STATUS_IGNORE) return;
  const int err = to->MPI_ERROR;
  *to = from;
  to->MPI_ERROR = err;
}

// The error of a blocking call that waited: the abort, if the job died.
int p2p_aborted(CommObj* c, const char* call);

// A failed receive's error (e.g. MPI_ERR_TRUNCATE), raised on c. The engine's text
// starts with the call that posted the receive (P2pRequest::call), so it also names the
// call when MPI_Wait & co. return it.
inline int raise_receive_error(CommObj* c, int code) { return invoke_errhandler(c, code); }

}  // namespace shmpi::client
