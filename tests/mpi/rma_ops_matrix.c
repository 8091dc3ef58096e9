/* rma_ops_matrix: every predefined operation on every predefined datatype it is defined
 * for (MPI-4.1 6.9.2), through MPI_Accumulate, MPI_Get_accumulate and MPI_Fetch_and_op
 * (13.3.4), plus MPI_Compare_and_swap on every type 13.3.4.4 allows:
 *   MAX, MIN         C integer, Fortran integer, floating point, multi-language
 *   SUM, PROD        C integer, Fortran integer, floating point, complex, multi-language
 *   LAND, LOR, LXOR  C integer, logical
 *   BAND, BOR, BXOR  C integer, Fortran integer, byte, multi-language
 *   MAXLOC, MINLOC   the pair types (ties: the smaller index)
 *   REPLACE, NO_OP   all of the above (NO_OP not with MPI_Accumulate)
 *   compare-and-swap C integer, Fortran integer, logical, multi-language, byte
 * Each rank accesses its right neighbour; each (op, type) has its own slots of 4
 * elements for each call, so everything goes in one epoch. Expected values are computed
 * here from small integers (exact in every floating type, no overflow, no NaN); the
 * target checks its memory element by element (values, not bytes: long double has
 * padding) and that the bytes between a slot's last element and the next slot are not
 * written; the origin checks that MPI_Get_accumulate / MPI_Fetch_and_op / CAS returned
 * the old values. Logical values are 0 and 1 only: MPI_LOGICAL's true is the
 * Fortran compiler's (1 with gfortran). MPI_CHAR, MPI_WCHAR and MPI_CHARACTER are left
 * out: no reduction is defined on them. Optional Fortran types (MPI_INTEGER1..8,
 * MPI_REAL4/8, MPI_COMPLEX8/16) are skipped where the library has MPI_DATATYPE_NULL.
 * Usage: rma_ops_matrix [FLAVOUR|all] [SYNC|all]
 *   FLAVOUR: allocate shared create_heap create_static dynamic   (default all)
 *   SYNC:    fence lock_all lock_shared lock_exclusive pscw       (default all) */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#include "rma_harness.h"

/* ---- types ---- */
enum { C_INT = 1, F_INT = 2, FLOATING = 4, LOGICAL = 8, COMPLEX = 16, BYTE = 32, MULTI = 64, PAIR = 128 };
enum { K_INT, K_UINT, K_FLT, K_CPLX, K_BOOL, K_PAIR };
typedef struct {
  MPI_Datatype t;
  const char* name;
  int cat, kind;
  int size;     /* bytes of one value (for pairs: of the value part); 0: from MPI_Type_size */
  int optional; /* may be MPI_DATATYPE_NULL */
  /* pairs: value kind/size, index kind/size/offset, extent (the C struct's size) */
  int vkind, vsize, ikind, isize, ioff, extent;
} tdesc;

/* The C structs behind the C pair types. */
struct float_int {
  float v;
  int i;
};
struct double_int {
  double v;
  int i;
};
struct long_int {
  long v;
  int i;
};
struct short_int {
  short v;
  int i;
};
struct int_int {
  int v;
  int i;
};
struct ldouble_int {
  long double v;
  int i;
};

