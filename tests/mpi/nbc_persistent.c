/* nbc_persistent: MPI-4 persistent collectives (MPI-4.1 Persistent Collective
 * Operations: MPI_Barrier_init ... MPI_Exscan_init, started with MPI_Start/MPI_Startall,
 * freed with MPI_Request_free).
 *
 * Each of the 17 persistent collectives is initialized once on MPI_COMM_WORLD (with
 * MPI_INFO_NULL) and started N times (N = 1000, 100 at more than 2 ranks; an argument
 * overrides it). Before each start the send buffers get new data that depend on the
 * iteration, the rank and the position (a persistent operation reads its buffers at each
 * start) and receive buffers are reset to a sentinel; after completion the whole receive
 * buffer (gaps between segments and holes of the derived datatype included) must equal
 * the expected image and send buffers must be unchanged. The request stays allocated
 * (inactive) between starts; MPI_Test on an inactive persistent request returns flag =
 * true at once. Completion rotates over MPI_Wait, MPI_Test loops, MPI_Waitall and
 * MPI_Testall; starts over MPI_Start and MPI_Startall of one request.
 * Covered: every root-taking call at a root other than 0 where there is one (np - 1),
 * Scatter(v)/Gather(v) with MPI_IN_PLACE at the root on every other call kind, Allgather
 * and Scan in place, v-variants with non-monotone displacements and gaps, Alltoallw
 * receiving into a strided vector type at byte displacements, reductions with MPI_SUM
 * on small ints (exact) and MPI_MAX; a persistent MPI_Allreduce_init with a
 * non-commutative user op (2x2 int matrix product, the result must be the rank-order
 * product). Then MPI_Startall over all 18 requests at once (same array order on every
 * rank), N / 10 times with new data, completed with MPI_Waitall. Finally every request
 * is released with MPI_Request_free (which must set it to MPI_REQUEST_NULL).
 * Point-to-point is not used. Prints "nbc_persistent: OK (N checks)" on rank 0.
 *
 * Peer toggle (set by tests/peer/run_nbc_peer.sh; Open MPI 4.1.4 has no persistent
 * collectives and is skipped):
 *   NBC_PERSISTENT_TESTALL_ERR_IN_STATUS  MPICH 4.0.2: MPI_Testall on a started
 *       persistent collective request (MPI_Barrier_init, MPI_Allreduce_init, ...) returns
 *       MPI_ERR_IN_STATUS while the status' MPI_ERROR is MPI_SUCCESS (the standard
 *       returns MPI_ERR_IN_STATUS only when some request failed); those completions then
 *       use an MPI_Test loop (MPI_Waitall, MPI_Wait and MPI_Test are right).
 *   NBC_PERSISTENT_SCATTER_GATHER_ALLGATHER_BROKEN  MPICH 4.0.2: MPI_Gather_init sends
 *       what the send buffers held at MPI_Gather_init time and never copies the root's
 *       own block (1 rank included); MPI_Scatter_init (in place at the root) delivers to
 *       non-roots only at the first start; MPI_Allgather_init in place delivers only at
 *       the first start. MPI-4.1 (Persistent Collective Operations): each start behaves
 *       as the nonblocking call on the buffers' current contents. These three requests
 *       are then created and freed but never started.
 * Usage: nbc_persistent [N] */
#include <stdint.h>
#include <string.h>

#include "coll_util.h"

static char ctx[200];
static int t_testall_in_status, t_skip_gsa; /* peer toggles, see the header */
static int skipped(int c) { return t_skip_gsa && (c == 2 || c == 4 || c == 6); } /* Scatter, Gather, Allgather */

enum { K = 5 };
enum { C_BARRIER, C_BCAST, C_SCATTER, C_SCATTERV, C_GATHER, C_GATHERV, C_ALLGATHER, C_ALLGATHERV, C_ALLTOALL,
       C_ALLTOALLV, C_ALLTOALLW, C_REDUCE, C_ALLREDUCE, C_RS, C_RSB, C_SCAN, C_EXSCAN, C_USER, NP };
