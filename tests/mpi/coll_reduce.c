/* coll_reduce: exact results of the reduction collectives on MPI_COMM_WORLD (MPI-4.1
 * Global Reduction Operations, Reduce-Scatter, Scan; user-defined ops: 7.9.5).
 *
 * Every rank's input element i is a hash of (type, op, rank, i, iteration), drawn from a
 * range where the exact result is known: sums of small integers (exact in float and
 * double too), products of small factors, full-range values for MAX/MIN/bitwise ops and
 * unsigned wrap-around, zero/non-zero mixes for the logical ops. The expected value is
 * folded locally in rank order (7.9.5: a non-commutative op is applied "in ascending,
 * process rank order, beginning with process zero"); Scan folds ranks 0..me, Exscan
 * 0..me-1 (recvbuf on rank 0 is undefined: only its guards are checked).
 *
 * Covered:
 *   - every predefined op on int, long long, unsigned, signed char, unsigned char,
 *     double, float (the ops Predefined Reduction Operations allows), MPI_BYTE (bitwise), MPI_C_BOOL
 *     (logical) and unsigned long (MAX, MIN, SUM): each through MPI_Allreduce and one of
 *     Reduce (the root rotates over all ranks), Reduce_scatter, Reduce_scatter_block,
 *     Scan, Exscan, chosen so that each of these sees every op;
 *   - MPI_MINLOC/MPI_MAXLOC on MPI_FLOAT_INT, DOUBLE_INT, LONG_INT, 2INT, SHORT_INT,
 *     LONG_DOUBLE_INT with values from {-1, 0, 1} (ties everywhere) and indices that are
 *     not monotone in the rank: ties must yield the smaller index (MINLOC and MAXLOC); the same
 *     choice of calls, and all six calls in place with MPI_MAXLOC on MPI_DOUBLE_INT;
 *   - a non-commutative user op (2x2 matrix product, inout = in * inout) on a contiguous
 *     int matrix type and on a resized double matrix type with an 8-byte hole, through
 *     Reduce (every root), Allreduce, Scan, Exscan, Reduce_scatter, Reduce_scatter_block,
 *     in place and not, also 0.8-3 MiB of them through Reduce and Allreduce: the result
 *     must be the rank-order product M0*M1*... (the
 *     double one compared by value: the sign of a zero entry depends on the association
 *     order, which 7.9.5 leaves to the implementation);
 *   - a commutative user op (a + b + ab mod 2^32) on MPI_UNSIGNED, on a vector type
 *     with holes and on that type resized with a gap at its end (also 3.2 MiB of it
 *     through Reduce and Allreduce), one user function for all: it dispatches on the
 *     datatype argument, which must be the handle passed to the call (7.9.5);
 *   - MPI_IN_PLACE for Reduce (root), Allreduce, Reduce_scatter(_block), Scan, Exscan;
 *   - count 0 for every call; 1 MiB + 24 bytes of doubles through Reduce and Allreduce,
 *     in place and not; 160 KiB-1 MiB blocks through Reduce_scatter(_block), also of
 *     the matrix ops;
 *   - (MPI_VERSION >= 4) the _c variants and MPI_Op_create_c.
 * Receive buffers sit between guard zones; bytes outside the type map of our derived
 * types must stay untouched, send buffers unchanged, and a non-root's recvbuf in Reduce
 * (not significant; NULL in half of the calls) untouched.
 * Point-to-point is not used. Prints "coll_reduce: OK (N checks)" on rank 0.
 *
 * Peer toggles (set by tests/peer/run_coll_peer.sh), each narrowing the inputs of one
 * (op, type) set so that the peer's bug does not show:
 *   COLL_REDUCE_UNSIGNED_MAXMIN_SIGNED  MPICH 4.0.2 compares every unsigned integer type
 *       as signed in MPI_MAX/MPI_MIN (max(1, 200) on MPI_UNSIGNED_CHAR is 1): MAX/MIN
 *       inputs of unsigned types keep their top bit clear.
 *   COLL_REDUCE_ULONG_MAXMIN_SIGNED  Open MPI 4.1.4 does the same on MPI_UNSIGNED_LONG
 *       (only): MAX/MIN inputs of unsigned long keep their top bit clear.
 *   COLL_REDUCE_UCHAR_SUM_SATURATES  Open MPI 4.1.4 (op/avx) saturates 8- and 16-bit
 *       MPI_SUM in its vector loop instead of wrapping around as C unsigned arithmetic
 *       does (200 + 100 gives 255, not 44): unsigned char SUM inputs stay below 256/size.
 *   COLL_REDUCE_RSB_RESIZED_OVERFLOW  MPICH 4.0.2: MPI_Reduce_scatter_block on the
 *       double matrix type (extent 40, true extent 32; non-commutative user op) writes
 *       past a temporary buffer of count x true extent bytes on 2, 4 and 8 ranks (heap
 *       corruption, abort in free; valgrind shows it): that case uses the int matrix.
 *   COLL_REDUCE_RS_INPLACE_LARGE_OVERLAP  MPICH 4.0.2: MPI_Reduce_scatter with
 *       MPI_IN_PLACE and 40009-40011 doubles per rank stops at 3 ranks in its own check,
 *       "memcpy argument memory ranges overlap" (Internal error); MPI-4.1 6.10.1 allows
 *       MPI_IN_PLACE there: that case runs without it.
 * Usage: coll_reduce */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coll_util.h"

static int g_iter;
static char ctx[256];
static int t_unsigned_maxmin, t_ulong_maxmin, t_uchar_sum, t_rsb_resized,
    t_rs_inplace_large; /* peer toggles, see the header */

enum { GUARD = 64 };

/* hash of an input element (another function than hash5 of coll_util.h) */
static uint32_t hash_in(int a, int b, int r, long i, int it) {
  uint32_t h = mix32((uint32_t)a * 0x9E3779B1u ^ (uint32_t)b * 0x85EBCA77u);
  h = mix32(h ^ (uint32_t)(r + 1) * 0xC2B2AE3Du);
  h = mix32(h ^ (uint32_t)i * 0x27D4EB2Fu);
  return mix32(h ^ (uint32_t)it * 0x165667B1u);
}

/* ---- ops ---- */
enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR, O_MINLOC, O_MAXLOC, O_USER, NOPS };
static const char* const op_name[NOPS] = {"MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR",
                                          "MINLOC", "MAXLOC", "user op"};
static MPI_Op opv[NOPS];

