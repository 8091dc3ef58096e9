/* datatypes: derived datatypes against hand-computed type maps (MPI-4.1 chapter 5):
 * size, extent, true extent and pack output byte by byte for every constructor,
 * nested and resized types, the pair types' padding; envelope/contents round trips;
 * counts from a status; error classes for bad input under MPI_ERRORS_RETURN.
 * Buffers hold src[i] == i, so a packed byte names the offset it came from.
 * DATATYPES_PEER=1 skips the checks of what the standard leaves undefined (using a
 * freed handle, extents beyond MPI_Count), where shmpi promises an error. The
 * large-count (_c) calls are MPI-4.0: checked where MPI_VERSION >= 4 (not Open MPI 4.1).
 * Usage: datatypes */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <wchar.h>

#include "check.h"

static unsigned char src[512];

/* Size, lb, extent, true lb, true extent of t (all variants agree). */
static void check_bounds(MPI_Datatype t, const char* what, MPI_Count size, MPI_Aint lb, MPI_Aint extent,
                         MPI_Aint tlb, MPI_Aint textent) {
  int isize = -1;
  MPI_Count csize = -1, clb = -1, cext = -1;
  MPI_Aint alb = -1, aext = -1;
  CHECK_MPI(MPI_Type_size(t, &isize));
  CHECK(isize == size, "%s: MPI_Type_size %d, expected %lld", what, isize, (long long)size);
  CHECK_MPI(MPI_Type_size_x(t, &csize));
  CHECK(csize == size, "%s: MPI_Type_size_x %lld", what, (long long)csize);
#if MPI_VERSION >= 4
  CHECK_MPI(MPI_Type_size_c(t, &csize));
  CHECK(csize == size, "%s: MPI_Type_size_c %lld", what, (long long)csize);
#endif
  CHECK_MPI(MPI_Type_get_extent(t, &alb, &aext));
  CHECK(alb == lb && aext == extent, "%s: lb %ld extent %ld, expected %ld %ld", what, (long)alb, (long)aext, (long)lb,
        (long)extent);
  CHECK_MPI(MPI_Type_get_extent_x(t, &clb, &cext));
  CHECK(clb == lb && cext == extent, "%s: _x lb %lld extent %lld", what, (long long)clb, (long long)cext);
#if MPI_VERSION >= 4
  CHECK_MPI(MPI_Type_get_extent_c(t, &clb, &cext));
  CHECK(clb == lb && cext == extent, "%s: _c lb %lld extent %lld", what, (long long)clb, (long long)cext);
#endif
  CHECK_MPI(MPI_Type_get_true_extent(t, &alb, &aext));
  CHECK(alb == tlb && aext == textent, "%s: true lb %ld true extent %ld, expected %ld %ld", what, (long)alb,
        (long)aext, (long)tlb, (long)textent);
  CHECK_MPI(MPI_Type_get_true_extent_x(t, &clb, &cext));
  CHECK(clb == tlb && cext == textent, "%s: true _x %lld %lld", what, (long long)clb, (long long)cext);
#if MPI_VERSION >= 4
  CHECK_MPI(MPI_Type_get_true_extent_c(t, &clb, &cext));
  CHECK(clb == tlb && cext == textent, "%s: true _c %lld %lld", what, (long long)clb, (long long)cext);
#endif
}

/* Packs `count` elements of t from src + base and checks the bytes came from the
 * offsets `expect` (relative to src); unpacks into a zeroed buffer and checks exactly
 * those bytes came back. */
static void check_pack(MPI_Datatype t, const char* what, int count, int base, const int* expect, int n) {
  unsigned char packed[512], back[512];
  int position = 0, size = -1;
  CHECK_MPI(MPI_Pack_size(count, t, MPI_COMM_WORLD, &size));
  CHECK(size >= n, "%s: MPI_Pack_size %d < %d", what, size, n);
  memset(packed, 0xee, sizeof packed);
  CHECK_MPI(MPI_Pack(src + base, count, t, packed, (int)sizeof packed, &position, MPI_COMM_WORLD));
  CHECK(position == n, "%s: packed %d bytes, expected %d", what, position, n);
  for (int i = 0; i < n; ++i) {
    CHECK(packed[i] == src[expect[i]], "%s: packed byte %d is %d, expected %d", what, i, packed[i], expect[i]);
  }
  memset(back, 0, sizeof back);
  position = 0;
  CHECK_MPI(MPI_Unpack(packed, n, &position, back + base, count, t, MPI_COMM_WORLD));
  CHECK(position == n, "%s: unpacked %d bytes", what, position);
  unsigned char want[512];
  memset(want, 0, sizeof want);
  for (int i = 0; i < n; ++i) want[expect[i]] = src[expect[i]];
  for (int i = 0; i < (int)sizeof back; ++i) {
    CHECK(back[i] == want[i], "%s: after unpack byte %d is %d, expected %d", what, i, back[i], want[i]);
  }
}

