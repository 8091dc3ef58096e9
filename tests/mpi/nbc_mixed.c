/* nbc_mixed: many nonblocking collectives in flight at once (MPI-4.1 Nonblocking
 * Collective Operations: "multiple nonblocking collective operations can be outstanding
 * on a single communicator", completion in any order; matched in issue order).
 *
 * A "set" is 10 different nonblocking collectives (Ibcast, Iallreduce, Igather, Iscatter,
 * Iallgather, Ialltoall, Iscan, Ireduce_scatter_block, Ibarrier, Iexscan) started back to
 * back on one communicator, with rank-, call- and iteration-dependent data and exact
 * expected results. Each rank completes the requests in an order of its own (a per-rank
 * pseudo-random permutation), with MPI_Wait, MPI_Test round-robin, MPI_Waitall,
 * MPI_Waitany or MPI_Testsome. Covered:
 *   - one set on MPI_COMM_WORLD, repeatedly, each completion style;
 *   - 40 MPI_Iallreduce in flight at once (then MPI_Waitall / MPI_Testall), twice;
 *   - nonblocking and blocking collectives interleaved in the same order on every rank
 *     (Ibcast, blocking Allreduce, Barrier, Wait on the Ibcast; Iallreduce, blocking
 *     Bcast, Wait);
 *   - sets on MPI_COMM_WORLD, a dup and a split (two halves, reversed rank order) in
 *     flight at the same time (30 requests, completed in a per-rank order);
 *   - point-to-point (Isend/Irecv to both ring neighbours, 1000 ints, on the same
 *     communicator) while a set is pending, the messages completed first;
 *   - an RMA fence epoch (MPI_Win_allocate on a dup, MPI_Put and MPI_Accumulate) while a
 *     set is pending on MPI_COMM_WORLD;
 *   - MPI_Comm_free of a communicator (dup and split) with a set pending, then the
 *     requests completed (Communicator Destructors: pending operations complete normally);
 *   - a non-commutative user op (2x2 int matrix product on a struct of 4 ints, inout = in x
 *     inout): Ireduce at every root, Iallreduce (and in place), Iscan (and in place),
 *     Iexscan, Ireduce_scatter, Ireduce_scatter_block all in flight at once, on
 *     MPI_COMM_WORLD and on the reversed split; the result must be the rank-order product;
 *   - large calls in flight at once: rank 0 starts a 5 MiB MPI_Ibcast (root 0), an
 *     MPI_Igather (1 MiB blocks, root np-1) and an MPI_Iscatter (1 MiB blocks, root 0) and
 *     only then lets the other ranks start theirs (a token by MPI_Send), so rank 0's
 *     broadcast cannot have completed when it starts the other two (a library that moves
 *     large messages through a bounded buffer has to keep the three apart), in the
 *     second repetition also a 5 MiB MPI_Ibcast from rank np-1, then every rank calls a
 *     blocking 2 MiB MPI_Allreduce before it waits for them (shmpi, oversubscribed: the
 *     Allreduce folds into rank np-1's ring, which that broadcast still holds), and an
 *     MPI_Ireduce_scatter_block and a blocking MPI_Reduce_scatter_block with 2.3 MiB
 *     blocks at up to 4 ranks, 391 KiB at more (shmpi: together longer than a ring,
 *     which the members stream interleaved, in step with their folds, where their
 *     rings are not busy with the broadcasts and more or fewer than three share two
 *     cores); a 1 MiB MPI_Iscan and MPI_Iexscan in flight across a blocking MPI_Scan of
 *     the same size (shmpi: chains, each member reading the one before it).
 * Prints "nbc_mixed: OK (N checks)" on rank 0.
 *
 * Peer toggle (set by tests/peer/run_nbc_peer.sh):
 *   NBC_MIXED_COMM_FREE_PENDING_CRASHES  Open MPI 4.1.4 (coll/libnbc): MPI_Comm_free of a
 *       communicator with pending nonblocking collectives frees it under them; the next
 *       MPI_Wait segfaults in mca_pml_ob1_isend from NBC_Progress at 4 and 8 ranks. MPI-4.1
 *       MPI_COMM_FREE: "Any pending operations that use this communicator will complete
 *       normally". The requests are then completed before the communicators are freed.
 * Usage: nbc_mixed */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "coll_util.h"

static char ctx[200];
static int t_comm_free_late; /* peer toggle, see the header */

/* One started call: its buffers, the expected image of r (w, n ints; NULL: not checked). */
typedef struct {
  MPI_Request req;
  int *s, *r, *w;
  long n;
  char what[96];
} Slot;

static void slot_check(Slot* s) {
  if (s->w) {
    long bad = -1;
    for (long i = 0; i < s->n && bad < 0; ++i)
      if (s->r[i] != s->w[i]) bad = i;
    nchecks += s->n + 1;
    CHECK(bad < 0, "%s: %s: int %ld of %ld is %d, want %d", ctx, s->what, bad, s->n, s->r[bad], s->w[bad]);
  }
  free(s->s), free(s->r), free(s->w);
  s->s = s->r = s->w = NULL;
}

/* per-rank pseudo-random permutation of 0..n-1 */
static void rank_perm(int n, uint32_t seed, int* p) {
  for (int i = 0; i < n; ++i) p[i] = i;
  uint32_t x = mix32(seed * 0x9E3779B1u ^ (uint32_t)(me + 1) * 0x85EBCA77u);
  for (int i = n - 1; i > 0; --i) {
    x = mix32(x + 0x6D2B79F5u);
    const int j = (int)(x % (uint32_t)(i + 1));
    const int t = p[i];
    p[i] = p[j], p[j] = t;
  }
}