/* ---- element types ---- */
typedef struct TypeDesc TypeDesc;
struct TypeDesc {
  int id;
  const char* name;
  MPI_Datatype type;
  size_t size;               /* bytes between consecutive elements (the extent) */
  unsigned char mask[48];    /* 1 = byte belongs to the type map */
  int check_gaps;            /* bytes outside the type map must stay untouched */
  void (*gen)(const TypeDesc*, int opi, int r, long i, int it, void* out);
  void (*fold)(const TypeDesc*, int opi, const void* x, void* acc); /* acc = acc op x */
  void (*show)(const TypeDesc*, const void* e, char* buf, size_t n);
};

enum { T_INT, T_LL, T_UNS, T_SCHAR, T_UCHAR, T_DOUBLE, T_FLOAT, T_BYTE, T_BOOL, T_ULONG, NBASIC };
enum { P_FLOAT_INT = NBASIC, P_DOUBLE_INT, P_LONG_INT, P_2INT, P_SHORT_INT, P_LDOUBLE_INT, U_MAT_INT, U_MAT_DBL,
       U_UNS, U_UVEC, U_UVEC16, NTYPES };
static TypeDesc td[NTYPES];

typedef struct { float v; int i; } float_int;
typedef struct { double v; int i; } double_int;
typedef struct { long v; int i; } long_int;
typedef struct { int v; int i; } int_int;
typedef struct { short v; int i; } short_int;
typedef struct { long double v; int i; } ldouble_int;

static int op_valid(int ti, int opi) {
  switch (ti) {
    case T_DOUBLE:
    case T_FLOAT: return opi <= O_PROD;
    case T_BYTE: return opi == O_BAND || opi == O_BOR || opi == O_BXOR;
    case T_BOOL: return opi == O_LAND || opi == O_LOR || opi == O_LXOR;
    case T_ULONG: return opi == O_MAX || opi == O_MIN || opi == O_SUM; /* a few: calls are dear */
    default: return opi <= O_BXOR;
  }
}

/* Input value of rank r, element i, for a predefined op on a basic type. */
static void gen_basic(const TypeDesc* T, int opi, int r, long i, int it, void* out) {
  const uint32_t h = hash_in(T->id, opi, r, i, it), h2 = mix32(h ^ 0xA5A5A5A5u), h3 = mix32(h2 ^ 0x3C3C3C3Cu);
  const uint64_t bits = (uint64_t)h << 32 | h2, bits2 = (uint64_t)h3 << 32 | mix32(h3),
                 bits3 = (uint64_t)mix32(h + 1) << 32 | mix32(h + 2);
  long long iv = 0;
  double dv = 0;
  const int small = r < 8; /* bounded products: factors beyond rank 7 are +-1 */
  switch (opi) {
    case O_MAX:
    case O_MIN:
      iv = (long long)bits;
      dv = (double)(int32_t)h / 8.0;
      break;
    case O_SUM:
      switch (T->id) {
        case T_INT: iv = (long long)(h % (1u << 27)) - (1 << 26); break;
        case T_LL: iv = (long long)(bits >> 16) - (1LL << 47); break;
        case T_SCHAR: { const int lim = 127 / np; iv = (long long)(h % (unsigned)(2 * lim + 1)) - lim; } break;
        default: iv = (long long)bits; break; /* unsigned types wrap around (C arithmetic) */
      }
      dv = T->id == T_FLOAT ? (double)((int)(h % (1u << 17)) - (1 << 16)) : (double)((int)(h % (1u << 21)) - (1 << 20));
      break;
    case O_PROD:
      switch (T->id) {
        case T_INT: iv = small ? (long long)(h % 19) - 9 : (h & 1 ? 1 : -1); break;
        case T_LL: iv = small ? (long long)(h % 401) - 200 : (h & 1 ? 1 : -1); break;
        case T_SCHAR: iv = r < 3 ? (long long)(h % 5) - 2 : (h & 1 ? 1 : -1); break;
        default: iv = (long long)bits; break;
      }
      dv = small ? (T->id == T_FLOAT ? (double)(h % 15) - 7 : (double)(h % 19) - 9) : (h & 1 ? 1 : -1);
      break;
    case O_LAND: /* zero rarely, so that some results are true */
      iv = h % 16 == 0 ? 0 : h % 3 == 0 ? 1 : (long long)(h2 | 1);
      break;
    case O_LOR: /* zero mostly, so that some results are false */
      iv = h % 4 != 0 ? 0 : h % 3 == 0 ? 1 : (long long)(h2 | 1);
      break;
    case O_LXOR: iv = h % 2 == 0 ? 0 : h % 3 == 0 ? 1 : (long long)(h2 | 1); break;
    case O_BAND: iv = (long long)~(bits & bits2 & bits3); break; /* each bit 0 with p = 1/8 */
    case O_BOR: iv = (long long)(bits & bits2 & bits3); break;
    case O_BXOR: iv = (long long)bits; break;
  }
  if (opi == O_MAX || opi == O_MIN) { /* peer toggles: top bit clear */
    if (T->id == T_UCHAR && t_unsigned_maxmin) iv &= 0x7f;
    if (T->id == T_UNS && t_unsigned_maxmin) iv &= 0x7fffffff;
    if (T->id == T_ULONG && (t_unsigned_maxmin || t_ulong_maxmin)) iv &= 0x7fffffffffffffffLL;
  }
  if (opi == O_SUM && T->id == T_UCHAR && t_uchar_sum) iv = h % (unsigned)(256 / np);
  switch (T->id) {
    case T_INT: *(int*)out = (int)iv; break;
    case T_ULONG: *(unsigned long*)out = (unsigned long)iv; break;
    case T_LL: *(long long*)out = iv; break;
    case T_UNS: *(unsigned*)out = (unsigned)iv; break;
    case T_SCHAR: *(signed char*)out = (signed char)iv; break;
    case T_UCHAR:
    case T_BYTE: *(unsigned char*)out = (unsigned char)iv; break;
    case T_BOOL: *(bool*)out = iv != 0; break;
    case T_DOUBLE: *(double*)out = dv; break;
    case T_FLOAT: *(float*)out = (float)dv; break;
  }
}

