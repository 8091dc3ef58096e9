// MPI_Probe, MPI_Iprobe, and matched probes and receives: MPI_Mprobe, MPI_Improbe,
// MPI_Mrecv, MPI_Imrecv (MPI-4.1 3.8). A probe runs the engine, then looks at the
// unexpected queue (messages drained but not yet received); a matched probe takes the
// message out of it, so no other receive can match it (3.8.2). An MPI_Message handle is
// the message's address, accepted only while the registry below holds it.
#include <unordered_map>

#include "api_p2p.hpp"

using namespace shmpi::client;
namespace layout = shmpi::layout;
using p2p::P2pRequest;
using p2p::Unexpected;

namespace {

// Taken by a matched probe, not yet received, with the probe's communicator (whose
// error handler a failing MPI_Mrecv uses; MPI-4.1 3.8.3: the message belongs to it).
std::unordered_map<Unexpected*, CommObj*> g_messages;

bool probe_args(const char* call, int source, int tag, MPI_Comm comm, CommObj*& c, int& rc) {
  P2pArgs a;
  if (!p2p_args(call, comm, 0, MPI_BYTE, source, tag, false, a, rc)) return false;
  c = a.c;
  return true;
}

// Blocks (or, `wait` false, looks once) for a message matching (source, tag) on c.
// Returns it (still queued), or null; `rc` set if the job aborted.
Unexpected* look(const char* call, CommObj* c, int source, int tag, bool wait, int& rc) {
  Unexpected* found = nullptr;
  auto done = [&] { return (found = p2p::find_unexpected(c->context_id, source, tag)) != nullptr; };
  if (!wait) {
    p2p::progress();
    done();
    return found;
  }
  p2p::set_wait_target(source, tag, c->context_id);
  if (!p2p::wait_until(done, layout::P2pWait::probe)) rc = p2p_aborted(c, call);
  return found;
}

int probe(const char* call, int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  int rc = MPI_SUCCESS;
  CommObj* c = nullptr;
  if (!probe_args(call, source, tag, comm, c, rc)) return rc;
  const bool blocking = flag == nullptr;
  if (source == MPI_PROC_NULL) {
    if (!blocking) *flag = 1;
    if (message != nullptr) *message = MPI_MESSAGE_NO_PROC;
    if (status != MPI_STATUS_IGNORE) p2p::proc_null_status(*status);
    return MPI_SUCCESS;
  }
  Unexpected* u = look(call, c, source, tag, blocking, rc);
  if (rc != MPI_SUCCESS) return rc;
  if (!blocking) *flag = u != nullptr ? 1 : 0;
  if (u == nullptr) return MPI_SUCCESS;
  p2p::probe_status(*u, status);
  if (message != nullptr) {
    p2p::take_unexpected(u);
    g_messages.emplace(u, c);
    *message = reinterpret_cast<MPI_Message>(u);
  }
  return MPI_SUCCESS;
}

// The message at *message for MPI_Mrecv/MPI_Imrecv: taken off the registry (the handle
// becomes MPI_MESSAGE_NULL). nullptr with `no_proc` for MPI_MESSAGE_NO_PROC.
Unexpected* message_arg(const char* call, MPI_Message* message, bool& no_proc, CommObj*& c, int& rc) {
  no_proc = false;
  if (message == nullptr) {
    rc = raise(nullptr, MPI_ERR_ARG, std::string(call) + ": message is NULL");
    return nullptr;
  }
  if (*message == MPI_MESSAGE_NO_PROC) {
    no_proc = true;
    *message = MPI_MESSAGE_NULL;
    return nullptr;
  }
  auto* u = reinterpret_cast<Unexpected*>(*message);
  const auto it = *message == MPI_MESSAGE_NULL ? g_messages.end() : g_messages.find(u);
  if (it == g_messages.end()) {
    rc = raise(nullptr, MPI_ERR_REQUEST,
               std::string(call) + ": message is " +
                   (*message == MPI_MESSAGE_NULL ? "MPI_MESSAGE_NULL" : "not a message from MPI_Mprobe/MPI_Improbe") +
                   " (or was received already)");
    return nullptr;
  }
  c = it->second;
  g_messages.erase(it);
  *message = MPI_MESSAGE_NULL;
  return u;
}

int mrecv(const char* call, void* buf, MPI_Count count, MPI_Datatype dt, MPI_Message* message, MPI_Status* status,
          MPI_Request* request) {
  if (!initialized()) return not_initialized(call);
  int rc = MPI_SUCCESS;
  P2pArgs a;
  // The buffer is checked before the message handle is decoded: errors go to
  // MPI_COMM_SELF's handler, the message's communicator is not known yet.
  if (!p2p_buffer_args(call, count, dt, nullptr, a, rc) || !p2p_buf_arg(call, "buf", buf, count, a, rc)) return rc;
  bool no_proc = false;
  CommObj* c = nullptr;  // MPI_MESSAGE_NO_PROC: errors (none can occur) to MPI_COMM_SELF
  Unexpected* u = message_arg(call, message, no_proc, c, rc);
  if (u == nullptr && !no_proc) return rc;
  auto* r = request != nullptr ? new_p2p_request(c) : nullptr;
  P2pRequest local;
  P2pRequest& q = r != nullptr ? *r : local;
  q.internal = r == nullptr;
  if (no_proc) {
    types::retain_internal(a.t);
    q.type = a.t;
    p2p::proc_null_status(q.status);
    q.state = P2pRequest::State::done;
    q.complete.store(true, std::memory_order_relaxed);
  } else {
    p2p::setup(q, P2pRequest::Op::recv, p2p::Mode::standard, c, buf, count, a.t, a.f, MPI_ANY_SOURCE, MPI_ANY_TAG);
    q.call = call;
    p2p::receive_message(q, u);  // a pipelined message is still streaming after this
  }
  if (r != nullptr) {
    *request = new_request_handle(r);
    return MPI_SUCCESS;
  }
  if (!p2p::wait(q, layout::P2pWait::recv)) {
    p2p::abandon(q);
    return p2p_aborted(c, call);
  }
  copy_recv_status(q.status, status);
  return q.status.MPI_ERROR == MPI_SUCCESS ? MPI_SUCCESS : raise_receive_error(c, q.status.MPI_ERROR);
}

}  // namespace