static tdesc types[] = {
    {MPI_INT, "MPI_INT", C_INT, K_INT, sizeof(int), 0, 0, 0, 0, 0, 0, 0},
    {MPI_LONG, "MPI_LONG", C_INT, K_INT, sizeof(long), 0, 0, 0, 0, 0, 0, 0},
    {MPI_SHORT, "MPI_SHORT", C_INT, K_INT, sizeof(short), 0, 0, 0, 0, 0, 0, 0},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", C_INT, K_UINT, sizeof(unsigned short), 0, 0, 0, 0, 0, 0, 0},
    {MPI_UNSIGNED, "MPI_UNSIGNED", C_INT, K_UINT, sizeof(unsigned), 0, 0, 0, 0, 0, 0, 0},
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", C_INT, K_UINT, sizeof(unsigned long), 0, 0, 0, 0, 0, 0, 0},
    {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", C_INT, K_INT, sizeof(long long), 0, 0, 0, 0, 0, 0, 0},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", C_INT, K_UINT, sizeof(unsigned long long), 0, 0, 0, 0, 0, 0, 0},
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", C_INT, K_INT, 1, 0, 0, 0, 0, 0, 0, 0},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", C_INT, K_UINT, 1, 0, 0, 0, 0, 0, 0, 0},
    {MPI_INT8_T, "MPI_INT8_T", C_INT, K_INT, 1, 0, 0, 0, 0, 0, 0, 0},
    {MPI_INT16_T, "MPI_INT16_T", C_INT, K_INT, 2, 0, 0, 0, 0, 0, 0, 0},
    {MPI_INT32_T, "MPI_INT32_T", C_INT, K_INT, 4, 0, 0, 0, 0, 0, 0, 0},
    {MPI_INT64_T, "MPI_INT64_T", C_INT, K_INT, 8, 0, 0, 0, 0, 0, 0, 0},
    {MPI_UINT8_T, "MPI_UINT8_T", C_INT, K_UINT, 1, 0, 0, 0, 0, 0, 0, 0},
    {MPI_UINT16_T, "MPI_UINT16_T", C_INT, K_UINT, 2, 0, 0, 0, 0, 0, 0, 0},
    {MPI_UINT32_T, "MPI_UINT32_T", C_INT, K_UINT, 4, 0, 0, 0, 0, 0, 0, 0},
    {MPI_UINT64_T, "MPI_UINT64_T", C_INT, K_UINT, 8, 0, 0, 0, 0, 0, 0, 0},
    {MPI_INTEGER, "MPI_INTEGER", F_INT, K_INT, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_INTEGER1, "MPI_INTEGER1", F_INT, K_INT, 1, 1, 0, 0, 0, 0, 0, 0},
    {MPI_INTEGER2, "MPI_INTEGER2", F_INT, K_INT, 2, 1, 0, 0, 0, 0, 0, 0},
    {MPI_INTEGER4, "MPI_INTEGER4", F_INT, K_INT, 4, 1, 0, 0, 0, 0, 0, 0},
    {MPI_INTEGER8, "MPI_INTEGER8", F_INT, K_INT, 8, 1, 0, 0, 0, 0, 0, 0},
    {MPI_AINT, "MPI_AINT", MULTI, K_INT, sizeof(MPI_Aint), 0, 0, 0, 0, 0, 0, 0},
    {MPI_OFFSET, "MPI_OFFSET", MULTI, K_INT, sizeof(MPI_Offset), 0, 0, 0, 0, 0, 0, 0},
    {MPI_COUNT, "MPI_COUNT", MULTI, K_INT, sizeof(MPI_Count), 0, 0, 0, 0, 0, 0, 0},
    {MPI_BYTE, "MPI_BYTE", BYTE, K_UINT, 1, 0, 0, 0, 0, 0, 0, 0},
    {MPI_FLOAT, "MPI_FLOAT", FLOATING, K_FLT, sizeof(float), 0, 0, 0, 0, 0, 0, 0},
    {MPI_DOUBLE, "MPI_DOUBLE", FLOATING, K_FLT, sizeof(double), 0, 0, 0, 0, 0, 0, 0},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", FLOATING, K_FLT, sizeof(long double), 0, 0, 0, 0, 0, 0, 0},
    {MPI_REAL, "MPI_REAL", FLOATING, K_FLT, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", FLOATING, K_FLT, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_REAL4, "MPI_REAL4", FLOATING, K_FLT, 4, 1, 0, 0, 0, 0, 0, 0},
    {MPI_REAL8, "MPI_REAL8", FLOATING, K_FLT, 8, 1, 0, 0, 0, 0, 0, 0},
    {MPI_C_BOOL, "MPI_C_BOOL", LOGICAL, K_BOOL, sizeof(bool), 0, 0, 0, 0, 0, 0, 0},
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", LOGICAL, K_BOOL, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_LOGICAL, "MPI_LOGICAL", LOGICAL, K_BOOL, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", COMPLEX, K_CPLX, sizeof(float complex), 0, 0, 0, 0, 0, 0, 0},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", COMPLEX, K_CPLX, sizeof(double complex), 0, 0, 0, 0, 0, 0, 0},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", COMPLEX, K_CPLX, sizeof(long double complex), 0, 0, 0, 0,
     0, 0, 0},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", COMPLEX, K_CPLX, sizeof(float complex), 0, 0, 0, 0, 0, 0, 0},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", COMPLEX, K_CPLX, sizeof(double complex), 0, 0, 0, 0, 0, 0, 0},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", COMPLEX, K_CPLX, sizeof(long double complex), 0, 0, 0,
     0, 0, 0, 0},
    {MPI_COMPLEX, "MPI_COMPLEX", COMPLEX, K_CPLX, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", COMPLEX, K_CPLX, 0, 0, 0, 0, 0, 0, 0, 0},
    {MPI_COMPLEX8, "MPI_COMPLEX8", COMPLEX, K_CPLX, 8, 1, 0, 0, 0, 0, 0, 0},
    {MPI_COMPLEX16, "MPI_COMPLEX16", COMPLEX, K_CPLX, 16, 1, 0, 0, 0, 0, 0, 0},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", PAIR, K_PAIR, 0, 0, K_FLT, sizeof(float), K_INT, sizeof(int),
     offsetof(struct float_int, i), sizeof(struct float_int)},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", PAIR, K_PAIR, 0, 0, K_FLT, sizeof(double), K_INT, sizeof(int),
     offsetof(struct double_int, i), sizeof(struct double_int)},
    {MPI_LONG_INT, "MPI_LONG_INT", PAIR, K_PAIR, 0, 0, K_INT, sizeof(long), K_INT, sizeof(int),
     offsetof(struct long_int, i), sizeof(struct long_int)},
    {MPI_SHORT_INT, "MPI_SHORT_INT", PAIR, K_PAIR, 0, 0, K_INT, sizeof(short), K_INT, sizeof(int),
     offsetof(struct short_int, i), sizeof(struct short_int)},
    {MPI_2INT, "MPI_2INT", PAIR, K_PAIR, 0, 0, K_INT, sizeof(int), K_INT, sizeof(int), offsetof(struct int_int, i),
     sizeof(struct int_int)},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", PAIR, K_PAIR, 0, 0, K_FLT, sizeof(long double), K_INT, sizeof(int),
     offsetof(struct ldouble_int, i), sizeof(struct ldouble_int)},
    /* Fortran pairs: two of the same type; sizes from MPI_Type_size at run time */
    {MPI_2REAL, "MPI_2REAL", PAIR, K_PAIR, 0, 0, K_FLT, 0, K_FLT, 0, 0, 0},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", PAIR, K_PAIR, 0, 0, K_FLT, 0, K_FLT, 0, 0, 0},
    {MPI_2INTEGER, "MPI_2INTEGER", PAIR, K_PAIR, 0, 0, K_INT, 0, K_INT, 0, 0, 0},
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const struct {
  MPI_Op op;
  const char* name;
  int cats;
} ops[] = {
    {MPI_MAX, "MPI_MAX", C_INT | F_INT | FLOATING | MULTI},
    {MPI_MIN, "MPI_MIN", C_INT | F_INT | FLOATING | MULTI},
    {MPI_SUM, "MPI_SUM", C_INT | F_INT | FLOATING | COMPLEX | MULTI},
    {MPI_PROD, "MPI_PROD", C_INT | F_INT | FLOATING | COMPLEX | MULTI},
    {MPI_LAND, "MPI_LAND", C_INT | LOGICAL},
    {MPI_LOR, "MPI_LOR", C_INT | LOGICAL},
    {MPI_LXOR, "MPI_LXOR", C_INT | LOGICAL},
    {MPI_BAND, "MPI_BAND", C_INT | F_INT | BYTE | MULTI},
    {MPI_BOR, "MPI_BOR", C_INT | F_INT | BYTE | MULTI},
    {MPI_BXOR, "MPI_BXOR", C_INT | F_INT | BYTE | MULTI},
    {MPI_MAXLOC, "MPI_MAXLOC", PAIR},
    {MPI_MINLOC, "MPI_MINLOC", PAIR},
    {MPI_REPLACE, "MPI_REPLACE", ~0},
    {MPI_NO_OP, "MPI_NO_OP", ~0},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))