/* Fills out[] with the offsets lo..hi-1 appended at out + *n. */
static void span(int* out, int* n, int lo, int hi) {
  for (int i = lo; i < hi; ++i) out[(*n)++] = i;
}

static void check_class(int rc, int expected, const char* what) {
  int cls = -1;
  CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == expected, "%s: error class %d, expected %d", what, cls, expected);
}

static void check_envelope(MPI_Datatype t, const char* what, int ni, int na, int nd, int combiner) {
  int i = -1, a = -1, d = -1, c = -1;
  CHECK_MPI(MPI_Type_get_envelope(t, &i, &a, &d, &c));
  CHECK(i == ni && a == na && d == nd && c == combiner, "%s: envelope %d %d %d combiner %d, expected %d %d %d %d", what,
        i, a, d, c, ni, na, nd, combiner);
}

/* MPI_Type_get_contents with the array sizes from the envelope. (Open MPI 4.1 reads
 * past its own arrays when max_* exceed what the envelope says.) */
static void get_contents(MPI_Datatype t, int* ints, MPI_Aint* addrs, MPI_Datatype* dts) {
  int ni, na, nd, combiner;
  CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
  CHECK_MPI(MPI_Type_get_contents(t, ni, na, nd, ints, addrs, dts));
}

static void predefined(void) {
  struct {
    MPI_Datatype t;
    const char* name;
    int size;
  } basic[] = {
      {MPI_CHAR, "MPI_CHAR", 1},
      {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1},
      {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1},
      {MPI_WCHAR, "MPI_WCHAR", (int)sizeof(wchar_t)},
      {MPI_SHORT, "MPI_SHORT", (int)sizeof(short)},
      {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", (int)sizeof(unsigned short)},
      {MPI_INT, "MPI_INT", (int)sizeof(int)},
      {MPI_UNSIGNED, "MPI_UNSIGNED", (int)sizeof(unsigned)},
      {MPI_LONG, "MPI_LONG", (int)sizeof(long)},
      {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", (int)sizeof(unsigned long)},
      {MPI_LONG_LONG, "MPI_LONG_LONG", (int)sizeof(long long)},
      {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", (int)sizeof(unsigned long long)},
      {MPI_FLOAT, "MPI_FLOAT", (int)sizeof(float)},
      {MPI_DOUBLE, "MPI_DOUBLE", (int)sizeof(double)},
      {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", (int)sizeof(long double)},
      {MPI_C_BOOL, "MPI_C_BOOL", (int)sizeof(_Bool)},
      {MPI_INT8_T, "MPI_INT8_T", 1},
      {MPI_UINT8_T, "MPI_UINT8_T", 1},
      {MPI_INT16_T, "MPI_INT16_T", 2},
      {MPI_UINT16_T, "MPI_UINT16_T", 2},
      {MPI_INT32_T, "MPI_INT32_T", 4},
      {MPI_UINT32_T, "MPI_UINT32_T", 4},
      {MPI_INT64_T, "MPI_INT64_T", 8},
      {MPI_UINT64_T, "MPI_UINT64_T", 8},
      {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", (int)sizeof(float _Complex)},
      {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", (int)sizeof(double _Complex)},
      {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", (int)sizeof(long double _Complex)},
      {MPI_BYTE, "MPI_BYTE", 1},
      {MPI_PACKED, "MPI_PACKED", 1},
      {MPI_AINT, "MPI_AINT", (int)sizeof(MPI_Aint)},
      {MPI_OFFSET, "MPI_OFFSET", (int)sizeof(MPI_Offset)},
      {MPI_COUNT, "MPI_COUNT", (int)sizeof(MPI_Count)},
  };
  for (size_t i = 0; i < sizeof basic / sizeof basic[0]; ++i) {
    check_bounds(basic[i].t, basic[i].name, basic[i].size, 0, basic[i].size, 0, basic[i].size);
    check_envelope(basic[i].t, basic[i].name, 0, 0, 0, MPI_COMBINER_NAMED);
  }
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE, name, &len));
  CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name of MPI_DOUBLE is '%s' (%d)", name, len);

  /* Pair types: the C struct {a; b;} with its padding (MPI-4.1 6.9.4). */
#define PAIR(T, A, B)                                                                                    \
  do {                                                                                                   \
    struct s_ {                                                                                          \
      A a;                                                                                               \
      B b;                                                                                               \
    };                                                                                                   \
    check_bounds(T, #T, sizeof(A) + sizeof(B), 0, sizeof(struct s_), 0, offsetof(struct s_, b) + sizeof(B)); \
  } while (0)
  PAIR(MPI_FLOAT_INT, float, int);
  PAIR(MPI_DOUBLE_INT, double, int);
  PAIR(MPI_LONG_INT, long, int);
  PAIR(MPI_2INT, int, int);
  PAIR(MPI_SHORT_INT, short, int);
  PAIR(MPI_LONG_DOUBLE_INT, long double, int);
#undef PAIR

  /* Two MPI_SHORT_INT {short; int;}: bytes 0-1 and 4-7 of each 8-byte struct. */
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_SHORT_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "contiguous(2, MPI_SHORT_INT)", 12, 0, 16, 0, 16);
  int e[64], n = 0;
  span(e, &n, 0, 2), span(e, &n, 4, 10), span(e, &n, 12, 16);
  check_pack(t, "contiguous(2, MPI_SHORT_INT)", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));
  n = 0;
  span(e, &n, 0, 12), span(e, &n, 16, 28);
  check_pack(MPI_DOUBLE_INT, "2 x MPI_DOUBLE_INT", 2, 0, e, n);
}

static void constructors(void) {
  MPI_Datatype t, u, v;
  int e[256], n;

  /* contiguous(3, MPI_INT), 2 of them: 24 bytes in one run. */
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "contiguous(3, MPI_INT)", 12, 0, 12, 0, 12);
  n = 0, span(e, &n, 0, 24);
  check_pack(t, "contiguous(3, MPI_INT)", 2, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");

  /* vector(3, 2, 4, MPI_SHORT): 2 shorts every 8 bytes; extent ((3-1)*4+2)*2 = 20. */
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_SHORT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "vector(3,2,4,MPI_SHORT)", 12, 0, 20, 0, 20);
  n = 0;
  for (int k = 0; k < 2; ++k) span(e, &n, 20 * k + 0, 20 * k + 4), span(e, &n, 20 * k + 8, 20 * k + 12),
                              span(e, &n, 20 * k + 16, 20 * k + 20);
  check_pack(t, "vector(3,2,4,MPI_SHORT) x2", 2, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* hvector(2, 3, 10 bytes, MPI_CHAR): 0-2, 10-12. */
  CHECK_MPI(MPI_Type_create_hvector(2, 3, 10, MPI_CHAR, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "hvector(2,3,10,MPI_CHAR)", 6, 0, 13, 0, 13);
  n = 0, span(e, &n, 0, 3), span(e, &n, 10, 13);
  check_pack(t, "hvector(2,3,10,MPI_CHAR)", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* Negative stride: hvector(2, 1, -4, MPI_INT) from src + 8: bytes 8-11, then 4-7;
   * lb -4, extent 8. */
  CHECK_MPI(MPI_Type_create_hvector(2, 1, -4, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "hvector(2,1,-4,MPI_INT)", 8, -4, 8, -4, 8);
  n = 0, span(e, &n, 8, 12), span(e, &n, 4, 8);
  check_pack(t, "hvector(2,1,-4,MPI_INT)", 1, 8, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* indexed({2,1,3}, {4,0,7}, MPI_SHORT): bytes 8-11, 0-1, 14-19. */
  {
    const int bl[] = {2, 1, 3}, d[] = {4, 0, 7};
    CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_SHORT, &t));
  }
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "indexed", 12, 0, 20, 0, 20);
  n = 0, span(e, &n, 8, 12), span(e, &n, 0, 2), span(e, &n, 14, 20);
  check_pack(t, "indexed", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* hindexed({1,2}, {16,4} bytes, MPI_INT): 16-19, 4-11; lb 4, ub 20. (Aligned
   * displacements: for a misaligned map Open MPI pads the extent like a struct's.) */
  {
    const int bl[] = {1, 2};
    const MPI_Aint d[] = {16, 4};
    CHECK_MPI(MPI_Type_create_hindexed(2, bl, d, MPI_INT, &t));
  }
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "hindexed", 12, 4, 16, 4, 16);
  n = 0, span(e, &n, 16, 20), span(e, &n, 4, 12);
  check_pack(t, "hindexed", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* indexed_block(2, {5,0,2}, MPI_CHAR): 5-6, 0-1, 2-3. */
  {
    const int d[] = {5, 0, 2};
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, MPI_CHAR, &t));
  }
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "indexed_block", 6, 0, 7, 0, 7);
  n = 0, span(e, &n, 5, 7), span(e, &n, 0, 4);
  check_pack(t, "indexed_block", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* hindexed_block(1, {8,0} bytes, MPI_DOUBLE): 8-15, 0-7. */
  {
    const MPI_Aint d[] = {8, 0};
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, d, MPI_DOUBLE, &t));
  }
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "hindexed_block", 16, 0, 16, 0, 16);
  n = 0, span(e, &n, 8, 16), span(e, &n, 0, 8);
  check_pack(t, "hindexed_block", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));

  /* struct {char c; int i[2]; double d;}: offsets 0, 4, 16; size 17, extent 24. */
  {
    struct s {
      char c;
      int i[2];
      double d;
    };
    const int bl[] = {1, 2, 1};
    const MPI_Aint d[] = {offsetof(struct s, c), offsetof(struct s, i), offsetof(struct s, d)};
    const MPI_Datatype ts[] = {MPI_CHAR, MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(3, bl, d, ts, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    check_bounds(t, "struct{char;int[2];double}", 17, 0, (MPI_Aint)sizeof(struct s), 0, 24);
    n = 0;
    for (int k = 0; k < 2; ++k) e[n++] = 24 * k, span(e, &n, 24 * k + 4, 24 * k + 12), span(e, &n, 24 * k + 16, 24 * k + 24);
    check_pack(t, "struct{char;int[2];double} x2", 2, 0, e, n);
    CHECK_MPI(MPI_Type_free(&t));
  }
  /* struct {int; char;}: size 5, extent padded to 8 (MPI-4.1 5.1.6), true extent 5. */
  {
    const int bl[] = {1, 1};
    const MPI_Aint d[] = {0, 4};
    const MPI_Datatype ts[] = {MPI_INT, MPI_CHAR};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ts, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    check_bounds(t, "struct{int;char}", 5, 0, 8, 0, 5);
    n = 0, span(e, &n, 0, 5), span(e, &n, 8, 13);
    check_pack(t, "struct{int;char} x2", 2, 0, e, n);
    CHECK_MPI(MPI_Type_free(&t));
  }

  /* resized(MPI_INT, -2, 10): lb -2, extent 10; two of them are 10 bytes apart. */
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, -2, 10, &u));
  check_bounds(u, "resized(MPI_INT,-2,10)", 4, -2, 10, 0, 4);
  CHECK_MPI(MPI_Type_contiguous(2, u, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "contiguous(2, resized)", 8, -2, 20, 0, 14);
  n = 0, span(e, &n, 0, 4), span(e, &n, 10, 14);
  check_pack(t, "contiguous(2, resized)", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));
  /* vector(3, 1, 1, resized(MPI_INT, 0, 8)): ints at 0, 8, 16. */
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &v));
  CHECK_MPI(MPI_Type_vector(3, 1, 1, v, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "vector(3,1,1,resized(MPI_INT,0,8))", 12, 0, 24, 0, 20);
  n = 0, span(e, &n, 0, 4), span(e, &n, 8, 12), span(e, &n, 16, 20);
  check_pack(t, "vector of resized", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_free(&u));
  CHECK_MPI(MPI_Type_free(&v));

  /* A struct with a resized member: the explicit ub (8) bounds the type even though
   * the char at 8 ends at 9, and no alignment padding is added (MPI-4.1 5.1.7: ub is the
   * largest ub marker when there is one). MPICH 4.0 takes the data into account and pads
   * (extent 12); its peer run sets DATATYPES_STRUCT_UB_FROM_DATA. Open MPI agrees. */
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &u));
  {
    const int bl[] = {1, 1};
    const MPI_Aint d[] = {0, 8};
    const MPI_Datatype ts[] = {u, MPI_CHAR};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ts, &t));
  }
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "struct{resized(MPI_INT,0,8);char at 8}", 5, 0,
               getenv("DATATYPES_STRUCT_UB_FROM_DATA") != NULL ? 12 : 8, 0, 9);
  n = 0, span(e, &n, 0, 4), e[n++] = 8;
  check_pack(t, "struct{resized(MPI_INT,0,8);char at 8}", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_free(&u));

  /* Nested: struct {vector(2,1,2,MPI_INT) at 0 (size 8, extent 12); char at 12}:
   * size 9, ub 13 padded to 16. */
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &u));
  {
    const int bl[] = {1, 1};
    const MPI_Aint d[] = {0, 12};
    const MPI_Datatype ts[] = {u, MPI_CHAR};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ts, &t));
  }
  CHECK_MPI(MPI_Type_free(&u)); /* t keeps it alive */
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "struct{vector;char}", 9, 0, 16, 0, 13);
  n = 0, span(e, &n, 0, 4), span(e, &n, 8, 13), span(e, &n, 16, 20), span(e, &n, 24, 29);
  check_pack(t, "struct{vector;char} x2", 2, 0, e, n);
  /* vector of that struct: stride 2 extents = 32 bytes. */
  CHECK_MPI(MPI_Type_vector(2, 1, 2, t, &u));
  CHECK_MPI(MPI_Type_commit(&u));
  check_bounds(u, "vector(2,1,2,struct)", 18, 0, 48, 0, 45);
  n = 0, span(e, &n, 0, 4), span(e, &n, 8, 13), span(e, &n, 32, 36), span(e, &n, 40, 45);
  check_pack(u, "vector(2,1,2,struct)", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&u));
  CHECK_MPI(MPI_Type_free(&t));

  /* subarray 4x5 of MPI_INT, 2x3 at (1,2). C order: elements 7-9, 12-14. */
  {
    const int sizes[] = {4, 5}, subsizes[] = {2, 3}, starts[] = {1, 2};
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    check_bounds(t, "subarray C", 24, 0, 80, 28, 32);
    n = 0, span(e, &n, 28, 40), span(e, &n, 48, 60);
    check_pack(t, "subarray C", 1, 0, e, n);
    CHECK_MPI(MPI_Type_free(&t));
    /* Fortran order: element (i,j) at i + 4j: 9-10, 13-14, 17-18. */
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    check_bounds(t, "subarray Fortran", 24, 0, 80, 36, 40);
    n = 0, span(e, &n, 36, 44), span(e, &n, 52, 60), span(e, &n, 68, 76);
    check_pack(t, "subarray Fortran", 1, 0, e, n);
    CHECK_MPI(MPI_Type_free(&t));
  }

  /* dup keeps the type map. */
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_SHORT, &u));
  CHECK_MPI(MPI_Type_commit(&u));
  CHECK_MPI(MPI_Type_dup(u, &t));
  check_bounds(t, "dup(vector)", 4, 0, 8, 0, 8);
  n = 0, span(e, &n, 0, 2), span(e, &n, 6, 8);
  check_pack(t, "dup(vector)", 1, 0, e, n);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_free(&u));

