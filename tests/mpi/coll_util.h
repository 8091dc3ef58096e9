/* Helpers the collective tests (coll_basic.c, coll_reduce.c, coll_determinism.c, nbc_*.c)
 * share: counted checks, start and end of a program, values hashed from (call, source,
 * destination, index, iteration), per-rank counts and non-monotone displacements for the
 * v-variants, allocation helpers, and the non-commutative user op (2x2 int matrix
 * product) with its rank-order reference.
 * Standard MPI C only (POSIX clock_gettime for now_ns). Include it once per program: it
 * defines the per-program statics `me`, `np` and `nchecks`. */
#ifndef SHMPI_TESTS_COLL_UTIL_H
#define SHMPI_TESTS_COLL_UTIL_H

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "hash_util.h"

static int me, np;
static long long nchecks;

/* A check that counts towards the "OK (N checks)" total. */
#define EXPECT(cond, ...)     \
  do {                        \
    ++nchecks;                \
    CHECK(cond, __VA_ARGS__); \
  } while (0)

/* MPI_STATUSES_IGNORE through a variable: MPICH's is (MPI_Status *)1, which GCC 12's
 * -Wstringop-overflow takes for a zero-sized array argument (as requests.c). */
static MPI_Status* g_statuses_ignore;
#define STATUSES_IGNORE g_statuses_ignore