enum {
  O_MAX,
  O_MIN,
  O_SUM,
  O_PROD,
  O_LAND,
  O_LOR,
  O_LXOR,
  O_BAND,
  O_BOR,
  O_BXOR,
  O_MAXLOC,
  O_MINLOC,
  O_REPLACE,
  O_NO_OP,
  O_CAS
};
#define CAS_CATS (C_INT | F_INT | LOGICAL | MULTI | BYTE)

/* ---- values: loads and stores of one scalar of a given kind and size ---- */
static int64_t load_i(const unsigned char* p, int size, int is_signed) {
  switch (size) {
    case 1: {
      int8_t s;
      uint8_t u;
      memcpy(&s, p, 1);
      memcpy(&u, p, 1);
      return is_signed ? s : u;
    }
    case 2: {
      int16_t s;
      uint16_t u;
      memcpy(&s, p, 2);
      memcpy(&u, p, 2);
      return is_signed ? s : u;
    }
    case 4: {
      int32_t s;
      uint32_t u;
      memcpy(&s, p, 4);
      memcpy(&u, p, 4);
      return is_signed ? s : (int64_t)u;
    }
    default: {
      int64_t s;
      memcpy(&s, p, 8);
      return s;
    }
  }
}
static void store_i(unsigned char* p, int size, int64_t v) {
  switch (size) {
    case 1: {
      int8_t s = (int8_t)v;
      memcpy(p, &s, 1);
      break;
    }
    case 2: {
      int16_t s = (int16_t)v;
      memcpy(p, &s, 2);
      break;
    }
    case 4: {
      int32_t s = (int32_t)v;
      memcpy(p, &s, 4);
      break;
    }
    default: memcpy(p, &v, 8);
  }
}
static long double load_f(const unsigned char* p, int size) {
  if (size == (int)sizeof(float)) {
    float f;
    memcpy(&f, p, sizeof f);
    return f;
  }
  if (size == (int)sizeof(double)) {
    double d;
    memcpy(&d, p, sizeof d);
    return d;
  }
  long double l;
  memcpy(&l, p, sizeof l);
  return l;
}
static void store_f(unsigned char* p, int size, long double v) {
  if (size == (int)sizeof(float)) {
    float f = (float)v;
    memcpy(p, &f, sizeof f);
  } else if (size == (int)sizeof(double)) {
    double d = (double)v;
    memcpy(p, &d, sizeof d);
  } else
    memcpy(p, &v, sizeof v);
}