#if MPI_VERSION >= 4
  /* Large-count constructors build the same maps. */
  CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_SHORT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  check_bounds(t, "vector_c", 12, 0, 20, 0, 20);
  CHECK_MPI(MPI_Type_free(&t));
  {
    const MPI_Count bl[] = {1, 2}, d[] = {16, 4};
    CHECK_MPI(MPI_Type_create_hindexed_c(2, bl, d, MPI_INT, &t));
    check_bounds(t, "hindexed_c", 12, 4, 16, 4, 16);
    CHECK_MPI(MPI_Type_free(&t));
  }
#endif
  /* A size beyond INT_MAX: MPI_Type_size says MPI_UNDEFINED, _x the value. */
  CHECK_MPI(MPI_Type_contiguous(INT_MAX, MPI_INT, &u));
  CHECK_MPI(MPI_Type_contiguous(4, u, &t));
  int isize = 0;
  MPI_Count csize = 0;
  CHECK_MPI(MPI_Type_size(t, &isize));
  CHECK(isize == MPI_UNDEFINED, "MPI_Type_size of a 32 GiB type is %d", isize);
  CHECK_MPI(MPI_Type_size_x(t, &csize));
  CHECK(csize == 16 * (MPI_Count)INT_MAX, "MPI_Type_size_x %lld", (long long)csize);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_free(&u));
}