extern "C" int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return probe("MPI_Probe", source, tag, comm, nullptr, nullptr, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Probe, (int, int, MPI_Comm, MPI_Status*))

extern "C" int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  if (flag == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Iprobe: flag is NULL");
  return probe("MPI_Iprobe", source, tag, comm, flag, nullptr, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Iprobe, (int, int, MPI_Comm, int*, MPI_Status*))

extern "C" int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  if (message == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Mprobe: message is NULL");
  return probe("MPI_Mprobe", source, tag, comm, nullptr, message, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Mprobe, (int, int, MPI_Comm, MPI_Message*, MPI_Status*))

extern "C" int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  if (flag == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Improbe: flag is NULL");
  if (message == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Improbe: message is NULL");
  return probe("MPI_Improbe", source, tag, comm, flag, message, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Improbe, (int, int, MPI_Comm, int*, MPI_Message*, MPI_Status*))

extern "C" int PMPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  return mrecv("MPI_Mrecv", buf, count, datatype, message, status, nullptr);
}
SHMPI_PMPI_ALIAS(int, MPI_Mrecv, (void*, int, MPI_Datatype, MPI_Message*, MPI_Status*))

extern "C" int PMPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                            MPI_Status* status) {
  return mrecv("MPI_Mrecv_c", buf, count, datatype, message, status, nullptr);
}
SHMPI_PMPI_ALIAS(int, MPI_Mrecv_c, (void*, MPI_Count, MPI_Datatype, MPI_Message*, MPI_Status*))

extern "C" int PMPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  if (request == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Imrecv: request is NULL");
  return mrecv("MPI_Imrecv", buf, count, datatype, message, MPI_STATUS_IGNORE, request);
}
SHMPI_PMPI_ALIAS(int, MPI_Imrecv, (void*, int, MPI_Datatype, MPI_Message*, MPI_Request*))

extern "C" int PMPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                             MPI_Request* request) {
  if (request == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Imrecv_c: request is NULL");
  return mrecv("MPI_Imrecv_c", buf, count, datatype, message, MPI_STATUS_IGNORE, request);
}
SHMPI_PMPI_ALIAS(int, MPI_Imrecv_c, (void*, MPI_Count, MPI_Datatype, MPI_Message*, MPI_Request*))