#define FOLD_INT(T)                                   \
  do {                                                \
    T* a = acc;                                       \
    const T b = *(const T*)x;                         \
    switch (opi) {                                    \
      case O_MAX: *a = *a > b ? *a : b; break;        \
      case O_MIN: *a = *a < b ? *a : b; break;        \
      case O_SUM: *a = (T)(*a + b); break;            \
      case O_PROD: *a = (T)(*a * b); break;           \
      case O_LAND: *a = (T)(*a && b); break;          \
      case O_LOR: *a = (T)(*a || b); break;           \
      case O_LXOR: *a = (T)(!*a != !b); break;        \
      case O_BAND: *a = (T)(*a & b); break;           \
      case O_BOR: *a = (T)(*a | b); break;            \
      case O_BXOR: *a = (T)(*a ^ b); break;           \
    }                                                 \
  } while (0)
#define FOLD_FP(T)                               \
  do {                                           \
    T* a = acc;                                  \
    const T b = *(const T*)x;                    \
    switch (opi) {                               \
      case O_MAX: *a = *a > b ? *a : b; break;   \
      case O_MIN: *a = *a < b ? *a : b; break;   \
      case O_SUM: *a = *a + b; break;            \
      case O_PROD: *a = *a * b; break;           \
    }                                            \
  } while (0)

static void fold_basic(const TypeDesc* T, int opi, const void* x, void* acc) {
  switch (T->id) {
    case T_INT: FOLD_INT(int); break;
    case T_LL: FOLD_INT(long long); break;
    case T_UNS: FOLD_INT(unsigned); break;
    case T_ULONG: FOLD_INT(unsigned long); break;
    case T_SCHAR: FOLD_INT(signed char); break;
    case T_UCHAR:
    case T_BYTE: FOLD_INT(unsigned char); break;
    case T_BOOL: { /* logical ops only */
      bool* a = acc;
      const bool b = *(const bool*)x;
      *a = opi == O_LAND ? (*a && b) : opi == O_LOR ? (*a || b) : (*a != b);
    } break;
    case T_DOUBLE: FOLD_FP(double); break;
    case T_FLOAT: FOLD_FP(float); break;
  }
}

static void show_basic(const TypeDesc* T, const void* e, char* buf, size_t n) {
  switch (T->id) {
    case T_INT: snprintf(buf, n, "%d", *(const int*)e); break;
    case T_LL: snprintf(buf, n, "%lld", *(const long long*)e); break;
    case T_UNS: snprintf(buf, n, "%u", *(const unsigned*)e); break;
    case T_ULONG: snprintf(buf, n, "%lu", *(const unsigned long*)e); break;
    case T_SCHAR: snprintf(buf, n, "%d", *(const signed char*)e); break;
    case T_UCHAR:
    case T_BYTE: snprintf(buf, n, "0x%02x", *(const unsigned char*)e); break;
    case T_BOOL: snprintf(buf, n, "%d (byte 0x%02x)", *(const bool*)e, *(const unsigned char*)e); break;
    case T_DOUBLE: snprintf(buf, n, "%.17g", *(const double*)e); break;
    case T_FLOAT: snprintf(buf, n, "%.9g", (double)*(const float*)e); break;
  }
}

/* ---- MINLOC/MAXLOC pairs: value in {-1, 0, 1}, index not monotone in the rank ---- */
static int pair_index(int r, long i, int it) { return (int)((r * 5 + i * 3 + it) % 11) - 4; }

#define PAIR_CASES(X) \
  X(P_FLOAT_INT, float_int) X(P_DOUBLE_INT, double_int) X(P_LONG_INT, long_int) X(P_2INT, int_int) \
  X(P_SHORT_INT, short_int) X(P_LDOUBLE_INT, ldouble_int)

static void gen_pair(const TypeDesc* T, int opi, int r, long i, int it, void* out) {
  const int v = (int)(hash_in(T->id, opi, r, i, it) % 3) - 1, ix = pair_index(r, i, it);
  memset(out, 0, T->size);
  switch (T->id) {
#define X(ID, S)           \
  case ID:                 \
    ((S*)out)->v = v;      \
    ((S*)out)->i = ix;     \
    break;
    PAIR_CASES(X)
#undef X
  }
}

static void fold_pair(const TypeDesc* T, int opi, const void* x, void* acc) {
  switch (T->id) {
#define X(ID, S)                                                                     \
  case ID: {                                                                         \
    S* a = acc;                                                                      \
    const S* b = x;                                                                  \
    const int better = opi == O_MINLOC ? b->v < a->v : b->v > a->v;                  \
    if (better) *a = *b;                                                             \
    else if (b->v == a->v && b->i < a->i) a->i = b->i;                               \
  } break;
    PAIR_CASES(X)
#undef X
  }
}

static void show_pair(const TypeDesc* T, const void* e, char* buf, size_t n) {
  switch (T->id) {
#define X(ID, S)                                                                            \
  case ID: snprintf(buf, n, "(%Lg, %d)", (long double)((const S*)e)->v, ((const S*)e)->i); break;
    PAIR_CASES(X)
#undef X
  }
}

/* ---- user ops ---- */
static MPI_Datatype g_mat_int, g_mat_dbl, g_uvec, g_uvec16;
static long g_len_limit; /* the largest *len a user function may see in the current call */
static int bad_dt, bad_len, user_calls;

/* 2x2 row-major: c = a * b */
static void mul_ll(const long long* a, const long long* b, long long* c) {
  const long long r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                          a[2] * b[1] + a[3] * b[3]};
  memcpy(c, r, sizeof r);
}

static void mat_int_fn(void* in, void* inout, int* len, MPI_Datatype* dt) {
  ++user_calls;
  if (*dt != g_mat_int) ++bad_dt;
  if (*len < 0 || *len > g_len_limit) ++bad_len;
  mat_op(in, inout, *len);
}
/* the double matrix type: 4 doubles, extent 40 (one double of hole at the end) */
static void mat_dbl_fn(void* in, void* inout, int* len, MPI_Datatype* dt) {
  ++user_calls;
  if (*dt != g_mat_dbl) ++bad_dt;
  if (*len < 0 || *len > g_len_limit) ++bad_len;
  for (int e = 0; e < *len; ++e) {
    const double* a = (const double*)((const char*)in + 40 * (size_t)e);
    double* b = (double*)((char*)inout + 40 * (size_t)e);
    const double r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                         a[2] * b[1] + a[3] * b[3]};
    memcpy(b, r, sizeof r);
  }
}
/* commutative: a + b + ab (mod 2^32), i.e. (1+a)(1+b) - 1; on MPI_UNSIGNED and on
 * g_uvec = vector(2, 1, 2, MPI_UNSIGNED) (values at bytes 0 and 8, extent 12), and on
 * g_uvec16, the same resized to extent 16 (true extent 12: a 4-byte gap after each) */