/* One element as numbers: re (value), im (complex part or pair index). */
typedef struct {
  long double re, im;
} num;
static num load(const tdesc* d, const unsigned char* p) {
  num n = {0, 0};
  switch (d->kind) {
    case K_INT:
    case K_BOOL: n.re = (long double)load_i(p, d->size, 1); break;
    case K_UINT: n.re = (long double)load_i(p, d->size, 0); break;
    case K_FLT: n.re = load_f(p, d->size); break;
    case K_CPLX:
      n.re = load_f(p, d->size / 2);
      n.im = load_f(p + d->size / 2, d->size / 2);
      break;
    case K_PAIR:
      n.re = d->vkind == K_FLT ? load_f(p, d->vsize) : (long double)load_i(p, d->vsize, 1);
      n.im = d->ikind == K_FLT ? load_f(p + d->ioff, d->isize) : (long double)load_i(p + d->ioff, d->isize, 1);
      break;
  }
  return n;
}
static void store(const tdesc* d, unsigned char* p, num n) {
  switch (d->kind) {
    case K_INT:
    case K_UINT:
    case K_BOOL: store_i(p, d->size, (int64_t)n.re); break;
    case K_FLT: store_f(p, d->size, n.re); break;
    case K_CPLX:
      store_f(p, d->size / 2, n.re);
      store_f(p + d->size / 2, d->size / 2, n.im);
      break;
    case K_PAIR:
      if (d->vkind == K_FLT)
        store_f(p, d->vsize, n.re);
      else
        store_i(p, d->vsize, (int64_t)n.re);
      if (d->ikind == K_FLT)
        store_f(p + d->ioff, d->isize, n.im);
      else
        store_i(p + d->ioff, d->isize, (int64_t)n.im);
      break;
  }
}