static void envelopes(void) {
  MPI_Datatype t, u, got[4];
  int ints[16];
  MPI_Aint addrs[8];

  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_SHORT, &t));
  check_envelope(t, "vector", 3, 0, 1, MPI_COMBINER_VECTOR);
  get_contents(t, ints, addrs, got);
  CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && got[0] == MPI_SHORT, "vector contents %d %d %d", ints[0],
        ints[1], ints[2]);

  CHECK_MPI(MPI_Type_create_hvector(2, 1, 24, t, &u));
  check_envelope(u, "hvector", 2, 1, 1, MPI_COMBINER_HVECTOR);
  get_contents(u, ints, addrs, got);
  CHECK(ints[0] == 2 && ints[1] == 1 && addrs[0] == 24, "hvector contents");
  /* The derived child comes back as a handle to the same type map, freed by the caller. */
  check_envelope(got[0], "hvector's child", 3, 0, 1, MPI_COMBINER_VECTOR);
  check_bounds(got[0], "hvector's child", 12, 0, 20, 0, 20);
  CHECK_MPI(MPI_Type_free(&got[0]));
  CHECK_MPI(MPI_Type_free(&u));

  {
    const int bl[] = {1, 2};
    const MPI_Aint d[] = {0, 8};
    const MPI_Datatype ts[] = {MPI_DOUBLE, t};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ts, &u));
    check_envelope(u, "struct", 3, 2, 2, MPI_COMBINER_STRUCT);
    get_contents(u, ints, addrs, got);
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && addrs[0] == 0 && addrs[1] == 8 && got[0] == MPI_DOUBLE,
          "struct contents");
    check_envelope(got[1], "struct's child", 3, 0, 1, MPI_COMBINER_VECTOR);
    CHECK_MPI(MPI_Type_free(&got[1]));
    CHECK_MPI(MPI_Type_free(&u));
  }
  {
    const int bl[] = {2, 1, 3}, d[] = {4, 0, 7};
    CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &u));
    check_envelope(u, "indexed", 7, 0, 1, MPI_COMBINER_INDEXED);
    get_contents(u, ints, addrs, got);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[3] == 3 && ints[4] == 4 && ints[6] == 7, "indexed contents");
    CHECK_MPI(MPI_Type_free(&u));
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, MPI_INT, &u));
    check_envelope(u, "indexed_block", 5, 0, 1, MPI_COMBINER_INDEXED_BLOCK);
    CHECK_MPI(MPI_Type_free(&u));
    const MPI_Aint ad[] = {4, 0, 7};
    CHECK_MPI(MPI_Type_create_hindexed(3, bl, ad, MPI_INT, &u));
    check_envelope(u, "hindexed", 4, 3, 1, MPI_COMBINER_HINDEXED);
    CHECK_MPI(MPI_Type_free(&u));
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, ad, MPI_INT, &u));
    check_envelope(u, "hindexed_block", 2, 3, 1, MPI_COMBINER_HINDEXED_BLOCK);
    CHECK_MPI(MPI_Type_free(&u));
  }
  CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &u));
  check_envelope(u, "contiguous", 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
  CHECK_MPI(MPI_Type_free(&u));
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &u));
  check_envelope(u, "resized", 0, 2, 1, MPI_COMBINER_RESIZED);
  get_contents(u, ints, addrs, got);
  CHECK(addrs[0] == -4 && addrs[1] == 16 && got[0] == MPI_INT, "resized contents");
  CHECK_MPI(MPI_Type_free(&u));
  CHECK_MPI(MPI_Type_dup(t, &u));
  check_envelope(u, "dup", 0, 0, 1, MPI_COMBINER_DUP);
  CHECK_MPI(MPI_Type_free(&u));
  {
    const int sizes[] = {4, 5}, subsizes[] = {2, 3}, starts[] = {1, 2};
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &u));
    check_envelope(u, "subarray", 8, 0, 1, MPI_COMBINER_SUBARRAY);
    get_contents(u, ints, addrs, got);
    CHECK(ints[0] == 2 && ints[1] == 4 && ints[2] == 5 && ints[3] == 2 && ints[4] == 3 && ints[5] == 1 &&
              ints[6] == 2 && ints[7] == MPI_ORDER_FORTRAN,
          "subarray contents");
    CHECK_MPI(MPI_Type_free(&u));
  }
