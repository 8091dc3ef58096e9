/* reduce_local: MPI_Reduce_local and user-defined ops as MPI-4.1 6.9 specifies them:
 * every predefined op on representative types with hand-computed results, MINLOC/MAXLOC
 * with ties (smaller index wins), a non-commutative user op on a derived datatype (2x2
 * matrix product: inoutbuf = inbuf * inoutbuf, MPI-4.1 6.9.5's order), MPI_Op_commutative,
 * MPI_Op_free, and the error classes for invalid (op, type) pairs. Usage: reduce_local */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define N 5

static void check_class(int rc, int expected, const char* what) {
  int cls = -1;
  CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  MPI_Error_class(rc, &cls);
  CHECK(cls == expected, "%s: class %d, expected %d", what, cls, expected);
}

/* 2x2 row-major matrices: inout = in * inout. Not commutative. */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* dt) {
  (void)dt;
  const double* a = in;
  double* b = inout;
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    const double r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                         a[2] * b[1] + a[3] * b[3]};
    memcpy(b, r, sizeof r);
  }
}

static int user_calls = 0;
static void count_calls(void* in, void* inout, int* len, MPI_Datatype* dt) {
  (void)in;
  (void)inout;
  (void)len;
  (void)dt;
  ++user_calls;
}

#if MPI_VERSION >= 4
/* Records the lengths an int-count user function is called with. */
static long long chunk_total = 0;
static int chunk_calls = 0, chunk_max = 0;
static void record_chunks(void* in, void* inout, int* len, MPI_Datatype* dt) {
  (void)in;
  (void)inout;
  (void)dt;
  ++chunk_calls;
  chunk_total += *len;
  if (*len > chunk_max) chunk_max = *len;
}