static const char* const pname[NP] = {
    "MPI_Barrier_init",   "MPI_Bcast_init",     "MPI_Scatter_init",  "MPI_Scatterv_init",
    "MPI_Gather_init",    "MPI_Gatherv_init",   "MPI_Allgather_init", "MPI_Allgatherv_init",
    "MPI_Alltoall_init",  "MPI_Alltoallv_init", "MPI_Alltoallw_init", "MPI_Reduce_init",
    "MPI_Allreduce_init", "MPI_Reduce_scatter_init", "MPI_Reduce_scatter_block_init", "MPI_Scan_init",
    "MPI_Exscan_init",    "MPI_Allreduce_init (non-commutative user op)"};

typedef struct {
  MPI_Request req;
  int *s, *r, *w, *sw; /* send, receive, expected receive, expected send image */
  long ns, nr;
  int *c1, *d1, *c2, *d2; /* counts and displacements */
  MPI_Datatype *t1, *t2;
  int inplace;
} P;
static P ps[NP];
static int root;
static MPI_Datatype g_vec, g_mat; /* vector(K,1,2,int); 4 ints */
static MPI_Op g_matop;
static long g_user_calls;

/* ---- the non-commutative op ---- */
static void mat_fn(void* in, void* inout, int* len, MPI_Datatype* dt) {
  (void)dt;
  ++g_user_calls;
  mat_op(in, inout, *len);
}

/* non-monotone displacements with gaps for counts c (reverse rank order, one int of gap
 * after odd ranks); returns the end */
static long displs_for(const int* c, int* d) {
  long cur = 1;
  for (int q = np - 1; q >= 0; --q) {
    d[q] = (int)cur;
    cur += c[q] + q % 2;
  }
  return cur;
}