#if MPI_VERSION >= 4
  /* Large-count envelope. */
  CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &u));
  {
    MPI_Count ni, na, nc, nd, counts[4];
    int combiner;
    CHECK_MPI(MPI_Type_get_envelope_c(u, &ni, &na, &nc, &nd, &combiner));
    CHECK(ni == 0 && na == 0 && nc == 1 && nd == 1 && combiner == MPI_COMBINER_CONTIGUOUS,
          "contiguous_c envelope %lld %lld %lld %lld", (long long)ni, (long long)na, (long long)nc, (long long)nd);
    CHECK_MPI(MPI_Type_get_contents_c(u, 0, 0, 4, 1, ints, addrs, counts, got));
    CHECK(counts[0] == 5 && got[0] == MPI_INT, "contiguous_c contents");
  }
  CHECK_MPI(MPI_Type_free(&u));

#endif
  /* Names. */
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Type_get_name(t, name, &len));
  CHECK(len == 0 && name[0] == '\0', "unnamed type has name '%s'", name);
  CHECK_MPI(MPI_Type_set_name(t, "pairs of shorts"));
  CHECK_MPI(MPI_Type_get_name(t, name, &len));
  CHECK(strcmp(name, "pairs of shorts") == 0 && len == 15, "name '%s' len %d", name, len);
  CHECK_MPI(MPI_Type_free(&t));
}

