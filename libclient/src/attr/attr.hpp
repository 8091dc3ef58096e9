// Attribute caching (MPI-4.1 7.7): keyvals and the attributes cached on communicators,
// datatypes and windows, with their copy and delete callbacks.
//
// Keyvals are small positive ints: the predefined ones are the ABI's numbers (MPI_TAG_UB
// 501 ... MPI_UNIVERSE_SIZE 507, MPI_WIN_BASE 601 ... MPI_WIN_MODEL 605); user keyvals
// count up from kFirstUserKeyval and are never reused, so a stale copy of a freed keyval
// is an error (MPI_ERR_KEYVAL), never another key. A keyval is reference counted: the
// user's handle plus one per attached attribute. MPI_Xxx_free_keyval drops the handle; the
// callbacks stay callable until the last attribute using it is deleted (MPI-4.1 7.7.2).
//
// Where attributes live: a communicator's in CommObj::attrs; a datatype's and a window's
// in side tables keyed by the object's address (emptied when the object is freed).
// Attributes keep the order in which they were set (setting an existing one again is a
// delete followed by a set, so it moves to the end): copies run in that order and
// deletions of a whole object in the reverse order, which is what MPI-4.1 asks of
// MPI_COMM_SELF at MPI_Finalize ("Allowing User Functions at MPI Process Termination")
// and a sensible order everywhere else.
//
// The predefined communicator attributes (MPI-4.1 9.1.2) are cached on MPI_COMM_WORLD:
//   MPI_TAG_UB INT_MAX, MPI_HOST MPI_PROC_NULL, MPI_IO MPI_ANY_SOURCE,
//   MPI_WTIME_IS_GLOBAL 1 (one CLOCK_MONOTONIC on one node), MPI_UNIVERSE_SIZE the world
//   size, MPI_LASTUSEDCODE (set_last_used_code), MPI_APPNUM not set (no MPMD launch).
// A duplicate of a communicator that has them inherits all but MPI_LASTUSEDCODE (the
// predefined keyvals copy like MPI_COMM_DUP_FN, MPI_LASTUSEDCODE like
// MPI_COMM_NULL_COPY_FN). Their values are ints, returned as pointers to an int.
// Predefined keyvals cannot be set, deleted or freed (MPI_ERR_KEYVAL).
//
// Callbacks run without any lock held, so they may call MPI (attribute calls on the same
// object included). No function here invokes an error handler: they return MPI_SUCCESS or
// an error code made by make_error_code, which the caller passes to the handler of the
// object concerned (invoke_errhandler(comm, rc), raise_win...).
#pragma once

#include <mpi.h>

#include "objects.hpp"

namespace shmpi::client {
struct WinObj;
namespace types {
struct Datatype;
}
}  // namespace shmpi::client

namespace shmpi::client::attr {

enum class Kind { comm, type, win };

constexpr int kFirstUserKeyval = 1024;

// ---- whole-object operations, for the calls that create and free objects --------------

// MPI_Comm_dup / MPI_Comm_dup_with_info / MPI_Comm_idup: runs the copy callbacks of
// oldc's attributes (in the order they were set) and attaches to newc each one whose
// callback set flag = 1 (MPI_COMM_DUP_FN: the same value). newc inherits the predefined
// attributes if oldc has them. If a callback returns an error, the attributes already
// attached to newc are deleted again (their delete callbacks run, errors ignored) and
// the error is returned as a code of its class (MPI_ERR_OTHER for a code that is no MPI
// error code) naming `call` and the keyval; the caller then fails (and frees newc), passing
// the code to invoke_errhandler(oldc, rc).
int copy_comm_attrs(CommObj* oldc, CommObj* newc, const char* call = "MPI_Comm_dup");
// MPI_Comm_free, and MPI_Finalize on MPI_COMM_SELF (first thing: MPI-4.1 "Allowing User
// Functions at MPI Process Termination"): runs the delete callbacks, last-set attribute
// first, and releases c's list. If a callback returns an error, deletion stops there: that
// attribute and the ones set before it stay attached, and the error is returned (the
// caller should then not free c, and pass the code to invoke_errhandler(c, rc)).
int delete_comm_attrs(CommObj* c, const char* call = "MPI_Comm_free");

// MPI_Type_dup / MPI_Type_free (the last handle of the type): the same for datatypes.
int copy_type_attrs(types::Datatype* oldt, types::Datatype* newt);
int delete_type_attrs(types::Datatype* t);
// MPI_Win_free: the same for windows (MPI_Win_free runs it before freeing).
int delete_win_attrs(WinObj* w);
// Whether any user attribute is cached on the object (for callers that want to skip work).
bool has_type_attrs(const types::Datatype* t);

// MPI_LASTUSEDCODE's value (MPI_ERR_LASTCODE until MPI_Add_error_class/_code add more).
void set_last_used_code(int code);

// ---- the calls, by object ------------------------------------------------------------

// The object an attribute call is about: its kind, the object itself (CommObj*,
// types::Datatype*, WinObj*) and the handle the callbacks receive.
struct Object {
  Kind kind;
  void* obj;
  void* handle;
};
Object comm_object(CommObj* c);
Object type_object(types::Datatype* t);
Object win_object(WinObj* w);

// copy_fn / delete_fn are the MPI_Xxx_copy_attr_function* / MPI_Xxx_delete_attr_function*
// of `kind`, cast to void(*)(); 0 and 1 are MPI_XXX_NULL_COPY_FN / MPI_XXX_DUP_FN and 0
// MPI_XXX_NULL_DELETE_FN (mpi.h), recognised and never called.
using AnyFn = void (*)();
int create_keyval(Kind kind, AnyFn copy_fn, AnyFn delete_fn, int* keyval, void* extra_state, const char* call);
int free_keyval(Kind kind, int* keyval, const char* call);

int set_attr(const Object& o, int keyval, void* value, const char* call);
// *(void**)attribute_val = the value, *flag = 1; *flag = 0 if not set.
int get_attr(const Object& o, int keyval, void* attribute_val, int* flag, const char* call);
// Deleting an attribute that is not set is not an error (nothing happens).
int delete_attr(const Object& o, int keyval, const char* call);

// For tests: keyvals alive (user handles not yet freed, or still referenced by attributes).
int live_user_keyvals();

}  // namespace shmpi::client::attr