#define NE 4 /* elements per slot */
/* The origin's (side 0) and the target's (side 1) element k for operation o. */
static num value(const tdesc* d, int o, int side, int k) {
  static const int maxmin[2][NE] = {{3, -2, 5, 7}, {1, 4, 5, -6}};
  static const int sum[2][NE] = {{3, -2, 5, 100}, {1, 4, -5, 20}};
  static const int prod[2][NE] = {{3, -2, 5, 7}, {2, 4, -5, 3}};
  static const int logic[2][NE] = {{0, 0, 3, 5}, {0, 2, 0, -1}};
  static const int bools[2][NE] = {{0, 0, 1, 1}, {0, 1, 0, 1}};
  static const int bits[2][NE] = {{0x0F, 0x33, -1, 0x7F}, {0x3C, 0x0F, 0x55, 0x01}};
  static const int repl[2][NE] = {{11, -12, 13, -14}, {21, 22, -23, 24}};
  static const int repl_bool[2][NE] = {{1, 0, 1, 0}, {0, 1, 1, 0}};
  /* pairs (value, index): ties at 0, 2, 3; the smaller index is the target's at 0, the origin's at 2 and 3 */
  static const int loc[2][NE][2] = {{{3, 7}, {5, 2}, {4, 1}, {2, 0}}, {{3, 4}, {4, 1}, {4, 3}, {2, 5}}};
  static const int cas[3][NE] = {{31, 32, 33, 34}, {21, 22, 23, 24}, {21, 23, 23, 25}}; /* new, target, compare */
  static const int cas_bool[3][NE] = {{1, 0, 1, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}};
  num n = {0, 0};
  int v;
  if (d->kind == K_PAIR) {
    if (o == O_MAXLOC || o == O_MINLOC) {
      n.re = loc[side][k][0];
      n.im = loc[side][k][1];
    } else {
      n.re = repl[side][k];
      n.im = 10 * side + k;
    }
    return n;
  }
  if (d->kind == K_BOOL) {
    v = o == O_CAS                                   ? cas_bool[side][k]
        : (o == O_LAND || o == O_LOR || o == O_LXOR) ? bools[side][k]
                                                     : repl_bool[side][k];
  } else {
    switch (o) {
      case O_MAX:
      case O_MIN: v = maxmin[side][k]; break;
      case O_SUM: v = sum[side][k]; break;
      case O_PROD: v = prod[side][k]; break;
      case O_LAND:
      case O_LOR:
      case O_LXOR: v = logic[side][k]; break;
      case O_BAND:
      case O_BOR:
      case O_BXOR: v = bits[side][k]; break;
      case O_CAS: v = cas[side][k]; break;
      default: v = repl[side][k];
    }
    if (d->kind == K_UINT && v < 0) v = o >= O_BAND && o <= O_BXOR ? 0xFF : -v;
  }
  n.re = v;
  if (d->kind == K_CPLX) n.im = (side ? -1 : 2) * (k + 1) + (o == O_PROD ? 0 : 1);
  return n;
}

