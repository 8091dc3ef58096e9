/* nbc_issue_order: a nonblocking collective call returns without waiting for the other
 * members (MPI-4.1 6.12: "calls to nonblocking collective operations ... are local and
 * return immediately, irrespective of the status of other processes"), whether or not
 * the others have already entered the call, and the result is right either way.
 *
 * Ranks enter each call one at a time: the first rank of an order issues the call, then
 * passes a token (MPI_Send) to the next, which issues it only once it has the token, and
 * so on; everyone then completes the request. A call that waited for a later rank inside
 * MPI_Ixxx would never return (a watchdog alarm fails the test after LIMIT_S seconds
 * instead of a hang). Each rank thus issues its call both before any other member entered
 * it and after all the others had (an implementation that completes a call at issue
 * when it need not wait takes that path here, a task path otherwise).
 *
 * Covered: all 17 nonblocking collectives (v- and w-variants with per-rank counts and
 * non-monotone displacements), each at 0, 1, 100 and 20000 ints per rank and block (the
 * last larger than a staging slot, so data is read from the writer's memory), roots 0
 * and np-1, orders ascending, descending and root last; and, with MPI 4, the persistent
 * MPI_Bcast_init/MPI_Allreduce_init/MPI_Reduce_init started in the same way; one rank
 * 100 calls ahead of the others (MPI_Ibcast root, MPI_Igather sender; with 8 KiB per
 * call, MPI_Ibcast root and MPI_Ireduce contributor), and k = 0..40 MPI_Ibcast calls
 * ahead before an MPI_Iallreduce or an MPI_Ibarrier. Every received element is checked exactly. Then requests of calls that completed at issue
 * are completed together: MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Waitsome and
 * MPI_Request_get_status over several of them (each its own request to the user).
 * Prints "nbc_issue_order: OK (N checks)" on rank 0.
 * Usage: nbc_issue_order */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_util.h"

enum { LIMIT_S = 60, TOKEN = 77 };

/* Peer toggle (set by tests/peer/run_nbc_peer.sh), as in nbc_basic.c:
 *   NBC_ISSUE_ORDER_ALLGATHERV_SELF_DISPLS_IGNORED  MPICH 4.0.2: MPI_Iallgatherv on one
 *       rank ignores displs[0]; the one-rank Iallgatherv then uses displs[0] = 0. */
static int g_self_displs_ignored;

static const char* g_what = "";
static void watchdog(int sig) {
  (void)sig;
  static const char msg[] = "FAIL nbc_issue_order: this MPI_";
  static const char tail[] = " did not return (watchdog)\n";
  ssize_t w = write(2, msg, sizeof msg - 1);
  w = write(2, g_what, strlen(g_what));
  w = write(2, tail, sizeof tail - 1);
  (void)w;
  _exit(3);
}

enum kind {
  K_BARRIER, K_BCAST, K_SCATTER, K_SCATTERV, K_GATHER, K_GATHERV, K_ALLGATHER, K_ALLGATHERV, K_ALLTOALL,
  K_ALLTOALLV, K_ALLTOALLW, K_REDUCE, K_ALLREDUCE, K_REDUCE_SCATTER, K_REDUCE_SCATTER_BLOCK, K_SCAN, K_EXSCAN,
  K_COUNT
};
static const char* const names[K_COUNT] = {
    "Ibarrier",   "Ibcast",      "Iscatter",   "Iscatterv",  "Igather",          "Igatherv",
    "Iallgather", "Iallgatherv", "Ialltoall",  "Ialltoallv", "Ialltoallw",       "Ireduce",
    "Iallreduce", "Ireduce_scatter", "Ireduce_scatter_block", "Iscan",       "Iexscan"};

/* Element i of the block rank src sends to rank dst in call `call`. */
static int val(int call, int src, int dst, long i) { return vs(call * 64 + dst, src, i, call); }

struct bufs {
  int *s, *r;                     /* send and receive buffers */
  int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Datatype *stypes, *rtypes;  /* alltoallw */
  int *wsd, *wrd;                 /* alltoallw byte displacements */
};