/* MPI_Status_set_elements(status, datatype, count) with count basic elements (MPI-4.1
 * 13.3: MPI_Get_elements then returns count). MPICH 4.0 stores count * size(datatype)
 * bytes instead, which differs for a type of several basic elements; its peer run sets
 * DATATYPES_SET_ELEMENTS_BY_SIZE and the test sets the same bytes through MPI_BYTE. */
static void set_elements(MPI_Status* st, MPI_Datatype t, int count, int bytes) {
  if (getenv("DATATYPES_SET_ELEMENTS_BY_SIZE") != NULL) {
    CHECK_MPI(MPI_Status_set_elements(st, MPI_BYTE, bytes));
  } else {
    CHECK_MPI(MPI_Status_set_elements(st, t, count));
  }
}

static void counts_and_addresses(void) {
  MPI_Status st;
  int count = -1;
  MPI_Count ccount = -1;
  MPI_Datatype t2, s;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t2));
  CHECK_MPI(MPI_Type_commit(&t2));

  CHECK_MPI(MPI_Status_set_elements(&st, MPI_DOUBLE, 3));
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
  CHECK(count == 3, "Get_count(MPI_DOUBLE) %d", count);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 6, "Get_count(MPI_INT) %d", count);
  CHECK_MPI(MPI_Get_count(&st, t2, &count));
  CHECK(count == 3, "Get_count(contiguous(2,int)) %d", count);
