// MPI_Op_create(_c), MPI_Op_free, MPI_Op_commutative, MPI_Reduce_local(_c): the MPI face
// of the op engine (ops/). A predefined op runs the engine's kernel for its predefined
// datatype; a user op gets the buffers, the count and the datatype handle (derived types
// included), as MPI-4.1 6.9.5 defines.
#include <climits>
#include <cstdint>
#include <cstddef>

#include "api_datatype.hpp"
#include "op_objects.hpp"
#include "ops/datatype_elem.hpp"

using namespace shmpi::client;

namespace {

// The op behind `op`, or nullptr after raising MPI_ERR_OP; the caller releases it.
OpObj* op_arg(MPI_Op op, const char* call, int& rc) {
  OpObj* o = acquire_op(op);
  if (o == nullptr) {
    rc = raise(nullptr, MPI_ERR_OP, std::string(call) + ": op is " +
                                        (op == MPI_OP_NULL ? "MPI_OP_NULL" : "not a valid op (freed or never created)"));
  }
  return o;
}

struct OpRef {
  OpObj* o;
  ~OpRef() {
    if (o != nullptr) release_op(o);
  }
};

// The kernel of every valid (predefined op, predefined datatype) pair, indexed by the
// ABI's handle values (ops 0x20..0x3f, datatypes 0x200..0x2ff), built once: the common
// call is then a table load and the kernel, with no search and no allocation.
constexpr std::uintptr_t kOpBase = 0x20, kOpSpan = 0x20, kTypeBase = 0x200, kTypeSpan = 0x100;

struct FastTable {
  shmpi::ops::Kernel k[kOpSpan][kTypeSpan] = {};
};

const FastTable& fast_table() {
  static const FastTable table = [] {
    FastTable t;
    for (std::uintptr_t o = 0; o < kOpSpan; ++o) {
      OpObj* op = acquire_op(reinterpret_cast<MPI_Op>(kOpBase + o));
      if (op == nullptr || op->user || op->kind == shmpi::ops::OpKind::replace ||
          op->kind == shmpi::ops::OpKind::no_op) {
        continue;
      }
      for (std::uintptr_t d = 0; d < kTypeSpan; ++d) {
        shmpi::ops::ElemInfo info{};
        if (shmpi::ops::elem_of(reinterpret_cast<MPI_Datatype>(kTypeBase + d), info) &&
            shmpi::ops::op_valid(op->kind, info.group, shmpi::ops::strict_types())) {
          t.k[o][d] = shmpi::ops::kernel(op->kind, info.elem);
        }
      }
    }
    return t;
  }();
  return table;
}

int reduce_local(const char* call, const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op) {
  const std::uintptr_t ov = reinterpret_cast<std::uintptr_t>(op) - kOpBase;
  const std::uintptr_t tv = reinterpret_cast<std::uintptr_t>(datatype) - kTypeBase;
  if (ov < kOpSpan && tv < kTypeSpan && count >= 0 && inbuf != nullptr && inoutbuf != nullptr &&
      inbuf != MPI_IN_PLACE && inoutbuf != MPI_IN_PLACE) {
    if (const shmpi::ops::Kernel k = fast_table().k[ov][tv]) {
      k(inbuf, inoutbuf, static_cast<std::size_t>(count));
      return MPI_SUCCESS;
    }
  }
  // Everything else: user ops, derived types, and every error, with its message.
  int rc = MPI_SUCCESS;
  if (count < 0) return raise(nullptr, MPI_ERR_COUNT, std::string(call) + ": count " + std::to_string(count) + " is negative");
  OpRef ref{op_arg(op, call, rc)};
  if (ref.o == nullptr) return rc;
  const types::Flat* flat = nullptr;
  types::Datatype* t = committed_type_arg(datatype, call, "datatype", rc, flat);
  if (t == nullptr) return rc;
  if (count > 0 && (inbuf == nullptr || inoutbuf == nullptr || inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)) {
    return raise(nullptr, MPI_ERR_BUFFER, std::string(call) + ": inbuf and inoutbuf must be real buffers (not NULL or MPI_IN_PLACE)");
  }
  if (count == 0 || t->size == 0) return MPI_SUCCESS;
  const OpObj& o = *ref.o;
  if (o.user) {
    call_user_op(o, inbuf, inoutbuf, count, datatype, t->extent());
    return MPI_SUCCESS;
  }
  // Predefined op: defined only on the predefined datatypes of its groups (MPI-4.1
  // 6.9.2; Open MPI and MPICH refuse derived types too); REPLACE and NO_OP belong to
  // the accumulate calls.
  const std::string what = std::string(call) + ": MPI_" + shmpi::ops::name(o.kind);
  if (o.kind == shmpi::ops::OpKind::replace || o.kind == shmpi::ops::OpKind::no_op) {
    return raise(nullptr, MPI_ERR_OP, what + " is only for the accumulate calls, not for reductions");
  }
  shmpi::ops::ElemInfo info{};
  if (!t->predefined || !shmpi::ops::elem_of(datatype, info)) {
    return raise(nullptr, MPI_ERR_OP, what + " is not defined on " +
                                          (t->predefined ? t->name : std::string("a derived datatype")) +
                                          " (predefined ops take the predefined types of MPI-4.1 6.9.2)");
  }
  const bool strict = shmpi::ops::strict_types();
  const shmpi::ops::Kernel k =
      shmpi::ops::op_valid(o.kind, info.group, strict) ? shmpi::ops::kernel(o.kind, info.elem) : nullptr;
  if (k == nullptr) {
    return raise(nullptr, MPI_ERR_OP, what + " is not defined on " + t->name +
                                          (info.group == shmpi::ops::TypeGroup::character && strict ? " (SHMPI_STRICT_TYPES=1)" : ""));
  }
  // count elements laid out at the type's extent (for the pair types: the C structs).
  k(inbuf, inoutbuf, static_cast<std::size_t>(count));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  if (user_fn == nullptr || op == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Op_create: user_fn or op is NULL");
  *op = new_user_op(user_fn, nullptr, commute != 0);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Op_create, (MPI_User_function*, int, MPI_Op*))

extern "C" int PMPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  if (user_fn == nullptr || op == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Op_create_c: user_fn or op is NULL");
  *op = new_user_op(nullptr, user_fn, commute != 0);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Op_create_c, (MPI_User_function_c*, int, MPI_Op*))

extern "C" int PMPI_Op_free(MPI_Op* op) {
  if (op == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Op_free: op is NULL");
  int rc = MPI_SUCCESS;
  OpObj* o = op_arg(*op, "MPI_Op_free", rc);
  if (o == nullptr) return rc;
  if (!o->user) return raise(nullptr, MPI_ERR_OP, "MPI_Op_free: op is a predefined op, which cannot be freed");
  o->freed.store(true, std::memory_order_release);
  release_op(o);  // this call's reference
  release_op(o);  // the handle's
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Op_free, (MPI_Op*))

extern "C" int PMPI_Op_commutative(MPI_Op op, int* commute) {
  if (commute == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Op_commutative: commute is NULL");
  int rc = MPI_SUCCESS;
  OpRef ref{op_arg(op, "MPI_Op_commutative", rc)};
  if (ref.o == nullptr) return rc;
  *commute = ref.o->commute ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Op_commutative, (MPI_Op, int*))

extern "C" int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}
SHMPI_PMPI_ALIAS(int, MPI_Reduce_local, (const void*, void*, int, MPI_Datatype, MPI_Op))

extern "C" int PMPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op) {
  return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
SHMPI_PMPI_ALIAS(int, MPI_Reduce_local_c, (const void*, void*, MPI_Count, MPI_Datatype, MPI_Op))
