// Datatype queries: size, extents, envelope/contents, names; addresses (MPI-4.1
// 5.1.5, 5.1.13, 7.8.1).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "api_datatype.hpp"

using namespace shmpi::client;
using shmpi::client::types::Datatype;

namespace {

int arg_error(const char* call, const std::string& what) { return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": " + what); }

template <class C>
int type_size(const char* call, MPI_Datatype datatype, C* size) {
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  if (size == nullptr) return arg_error(call, "size is NULL");
  // MPI-4.1 5.1.5: the int variant returns MPI_UNDEFINED if the size does not fit.
  *size = t->size > std::numeric_limits<C>::max() ? static_cast<C>(MPI_UNDEFINED) : static_cast<C>(t->size);
  return MPI_SUCCESS;
}

template <class A>
int extent_of(const char* call, MPI_Datatype datatype, A* lb, A* extent, bool true_extent) {
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  if (lb == nullptr || extent == nullptr) return arg_error(call, true_extent ? "true_lb or true_extent is NULL" : "lb or extent is NULL");
  *lb = static_cast<A>(true_extent ? t->true_lb : t->lb);
  *extent = static_cast<A>(true_extent ? t->true_extent() : t->extent());
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) { return type_size("MPI_Type_size", datatype, size); }
SHMPI_PMPI_ALIAS(int, MPI_Type_size, (MPI_Datatype, int*))

extern "C" int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  return type_size("MPI_Type_size_x", datatype, size);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_size_x, (MPI_Datatype, MPI_Count*))

extern "C" int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  return type_size("MPI_Type_size_c", datatype, size);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_size_c, (MPI_Datatype, MPI_Count*))

extern "C" int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return extent_of("MPI_Type_get_extent", datatype, lb, extent, false);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_extent, (MPI_Datatype, MPI_Aint*, MPI_Aint*))

extern "C" int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return extent_of("MPI_Type_get_extent_x", datatype, lb, extent, false);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_extent_x, (MPI_Datatype, MPI_Count*, MPI_Count*))

extern "C" int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return extent_of("MPI_Type_get_extent_c", datatype, lb, extent, false);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_extent_c, (MPI_Datatype, MPI_Count*, MPI_Count*))

extern "C" int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return extent_of("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_true_extent, (MPI_Datatype, MPI_Aint*, MPI_Aint*))

extern "C" int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return extent_of("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_true_extent_x, (MPI_Datatype, MPI_Count*, MPI_Count*))

extern "C" int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return extent_of("MPI_Type_get_true_extent_c", datatype, true_lb, true_extent, true);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_true_extent_c, (MPI_Datatype, MPI_Count*, MPI_Count*))

// ---- envelope and contents (MPI-4.1 5.1.13) -------------------------------------------

extern "C" int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                                      int* num_datatypes, int* combiner) {
  const char* call = "MPI_Type_get_envelope";
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  if (num_integers == nullptr || num_addresses == nullptr || num_datatypes == nullptr || combiner == nullptr) {
    return arg_error(call, "an output argument is NULL");
  }
  if (!t->counts.empty()) {
    return raise(nullptr, MPI_ERR_TYPE,
                 std::string(call) + ": datatype was built by a large-count constructor; use MPI_Type_get_envelope_c");
  }
  *num_integers = static_cast<int>(t->ints.size());
  *num_addresses = static_cast<int>(t->addrs.size());
  *num_datatypes = static_cast<int>(t->children.size());
  *combiner = t->combiner;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_envelope, (MPI_Datatype, int*, int*, int*, int*))

extern "C" int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers, MPI_Count* num_addresses,
                                        MPI_Count* num_large_counts, MPI_Count* num_datatypes, int* combiner) {
  const char* call = "MPI_Type_get_envelope_c";
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  if (num_integers == nullptr || num_addresses == nullptr || num_large_counts == nullptr || num_datatypes == nullptr ||
      combiner == nullptr) {
    return arg_error(call, "an output argument is NULL");
  }
  *num_integers = static_cast<MPI_Count>(t->ints.size());
  *num_addresses = static_cast<MPI_Count>(t->addrs.size());
  *num_large_counts = static_cast<MPI_Count>(t->counts.size());
  *num_datatypes = static_cast<MPI_Count>(t->children.size());
  *combiner = t->combiner;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_envelope_c, (MPI_Datatype, MPI_Count*, MPI_Count*, MPI_Count*, MPI_Count*, int*))

