// Raising MPI errors: every failure names the call and the offending argument.
//
// An error code carries its message: the library keeps the most recent messages in a
// ring and encodes the ring slot above the error class, so under MPI_ERRORS_RETURN
// MPI_Error_string(code) still says what went wrong, and MPI_Error_class(code) gives
// the standard class.
#pragma once

#include <mpi.h>

#include <string>

#include "objects.hpp"

namespace shmpi::client {

// Records `message` ("MPI_Xxx: what is wrong") and returns a code of class `cls`.
int make_error_code(int cls, const std::string& message);
// Error class of any code this library returned, or -1 if it is not one.
int error_class_of(int code);
// Message for `code` (the recorded one, else the class's description), or "" if none.
std::string error_text(int code);

// Applies `comm`'s error handler (MPI_COMM_SELF's when comm is null: the error is not
// associated with a valid object, MPI-4.1 9.3) to a new error and returns the code for the caller to
// return (only reached when the handler returns).
int raise(CommObj* comm, int cls, const std::string& message);
// Same, for an existing code (MPI_Comm_call_errhandler).
int invoke_errhandler(CommObj* comm, int code);

// MPI_ERRORS_ARE_FATAL / MPI_ERRORS_ABORT: prints the error and aborts the job.
[[noreturn]] void fatal_error(int code);

// The error for a call made outside [MPI_Init, MPI_Finalize].
[[gnu::cold]] int not_initialized(const char* call);
// MPI_ERR_COMM for an invalid communicator argument (raised on no communicator: there
// is no valid object to raise it on).
[[gnu::cold]] int bad_comm_arg(MPI_Comm comm, const char* call);

}  // namespace shmpi::client
