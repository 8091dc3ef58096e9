// Attribute caching (MPI-4.1 7.7): keyvals and attributes on communicators, datatypes and
// windows. attr/attr.cpp keeps the keyvals and attributes and runs the callbacks; here the
// arguments are decoded and errors raised: on the communicator for the MPI_Comm_*_attr
// calls, on the window for MPI_Win_*_attr, and on MPI_COMM_SELF (no communicator is
// involved) for the keyval calls and the datatype attributes. MPI_Win_get_attr is in
// api_win.cpp, next to the predefined window attributes it serves.
//
// As for error handler creation, keyvals can be created and freed outside
// [MPI_Init, MPI_Finalize]; so can datatype attributes, like every datatype call. The
// communicator and window calls need an initialized MPI (their objects exist only then).
#include "api.hpp"
#include "api_datatype.hpp"
#include "attr/attr.hpp"
#include "rma/window.hpp"

using namespace shmpi::client;
namespace at = shmpi::client::attr;

namespace {

// Hands a code from attr:: to the error handler of the object concerned.
int deliver(CommObj* c, int rc) { return rc == MPI_SUCCESS ? rc : invoke_errhandler(c, rc); }
int deliver_win(WinObj* w, int rc) { return rc == MPI_SUCCESS ? rc : raise_win(w, error_class_of(rc), error_text(rc)); }

WinObj* win_arg(MPI_Win win, const char* call, int& rc) {
  if (!initialized()) {
    rc = not_initialized(call);
    return nullptr;
  }
  WinObj* w = to_win(win);
  if (w == nullptr) {
    rc = raise(nullptr, MPI_ERR_WIN,
               std::string(call) + ": win is " + (win == MPI_WIN_NULL ? "MPI_WIN_NULL" : "not a valid window"));
  }
  return w;
}

template <class F>
at::AnyFn any(F* f) {
  return reinterpret_cast<at::AnyFn>(f);
}

}  // namespace

// ---- communicators --------------------------------------------------------------------

extern "C" int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                                       MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
                                       void* extra_state) {
  return deliver(nullptr, at::create_keyval(at::Kind::comm, any(comm_copy_attr_fn), any(comm_delete_attr_fn), comm_keyval,
                                            extra_state, "MPI_Comm_create_keyval"));
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_create_keyval, (MPI_Comm_copy_attr_function*, MPI_Comm_delete_attr_function*, int*, void*))

extern "C" int PMPI_Comm_free_keyval(int* comm_keyval) {
  return deliver(nullptr, at::free_keyval(at::Kind::comm, comm_keyval, "MPI_Comm_free_keyval"));
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_free_keyval, (int*))

extern "C" int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  const char* call = "MPI_Comm_set_attr";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  return deliver(c, at::set_attr(at::comm_object(c), comm_keyval, attribute_val, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_set_attr, (MPI_Comm, int, void*))

extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  const char* call = "MPI_Comm_get_attr";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  return deliver(c, at::get_attr(at::comm_object(c), comm_keyval, attribute_val, flag, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_get_attr, (MPI_Comm, int, void*, int*))

extern "C" int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  const char* call = "MPI_Comm_delete_attr";
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  return deliver(c, at::delete_attr(at::comm_object(c), comm_keyval, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_delete_attr, (MPI_Comm, int))

// ---- datatypes ------------------------------------------------------------------------

extern "C" int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                                       MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval,
                                       void* extra_state) {
  return deliver(nullptr, at::create_keyval(at::Kind::type, any(type_copy_attr_fn), any(type_delete_attr_fn), type_keyval,
                                            extra_state, "MPI_Type_create_keyval"));
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_keyval, (MPI_Type_copy_attr_function*, MPI_Type_delete_attr_function*, int*, void*))

extern "C" int PMPI_Type_free_keyval(int* type_keyval) {
  return deliver(nullptr, at::free_keyval(at::Kind::type, type_keyval, "MPI_Type_free_keyval"));
}
SHMPI_PMPI_ALIAS(int, MPI_Type_free_keyval, (int*))

extern "C" int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  const char* call = "MPI_Type_set_attr";
  int rc = MPI_SUCCESS;
  types::Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  return deliver(nullptr, at::set_attr(at::type_object(t), type_keyval, attribute_val, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Type_set_attr, (MPI_Datatype, int, void*))

extern "C" int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  const char* call = "MPI_Type_get_attr";
  int rc = MPI_SUCCESS;
  types::Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  return deliver(nullptr, at::get_attr(at::type_object(t), type_keyval, attribute_val, flag, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_attr, (MPI_Datatype, int, void*, int*))

extern "C" int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  const char* call = "MPI_Type_delete_attr";
  int rc = MPI_SUCCESS;
  types::Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  return deliver(nullptr, at::delete_attr(at::type_object(t), type_keyval, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Type_delete_attr, (MPI_Datatype, int))

// ---- windows --------------------------------------------------------------------------

extern "C" int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                                      MPI_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval,
                                      void* extra_state) {
  return deliver(nullptr, at::create_keyval(at::Kind::win, any(win_copy_attr_fn), any(win_delete_attr_fn), win_keyval,
                                            extra_state, "MPI_Win_create_keyval"));
}
SHMPI_PMPI_ALIAS(int, MPI_Win_create_keyval, (MPI_Win_copy_attr_function*, MPI_Win_delete_attr_function*, int*, void*))

extern "C" int PMPI_Win_free_keyval(int* win_keyval) {
  return deliver(nullptr, at::free_keyval(at::Kind::win, win_keyval, "MPI_Win_free_keyval"));
}
SHMPI_PMPI_ALIAS(int, MPI_Win_free_keyval, (int*))

extern "C" int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  const char* call = "MPI_Win_set_attr";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  return deliver_win(w, at::set_attr(at::win_object(w), win_keyval, attribute_val, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Win_set_attr, (MPI_Win, int, void*))

extern "C" int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  const char* call = "MPI_Win_delete_attr";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  return deliver_win(w, at::delete_attr(at::win_object(w), win_keyval, call));
}
SHMPI_PMPI_ALIAS(int, MPI_Win_delete_attr, (MPI_Win, int))
