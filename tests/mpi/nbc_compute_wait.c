/* nbc_compute_wait: small nonblocking reductions whose program computes between the start
 * and the completion, as programs that overlap collectives with work do (MPI-4.1 6.12).
 * (shmpi: once a communicator's calls are waited for well after their start, a small
 * staged reduction returns from its start right after posting its input and is folded
 * in the wait or test: docs/collectives.md "Nonblocking and persistent collectives".)
 *
 * Every iteration `it` (ITERS of them, counts of 1, 5, 300 and 2100 ints: inline,
 * staged, and larger staged inputs), one call at a time: start, about 3 us of
 * computation without MPI calls, then completion by MPI_Wait (it % 3 == 0), an MPI_Test
 * loop (1) or MPI_Waitall (2); exact results after each:
 *   MPI_Iallreduce   MPI_SUM on int, and the non-commutative 2x2 matrix product (a user
 *                    op: ranks' matrices in rank order)
 *   MPI_Ireduce      MPI_SUM to root it % np, MPI_IN_PLACE at the root on odd iterations
 *   MPI_Ireduce_scatter_block  MPI_SUM, blocks of `count` ints
 *   MPI_Iscan        the matrix product over ranks 0..me
 *   MPI_Iexscan      MPI_SUM over ranks 0..me-1 (rank 0's buffer is not checked)
 * then two in flight at once: MPI_Iallreduce and MPI_Iscan started back to back, the
 * computation, completed in reverse order. Then MPI_Iallreduce MPI_MINLOC and MPI_MAXLOC
 * on every pair type (MPI-4.1 6.9.4), 1 and 37 pairs whose values tie across ranks (the
 * smaller index wins), in place on odd iterations, with the computation between start
 * and completion on even iterations and none on odd ones.
 * Prints "nbc_compute_wait: OK (N checks)" on rank 0.
 * Usage: nbc_compute_wait [ITERS] (default 40) */
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"

static volatile uint32_t g_sink;

/* about 3 us of work that does not call MPI */
static void compute(void) {
  const int64_t t0 = now_ns();
  uint32_t x = g_sink;
  while (now_ns() - t0 < 3000) x = mix32(x + 1);
  g_sink = x;
}

static void complete(MPI_Request* rq, int n, int it) {
  if (it % 3 == 0) {
    for (int i = n - 1; i >= 0; --i) CHECK_MPI(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
  } else if (it % 3 == 1) {
    const int64_t t0 = now_ns();
    for (int i = n - 1; i >= 0; --i) {
      int flag = 0;
      while (!flag) {
        CHECK_MPI(MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE));
        CHECK(now_ns() - t0 < 20 * 1000000000LL, "iteration %d: request %d not complete after 20 s of MPI_Test", it,
              i);
      }
    }
  } else {
    CHECK_MPI(MPI_Waitall(n, rq, STATUSES_IGNORE));
  }
  ++nchecks;
}

static void mat_fn(void* in, void* inout, int* len, MPI_Datatype* dt) {
  (void)dt;
  mat_op(in, inout, *len);
}

enum { T_SUM = 70, T_MAT = 71, T_RED = 72, T_RSB = 73, T_SCAN = 74, T_EX = 75 };

static void expect_sum(const int* got, long n, int tag, int r0, int r1, int it, long first, const char* what) {
  for (long i = 0; i < n; ++i) {
    int w = 0;
    for (int q = r0; q < r1; ++q) w += vs(tag, q, first + i, it);
    EXPECT(got[i] == w, "iteration %d: %s int %ld is %d, want %d", it, what, i, got[i], w);
  }
}

static void expect_mats(const int* got, long nmat, int tag, int r1, int it, const char* what) {
  for (long i = 0; i < nmat; ++i) {
    int w[4];
    mat_prod(tag, 0, r1, i, it, w);
    EXPECT(memcmp(got + 4 * i, w, sizeof w) == 0, "iteration %d: %s matrix %ld is {%d %d %d %d}, want {%d %d %d %d}",
           it, what, i, got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], w[0], w[1], w[2], w[3]);
  }
}

static MPI_Datatype g_mat_t; /* one 2x2 int matrix */