/* MPI-4.1 6.9.2 / 13.3.4: what the target holds after op(origin a, target b). */
static num apply(const tdesc* d, int o, num a, num b) {
  num r = b;
  const int64_t x = (int64_t)a.re, y = (int64_t)b.re;
  switch (o) {
    case O_MAX: r.re = a.re > b.re ? a.re : b.re; break;
    case O_MIN: r.re = a.re < b.re ? a.re : b.re; break;
    case O_SUM:
      r.re = a.re + b.re;
      r.im = a.im + b.im;
      break;
    case O_PROD:
      r.re = a.re * b.re - a.im * b.im;
      r.im = a.re * b.im + a.im * b.re;
      break;
    case O_LAND: r.re = (x != 0) && (y != 0); break;
    case O_LOR: r.re = (x != 0) || (y != 0); break;
    case O_LXOR: r.re = (x != 0) != (y != 0); break;
    case O_BAND: r.re = (long double)(x & y); break;
    case O_BOR: r.re = (long double)(x | y); break;
    case O_BXOR: r.re = (long double)(x ^ y); break;
    case O_MAXLOC:
    case O_MINLOC:
      if (a.re == b.re)
        r.im = a.im < b.im ? a.im : b.im;
      else if ((o == O_MAXLOC) == (a.re > b.re))
        r = a;
      break;
    case O_REPLACE: r = a; break;
    case O_NO_OP: break;
  }
  if (d->kind == K_UINT || (d->kind == K_INT && o >= O_BAND && o <= O_BXOR)) {
    /* reduce to the type's width (BXOR of -1 and 0x55 in a 1-byte type) */
    unsigned char tmp[16];
    store(d, tmp, r);
    r = load(d, tmp);
  }
  return r;
}

static int same(const tdesc* d, num a, num b) {
  return a.re == b.re && (d->kind != K_CPLX && d->kind != K_PAIR ? 1 : a.im == b.im);
}

/* ---- the matrix ---- */
enum { CALL_ACC, CALL_GACC, CALL_FOP, CALL_CAS };
static const char* const call_name[] = {"MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
                                        "MPI_Compare_and_swap"};
typedef struct {
  int type, op, call;
  MPI_Aint off; /* of the slot: NE elements, in the window and in the origin arenas */
} slot;
static slot* slots;
static int nslots;
static MPI_Aint layout_bytes;

static void add_slot(int type, int op, int call, MPI_Aint ext) {
  slots[nslots].type = type;
  slots[nslots].op = op;
  slots[nslots].call = call;
  slots[nslots].off = layout_bytes;
  ++nslots;
  layout_bytes += (NE * ext + 15) / 16 * 16;
}

static MPI_Aint extent_of(const tdesc* d) { return d->kind == K_PAIR ? d->extent : d->size; }

static void setup_types(void) {
  for (int i = 0; i < NTYPES; ++i) {
    tdesc* d = &types[i];
    if (d->t == MPI_DATATYPE_NULL) {
      CHECK(d->optional, "%s is MPI_DATATYPE_NULL", d->name);
      continue;
    }
    int size = -1;
    MPI_Aint lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_size(d->t, &size));
    CHECK_MPI(MPI_Type_get_extent(d->t, &lb, &ext));
    if (d->kind == K_PAIR) {
      if (d->vsize == 0) { /* Fortran pair: two values of the same type */
        d->vsize = d->isize = d->ioff = size / 2;
        d->extent = size;
      }
      CHECK(size == d->vsize + d->isize, "%s: size %d, expected %d", d->name, size, d->vsize + d->isize);
      CHECK(lb == 0 && ext == d->extent, "%s: lb %ld extent %ld, expected the C struct's 0 and %d", d->name, (long)lb,
            (long)ext, d->extent);
    } else {
      if (d->size == 0) d->size = size; /* Fortran types: what the library says */
      CHECK(size == d->size, "%s: MPI_Type_size %d, expected %d", d->name, size, d->size);
      CHECK(lb == 0 && ext == size, "%s: lb %ld extent %ld", d->name, (long)lb, (long)ext);
      if (d->kind == K_FLT)
        CHECK(size == 4 || size == 8 || size == (int)sizeof(long double), "%s size %d", d->name, size);
      if (d->kind == K_CPLX)
        CHECK(size == 8 || size == 16 || size == 2 * (int)sizeof(long double), "%s size %d", d->name, size);
    }
  }
}