/* Per-rank counts of the v-variants: block n, varying by rank (some 0 when n > 0). */
static int cnt(long n, int i) { return (int)vcount(n, i); }

/* Fills the send side, presets the receive side, and issues the call. */
static void issue(enum kind k, int call, long n, int root, struct bufs* b, MPI_Request* rq) {
  const MPI_Comm w = MPI_COMM_WORLD;
  const long cap = 4 * (n + 4) * np + 8;
  for (long i = 0; i < cap; ++i) b->s[i] = b->r[i] = SENT;
  switch (k) {
    case K_BARRIER: CHECK_MPI(MPI_Ibarrier(w, rq)); break;
    case K_BCAST:
      if (me == root) for (long i = 0; i < n; ++i) b->r[i] = val(call, root, 0, i);
      CHECK_MPI(MPI_Ibcast(b->r, (int)n, MPI_INT, root, w, rq));
      break;
    case K_SCATTER:
      if (me == root) for (int d = 0; d < np; ++d) for (long i = 0; i < n; ++i) b->s[d * n + i] = val(call, root, d, i);
      CHECK_MPI(MPI_Iscatter(b->s, (int)n, MPI_INT, b->r, (int)n, MPI_INT, root, w, rq));
      break;
    case K_SCATTERV:
      for (int d = 0; d < np; ++d) b->scounts[d] = cnt(n, d);
      place_displs(b->scounts, call, b->sdispls);
      if (me == root) for (int d = 0; d < np; ++d) for (long i = 0; i < b->scounts[d]; ++i) b->s[b->sdispls[d] + i] = val(call, root, d, i);
      CHECK_MPI(MPI_Iscatterv(b->s, b->scounts, b->sdispls, MPI_INT, b->r, cnt(n, me), MPI_INT, root, w, rq));
      break;
    case K_GATHER:
      for (long i = 0; i < n; ++i) b->s[i] = val(call, me, root, i);
      CHECK_MPI(MPI_Igather(b->s, (int)n, MPI_INT, b->r, (int)n, MPI_INT, root, w, rq));
      break;
    case K_GATHERV:
      for (int d = 0; d < np; ++d) b->rcounts[d] = cnt(n, d);
      place_displs(b->rcounts, call, b->rdispls);
      for (long i = 0; i < cnt(n, me); ++i) b->s[i] = val(call, me, root, i);
      CHECK_MPI(MPI_Igatherv(b->s, cnt(n, me), MPI_INT, b->r, b->rcounts, b->rdispls, MPI_INT, root, w, rq));
      break;
    case K_ALLGATHER:
      for (long i = 0; i < n; ++i) b->s[i] = val(call, me, 0, i);
      CHECK_MPI(MPI_Iallgather(b->s, (int)n, MPI_INT, b->r, (int)n, MPI_INT, w, rq));
      break;
    case K_ALLGATHERV:
      for (int d = 0; d < np; ++d) b->rcounts[d] = cnt(n, d);
      place_displs(b->rcounts, call + 1, b->rdispls);
      if (np == 1 && g_self_displs_ignored) b->rdispls[0] = 0;
      for (long i = 0; i < cnt(n, me); ++i) b->s[i] = val(call, me, 0, i);
      CHECK_MPI(MPI_Iallgatherv(b->s, cnt(n, me), MPI_INT, b->r, b->rcounts, b->rdispls, MPI_INT, w, rq));
      break;
    case K_ALLTOALL:
      for (int d = 0; d < np; ++d) for (long i = 0; i < n; ++i) b->s[d * n + i] = val(call, me, d, i);
      CHECK_MPI(MPI_Ialltoall(b->s, (int)n, MPI_INT, b->r, (int)n, MPI_INT, w, rq));
      break;
    case K_ALLTOALLV:
    case K_ALLTOALLW:
      for (int d = 0; d < np; ++d) {
        b->scounts[d] = (int)pcount(n, me, d);
        b->rcounts[d] = (int)pcount(n, d, me);
      }
      place_displs(b->scounts, call, b->sdispls);
      place_displs(b->rcounts, call + 2, b->rdispls);
      for (int d = 0; d < np; ++d) for (long i = 0; i < b->scounts[d]; ++i) b->s[b->sdispls[d] + i] = val(call, me, d, i);
      if (k == K_ALLTOALLV) {
        CHECK_MPI(MPI_Ialltoallv(b->s, b->scounts, b->sdispls, MPI_INT, b->r, b->rcounts, b->rdispls, MPI_INT, w, rq));
      } else {
        for (int d = 0; d < np; ++d) {
          b->wsd[d] = b->sdispls[d] * (int)sizeof(int);
          b->wrd[d] = b->rdispls[d] * (int)sizeof(int);
          b->stypes[d] = b->rtypes[d] = MPI_INT;
        }
        CHECK_MPI(MPI_Ialltoallw(b->s, b->scounts, b->wsd, b->stypes, b->r, b->rcounts, b->wrd, b->rtypes, w, rq));
      }
      break;
    case K_REDUCE:
    case K_ALLREDUCE:
    case K_SCAN:
    case K_EXSCAN:
      for (long i = 0; i < n; ++i) b->s[i] = val(call, me, 0, i);
      if (k == K_REDUCE) CHECK_MPI(MPI_Ireduce(b->s, b->r, (int)n, MPI_INT, MPI_SUM, root, w, rq));
      if (k == K_ALLREDUCE) CHECK_MPI(MPI_Iallreduce(b->s, b->r, (int)n, MPI_INT, MPI_SUM, w, rq));
      if (k == K_SCAN) CHECK_MPI(MPI_Iscan(b->s, b->r, (int)n, MPI_INT, MPI_SUM, w, rq));
      if (k == K_EXSCAN) CHECK_MPI(MPI_Iexscan(b->s, b->r, (int)n, MPI_INT, MPI_SUM, w, rq));
      break;
    case K_REDUCE_SCATTER:
    case K_REDUCE_SCATTER_BLOCK: {
      long total = 0;
      for (int d = 0; d < np; ++d) total += b->rcounts[d] = k == K_REDUCE_SCATTER ? cnt(n, d) : (int)n;
      for (long i = 0; i < total; ++i) b->s[i] = val(call, me, 0, i);
      if (k == K_REDUCE_SCATTER) CHECK_MPI(MPI_Ireduce_scatter(b->s, b->r, b->rcounts, MPI_INT, MPI_SUM, w, rq));
      else CHECK_MPI(MPI_Ireduce_scatter_block(b->s, b->r, (int)n, MPI_INT, MPI_SUM, w, rq));
      break;
    }
    case K_COUNT: break;
  }
}

