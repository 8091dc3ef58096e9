// Datatype constructors, commit and free (MPI-4.1 5.1.2-5.1.9), with their _c
// large-count variants. Each is one template over the count type: int arguments are
// recorded as integers/addresses, MPI_Count ones as large counts (MPI-4.1 5.1.13).
#include <limits>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "api_datatype.hpp"
#include "attr/attr.hpp"
#include "types/construct.hpp"

using namespace shmpi::client;
using shmpi::client::types::Datatype;
using shmpi::client::types::TypePtr;

namespace {

constexpr bool kIntArgs = false, kLargeArgs = true;
using Wide = __int128;

int arg_error(const char* call, const std::string& what) { return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": " + what); }

// Envelope recorder: int-variant values go to ints/addrs, _c ones to counts.
struct Envelope {
  explicit Envelope(bool is_large) : large(is_large) {}
  bool large;
  std::vector<int> ints;
  std::vector<MPI_Aint> addrs;
  std::vector<MPI_Count> counts;
  void integer(MPI_Count v) { large ? counts.push_back(v) : ints.push_back(static_cast<int>(v)); }
  void address(MPI_Count v) { large ? counts.push_back(v) : addrs.push_back(static_cast<MPI_Aint>(v)); }
};

// Gives the new type its envelope and a handle.
int finish(const char* call, int rc, const std::string& why, TypePtr t, int combiner, Envelope env,
           std::vector<Datatype*> children, MPI_Datatype* newtype) {
  if (rc != MPI_SUCCESS) {
    if (t) {  // built but not published: drop its references to the types it uses
      for (Datatype* c : t->layout.types) types::release_internal(c);
    }
    return raise(nullptr, rc, std::string(call) + ": " + why);
  }
  t->combiner = combiner;
  t->large = env.large;
  t->ints = std::move(env.ints);
  t->addrs = std::move(env.addrs);
  t->counts = std::move(env.counts);
  for (Datatype* c : children) types::retain_internal(c);
  t->children = std::move(children);
  *newtype = types::publish(std::move(t));
  return MPI_SUCCESS;
}

// Checks shared by every constructor: the old type and the output pointer.
Datatype* old_and_out(const char* call, MPI_Datatype oldtype, MPI_Datatype* newtype, int& rc) {
  Datatype* old = type_arg(oldtype, call, "oldtype", rc);
  if (old == nullptr) return nullptr;
  if (newtype == nullptr) {
    rc = arg_error(call, "newtype is NULL");
    return nullptr;
  }
  return old;
}

template <class C>
bool check_count(const char* call, C count, int& rc) {
  if (count < 0) {
    rc = raise(nullptr, MPI_ERR_COUNT, std::string(call) + ": count is negative (" + std::to_string(count) + ")");
    return false;
  }
  return true;
}

template <class C>
bool check_blocklength(const char* call, C bl, int& rc, const std::string& which = "blocklength") {
  if (bl < 0) {
    rc = arg_error(call, which + " is negative (" + std::to_string(bl) + ")");
    return false;
  }
  return true;
}