static void build_layout(void) {
  /* MPI_Offset is a signed integer type; Open MPI 4.1 compares MPI_OFFSET as unsigned
   * (MPI_MAX(-2, 4) gives -2, MPI_Reduce_local too). Its peer run sets
   * RMA_OFFSET_MAXMIN_UNSIGNED, which leaves out exactly MPI_MAX and MPI_MIN on MPI_OFFSET. */
  const int offset_unsigned = getenv("RMA_OFFSET_MAXMIN_UNSIGNED") != NULL;
  slots = malloc(sizeof(slot) * (size_t)(NTYPES * (NOPS * 3 + 1)));
  CHECK(slots != NULL, "malloc");
  nslots = 0;
  layout_bytes = 0;
  for (int i = 0; i < NTYPES; ++i) {
    const tdesc* d = &types[i];
    if (d->t == MPI_DATATYPE_NULL) continue;
    for (int o = 0; o < NOPS; ++o) {
      if (!(ops[o].cats & d->cat)) continue;
      if (offset_unsigned && d->t == MPI_OFFSET && (o == O_MAX || o == O_MIN)) continue;
      if (o != O_NO_OP) add_slot(i, o, CALL_ACC, extent_of(d));
      add_slot(i, o, CALL_GACC, extent_of(d));
      add_slot(i, o, CALL_FOP, extent_of(d));
    }
    if (d->cat & CAS_CATS) add_slot(i, O_CAS, CALL_CAS, extent_of(d));
  }
}

/* The origin's arenas: a[] operands (CAS: new values), cmp[] CAS compare values, res[] results. */
static unsigned char *arena_a, *arena_cmp, *arena_res;