/* The sum over ranks lo..hi of val(call, r, 0, i). */
static int sum(int call, int lo, int hi, long i) {
  int s = 0;
  for (int r = lo; r <= hi; ++r) s += val(call, r, 0, i);
  return s;
}

static void check(enum kind k, int call, long n, int root, const struct bufs* b) {
  const int* r = b->r;
#define EQ(got, want, fmt, ...) EXPECT((got) == (want), "%s n=%ld root=%d: " fmt, names[k], n, root, __VA_ARGS__)
  switch (k) {
    case K_BARRIER: break;
    case K_BCAST:
      for (long i = 0; i < n; ++i) EQ(r[i], val(call, root, 0, i), "element %ld", i);
      break;
    case K_SCATTER:
      for (long i = 0; i < n; ++i) EQ(r[i], val(call, root, me, i), "element %ld", i);
      break;
    case K_SCATTERV:
      for (long i = 0; i < cnt(n, me); ++i) EQ(r[i], val(call, root, me, i), "element %ld", i);
      EQ(r[cnt(n, me)], SENT, "written past the %d elements", cnt(n, me));
      break;
    case K_GATHER:
      if (me == root) for (int s = 0; s < np; ++s) for (long i = 0; i < n; ++i) EQ(r[s * n + i], val(call, s, root, i), "from %d element %ld", s, i);
      break;
    case K_GATHERV:
      if (me == root) for (int s = 0; s < np; ++s) for (long i = 0; i < b->rcounts[s]; ++i) EQ(r[b->rdispls[s] + i], val(call, s, root, i), "from %d element %ld", s, i);
      break;
    case K_ALLGATHER:
      for (int s = 0; s < np; ++s) for (long i = 0; i < n; ++i) EQ(r[s * n + i], val(call, s, 0, i), "from %d element %ld", s, i);
      break;
    case K_ALLGATHERV:
      for (int s = 0; s < np; ++s) for (long i = 0; i < b->rcounts[s]; ++i) EQ(r[b->rdispls[s] + i], val(call, s, 0, i), "from %d element %ld", s, i);
      break;
    case K_ALLTOALL:
      for (int s = 0; s < np; ++s) for (long i = 0; i < n; ++i) EQ(r[s * n + i], val(call, s, me, i), "from %d element %ld", s, i);
      break;
    case K_ALLTOALLV:
    case K_ALLTOALLW:
      for (int s = 0; s < np; ++s) for (long i = 0; i < b->rcounts[s]; ++i) EQ(r[b->rdispls[s] + i], val(call, s, me, i), "from %d element %ld", s, i);
      break;
    case K_REDUCE:
      if (me == root) for (long i = 0; i < n; ++i) EQ(r[i], sum(call, 0, np - 1, i), "element %ld", i);
      break;
    case K_ALLREDUCE:
      for (long i = 0; i < n; ++i) EQ(r[i], sum(call, 0, np - 1, i), "element %ld", i);
      break;
    case K_SCAN:
      for (long i = 0; i < n; ++i) EQ(r[i], sum(call, 0, me, i), "element %ld", i);
      break;
    case K_EXSCAN:
      if (me > 0) for (long i = 0; i < n; ++i) EQ(r[i], sum(call, 0, me - 1, i), "element %ld", i);
      break;
    case K_REDUCE_SCATTER:
    case K_REDUCE_SCATTER_BLOCK: {
      long first = 0;
      for (int d = 0; d < me; ++d) first += b->rcounts[d];
      for (long i = 0; i < b->rcounts[me]; ++i) EQ(r[i], sum(call, 0, np - 1, first + i), "element %ld", i);
      break;
    }
    case K_COUNT: break;
  }
#undef EQ
}