static void one_count(long n, int it, MPI_Op mat, MPI_Comm comm) {
  int* s = malloc((size_t)n * (size_t)np * sizeof(int));
  int* r = malloc((size_t)n * (size_t)np * sizeof(int));
  const long nmat = n < 4 ? 1 : n / 4;
  int* ms = malloc((size_t)nmat * 4 * sizeof(int));
  int* mr = malloc((size_t)nmat * 4 * sizeof(int));
  CHECK(s && r && ms && mr, "malloc");
  MPI_Request rq[2];

  for (long i = 0; i < n; ++i) s[i] = vs(T_SUM, me, i, it), r[i] = SENT;
  CHECK_MPI(MPI_Iallreduce(s, r, (int)n, MPI_INT, MPI_SUM, comm, &rq[0]));
  compute();
  complete(rq, 1, it);
  expect_sum(r, n, T_SUM, 0, np, it, 0, "MPI_Iallreduce MPI_SUM");

  for (long i = 0; i < nmat; ++i) memcpy(ms + 4 * i, mat_of(T_MAT, me, i, it), 4 * sizeof(int));
  memset(mr, 0, (size_t)nmat * 4 * sizeof(int));
  CHECK_MPI(MPI_Iallreduce(ms, mr, (int)nmat, g_mat_t, mat, comm, &rq[0]));
  compute();
  complete(rq, 1, it);
  expect_mats(mr, nmat, T_MAT, np, it, "MPI_Iallreduce matrix product");

  const int root = it % np;
  const int in_place = it % 2 == 1 && me == root;
  for (long i = 0; i < n; ++i) s[i] = vs(T_RED, me, i, it), r[i] = in_place ? s[i] : SENT;
  CHECK_MPI(MPI_Ireduce(in_place ? MPI_IN_PLACE : s, r, (int)n, MPI_INT, MPI_SUM, root, comm, &rq[0]));
  compute();
  complete(rq, 1, it);
  if (me == root) {
    expect_sum(r, n, T_RED, 0, np, it, 0, in_place ? "MPI_Ireduce (in place)" : "MPI_Ireduce");
  } else {
    for (long i = 0; i < n; ++i) EXPECT(r[i] == SENT, "iteration %d: MPI_Ireduce wrote a non-root's recvbuf", it);
  }

  for (long i = 0; i < n * np; ++i) s[i] = vs(T_RSB, me, i, it);
  for (long i = 0; i < n; ++i) r[i] = SENT;
  CHECK_MPI(MPI_Ireduce_scatter_block(s, r, (int)n, MPI_INT, MPI_SUM, comm, &rq[0]));
  compute();
  complete(rq, 1, it);
  expect_sum(r, n, T_RSB, 0, np, it, n * me, "MPI_Ireduce_scatter_block");

  for (long i = 0; i < nmat; ++i) memcpy(ms + 4 * i, mat_of(T_SCAN, me, i, it), 4 * sizeof(int));
  memset(mr, 0, (size_t)nmat * 4 * sizeof(int));
  CHECK_MPI(MPI_Iscan(ms, mr, (int)nmat, g_mat_t, mat, comm, &rq[0]));
  compute();
  complete(rq, 1, it);
  expect_mats(mr, nmat, T_SCAN, me + 1, it, "MPI_Iscan matrix product");

  for (long i = 0; i < n; ++i) s[i] = vs(T_EX, me, i, it), r[i] = SENT;
  CHECK_MPI(MPI_Iexscan(s, r, (int)n, MPI_INT, MPI_SUM, comm, &rq[0]));
  compute();
  complete(rq, 1, it);
  if (me > 0) expect_sum(r, n, T_EX, 0, me, it, 0, "MPI_Iexscan");

  /* Two in flight: the later one starts while the first is still pending. */
  for (long i = 0; i < n; ++i) s[i] = vs(T_SUM, me, i, it + 1000), r[i] = SENT;
  for (long i = 0; i < nmat; ++i) memcpy(ms + 4 * i, mat_of(T_SCAN, me, i, it + 1000), 4 * sizeof(int));
  memset(mr, 0, (size_t)nmat * 4 * sizeof(int));
  CHECK_MPI(MPI_Iallreduce(s, r, (int)n, MPI_INT, MPI_SUM, comm, &rq[0]));
  CHECK_MPI(MPI_Iscan(ms, mr, (int)nmat, g_mat_t, mat, comm, &rq[1]));
  compute();
  complete(rq, 2, it);
  expect_sum(r, n, T_SUM, 0, np, it + 1000, 0, "MPI_Iallreduce (with MPI_Iscan in flight)");
  expect_mats(mr, nmat, T_SCAN, me + 1, it + 1000, "MPI_Iscan (with MPI_Iallreduce in flight)");
  free(s), free(r), free(ms), free(mr);
}