// Sizes the per-block vectors of a constructor with `count` blocks. A count no memory can
// hold (the user's arrays cannot be that long either) is MPI_ERR_NO_MEM, not a C++
// exception escaping through the C interface.
template <class... V>
bool size_blocks(const char* call, MPI_Count count, int& rc, V&... vs) {
  try {
    (vs.resize(static_cast<std::size_t>(count)), ...);
    return true;
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  rc = raise(nullptr, MPI_ERR_NO_MEM,
             std::string(call) + ": count " + std::to_string(count) + ": no memory for a type map of that many blocks");
  return false;
}

// disp * unit in bytes, or false if it overflows MPI_Count.
bool scaled(MPI_Count disp, MPI_Count unit, MPI_Count& out) {
  const Wide v = static_cast<Wide>(disp) * unit;
  if (v < std::numeric_limits<MPI_Count>::min() || v > std::numeric_limits<MPI_Count>::max()) return false;
  out = static_cast<MPI_Count>(v);
  return true;
}

template <class C>
int contiguous(const char* call, bool large, C count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  int rc = MPI_SUCCESS;
  if (!check_count(call, count, rc)) return rc;
  Datatype* old = old_and_out(call, oldtype, newtype, rc);
  if (old == nullptr) return rc;
  TypePtr t;
  std::string why;
  rc = types::make_regular(1, count, 0, old, t, why);
  Envelope env(large);
  env.integer(count);
  return finish(call, rc, why, std::move(t), MPI_COMBINER_CONTIGUOUS, std::move(env), {old}, newtype);
}

// vector (hetero = false: stride in extents) and hvector (stride in bytes).
template <class C, class S>
int vector(const char* call, bool large, bool bytes, C count, C blocklength, S stride, MPI_Datatype oldtype,
           MPI_Datatype* newtype) {
  int rc = MPI_SUCCESS;
  if (!check_count(call, count, rc) || !check_blocklength(call, blocklength, rc)) return rc;
  Datatype* old = old_and_out(call, oldtype, newtype, rc);
  if (old == nullptr) return rc;
  MPI_Count stride_bytes = stride;
  if (!bytes && !scaled(stride, old->extent(), stride_bytes)) return arg_error(call, "stride * extent overflows MPI_Aint");
  TypePtr t;
  std::string why;
  rc = types::make_regular(count, blocklength, stride_bytes, old, t, why);
  Envelope env(large);
  env.integer(count);
  env.integer(blocklength);
  if (bytes) {
    env.address(stride);
  } else {
    env.integer(stride);
  }
  return finish(call, rc, why, std::move(t), bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, std::move(env), {old},
                newtype);
}

// indexed/hindexed (per-block lengths) and indexed_block/hindexed_block (one length):
// blocklengths == nullptr means every block has `blocklength`.
template <class C, class B, class D>
int indexed(const char* call, bool large, bool bytes, C count, const B* blocklengths, B blocklength, const D* displs,
            MPI_Datatype oldtype, MPI_Datatype* newtype, int combiner) {
  int rc = MPI_SUCCESS;
  if (!check_count(call, count, rc)) return rc;
  const bool per_block = combiner == MPI_COMBINER_INDEXED || combiner == MPI_COMBINER_HINDEXED;
  if (count > 0 && per_block && blocklengths == nullptr) return arg_error(call, "array_of_blocklengths is NULL");
  if (count > 0 && displs == nullptr) return arg_error(call, "array_of_displacements is NULL");
  if (!per_block && !check_blocklength(call, blocklength, rc)) return rc;
  Datatype* old = old_and_out(call, oldtype, newtype, rc);
  if (old == nullptr) return rc;
  std::vector<MPI_Count> d, b;
  if (!size_blocks(call, count, rc, d, b)) return rc;
  for (std::size_t i = 0; i < d.size(); ++i) {
    b[i] = per_block ? blocklengths[i] : blocklength;
    if (!check_blocklength(call, b[i], rc, "array_of_blocklengths[" + std::to_string(i) + "]")) return rc;
    d[i] = displs[i];
    if (!bytes && !scaled(displs[i], old->extent(), d[i])) {
      return arg_error(call, "array_of_displacements[" + std::to_string(i) + "] * extent overflows MPI_Aint");
    }
  }
  Envelope env(large);
  env.integer(count);
  if (per_block) {
    for (std::size_t i = 0; i < b.size(); ++i) env.integer(b[i]);
  } else {
    env.integer(blocklength);
  }
  for (std::size_t i = 0; i < d.size(); ++i) bytes ? env.address(displs[i]) : env.integer(displs[i]);
  TypePtr t;
  std::string why;
  rc = types::make_list(std::move(d), std::move(b), {old}, false, t, why);
  return finish(call, rc, why, std::move(t), combiner, std::move(env), {old}, newtype);
}

template <class C, class D>
int create_struct(const char* call, bool large, C count, const C* blocklengths, const D* displs,
                  const MPI_Datatype* types_in, MPI_Datatype* newtype) {
  int rc = MPI_SUCCESS;
  if (!check_count(call, count, rc)) return rc;
  if (count > 0 && (blocklengths == nullptr || displs == nullptr || types_in == nullptr)) {
    return arg_error(call, "array_of_blocklengths, array_of_displacements or array_of_types is NULL");
  }
  if (newtype == nullptr) return arg_error(call, "newtype is NULL");
  const auto n = static_cast<std::size_t>(count);
  std::vector<MPI_Count> d, b;
  std::vector<Datatype*> ts;
  if (!size_blocks(call, count, rc, d, b, ts)) return rc;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string which = "array_of_types[" + std::to_string(i) + "]";
    ts[i] = type_arg(types_in[i], call, which.c_str(), rc);
    if (ts[i] == nullptr) return rc;
    if (!check_blocklength(call, blocklengths[i], rc, "array_of_blocklengths[" + std::to_string(i) + "]")) return rc;
    b[i] = blocklengths[i];
    d[i] = displs[i];
  }
  Envelope env(large);
  env.integer(count);
  for (std::size_t i = 0; i < n; ++i) env.integer(b[i]);
  for (std::size_t i = 0; i < n; ++i) env.address(d[i]);
  TypePtr t;
  std::string why;
  // A one-type list still goes through the struct rule (alignment padding).
  rc = types::make_list(std::move(d), std::move(b), n == 0 ? std::vector<Datatype*>{} : ts, true, t, why);
  return finish(call, rc, why, std::move(t), MPI_COMBINER_STRUCT, std::move(env), std::move(ts), newtype);
}