/* Rank at position `pos` of the entry order: ascending, descending, or the root last. */
static int order_at(int variant, int root, int pos) {
  if (variant == 0) return pos;
  if (variant == 1) return np - 1 - pos;
  int others = 0;
  for (int r = 0; r < np; ++r) {
    if (r == root) continue;
    if (others++ == pos) return r;
  }
  return root;
}

/* Waits for the token from the previous rank of the order, runs `enter`, passes the token. */
static void in_turn(int variant, int root, void (*enter)(void*), void* arg) {
  int pos = 0;
  while (order_at(variant, root, pos) != me) ++pos;
  int token = 0;
  if (pos > 0) CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, order_at(variant, root, pos - 1), TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  alarm(LIMIT_S);
  enter(arg);
  alarm(0);
  if (pos < np - 1) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, order_at(variant, root, pos + 1), TOKEN, MPI_COMM_WORLD));
}

struct one {
  enum kind k;
  int call;
  long n;
  int root;
  struct bufs* b;
  MPI_Request rq;
};
static void enter_one(void* arg) {
  struct one* o = arg;
  issue(o->k, o->call, o->n, o->root, o->b, &o->rq);
}

#if MPI_VERSION >= 4
/* Persistent: MPI_Bcast_init, MPI_Allreduce_init, MPI_Reduce_init, started in turn. */
struct pers {
  MPI_Request rq[3];
};
static void enter_pers(void* arg) { CHECK_MPI(MPI_Startall(3, ((struct pers*)arg)->rq)); }
#endif

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  signal(SIGALRM, watchdog);
  g_self_displs_ignored = getenv("NBC_ISSUE_ORDER_ALLGATHERV_SELF_DISPLS_IGNORED") != NULL;
  const long sizes[] = {0, 1, 100, 20000};
  const long maxn = 20000 + 8;
  struct bufs b;
  b.s = ints(4 * (maxn + 4) * np + 8);
  b.r = ints(4 * (maxn + 4) * np + 8);
  b.scounts = ialloc(), b.sdispls = ialloc(), b.rcounts = ialloc(), b.rdispls = ialloc();
  b.wsd = ialloc(), b.wrd = ialloc();
  b.stypes = malloc((size_t)np * sizeof(MPI_Datatype));
  b.rtypes = malloc((size_t)np * sizeof(MPI_Datatype));
  CHECK(b.stypes != NULL && b.rtypes != NULL, "malloc");
  int call = 0;
  for (int k = 0; k < K_COUNT; ++k) {
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si) {
      for (int root = 0; root < np; root += np > 1 ? np - 1 : 1) {
        for (int variant = 0; variant < 3; ++variant) {
          struct one o = {(enum kind)k, ++call, sizes[si], root, &b, MPI_REQUEST_NULL};
          g_what = names[k];
          in_turn(variant, root, enter_one, &o);
          CHECK_MPI(MPI_Wait(&o.rq, MPI_STATUS_IGNORE));
          EXPECT(o.rq == MPI_REQUEST_NULL, "%s: MPI_Wait did not free the request", names[k]);
          check((enum kind)k, call, sizes[si], root, &b);
        }
      }
    }
  }

