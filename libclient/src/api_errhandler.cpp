// Error handlers on communicators, MPI_Error_class, MPI_Error_string.
#include <cstring>

#include "api.hpp"

using namespace shmpi::client;

// Errhandler calls work at any time (the predefined communicators and handlers are
// static objects), which lets a program pick MPI_ERRORS_RETURN before MPI_Init.

extern "C" int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler) {
  if (fn == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Comm_create_errhandler: comm_errhandler_fn is NULL");
  if (errhandler == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Comm_create_errhandler: errhandler is NULL");
  *errhandler = to_handle(new_user_errhandler(fn));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_create_errhandler, (MPI_Comm_errhandler_function*, MPI_Errhandler*))

extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(comm, "MPI_Comm_set_errhandler", rc);
  if (c == nullptr) return rc;
  ErrhandlerObj* e = to_errhandler(errhandler);
  if (e == nullptr) {
    return raise(c, MPI_ERR_ARG, std::string("MPI_Comm_set_errhandler: errhandler is ") +
                                     (errhandler == MPI_ERRHANDLER_NULL ? "MPI_ERRHANDLER_NULL" : "not a valid errhandler"));
  }
  // A window's handler would be called with an MPI_Comm* where it expects an MPI_Win*
  // (MPI-4.1 9.3: the handler must have been created for communicators).
  if (e->for_win) {
    return raise(c, MPI_ERR_ARG,
                 "MPI_Comm_set_errhandler: errhandler was created by MPI_Win_create_errhandler, not for communicators");
  }
  retain(e);
  release(c->errhandler);
  c->errhandler = e;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_set_errhandler, (MPI_Comm, MPI_Errhandler))

extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(comm, "MPI_Comm_get_errhandler", rc);
  if (c == nullptr) return rc;
  if (errhandler == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_get_errhandler: errhandler is NULL");
  // The returned handle is a new reference the caller frees with MPI_Errhandler_free.
  retain(c->errhandler);
  *errhandler = to_handle(c->errhandler);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_get_errhandler, (MPI_Comm, MPI_Errhandler*))

extern "C" int PMPI_Errhandler_free(MPI_Errhandler* errhandler) {
  if (errhandler == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Errhandler_free: errhandler is NULL");
  ErrhandlerObj* e = to_errhandler(*errhandler);
  if (e == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Errhandler_free: *errhandler is not a valid errhandler");
  release(e);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Errhandler_free, (MPI_Errhandler*))

extern "C" int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(comm, "MPI_Comm_call_errhandler", rc);
  if (c == nullptr) return rc;
  invoke_errhandler(c, errorcode);
  // MPI-4.1 9.3.5: returns MPI_SUCCESS if the handler returned.
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_call_errhandler, (MPI_Comm, int))

extern "C" int PMPI_Error_class(int errorcode, int* errorclass) {
  if (errorclass == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Error_class: errorclass is NULL");
  const int cls = shmpi::client::error_class_of(errorcode);
  if (cls < 0) return raise(nullptr, MPI_ERR_ARG, "MPI_Error_class: " + std::to_string(errorcode) + " is not an error code");
  *errorclass = cls;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Error_class, (int, int*))

extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  if (string == nullptr || resultlen == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Error_string: string or resultlen is NULL");
  }
  const std::string t = shmpi::client::error_text(errorcode);
  if (t.empty()) return raise(nullptr, MPI_ERR_ARG, "MPI_Error_string: " + std::to_string(errorcode) + " is not an error code");
  const std::size_t n = std::min<std::size_t>(t.size(), MPI_MAX_ERROR_STRING - 1);
  std::memcpy(string, t.data(), n);
  string[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Error_string, (int, char*, int*))