#if MPI_VERSION >= 4
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &ccount));
  CHECK(ccount == 6, "Get_count_c %lld", (long long)ccount);
#endif

  CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 5));
  CHECK_MPI(MPI_Get_count(&st, t2, &count));
  CHECK(count == MPI_UNDEFINED, "Get_count of 5 ints as pairs %d, expected MPI_UNDEFINED", count);
  CHECK_MPI(MPI_Get_elements(&st, t2, &count));
  CHECK(count == 5, "Get_elements of 5 ints as pairs %d", count);
  CHECK_MPI(MPI_Get_elements_x(&st, t2, &ccount));
  CHECK(ccount == 5, "Get_elements_x %lld", (long long)ccount);

  /* struct {char; int[2]; double} has 4 basic elements in 17 bytes. */
  {
    const int bl[] = {1, 2, 1};
    const MPI_Aint d[] = {0, 4, 16};
    const MPI_Datatype ts[] = {MPI_CHAR, MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(3, bl, d, ts, &s));
    CHECK_MPI(MPI_Type_commit(&s));
  }
  set_elements(&st, s, 6, 22); /* one struct + char + int = 17 + 5 bytes */
  CHECK_MPI(MPI_Get_elements(&st, s, &count));
  CHECK(count == 6, "Get_elements(struct) %d", count);
  CHECK_MPI(MPI_Get_count(&st, s, &count));
  CHECK(count == MPI_UNDEFINED, "Get_count(struct) of 1.3 structs %d", count);
  CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
  CHECK(count == 22, "Get_count(MPI_BYTE) after set_elements(struct, 6) %d, expected 22", count);
  set_elements(&st, s, 4, 17);
#if MPI_VERSION >= 4
  MPI_Count bytes = -1;
  CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &bytes));
  CHECK(bytes == 17, "set_elements(struct, 4) set %lld bytes", (long long)bytes);
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, 3));
  CHECK_MPI(MPI_Get_elements_c(&st, MPI_SHORT, &bytes));
  CHECK(bytes == 6, "3 ints are %lld shorts", (long long)bytes);
#endif
  set_elements(&st, s, 4, 17);
  CHECK_MPI(MPI_Get_count(&st, s, &count));
  CHECK(count == 1, "Get_count(struct) %d", count);
  CHECK_MPI(MPI_Type_free(&s));
  CHECK_MPI(MPI_Type_free(&t2));

  double a[10];
  MPI_Aint p0, p5;
  CHECK_MPI(MPI_Get_address(&a[0], &p0));
  CHECK_MPI(MPI_Get_address(&a[5], &p5));
  CHECK(MPI_Aint_diff(p5, p0) == 5 * (MPI_Aint)sizeof(double), "MPI_Aint_diff %ld", (long)MPI_Aint_diff(p5, p0));
  CHECK(MPI_Aint_add(p0, 40) == p5, "MPI_Aint_add");

  /* Absolute addresses: an hindexed type over MPI_BOTTOM (MPI-4.1 5.1.12). MPICH 4.0
   * rejects MPI_BOTTOM as MPI_Pack's inbuf ("Null pointer in parameter inbuf"); its
   * peer run sets DATATYPES_PACK_REJECTS_BOTTOM. */
  if (getenv("DATATYPES_PACK_REJECTS_BOTTOM") != NULL) return;
  MPI_Datatype abs_t;
  const int bl[] = {1, 1};
  const MPI_Aint d[] = {p5, p0};
  a[0] = 1.5, a[5] = 2.5;
  CHECK_MPI(MPI_Type_create_hindexed(2, bl, d, MPI_DOUBLE, &abs_t));
  CHECK_MPI(MPI_Type_commit(&abs_t));
  double out[2];
  int pos = 0;
  CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, abs_t, out, (int)sizeof out, &pos, MPI_COMM_WORLD));
  CHECK(out[0] == 2.5 && out[1] == 1.5, "pack from MPI_BOTTOM gave %g %g", out[0], out[1]);
  CHECK_MPI(MPI_Type_free(&abs_t));
}