template <class A>
int resized(const char* call, bool large, MPI_Datatype oldtype, A lb, A extent, MPI_Datatype* newtype) {
  int rc = MPI_SUCCESS;
  Datatype* old = old_and_out(call, oldtype, newtype, rc);
  if (old == nullptr) return rc;
  TypePtr t;
  std::string why;
  rc = types::make_resized(old, lb, extent, t, why);
  Envelope env(large);
  env.address(lb);
  env.address(extent);
  return finish(call, rc, why, std::move(t), MPI_COMBINER_RESIZED, std::move(env), {old}, newtype);
}

template <class C>
int subarray(const char* call, bool large, int ndims, const C* sizes, const C* subsizes, const C* starts, int order,
             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  int rc = MPI_SUCCESS;
  if (ndims <= 0) return arg_error(call, "ndims must be positive (is " + std::to_string(ndims) + ")");
  if (sizes == nullptr || subsizes == nullptr || starts == nullptr) {
    return arg_error(call, "array_of_sizes, array_of_subsizes or array_of_starts is NULL");
  }
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
    return arg_error(call, "order is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
  }
  Datatype* old = old_and_out(call, oldtype, newtype, rc);
  if (old == nullptr) return rc;
  const auto n = static_cast<std::size_t>(ndims);
  std::vector<MPI_Count> sz(n), sub(n), st(n);
  for (std::size_t i = 0; i < n; ++i) {
    sz[i] = sizes[i];
    sub[i] = subsizes[i];
    st[i] = starts[i];
    // MPI-4.1 5.1.3: sizes > 0, 0 < subsizes <= sizes, 0 <= starts <= sizes - subsizes.
    const std::string at = "[" + std::to_string(i) + "]";
    if (sz[i] <= 0) return arg_error(call, "array_of_sizes" + at + " is not positive");
    if (sub[i] <= 0 || sub[i] > sz[i]) return arg_error(call, "array_of_subsizes" + at + " is not in 1..array_of_sizes" + at);
    if (st[i] < 0 || st[i] > sz[i] - sub[i]) {
      return arg_error(call, "array_of_starts" + at + " is not in 0..array_of_sizes" + at + " - array_of_subsizes" + at);
    }
  }
  TypePtr t;
  std::string why;
  rc = types::make_subarray(ndims, sz.data(), sub.data(), st.data(), order, old, t, why);
  Envelope env(large);
  env.ints.push_back(ndims);
  for (const auto* a : {&sz, &sub, &st}) {
    for (MPI_Count v : *a) env.integer(v);
  }
  env.ints.push_back(order);
  return finish(call, rc, why, std::move(t), MPI_COMBINER_SUBARRAY, std::move(env), {old}, newtype);
}

}  // namespace