#if MPI_VERSION >= 4
  {
    int x[64], s[64], r[64], g[64];
    struct pers p;
    const int root = np - 1;
    CHECK_MPI(MPI_Bcast_init(x, 64, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &p.rq[0]));
    CHECK_MPI(MPI_Allreduce_init(s, r, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p.rq[1]));
    CHECK_MPI(MPI_Reduce_init(s, g, 64, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &p.rq[2]));
    for (int it = 0; it < 30; ++it) {
      ++call;
      for (int i = 0; i < 64; ++i) {
        x[i] = me == 0 ? val(call, 0, 1, i) : SENT;
        s[i] = val(call, me, 0, i);
        r[i] = g[i] = SENT;
      }
      g_what = "Startall";
      in_turn(it % 3, root, enter_pers, &p);
      CHECK_MPI(MPI_Waitall(3, p.rq, STATUSES_IGNORE));
      for (int i = 0; i < 64; ++i) {
        EXPECT(x[i] == val(call, 0, 1, i), "MPI_Bcast_init start %d element %d", it, i);
        EXPECT(r[i] == sum(call, 0, np - 1, i), "MPI_Allreduce_init start %d element %d", it, i);
      }
      if (me == root) {
        for (int i = 0; i < 64; ++i) EXPECT(g[i] == sum(call, 0, np - 1, i), "MPI_Reduce_init start %d element %d", it, i);
      }
    }
    for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Request_free(&p.rq[i]));
  }