static void run(int flavour, int sync) {
  rwin w;
  win_open(&w, flavour, layout_bytes, 1, MPI_INFO_NULL);
  const int right = (me + 1) % nranks, left = (me + nranks - 1) % nranks;
  /* Target side: every slot starts at the target's values (side 1). */
  local_begin(&w);
  memset(w.base, 0x5a, (size_t)layout_bytes);
  for (int s = 0; s < nslots; ++s) {
    const tdesc* d = &types[slots[s].type];
    for (int k = 0; k < NE; ++k)
      store(d, (unsigned char*)w.base + slots[s].off + k * extent_of(d), value(d, slots[s].op, 1, k));
  }
  local_end(&w);
  /* Origin side. */
  memset(arena_a, 0x5a, (size_t)layout_bytes);
  memset(arena_cmp, 0x5a, (size_t)layout_bytes);
  memset(arena_res, 0xa5, (size_t)layout_bytes);
  for (int s = 0; s < nslots; ++s) {
    const tdesc* d = &types[slots[s].type];
    for (int k = 0; k < NE; ++k) {
      store(d, arena_a + slots[s].off + k * extent_of(d), value(d, slots[s].op, 0, k));
      if (slots[s].call == CALL_CAS) store(d, arena_cmp + slots[s].off + k * extent_of(d), value(d, O_CAS, 2, k));
    }
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  syncer sy;
  sync_setup(&sy, sync, 1, &right, 1, &left);
  sync_begin(&w, &sy);
  for (int s = 0; s < nslots; ++s) {
    const slot* sl = &slots[s];
    const tdesc* d = &types[sl->type];
    const MPI_Aint ext = extent_of(d), disp = tdisp(&w, right, sl->off);
    unsigned char *a = arena_a + sl->off, *res = arena_res + sl->off;
    switch (sl->call) {
      case CALL_ACC: CHECK_MPI(MPI_Accumulate(a, NE, d->t, right, disp, NE, d->t, ops[sl->op].op, w.win)); break;
      case CALL_GACC:
        CHECK_MPI(MPI_Get_accumulate(a, NE, d->t, res, NE, d->t, right, disp, NE, d->t, ops[sl->op].op, w.win));
        break;
      case CALL_FOP:
        for (int k = 0; k < NE; ++k)
          CHECK_MPI(MPI_Fetch_and_op(a + k * ext, res + k * ext, d->t, right, tdisp(&w, right, sl->off + k * ext),
                                     ops[sl->op].op, w.win));
        break;
      case CALL_CAS:
        for (int k = 0; k < NE; ++k)
          CHECK_MPI(MPI_Compare_and_swap(a + k * ext, arena_cmp + sl->off + k * ext, res + k * ext, d->t, right,
                                         tdisp(&w, right, sl->off + k * ext), w.win));
        break;
    }
  }
  sync_end(&w, &sy);
  sync_free(&sy);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* Results at the origin: the target's old values. */
  for (int s = 0; s < nslots; ++s) {
    const slot* sl = &slots[s];
    if (sl->call == CALL_ACC) continue;
    const tdesc* d = &types[sl->type];
    for (int k = 0; k < NE; ++k) {
      const num got = load(d, arena_res + sl->off + k * extent_of(d)), want = value(d, sl->op, 1, k);
      CHECK(same(d, got, want), "%s/%s: %s %s on %s element %d returned (%Lg, %Lg), the old value is (%Lg, %Lg)",
            flavour_name[flavour], sync_name[sync], call_name[sl->call], sl->op == O_CAS ? "" : ops[sl->op].name,
            d->name, k, got.re, got.im, want.re, want.im);
    }
  }
  /* The target's memory, element by element. */
  local_begin(&w);
  for (int s = 0; s < nslots; ++s) {
    const slot* sl = &slots[s];
    const tdesc* d = &types[sl->type];
    for (int k = 0; k < NE; ++k) {
      const num a = value(d, sl->op, 0, k), b = value(d, sl->op, 1, k);
      num want;
      if (sl->call == CALL_CAS)
        want = same(d, value(d, O_CAS, 2, k), b) ? a : b;
      else
        want = apply(d, sl->op, a, b);
      const num got = load(d, (unsigned char*)w.base + sl->off + k * extent_of(d));
      CHECK(same(d, got, want), "%s/%s: after %s %s on %s element %d the target holds (%Lg, %Lg), expected (%Lg, %Lg)",
            flavour_name[flavour], sync_name[sync], call_name[sl->call], sl->op == O_CAS ? "" : ops[sl->op].name,
            d->name, k, got.re, got.im, want.re, want.im);
    }
    /* the bytes after the last element, up to the next slot, are not written */
    const MPI_Aint end = s + 1 < nslots ? slots[s + 1].off : layout_bytes;
    for (MPI_Aint i = sl->off + NE * extent_of(d); i < end; ++i) {
      CHECK(((unsigned char*)w.base)[i] == 0x5a, "%s/%s: %s %s on %s wrote beyond its %d elements (byte %ld)",
            flavour_name[flavour], sync_name[sync], call_name[sl->call], sl->op == O_CAS ? "" : ops[sl->op].name,
            d->name, NE, (long)(i - sl->off));
    }
  }
  local_end(&w);
  win_close(&w);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
  const int fl = argc > 1 ? parse_choice(argv[1], flavour_name, NFLAVOURS, "flavour") : -1;
  const int sy = argc > 2 ? parse_choice(argv[2], sync_name, NSYNCS, "sync mode") : -1;
  CHECK(argc <= 3, "usage: rma_ops_matrix [FLAVOUR|all] [SYNC|all]");
  setup_types();
  build_layout();
  arena_a = malloc((size_t)layout_bytes);
  arena_cmp = malloc((size_t)layout_bytes);
  arena_res = malloc((size_t)layout_bytes);
  CHECK(arena_a && arena_cmp && arena_res, "malloc");
  int runs = 0;
  for (int f = 0; f < NFLAVOURS; ++f) {
    if (fl >= 0 && f != fl) continue;
    for (int s = 0; s < NSYNCS; ++s) {
      if (sy >= 0 && s != sy) continue;
      run(f, s);
      ++runs;
    }
  }
  if (me == 0)
    printf("rma_ops_matrix: %d flavour/sync combinations, %d slots of %d elements, %d ranks: ok\n", runs, nslots, NE,
           nranks);
  free(arena_a);
  free(arena_cmp);
  free(arena_res);
  free(slots);
  MPI_Finalize();
  return 0;
}