static void init_all(void) {
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info in = MPI_INFO_NULL;
  root = np - 1;
  for (int c = 0; c < NP; ++c) {
    P* p = &ps[c];
    memset(p, 0, sizeof *p);
    p->c1 = ints(np), p->d1 = ints(np), p->c2 = ints(np), p->d2 = ints(np);
    snprintf(ctx, sizeof ctx, "%s", pname[c]);
    switch (c) {
      case C_BARRIER: CHECK_MPI(MPI_Barrier_init(w, in, &p->req)); break;
      case C_BCAST:
        p->nr = K, p->r = ints(K);
        CHECK_MPI(MPI_Bcast_init(p->r, K, MPI_INT, root, w, in, &p->req));
        break;
      case C_SCATTER: /* root: in place */
        p->inplace = 1;
        if (me == root) p->ns = (long)np * K, p->s = ints(p->ns);
        else p->nr = K, p->r = ints(K);
        CHECK_MPI(MPI_Scatter_init(p->s, K, MPI_INT, me == root ? MPI_IN_PLACE : p->r, K, MPI_INT, root, w, in, &p->req));
        break;
      case C_SCATTERV:
        for (int q = 0; q < np; ++q) p->c1[q] = 1 + (q + 1) % 3 * 2;
        if (me == root) p->ns = displs_for(p->c1, p->d1), p->s = ints(p->ns);
        displs_for(p->c1, p->d1);
        p->nr = p->c1[me], p->r = ints(p->nr);
        CHECK_MPI(MPI_Scatterv_init(p->s, p->c1, p->d1, MPI_INT, p->r, (int)p->nr, MPI_INT, root, w, in, &p->req));
        break;
      case C_GATHER:
        p->ns = K, p->s = ints(K);
        if (me == root) p->nr = (long)np * K, p->r = ints(p->nr);
        CHECK_MPI(MPI_Gather_init(p->s, K, MPI_INT, p->r, K, MPI_INT, root, w, in, &p->req));
        break;
      case C_GATHERV: /* root: in place */
        p->inplace = 1;
        for (int q = 0; q < np; ++q) p->c1[q] = q % 3 == 1 ? 0 : 2 + q % 4;
        displs_for(p->c1, p->d1);
        if (me == root) p->nr = displs_for(p->c1, p->d1), p->r = ints(p->nr);
        else p->ns = p->c1[me], p->s = ints(p->ns);
        CHECK_MPI(MPI_Gatherv_init(me == root ? MPI_IN_PLACE : p->s, (int)p->ns, MPI_INT, p->r, p->c1, p->d1, MPI_INT,
                                   root, w, in, &p->req));
        break;
      case C_ALLGATHER: /* in place */
        p->inplace = 1;
        p->nr = (long)np * K, p->r = ints(p->nr);
        CHECK_MPI(MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, p->r, K, MPI_INT, w, in, &p->req));
        break;
      case C_ALLGATHERV:
        for (int q = 0; q < np; ++q) p->c1[q] = 1 + q % 4;
        p->nr = displs_for(p->c1, p->d1), p->r = ints(p->nr);
        p->ns = p->c1[me], p->s = ints(p->ns);
        CHECK_MPI(MPI_Allgatherv_init(p->s, (int)p->ns, MPI_INT, p->r, p->c1, p->d1, MPI_INT, w, in, &p->req));
        break;
      case C_ALLTOALL:
        p->ns = p->nr = (long)np * K, p->s = ints(p->ns), p->r = ints(p->nr);
        CHECK_MPI(MPI_Alltoall_init(p->s, K, MPI_INT, p->r, K, MPI_INT, w, in, &p->req));
        break;
      case C_ALLTOALLV:
        for (int q = 0; q < np; ++q) p->c1[q] = (me + 2 * q) % 3, p->c2[q] = (q + 2 * me) % 3;
        p->ns = displs_for(p->c1, p->d1), p->s = ints(p->ns);
        p->nr = displs_for(p->c2, p->d2), p->r = ints(p->nr);
        CHECK_MPI(MPI_Alltoallv_init(p->s, p->c1, p->d1, MPI_INT, p->r, p->c2, p->d2, MPI_INT, w, in, &p->req));
        break;
      case C_ALLTOALLW: /* send K ints to each, receive one vector(K,1,2,int) from each at byte displs */
        p->t1 = malloc((size_t)np * sizeof(MPI_Datatype));
        p->t2 = malloc((size_t)np * sizeof(MPI_Datatype));
        CHECK(p->t1 && p->t2, "malloc");
        p->ns = (long)np * K + 1, p->s = ints(p->ns);
        p->nr = (long)np * 2 * K + 1, p->r = ints(p->nr);
        for (int q = 0; q < np; ++q) {
          p->c1[q] = K, p->d1[q] = (int)(sizeof(int) * (size_t)(1 + (np - 1 - q) * K)), p->t1[q] = MPI_INT;
          p->c2[q] = 1, p->d2[q] = (int)(sizeof(int) * (size_t)(1 + q * 2 * K)), p->t2[q] = g_vec;
        }
        CHECK_MPI(MPI_Alltoallw_init(p->s, p->c1, p->d1, p->t1, p->r, p->c2, p->d2, p->t2, w, in, &p->req));
        break;
      case C_REDUCE:
        p->ns = K, p->s = ints(K);
        if (me == root) p->nr = K, p->r = ints(K);
        CHECK_MPI(MPI_Reduce_init(p->s, p->r, K, MPI_INT, MPI_SUM, root, w, in, &p->req));
        break;
      case C_ALLREDUCE:
        p->ns = p->nr = K, p->s = ints(K), p->r = ints(K);
        CHECK_MPI(MPI_Allreduce_init(p->s, p->r, K, MPI_INT, MPI_MAX, w, in, &p->req));
        break;
      case C_RS: {
        long tot = 0;
        for (int q = 0; q < np; ++q) p->c1[q] = 1 + q % 2, tot += p->c1[q];
        p->ns = tot, p->s = ints(tot), p->nr = p->c1[me], p->r = ints(p->nr);
        CHECK_MPI(MPI_Reduce_scatter_init(p->s, p->r, p->c1, MPI_INT, MPI_SUM, w, in, &p->req));
        break;
      }
      case C_RSB:
        p->ns = (long)np * K, p->s = ints(p->ns), p->nr = K, p->r = ints(K);
        CHECK_MPI(MPI_Reduce_scatter_block_init(p->s, p->r, K, MPI_INT, MPI_SUM, w, in, &p->req));
        break;
      case C_SCAN: /* in place */
        p->inplace = 1;
        p->nr = K, p->r = ints(K);
        CHECK_MPI(MPI_Scan_init(MPI_IN_PLACE, p->r, K, MPI_INT, MPI_SUM, w, in, &p->req));
        break;
      case C_EXSCAN:
        p->ns = p->nr = K, p->s = ints(K), p->r = ints(K);
        CHECK_MPI(MPI_Exscan_init(p->s, p->r, K, MPI_INT, MPI_MAX, w, in, &p->req));
        break;
      case C_USER:
        p->ns = p->nr = 4 * 3, p->s = ints(p->ns), p->r = ints(p->nr);
        CHECK_MPI(MPI_Allreduce_init(p->s, p->r, 3, g_mat, g_matop, w, in, &p->req));
        break;
    }
    EXPECT(p->req != MPI_REQUEST_NULL, "%s returned MPI_REQUEST_NULL", pname[c]);
    p->w = ints(p->nr);
    p->sw = ints(p->ns);
  }
}