static void comm_fn(void* in, void* inout, int* len, MPI_Datatype* dt) {
  ++user_calls;
  if (*len < 0 || *len > g_len_limit) ++bad_len;
  size_t stride, nv;
  if (*dt == MPI_UNSIGNED) stride = 4, nv = 1;
  else if (*dt == g_uvec) stride = 12, nv = 2;
  else if (*dt == g_uvec16) stride = 16, nv = 2;
  else {
    ++bad_dt;
    return;
  }
  for (int e = 0; e < *len; ++e)
    for (size_t k = 0; k < nv; ++k) {
      const unsigned* a = (const unsigned*)((const char*)in + stride * (size_t)e + 8 * k);
      unsigned* b = (unsigned*)((char*)inout + stride * (size_t)e + 8 * k);
      *b = *a + *b + *a * *b;
    }
}
#if MPI_VERSION >= 4
static void mat_int_fn_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* dt) {
  ++user_calls;
  if (*dt != g_mat_int) ++bad_dt;
  if (*len < 0 || *len > g_len_limit) ++bad_len;
  mat_op(in, inout, (long)*len);
}
#endif

static void gen_mat(const TypeDesc* T, int opi, int r, long i, int it, void* out) {
  (void)opi;
  const uint32_t h = hash_in(T->id, 77, r, i, it);
  const int* m = mats[r < 16 ? h % 6 : 4];
  memset(out, 0, T->size);
  for (int k = 0; k < 4; ++k) {
    if (T->id == U_MAT_INT) ((int*)out)[k] = m[k];
    else ((double*)out)[k] = m[k];
  }
}
static void fold_mat(const TypeDesc* T, int opi, const void* x, void* acc) {
  (void)opi;
  long long a[4], b[4], c[4];
  for (int k = 0; k < 4; ++k) {
    a[k] = T->id == U_MAT_INT ? ((int*)acc)[k] : (long long)((double*)acc)[k];
    b[k] = T->id == U_MAT_INT ? ((const int*)x)[k] : (long long)((const double*)x)[k];
  }
  mul_ll(a, b, c); /* acc holds ranks below x's: acc = acc * x */
  for (int k = 0; k < 4; ++k) {
    if (T->id == U_MAT_INT) ((int*)acc)[k] = (int)c[k];
    else ((double*)acc)[k] = (double)c[k];
  }
}
static void show_mat(const TypeDesc* T, const void* e, char* buf, size_t n) {
  if (T->id == U_MAT_INT) {
    const int* m = e;
    snprintf(buf, n, "[[%d %d] [%d %d]]", m[0], m[1], m[2], m[3]);
  } else {
    const double* m = e;
    snprintf(buf, n, "[[%g %g] [%g %g]]", m[0], m[1], m[2], m[3]);
  }
}

static void gen_uns(const TypeDesc* T, int opi, int r, long i, int it, void* out) {
  (void)opi;
  memset(out, 0, T->size);
  ((unsigned*)out)[0] = hash_in(T->id, 99, r, i, it);
  if (T->id != U_UNS) ((unsigned*)out)[2] = hash_in(T->id, 98, r, i, it);
}
static void fold_uns(const TypeDesc* T, int opi, const void* x, void* acc) {
  (void)opi;
  for (int k = 0; k < (T->id != U_UNS ? 2 : 1); ++k) {
    unsigned* a = (unsigned*)acc + 2 * k;
    const unsigned b = ((const unsigned*)x)[2 * k];
    *a = *a + b + *a * b;
  }
}
static void show_uns(const TypeDesc* T, const void* e, char* buf, size_t n) {
  if (T->id != U_UNS) snprintf(buf, n, "{%u, %u}", ((const unsigned*)e)[0], ((const unsigned*)e)[2]);
  else snprintf(buf, n, "%u", *(const unsigned*)e);
}

static void set_type(int id, const char* name, MPI_Datatype t, size_t size, int check_gaps) {
  TypeDesc* T = &td[id];
  T->id = id;
  T->name = name;
  T->type = t;
  T->size = size;
  T->check_gaps = check_gaps;
  memset(T->mask, 1, size);
  MPI_Aint lb = -1, ext = -1;
  CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
  EXPECT(lb == 0 && (size_t)ext == size, "%s: lb %ld extent %ld, expected 0 and %zu", name, (long)lb, (long)ext, size);
  CHECK(size <= sizeof T->mask, "type too large");
}

static void make_types(void) {
  const MPI_Op ops[NOPS] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,   MPI_LOR,
                            MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_OP_NULL};
  memcpy(opv, ops, sizeof ops);
  set_type(T_INT, "int", MPI_INT, sizeof(int), 0);
  set_type(T_LL, "long long", MPI_LONG_LONG, sizeof(long long), 0);
  set_type(T_UNS, "unsigned", MPI_UNSIGNED, sizeof(unsigned), 0);
  set_type(T_SCHAR, "signed char", MPI_SIGNED_CHAR, 1, 0);
  set_type(T_UCHAR, "unsigned char", MPI_UNSIGNED_CHAR, 1, 0);
  set_type(T_DOUBLE, "double", MPI_DOUBLE, sizeof(double), 0);
  set_type(T_FLOAT, "float", MPI_FLOAT, sizeof(float), 0);
  set_type(T_BYTE, "byte", MPI_BYTE, 1, 0);
  set_type(T_BOOL, "C bool", MPI_C_BOOL, sizeof(bool), 0);
  set_type(T_ULONG, "unsigned long", MPI_UNSIGNED_LONG, sizeof(unsigned long), 0);
  for (int i = 0; i < NBASIC; ++i) td[i].gen = gen_basic, td[i].fold = fold_basic, td[i].show = show_basic;