#endif

  /* One rank far ahead: rank 0 issues AHEAD calls before anyone else enters the first
   * one (more than an implementation may have slots for calls in flight: its later
   * calls must still return at once), then the others issue theirs in turn. Rank 0 is
   * the MPI_Ibcast root, an MPI_Igather sender (root np-1), and, with BIG ints per call
   * (8 KiB: more than an implementation may keep for small calls, so fewer calls fit
   * its slots), again the MPI_Ibcast root and an MPI_Ireduce contributor (root np-1). */
  {
    enum { AHEAD = 100, BIG = 2048 };
    static int v[AHEAD][4];
    static int g[AHEAD][4 * 64];
    static int bv[AHEAD][BIG], br[AHEAD][BIG];
    static MPI_Request rq[AHEAD];
    static const char* const what[4] = {"Ibcast (one rank ahead)", "Igather (one rank ahead)",
                                        "Ibcast of 8 KiB (one rank ahead)", "Ireduce of 8 KiB (one rank ahead)"};
    for (int variant = 0; variant < 4; ++variant) {
      const int first = call + 1;
      call += AHEAD;
      for (int j = 0; j < AHEAD; ++j) {
        for (int i = 0; i < 4; ++i) v[j][i] = variant == 1 || me == 0 ? val(first + j, me, 0, i) : SENT;
        for (int i = 0; i < 4 * np; ++i) g[j][i] = SENT;
        for (int i = 0; i < BIG; ++i) {
          bv[j][i] = variant == 3 || me == 0 ? val(first + j, me, 0, i) : SENT;
          br[j][i] = SENT;
        }
      }
      g_what = what[variant];
      int token = 0;
      if (me > 0) CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, me - 1, TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      alarm(LIMIT_S);
      for (int j = 0; j < AHEAD; ++j) {
        if (variant == 0) CHECK_MPI(MPI_Ibcast(v[j], 4, MPI_INT, 0, MPI_COMM_WORLD, &rq[j]));
        else if (variant == 1) CHECK_MPI(MPI_Igather(v[j], 4, MPI_INT, g[j], 4, MPI_INT, np - 1, MPI_COMM_WORLD, &rq[j]));
        else if (variant == 2) CHECK_MPI(MPI_Ibcast(bv[j], BIG, MPI_INT, 0, MPI_COMM_WORLD, &rq[j]));
        else CHECK_MPI(MPI_Ireduce(bv[j], br[j], BIG, MPI_INT, MPI_SUM, np - 1, MPI_COMM_WORLD, &rq[j]));
      }
      alarm(0);
      if (me + 1 < np) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, me + 1, TOKEN, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Waitall(AHEAD, rq, STATUSES_IGNORE));
      for (int j = 0; j < AHEAD; ++j) {
        if (variant == 0) {
          for (int i = 0; i < 4; ++i) EXPECT(v[j][i] == val(first + j, 0, 0, i), "ahead: bcast %d element %d", j, i);
        } else if (variant == 1 && me == np - 1) {
          for (int q = 0; q < np; ++q) {
            for (int i = 0; i < 4; ++i) EXPECT(g[j][q * 4 + i] == val(first + j, q, 0, i), "ahead: gather %d from %d element %d", j, q, i);
          }
        } else if (variant == 2) {
          for (int i = 0; i < BIG; ++i) EXPECT(bv[j][i] == val(first + j, 0, 0, i), "ahead: 8 KiB bcast %d element %d", j, i);
        } else if (variant == 3) {
          /* Only the root's receive buffer is written (MPI-4.1 6.9.1). */
          for (int i = 0; i < BIG; ++i) {
            const int want = me == np - 1 ? sum(first + j, 0, np - 1, i) : SENT;
            EXPECT(br[j][i] == want, "ahead: 8 KiB reduce %d element %d", j, i);
          }
        }
      }
    }
  }

  /* Rank 0 ahead by k MPI_Ibcast (its root) and then one MPI_Iallreduce (or, in the
   * second round, one MPI_Ibarrier), for k = 0 to 40, before anyone else enters them:
   * an implementation whose root calls complete at issue has run k calls ahead, and
   * the MPI_Iallreduce or MPI_Ibarrier must still return at once whatever room for
   * calls in flight that left it. */
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k <= 40; ++k) {
      static int v[41][4], red[4];
      static MPI_Request rq[42];
      const int first = call + 1;
      call += k + 1;
      for (int j = 0; j < k; ++j) {
        for (int i = 0; i < 4; ++i) v[j][i] = me == 0 ? val(first + j, 0, 0, i) : SENT;
      }
      for (int i = 0; i < 4; ++i) red[i] = SENT;
      int* mine = ints(4);
      for (int i = 0; i < 4; ++i) mine[i] = val(first + k, me, 0, i);
      g_what = round == 0 ? "Iallreduce (after MPI_Ibcast calls ahead)" : "Ibarrier (after MPI_Ibcast calls ahead)";
      int token = 0;
      if (me > 0) CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, me - 1, TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      alarm(LIMIT_S);
      for (int j = 0; j < k; ++j) CHECK_MPI(MPI_Ibcast(v[j], 4, MPI_INT, 0, MPI_COMM_WORLD, &rq[j]));
      if (round == 0) CHECK_MPI(MPI_Iallreduce(mine, red, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[k]));
      else CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &rq[k]));
      alarm(0);
      if (me + 1 < np) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, me + 1, TOKEN, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Waitall(k + 1, rq, STATUSES_IGNORE));
      for (int j = 0; j < k; ++j) {
        for (int i = 0; i < 4; ++i) EXPECT(v[j][i] == val(first + j, 0, 0, i), "k=%d: bcast %d element %d", k, j, i);
      }
      for (int i = 0; i < 4; ++i) {
        EXPECT(red[i] == (round == 0 ? sum(first + k, 0, np - 1, i) : SENT), "k=%d: allreduce element %d", k, i);
      }
      free(mine);
    }
  }

  /* Several requests of calls that may have completed at issue, completed together:
   * each is a request of its own to the user (no duplicate-handle error, each set to
   * MPI_REQUEST_NULL). Rank 0 of the bcasts runs ahead: its calls need no one. */
  {
    enum { M = 6 };
    int v[M][4];
    MPI_Request rq[M];
    for (int style = 0; style < 5; ++style) {
      ++call;
      for (int j = 0; j < M; ++j) {
        for (int i = 0; i < 4; ++i) v[j][i] = me == 0 ? val(call, j, 0, i) : SENT;
      }
      g_what = "Ibcast";
      alarm(LIMIT_S);
      for (int j = 0; j < M; ++j) CHECK_MPI(MPI_Ibcast(v[j], 4, MPI_INT, 0, MPI_COMM_WORLD, &rq[j]));
      alarm(0);
      if (style == 0) {
        CHECK_MPI(MPI_Waitall(M, rq, STATUSES_IGNORE));
      } else if (style == 1) {
        int flag = 0;
        while (!flag) CHECK_MPI(MPI_Testall(M, rq, &flag, STATUSES_IGNORE));
      } else if (style == 2) {
        for (int left = M; left > 0; --left) {
          int idx = MPI_UNDEFINED;
          CHECK_MPI(MPI_Waitany(M, rq, &idx, MPI_STATUS_IGNORE));
          EXPECT(idx >= 0 && idx < M && rq[idx] == MPI_REQUEST_NULL, "MPI_Waitany index %d", idx);
        }
      } else if (style == 3) {
        int idx[M], out = 0, total = 0;
        while (total < M) {
          CHECK_MPI(MPI_Waitsome(M, rq, &out, idx, STATUSES_IGNORE));
          EXPECT(out >= 1 && out <= M - total, "MPI_Waitsome outcount %d", out);
          total += out;
        }
      } else {
        for (int j = 0; j < M; ++j) {
          int flag = 0;
          MPI_Status st;
          while (!flag) CHECK_MPI(MPI_Request_get_status(rq[j], &flag, &st));
          EXPECT(rq[j] != MPI_REQUEST_NULL, "MPI_Request_get_status freed request %d", j);
          CHECK_MPI(MPI_Wait(&rq[j], MPI_STATUS_IGNORE));
        }
      }
      for (int j = 0; j < M; ++j) {
        EXPECT(rq[j] == MPI_REQUEST_NULL, "style %d: request %d not freed", style, j);
        for (int i = 0; i < 4; ++i) EXPECT(v[j][i] == val(call, j, 0, i), "style %d: bcast %d element %d", style, j, i);
      }
    }
  }
  free(b.s), free(b.r), free(b.scounts), free(b.sdispls), free(b.rcounts), free(b.rdispls);
  free(b.wsd), free(b.wrd), free(b.stypes), free(b.rtypes);
  coll_finish("nbc_issue_order");
  return 0;
}