/* Completes n slots' requests; mode picks the completion style, order is per rank. */
static void complete_all(Slot* sl, int n, int mode, uint32_t seed) {
  MPI_Request* rq = malloc((size_t)n * sizeof *rq);
  int* order = malloc((size_t)n * sizeof(int));
  int* idx = malloc((size_t)n * sizeof(int));
  CHECK(rq && order && idx, "malloc");
  rank_perm(n, seed, order);
  for (int i = 0; i < n; ++i) rq[i] = sl[order[i]].req;
  const double t0 = MPI_Wtime();
  int done = 0, flag, k, outc;
  switch (mode % 5) {
    case 0: /* MPI_Wait, one after another in this rank's order */
      for (int i = 0; i < n; ++i) CHECK_MPI(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
      break;
    case 1: /* MPI_Test round-robin */
      while (done < n) {
        for (int i = 0; i < n; ++i)
          if (rq[i] != MPI_REQUEST_NULL) {
            CHECK_MPI(MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE));
            if (flag) {
              EXPECT(rq[i] == MPI_REQUEST_NULL, "%s: request %d not freed by MPI_Test", ctx, i);
              ++done;
            }
          }
        CHECK(MPI_Wtime() - t0 < 60, "%s: MPI_Test loop: %d of %d requests done after 60 s", ctx, done, n);
      }
      break;
    case 2: CHECK_MPI(MPI_Waitall(n, rq, STATUSES_IGNORE)); break;
    case 3:
      for (int i = 0; i < n; ++i) {
        CHECK_MPI(MPI_Waitany(n, rq, &k, MPI_STATUS_IGNORE));
        EXPECT(k >= 0 && k < n && rq[k] == MPI_REQUEST_NULL, "%s: MPI_Waitany index %d", ctx, k);
      }
      CHECK_MPI(MPI_Waitany(n, rq, &k, MPI_STATUS_IGNORE));
      EXPECT(k == MPI_UNDEFINED, "%s: MPI_Waitany on no active request: index %d", ctx, k);
      break;
    default:
      while (done < n) {
        CHECK_MPI(MPI_Testsome(n, rq, &outc, idx, STATUSES_IGNORE));
        CHECK(outc != MPI_UNDEFINED && outc >= 0 && outc <= n - done, "%s: MPI_Testsome outcount %d", ctx, outc);
        done += outc;
        CHECK(MPI_Wtime() - t0 < 60, "%s: MPI_Testsome loop: %d of %d requests done after 60 s", ctx, done, n);
      }
      break;
  }
  for (int i = 0; i < n; ++i) EXPECT(rq[i] == MPI_REQUEST_NULL, "%s: request %d still active", ctx, i);
  free(rq), free(order), free(idx);
}

enum { K = 37, SET = 10 };

