/* Helpers the p2p_*.c tests share: counted checks that name the case, message payloads
 * that depend on (sender, receiver, message id, iteration) and every byte index, and
 * guarded buffers (canary zones before and after the data, a known fill inside).
 * Standard MPI C only. Include it once per program: it defines the per-program statics
 * `me`, `np`, `nchecks` and `ctx`. */
#ifndef SHMPI_TESTS_P2P_UTIL_H
#define SHMPI_TESTS_P2P_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "hash_util.h"

static int me, np;
static long long nchecks;
static char ctx[256]; /* the case being run, printed with every failure */

#define SETCTX(...) snprintf(ctx, sizeof ctx, __VA_ARGS__)

#define EXPECT(cond, ...)                                     \
  do {                                                        \
    ++nchecks;                                                \
    if (!(cond)) {                                            \
      char expect_msg_[1024];                                 \
      snprintf(expect_msg_, sizeof expect_msg_, __VA_ARGS__); \
      CHECK(cond, "[%s] %s", ctx, expect_msg_);               \
    }                                                         \
  } while (0)

/* An MPI call that must succeed in the current case. */
#define OK(call)                                                    \
  do {                                                              \
    int ok_rc_ = (call);                                            \
    EXPECT(ok_rc_ == MPI_SUCCESS, "%s returned %d", #call, ok_rc_); \
  } while (0)

static inline int env(const char* name) { return getenv(name) != NULL; }

/* The seed of one message: who sent it to whom, which message, which iteration. */
static inline uint32_t msg_seed(int src, int dst, int id, int it) {
  uint32_t s = mix32((uint32_t)(src + 1) * 0x9E3779B1u);
  s = mix32(s ^ (uint32_t)(dst + 3) * 0x85EBCA77u);
  s = mix32(s ^ (uint32_t)(id + 5) * 0xC2B2AE3Du);
  return mix32(s ^ (uint32_t)(it + 7) * 0x27D4EB2Fu);
}

/* Byte i of the message with seed s. */
static inline unsigned char pat(uint32_t s, size_t i) {
  return (unsigned char)(mix32(s ^ (uint32_t)(i >> 2) * 0x165667B1u) >> ((i & 3) * 8));
}

static inline void fill_msg(void* buf, size_t n, uint32_t s) {
  unsigned char* p = (unsigned char*)buf;
  for (size_t i = 0; i < n; i += 4) {
    const uint32_t w = mix32(s ^ (uint32_t)(i >> 2) * 0x165667B1u);
    for (size_t k = 0; k < 4 && i + k < n; ++k) p[i + k] = (unsigned char)(w >> (k * 8));
  }
}

/* The fill of receive buffers before a receive: what MPI must leave alone. */
static inline unsigned char fill_byte(size_t i) { return (unsigned char)(0xE7 ^ (i * 29)); }

/* The n bytes at buf must be message s from byte `from` on (from = offset of buf in it). */
static inline void expect_msg_at(const void* buf, size_t n, uint32_t s, size_t from, const char* what) {
  const unsigned char* p = (const unsigned char*)buf;
  ++nchecks;
  for (size_t i = 0; i < n; ++i)
    if (p[i] != pat(s, from + i))
      EXPECT(0, "%s: byte %zu of %zu is 0x%02x, want 0x%02x", what, i, n, p[i], pat(s, from + i));
}
static inline void expect_msg(const void* buf, size_t n, uint32_t s, const char* what) {
  expect_msg_at(buf, n, s, 0, what);
}

/* Bytes [from, to) of a guarded buffer's data must still hold the fill. */
static inline void expect_fill(const void* buf, size_t from, size_t to, const char* what) {
  const unsigned char* p = (const unsigned char*)buf;
  ++nchecks;
  for (size_t i = from; i < to; ++i)
    if (p[i] != fill_byte(i))
      EXPECT(0, "%s: byte %zu (outside the data [.., %zu)) was written: 0x%02x, fill 0x%02x", what, i, from, p[i],
             fill_byte(i));
}

/* ---- guarded buffers: [size_t n][GUARD canary][n data bytes][GUARD canary] ---- */
enum { GUARD = 64, GHDR = 16 };
static inline unsigned char canary(size_t i, int after) {
  return (unsigned char)(after ? 0xC3 ^ (i * 7) : 0x3C ^ (i * 11));
}

/* n data bytes holding fill_byte(i), between canaries. */
static inline unsigned char* galloc(size_t n) {
  unsigned char* m = (unsigned char*)malloc(GHDR + GUARD + n + GUARD);
  CHECK(m != NULL, "malloc %zu", n);
  memcpy(m, &n, sizeof n);
  unsigned char* p = m + GHDR + GUARD;
  for (size_t i = 0; i < GUARD; ++i) {
    p[-(ptrdiff_t)GUARD + (ptrdiff_t)i] = canary(i, 0);
    p[n + i] = canary(i, 1);
  }
  for (size_t i = 0; i < n; ++i) p[i] = fill_byte(i);
  return p;
}
static inline size_t gsize(const unsigned char* p) {
  size_t n;
  memcpy(&n, p - GUARD - GHDR, sizeof n);
  return n;
}
static inline void grefill(unsigned char* p) {
  const size_t n = gsize(p);
  for (size_t i = 0; i < n; ++i) p[i] = fill_byte(i);
}
/* Nothing was written before or after the data. */
static inline void gcheck(const unsigned char* p, const char* what) {
  const size_t n = gsize(p);
  ++nchecks;
  for (size_t i = 0; i < GUARD; ++i) {
    EXPECT(p[-(ptrdiff_t)GUARD + (ptrdiff_t)i] == canary(i, 0),
           "%s: canary byte %zu before the %zu-byte buffer written", what, GUARD - i, n);
    EXPECT(p[n + i] == canary(i, 1), "%s: canary byte %zu after the %zu-byte buffer written (0x%02x)", what, i, n,
           p[n + i]);
  }
}
static inline void gfree(unsigned char* p) {
  if (p != NULL) free(p - GUARD - GHDR);
}

/* ---- statuses ---- */
/* The error class of rc, -1 if rc is no valid error code. */
static inline int class_of(int rc) {
  int cls = -1;
  if (MPI_Error_class(rc, &cls) != MPI_SUCCESS) return -1;
  return cls;
}

/* Source, tag, and MPI_Get_count in units of `type` (the type the receive used). */
static inline void expect_status(const MPI_Status* st, int src, int tag, MPI_Datatype type, int count,
                                 const char* what) {
  int n = -2;
  EXPECT(st->MPI_SOURCE == src, "%s: status source %d, want %d", what, st->MPI_SOURCE, src);
  EXPECT(st->MPI_TAG == tag, "%s: status tag %d, want %d", what, st->MPI_TAG, tag);
  OK(MPI_Get_count(st, type, &n));
  EXPECT(n == count, "%s: MPI_Get_count %d, want %d", what, n, count);
}

/* MPI-4.1 3.11: a receive from MPI_PROC_NULL: source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
static inline void expect_proc_null_status(const MPI_Status* st, MPI_Datatype type, const char* what) {
  expect_status(st, MPI_PROC_NULL, MPI_ANY_TAG, type, 0, what);
}

static inline void poison_status(MPI_Status* st) {
  memset(st, 0x5a, sizeof *st);
  st->MPI_SOURCE = -77;
  st->MPI_TAG = -78;
}

/* MPI_STATUSES_IGNORE through a variable: MPICH's is (MPI_Status *)1, which GCC 12's
 * -Wstringop-overflow takes for a zero-sized array argument (as requests.c). */
static MPI_Status* g_statuses_ignore;
#define STATUSES_IGNORE g_statuses_ignore

static inline void p2p_init(int* argc, char*** argv) {
  CHECK_MPI(MPI_Init(argc, argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
  g_statuses_ignore = MPI_STATUSES_IGNORE;
}

/* Totals the checks of every rank; rank 0 prints "<name>: OK (N checks)". */
static inline void p2p_finish(const char* name) {
  long long total = 0;
  CHECK_MPI(MPI_Reduce(&nchecks, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (me == 0) printf("%s: OK (%lld checks)\n", name, total);
  CHECK_MPI(MPI_Finalize());
}

#endif