#define PAIR(ID, S, T, VT)                                                  \
  set_type(ID, #T, T, sizeof(S), 0);                                        \
  memset(td[ID].mask, 0, sizeof td[ID].mask);                               \
  memset(td[ID].mask + offsetof(S, v), 1, VT);                              \
  memset(td[ID].mask + offsetof(S, i), 1, sizeof(int));                     \
  td[ID].gen = gen_pair, td[ID].fold = fold_pair, td[ID].show = show_pair;
  PAIR(P_FLOAT_INT, float_int, MPI_FLOAT_INT, sizeof(float))
  PAIR(P_DOUBLE_INT, double_int, MPI_DOUBLE_INT, sizeof(double))
  PAIR(P_LONG_INT, long_int, MPI_LONG_INT, sizeof(long))
  PAIR(P_2INT, int_int, MPI_2INT, sizeof(int))
  PAIR(P_SHORT_INT, short_int, MPI_SHORT_INT, sizeof(short))
  PAIR(P_LDOUBLE_INT, ldouble_int, MPI_LONG_DOUBLE_INT, 10) /* x87: 10 bytes of value, the rest padding */
#undef PAIR
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &g_mat_int));
  CHECK_MPI(MPI_Type_commit(&g_mat_int));
  set_type(U_MAT_INT, "2x2 int matrix", g_mat_int, 16, 1);
  CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE, &t));
  CHECK_MPI(MPI_Type_create_resized(t, 0, 40, &g_mat_dbl));
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_commit(&g_mat_dbl));
  set_type(U_MAT_DBL, "2x2 double matrix (extent 40)", g_mat_dbl, 40, 1);
  memset(td[U_MAT_DBL].mask + 32, 0, 8);
  for (int i = U_MAT_INT; i <= U_MAT_DBL; ++i) td[i].gen = gen_mat, td[i].fold = fold_mat, td[i].show = show_mat;
  set_type(U_UNS, "unsigned (user op)", MPI_UNSIGNED, 4, 1);
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_UNSIGNED, &g_uvec));
  CHECK_MPI(MPI_Type_commit(&g_uvec));
  set_type(U_UVEC, "vector(2,1,2,unsigned)", g_uvec, 12, 1);
  memset(td[U_UVEC].mask + 4, 0, 4);
  CHECK_MPI(MPI_Type_create_resized(g_uvec, 0, 16, &g_uvec16));
  CHECK_MPI(MPI_Type_commit(&g_uvec16));
  set_type(U_UVEC16, "vector(2,1,2,unsigned) resized to 16", g_uvec16, 16, 1);
  memset(td[U_UVEC16].mask + 4, 0, 4);
  memset(td[U_UVEC16].mask + 12, 0, 4);
  for (int i = U_UNS; i <= U_UVEC16; ++i) td[i].gen = gen_uns, td[i].fold = fold_uns, td[i].show = show_uns;
}

/* ---- guarded buffers ---- */
typedef struct {
  unsigned char* mem;
  size_t total, bytes;
  unsigned char* p;
} Buf;

static void buf_init(Buf* b, size_t bytes, uint32_t seed) {
  b->bytes = bytes;
  b->total = bytes + 2 * GUARD;
  b->mem = malloc(b->total);
  CHECK(b->mem != NULL, "malloc %zu", b->total);
  b->p = b->mem + GUARD;
  for (size_t i = 0; i < b->total; i += 4) {
    const uint32_t v = mix32(seed * 0x2545F491u ^ (uint32_t)(i + 1) * 0x9E3779B9u);
    memcpy(b->mem + i, &v, b->total - i < 4 ? b->total - i : 4);
  }
}
static void buf_clone(Buf* d, const Buf* s) {
  *d = *s;
  d->mem = malloc(s->total);
  CHECK(d->mem != NULL, "malloc");
  memcpy(d->mem, s->mem, s->total);
  d->p = d->mem + GUARD;
}
static void buf_free(Buf* b) {
  free(b->mem);
  memset(b, 0, sizeof *b);
}

/* ---- one call ---- */
enum { R_REDUCE, R_ALLREDUCE, R_RS, R_RSB, R_SCAN, R_EXSCAN, NRCALLS };
static const char* const rcall_name[NRCALLS] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter",
                                                 "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Exscan"};
enum { F_INPLACE = 1, F_C = 2 };

static long rs_count(long k, int i) { return k == 0 || i % 3 == 1 ? 0 : k + i % 3; }

/* got must equal want_img everywhere except where `dontcare` marks bytes */
static void compare(const Buf* got, const Buf* want, const unsigned char* dontcare, const TypeDesc* T,
                    const char* what) {
  for (size_t i = 0; i < got->total; ++i) {
    if (got->mem[i] == want->mem[i] || (dontcare && dontcare[i])) continue;
    const long rel = (long)i - GUARD;
    const int bytes_match = 0;
    if (rel < 0 || (size_t)rel >= got->bytes)
      CHECK(bytes_match, "%s: %s: guard byte %ld (buffer of %zu bytes) is 0x%02x, want 0x%02x", ctx, what, rel,
            got->bytes, got->mem[i], want->mem[i]);
    const size_t e = (size_t)rel / T->size, b = (size_t)rel % T->size;
    char g[128], w[128];
    T->show(T, got->p + e * T->size, g, sizeof g);
    T->show(T, want->p + e * T->size, w, sizeof w);
    CHECK(bytes_match, "%s: %s: element %zu (byte %zu of it%s) is %s, want %s", ctx, what, e, b,
          T->mask[b] ? "" : ", outside the type map", g, w);
  }
}