/* Starts the 10 calls of a set on comm (iteration it, root); fills sl[0..SET-1]. */
static void start_set(MPI_Comm comm, int it, int root, Slot* sl) {
  int cr, cn;
  CHECK_MPI(MPI_Comm_rank(comm, &cr));
  CHECK_MPI(MPI_Comm_size(comm, &cn));
  root %= cn;
  memset(sl, 0, SET * sizeof *sl);
  Slot* s;
  /* Ibcast */
  s = &sl[0];
  snprintf(s->what, sizeof s->what, "MPI_Ibcast root %d it %d", root, it);
  s->n = K, s->r = ints(K), s->w = ints(K);
  for (int i = 0; i < K; ++i) s->w[i] = vf(1, root, 0, i, it);
  if (cr == root) memcpy(s->r, s->w, K * sizeof(int));
  CHECK_MPI(MPI_Ibcast(s->r, K, MPI_INT, root, comm, &s->req));
  /* Iallreduce SUM */
  s = &sl[1];
  snprintf(s->what, sizeof s->what, "MPI_Iallreduce it %d", it);
  s->n = K, s->s = ints(K), s->r = ints(K), s->w = ints(K);
  for (int i = 0; i < K; ++i) {
    s->s[i] = vs(2, cr, i, it);
    s->w[i] = 0;
    for (int q = 0; q < cn; ++q) s->w[i] += vs(2, q, i, it);
  }
  CHECK_MPI(MPI_Iallreduce(s->s, s->r, K, MPI_INT, MPI_SUM, comm, &s->req));
  /* Igather */
  s = &sl[2];
  snprintf(s->what, sizeof s->what, "MPI_Igather root %d it %d", root, it);
  s->s = ints(K);
  for (int i = 0; i < K; ++i) s->s[i] = vf(3, cr, root, i, it);
  if (cr == root) {
    s->n = (long)cn * K, s->r = ints(s->n), s->w = ints(s->n);
    for (int q = 0; q < cn; ++q)
      for (int i = 0; i < K; ++i) s->w[q * K + i] = vf(3, q, root, i, it);
  }
  CHECK_MPI(MPI_Igather(s->s, K, MPI_INT, s->r, K, MPI_INT, root, comm, &s->req));
  /* Iscatter */
  s = &sl[3];
  snprintf(s->what, sizeof s->what, "MPI_Iscatter root %d it %d", root, it);
  s->n = K, s->r = ints(K), s->w = ints(K);
  for (int i = 0; i < K; ++i) s->w[i] = vf(4, root, cr, i, it);
  if (cr == root) {
    s->s = ints((long)cn * K);
    for (int q = 0; q < cn; ++q)
      for (int i = 0; i < K; ++i) s->s[q * K + i] = vf(4, root, q, i, it);
  }
  CHECK_MPI(MPI_Iscatter(s->s, K, MPI_INT, s->r, K, MPI_INT, root, comm, &s->req));
  /* Iallgather */
  s = &sl[4];
  snprintf(s->what, sizeof s->what, "MPI_Iallgather it %d", it);
  s->n = (long)cn * K, s->s = ints(K), s->r = ints(s->n), s->w = ints(s->n);
  for (int i = 0; i < K; ++i) s->s[i] = vf(5, cr, 0, i, it);
  for (int q = 0; q < cn; ++q)
    for (int i = 0; i < K; ++i) s->w[q * K + i] = vf(5, q, 0, i, it);
  CHECK_MPI(MPI_Iallgather(s->s, K, MPI_INT, s->r, K, MPI_INT, comm, &s->req));
  /* Ialltoall */
  s = &sl[5];
  snprintf(s->what, sizeof s->what, "MPI_Ialltoall it %d", it);
  s->n = (long)cn * K, s->s = ints(s->n), s->r = ints(s->n), s->w = ints(s->n);
  for (int q = 0; q < cn; ++q)
    for (int i = 0; i < K; ++i) {
      s->s[q * K + i] = vf(6, cr, q, i, it);
      s->w[q * K + i] = vf(6, q, cr, i, it);
    }
  CHECK_MPI(MPI_Ialltoall(s->s, K, MPI_INT, s->r, K, MPI_INT, comm, &s->req));
  /* Iscan SUM */
  s = &sl[6];
  snprintf(s->what, sizeof s->what, "MPI_Iscan it %d", it);
  s->n = K, s->s = ints(K), s->r = ints(K), s->w = ints(K);
  for (int i = 0; i < K; ++i) {
    s->s[i] = vs(7, cr, i, it);
    s->w[i] = 0;
    for (int q = 0; q <= cr; ++q) s->w[i] += vs(7, q, i, it);
  }
  CHECK_MPI(MPI_Iscan(s->s, s->r, K, MPI_INT, MPI_SUM, comm, &s->req));
  /* Ireduce_scatter_block SUM */
  s = &sl[7];
  snprintf(s->what, sizeof s->what, "MPI_Ireduce_scatter_block it %d", it);
  s->n = K, s->s = ints((long)cn * K), s->r = ints(K), s->w = ints(K);
  for (long i = 0; i < (long)cn * K; ++i) s->s[i] = vs(8, cr, i, it);
  for (int i = 0; i < K; ++i) {
    s->w[i] = 0;
    for (int q = 0; q < cn; ++q) s->w[i] += vs(8, q, (long)cr * K + i, it);
  }
  CHECK_MPI(MPI_Ireduce_scatter_block(s->s, s->r, K, MPI_INT, MPI_SUM, comm, &s->req));
  /* Ibarrier */
  s = &sl[8];
  snprintf(s->what, sizeof s->what, "MPI_Ibarrier it %d", it);
  CHECK_MPI(MPI_Ibarrier(comm, &s->req));
  /* Iexscan MAX (rank 0: undefined, not checked) */
  s = &sl[9];
  snprintf(s->what, sizeof s->what, "MPI_Iexscan MPI_MAX it %d", it);
  s->n = K, s->s = ints(K), s->r = ints(K);
  for (int i = 0; i < K; ++i) s->s[i] = vf(9, cr, 0, i, it);
  if (cr > 0) {
    s->w = ints(K);
    for (int i = 0; i < K; ++i) {
      s->w[i] = vf(9, 0, 0, i, it);
      for (int q = 1; q < cr; ++q)
        if (vf(9, q, 0, i, it) > s->w[i]) s->w[i] = vf(9, q, 0, i, it);
    }
  }
  CHECK_MPI(MPI_Iexscan(s->s, s->r, K, MPI_INT, MPI_MAX, comm, &s->req));
  for (int i = 0; i < SET; ++i) EXPECT(sl[i].req != MPI_REQUEST_NULL, "%s: %s: no request", ctx, sl[i].what);
}

static void check_all(Slot* sl, int n) {
  for (int i = 0; i < n; ++i) slot_check(&sl[i]);
}

/* ---- 1: one set on MPI_COMM_WORLD, completed in a per-rank order ---- */
static void test_set_world(void) {
  Slot sl[SET];
  const int reps = np >= 8 ? 10 : 20;
  for (int rep = 0; rep < reps; ++rep) {
    snprintf(ctx, sizeof ctx, "set on MPI_COMM_WORLD, repetition %d (completion style %d)", rep, rep % 5);
    start_set(MPI_COMM_WORLD, 1000 + rep, rep, sl);
    complete_all(sl, SET, rep, (uint32_t)rep);
    check_all(sl, SET);
  }
}

