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
 * computation, completed in reverse order.
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
  }
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_MPI(MPI_Op_free(&mat));
  CHECK_MPI(MPI_Type_free(&g_mat_t));
  coll_finish("nbc_compute_wait");
  return 0;
}