static void errors(int peer) {
  MPI_Datatype t = MPI_DATATYPE_NULL, u;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

  check_class(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT, "contiguous(-1)");
  check_class(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT, "vector(count -2)");
  check_class(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "contiguous(MPI_DATATYPE_NULL)");
  {
    const int bl[] = {1, 1};
    const MPI_Aint d[] = {0, 8};
    const MPI_Datatype ts[] = {MPI_INT, MPI_DATATYPE_NULL};
    check_class(MPI_Type_create_struct(2, bl, d, ts, &t), MPI_ERR_TYPE, "struct with MPI_DATATYPE_NULL");
  }
  u = MPI_INT;
  check_class(MPI_Type_free(&u), MPI_ERR_TYPE, "MPI_Type_free(MPI_INT)");
  u = MPI_DATATYPE_NULL;
  check_class(MPI_Type_commit(&u), MPI_ERR_TYPE, "MPI_Type_commit(MPI_DATATYPE_NULL)");
  check_class(MPI_Type_size(MPI_DATATYPE_NULL, &(int){0}), MPI_ERR_TYPE, "MPI_Type_size(MPI_DATATYPE_NULL)");

  /* Pack/Unpack/Get_count need a committed type. */
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &u));
  char buf[64];
  int pos = 0;
  check_class(MPI_Pack(src, 1, u, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE, "Pack uncommitted");
  check_class(MPI_Pack(src, -1, MPI_INT, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT, "Pack count -1");
  CHECK_MPI(MPI_Type_commit(&u));
  MPI_Status st;
  CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 2));
  check_class(MPI_Get_count(&st, MPI_DATATYPE_NULL, &pos), MPI_ERR_TYPE, "Get_count(MPI_DATATYPE_NULL)");

  if (!peer) {
    /* Beyond the standard, which calls these programs erroneous without requiring an
     * error: shmpi answers with an error instead of overrunning a buffer or crashing.
     * (MPICH 4.0 packs past outsize.) Packing into too small a buffer: */
    pos = 60;
    check_class(MPI_Pack(src, 1, u, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                "Pack of 8 bytes into 4 left");
    pos = 0;
    check_class(MPI_Unpack(buf, 4, &pos, src + 256, 1, u, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                "Unpack of 8 bytes from 4");
    /* Subarray arguments out of range (MPICH 4.0 accepts them): */
    {
      const int sizes[] = {4}, subsizes[] = {2}, bad_starts[] = {3};
      check_class(MPI_Type_create_subarray(1, sizes, subsizes, bad_starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
                  "subarray start beyond the array");
    }
    /* A freed handle: */
    MPI_Datatype stale = u;
    CHECK_MPI(MPI_Type_free(&u));
    int size = 0;
    check_class(MPI_Type_size(stale, &size), MPI_ERR_TYPE, "MPI_Type_size of a freed type");
    check_class(MPI_Type_free(&stale), MPI_ERR_TYPE, "MPI_Type_free of a freed type");
    /* Extents beyond MPI_Count: (2^31 - 1)^2 doubles are about 2^65 bytes. */
    MPI_Datatype big, huge = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_contiguous(INT_MAX, MPI_DOUBLE, &big));
    check_class(MPI_Type_contiguous(INT_MAX, big, &huge), MPI_ERR_ARG, "a 2^65-byte type");
    CHECK_MPI(MPI_Type_free(&big));
  } else {
    CHECK_MPI(MPI_Type_free(&u));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int i = 0; i < (int)sizeof src; ++i) src[i] = (unsigned char)i;
  const int peer = getenv("DATATYPES_PEER") != NULL;
  predefined();
  constructors();
  envelopes();
  counts_and_addresses();
  errors(peer);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