/* ---- 2: 40 Iallreduce in flight ---- */
static void test_many(void) {
  enum { N = 40 };
  Slot sl[N];
  for (int rep = 0; rep < 2; ++rep) {
    snprintf(ctx, sizeof ctx, "%d MPI_Iallreduce in flight, repetition %d", N, rep);
    for (int j = 0; j < N; ++j) {
      Slot* s = &sl[j];
      memset(s, 0, sizeof *s);
      const long n = 1 + (j * 7) % 23;
      const MPI_Op op = j % 3 == 0 ? MPI_MAX : MPI_SUM;
      snprintf(s->what, sizeof s->what, "Iallreduce #%d (%ld ints, %s)", j, n, j % 3 == 0 ? "MAX" : "SUM");
      s->n = n, s->s = ints(n), s->r = ints(n), s->w = ints(n);
      for (long i = 0; i < n; ++i) {
        const int tag = 100 + j + 50 * rep;
        s->s[i] = j % 3 == 0 ? vf(tag, me, 0, i, rep) : vs(tag, me, i, rep);
        s->w[i] = j % 3 == 0 ? vf(tag, 0, 0, i, rep) : 0;
        for (int q = j % 3 == 0 ? 1 : 0; q < np; ++q) {
          const int x = j % 3 == 0 ? vf(tag, q, 0, i, rep) : vs(tag, q, i, rep);
          s->w[i] = j % 3 == 0 ? (x > s->w[i] ? x : s->w[i]) : s->w[i] + x;
        }
      }
      if (j % 4 == 1) { /* in place */
        memcpy(s->r, s->s, (size_t)n * sizeof(int));
        CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, s->r, (int)n, MPI_INT, op, MPI_COMM_WORLD, &s->req));
      } else {
        CHECK_MPI(MPI_Iallreduce(s->s, s->r, (int)n, MPI_INT, op, MPI_COMM_WORLD, &s->req));
      }
    }
    if (rep == 0) {
      complete_all(sl, N, 2, 7); /* MPI_Waitall */
    } else { /* MPI_Testall until all are done */
      MPI_Request rq[N];
      for (int j = 0; j < N; ++j) rq[j] = sl[j].req;
      int flag = 0;
      const double t0 = MPI_Wtime();
      while (!flag) {
        CHECK_MPI(MPI_Testall(N, rq, &flag, STATUSES_IGNORE));
        CHECK(MPI_Wtime() - t0 < 60, "%s: MPI_Testall not done after 60 s", ctx);
      }
      for (int j = 0; j < N; ++j) EXPECT(rq[j] == MPI_REQUEST_NULL, "%s: request %d still active", ctx, j);
    }
    check_all(sl, N);
  }
}

/* ---- 3: nonblocking and blocking collectives interleaved ---- */
static void test_interleave(void) {
  enum { N = 1000 };
  for (int rep = 0; rep < 3; ++rep) {
    const int root = (rep * 3 + 1) % np;
    snprintf(ctx, sizeof ctx, "Ibcast / Allreduce / Barrier / Wait, root %d, repetition %d", root, rep);
    int* b = ints(N);
    if (me == root)
      for (int i = 0; i < N; ++i) b[i] = vf(20, root, 0, i, rep);
    MPI_Request rq;
    CHECK_MPI(MPI_Ibcast(b, N, MPI_INT, root, MPI_COMM_WORLD, &rq));
    int x = vs(21, me, 0, rep), sum = 0, want = 0;
    CHECK_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int q = 0; q < np; ++q) want += vs(21, q, 0, rep);
    EXPECT(sum == want, "%s: blocking MPI_Allreduce gave %d, want %d", ctx, sum, want);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; ++i) EXPECT(b[i] == vf(20, root, 0, i, rep), "%s: Ibcast int %d is %d", ctx, i, b[i]);
    /* Iallreduce, then a blocking Bcast, then an Ibarrier + blocking Gather, then Wait */
    snprintf(ctx, sizeof ctx, "Iallreduce / Bcast / Ibarrier / Gather / Waitall, repetition %d", rep);
    int* s = ints(N);
    int* r = ints(N);
    for (int i = 0; i < N; ++i) s[i] = vs(22, me, i, rep);
    MPI_Request rq2[2];
    CHECK_MPI(MPI_Iallreduce(s, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq2[0]));
    for (int i = 0; i < N; ++i) b[i] = me == root ? vf(23, root, 0, i, rep) : -1;
    CHECK_MPI(MPI_Bcast(b, N, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) EXPECT(b[i] == vf(23, root, 0, i, rep), "%s: Bcast int %d is %d", ctx, i, b[i]);
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &rq2[1]));
    int* g = ints(np);
    const int mine = vf(24, me, 0, 0, rep);
    CHECK_MPI(MPI_Gather(&mine, 1, MPI_INT, g, 1, MPI_INT, root, MPI_COMM_WORLD));
    if (me == root)
      for (int q = 0; q < np; ++q) EXPECT(g[q] == vf(24, q, 0, 0, rep), "%s: Gather from %d is %d", ctx, q, g[q]);
    CHECK_MPI(MPI_Waitall(2, rq2, STATUSES_IGNORE));
    for (int i = 0; i < N; ++i) {
      int w = 0;
      for (int q = 0; q < np; ++q) w += vs(22, q, i, rep);
      EXPECT(r[i] == w, "%s: Iallreduce int %d is %d, want %d", ctx, i, r[i], w);
    }
    free(b), free(s), free(r), free(g);
  }
}

/* ---- 4: sets on three communicators at once ---- */
static void test_three_comms(void) {
  MPI_Comm dup, split;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 2, np - me, &split)); /* reversed rank order */
  int sr, sn;
  CHECK_MPI(MPI_Comm_rank(split, &sr));
  CHECK_MPI(MPI_Comm_size(split, &sn));
  EXPECT(sn == (np - me % 2 + 1) / 2 && sr == (np - 1 - me) / 2, "split: rank %d of %d", sr, sn);
  Slot sl[3 * SET];
  for (int rep = 0; rep < 5; ++rep) {
    snprintf(ctx, sizeof ctx, "sets on MPI_COMM_WORLD, a dup and a split at once, repetition %d", rep);
    start_set(split, 2000 + rep, rep + 1, sl + SET);
    start_set(MPI_COMM_WORLD, 3000 + rep, rep, sl);
    start_set(dup, 4000 + rep, rep + 2, sl + 2 * SET);
    complete_all(sl, 3 * SET, rep, 100u + (uint32_t)rep);
    check_all(sl, 3 * SET);
  }
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_MPI(MPI_Comm_free(&split));
}