/* Large-count user function (MPI_Op_create_c): inout = in - inout on doubles. */
static void sub_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* dt) {
  (void)dt;
  const double* a = in;
  double* b = inout;
  for (MPI_Count i = 0; i < *len; ++i) b[i] = a[i] - b[i];
}
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);

  { /* integer ops on int */
    const int a[N] = {1, -2, 3, 0, 7};
    const int b0[N] = {4, 5, -6, 0, 7};
    int b[N];
    const int sum[N] = {5, 3, -3, 0, 14}, prod[N] = {4, -10, -18, 0, 49};
    const int max[N] = {4, 5, 3, 0, 7}, min[N] = {1, -2, -6, 0, 7};
    const int land[N] = {1, 1, 1, 0, 1}, lor[N] = {1, 1, 1, 0, 1}, lxor[N] = {0, 0, 0, 0, 0};
    struct { MPI_Op op; const int* want; const char* name; } cases[] = {
        {MPI_SUM, sum, "SUM"}, {MPI_PROD, prod, "PROD"}, {MPI_MAX, max, "MAX"}, {MPI_MIN, min, "MIN"},
        {MPI_LAND, land, "LAND"}, {MPI_LOR, lor, "LOR"}, {MPI_LXOR, lxor, "LXOR"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      memcpy(b, b0, sizeof b);
      CHECK_MPI(MPI_Reduce_local(a, b, N, MPI_INT, cases[c].op));
      for (int i = 0; i < N; ++i) CHECK(b[i] == cases[c].want[i], "MPI_%s int [%d] = %d, want %d", cases[c].name, i, b[i], cases[c].want[i]);
      CHECK(a[0] == 1 && a[4] == 7, "inbuf changed");
    }
  }
  { /* bitwise on unsigned and byte; wrap-around of small integers */
    const unsigned a[3] = {0xF0F0u, 0xFFFFFFFFu, 0u};
    unsigned b[3] = {0x0FF0u, 0x1u, 0u};
    CHECK_MPI(MPI_Reduce_local(a, b, 3, MPI_UNSIGNED, MPI_BXOR));
    CHECK(b[0] == 0xFF00u && b[1] == 0xFFFFFFFEu && b[2] == 0u, "BXOR unsigned %x %x %x", b[0], b[1], b[2]);
    const unsigned char x[2] = {0xF0, 0x0F};
    unsigned char y[2] = {0x3C, 0x3C};
    CHECK_MPI(MPI_Reduce_local(x, y, 2, MPI_BYTE, MPI_BAND));
    CHECK(y[0] == 0x30 && y[1] == 0x0C, "BAND byte %x %x", y[0], y[1]);
    const uint8_t p[1] = {200};
    uint8_t q[1] = {100};
    CHECK_MPI(MPI_Reduce_local(p, q, 1, MPI_UINT8_T, MPI_SUM));
    CHECK(q[0] == 44, "uint8 200+100 wraps to 44, got %d", q[0]);
    const int64_t big[1] = {INT64_MAX - 1};
    int64_t acc[1] = {-3};
    CHECK_MPI(MPI_Reduce_local(big, acc, 1, MPI_INT64_T, MPI_MAX));
    CHECK(acc[0] == INT64_MAX - 1, "int64 MAX");
  }
  { /* floating point and complex, C bool */
    const double a[4] = {1.5, -0.0, 1e308, 2.0};
    double b[4] = {2.25, 0.0, 1e308, -2.0};
    CHECK_MPI(MPI_Reduce_local(a, b, 4, MPI_DOUBLE, MPI_SUM));
    CHECK(b[0] == 3.75 && b[1] == 0.0 && isinf(b[2]) && b[3] == 0.0, "SUM double");
    const float f[2] = {3.0f, -1.0f};
    float g[2] = {2.0f, 4.0f};
    CHECK_MPI(MPI_Reduce_local(f, g, 2, MPI_FLOAT, MPI_PROD));
    CHECK(g[0] == 6.0f && g[1] == -4.0f, "PROD float");
    const double complex z[1] = {1.0 + 2.0 * I};
    double complex w[1] = {3.0 - 1.0 * I};
    CHECK_MPI(MPI_Reduce_local(z, w, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    CHECK(creal(w[0]) == 5.0 && cimag(w[0]) == 5.0, "PROD complex (1+2i)(3-i) = 5+5i, got %g%+gi", creal(w[0]), cimag(w[0]));
    const bool t[3] = {true, false, true};
    bool u[3] = {true, false, false};
    CHECK_MPI(MPI_Reduce_local(t, u, 3, MPI_C_BOOL, MPI_LXOR));
    CHECK(!u[0] && !u[1] && u[2], "LXOR C bool");
  }
  { /* MINLOC/MAXLOC: lexicographic, ties to the smaller index */
    struct { double v; int i; } a[3] = {{1.0, 7}, {5.0, 2}, {3.0, 9}}, b[3] = {{1.0, 3}, {4.0, 1}, {3.0, 4}};
    CHECK_MPI(MPI_Reduce_local(a, b, 3, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(b[0].v == 1.0 && b[0].i == 3, "MINLOC tie keeps index 3, got %d", b[0].i);
    CHECK(b[1].v == 4.0 && b[1].i == 1, "MINLOC smaller value");
    CHECK(b[2].v == 3.0 && b[2].i == 4, "MINLOC tie keeps index 4, got %d", b[2].i);
    int c[2][2] = {{8, 5}, {2, 0}}, d[2][2] = {{8, 6}, {9, 1}};
    CHECK_MPI(MPI_Reduce_local(c, d, 2, MPI_2INT, MPI_MAXLOC));
    CHECK(d[0][0] == 8 && d[0][1] == 5, "MAXLOC tie takes index 5, got %d", d[0][1]);
    CHECK(d[1][0] == 9 && d[1][1] == 1, "MAXLOC larger value");
  }
  { /* MPI_DOUBLE_INT's type map ends after the int (12 of the C struct's 16 bytes): the
     * bytes past it are not the op's to read or write. Elements laid out by hand in
     * byte arrays with different fillers there: the fillers of the inout stay. */
    unsigned char in[2 * 16], io[2 * 16];
    memset(in, 0xAA, sizeof in);
    memset(io, 0x55, sizeof io);
    const double iv[2] = {1.0, 2.0}, ov[2] = {3.0, 0.5};
    const int ii[2] = {10, 11}, oi[2] = {20, 21};
    for (int k = 0; k < 2; ++k) {
      memcpy(in + 16 * k, &iv[k], 8), memcpy(in + 16 * k + 8, &ii[k], 4);
      memcpy(io + 16 * k, &ov[k], 8), memcpy(io + 16 * k + 8, &oi[k], 4);
    }
    CHECK_MPI(MPI_Reduce_local(in, io, 2, MPI_DOUBLE_INT, MPI_MINLOC));
    double v0, v1;
    int i0, i1;
    memcpy(&v0, io, 8), memcpy(&i0, io + 8, 4), memcpy(&v1, io + 16, 8), memcpy(&i1, io + 24, 4);
    CHECK(v0 == 1.0 && i0 == 10 && v1 == 0.5 && i1 == 21, "MINLOC by hand: (%g, %d) (%g, %d)", v0, i0, v1, i1);
    for (int k = 0; k < 2; ++k)
      for (int b = 12; b < 16; ++b)
        CHECK(io[16 * k + b] == 0x55, "MINLOC wrote byte %d of element %d, past MPI_DOUBLE_INT's type map", b, k);
    /* One element in buffers of exactly its 12 bytes (an overread shows under ASan). */
    unsigned char* a1 = malloc(12);
    unsigned char* b1 = malloc(12);
    CHECK(a1 != NULL && b1 != NULL, "malloc");
    memcpy(a1, &iv[1], 8), memcpy(a1 + 8, &ii[1], 4);
    memcpy(b1, &ov[0], 8), memcpy(b1 + 8, &oi[0], 4);
    CHECK_MPI(MPI_Reduce_local(a1, b1, 1, MPI_DOUBLE_INT, MPI_MAXLOC));
    memcpy(&v0, b1, 8), memcpy(&i0, b1 + 8, 4);
    CHECK(v0 == 3.0 && i0 == 20, "MAXLOC in 12-byte buffers: (%g, %d)", v0, i0);
    free(a1);
    free(b1);
  }
  { /* non-commutative user op on a derived type: inout = in * inout */
    MPI_Datatype mat;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE, &mat));
    CHECK_MPI(MPI_Type_commit(&mat));
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(matmul, 0, &op));
    int commute = -1;
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "user op created non-commutative reports %d", commute);
    const double a[2][4] = {{1, 2, 3, 4}, {0, 1, 1, 0}};
    double b[2][4] = {{5, 6, 7, 8}, {2, 0, 0, 3}};
    CHECK_MPI(MPI_Reduce_local(a, b, 2, mat, op));
    const double want0[4] = {19, 22, 43, 50}, want1[4] = {0, 3, 2, 0};
    for (int i = 0; i < 4; ++i) {
      CHECK(b[0][i] == want0[i], "A*B [%d] = %g, want %g", i, b[0][i], want0[i]);
      CHECK(b[1][i] == want1[i], "swap*B [%d] = %g, want %g", i, b[1][i], want1[i]);
    }
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "MPI_Op_free did not set MPI_OP_NULL");
    CHECK_MPI(MPI_Type_free(&mat));
    MPI_Op counting;
    CHECK_MPI(MPI_Op_create(count_calls, 1, &counting));
    CHECK_MPI(MPI_Op_commutative(counting, &commute));
    CHECK(commute == 1, "commutative user op reports %d", commute);
    int x = 0, y = 0;
    CHECK_MPI(MPI_Reduce_local(&x, &y, 1, MPI_INT, counting));
    CHECK(user_calls == 1, "user function called %d times", user_calls);
    CHECK_MPI(MPI_Op_free(&counting));
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_SUM not commutative?");
  }
