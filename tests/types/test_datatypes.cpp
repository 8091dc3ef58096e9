// The datatype engine below the C API: the predefined table, the flattened form other
// engines iterate (merged blocks, element runs, basic type), pack/unpack against a
// byte-by-byte reference, and handle lifetimes. Types are built through the C entry
// points (they work without MPI_Init) and inspected through types/datatype.hpp.
#include <doctest/doctest.h>
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "types/basic_types.hpp"
#include "types/datatype.hpp"
#include "types/pack.hpp"

using namespace shmpi::client::types;

namespace {

Datatype* committed(MPI_Datatype& h) {
  REQUIRE(MPI_Type_commit(&h) == MPI_SUCCESS);
  Datatype* t = lookup_committed(h);
  REQUIRE(t != nullptr);
  REQUIRE(flatten(t) != nullptr);
  return t;
}

// Reference packing from the type map itself: every byte of every block, in order.
std::vector<unsigned char> reference_pack(const Datatype& t, const Flat& f, const unsigned char* buf, int count) {
  std::vector<unsigned char> out;
  for (int k = 0; k < count; ++k) {
    for (const Block& b : f.blocks) {
      for (MPI_Count i = 0; i < b.length; ++i) out.push_back(buf[k * t.extent() + b.offset + i]);
    }
  }
  return out;
}

std::uintptr_t value(MPI_Datatype h) { return reinterpret_cast<std::uintptr_t>(h); }

}  // namespace

TEST_CASE("predefined types have the C sizes, alignments and pair layouts") {
  CHECK(basic_info(MPI_INT)->size == sizeof(int));
  CHECK(basic_info(MPI_LONG_DOUBLE)->size == sizeof(long double));
  CHECK(basic_info(MPI_LONG_DOUBLE)->align == alignof(long double));
  CHECK(basic_info(MPI_WCHAR)->size == sizeof(wchar_t));
  CHECK(basic_info(MPI_C_LONG_DOUBLE_COMPLEX)->size == sizeof(std::complex<long double>));
  CHECK(basic_info(MPI_COMPLEX32)->size == 32);
  CHECK(basic_info(MPI_DATATYPE_NULL) == nullptr);
  CHECK(basic_info(reinterpret_cast<MPI_Datatype>(0x204)) == nullptr);  // unassigned

  struct LdI {
    long double a;
    int b;
  };
  Datatype* ldi = lookup(MPI_LONG_DOUBLE_INT);
  REQUIRE(ldi != nullptr);
  CHECK(ldi->size == sizeof(long double) + sizeof(int));
  CHECK(ldi->extent() == sizeof(LdI));
  CHECK(ldi->true_extent() == offsetof(LdI, b) + sizeof(int));
  CHECK(ldi->elements == 2);
  CHECK(ldi->basic == value(MPI_LONG_DOUBLE_INT));
  // The int follows the long double's 16 bytes directly: one block; the padding is at
  // the end. {short; int} has its hole in the middle.
  REQUIRE(ldi->flat->blocks.size() == 1);
  CHECK(ldi->flat->blocks[0].length == ldi->size);
  CHECK(ldi->flat->elems.size() == 2);
  Datatype* si = lookup(MPI_SHORT_INT);
  REQUIRE(si->flat->blocks.size() == 2);
  CHECK(si->flat->blocks[1].offset == alignof(int));
  CHECK(si->extent() == 8);

  // {int; int} has no hole: one block, one run of two ints.
  Datatype* two = lookup(MPI_2INT);
  REQUIRE(two->flat->blocks.size() == 1);
  CHECK(two->flat->elems.size() == 1);
  CHECK(two->flat->elems[0].count == 2);
  CHECK(two->contiguous());
}