static void run(const TypeDesc* T, int opi, MPI_Op op, int call, long k, int root, int flags) {
  const int it = g_iter++;
  const int inplace = (flags & F_INPLACE) && (call != R_REDUCE || me == root);
  char rootstr[32] = "";
  if (call == R_REDUCE) snprintf(rootstr, sizeof rootstr, ", root %d", root);
  snprintf(ctx, sizeof ctx, "%s%s%s(%s, %s, count %ld%s), iteration %d", rcall_name[call], (flags & F_C) ? "_c" : "",
           (flags & F_INPLACE) ? " MPI_IN_PLACE" : "", T->name, op_name[opi], k, rootstr, it);
  const size_t sz = T->size;
  /* element counts: input per rank, my result's offset in the full vector, its length */
  int* rc = malloc((size_t)np * sizeof(int));
  CHECK(rc != NULL, "malloc");
  long n_in = k, off = 0, n_res = k;
  if (call == R_RSB) n_in = k * np, off = k * me;
  if (call == R_RS) {
    n_in = 0;
    for (int i = 0; i < np; ++i) {
      rc[i] = (int)rs_count(k, i);
      if (i < me) off += rc[i];
      n_in += rc[i];
    }
    n_res = rc[me];
  }
  int first = 0, last = np - 1; /* ranks folded into my result */
  if (call == R_SCAN) last = me;
  if (call == R_EXSCAN) last = me - 1;
  const int significant = call != R_REDUCE || me == root;
  const long n_chk = !significant || last < first ? 0 : n_res;
  /* input */
  Buf sb = {0}, sw = {0}, rb = {0}, rw = {0};
  if (!inplace) {
    buf_init(&sb, (size_t)n_in * sz, (uint32_t)it * 31 + 1);
    for (long i = 0; i < n_in; ++i) T->gen(T, opi, me, i, it, sb.p + (size_t)i * sz);
    buf_clone(&sw, &sb);
  }
  /* receive buffer: in place it holds the input (all n_in elements) */
  const long n_buf = inplace ? n_in : n_res;
  if (significant || it % 2) buf_init(&rb, (size_t)n_buf * sz, (uint32_t)it * 31 + 2 + (uint32_t)me * 1009);
  if (inplace)
    for (long i = 0; i < n_in; ++i) T->gen(T, opi, me, i, it, rb.p + (size_t)i * sz);
  unsigned char* dontcare = NULL;
  if (rb.mem) {
    buf_clone(&rw, &rb);
    dontcare = calloc(rb.total, 1);
    CHECK(dontcare != NULL, "malloc");
    unsigned char* acc = malloc(sz);
    unsigned char* x = malloc(sz);
    CHECK(acc && x, "malloc");
    for (long e = 0; e < n_buf && significant; ++e) {
      unsigned char* dst = rw.p + (size_t)e * sz;
      unsigned char* dc = dontcare + GUARD + (size_t)e * sz;
      if (e >= n_chk) { /* undefined: beyond the result in place, Exscan at rank 0 */
        memset(dc, 1, sz);
        continue;
      }
      T->gen(T, opi, first, off + e, it, acc);
      for (int r = first + 1; r <= last; ++r) {
        T->gen(T, opi, r, off + e, it, x);
        T->fold(T, opi, x, acc);
      }
      for (size_t b = 0; b < sz; ++b) {
        if (T->mask[b]) dst[b] = acc[b];
        else if (!T->check_gaps) dc[b] = 1; /* padding inside predefined pair types */
      }
    }
    free(acc), free(x);
  }
  g_len_limit = n_in;
  bad_dt = bad_len = 0;
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  void* recvbuf = rb.p;
  int err = MPI_ERR_OTHER;
#if MPI_VERSION >= 4
  if (flags & F_C) {
    MPI_Count* rcc = malloc((size_t)np * sizeof(MPI_Count));
    CHECK(rcc != NULL, "malloc");
    for (int i = 0; i < np; ++i) rcc[i] = rc[i];
    switch (call) {
      case R_REDUCE: err = MPI_Reduce_c(sendbuf, recvbuf, k, T->type, op, root, MPI_COMM_WORLD); break;
      case R_ALLREDUCE: err = MPI_Allreduce_c(sendbuf, recvbuf, k, T->type, op, MPI_COMM_WORLD); break;
      case R_RS: err = MPI_Reduce_scatter_c(sendbuf, recvbuf, rcc, T->type, op, MPI_COMM_WORLD); break;
      case R_RSB: err = MPI_Reduce_scatter_block_c(sendbuf, recvbuf, k, T->type, op, MPI_COMM_WORLD); break;
      case R_SCAN: err = MPI_Scan_c(sendbuf, recvbuf, k, T->type, op, MPI_COMM_WORLD); break;
      case R_EXSCAN: err = MPI_Exscan_c(sendbuf, recvbuf, k, T->type, op, MPI_COMM_WORLD); break;
    }
    free(rcc);
  } else
#endif
    switch (call) {
      case R_REDUCE: err = MPI_Reduce(sendbuf, recvbuf, (int)k, T->type, op, root, MPI_COMM_WORLD); break;
      case R_ALLREDUCE: err = MPI_Allreduce(sendbuf, recvbuf, (int)k, T->type, op, MPI_COMM_WORLD); break;
      case R_RS: err = MPI_Reduce_scatter(sendbuf, recvbuf, rc, T->type, op, MPI_COMM_WORLD); break;
      case R_RSB: err = MPI_Reduce_scatter_block(sendbuf, recvbuf, (int)k, T->type, op, MPI_COMM_WORLD); break;
      case R_SCAN: err = MPI_Scan(sendbuf, recvbuf, (int)k, T->type, op, MPI_COMM_WORLD); break;
      case R_EXSCAN: err = MPI_Exscan(sendbuf, recvbuf, (int)k, T->type, op, MPI_COMM_WORLD); break;
    }
  EXPECT(err == MPI_SUCCESS, "%s returned %d", ctx, err);
  if (T->id == U_MAT_DBL && rb.mem && significant) /* the sign of a zero entry depends on the */
    for (long e = 0; e < n_chk; ++e)                 /* association order, which 6.9.5 leaves free */
      for (int q = 0; q < 4; ++q) {
        double* v = (double*)(rb.p + (size_t)e * sz) + q;
        if (*v == 0) *v = 0.0;
      }
  EXPECT(bad_dt == 0, "%s: the user function got a datatype other than the call's %d times", ctx, bad_dt);
  EXPECT(bad_len == 0, "%s: the user function got *len outside [0, %ld] %d times", ctx, g_len_limit, bad_len);
  if (!inplace) {
    nchecks++;
    compare(&sb, &sw, NULL, T, "send buffer (must be unchanged)");
  }
  if (rb.mem) {
    nchecks += n_chk + 1;
    compare(&rb, &rw, dontcare, T, significant ? "result" : "non-root's recvbuf (not significant: must be untouched)");
  }
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
  free(dontcare);
  free(rc);
}

/* ---- the plan ---- */
/* Every (type, op) goes through MPI_Allreduce and through one of the five other calls,
 * chosen by (type + op) % 5: over the five integer types each call sees every op once
 * (a Latin square), at 8 ranks on 2 cores calls are too dear for the full product.
 * MPI_Reduce's root advances with every call that lands on it. */
