// MPI_Pack/MPI_Unpack/MPI_Pack_size (MPI-4.1 5.2) and counts from a status:
// MPI_Get_count, MPI_Get_elements, MPI_Status_set_elements (MPI-4.1 3.2.5, 5.1.11,
// 13.3). The byte count lives in the status's reserved ints (types/status.hpp).
#include <limits>

#include "api_datatype.hpp"
#include "types/pack.hpp"
#include "types/status.hpp"

using namespace shmpi::client;
using shmpi::client::types::Datatype;
using shmpi::client::types::Flat;

namespace {

int arg_error(CommObj* c, const char* call, const std::string& what) {
  return raise(c, MPI_ERR_ARG, std::string(call) + ": " + what);
}

template <class C>
int pack(const char* call, const void* inbuf, C incount, MPI_Datatype datatype, void* outbuf, C outsize, C* position,
         MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (incount < 0) return raise(c, MPI_ERR_COUNT, std::string(call) + ": incount is negative");
  const Flat* flat = nullptr;
  Datatype* t = committed_type_arg(datatype, call, "datatype", rc, flat, c);
  if (t == nullptr) return rc;
  if (position == nullptr) return arg_error(c, call, "position is NULL");
  if (*position < 0 || outsize < 0 || *position > outsize) {
    return arg_error(c, call, "*position is not in 0..outsize");
  }
  if (t->size > 0 && incount > (outsize - *position) / t->size) {
    return raise(c, MPI_ERR_TRUNCATE,
                 std::string(call) + ": outbuf has " + std::to_string(outsize - *position) + " bytes left after *position, " +
                     std::to_string(static_cast<MPI_Count>(incount) * t->size) + " needed");
  }
  const MPI_Count bytes = static_cast<MPI_Count>(incount) * t->size;
  // (inbuf may be MPI_BOTTOM, i.e. NULL, with absolute displacements.)
  if (bottom_without_addresses(inbuf, incount, *t)) {
    return raise(c, MPI_ERR_BUFFER, bottom_message(call, "inbuf", incount, *t));
  }
  if (bytes > 0 && outbuf == nullptr) return raise(c, MPI_ERR_BUFFER, std::string(call) + ": outbuf is NULL");
  types::pack(*t, *flat, inbuf, incount, static_cast<char*>(outbuf) + *position);
  *position += static_cast<C>(bytes);
  return MPI_SUCCESS;
}

template <class C>
int unpack(const char* call, const void* inbuf, C insize, C* position, void* outbuf, C outcount,
           MPI_Datatype datatype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (outcount < 0) return raise(c, MPI_ERR_COUNT, std::string(call) + ": outcount is negative");
  const Flat* flat = nullptr;
  Datatype* t = committed_type_arg(datatype, call, "datatype", rc, flat, c);
  if (t == nullptr) return rc;
  if (position == nullptr) return arg_error(c, call, "position is NULL");
  if (*position < 0 || insize < 0 || *position > insize) return arg_error(c, call, "*position is not in 0..insize");
  if (t->size > 0 && outcount > (insize - *position) / t->size) {
    return raise(c, MPI_ERR_TRUNCATE,
                 std::string(call) + ": inbuf has " + std::to_string(insize - *position) + " bytes left after *position, " +
                     std::to_string(static_cast<MPI_Count>(outcount) * t->size) + " needed");
  }
  const MPI_Count bytes = static_cast<MPI_Count>(outcount) * t->size;
  // (outbuf may be MPI_BOTTOM, i.e. NULL, with absolute displacements.)
  if (bytes > 0 && inbuf == nullptr) return raise(c, MPI_ERR_BUFFER, std::string(call) + ": inbuf is NULL");
  if (bottom_without_addresses(outbuf, outcount, *t)) {
    return raise(c, MPI_ERR_BUFFER, bottom_message(call, "outbuf", outcount, *t));
  }
  types::unpack(*t, *flat, static_cast<const char*>(inbuf) + *position, outcount, outbuf);
  *position += static_cast<C>(bytes);
  return MPI_SUCCESS;
}

template <class C>
int pack_size(const char* call, C incount, MPI_Datatype datatype, MPI_Comm comm, C* size) {
  int rc = MPI_SUCCESS;
  CommObj* c = comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (incount < 0) return raise(c, MPI_ERR_COUNT, std::string(call) + ": incount is negative");
  Datatype* t = type_arg(datatype, call, "datatype", rc, c);
  if (t == nullptr) return rc;
  if (size == nullptr) return arg_error(c, call, "size is NULL");
  if (t->size > 0 && incount > std::numeric_limits<C>::max() / t->size) {
    return raise(c, MPI_ERR_VALUE_TOO_LARGE, std::string(call) + ": incount * size of datatype does not fit in size");
  }
  *size = static_cast<C>(incount * t->size);
  return MPI_SUCCESS;
}

// Basic elements in the first `bytes` bytes of a stream of elements of t, or -1 if the
// bytes end inside a basic element.
MPI_Count elements_in(const Datatype& t, const Flat& f, MPI_Count bytes) {
  if (t.size == 0) return 0;
  MPI_Count n = bytes / t.size * t.elements;
  MPI_Count rem = bytes % t.size;
  for (const types::ElemRun& r : f.elems) {
    if (rem == 0) break;
    const MPI_Count k = std::min(r.count, rem / r.size);
    n += k;
    rem -= k * r.size;
    if (k < r.count) break;
  }
  return rem == 0 ? n : -1;
}

// Bytes taken by the first `count` basic elements of a stream of elements of t.
MPI_Count bytes_of_elements(const Datatype& t, const Flat& f, MPI_Count count) {
  if (t.elements == 0) return 0;
  MPI_Count bytes = count / t.elements * t.size;
  MPI_Count rem = count % t.elements;
  for (const types::ElemRun& r : f.elems) {
    if (rem == 0) break;
    const MPI_Count k = std::min(r.count, rem);
    bytes += k * r.size;
    rem -= k;
  }
  return bytes;
}

const MPI_Status* status_arg(const char* call, const MPI_Status* status, int& rc) {
  if (status == nullptr) rc = raise(nullptr, MPI_ERR_ARG, std::string(call) + ": status is NULL (MPI_STATUS_IGNORE)");
  return status;
}

template <class C>
int get_count(const char* call, const MPI_Status* status, MPI_Datatype datatype, C* count) {
  int rc = MPI_SUCCESS;
  if (status_arg(call, status, rc) == nullptr) return rc;
  const Flat* flat = nullptr;
  Datatype* t = committed_type_arg(datatype, call, "datatype", rc, flat);
  if (t == nullptr) return rc;
  if (count == nullptr) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": count is NULL");
  const MPI_Count bytes = types::status_bytes(*status);
  // MPI-4.1 3.2.5: a zero-size type gives 0; a partial element or a count that does
  // not fit gives MPI_UNDEFINED.
  if (t->size == 0) {
    *count = 0;
  } else if (bytes % t->size != 0 || bytes / t->size > std::numeric_limits<C>::max()) {
    *count = MPI_UNDEFINED;
  } else {
    *count = static_cast<C>(bytes / t->size);
  }
  return MPI_SUCCESS;
}