#if MPI_VERSION >= 4 /* the _c bindings (MPI-4.0); Open MPI 4.1 has none */
  {
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(sub_c, 0, &op));
    const double a[3] = {10, 20, 30};
    double b[3] = {1, 2, 3};
    CHECK_MPI(MPI_Reduce_local_c(a, b, 3, MPI_DOUBLE, op));
    CHECK(b[0] == 9 && b[1] == 18 && b[2] == 27, "_c user op: %g %g %g", b[0], b[1], b[2]);
    CHECK_MPI(MPI_Reduce_local_c(a, b, 3, MPI_DOUBLE, MPI_MAX));
    CHECK(b[0] == 10 && b[1] == 20 && b[2] == 30, "MPI_Reduce_local_c MAX");
    CHECK_MPI(MPI_Op_free(&op));
  }
  if (!getenv("REDUCE_LOCAL_PEER")) {
    /* MPI-4.1 6.9.5: a count beyond int range given to an int-count user function is
     * split over several calls. A zero-extent type makes 2^31 + 5 elements fit one byte.
     * (MPICH 4.0 fails internally here; the peer runs skip it with REDUCE_LOCAL_PEER.) */
    MPI_Datatype dot;
    CHECK_MPI(MPI_Type_create_resized(MPI_BYTE, 0, 0, &dot));
    CHECK_MPI(MPI_Type_commit(&dot));
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(record_chunks, 1, &op));
    char x = 0, y = 0;
    const MPI_Count big = (MPI_Count)2147483647 + 6;
    CHECK_MPI(MPI_Reduce_local_c(&x, &y, big, dot, op));
    CHECK(chunk_total == big && chunk_calls == 2 && chunk_max == 2147483647,
          "int user function saw %lld elements in %d calls (largest %d)", chunk_total, chunk_calls, chunk_max);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&dot));
  }