static void predefined(void) {
  static const int others[5] = {R_REDUCE, R_RS, R_RSB, R_SCAN, R_EXSCAN};
  int combo = 0, root = 0;
  for (int ti = 0; ti < NBASIC; ++ti)
    for (int opi = 0; opi <= O_BXOR; ++opi) {
      if (!op_valid(ti, opi)) continue;
      const TypeDesc* T = &td[ti];
      /* 8-bit types always long enough for vector kernels; others 1, 13 or 1001 */
      const long k = T->size == 1 ? 1001 : combo % 3 == 0 ? 1001 : combo % 3 == 1 ? 13 : 1;
      const int other = others[(ti + opi) % 5];
      run(T, opi, opv[opi], R_ALLREDUCE, k, 0, 0);
      run(T, opi, opv[opi], other, k, root, 0);
      if (other == R_REDUCE) root = (root + 1) % np;
      ++combo;
    }
  for (int ti = P_FLOAT_INT; ti <= P_LDOUBLE_INT; ++ti)
    for (int opi = O_MINLOC; opi <= O_MAXLOC; ++opi) {
      const long k = combo % 2 ? 13 : 1001;
      const int other = others[(ti + opi) % 5];
      run(&td[ti], opi, opv[opi], R_ALLREDUCE, k, 0, 0);
      run(&td[ti], opi, opv[opi], other, k, root, 0);
      if (other == R_REDUCE) root = (root + 1) % np;
      ++combo;
    }
}

static void user_ops(void) {
  MPI_Op mat_int, mat_dbl, comm;
  int commute = -1;
  CHECK_MPI(MPI_Op_create(mat_int_fn, 0, &mat_int));
  CHECK_MPI(MPI_Op_create(mat_dbl_fn, 0, &mat_dbl));
  CHECK_MPI(MPI_Op_create(comm_fn, 1, &comm));
  CHECK_MPI(MPI_Op_commutative(mat_int, &commute));
  EXPECT(commute == 0, "MPI_Op_commutative of a non-commutative op: %d", commute);
  CHECK_MPI(MPI_Op_commutative(comm, &commute));
  EXPECT(commute == 1, "MPI_Op_commutative of a commutative op: %d", commute);
  const TypeDesc *MI = &td[U_MAT_INT], *MD = &td[U_MAT_DBL], *UN = &td[U_UNS], *UV = &td[U_UVEC];
  /* non-commutative: rank-order product */
  for (int r = 0; r < np; ++r) run(MI, O_USER, mat_int, R_REDUCE, 13, r, 0);
  run(MD, O_USER, mat_dbl, R_REDUCE, 1001, np - 1, 0);
  run(MI, O_USER, mat_int, R_ALLREDUCE, 1001, 0, 0);
  run(MD, O_USER, mat_dbl, R_ALLREDUCE, 13, 0, 0);
  run(MI, O_USER, mat_int, R_SCAN, 13, 0, 0);
  run(MD, O_USER, mat_dbl, R_SCAN, 1001, 0, 0);
  run(MI, O_USER, mat_int, R_EXSCAN, 1001, 0, 0);
  run(MD, O_USER, mat_dbl, R_EXSCAN, 13, 0, 0);
  run(MI, O_USER, mat_int, R_RS, 13, 0, 0);
  run(MD, O_USER, mat_dbl, R_RS, 101, 0, 0);
  run(MI, O_USER, mat_int, R_RSB, 101, 0, 0);
  if (t_rsb_resized) run(MI, O_USER, mat_int, R_RSB, 13, 0, 0);
  else run(MD, O_USER, mat_dbl, R_RSB, 13, 0, 0);
  /* ... in place */
  run(MI, O_USER, mat_int, R_REDUCE, 13, 3 % np, F_INPLACE);
  run(MD, O_USER, mat_dbl, R_REDUCE, 13, np - 1, F_INPLACE);
  run(MD, O_USER, mat_dbl, R_ALLREDUCE, 1001, 0, F_INPLACE);
  run(MI, O_USER, mat_int, R_SCAN, 1001, 0, F_INPLACE);
  run(MD, O_USER, mat_dbl, R_EXSCAN, 13, 0, F_INPLACE);
  run(MD, O_USER, mat_dbl, R_RS, 13, 0, F_INPLACE);
  run(MI, O_USER, mat_int, R_RSB, 13, 0, F_INPLACE);
  /* ... large: 3 MiB of int matrices, 2.4 MiB of double matrices with holes */
  run(MI, O_USER, mat_int, R_REDUCE, 196613, 1 % np, 0);
  run(MD, O_USER, mat_dbl, R_ALLREDUCE, 60001, 0, 0);
  /* ... 0.8-1 MiB through Allreduce (each rank folds a block of the vector: uneven
   * blocks, an extent that does and one that does not divide 64 KiB) */
  run(MD, O_USER, mat_dbl, R_ALLREDUCE, 20001, 0, 0);
  run(MI, O_USER, mat_int, R_ALLREDUCE, 65537, 0, F_INPLACE);
  run(MD, O_USER, mat_dbl, R_REDUCE, 60001, np - 1, F_INPLACE);
  /* ... 1 MiB of int matrices and 2.4 MiB of double matrices with holes through Scan
   * and Exscan (rank order: each prefix is the product x(0) ... x(me)) */
  run(MI, O_USER, mat_int, R_SCAN, 65537, 0, 0);
  run(MI, O_USER, mat_int, R_EXSCAN, 65537, 0, F_INPLACE);
  run(MD, O_USER, mat_dbl, R_EXSCAN, 60001, 0, 0);
  run(MD, O_USER, mat_dbl, R_RS, 12007, 0, 0);
  run(MI, O_USER, mat_int, R_RSB, 8009, 0, F_INPLACE);
  /* ... 2.4 MiB blocks at 2-4 ranks (shmpi: streamed in step with the fold at 2 ranks;
   * the double matrix's extent does not divide its 64 KiB chunks, so the fold's chunks
   * are longer than 4 members can keep in step, and these expose) */
  if (np >= 2 && np <= 4 && t_rsb_resized) run(MI, O_USER, mat_int, R_RSB, 150001, 0, 0);
  else if (np >= 2 && np <= 4) run(MD, O_USER, mat_dbl, R_RSB, 60001, 0, 0);
  /* commutative user op, on a basic and on a derived type */
  run(UN, O_USER, comm, R_REDUCE, 1001, 0, 0);
  run(UV, O_USER, comm, R_REDUCE, 13, np - 1, 0);
  run(UN, O_USER, comm, R_ALLREDUCE, 13, 0, 0);
  run(UV, O_USER, comm, R_ALLREDUCE, 1001, 0, 0);
  run(UV, O_USER, comm, R_RS, 13, 0, 0);
  run(UN, O_USER, comm, R_RSB, 13, 0, 0);
  run(UV, O_USER, comm, R_SCAN, 13, 0, 0);
  run(UN, O_USER, comm, R_EXSCAN, 13, 0, 0);
  run(UV, O_USER, comm, R_ALLREDUCE, 13, 0, F_INPLACE);
  /* ... 3.2 MiB of a type with a gap after its true extent, through Reduce and
   * Allreduce: more than shmpi's ring (2 MiB), so a writer waits for its reader to be
   * done with earlier chunks, and the reader's reads stop short of each chunk's end */
  const TypeDesc* U16 = &td[U_UVEC16];
  run(U16, O_USER, comm, R_REDUCE, 200003, np - 1, 0);
  run(U16, O_USER, comm, R_ALLREDUCE, 200003, 0, 0);
#if MPI_VERSION >= 4
  MPI_Op mat_c;
  CHECK_MPI(MPI_Op_create_c(mat_int_fn_c, 0, &mat_c));
  run(MI, O_USER, mat_c, R_ALLREDUCE, 13, 0, F_C);
  run(MI, O_USER, mat_c, R_REDUCE, 13, 1 % np, F_C);
  run(MI, O_USER, mat_c, R_SCAN, 13, 0, 0);
  run(MI, O_USER, mat_c, R_RS, 13, 0, F_C | F_INPLACE);
  CHECK_MPI(MPI_Op_free(&mat_c));
#endif
  CHECK_MPI(MPI_Op_free(&mat_int));
  CHECK_MPI(MPI_Op_free(&mat_dbl));
  CHECK_MPI(MPI_Op_free(&comm));
  EXPECT(mat_int == MPI_OP_NULL && comm == MPI_OP_NULL, "MPI_Op_free did not set MPI_OP_NULL");
}