/* MINLOC / MAXLOC on one pair type: values tie across ranks often; the index is the
 * rank's, scrambled per element (so a tie is not always won by the lower rank). */
#define PAIR_CASE(T, TY)                                                                              \
  static void pair_##T(MPI_Datatype dt, const char* name, long n, int it, MPI_Comm comm) {            \
    struct P { TY v; int i; };                                                                       \
    struct P s[37], r[37];                                                                           \
    const int in_place = it % 2 == 1;                                                               \
    for (int o = 0; o < 2; ++o) {                                                                    \
      const MPI_Op op = o == 0 ? MPI_MINLOC : MPI_MAXLOC;                                           \
      for (long e = 0; e < n; ++e) {                                                                 \
        s[e].v = (TY)(((e * 7 + it * 3) % 5 == 0) ? 2 : (me * 5 + e + it) % 4);                       \
        s[e].i = (int)((me * 13 + e * 5 + it) % 17);                                                 \
        r[e] = in_place ? s[e] : (struct P){(TY)-1, -1};                                             \
      }                                                                                              \
      MPI_Request rq;                                                                                \
      CHECK_MPI(MPI_Iallreduce(in_place ? MPI_IN_PLACE : s, r, (int)n, dt, op, comm, &rq));         \
      if (it % 2 == 0) compute();                                                                    \
      complete(&rq, 1, it);                                                                          \
      for (long e = 0; e < n; ++e) {                                                                 \
        long wv = 0;                                                                                 \
        int wi = 0;                                                                                  \
        for (int q = 0; q < np; ++q) {                                                               \
          const long v = ((e * 7 + it * 3) % 5 == 0) ? 2 : (q * 5 + e + it) % 4;                     \
          const int i = (int)((q * 13 + e * 5 + it) % 17);                                          \
          if (q == 0 || (o == 0 ? v < wv : v > wv) || (v == wv && i < wi)) wv = v, wi = i;           \
        }                                                                                            \
        EXPECT(r[e].v == (TY)wv && r[e].i == wi, "iteration %d: MPI_Iallreduce %s on %s%s pair %ld is (%ld, %d), want (%ld, %d)", \
               it, o == 0 ? "MPI_MINLOC" : "MPI_MAXLOC", name, in_place ? " (in place)" : "", e,          \
               (long)r[e].v, r[e].i, wv, wi);                                                        \
      }                                                                                              \
    }                                                                                                \
  }
PAIR_CASE(float_int, float)
PAIR_CASE(double_int, double)
PAIR_CASE(long_int, long)
PAIR_CASE(two_int, int)
PAIR_CASE(short_int, short)
PAIR_CASE(long_double_int, long double)

static void pairs(int it, MPI_Comm comm) {
  for (long n = 1; n <= 37; n += 36) {
    pair_float_int(MPI_FLOAT_INT, "MPI_FLOAT_INT", n, it, comm);
    pair_double_int(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", n, it, comm);
    pair_long_int(MPI_LONG_INT, "MPI_LONG_INT", n, it, comm);
    pair_two_int(MPI_2INT, "MPI_2INT", n, it, comm);
    pair_short_int(MPI_SHORT_INT, "MPI_SHORT_INT", n, it, comm);
    pair_long_double_int(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", n, it, comm);
  }
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  const int iters = argc > 1 ? atoi(argv[1]) : 40;
  CHECK(iters > 0, "usage: nbc_compute_wait [ITERS > 0]");
  MPI_Op mat;
  CHECK_MPI(MPI_Op_create(mat_fn, 0, &mat));
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &g_mat_t));
  CHECK_MPI(MPI_Type_commit(&g_mat_t));
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  static const long counts[] = {1, 5, 300, 2100};
  for (int it = 0; it < iters; ++it) {
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
      one_count(counts[c], it, mat, it % 2 == 0 ? MPI_COMM_WORLD : dup);
    }
    pairs(it, it % 4 < 2 ? MPI_COMM_WORLD : dup);
  }
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_MPI(MPI_Op_free(&mat));
  CHECK_MPI(MPI_Type_free(&g_mat_t));
  coll_finish("nbc_compute_wait");
  return 0;
}