/* ---- 5: point-to-point while a set is pending ---- */
static void test_p2p(void) {
  enum { N = 1000 };
  Slot sl[SET];
  for (int rep = 0; rep < 3; ++rep) {
    snprintf(ctx, sizeof ctx, "Isend/Irecv ring while a set is pending, repetition %d", rep);
    start_set(MPI_COMM_WORLD, 5000 + rep, rep, sl);
    const int right = (me + 1) % np, left = (me + np - 1) % np;
    int *sa = ints(N), *sb = ints(N), *ra = ints(N), *rb = ints(N);
    for (int i = 0; i < N; ++i) sa[i] = vf(30, me, right, i, rep), sb[i] = vf(31, me, left, i, rep);
    MPI_Request p[4];
    CHECK_MPI(MPI_Irecv(ra, N, MPI_INT, left, 30, MPI_COMM_WORLD, &p[0]));
    CHECK_MPI(MPI_Irecv(rb, N, MPI_INT, right, 31, MPI_COMM_WORLD, &p[1]));
    CHECK_MPI(MPI_Isend(sa, N, MPI_INT, right, 30, MPI_COMM_WORLD, &p[2]));
    CHECK_MPI(MPI_Isend(sb, N, MPI_INT, left, 31, MPI_COMM_WORLD, &p[3]));
    CHECK_MPI(MPI_Waitall(4, p, STATUSES_IGNORE));
    for (int i = 0; i < N; ++i) {
      EXPECT(ra[i] == vf(30, left, me, i, rep), "%s: message from the left, int %d is %d", ctx, i, ra[i]);
      EXPECT(rb[i] == vf(31, right, me, i, rep), "%s: message from the right, int %d is %d", ctx, i, rb[i]);
    }
    /* and a blocking exchange with a pending set too */
    int x = vf(32, me, 0, 0, rep), y = 0;
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, right, 32, &y, 1, MPI_INT, left, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(y == vf(32, left, 0, 0, rep), "%s: MPI_Sendrecv got %d", ctx, y);
    complete_all(sl, SET, rep + 1, 200u + (uint32_t)rep);
    check_all(sl, SET);
    free(sa), free(sb), free(ra), free(rb);
  }
}

/* ---- 6: an RMA fence epoch on a dup while a set is pending on MPI_COMM_WORLD ---- */
static void test_rma(void) {
  MPI_Comm wcomm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &wcomm));
  int* base = NULL;
  MPI_Win win;
  /* slot q: Put from rank q; slot np: Accumulate from everybody; the rest stays -1. The
   * size is a multiple of 16 bytes: MPICH 4.0.2 misplaces other sizes' Puts (see
   * RMA_WINDOWS_ALLOCATE_SIZES_16 in rma_windows.c). */
  const int W = (np + 1 + 3) / 4 * 4;
  CHECK_MPI(MPI_Win_allocate((MPI_Aint)W * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, wcomm, &base, &win));
  Slot sl[SET];
  for (int rep = 0; rep < 3; ++rep) {
    snprintf(ctx, sizeof ctx, "RMA fence epoch while a set is pending, repetition %d", rep);
    for (int i = 0; i < W; ++i) base[i] = i == np ? 0 : -1;
    CHECK_MPI(MPI_Win_fence(0, win));
    start_set(MPI_COMM_WORLD, 6000 + rep, rep, sl);
    const int target = (me + rep + 1) % np;
    const int pv = vf(40, me, target, 0, rep), av = vs(41, me, 0, rep);
    for (int t = 0; t < np; ++t) CHECK_MPI(MPI_Accumulate(&av, 1, MPI_INT, t, np, 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Put(&pv, 1, MPI_INT, target, me, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    const int from = (me - rep - 1 + 2 * np) % np; /* the rank whose target I am */
    for (int q = 0; q < W; ++q) {
      if (q == np) continue;
      const int want = q == from ? vf(40, q, me, 0, rep) : -1;
      EXPECT(base[q] == want, "%s: window slot %d is %d, want %d", ctx, q, base[q], want);
    }
    int wsum = 0;
    for (int q = 0; q < np; ++q) wsum += vs(41, q, 0, rep);
    EXPECT(base[np] == wsum, "%s: accumulated slot is %d, want %d", ctx, base[np], wsum);
    complete_all(sl, SET, rep + 2, 300u + (uint32_t)rep);
    check_all(sl, SET);
  }
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Comm_free(&wcomm));
}

/* ---- 7: MPI_Comm_free with a set pending ---- */
static void test_comm_free(void) {
  Slot sl[2 * SET];
  for (int rep = 0; rep < 2; ++rep) {
    snprintf(ctx, sizeof ctx, "MPI_Comm_free with sets pending, repetition %d", rep);
    MPI_Comm a, b;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 3, me, &b));
    start_set(a, 7000 + rep, rep, sl);
    start_set(b, 8000 + rep, rep, sl + SET);
    if (t_comm_free_late) complete_all(sl, 2 * SET, rep * 3, 400u + (uint32_t)rep);
    CHECK_MPI(MPI_Comm_free(&a));
    EXPECT(a == MPI_COMM_NULL, "%s: MPI_Comm_free did not set MPI_COMM_NULL", ctx);
    CHECK_MPI(MPI_Comm_free(&b));
    EXPECT(b == MPI_COMM_NULL, "%s: MPI_Comm_free did not set MPI_COMM_NULL", ctx);
    if (!t_comm_free_late) complete_all(sl, 2 * SET, rep * 3, 400u + (uint32_t)rep);
    check_all(sl, 2 * SET);
  }
}