static void in_place_and_edges(void) {
  const TypeDesc *I = &td[T_INT], *D = &td[T_DOUBLE], *DI = &td[P_DOUBLE_INT], *UC = &td[T_UCHAR];
  for (int call = 0; call < NRCALLS; ++call) {
    run(I, O_SUM, MPI_SUM, call, 13, np - 1, F_INPLACE);
    run(DI, O_MAXLOC, MPI_MAXLOC, call, 1001, 0, F_INPLACE);
    run(UC, O_BXOR, MPI_BXOR, call, 0, call % np, 0); /* count 0: nothing may be written */
  }
  /* 1 MiB + 24 bytes of doubles, also in place */
  run(D, O_SUM, MPI_SUM, R_REDUCE, 131075, np - 1, 0);
  run(D, O_SUM, MPI_SUM, R_ALLREDUCE, 131075, 0, 0);
  run(D, O_SUM, MPI_SUM, R_REDUCE, 131075, 0, F_INPLACE);
  run(D, O_SUM, MPI_SUM, R_ALLREDUCE, 131075, 0, F_INPLACE);
  /* ... and through Scan and Exscan (shmpi: a chain, each member streaming its prefix to
   * the next as it folds it), in place and not; 64 KiB, one ring chunk */
  run(D, O_SUM, MPI_SUM, R_SCAN, 131075, 0, 0);
  run(D, O_SUM, MPI_SUM, R_EXSCAN, 131075, 0, 0);
  run(D, O_SUM, MPI_SUM, R_SCAN, 131075, 0, F_INPLACE);
  run(D, O_SUM, MPI_SUM, R_EXSCAN, 131075, 0, F_INPLACE);
  run(D, O_SUM, MPI_SUM, R_SCAN, 8191, 0, 0);
  /* large Reduces with other predefined ops, every root (shmpi: 2 members fold these on
   * both sides): 320 KiB of MAXLOC pairs, in place at root 0; 256 KiB + 12 bytes of BXOR */
  for (int r = 0; r < np; ++r) run(DI, O_MAXLOC, MPI_MAXLOC, R_REDUCE, 20011, r, r == 0 ? F_INPLACE : 0);
  run(I, O_BXOR, MPI_BXOR, R_REDUCE, 65539, np - 1, 0);
  /* large Reduce_scatter(_block): 160 KiB and 1 MiB blocks, in place and not */
  run(D, O_SUM, MPI_SUM, R_RSB, 20011, 0, 0);
  run(D, O_SUM, MPI_SUM, R_RSB, 20011, 0, F_INPLACE);
  run(D, O_SUM, MPI_SUM, R_RSB, 131075, 0, 0);
  run(D, O_SUM, MPI_SUM, R_RS, 40009, 0, t_rs_inplace_large ? 0 : F_INPLACE);
  /* ... 2.3 MiB blocks at 2-4 ranks (shmpi: longer than a ring, which the members stream
   * interleaved, in step with their folds; three ranks on two cores expose them), in
   * place and not; Reduce_scatter's counts give rank 1 none and the others blocks of
   * three lengths */
  if (np >= 2 && np <= 4) {
    run(D, O_SUM, MPI_SUM, R_RSB, 300007, 0, 0);
    run(D, O_SUM, MPI_SUM, R_RSB, 300007, 0, F_INPLACE);
    run(D, O_SUM, MPI_SUM, R_RS, 300007, 0, 0);
  }
#if MPI_VERSION >= 4
  const TypeDesc* L = &td[T_LL];
  for (int call = 0; call < NRCALLS; ++call) run(L, O_SUM, MPI_SUM, call, 1001, (call + 2) % np, F_C);
  run(L, O_MAX, MPI_MAX, R_ALLREDUCE, 13, 0, F_C | F_INPLACE);
#endif
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  t_unsigned_maxmin = getenv("COLL_REDUCE_UNSIGNED_MAXMIN_SIGNED") != NULL;
  t_ulong_maxmin = getenv("COLL_REDUCE_ULONG_MAXMIN_SIGNED") != NULL;
  t_uchar_sum = getenv("COLL_REDUCE_UCHAR_SUM_SATURATES") != NULL;
  t_rsb_resized = getenv("COLL_REDUCE_RSB_RESIZED_OVERFLOW") != NULL;
  t_rs_inplace_large = getenv("COLL_REDUCE_RS_INPLACE_LARGE_OVERLAP") != NULL;
  make_types();
  predefined();
  user_ops();
  in_place_and_edges();
  CHECK_MPI(MPI_Type_free(&g_mat_int));
  CHECK_MPI(MPI_Type_free(&g_mat_dbl));
  CHECK_MPI(MPI_Type_free(&g_uvec));
  CHECK_MPI(MPI_Type_free(&g_uvec16));
  /* with more than one rank, some rank must have run the user functions */
  expect_user_fn_ran(user_calls, "the user functions never ran");
  coll_finish("coll_reduce");
  return 0;
}