#endif
  { /* zero count touches nothing */
    double a = 1, b = 2;
    CHECK_MPI(MPI_Reduce_local(&a, &b, 0, MPI_DOUBLE, MPI_SUM));
    CHECK(b == 2, "count 0 changed inoutbuf");
  }
  { /* invalid (op, type) pairs and arguments under MPI_ERRORS_RETURN (on both comms:
     * errors without a valid object go to MPI_COMM_SELF in MPI-4.x, WORLD in 3.1) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    double a[2] = {1, 2}, b[2] = {3, 4};
    check_class(MPI_Reduce_local(a, b, 2, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP, "BAND on double");
    /* A negative count is erroneous; the standard requires no error for it, shmpi
     * promises MPI_ERR_COUNT (MPICH 4.0 does not check: its peer run sets REDUCE_LOCAL_PEER). */
    if (!getenv("REDUCE_LOCAL_PEER")) {
      check_class(MPI_Reduce_local(a, b, -1, MPI_DOUBLE, MPI_SUM), MPI_ERR_COUNT, "negative count");
    }
    /* MPI-4.1 6.9.2: logical ops take C integers and logicals only. MPICH 4.0 accepts
     * floating point; its peer run sets REDUCE_LOCAL_LOGICAL_ON_FLOAT (a deviation). */
    if (!getenv("REDUCE_LOCAL_LOGICAL_ON_FLOAT")) {
      check_class(MPI_Reduce_local(a, b, 2, MPI_DOUBLE, MPI_LXOR), MPI_ERR_OP, "LXOR on double");
    }
    check_class(MPI_Reduce_local(a, b, 1, MPI_DOUBLE, MPI_MINLOC), MPI_ERR_OP, "MINLOC on double");
    check_class(MPI_Reduce_local(a, b, 1, MPI_DOUBLE_INT, MPI_SUM), MPI_ERR_OP, "SUM on DOUBLE_INT");
    check_class(MPI_Reduce_local(a, b, 1, MPI_DOUBLE, MPI_OP_NULL), MPI_ERR_OP, "MPI_OP_NULL");
    { /* an invalid datatype: MPI_ERR_TYPE (shmpi, MPICH) or, as Open MPI checks the op
       * first, MPI_ERR_OP (SUM is not defined on it either) */
      int cls = -1;
      const int rc = MPI_Reduce_local(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM);
      CHECK(rc != MPI_SUCCESS, "MPI_DATATYPE_NULL accepted");
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_TYPE || cls == MPI_ERR_OP, "MPI_DATATYPE_NULL: class %d", cls);
    }
    /* predefined ops are defined on predefined datatypes only (MPI-4.1 6.9.2) */
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    check_class(MPI_Reduce_local(a, b, 1, pair, MPI_SUM), MPI_ERR_OP, "SUM on a derived datatype");
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK(b[0] == 3 && b[1] == 4, "a failed call changed inoutbuf");
  }
  MPI_Finalize();
  return 0;
}