template <class C>
int get_elements(const char* call, const MPI_Status* status, MPI_Datatype datatype, C* count) {
  int rc = MPI_SUCCESS;
  if (status_arg(call, status, rc) == nullptr) return rc;
  const Flat* flat = nullptr;
  Datatype* t = committed_type_arg(datatype, call, "datatype", rc, flat);
  if (t == nullptr) return rc;
  if (count == nullptr) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": count is NULL");
  const MPI_Count n = elements_in(*t, *flat, types::status_bytes(*status));
  *count = n < 0 || n > std::numeric_limits<C>::max() ? static_cast<C>(MPI_UNDEFINED) : static_cast<C>(n);
  return MPI_SUCCESS;
}

template <class C>
int set_elements(const char* call, MPI_Status* status, MPI_Datatype datatype, C count) {
  int rc = MPI_SUCCESS;
  if (status == nullptr) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": status is NULL");
  if (count < 0) return raise(nullptr, MPI_ERR_COUNT, std::string(call) + ": count is negative");
  const Flat* flat = nullptr;
  Datatype* t = committed_type_arg(datatype, call, "datatype", rc, flat);
  if (t == nullptr) return rc;
  if (t->elements == 0 && count > 0) {
    return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": datatype has no basic elements but count > 0");
  }
  types::set_status_bytes(*status, bytes_of_elements(*t, *flat, count));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
                         int* position, MPI_Comm comm) {
  return pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position, comm);
}
SHMPI_PMPI_ALIAS(int, MPI_Pack, (const void*, int, MPI_Datatype, void*, int, int*, MPI_Comm))

extern "C" int PMPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf,
                           MPI_Count outsize, MPI_Count* position, MPI_Comm comm) {
  return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}
SHMPI_PMPI_ALIAS(int, MPI_Pack_c, (const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Count*, MPI_Comm))

extern "C" int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                           MPI_Datatype datatype, MPI_Comm comm) {
  return unpack("MPI_Unpack", inbuf, insize, position, outbuf, outcount, datatype, comm);
}
SHMPI_PMPI_ALIAS(int, MPI_Unpack, (const void*, int, int*, void*, int, MPI_Datatype, MPI_Comm))

extern "C" int PMPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf,
                             MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}
SHMPI_PMPI_ALIAS(int, MPI_Unpack_c, (const void*, MPI_Count, MPI_Count*, void*, MPI_Count, MPI_Datatype, MPI_Comm))

extern "C" int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  return pack_size("MPI_Pack_size", incount, datatype, comm, size);
}
SHMPI_PMPI_ALIAS(int, MPI_Pack_size, (int, MPI_Datatype, MPI_Comm, int*))

extern "C" int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size) {
  return pack_size("MPI_Pack_size_c", incount, datatype, comm, size);
}
SHMPI_PMPI_ALIAS(int, MPI_Pack_size_c, (MPI_Count, MPI_Datatype, MPI_Comm, MPI_Count*))

extern "C" int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return get_count("MPI_Get_count", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Get_count, (const MPI_Status*, MPI_Datatype, int*))

extern "C" int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return get_count("MPI_Get_count_c", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Get_count_c, (const MPI_Status*, MPI_Datatype, MPI_Count*))

extern "C" int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return get_elements("MPI_Get_elements", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Get_elements, (const MPI_Status*, MPI_Datatype, int*))

extern "C" int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return get_elements("MPI_Get_elements_x", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Get_elements_x, (const MPI_Status*, MPI_Datatype, MPI_Count*))

extern "C" int PMPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return get_elements("MPI_Get_elements_c", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Get_elements_c, (const MPI_Status*, MPI_Datatype, MPI_Count*))

extern "C" int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Status_set_elements, (MPI_Status*, MPI_Datatype, int))

extern "C" int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Status_set_elements_x, (MPI_Status*, MPI_Datatype, MPI_Count))

extern "C" int PMPI_Status_set_elements_c(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements("MPI_Status_set_elements_c", status, datatype, count);
}
SHMPI_PMPI_ALIAS(int, MPI_Status_set_elements_c, (MPI_Status*, MPI_Datatype, MPI_Count))
