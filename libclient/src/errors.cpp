#include "errors.hpp"

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdio>
#include <mutex>

#include "runtime.hpp"

namespace shmpi::client {
namespace {

// The ABI bounds every error code by MPI_ERR_LASTCODE (0x3fff). Codes that carry a
// message live in [kCodeBase, 0x3fff]: kCodeBase + slot * 64 + class, for the predefined
// classes below 64 (the MPI_T_ERR_* classes are never raised here). 1019..2047 stay free
// for MPI_Add_error_code.
constexpr int kCodeBase = 2048;
constexpr int kClassSpan = 64;
constexpr int kRingSize = (MPI_ERR_LASTCODE + 1 - kCodeBase) / kClassSpan;
static_assert(MPI_ERR_ABI < kClassSpan);
static_assert(kCodeBase + kRingSize * kClassSpan - 1 <= MPI_ERR_LASTCODE);

struct Recorded {
  int code = 0;
  std::string message;
};
std::mutex g_ring_mutex;
std::array<Recorded, kRingSize> g_ring;
unsigned g_next = 0;

const char* class_text(int cls) {
  switch (cls) {
    case MPI_SUCCESS: return "MPI_SUCCESS: no error";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER: invalid buffer pointer";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT: invalid count argument";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE: invalid datatype";
    case MPI_ERR_TAG: return "MPI_ERR_TAG: invalid tag";
    case MPI_ERR_COMM: return "MPI_ERR_COMM: invalid communicator";
    case MPI_ERR_RANK: return "MPI_ERR_RANK: invalid rank";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST: invalid request";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT: invalid root";
    case MPI_ERR_GROUP: return "MPI_ERR_GROUP: invalid group";
    case MPI_ERR_OP: return "MPI_ERR_OP: invalid operation";
    case MPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY: invalid topology";
    case MPI_ERR_DIMS: return "MPI_ERR_DIMS: invalid dimension argument";
    case MPI_ERR_ARG: return "MPI_ERR_ARG: invalid argument";
    case MPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN: unknown error";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE: message truncated on receive";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER: other error";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN: internal error";
    case MPI_ERR_PENDING: return "MPI_ERR_PENDING: pending request";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS: error code is in status";
    case MPI_ERR_ASSERT: return "MPI_ERR_ASSERT: invalid assert argument";
    case MPI_ERR_BASE: return "MPI_ERR_BASE: invalid base argument";
    case MPI_ERR_DISP: return "MPI_ERR_DISP: invalid displacement argument";
    case MPI_ERR_INFO: return "MPI_ERR_INFO: invalid info object";
    case MPI_ERR_INFO_KEY: return "MPI_ERR_INFO_KEY: invalid info key";
    case MPI_ERR_INFO_VALUE: return "MPI_ERR_INFO_VALUE: invalid info value";
    case MPI_ERR_INFO_NOKEY: return "MPI_ERR_INFO_NOKEY: info key not defined";
    case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL: invalid attribute key";
    case MPI_ERR_LOCKTYPE: return "MPI_ERR_LOCKTYPE: invalid lock type";
    case MPI_ERR_NAME: return "MPI_ERR_NAME: invalid service name";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM: out of memory";
    case MPI_ERR_NOT_SAME: return "MPI_ERR_NOT_SAME: arguments differ between processes";
    case MPI_ERR_PROC_ABORTED: return "MPI_ERR_PROC_ABORTED: a peer process has aborted";
    case MPI_ERR_RMA_ATTACH: return "MPI_ERR_RMA_ATTACH: memory cannot be attached";
    case MPI_ERR_RMA_CONFLICT: return "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window";
    case MPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE: target memory outside the window";
    case MPI_ERR_RMA_SHARED: return "MPI_ERR_RMA_SHARED: memory cannot be shared";
    case MPI_ERR_RMA_SYNC: return "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls";
    case MPI_ERR_RMA_FLAVOR: return "MPI_ERR_RMA_FLAVOR: wrong window flavor";
    case MPI_ERR_SIZE: return "MPI_ERR_SIZE: invalid size argument";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported";
    case MPI_ERR_VALUE_TOO_LARGE: return "MPI_ERR_VALUE_TOO_LARGE: value too large to store";
    case MPI_ERR_WIN: return "MPI_ERR_WIN: invalid window";
    case MPI_ERR_SESSION: return "MPI_ERR_SESSION: invalid session";
    case MPI_ERR_ERRHANDLER: return "MPI_ERR_ERRHANDLER: invalid error handler";
    case MPI_ERR_ABI: return "MPI_ERR_ABI: ABI mismatch";
    case MPI_ERR_ACCESS: return "MPI_ERR_ACCESS: permission denied";
    case MPI_ERR_AMODE: return "MPI_ERR_AMODE: invalid file access mode";
    case MPI_ERR_BAD_FILE: return "MPI_ERR_BAD_FILE: invalid file name";
    case MPI_ERR_CONVERSION: return "MPI_ERR_CONVERSION: data conversion failed";
    case MPI_ERR_DUP_DATAREP: return "MPI_ERR_DUP_DATAREP: data representation already defined";
    case MPI_ERR_FILE_EXISTS: return "MPI_ERR_FILE_EXISTS: file exists";
    case MPI_ERR_FILE_IN_USE: return "MPI_ERR_FILE_IN_USE: file in use";
    case MPI_ERR_FILE: return "MPI_ERR_FILE: invalid file handle";
    case MPI_ERR_IO: return "MPI_ERR_IO: I/O error";
    case MPI_ERR_NO_SPACE: return "MPI_ERR_NO_SPACE: not enough space";
    case MPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE: file does not exist";
    case MPI_ERR_PORT: return "MPI_ERR_PORT: invalid port name";
    case MPI_ERR_QUOTA: return "MPI_ERR_QUOTA: quota exceeded";
    case MPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY: read-only file or file system";
    case MPI_ERR_SERVICE: return "MPI_ERR_SERVICE: invalid service name";
    case MPI_ERR_SPAWN: return "MPI_ERR_SPAWN: error spawning processes";
    case MPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation";
    default: return nullptr;
  }
}

bool valid_class(int cls) {
  return (cls >= MPI_SUCCESS && cls <= MPI_ERR_ABI) ||
         (cls >= MPI_T_ERR_CANNOT_INIT && cls <= MPI_T_ERR_PVAR_NO_ATOMIC);
}

}  // namespace

int make_error_code(int cls, const std::string& message) {
  std::lock_guard<std::mutex> lock(g_ring_mutex);
  if (cls <= MPI_SUCCESS || cls >= kClassSpan) return cls;  // no room for a message
  const int slot = static_cast<int>(g_next++ % kRingSize);
  const int code = kCodeBase + slot * kClassSpan + cls;
  g_ring[slot] = {code, message};
  return code;
}

int error_class_of(int code) {
  if (valid_class(code)) return code;
  if (code < kCodeBase || code > MPI_ERR_LASTCODE) return -1;
  const int cls = (code - kCodeBase) % kClassSpan;
  return valid_class(cls) ? cls : -1;
}

std::string error_text(int code) {
  const int cls = error_class_of(code);
  if (cls < 0) return {};
  if (code >= kCodeBase) {
    std::lock_guard<std::mutex> lock(g_ring_mutex);
    const Recorded& r = g_ring[static_cast<std::size_t>((code - kCodeBase) / kClassSpan)];
    if (r.code == code) return r.message;
  }
  const char* t = class_text(cls);
  return t ? t : "MPI error class " + std::to_string(cls);
}

int invoke_errhandler(CommObj* comm, int code) {
  // MPI-4.1 9.3: an error not associated with a valid object is raised on
  // MPI_COMM_SELF (whose handler is the initial error handler before MPI_Init).
  CommObj* c = comm ? comm : &g_self;
  ErrhandlerObj* eh = c->errhandler;
  switch (eh->kind) {
    case ErrhandlerObj::Kind::ret:
      return code;
    case ErrhandlerObj::Kind::user: {
      MPI_Comm h = c->handle;
      int e = code;
      eh->fn(&h, &e);
      return code;
    }
    case ErrhandlerObj::Kind::fatal:
    case ErrhandlerObj::Kind::abort:
      break;
  }
  fatal_error(code);
}

void fatal_error(int code) {
  // An error a dead peer caused (its memory or inbox vanished first) must not pass for
  // the job's cause: let the broker, which names the dead rank, abort the job first.
  if (g_rt.phase == Phase::initialized) await_abort_after_peer_loss(0);
  std::fflush(stdout);
  std::fprintf(stderr, "shmpi: rank %u (pid %d): %s\n", g_rt.rank, static_cast<int>(getpid()),
               error_text(code).c_str());
  std::fflush(stderr);
  // When the job already aborted there is nobody left to tell; leave with the job's
  // abort status. Otherwise abort the job (MPI_ERRORS_ARE_FATAL and, for the only
  // communicators that exist so far, MPI_ERRORS_ABORT alike: all of the job's ranks).
  if (g_rt.phase == Phase::initialized && job_aborted_now()) _exit(abort_exit_code());
  abort_job(error_class_of(code) > 0 ? error_class_of(code) : 1);
}

int raise(CommObj* comm, int cls, const std::string& message) {
  return invoke_errhandler(comm, make_error_code(cls, message));
}

int not_initialized(const char* call) {
  const bool after = g_rt.phase == Phase::finalized;
  return raise(nullptr, MPI_ERR_OTHER,
               std::string(call) + (after ? ": called after MPI_Finalize" : ": called before MPI_Init"));
}

int bad_comm_arg(MPI_Comm comm, const char* call) {
  return raise(nullptr, MPI_ERR_COMM,
               std::string(call) + ": comm is " + (comm == MPI_COMM_NULL ? "MPI_COMM_NULL" : "not a valid communicator"));
}

}  // namespace shmpi::client