TEST_CASE("a vector of doubles flattens to equal 8-byte blocks with basic MPI_DOUBLE") {
  MPI_Datatype h;
  REQUIRE(MPI_Type_vector(100, 1, 3, MPI_DOUBLE, &h) == MPI_SUCCESS);
  Datatype* t = committed(h);
  const Flat& f = *t->flat;
  CHECK(f.blocks.size() == 100);
  CHECK(f.uniform_length == 8);
  CHECK(f.blocks[99].offset == 99 * 24);
  CHECK(t->basic == value(MPI_DOUBLE));
  CHECK(t->size == 800);
  CHECK(t->extent() == 99 * 24 + 8);
  CHECK(!t->contiguous());
  CHECK(f.regular);
  CHECK(f.stride == 24);
  // Two elements: the second starts one extent (298 doubles) after the first.
  std::vector<double> src(600), packed(200, -1.0), back(600, 0.0);
  std::iota(src.begin(), src.end(), 0.0);
  pack(*t, f, src.data(), 2, packed.data());
  for (int i = 0; i < 200; ++i) CHECK(packed[i] == (i < 100 ? 3 * i : 298 + 3 * (i - 100)));
  unpack(*t, f, packed.data(), 2, back.data());
  for (int i = 0; i < 200; ++i) CHECK(back[static_cast<std::size_t>(packed[i])] == packed[i]);
  MPI_Type_free(&h);
}

TEST_CASE("adjacent blocks merge; contiguous types are one block") {
  MPI_Datatype h, c;
  const int d[] = {2, 0, 6};  // bytes [8,16), [0,8), [24,32)
  REQUIRE(MPI_Type_create_indexed_block(3, 2, d, MPI_INT, &h) == MPI_SUCCESS);
  Datatype* t = committed(h);
  // Type-map order is kept: [0,8) does not start where [8,16) ends, so no merging.
  REQUIRE(t->flat->blocks.size() == 3);
  CHECK(t->flat->blocks[0].offset == 8);
  const int d2[] = {0, 2, 4};
  MPI_Datatype h2;
  REQUIRE(MPI_Type_create_indexed_block(3, 2, d2, MPI_INT, &h2) == MPI_SUCCESS);
  Datatype* t2 = committed(h2);
  REQUIRE(t2->flat->blocks.size() == 1);
  CHECK(t2->flat->blocks[0].length == 24);
  CHECK(t2->contiguous());
  CHECK(t2->flat->elems.size() == 1);
  CHECK(t2->flat->elems[0].count == 6);

  REQUIRE(MPI_Type_contiguous(1000, MPI_DOUBLE_INT, &c) == MPI_SUCCESS);
  Datatype* tc = committed(c);
  CHECK(tc->basic == value(MPI_DOUBLE_INT));  // for MINLOC/MAXLOC
  CHECK(tc->flat->blocks.size() == 1000);  // 12 data bytes, 4 padding each
  CHECK(tc->elements == 2000);
  MPI_Type_free(&h);
  MPI_Type_free(&h2);
  MPI_Type_free(&c);
}

TEST_CASE("mixed structs have no single basic type; element runs follow the type map") {
  MPI_Datatype h;
  const int bl[] = {1, 2, 1};
  const MPI_Aint d[] = {0, 4, 12};
  const MPI_Datatype ts[] = {MPI_CHAR, MPI_INT, MPI_INT};
  REQUIRE(MPI_Type_create_struct(3, bl, d, ts, &h) == MPI_SUCCESS);
  Datatype* t = committed(h);
  CHECK(t->basic == 0);
  REQUIRE(t->flat->blocks.size() == 2);  // [0,1) and [4,16)
  CHECK(t->flat->blocks[1].length == 12);
  REQUIRE(t->flat->elems.size() == 2);  // 1 char, then 3 ints merged
  CHECK(t->flat->elems[1].count == 3);
  CHECK(t->extent() == 16);
  MPI_Type_free(&h);
}