/* ---- 8: a non-commutative user op ---- */
typedef struct {
  int m[4]; /* row major: m00 m01 m10 m11 */
} Mat;
static MPI_Datatype g_mat;
static long g_user_calls, g_bad_dt;
/* inout = in x inout: in holds the lower ranks' contribution */
static void mat_fn(void* in, void* inout, int* len, MPI_Datatype* dt) {
  ++g_user_calls;
  if (*dt != g_mat) ++g_bad_dt;
  mat_op(in, inout, *len);
}
enum { MAT_TAG = 50 }; /* the data set of mat_of/mat_prod */
static void mat_slot(Slot* s, long nmat, int has_send, int cr, int it) {
  s->n = 4 * nmat;
  if (has_send) {
    s->s = ints(4 * nmat);
    for (long i = 0; i < nmat; ++i) memcpy(s->s + 4 * i, mat_of(MAT_TAG, cr, i, it), sizeof(Mat));
  }
  s->r = ints(4 * nmat);
}
static void mat_want(Slot* s, long nmat, long first, int r0, int r1, int it) {
  s->w = ints(4 * nmat);
  for (long i = 0; i < nmat; ++i) mat_prod(MAT_TAG, r0, r1, first + i, it, s->w + 4 * i);
}
static void test_noncommutative(MPI_Comm comm, const char* cname, int it) {
  int cr, cn;
  CHECK_MPI(MPI_Comm_rank(comm, &cr));
  CHECK_MPI(MPI_Comm_size(comm, &cn));
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(mat_fn, 0, &op));
  int commute = -1;
  CHECK_MPI(MPI_Op_commutative(op, &commute));
  EXPECT(commute == 0, "MPI_Op_commutative: %d", commute);
  const int nslots = cn + 8;
  Slot* sl = calloc((size_t)nslots, sizeof(Slot));
  CHECK(sl != NULL, "calloc");
  snprintf(ctx, sizeof ctx, "non-commutative matrix op on %s, iteration %d", cname, it);
  enum { NM = 7 };
  int k = 0;
  for (int root = 0; root < cn; ++root, ++k) { /* Ireduce at every root, all in flight */
    Slot* s = &sl[k];
    snprintf(s->what, sizeof s->what, "MPI_Ireduce root %d", root);
    mat_slot(s, NM, 1, cr, it + root);
    if (cr == root) mat_want(s, NM, 0, 0, cn, it + root);
    CHECK_MPI(MPI_Ireduce(s->s, cr == root ? s->r : NULL, NM, g_mat, op, root, comm, &s->req));
  }
  Slot* s = &sl[k++];
  snprintf(s->what, sizeof s->what, "MPI_Iallreduce");
  mat_slot(s, NM, 1, cr, it + 100), mat_want(s, NM, 0, 0, cn, it + 100);
  CHECK_MPI(MPI_Iallreduce(s->s, s->r, NM, g_mat, op, comm, &s->req));
  s = &sl[k++];
  snprintf(s->what, sizeof s->what, "MPI_Iallreduce in place");
  mat_slot(s, NM, 1, cr, it + 101), mat_want(s, NM, 0, 0, cn, it + 101);
  memcpy(s->r, s->s, sizeof(Mat) * NM);
  CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, s->r, NM, g_mat, op, comm, &s->req));
  s = &sl[k++];
  snprintf(s->what, sizeof s->what, "MPI_Iscan");
  mat_slot(s, NM, 1, cr, it + 102), mat_want(s, NM, 0, 0, cr + 1, it + 102);
  CHECK_MPI(MPI_Iscan(s->s, s->r, NM, g_mat, op, comm, &s->req));
  s = &sl[k++];
  snprintf(s->what, sizeof s->what, "MPI_Iscan in place");
  mat_slot(s, NM, 1, cr, it + 103), mat_want(s, NM, 0, 0, cr + 1, it + 103);
  memcpy(s->r, s->s, sizeof(Mat) * NM);
  CHECK_MPI(MPI_Iscan(MPI_IN_PLACE, s->r, NM, g_mat, op, comm, &s->req));
  s = &sl[k++];
  snprintf(s->what, sizeof s->what, "MPI_Iexscan");
  mat_slot(s, NM, 1, cr, it + 104);
  if (cr > 0) mat_want(s, NM, 0, 0, cr, it + 104);
  CHECK_MPI(MPI_Iexscan(s->s, s->r, NM, g_mat, op, comm, &s->req));
  s = &sl[k++];
  snprintf(s->what, sizeof s->what, "MPI_Iexscan in place");
  mat_slot(s, NM, 1, cr, it + 105);
  if (cr > 0) mat_want(s, NM, 0, 0, cr, it + 105);
  memcpy(s->r, s->s, sizeof(Mat) * NM);
  CHECK_MPI(MPI_Iexscan(MPI_IN_PLACE, s->r, NM, g_mat, op, comm, &s->req));
  { /* Ireduce_scatter: rank q gets 1 + q % 3 matrices */
    int* counts = ints(cn);
    long total = 0, first = 0;
    for (int q = 0; q < cn; ++q) {
      counts[q] = 1 + q % 3;
      if (q < cr) first += counts[q];
      total += counts[q];
    }
    s = &sl[k++];
    snprintf(s->what, sizeof s->what, "MPI_Ireduce_scatter");
    mat_slot(s, total, 1, cr, it + 106);
    mat_want(s, counts[cr], first, 0, cn, it + 106);
    s->n = 4 * counts[cr];
    CHECK_MPI(MPI_Ireduce_scatter(s->s, s->r, counts, g_mat, op, comm, &s->req));
    s = &sl[k++];
    snprintf(s->what, sizeof s->what, "MPI_Ireduce_scatter_block");
    mat_slot(s, (long)cn * 2, 1, cr, it + 107);
    mat_want(s, 2, 2L * cr, 0, cn, it + 107);
    s->n = 8;
    CHECK_MPI(MPI_Ireduce_scatter_block(s->s, s->r, 2, g_mat, op, comm, &s->req));
    complete_all(sl, k, it / 1000, (uint32_t)it); /* counts stay valid until completion */
    free(counts);
  }
  check_all(sl, k);
  free(sl);
  CHECK_MPI(MPI_Op_free(&op));
}