// ---- contiguous, vector, hvector ---------------------------------------------------

extern "C" int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return contiguous("MPI_Type_contiguous", kIntArgs, count, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_contiguous, (int, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return contiguous("MPI_Type_contiguous_c", kLargeArgs, count, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_contiguous_c, (MPI_Count, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return vector("MPI_Type_vector", kIntArgs, false, count, blocklength, stride, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_vector, (int, int, int, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) {
  return vector("MPI_Type_vector_c", kLargeArgs, false, count, blocklength, stride, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_vector_c, (MPI_Count, MPI_Count, MPI_Count, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) {
  return vector("MPI_Type_create_hvector", kIntArgs, true, count, blocklength, stride, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_hvector, (int, int, MPI_Aint, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                          MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return vector("MPI_Type_create_hvector_c", kLargeArgs, true, count, blocklength, stride, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_hvector_c, (MPI_Count, MPI_Count, MPI_Count, MPI_Datatype, MPI_Datatype*))

// ---- indexed family ------------------------------------------------------------------

extern "C" int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                                 MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_indexed", kIntArgs, false, count, array_of_blocklengths, 0, array_of_displacements, oldtype,
                 newtype, MPI_COMBINER_INDEXED);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_indexed, (int, const int[], const int[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                   const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  return indexed("MPI_Type_indexed_c", kLargeArgs, false, count, array_of_blocklengths, MPI_Count{0},
                 array_of_displacements, oldtype, newtype, MPI_COMBINER_INDEXED);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_indexed_c, (MPI_Count, const MPI_Count[], const MPI_Count[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                         const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed", kIntArgs, true, count, array_of_blocklengths, 0, array_of_displacements,
                 oldtype, newtype, MPI_COMBINER_HINDEXED);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_hindexed, (int, const int[], const MPI_Aint[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                           const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                           MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed_c", kLargeArgs, true, count, array_of_blocklengths, MPI_Count{0},
                 array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_hindexed_c,
                 (MPI_Count, const MPI_Count[], const MPI_Count[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_indexed_block", kIntArgs, false, count, static_cast<const int*>(nullptr),
                 blocklength, array_of_displacements, oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_indexed_block, (int, int, const int[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_indexed_block_c", kLargeArgs, false, count, static_cast<const MPI_Count*>(nullptr),
                 blocklength, array_of_displacements, oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_indexed_block_c,
                 (MPI_Count, MPI_Count, const MPI_Count[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed_block", kIntArgs, true, count, static_cast<const int*>(nullptr),
                 blocklength, array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED_BLOCK);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_hindexed_block, (int, int, const MPI_Aint[], MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                                 const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                 MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed_block_c", kLargeArgs, true, count, static_cast<const MPI_Count*>(nullptr),
                 blocklength, array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED_BLOCK);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_hindexed_block_c,
                 (MPI_Count, MPI_Count, const MPI_Count[], MPI_Datatype, MPI_Datatype*))

// ---- struct, resized, subarray, dup -------------------------------------------------

extern "C" int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                       MPI_Datatype* newtype) {
  return create_struct("MPI_Type_create_struct", kIntArgs, count, array_of_blocklengths, array_of_displacements,
                       array_of_types, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_struct,
                 (int, const int[], const MPI_Aint[], const MPI_Datatype[], MPI_Datatype*))

extern "C" int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                         const MPI_Count array_of_displacements[],
                                         const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return create_struct("MPI_Type_create_struct_c", kLargeArgs, count, array_of_blocklengths, array_of_displacements,
                       array_of_types, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_struct_c,
                 (MPI_Count, const MPI_Count[], const MPI_Count[], const MPI_Datatype[], MPI_Datatype*))

extern "C" int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  return resized("MPI_Type_create_resized", kIntArgs, oldtype, lb, extent, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_resized, (MPI_Datatype, MPI_Aint, MPI_Aint, MPI_Datatype*))

extern "C" int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                                          MPI_Datatype* newtype) {
  return resized("MPI_Type_create_resized_c", kLargeArgs, oldtype, lb, extent, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_resized_c, (MPI_Datatype, MPI_Count, MPI_Count, MPI_Datatype*))

extern "C" int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                         const int array_of_starts[], int order, MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) {
  return subarray("MPI_Type_create_subarray", kIntArgs, ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                  order, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_subarray,
                 (int, const int[], const int[], const int[], int, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                           const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                           int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return subarray("MPI_Type_create_subarray_c", kLargeArgs, ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                  order, oldtype, newtype);
}
SHMPI_PMPI_ALIAS(int, MPI_Type_create_subarray_c,
                 (int, const MPI_Count[], const MPI_Count[], const MPI_Count[], int, MPI_Datatype, MPI_Datatype*))

extern "C" int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const char* call = "MPI_Type_dup";
  int rc = MPI_SUCCESS;
  Datatype* old = old_and_out(call, oldtype, newtype, rc);
  if (old == nullptr) return rc;
  TypePtr t;
  std::string why;
  rc = types::make_dup(old, t, why);
  // The copy is committed if the original is (MPI-4.1 5.1.10): flatten it now.
  if (rc == MPI_SUCCESS && t->committed && types::flatten(t.get()) == nullptr) {
    rc = MPI_ERR_NO_MEM;
    why = "oldtype's type map is too fragmented to flatten";
  }
  rc = finish(call, rc, why, std::move(t), MPI_COMBINER_DUP, Envelope(false), {old}, newtype);
  if (rc != MPI_SUCCESS) return rc;
  // Attributes: the copy callbacks decide what the new type gets (MPI-4.1 7.7.4); if one
  // fails, so does the dup.
  if (const int arc = attr::copy_type_attrs(old, types::lookup(*newtype)); arc != MPI_SUCCESS) {
    types::release_handle(types::lookup(*newtype));
    *newtype = MPI_DATATYPE_NULL;
    return invoke_errhandler(nullptr, arc);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_dup, (MPI_Datatype, MPI_Datatype*))

// ---- commit and free ------------------------------------------------------------------

extern "C" int PMPI_Type_commit(MPI_Datatype* datatype) {
  if (datatype == nullptr) return arg_error("MPI_Type_commit", "datatype is NULL");
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(*datatype, "MPI_Type_commit", "*datatype", rc);
  if (t == nullptr) return rc;
  if (types::flatten(t) == nullptr) {
    return raise(nullptr, MPI_ERR_NO_MEM,
                 "MPI_Type_commit: the type map has more than 2^24 separate runs per element (or memory ran out)");
  }
  t->committed = true;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_commit, (MPI_Datatype*))

extern "C" int PMPI_Type_free(MPI_Datatype* datatype) {
  if (datatype == nullptr) return arg_error("MPI_Type_free", "datatype is NULL");
  int rc = MPI_SUCCESS;
  Datatype* t = type_arg(*datatype, "MPI_Type_free", "*datatype", rc);
  if (t == nullptr) return rc;
  // Freeing the last handle deletes the attributes first (delete callbacks, MPI-4.1
  // 7.7.4); if a callback fails, so does the free and the type stays.
  if (!t->predefined && t->handle_refs == 1) {
    if (const int arc = attr::delete_type_attrs(t); arc != MPI_SUCCESS) return invoke_errhandler(nullptr, arc);
  }
  // Types built from it keep it alive through their internal references (MPI-4.1 5.1.9).
  if (!types::release_handle(t)) {
    return raise(nullptr, MPI_ERR_TYPE, "MPI_Type_free: *datatype is a predefined datatype, which cannot be freed");
  }
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Type_free, (MPI_Datatype*))