TEST_CASE("pack and pack_range match a byte-by-byte reference for random types") {
  std::mt19937 rng(12345);
  std::vector<unsigned char> buf(1 << 16);
  std::iota(buf.begin(), buf.end(), 0);
  const MPI_Datatype bases[] = {MPI_CHAR, MPI_SHORT, MPI_INT, MPI_DOUBLE, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT};
  for (int iter = 0; iter < 200; ++iter) {
    MPI_Datatype base = bases[rng() % 6], inner, outer;
    const int n = 1 + static_cast<int>(rng() % 5);
    std::vector<int> bl(n), disp(n);
    int at = 0;
    for (int i = 0; i < n; ++i) {
      bl[i] = static_cast<int>(rng() % 4);
      disp[i] = at + static_cast<int>(rng() % 3);
      at = disp[i] + bl[i];
    }
    if (rng() % 2) std::swap(disp[0], disp[n - 1]);
    REQUIRE(MPI_Type_indexed(n, bl.data(), disp.data(), base, &inner) == MPI_SUCCESS);
    REQUIRE(MPI_Type_vector(1 + static_cast<int>(rng() % 3), 1 + static_cast<int>(rng() % 2), 3, inner, &outer) ==
            MPI_SUCCESS);
    MPI_Type_free(&inner);
    Datatype* t = committed(outer);
    const int count = 1 + static_cast<int>(rng() % 3);
    const unsigned char* src = buf.data() + 256;
    const auto want = reference_pack(*t, *t->flat, src, count);
    REQUIRE(static_cast<MPI_Count>(want.size()) == count * t->size);
    std::vector<unsigned char> got(want.size() + 1, 0xee);
    pack(*t, *t->flat, src, count, got.data());
    CHECK(std::equal(want.begin(), want.end(), got.begin()));
    CHECK(got.back() == 0xee);
    if (!want.empty()) {
      const MPI_Count first = static_cast<MPI_Count>(rng() % want.size());
      const MPI_Count len = static_cast<MPI_Count>(rng() % (want.size() - first + 1));
      std::vector<unsigned char> part(static_cast<std::size_t>(len));
      pack_range(*t, *t->flat, src, first, len, part.data());
      CHECK(std::equal(part.begin(), part.end(), want.begin() + first));
    }
    // Unpack puts back exactly the packed bytes.
    std::vector<unsigned char> back(buf.size(), 0);
    unpack(*t, *t->flat, got.data(), count, back.data() + 256);
    pack(*t, *t->flat, back.data() + 256, count, got.data());
    CHECK(std::equal(want.begin(), want.end(), got.begin()));
    MPI_Type_free(&outer);
  }
}

TEST_CASE("handles: freed types are rejected, referenced children stay alive") {
  const std::size_t before = live_derived_types();
  MPI_Datatype child, parent;
  REQUIRE(MPI_Type_contiguous(4, MPI_INT, &child) == MPI_SUCCESS);
  REQUIRE(MPI_Type_vector(2, 1, 2, child, &parent) == MPI_SUCCESS);
  const MPI_Datatype stale_child = child;
  REQUIRE(MPI_Type_free(&child) == MPI_SUCCESS);
  CHECK(child == MPI_DATATYPE_NULL);
  CHECK(lookup(stale_child) == nullptr);
  CHECK(live_derived_types() == before + 2);  // the parent holds the child
  Datatype* p = committed(parent);
  CHECK(p->size == 32);

  // get_contents hands the child out again as a valid handle.
  int ints[3];
  MPI_Aint addrs[1];
  MPI_Datatype got[1];
  REQUIRE(MPI_Type_get_contents(parent, 3, 0, 1, ints, addrs, got) == MPI_SUCCESS);
  CHECK(lookup(got[0]) != nullptr);
  REQUIRE(MPI_Type_free(&got[0]) == MPI_SUCCESS);

  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Datatype s = stale_child;
  int cls = -1;
  MPI_Error_class(MPI_Type_free(&s), &cls);
  CHECK(cls == MPI_ERR_TYPE);
  REQUIRE(MPI_Type_free(&parent) == MPI_SUCCESS);
  CHECK(live_derived_types() == before);

  // Garbage pointers and unassigned predefined values are not types.
  int x = 0;
  CHECK(lookup(reinterpret_cast<MPI_Datatype>(&x)) == nullptr);
  CHECK(lookup(reinterpret_cast<MPI_Datatype>(0x2f0)) == nullptr);
  CHECK(lookup(MPI_DATATYPE_NULL) == nullptr);
}