/* ---- 8: large calls in flight at once, the others starting late ---- */
static void test_large_late(void) {
  enum { BIG = 5 << 18, BLOCK = 1 << 18 }; /* ints: 5 MiB broadcast, 1 MiB blocks */
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  for (int rep = 0; rep < 2; ++rep) {
    snprintf(ctx, sizeof ctx, "large calls in flight, the others start after rank 0, repetition %d", rep);
    const int groot = np - 1;
    int* b = ints(BIG);
    int* b2 = ints(BIG);
    int* gs = ints(BLOCK);
    int* gr = me == groot ? ints((long)BLOCK * np) : NULL;
    int* ss = me == 0 ? ints((long)BLOCK * np) : NULL;
    int* sr = ints(BLOCK);
    const long rsb = np <= 4 ? 600001 : 100003; /* ints per Reduce_scatter_block block */
    int* rs = ints(rsb * np);
    int* rr = ints(rsb);
    int* rr2 = ints(rsb);
    for (long i = 0; i < rsb * np; ++i) rs[i] = vs(45, me, i, rep);
    for (long i = 0; i < BIG; ++i) b[i] = me == 0 ? vf(40, 0, 0, i, rep) : -1;
    for (long i = 0; i < BIG; ++i) b2[i] = me == groot ? vf(44, groot, 0, i, rep) : rep;
    for (long i = 0; i < BLOCK; ++i) gs[i] = vf(41, me, 0, i, rep), sr[i] = -1;
    if (ss)
      for (long i = 0; i < (long)BLOCK * np; ++i) ss[i] = vf(42, (int)(i / BLOCK), 0, i % BLOCK, rep);
    int token = 0;
    if (me != 0) CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    long bad = -1;
    MPI_Request rq[5];
    CHECK_MPI(MPI_Ibcast(b, BIG, MPI_INT, 0, comm, &rq[0]));
    CHECK_MPI(MPI_Igather(gs, BLOCK, MPI_INT, gr, BLOCK, MPI_INT, groot, comm, &rq[1]));
    CHECK_MPI(MPI_Iscatter(ss, BLOCK, MPI_INT, sr, BLOCK, MPI_INT, 0, comm, &rq[2]));
    if (me == 0)
      for (int r = 1; r < np; ++r) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, r, 40, MPI_COMM_WORLD));
    rq[3] = MPI_REQUEST_NULL;
    if (rep == 1) CHECK_MPI(MPI_Ibcast(b2, BIG, MPI_INT, groot, comm, &rq[3]));
    CHECK_MPI(MPI_Ireduce_scatter_block(rs, rr, (int)rsb, MPI_INT, MPI_SUM, comm, &rq[4]));
    /* a large blocking Allreduce while they are still in flight */
    double* ad = malloc((size_t)BLOCK * sizeof(double));
    double* ar = malloc((size_t)BLOCK * sizeof(double));
    CHECK(ad != NULL && ar != NULL, "malloc");
    for (long i = 0; i < BLOCK; ++i) ad[i] = (double)(vf(43, me, 0, i, rep) % 1000);
    CHECK_MPI(MPI_Allreduce(ad, ar, BLOCK, MPI_DOUBLE, MPI_SUM, comm));
    CHECK_MPI(MPI_Reduce_scatter_block(rs, rr2, (int)rsb, MPI_INT, MPI_SUM, comm));
    CHECK_MPI(MPI_Waitall(5, rq, STATUSES_IGNORE));
    for (long i = 0; i < rsb && bad < 0; ++i) {
      int want = 0;
      for (int r = 0; r < np; ++r) want += vs(45, r, me * rsb + i, rep);
      if (rr[i] != want) bad = i;
      else if (rr2[i] != want) bad = rsb + i;
    }
    CHECK(bad < 0, "%s: MPI_%sReduce_scatter_block: int %ld is %d", ctx, bad < rsb ? "I" : "", bad % rsb,
          bad < rsb ? rr[bad] : rr2[bad % rsb]);
    nchecks += 2 * rsb;
    free(rs), free(rr), free(rr2);
    for (long i = 0; i < BLOCK && bad < 0; ++i) {
      double want = 0;
      for (int r = 0; r < np; ++r) want += (double)(vf(43, r, 0, i, rep) % 1000);
      if (ar[i] != want) bad = i;
    }
    CHECK(bad < 0, "%s: MPI_Allreduce: double %ld is %g", ctx, bad, ar[bad]);
    nchecks += BLOCK;
    free(ad), free(ar);
    for (long i = 0; i < BIG && bad < 0; ++i)
      if (b[i] != vf(40, 0, 0, i, rep)) bad = i;
    CHECK(bad < 0, "%s: MPI_Ibcast: int %ld is %d", ctx, bad, b[bad]);
    for (long i = 0; i < BIG && bad < 0; ++i)
      if (b2[i] != (me == groot || rep == 1 ? vf(44, groot, 0, i, rep) : rep)) bad = i;
    CHECK(bad < 0, "%s: MPI_Ibcast from rank %d: int %ld is %d", ctx, groot, bad, b2[bad]);
    for (long i = 0; i < BLOCK && bad < 0; ++i)
      if (sr[i] != vf(42, me, 0, i, rep)) bad = i;
    CHECK(bad < 0, "%s: MPI_Iscatter: int %ld is %d", ctx, bad, sr[bad]);
    if (gr)
      for (long i = 0; i < (long)BLOCK * np && bad < 0; ++i)
        if (gr[i] != vf(41, (int)(i / BLOCK), 0, i % BLOCK, rep)) bad = i;
    CHECK(bad < 0, "%s: MPI_Igather at the root: int %ld is %d", ctx, bad, gr[bad]);
    nchecks += 2L * BIG + BLOCK + (gr ? (long)BLOCK * np : 0);
    free(b), free(b2), free(gs), free(gr), free(ss), free(sr);
  }
  CHECK_MPI(MPI_Comm_free(&comm));
}

