// Datatype objects and the internal datatype API used by the other engines.
//
// A Datatype describes its type map by how it was built (combiner, arguments, child
// types) plus the bounds MPI defines on it (size, lb/ub, true lb/ub, alignment). When
// committed it is flattened once (flatten.hpp): the byte runs of ONE element in
// type-map order, adjacent runs merged, and the basic-element runs for
// MPI_Get_elements. Pack/unpack (pack.hpp) then just memcpy those runs.
//
// Handles (MPI-5.0 ABI): a predefined handle is a small integer mapped to a static
// Datatype; a derived handle is the object's address, valid only while a registry of
// live handles holds it. Objects are reference counted: user handles (creation and
// each handle returned by MPI_Type_get_contents) and parent types that use them.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "types/basic_types.hpp"

namespace shmpi::client::types {

// One run of bytes of an element, relative to the element's start (its displacement
// in the buffer, i.e. the buffer pointer for element 0).
struct Block {
  MPI_Count offset;
  MPI_Count length;
};

// `count` consecutive basic elements of predefined type `kind` starting at `offset`.
struct ElemRun {
  MPI_Count offset;
  MPI_Count count;
  std::uint16_t kind;  // predefined handle value of a non-pair basic type
  std::uint16_t size;  // its size in bytes
};

struct Flat {
  std::vector<Block> blocks;  // type-map order, adjacent runs merged
  std::vector<ElemRun> elems;  // type-map order, adjacent runs of one kind merged
  // Pack shortcuts: every block has this length (0: lengths differ); `regular`: the
  // blocks also start `stride` bytes apart (a vector), so packing need not read them.
  MPI_Count uniform_length = 0;
  bool regular = false;
  MPI_Count stride = 0;
};

// Limit on the merged runs of one element (each is 16 bytes): beyond it, commit fails
// with MPI_ERR_NO_MEM rather than exhausting memory.
constexpr std::size_t kMaxBlocks = std::size_t{1} << 24;

struct Datatype;

// The type map as pieces: piece i is `blocklen` copies of a type laid out at its
// extent, starting at byte displacement disp (MPI-4.1 5.1.2 as one rule). Either
// regular (piece k at k * stride, one type: contiguous, vector, hvector) or a list.
struct Layout {
  bool regular = true;
  MPI_Count count = 0, blocklen = 0, stride = 0;  // regular
  std::vector<MPI_Count> disps, blocklens;  // list
  std::vector<Datatype*> types;  // one (regular, or a list of one type) or one per piece
  Datatype* type_of(std::size_t i) const { return types.size() == 1 ? types[0] : types[i]; }
};

struct Datatype {
  MPI_Datatype handle = MPI_DATATYPE_NULL;  // predefined value, or this object's address
  bool predefined = false;
  bool committed = false;

  MPI_Count size = 0;  // bytes of data in one element
  MPI_Count lb = 0, ub = 0;  // extent = ub - lb
  MPI_Count true_lb = 0, true_ub = 0;
  bool sticky_lb = false, sticky_ub = false;  // bounds set by MPI_Type_create_resized
  int align = 1;  // largest alignment of the basic components (struct padding)
  MPI_Count elements = 0;  // basic elements in one element (pair types count 2)
  // The predefined type all the type map is made of (a pair type counts as one type
  // here, so contiguous(n, MPI_DOUBLE_INT) has basic MPI_DOUBLE_INT), else 0 (mixed or
  // empty). For reductions and accumulate.
  std::uintptr_t basic = 0;

  // How it was built (MPI_Type_get_envelope/_contents, MPI-4.1 5.1.13).
  int combiner = MPI_COMBINER_NAMED;
  bool large = false;  // built by a _c constructor: counts in `counts`
  std::vector<int> ints;
  std::vector<MPI_Aint> addrs;
  std::vector<MPI_Count> counts;
  std::vector<Datatype*> children;  // each holds an internal reference

  std::string name;

  Layout layout;  // derived types; its types hold internal references

  // Flattened form, built by flatten() (at commit, or for a child on first use).
  std::unique_ptr<Flat> flat;

  // Reference counts, guarded by the registry's mutex. The handle is valid while
  // handle_refs > 0; the object lives while either is non-zero.
  int handle_refs = 1;
  int internal_refs = 0;

  MPI_Count extent() const { return ub - lb; }
  MPI_Count true_extent() const { return true_ub - true_lb; }
  // One element is a single run covering [lb, ub): count elements are one memcpy.
  // Known once flattened (set_flat), and asked several times per collective call.
  bool contiguous() const { return contig; }
  bool contig = false;
  // Installs the flattened form (the layout is fixed from here on).
  void set_flat(std::unique_ptr<Flat> f) {
    flat = std::move(f);
    contig = flat->blocks.size() == 1 && flat->blocks[0].offset == lb && flat->blocks[0].length == ub - lb;
  }
};

// ---- handles ---------------------------------------------------------------------
// The predefined types, by handle value - kFirstPredefinedType (nullptr: unassigned);
// filled by datatype.cpp's dynamic initializer.
extern std::array<Datatype*, kLastPredefinedType - kFirstPredefinedType + 1> g_predefined;
// lookup() of a handle that is not in the predefined types' range.
Datatype* lookup_other(MPI_Datatype h);
// nullptr if `h` is not a valid datatype handle (MPI_DATATYPE_NULL, freed, garbage).
// Inline for the predefined types: every collective and RMA call looks its types up.
inline Datatype* lookup(MPI_Datatype h) {
  const auto v = reinterpret_cast<std::uintptr_t>(h) - kFirstPredefinedType;
  return v < g_predefined.size() ? g_predefined[v] : lookup_other(h);
}
// lookup() and committed (predefined types always are), else nullptr.
Datatype* lookup_committed(MPI_Datatype h);
// Registers a new derived type (handle_refs = 1) and returns its handle.
MPI_Datatype publish(std::unique_ptr<Datatype> t);
// One more user handle on `t` (MPI_Type_get_contents returns its children this way).
MPI_Datatype add_handle(Datatype* t);
// Drops a user handle (MPI_Type_free); false if `t` is predefined.
bool release_handle(Datatype* t);
// A handle-less type (e.g. a stage of a subarray) with no references yet: the parent
// that uses it retains it.
Datatype* adopt_internal(std::unique_ptr<Datatype> t);
void retain_internal(Datatype* t);
void release_internal(Datatype* t);
// Live derived types (handle or internal references), for leak tests.
std::size_t live_derived_types();

// ---- queries for other engines ----------------------------------------------------
// The flattened form, built on first use (nullptr only if it exceeds kMaxBlocks or
// memory runs out). Inline: once built (always, for a committed type), a load.
const Flat* build_flat(Datatype* t);
inline const Flat* flatten(Datatype* t) { return t->flat ? t->flat.get() : build_flat(t); }

}  // namespace shmpi::client::types