TEST_CASE("subarray stages are freed with the subarray") {
  const std::size_t before = live_derived_types();
  const int sizes[] = {4, 5, 6}, subsizes[] = {2, 3, 4}, starts[] = {1, 1, 2};
  MPI_Datatype h;
  REQUIRE(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &h) == MPI_SUCCESS);
  Datatype* t = committed(h);
  CHECK(t->size == 24 * 8);
  CHECK(t->lb == 0);
  CHECK(t->extent() == 120 * 8);
  CHECK(t->true_lb == (1 * 30 + 1 * 6 + 2) * 8);
  CHECK(t->flat->blocks.size() == 6);  // 2 x 3 rows of 4 doubles
  REQUIRE(MPI_Type_free(&h) == MPI_SUCCESS);
  CHECK(live_derived_types() == before);
}

TEST_CASE("error classes for bad arguments, and partial basic elements") {
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const auto cls = [](int rc) {
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
  };
  MPI_Datatype t = MPI_DATATYPE_NULL;
  CHECK(cls(MPI_Type_vector(2, -1, 1, MPI_INT, &t)) == MPI_ERR_ARG);
  const int bl[] = {1, -2}, d[] = {0, 4};
  CHECK(cls(MPI_Type_indexed(2, bl, d, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(cls(MPI_Type_indexed(2, nullptr, d, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(cls(MPI_Type_contiguous(1, MPI_INT, nullptr)) == MPI_ERR_ARG);
  CHECK(cls(MPI_Type_create_subarray(0, nullptr, nullptr, nullptr, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  const int sizes[] = {4}, subsizes[] = {2}, starts[] = {0};
  CHECK(cls(MPI_Type_create_subarray(1, sizes, subsizes, starts, 7, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(cls(MPI_Type_get_contents(MPI_INT, 0, 0, 0, nullptr, nullptr, nullptr)) == MPI_ERR_TYPE);
  CHECK(cls(MPI_Type_vector(2, 1, INT32_MAX, reinterpret_cast<MPI_Datatype>(0x2f0), &t)) == MPI_ERR_TYPE);
  // vector_c with a stride * extent beyond MPI_Count.
  MPI_Datatype big;
  REQUIRE(MPI_Type_contiguous_c(MPI_Count{1} << 40, MPI_DOUBLE, &big) == MPI_SUCCESS);
  CHECK(cls(MPI_Type_vector_c(2, 1, MPI_Count{1} << 40, big, &t)) == MPI_ERR_ARG);
  // The int envelope cannot describe a _c type.
  int ni, na, nd, comb;
  CHECK(cls(MPI_Type_get_envelope(big, &ni, &na, &nd, &comb)) == MPI_ERR_TYPE);
  MPI_Type_free(&big);
  CHECK(t == MPI_DATATYPE_NULL);

  // 3 bytes end inside an int: MPI_Get_elements gives MPI_UNDEFINED, as Get_count does.
  MPI_Status st;
  REQUIRE(MPI_Status_set_elements(&st, MPI_BYTE, 3) == MPI_SUCCESS);
  int n = 0;
  REQUIRE(MPI_Get_elements(&st, MPI_INT, &n) == MPI_SUCCESS);
  CHECK(n == MPI_UNDEFINED);
  REQUIRE(MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS);
  CHECK(n == MPI_UNDEFINED);
  // A zero-size type counts 0 (MPI-4.1 3.2.5).
  MPI_Datatype empty;
  REQUIRE(MPI_Type_contiguous(0, MPI_INT, &empty) == MPI_SUCCESS);
  REQUIRE(MPI_Type_commit(&empty) == MPI_SUCCESS);
  REQUIRE(MPI_Status_set_elements(&st, MPI_BYTE, 0) == MPI_SUCCESS);
  REQUIRE(MPI_Get_count(&st, empty, &n) == MPI_SUCCESS);
  CHECK(n == 0);
  MPI_Type_free(&empty);
}