/* Two large MPI_Ireduce_scatter_block in flight, polled with MPI_Test, then waited for in
 * reverse order (shmpi: the first streams every member its block, interleaved and in
 * step with its fold on its task, while the second finds the ring busy and exposes;
 * three ranks on two cores expose both). */
static void test_large_rsb(void) {
  const long n = np <= 4 ? 300007 : 100003; /* ints per block: the blocks pass a 2 MiB ring */
  int* s[2];
  int* r[2];
  MPI_Request q[2];
  for (int c = 0; c < 2; ++c) {
    s[c] = ints(n * np);
    r[c] = ints(n);
    for (long i = 0; i < n * np; ++i) s[c][i] = vs(46 + c, me, i, 0);
    for (long i = 0; i < n; ++i) r[c][i] = -1;
    CHECK_MPI(MPI_Ireduce_scatter_block(s[c], r[c], (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[c]));
  }
  int flag = 0;
  for (int i = 0; i < 100 && !flag; ++i) CHECK_MPI(MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
  for (int c = 0; c < 2; ++c) {
    long bad = -1;
    for (long i = 0; i < n && bad < 0; ++i) {
      int want = 0;
      for (int k = 0; k < np; ++k) want += vs(46 + c, k, me * n + i, 0);
      if (r[c][i] != want) bad = i;
    }
    CHECK(bad < 0, "two large MPI_Ireduce_scatter_block in flight: call %d: int %ld is %d", c, bad,
          bad < 0 ? 0 : r[c][bad]);
    nchecks += n;
    free(s[c]), free(r[c]);
  }
}

/* A large MPI_Iscan and MPI_Iexscan in flight, then a blocking MPI_Scan of the same
 * size, the requests waited for afterwards in reverse order (shmpi: chains, each member
 * waiting on its task for the one before it; a member whose ring is busy exposes).
 * 1 MiB of ints each. */
static void test_large_scan(void) {
  const long n = 262147;
  int* s[3];
  int* r[3];
  MPI_Request q[2];
  for (int c = 0; c < 3; ++c) {
    s[c] = ints(n);
    r[c] = ints(n);
    for (long i = 0; i < n; ++i) s[c][i] = vs(48 + c, me, i, 0), r[c][i] = -1;
  }
  CHECK_MPI(MPI_Iscan(s[0], r[0], (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[0]));
  CHECK_MPI(MPI_Iexscan(s[1], r[1], (int)n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &q[1]));
  CHECK_MPI(MPI_Scan(s[2], r[2], (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
  for (int c = 0; c < 3; ++c) {
    if (c == 1 && me == 0) continue; /* Iexscan: rank 0's result is undefined */
    long bad = -1;
    for (long i = 0; i < n && bad < 0; ++i) {
      int want = c == 1 ? INT_MIN : 0;
      for (int k = 0; k < (c == 1 ? me : me + 1); ++k) {
        const int v = vs(48 + c, k, i, 0);
        want = c == 1 ? (v > want ? v : want) : want + v;
      }
      if (r[c][i] != want) bad = i;
    }
    CHECK(bad < 0, "large MPI_Iscan, MPI_Iexscan and MPI_Scan in flight: call %d: int %ld is %d", c, bad,
          bad < 0 ? 0 : r[c][bad]);
    nchecks += n;
  }
  for (int c = 0; c < 3; ++c) free(s[c]), free(r[c]);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  t_comm_free_late = getenv("NBC_MIXED_COMM_FREE_PENDING_CRASHES") != NULL;
  test_set_world();
  test_many();
  test_interleave();
  test_three_comms();
  test_p2p();
  test_rma();
  test_comm_free();
  test_large_late();
  test_large_rsb();
  test_large_scan();
  {
    const int bl[1] = {4};
    const MPI_Aint d[1] = {0};
    const MPI_Datatype ty[1] = {MPI_INT};
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_struct(1, bl, d, ty, &t));
    CHECK_MPI(MPI_Type_create_resized(t, 0, sizeof(Mat), &g_mat));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_commit(&g_mat));
    MPI_Comm rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &rev)); /* all ranks, reversed */
    for (int rep = 0; rep < 2; ++rep) {
      test_noncommutative(MPI_COMM_WORLD, "MPI_COMM_WORLD", 10000 + 1000 * rep);
      test_noncommutative(rev, "reversed split", 20000 + 1000 * rep);
    }
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Type_free(&g_mat));
    EXPECT(g_bad_dt == 0, "the user function got a datatype other than the one passed (%ld times)", g_bad_dt);
    expect_user_fn_ran(g_user_calls, "the user function never ran");
  }
  coll_finish("nbc_mixed");
  return 0;
}