/* Writes iteration it's send data, resets receive buffers and computes the expected image. */
static void fill(int c, int it) {
  P* p = &ps[c];
  for (long i = 0; i < p->nr; ++i) p->r[i] = p->w[i] = SENT;
  const int tag = c + 1;
  switch (c) {
    case C_BARRIER: break;
    case C_BCAST:
      for (int i = 0; i < K; ++i) {
        p->w[i] = vf(tag, root, 0, i, it);
        if (me == root) p->r[i] = p->w[i];
      }
      break;
    case C_SCATTER:
      if (me == root) /* in place: the root's own segment is left where it is */
        for (int q = 0; q < np; ++q)
          for (int i = 0; i < K; ++i) p->s[q * K + i] = vf(tag, root, q, i, it);
      else
        for (int i = 0; i < K; ++i) p->w[i] = vf(tag, root, me, i, it);
      break;
    case C_SCATTERV:
      if (me == root)
        for (int q = 0; q < np; ++q)
          for (int i = 0; i < p->c1[q]; ++i) p->s[p->d1[q] + i] = vf(tag, root, q, i, it);
      for (int i = 0; i < p->c1[me]; ++i) p->w[i] = vf(tag, root, me, i, it);
      break;
    case C_GATHER:
      for (int i = 0; i < K; ++i) p->s[i] = vf(tag, me, root, i, it);
      if (me == root)
        for (int q = 0; q < np; ++q)
          for (int i = 0; i < K; ++i) p->w[q * K + i] = vf(tag, q, root, i, it);
      break;
    case C_GATHERV:
      if (me == root) {
        for (int q = 0; q < np; ++q)
          for (int i = 0; i < p->c1[q]; ++i) p->w[p->d1[q] + i] = vf(tag, q, root, i, it);
        for (int i = 0; i < p->c1[me]; ++i) p->r[p->d1[me] + i] = p->w[p->d1[me] + i]; /* in place */
      } else {
        for (int i = 0; i < p->c1[me]; ++i) p->s[i] = vf(tag, me, root, i, it);
      }
      break;
    case C_ALLGATHER:
      for (int q = 0; q < np; ++q)
        for (int i = 0; i < K; ++i) p->w[q * K + i] = vf(tag, q, 0, i, it);
      for (int i = 0; i < K; ++i) p->r[me * K + i] = p->w[me * K + i];
      break;
    case C_ALLGATHERV:
      for (int i = 0; i < p->c1[me]; ++i) p->s[i] = vf(tag, me, 0, i, it);
      for (int q = 0; q < np; ++q)
        for (int i = 0; i < p->c1[q]; ++i) p->w[p->d1[q] + i] = vf(tag, q, 0, i, it);
      break;
    case C_ALLTOALL:
      for (int q = 0; q < np; ++q)
        for (int i = 0; i < K; ++i) {
          p->s[q * K + i] = vf(tag, me, q, i, it);
          p->w[q * K + i] = vf(tag, q, me, i, it);
        }
      break;
    case C_ALLTOALLV:
      for (int q = 0; q < np; ++q) {
        for (int i = 0; i < p->c1[q]; ++i) p->s[p->d1[q] + i] = vf(tag, me, q, i, it);
        for (int i = 0; i < p->c2[q]; ++i) p->w[p->d2[q] + i] = vf(tag, q, me, i, it);
      }
      break;
    case C_ALLTOALLW:
      for (int q = 0; q < np; ++q)
        for (int i = 0; i < K; ++i) {
          p->s[p->d1[q] / 4 + i] = vf(tag, me, q, i, it);
          p->w[p->d2[q] / 4 + 2 * i] = vf(tag, q, me, i, it); /* every other int: the vector type */
        }
      break;
    case C_REDUCE:
    case C_RS:
    case C_RSB:
    case C_SCAN: { /* MPI_SUM */
      const int in_place = c == C_SCAN;
      int* src = in_place ? p->r : p->s;
      const long n = in_place ? p->nr : p->ns;
      for (long i = 0; i < n; ++i) src[i] = vs(tag, me, i, it);
      long first = 0, cnt = K, hi = np;
      if (c == C_RS)
        for (int q = 0; q < me; ++q) first += p->c1[q];
      if (c == C_RS) cnt = p->c1[me];
      if (c == C_RSB) first = (long)me * K;
      if (c == C_SCAN) hi = me + 1;
      if (c == C_REDUCE && me != root) cnt = 0;
      for (long i = 0; i < cnt; ++i) {
        int acc = 0;
        for (int q = 0; q < hi; ++q) acc += vs(tag, q, first + i, it);
        p->w[i] = acc;
      }
      break;
    }
    case C_ALLREDUCE:
    case C_EXSCAN: /* MPI_MAX */
      for (int i = 0; i < K; ++i) {
        p->s[i] = vf(tag, me, 0, i, it);
        const int hi = c == C_EXSCAN ? me : np;
        if (hi == 0) continue;
        int acc = vf(tag, 0, 0, i, it);
        for (int q = 1; q < hi; ++q)
          if (vf(tag, q, 0, i, it) > acc) acc = vf(tag, q, 0, i, it);
        p->w[i] = acc;
      }
      break;
    case C_USER:
      for (int i = 0; i < 3; ++i) {
        memcpy(p->s + 4 * i, mat_of(tag, me, i, it), 4 * sizeof(int));
        mat_prod(tag, 0, np, i, it, p->w + 4 * i);
      }
      break;
  }
  if (p->ns > 0) memcpy(p->sw, p->s, (size_t)p->ns * sizeof(int));
}