static inline void coll_init(int* argc, char*** argv) {
  CHECK_MPI(MPI_Init(argc, argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
  g_statuses_ignore = MPI_STATUSES_IGNORE;
}

/* With more than one rank, some rank must have run the user function(s): `calls` is this
 * rank's count; msg is the failure message. */
static inline void expect_user_fn_ran(long calls, const char* msg) {
  long all = 0;
  CHECK_MPI(MPI_Allreduce(&calls, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  EXPECT(np == 1 || all > 0, "%s", msg);
}

/* Totals the checks of every rank; rank 0 prints "<name>: OK (N checks)". */
static inline void coll_finish(const char* name) {
  long long total = 0;
  CHECK_MPI(MPI_Reduce(&nchecks, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (me == 0) printf("%s: OK (%lld checks)\n", name, total);
  CHECK_MPI(MPI_Finalize());
}

/* ---- values ---- */
/* hash of (call or tag a, source b, destination c, stream index j, iteration it) */
static inline uint32_t hash5(int a, int b, int c, long j, int it) {
  uint32_t h = mix32((uint32_t)a * 0x9E3779B1u ^ (uint32_t)it * 0x85EBCA77u);
  h = mix32(h ^ (uint32_t)(b + 1) * 0xC2B2AE3Du ^ (uint32_t)(c + 7) * 0x27D4EB2Fu);
  return mix32(h ^ (uint32_t)j * 0x165667B1u);
}
/* full-range int value of (tag, src, dst, i, it) */
static inline int vf(int tag, int src, int dst, long i, int it) { return (int)hash5(tag, src, dst, i, it); }
/* small int value: sums over 64 ranks stay exact */
static inline int vs(int tag, int r, long i, int it) {
  return (int)(hash5(tag, r, 0, i, it) % (1u << 20)) - (1 << 19);
}
/* seed of the pre-fill of buffer `which` in iteration `it` on this rank */
static inline uint32_t seed(int it, int which) { return (uint32_t)(it * 977 + which * 131 + me * 7919 + 1); }

static inline long round_up(long k, long g) { return (k + g - 1) / g * g; }

static inline int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- allocation ---- */
enum { SENT = -559038737 /* 0xdeadbeef: what no call writes */ };
/* n ints (at least one allocated) holding SENT */
static inline int* ints(long n) {
  int* p = (int*)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  CHECK(p != NULL, "malloc");
  for (long i = 0; i < n; ++i) p[i] = SENT;
  return p;
}
/* np zeroed ints */
static inline int* ialloc(void) {
  int* a = (int*)calloc((size_t)np, sizeof(int));
  CHECK(a != NULL, "calloc");
  return a;
}
#if MPI_VERSION >= 4
/* np ints widened for the _c variants */
static inline MPI_Count* to_count(const int* a) {
  MPI_Count* c = (MPI_Count*)malloc((size_t)np * sizeof *c);
  CHECK(c != NULL, "malloc");
  for (int i = 0; i < np; ++i) c[i] = a[i];
  return c;
}
static inline MPI_Aint* to_aint(const int* a) {
  MPI_Aint* c = (MPI_Aint*)malloc((size_t)np * sizeof *c);
  CHECK(c != NULL, "malloc");
  for (int i = 0; i < np; ++i) c[i] = a[i];
  return c;
}
#endif

/* ---- per-rank counts and non-monotone displacements for the v-variants ---- */
/* elements rank i contributes (some ranks 0) */
static inline long vcount(long k, int i) { return k == 0 || i % 3 == 1 ? 0 : k + i % 4; }
/* elements from i to j (asymmetric) and a symmetric variant for MPI_IN_PLACE */
static inline long pcount(long k, int i, int j) { return k == 0 || (i + 2 * j) % 3 == 1 ? 0 : k + (i * 7 + j) % 5; }
static inline long pcount_sym(long k, int i, int j) { return k == 0 || (i + j) % 3 == 1 ? 0 : k + (i + j) % 4; }

/* Fills order[] with a non-monotone permutation of 0..n-1. */
static inline void perm(int n, int variant, int* order) {
  int m = 0;
  switch (variant % 3) {
    case 0: for (int i = n - 1; i >= 0; --i) order[m++] = i; break;
    case 1:
      for (int i = 1; i < n; i += 2) order[m++] = i;
      for (int i = (n - 1) / 2 * 2; i >= 0; i -= 2) order[m++] = i;
      break;
    default:
      for (int i = 0; i < n; ++i) order[m++] = (i + n / 2 + 1) % n;
      break;
  }
}
/* displs (in elements) for counts[] placed in perm order with gaps; returns the end */
static inline long place_displs(const int* counts, int variant, int* displs) {
  int order[64];
  perm(np, variant, order);
  long cur = 1;
  for (int t = 0; t < np; ++t) {
    const int r = order[t];
    displs[r] = (int)cur;
    cur += counts[r] + (r % 2);
  }
  return cur;
}

/* ---- the non-commutative user op: 2x2 int matrix product (row major: m00 m01 m10 m11) ---- */
static const int mats[6][4] = {{1, 1, 0, 1}, {1, 0, 1, 1}, {1, 2, 0, 1}, {1, 0, -1, 1}, {0, 1, 1, 0}, {2, 0, 0, 1}};
/* c = a x b (c may be a or b) */
static inline void mat_mul(const int* a, const int* b, int* c) {
  int t[4];
  t[0] = a[0] * b[0] + a[1] * b[2];
  t[1] = a[0] * b[1] + a[1] * b[3];
  t[2] = a[2] * b[0] + a[3] * b[2];
  t[3] = a[2] * b[1] + a[3] * b[3];
  memcpy(c, t, sizeof t);
}
/* The op's work on len matrices: inout = in x inout (in holds the lower ranks' part). */
static inline void mat_op(const void* in, void* inout, long len) {
  const int* a = (const int*)in;
  int* b = (int*)inout;
  for (long e = 0; e < len; ++e) mat_mul(a + 4 * e, b + 4 * e, b + 4 * e);
}
/* rank r's matrix i in iteration it of the data set `tag` */
static inline const int* mat_of(int tag, int r, long i, int it) { return mats[hash5(tag, r, 0, i, it) % 6]; }
/* out = the product of ranks r0..r1-1's matrices in ascending order (r1 > r0) */
static inline void mat_prod(int tag, int r0, int r1, long i, int it, int* out) {
  memcpy(out, mat_of(tag, r0, i, it), 4 * sizeof(int));
  for (int r = r0 + 1; r < r1; ++r) mat_mul(out, mat_of(tag, r, i, it), out);
}

#endif
