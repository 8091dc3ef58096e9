// Shared by the api_datatype*.cpp files: decoding datatype arguments.
#pragma once

#include <string>

#include "api.hpp"
#include "types/datatype.hpp"

namespace shmpi::client {

inline std::string describe_bad_type(MPI_Datatype h) {
  return h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "not a valid datatype (freed or never created)";
}

// The datatype behind `h`, or nullptr after raising MPI_ERR_TYPE on `comm` (nullptr:
// MPI_COMM_SELF's handler) with "<call>: <what> is ...".
inline types::Datatype* type_arg(MPI_Datatype h, const char* call, const char* what, int& rc,
                                 CommObj* comm = nullptr) {
  types::Datatype* t = types::lookup(h);
  if (t == nullptr) rc = raise(comm, MPI_ERR_TYPE, std::string(call) + ": " + what + " is " + describe_bad_type(h));
  return t;
}

// A NULL buffer is MPI_BOTTOM: valid only with a datatype whose data lie at absolute
// addresses. Data that would start below 64 KiB (Linux maps nothing there:
// vm.mmap_min_addr) or at a negative address cannot be user memory: true if `count`
// elements of t at `buf` are such a buffer, which the calls refuse (MPI_ERR_BUFFER)
// instead of faulting inside the copy.
inline bool bottom_without_addresses(const void* buf, MPI_Count count, const types::Datatype& t) {
  constexpr MPI_Count kNoUserMemoryBelow = 64 * 1024;
  return buf == nullptr && count > 0 && t.size > 0 && t.true_lb < kNoUserMemoryBelow;
}

inline std::string bottom_message(const char* call, const char* what, MPI_Count count, const types::Datatype& t) {
  return std::string(call) + ": " + what + " is NULL (MPI_BOTTOM) with count " + std::to_string(count) +
         " of a datatype whose data start at displacement " + std::to_string(t.true_lb) +
         ", not at an absolute address";
}

// Same, and the type must be committed (MPI-4.1 5.1.9); also returns its flattened form.
inline types::Datatype* committed_type_arg(MPI_Datatype h, const char* call, const char* what, int& rc,
                                           const types::Flat*& flat, CommObj* comm = nullptr) {
  types::Datatype* t = type_arg(h, call, what, rc, comm);
  if (t == nullptr) return nullptr;
  if (!t->committed) {
    rc = raise(comm, MPI_ERR_TYPE, std::string(call) + ": " + what + " is not committed (call MPI_Type_commit)");
    return nullptr;
  }
  flat = types::flatten(t);
  if (flat == nullptr) {
    rc = raise(comm, MPI_ERR_NO_MEM, std::string(call) + ": " + what + "'s type map is too fragmented to flatten");
    return nullptr;
  }
  return t;
}

}  // namespace shmpi::client