static void check(int c, int it) {
  P* p = &ps[c];
  if (c == C_EXSCAN && me == 0) memcpy(p->w, p->r, (size_t)p->nr * sizeof(int)); /* undefined on rank 0 */
  for (long i = 0; i < p->nr; ++i)
    if (p->r[i] != p->w[i])
      CHECK(0, "%s, start %d: receive buffer int %ld of %ld is %d, want %d", pname[c], it, i, p->nr, p->r[i], p->w[i]);
  for (long i = 0; i < p->ns; ++i)
    if (p->s[i] != p->sw[i])
      CHECK(0, "%s, start %d: send buffer int %ld changed to %d (was %d)", pname[c], it, i, p->s[i], p->sw[i]);
  nchecks += p->nr + 1;
  EXPECT(p->req != MPI_REQUEST_NULL, "%s, start %d: the persistent request was freed by its completion", pname[c], it);
}

static void start_one(int c, int it) {
  if (it % 2 == 0) CHECK_MPI(MPI_Start(&ps[c].req));
  else CHECK_MPI(MPI_Startall(1, &ps[c].req));
}

static void complete_one(int c, int it) {
  P* p = &ps[c];
  int flag = 0;
  const double t0 = MPI_Wtime();
  switch (it % 4) {
    case 0: CHECK_MPI(MPI_Wait(&p->req, MPI_STATUS_IGNORE)); break;
    case 1:
      while (!flag) {
        CHECK_MPI(MPI_Test(&p->req, &flag, MPI_STATUS_IGNORE));
        CHECK(MPI_Wtime() - t0 < 60, "%s, start %d: MPI_Test not done after 60 s", pname[c], it);
      }
      break;
    case 2: CHECK_MPI(MPI_Waitall(1, &p->req, STATUSES_IGNORE)); break;
    default:
      while (!flag) {
        if (t_testall_in_status) CHECK_MPI(MPI_Test(&p->req, &flag, MPI_STATUS_IGNORE));
        else CHECK_MPI(MPI_Testall(1, &p->req, &flag, STATUSES_IGNORE));
        CHECK(MPI_Wtime() - t0 < 60, "%s, start %d: MPI_Testall not done after 60 s", pname[c], it);
      }
      break;
  }
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  t_testall_in_status = getenv("NBC_PERSISTENT_TESTALL_ERR_IN_STATUS") != NULL;
  t_skip_gsa = getenv("NBC_PERSISTENT_SCATTER_GATHER_ALLGATHER_BROKEN") != NULL;
  int n = np > 2 ? 100 : 1000; /* MPICH busy-polls: 4 and 8 ranks on 2 cores are slow */
  if (argc > 1) n = atoi(argv[1]);
  CHECK(n >= 10, "N must be at least 10");
  CHECK_MPI(MPI_Type_vector(K, 1, 2, MPI_INT, &g_vec));
  CHECK_MPI(MPI_Type_commit(&g_vec));
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &g_mat));
  CHECK_MPI(MPI_Type_commit(&g_mat));
  CHECK_MPI(MPI_Op_create(mat_fn, 0, &g_matop));
  init_all();
  /* each persistent collective on its own, n starts */
  for (int c = 0; c < NP; ++c) {
    if (skipped(c)) continue;
    for (int it = 0; it < n; ++it) {
      fill(c, it);
      start_one(c, it);
      complete_one(c, it);
      check(c, it);
      if (it == 0) { /* an inactive persistent request: MPI_Test returns flag = true at once */
        int flag = 0;
        CHECK_MPI(MPI_Test(&ps[c].req, &flag, MPI_STATUS_IGNORE));
        EXPECT(flag && ps[c].req != MPI_REQUEST_NULL, "%s: MPI_Test on the inactive request: flag %d", pname[c], flag);
      }
    }
  }
  /* all of them at once with MPI_Startall, same order everywhere */
  MPI_Request all[NP];
  for (int rep = 0; rep < n / 10; ++rep) {
    const int it = n + rep;
    int m = 0, which[NP];
    for (int c = 0; c < NP; ++c)
      if (!skipped(c)) fill(c, it), which[m] = c, all[m++] = ps[c].req;
    CHECK_MPI(MPI_Startall(m, all));
    CHECK_MPI(MPI_Waitall(m, all, STATUSES_IGNORE));
    for (int k = 0; k < m; ++k) {
      EXPECT(all[k] == ps[which[k]].req, "MPI_Waitall changed the persistent request of %s", pname[which[k]]);
      check(which[k], it);
    }
  }
  for (int c = 0; c < NP; ++c) {
    P* p = &ps[c];
    CHECK_MPI(MPI_Request_free(&p->req));
    EXPECT(p->req == MPI_REQUEST_NULL, "MPI_Request_free of %s did not set MPI_REQUEST_NULL", pname[c]);
    free(p->s), free(p->r), free(p->w), free(p->sw), free(p->c1), free(p->d1), free(p->c2), free(p->d2);
    free(p->t1), free(p->t2);
  }
  CHECK_MPI(MPI_Op_free(&g_matop));
  CHECK_MPI(MPI_Type_free(&g_vec));
  CHECK_MPI(MPI_Type_free(&g_mat));
  expect_user_fn_ran(g_user_calls, "the user function never ran");
  coll_finish("nbc_persistent");
  return 0;
}