namespace {

int contents(const char* call, MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
             MPI_Count max_large_counts, MPI_Count max_datatypes, int* ints, MPI_Aint* addrs, MPI_Count* counts,
             MPI_Datatype* dts, bool large_variant) {
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, call, "datatype", rc);
  if (t == nullptr) return rc;
  if (t->combiner == MPI_COMBINER_NAMED) {
    return raise(nullptr, MPI_ERR_TYPE, std::string(call) + ": datatype is a predefined (named) datatype");
  }
  if (!large_variant && !t->counts.empty()) {
    return raise(nullptr, MPI_ERR_TYPE,
                 std::string(call) + ": datatype was built by a large-count constructor; use MPI_Type_get_contents_c");
  }
  const auto too_small = [&](MPI_Count max, std::size_t n, const void* p, const char* what) {
    return max < static_cast<MPI_Count>(n) || (n > 0 && p == nullptr)
               ? arg_error(call, std::string(what) + " is smaller than the envelope says (or NULL)")
               : MPI_SUCCESS;
  };
  if ((rc = too_small(max_integers, t->ints.size(), ints, "array_of_integers")) ||
      (rc = too_small(max_addresses, t->addrs.size(), addrs, "array_of_addresses")) ||
      (rc = too_small(max_large_counts, t->counts.size(), counts, "array_of_large_counts")) ||
      (rc = too_small(max_datatypes, t->children.size(), dts, "array_of_datatypes"))) {
    return rc;
  }
  std::copy(t->ints.begin(), t->ints.end(), ints);
  std::copy(t->addrs.begin(), t->addrs.end(), addrs);
  std::copy(t->counts.begin(), t->counts.end(), counts);
  // Derived types come back as new handles the caller frees (MPI-4.1 5.1.13).
  for (std::size_t i = 0; i < t->children.size(); ++i) dts[i] = types::add_handle(t->children[i]);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                      int array_of_integers[], MPI_Aint array_of_addresses[],
                                      MPI_Datatype array_of_datatypes[]) {
  return contents("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0, max_datatypes, array_of_integers,
                  array_of_addresses, nullptr, array_of_datatypes, false);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_contents, (MPI_Datatype, int, int, int, int[], MPI_Aint[], MPI_Datatype[]))

extern "C" int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                        MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                                        MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                        MPI_Datatype array_of_datatypes[]) {
  return contents("MPI_Type_get_contents_c", datatype, max_integers, max_addresses, max_large_counts, max_datatypes,
                  array_of_integers, array_of_addresses, array_of_large_counts, array_of_datatypes, true);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_contents_c,
                 (MPI_Datatype, MPI_Count, MPI_Count, MPI_Count, MPI_Count, int[], MPI_Aint[], MPI_Count[],
                  MPI_Datatype[]))

// ---- names ----------------------------------------------------------------------------

extern "C" int PMPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, "MPI_Type_set_name", "datatype", rc);
  if (t == nullptr) return rc;
  if (type_name == nullptr) return arg_error("MPI_Type_set_name", "type_name is NULL");
  // Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters (MPI-4.1 7.8).
  t->name.assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_set_name, (MPI_Datatype, const char*))

extern "C" int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(datatype, "MPI_Type_get_name", "datatype", rc);
  if (t == nullptr) return rc;
  if (type_name == nullptr || resultlen == nullptr) return arg_error("MPI_Type_get_name", "type_name or resultlen is NULL");
  std::memcpy(type_name, t->name.c_str(), t->name.size() + 1);
  *resultlen = static_cast<int>(t->name.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_get_name, (MPI_Datatype, char*, int*))

// ---- addresses (MPI-4.1 5.1.5) ------------------------------------------------------------

extern "C" int PMPI_Get_address(const void* location, MPI_Aint* address) {
  if (address == nullptr) return arg_error("MPI_Get_address", "address is NULL");
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Get_address, (const void*, MPI_Aint*))

// Wrap-around arithmetic on addresses, as on the machine (no signed overflow).
extern "C" MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(disp));
}
SHMPI_PMPI_ALIAS(MPI_Aint, MPI_Aint_add, (MPI_Aint, MPI_Aint))

extern "C" MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) - static_cast<std::uintptr_t>(addr2));
}
SHMPI_PMPI_ALIAS(MPI_Aint, MPI_Aint_diff, (MPI_Aint, MPI_Aint))
