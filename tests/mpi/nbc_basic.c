/* nbc_basic: exact results of every nonblocking collective on MPI_COMM_WORLD (MPI-4.1
 * Nonblocking Collective Operations: MPI_Ibarrier ... MPI_Iexscan).
 *
 * Every message is a stream of ints whose values are a hash of (call, source rank,
 * destination rank, stream index, iteration), so data from another rank, another
 * position or an earlier call is caught. Receive buffers sit between guard zones and are
 * pre-filled with a pseudo-random pattern; after completion the WHOLE buffer (guards,
 * gaps between segments and holes inside the derived datatype included) must equal the
 * expected image. Send buffers must come back unchanged, and so must non-root receive
 * buffers of Igather(v) (not significant).
 *
 * Data-movement calls run at 0, 1, 37 ints and one large case (>= 1 MiB in total for
 * Ibcast, Igather, Iscatter, Iallgather, Ialltoall), with a strided derived datatype
 * (vector(3,2,3,int): 6 ints in an extent of 8) on the send, the receive or both sides,
 * MPI_IN_PLACE wherever the standard allows it, every root for the rooted calls. The
 * v-variants give some ranks zero counts and place segments at non-monotone
 * displacements with gaps; Ialltoallw mixes the int and vector types per peer at byte
 * displacements. Reductions (MPI_SUM on small ints so the sum is exact, MPI_MAX and
 * MPI_BXOR on full-range ints) run at 0, 1, 37 and 262147 ints (Iallreduce, Ireduce),
 * every root for Ireduce, in place and not. MPI_Iexscan: rank 0's recvbuf is undefined,
 * only its guards are checked. (MPI_VERSION >= 4) MPI_Ibcast_c, MPI_Iallreduce_c,
 * MPI_Iallgatherv_c, MPI_Ialltoallw_c.
 * Completion rotates over MPI_Wait, MPI_Waitall, MPI_Test loops, MPI_Waitany,
 * MPI_Testall loops, MPI_Testany loops and MPI_Waitsome; the request must be
 * MPI_REQUEST_NULL afterwards. MPI_Ibarrier: a rank sleeps before starting it; nobody's
 * Ibarrier may complete before every rank has started it (CLOCK_MONOTONIC stamps).
 * Finally a batch of all 17 calls (independent buffers) is started back to back and
 * completed with one MPI_Waitall, then checked.
 * Point-to-point is not used. Prints "nbc_basic: OK (N checks)" on rank 0.
 *
 * Peer toggles (set by tests/peer/run_nbc_peer.sh), each avoiding one peer bug:
 *   NBC_BASIC_ALLGATHERV_SELF_DISPLS_IGNORED  MPICH 4.0.2: on a 1-rank communicator
 *       MPI_Iallgatherv writes at recvbuf, ignoring displs[0] (as MPI_Allgatherv,
 *       tests/mpi/coll_basic.c); 1-rank Iallgatherv cases then use displs[0] = 0.
 *   NBC_BASIC_IALLTOALLW_INPLACE_TYPE_SIZE  MPICH 4.0.2: MPI_Ialltoallw(_c) with
 *       MPI_IN_PLACE takes the size of recvtypes[] at the wrong index
 *       (MPIR_Ialltoallw_intra_sched_inplace; pmodels/mpich#6404, fixed in 4.1), so the
 *       data of peers whose recvtype differs in size is wrong (the blocking call is
 *       right); in-place Ialltoallw cases then use MPI_INT for every peer (counts still
 *       differ per peer).
 * Usage: nbc_basic */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "coll_util.h"

static int g_it; /* advances identically on every rank: one per collective call */
static char ctx[256];
static int t_allgatherv_self, t_alltoallw_inplace;

enum { GUARD = 32, BIG = 262147 /* ints: 1 MiB + 12 bytes */ };
enum { C_BARRIER, C_BCAST, C_SCATTER, C_SCATTERV, C_GATHER, C_GATHERV, C_ALLGATHER, C_ALLGATHERV, C_ALLTOALL,
       C_ALLTOALLV, C_ALLTOALLW, C_REDUCE, C_ALLREDUCE, C_RS, C_RSB, C_SCAN, C_EXSCAN, NCALLS };
static const char* const call_name[NCALLS] = {
    "MPI_Ibarrier",  "MPI_Ibcast",     "MPI_Iscatter",      "MPI_Iscatterv",  "MPI_Igather",
    "MPI_Igatherv",  "MPI_Iallgather", "MPI_Iallgatherv",   "MPI_Ialltoall",  "MPI_Ialltoallv",
    "MPI_Ialltoallw", "MPI_Ireduce",   "MPI_Iallreduce",    "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
    "MPI_Iscan",     "MPI_Iexscan"};
enum { F_INPLACE = 1, F_C = 2 };

/* ---- layouts: MPI_INT, and vector(3,2,3,int) = 6 ints at these offsets, extent 8 ints ---- */
typedef struct {
  const char* name;
  MPI_Datatype type;
  int n, ext, off[6];
} Lay;
static Lay lay_int = {"int", MPI_INT, 1, 1, {0}};
static Lay lay_vec = {"vector(3,2,3,int)", MPI_DATATYPE_NULL, 6, 8, {0, 1, 3, 4, 6, 7}};
typedef struct {
  const Lay *s, *r;
} Pair;
static Pair pairs[3];
static size_t ints_for(long cnt, const Lay* L) { return cnt == 0 ? 0 : (size_t)((cnt - 1) * L->ext + L->off[L->n - 1] + 1); }
static long gran(const Pair* P) { return P->s->n > P->r->n ? P->s->n : P->r->n; } /* 1 or 6 */

/* Writes ints j0.. of the stream (call, src, dst, it) as cnt elements of L at base (int j of the
 * message src -> dst of `call` in iteration `it`: vf(call, src, dst, j, it)). */
static void place(int* base, long cnt, const Lay* L, int call, int src, int dst, long j0, int it) {
  long j = j0;
  for (long e = 0; e < cnt; ++e)
    for (int k = 0; k < L->n; ++k, ++j) base[e * L->ext + L->off[k]] = vf(call, src, dst, j, it);
}

/* ---- guarded int buffers ---- */
typedef struct {
  int* mem;
  size_t total, n;
  int* p;
} Buf;
static void buf_init(Buf* b, size_t n, uint32_t seed) {
  b->n = n;
  b->total = n + 2 * GUARD;
  b->mem = malloc(b->total * sizeof(int));
  CHECK(b->mem != NULL, "malloc %zu ints", b->total);
  b->p = b->mem + GUARD;
  for (size_t i = 0; i < b->total; ++i) b->mem[i] = (int)mix32(seed * 0x2545F491u ^ (uint32_t)(i + 1) * 0x9E3779B9u);
}
static void buf_clone(Buf* d, const Buf* s) {
  *d = *s;
  d->mem = malloc(s->total * sizeof(int));
  CHECK(d->mem != NULL, "malloc");
  memcpy(d->mem, s->mem, s->total * sizeof(int));
  d->p = d->mem + (s->p - s->mem);
}
static void buf_free(Buf* b) {
  free(b->mem);
  memset(b, 0, sizeof *b);
}
/* got must equal want int for int; nelem ints were expected in it */
static void verify(const Buf* got, const Buf* want, long nelem, const char* what) {
  nchecks += nelem + 1;
  if (memcmp(got->mem, want->mem, got->total * sizeof(int)) == 0) return;
  size_t i = 0;
  while (got->mem[i] == want->mem[i]) ++i;
  const long rel = (long)(got->mem + i - got->p);
  const char* where = rel < 0 ? "guard before the buffer" : (size_t)rel >= got->n ? "guard after the buffer" : "buffer";
  const int ints_match = 0;
  CHECK(ints_match, "%s: %s: int %ld (%s of %zu ints) is %d, want %d", ctx, what, rel, where, got->n, got->mem[i],
        want->mem[i]);
}

/* ---- completion: rotates over the completion calls ---- */
static int g_mode;
static double g_limit = 60.0; /* seconds a Test loop may spin */
static void complete(MPI_Request* r) {
  const int mode = g_mode++ % 7;
  int rc = MPI_SUCCESS, flag = 0, idx = -7, outc = -7, idxs[1];
  MPI_Status st;
  const double t0 = MPI_Wtime();
  switch (mode) {
    case 0: rc = MPI_Wait(r, &st); break;
    case 1: rc = MPI_Waitall(1, r, STATUSES_IGNORE); break;
    case 2:
      while (rc == MPI_SUCCESS && !flag) {
        rc = MPI_Test(r, &flag, MPI_STATUS_IGNORE);
        CHECK(MPI_Wtime() - t0 < g_limit, "%s: MPI_Test never completed", ctx);
      }
      break;
    case 3:
      rc = MPI_Waitany(1, r, &idx, &st);
      EXPECT(idx == 0, "%s: MPI_Waitany index %d, want 0", ctx, idx);
      break;
    case 4:
      while (rc == MPI_SUCCESS && !flag) {
        rc = MPI_Testall(1, r, &flag, STATUSES_IGNORE);
        CHECK(MPI_Wtime() - t0 < g_limit, "%s: MPI_Testall never completed", ctx);
      }
      break;
    case 5:
      while (rc == MPI_SUCCESS && !flag) {
        rc = MPI_Testany(1, r, &idx, &flag, &st);
        CHECK(MPI_Wtime() - t0 < g_limit, "%s: MPI_Testany never completed", ctx);
        if (!flag) CHECK(idx == MPI_UNDEFINED, "%s: MPI_Testany without completion: index %d", ctx, idx);
      }
      EXPECT(idx == 0, "%s: MPI_Testany index %d, want 0", ctx, idx);
      break;
    default:
      rc = MPI_Waitsome(1, r, &outc, idxs, STATUSES_IGNORE);
      EXPECT(outc == 1 && idxs[0] == 0, "%s: MPI_Waitsome outcount %d index %d", ctx, outc, idxs[0]);
      break;
  }
  EXPECT(rc == MPI_SUCCESS, "%s: completion (mode %d) returned %d", ctx, mode, rc);
  EXPECT(*r == MPI_REQUEST_NULL, "%s: request not MPI_REQUEST_NULL after completion (mode %d)", ctx, mode);
}

static void start_rc(int rc, MPI_Request* r) {
  EXPECT(rc == MPI_SUCCESS, "%s returned %d", ctx, rc);
  EXPECT(*r != MPI_REQUEST_NULL, "%s returned MPI_REQUEST_NULL", ctx);
}


/* ---- one call: set up, start (returns the request), then check after completion ---- */
typedef struct {
  int call, pair; /* pairs[] index */
  long k;         /* ints per block (rounded up to the layouts' granularity) */
  int root, flags;
  MPI_Op op; /* reductions */
} Case;

/* State of one started call: buffers and what they must become. */
typedef struct {
  Case c;
  int it;
  char ctx[256];
  Buf sb, sw, rb, rw;
  long nrecv;
  int *counts, *displs, *c2, *d2;
  MPI_Datatype *st, *rt;
  MPI_Request req;
  void* cargs[4]; /* _c argument arrays, freed at the end */
} Op;

static void describe(Op* o) {
  const Case* c = &o->c;
  const Pair* P = &pairs[c->pair];
  snprintf(o->ctx, sizeof o->ctx, "%s%s%s, %s -> %s, k=%ld, root %d, iteration %d", call_name[c->call],
           (c->flags & F_C) ? "_c" : "", (c->flags & F_INPLACE) ? " MPI_IN_PLACE" : "", P->s->name, P->r->name, c->k,
           c->root, o->it);
}

/* reductions: int element i of rank r's input */
static int rin(MPI_Op op, int call, int r, long i, int it) {
  const uint32_t h = hash5(100 + call, op == MPI_SUM ? 1 : op == MPI_MAX ? 2 : 3, r, i, it);
  return op == MPI_SUM ? (int)(h % (1u << 20)) - (1 << 19) : (int)h;
}
static int fold(MPI_Op op, int a, int b) {
  if (op == MPI_SUM) return a + b;
  if (op == MPI_MAX) return a > b ? a : b;
  return a ^ b;
}
/* fold of ranks r0..r1-1 (ascending) of element i */
static int rres(MPI_Op op, int call, int r0, int r1, long i, int it) {
  int acc = rin(op, call, r0, i, it);
  for (int r = r0 + 1; r < r1; ++r) acc = fold(op, acc, rin(op, call, r, i, it));
  return acc;
}

static void op_start(Op* o) {
  const Case* c = &o->c;
  const int it = o->it, root = c->root, call = c->call;
  const Pair* P = &pairs[c->pair];
  const Lay *Ls = P->s, *Lr = P->r;
  const long g = gran(P), B = round_up(c->k, g), cs = B / Ls->n, cr = B / Lr->n;
  const int inplace = (c->flags & F_INPLACE) != 0;
  MPI_Comm comm = MPI_COMM_WORLD;
  int rc = MPI_ERR_OTHER;
  o->req = MPI_REQUEST_NULL;
  memcpy(ctx, o->ctx, sizeof ctx);
  Buf *sb = &o->sb, *sw = &o->sw, *rb = &o->rb, *rw = &o->rw;
  switch (call) {
    case C_BARRIER: rc = MPI_Ibarrier(comm, &o->req); break;
    case C_BCAST: {
      const Lay* L = me == root ? Ls : Lr;
      const long cnt = B / L->n;
      buf_init(rb, ints_for(cnt, L), seed(it, 1));
      if (me == root) place(rb->p, cnt, L, call, root, 0, 0, it);
      buf_clone(rw, rb);
      if (me != root) place(rw->p, cnt, L, call, root, 0, 0, it);
      o->nrecv = B;
#if MPI_VERSION >= 4
      if (c->flags & F_C) { rc = MPI_Ibcast_c(rb->p, cnt, L->type, root, comm, &o->req); break; }
#endif
      rc = MPI_Ibcast(rb->p, (int)cnt, L->type, root, comm, &o->req);
      break;
    }
    case C_SCATTER: {
      const int ip = inplace && me == root;
      if (me == root) {
        buf_init(sb, ints_for(cs * np, Ls), seed(it, 2));
        for (int i = 0; i < np; ++i) place(sb->p + i * cs * Ls->ext, cs, Ls, call, root, i, 0, it);
        buf_clone(sw, sb);
      }
      if (!ip) {
        buf_init(rb, ints_for(cr, Lr), seed(it, 3));
        buf_clone(rw, rb);
        place(rw->p, cr, Lr, call, root, me, 0, it);
        o->nrecv = B;
      }
      rc = MPI_Iscatter(sb->p, (int)cs, Ls->type, ip ? MPI_IN_PLACE : rb->p, (int)cr, Lr->type, root, comm, &o->req);
      break;
    }
    case C_SCATTERV: {
      const int ip = inplace && me == root;
      o->counts = ialloc(), o->displs = ialloc();
      for (int i = 0; i < np; ++i) o->counts[i] = (int)(round_up(vcount(c->k, i), g) / Ls->n);
      const long total = place_displs(o->counts, it, o->displs);
      const long crm = round_up(vcount(c->k, me), g) / Lr->n;
      if (me == root) {
        buf_init(sb, ints_for(total, Ls), seed(it, 4));
        for (int i = 0; i < np; ++i) place(sb->p + o->displs[i] * Ls->ext, o->counts[i], Ls, call, root, i, 0, it);
        buf_clone(sw, sb);
      }
      if (!ip) {
        buf_init(rb, ints_for(crm, Lr), seed(it, 5));
        buf_clone(rw, rb);
        place(rw->p, crm, Lr, call, root, me, 0, it);
        o->nrecv = crm * Lr->n;
      }
      rc = MPI_Iscatterv(sb->p, o->counts, o->displs, Ls->type, ip ? MPI_IN_PLACE : rb->p, (int)crm, Lr->type, root,
                         comm, &o->req);
      break;
    }
    case C_GATHER: {
      const int ip = inplace && me == root;
      if (!ip) {
        buf_init(sb, ints_for(cs, Ls), seed(it, 6));
        place(sb->p, cs, Ls, call, me, root, 0, it);
        buf_clone(sw, sb);
      }
      if (me == root || it % 2) { /* non-roots: NULL or a buffer that must stay untouched */
        buf_init(rb, ints_for(cr * np, Lr), seed(it, 7));
        if (ip) place(rb->p + me * cr * Lr->ext, cr, Lr, call, me, root, 0, it);
        buf_clone(rw, rb);
        if (me == root) {
          for (int i = 0; i < np; ++i) place(rw->p + i * cr * Lr->ext, cr, Lr, call, i, root, 0, it);
          o->nrecv = B * np;
        }
      }
      rc = MPI_Igather(ip ? MPI_IN_PLACE : sb->p, (int)cs, Ls->type, rb->p, (int)cr, Lr->type, root, comm, &o->req);
      break;
    }
    case C_GATHERV: {
      const int ip = inplace && me == root;
      o->counts = ialloc(), o->displs = ialloc();
      for (int i = 0; i < np; ++i) o->counts[i] = (int)(round_up(vcount(c->k, i), g) / Lr->n);
      const long total = place_displs(o->counts, it + 1, o->displs);
      const long csm = round_up(vcount(c->k, me), g) / Ls->n;
      if (!ip) {
        buf_init(sb, ints_for(csm, Ls), seed(it, 8));
        place(sb->p, csm, Ls, call, me, root, 0, it);
        buf_clone(sw, sb);
      }
      if (me == root || it % 2) {
        buf_init(rb, ints_for(total, Lr), seed(it, 9));
        if (ip) place(rb->p + o->displs[me] * Lr->ext, o->counts[me], Lr, call, me, root, 0, it);
        buf_clone(rw, rb);
        if (me == root)
          for (int i = 0; i < np; ++i) {
            place(rw->p + o->displs[i] * Lr->ext, o->counts[i], Lr, call, i, root, 0, it);
            o->nrecv += o->counts[i] * Lr->n;
          }
      }
      rc = MPI_Igatherv(ip ? MPI_IN_PLACE : sb->p, (int)csm, Ls->type, rb->p, o->counts, o->displs, Lr->type, root,
                        comm, &o->req);
      break;
    }
    case C_ALLGATHER: {
      if (!inplace) {
        buf_init(sb, ints_for(cs, Ls), seed(it, 10));
        place(sb->p, cs, Ls, call, me, 0, 0, it);
        buf_clone(sw, sb);
      }
      buf_init(rb, ints_for(cr * np, Lr), seed(it, 11));
      if (inplace) place(rb->p + me * cr * Lr->ext, cr, Lr, call, me, 0, 0, it);
      buf_clone(rw, rb);
      for (int i = 0; i < np; ++i) place(rw->p + i * cr * Lr->ext, cr, Lr, call, i, 0, 0, it);
      o->nrecv = B * np;
      rc = MPI_Iallgather(inplace ? MPI_IN_PLACE : sb->p, (int)cs, Ls->type, rb->p, (int)cr, Lr->type, comm, &o->req);
      break;
    }
    case C_ALLGATHERV: {
      o->counts = ialloc(), o->displs = ialloc();
      for (int i = 0; i < np; ++i) o->counts[i] = (int)(round_up(vcount(c->k, i), g) / Lr->n);
      long total = place_displs(o->counts, it, o->displs);
      if (np == 1 && t_allgatherv_self) o->displs[0] = 0;
      const long csm = round_up(vcount(c->k, me), g) / Ls->n;
      if (!inplace) {
        buf_init(sb, ints_for(csm, Ls), seed(it, 12));
        place(sb->p, csm, Ls, call, me, 0, 0, it);
        buf_clone(sw, sb);
      }
      buf_init(rb, ints_for(total, Lr), seed(it, 13));
      if (inplace) place(rb->p + o->displs[me] * Lr->ext, o->counts[me], Lr, call, me, 0, 0, it);
      buf_clone(rw, rb);
      for (int i = 0; i < np; ++i) {
        place(rw->p + o->displs[i] * Lr->ext, o->counts[i], Lr, call, i, 0, 0, it);
        o->nrecv += o->counts[i] * Lr->n;
      }
      void* sbuf = inplace ? MPI_IN_PLACE : sb->p;
#if MPI_VERSION >= 4
      if (c->flags & F_C) {
        MPI_Count* cc = to_count(o->counts);
        MPI_Aint* dd = to_aint(o->displs);
        o->cargs[0] = cc, o->cargs[1] = dd;
        rc = MPI_Iallgatherv_c(sbuf, csm, Ls->type, rb->p, cc, dd, Lr->type, comm, &o->req);
        break;
      }
#endif
      rc = MPI_Iallgatherv(sbuf, (int)csm, Ls->type, rb->p, o->counts, o->displs, Lr->type, comm, &o->req);
      break;
    }
    case C_ALLTOALL: {
      if (!inplace) {
        buf_init(sb, ints_for(cs * np, Ls), seed(it, 14));
        for (int j = 0; j < np; ++j) place(sb->p + j * cs * Ls->ext, cs, Ls, call, me, j, 0, it);
        buf_clone(sw, sb);
      }
      buf_init(rb, ints_for(cr * np, Lr), seed(it, 15));
      if (inplace)
        for (int j = 0; j < np; ++j) place(rb->p + j * cr * Lr->ext, cr, Lr, call, me, j, 0, it);
      buf_clone(rw, rb);
      for (int i = 0; i < np; ++i) place(rw->p + i * cr * Lr->ext, cr, Lr, call, i, me, 0, it);
      o->nrecv = B * np;
      rc = MPI_Ialltoall(inplace ? MPI_IN_PLACE : sb->p, (int)cs, Ls->type, rb->p, (int)cr, Lr->type, comm, &o->req);
      break;
    }
    case C_ALLTOALLV: {
      o->counts = ialloc(), o->displs = ialloc(), o->c2 = ialloc(), o->d2 = ialloc();
      for (int j = 0; j < np; ++j) {
        const long sbk = inplace ? pcount_sym(c->k, me, j) : pcount(c->k, me, j);
        const long rbk = inplace ? pcount_sym(c->k, j, me) : pcount(c->k, j, me);
        o->counts[j] = (int)(round_up(sbk, g) / Ls->n);
        o->c2[j] = (int)(round_up(rbk, g) / Lr->n);
      }
      const long stot = place_displs(o->counts, it, o->displs);
      const long rtot = place_displs(o->c2, it + 1, o->d2);
      if (!inplace) {
        buf_init(sb, ints_for(stot, Ls), seed(it, 16));
        for (int j = 0; j < np; ++j) place(sb->p + o->displs[j] * Ls->ext, o->counts[j], Ls, call, me, j, 0, it);
        buf_clone(sw, sb);
      }
      buf_init(rb, ints_for(rtot, Lr), seed(it, 17));
      if (inplace)
        for (int j = 0; j < np; ++j) place(rb->p + o->d2[j] * Lr->ext, o->c2[j], Lr, call, me, j, 0, it);
      buf_clone(rw, rb);
      for (int i = 0; i < np; ++i) {
        place(rw->p + o->d2[i] * Lr->ext, o->c2[i], Lr, call, i, me, 0, it);
        o->nrecv += o->c2[i] * Lr->n;
      }
      rc = MPI_Ialltoallv(inplace ? MPI_IN_PLACE : sb->p, o->counts, o->displs, Ls->type, rb->p, o->c2, o->d2,
                          Lr->type, comm, &o->req);
      break;
    }
    case C_ALLTOALLW: {
      /* per peer: the int or the vector type on either side, byte displacements */
      o->counts = ialloc(), o->displs = ialloc(), o->c2 = ialloc(), o->d2 = ialloc();
      o->st = malloc((size_t)np * sizeof(MPI_Datatype));
      o->rt = malloc((size_t)np * sizeof(MPI_Datatype));
      CHECK(o->st && o->rt, "malloc");
      const Lay** sl = malloc((size_t)np * sizeof(Lay*));
      const Lay** rl = malloc((size_t)np * sizeof(Lay*));
      CHECK(sl && rl, "malloc");
      long stot = 1, rtot = 3;
      int order[64];
      for (int j = 0; j < np; ++j) {
        sl[j] = (me + j + it) % 2 && !(inplace && t_alltoallw_inplace) ? &lay_vec : &lay_int;
        rl[j] = inplace ? sl[j] : (me + 2 * j + it) % 3 == 0 ? &lay_vec : &lay_int;
        const long sbk = round_up(inplace ? pcount_sym(c->k, me, j) : pcount(c->k, me, j), 6);
        const long rbk = round_up(inplace ? pcount_sym(c->k, j, me) : pcount(c->k, j, me), 6);
        o->counts[j] = (int)(sbk / sl[j]->n);
        o->c2[j] = (int)(rbk / rl[j]->n);
        o->st[j] = sl[j]->type, o->rt[j] = rl[j]->type;
      }
      perm(np, it, order);
      for (int t = 0; t < np; ++t) {
        const int j = order[t];
        o->displs[j] = (int)(stot * 4);
        stot += (long)ints_for(o->counts[j], sl[j]) + j % 2;
      }
      perm(np, it + 2, order);
      for (int t = 0; t < np; ++t) {
        const int j = order[t];
        o->d2[j] = (int)(rtot * 4);
        rtot += (long)ints_for(o->c2[j], rl[j]) + (j + 1) % 2;
      }
      if (!inplace) {
        buf_init(sb, (size_t)stot, seed(it, 18));
        for (int j = 0; j < np; ++j) place(sb->p + o->displs[j] / 4, o->counts[j], sl[j], call, me, j, 0, it);
        buf_clone(sw, sb);
      }
      buf_init(rb, (size_t)rtot, seed(it, 19));
      if (inplace)
        for (int j = 0; j < np; ++j) place(rb->p + o->d2[j] / 4, o->c2[j], rl[j], call, me, j, 0, it);
      buf_clone(rw, rb);
      for (int i = 0; i < np; ++i) {
        place(rw->p + o->d2[i] / 4, o->c2[i], rl[i], call, i, me, 0, it);
        o->nrecv += o->c2[i] * rl[i]->n;
      }
      free(sl), free(rl);
      void* sbuf = inplace ? MPI_IN_PLACE : sb->p;
#if MPI_VERSION >= 4
      if (c->flags & F_C) {
        MPI_Count *c1 = to_count(o->counts), *c2 = to_count(o->c2);
        MPI_Aint *d1 = to_aint(o->displs), *d2 = to_aint(o->d2);
        o->cargs[0] = c1, o->cargs[1] = c2, o->cargs[2] = d1, o->cargs[3] = d2;
        rc = MPI_Ialltoallw_c(sbuf, c1, d1, o->st, rb->p, c2, d2, o->rt, comm, &o->req);
        break;
      }
#endif
      rc = MPI_Ialltoallw(sbuf, o->counts, o->displs, o->st, rb->p, o->c2, o->d2, o->rt, comm, &o->req);
      break;
    }
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_SCAN:
    case C_EXSCAN: {
      const long n = c->k;
      const int ip = inplace && (call != C_REDUCE || me == root);
      buf_init(rb, (size_t)n, seed(it, 20));
      if (ip)
        for (long i = 0; i < n; ++i) rb->p[i] = rin(c->op, call, me, i, it);
      if (!ip) {
        buf_init(sb, (size_t)n, seed(it, 21));
        for (long i = 0; i < n; ++i) sb->p[i] = rin(c->op, call, me, i, it);
        buf_clone(sw, sb);
      }
      buf_clone(rw, rb);
      int lo = 0, hi = np; /* ranks folded into my result */
      int mine = 1;
      if (call == C_REDUCE) mine = me == root;
      if (call == C_SCAN) hi = me + 1;
      if (call == C_EXSCAN) hi = me, mine = me > 0;
      if (mine) {
        for (long i = 0; i < n; ++i) rw->p[i] = rres(c->op, call, lo, hi, i, it);
        o->nrecv = n;
      }
      void* s = ip ? MPI_IN_PLACE : sb->p;
      if (call == C_REDUCE) {
        /* non-roots: recvbuf not significant, NULL in odd iterations */
        void* r = me != root && it % 2 ? NULL : rb->p;
        rc = MPI_Ireduce(s, r, (int)n, MPI_INT, c->op, root, comm, &o->req);
      } else if (call == C_ALLREDUCE) {
#if MPI_VERSION >= 4
        if (c->flags & F_C) { rc = MPI_Iallreduce_c(s, rb->p, n, MPI_INT, c->op, comm, &o->req); break; }
#endif
        rc = MPI_Iallreduce(s, rb->p, (int)n, MPI_INT, c->op, comm, &o->req);
      } else if (call == C_SCAN) {
        rc = MPI_Iscan(s, rb->p, (int)n, MPI_INT, c->op, comm, &o->req);
      } else {
        rc = MPI_Iexscan(s, rb->p, (int)n, MPI_INT, c->op, comm, &o->req);
      }
      break;
    }
    case C_RS:
    case C_RSB: {
      o->counts = ialloc(), o->displs = ialloc();
      long total = 0;
      for (int i = 0; i < np; ++i) {
        o->counts[i] = (int)(call == C_RSB ? c->k : vcount(c->k, i));
        o->displs[i] = (int)total;
        total += o->counts[i];
      }
      const long mycount = o->counts[me];
      if (inplace) {
        buf_init(rb, (size_t)total, seed(it, 22));
        for (long i = 0; i < total; ++i) rb->p[i] = rin(c->op, call, me, i, it);
      } else {
        buf_init(sb, (size_t)total, seed(it, 23));
        for (long i = 0; i < total; ++i) sb->p[i] = rin(c->op, call, me, i, it);
        buf_clone(sw, sb);
        buf_init(rb, (size_t)mycount, seed(it, 24));
      }
      buf_clone(rw, rb);
      /* in place: the result lands at the start of recvbuf; the rest is undefined (not checked) */
      for (long i = 0; i < mycount; ++i) rw->p[i] = rres(c->op, call, 0, np, o->displs[me] + i, it);
      o->nrecv = mycount;
      void* s = inplace ? MPI_IN_PLACE : sb->p;
      if (call == C_RS)
        rc = MPI_Ireduce_scatter(s, rb->p, o->counts, MPI_INT, c->op, comm, &o->req);
      else
        rc = MPI_Ireduce_scatter_block(s, rb->p, (int)c->k, MPI_INT, c->op, comm, &o->req);
      break;
    }
  }
  start_rc(rc, &o->req);
}

static void op_check(Op* o) {
  memcpy(ctx, o->ctx, sizeof ctx);
  const Case* c = &o->c;
  if (o->c.call == C_EXSCAN && me == 0 && o->rb.mem) /* undefined on rank 0: guards only */
    memcpy(o->rw.p, o->rb.p, o->rb.n * sizeof(int));
  if ((c->call == C_RS || c->call == C_RSB) && (c->flags & F_INPLACE)) /* beyond the result: undefined */
    memcpy(o->rw.p + o->counts[me], o->rb.p + o->counts[me], (o->rb.n - (size_t)o->counts[me]) * sizeof(int));
  if (o->sb.mem) verify(&o->sb, &o->sw, 0, "send buffer (must be unchanged)");
  if (o->rb.mem)
    verify(&o->rb, &o->rw, o->nrecv, o->nrecv ? "received data" : "buffer that must stay untouched");
  buf_free(&o->sb), buf_free(&o->sw), buf_free(&o->rb), buf_free(&o->rw);
  free(o->counts), free(o->displs), free(o->c2), free(o->d2), free(o->st), free(o->rt);
  for (int i = 0; i < 4; ++i) free(o->cargs[i]);
  memset(o, 0, sizeof *o);
}

static void op_init(Op* o, const Case* c) {
  memset(o, 0, sizeof *o);
  o->c = *c;
  o->it = g_it++;
  describe(o);
}

static void run_case(const Case* c) {
  Op o;
  op_init(&o, c);
  op_start(&o);
  complete(&o.req);
  op_check(&o);
}

static int is_rooted(int call) {
  return call == C_BCAST || call == C_SCATTER || call == C_SCATTERV || call == C_GATHER || call == C_GATHERV ||
         call == C_REDUCE;
}
static int has_inplace(int call) { return call != C_BCAST && call != C_BARRIER; }
static int is_reduction(int call) { return call >= C_REDUCE; }

static void run_call(int call) {
  const int rooted = is_rooted(call), red = is_reduction(call);
  const int roots[5] = {0, np - 1, 3 % np, 1 % np, np / 2};
  int rot = 0;
#define NEXT_ROOT (rooted ? roots[rot++ % 5] : 0)
  Case c = {call, 0, 0, 0, 0, MPI_SUM};
  static const long sizes[3] = {0, 1, 37};
  for (int s = 0; s < 3; ++s)
    for (int rep = 0; rep < 2; ++rep) { /* same geometry twice, new data: stale data shows */
      c.k = sizes[s], c.root = NEXT_ROOT;
      c.op = red && rep ? MPI_MAX : MPI_SUM;
      run_case(&c);
    }
  c.op = MPI_SUM;
  if (!red)
    for (int p = 1; p < 3; ++p) { /* the vector type on one side, then on both */
      c.pair = p, c.k = 37, c.root = NEXT_ROOT, run_case(&c);
      c.k = 1, c.root = NEXT_ROOT, run_case(&c);
    }
  else {
    c.op = MPI_BXOR, c.k = 37, c.root = NEXT_ROOT, run_case(&c);
    c.op = MPI_SUM;
  }
  /* large: 1 MiB + 12 bytes per block where the call moves one block per rank, else in total */
  c.pair = 0, c.root = np - 1;
  switch (call) {
    case C_BCAST: case C_ALLREDUCE: case C_REDUCE: c.k = BIG; break;
    case C_SCATTER: case C_GATHER: case C_ALLGATHER: case C_ALLTOALL: case C_RSB: c.k = BIG / np + 1; break;
    default: c.k = 4099; break;
  }
  run_case(&c);
  if (call == C_BCAST || call == C_SCATTER || call == C_GATHER) { /* large, vector type, another root */
    c.pair = 1 + (call % 2), c.root = 0, c.k = call == C_BCAST ? BIG : BIG / np + 1;
    run_case(&c);
    c.pair = 0;
  }
  if (has_inplace(call)) {
    c.flags = F_INPLACE;
    c.k = 1, c.root = NEXT_ROOT, run_case(&c);
    c.k = 37, c.root = NEXT_ROOT, run_case(&c);
    if (!red) c.pair = 2, c.k = 37, c.root = NEXT_ROOT, run_case(&c);
    c.pair = 0, c.flags = 0;
  }
  if (rooted) /* every root; at 8 ranks every root once, alternately in place */
    for (int r = 0; r < np; ++r) {
      c.pair = red ? 0 : r % 3, c.k = 37, c.root = r;
      c.flags = has_inplace(call) && r % 2 ? F_INPLACE : 0;
      run_case(&c);
    }
  c.flags = 0, c.pair = 0;
#if MPI_VERSION >= 4
  if (call == C_BCAST || call == C_ALLREDUCE || call == C_ALLGATHERV || call == C_ALLTOALLW) {
    c.flags = F_C, c.k = 37, c.root = NEXT_ROOT, c.pair = call == C_BCAST ? 1 : 0;
    run_case(&c);
    if (has_inplace(call)) c.flags |= F_INPLACE;
    c.k = call == C_BCAST || call == C_ALLREDUCE ? BIG : 101;
    c.pair = 0;
    run_case(&c);
  }
#endif
#undef NEXT_ROOT
}

/* MPI_Ibarrier: no rank's request completes before every rank has started it. */
static void test_ibarrier(void) {
  int64_t* in = malloc((size_t)np * sizeof(int64_t));
  CHECK(in != NULL, "malloc");
  const int sleepers[3] = {np - 1, 0, np / 2};
  for (int s = 0; s < 3; ++s) {
    Op o;
    Case c = {C_BARRIER, 0, 0, 0, 0, MPI_SUM};
    op_init(&o, &c);
    if (me == sleepers[s]) {
      const struct timespec d = {0, 20 * 1000 * 1000};
      nanosleep(&d, NULL);
    }
    const int64_t t_in = now_ns();
    op_start(&o);
    complete(&o.req);
    const int64_t t_out = now_ns();
    op_check(&o);
    CHECK_MPI(MPI_Allgather(&t_in, 1, MPI_INT64_T, in, 1, MPI_INT64_T, MPI_COMM_WORLD));
    for (int r = 0; r < np; ++r)
      EXPECT(t_out >= in[r], "MPI_Ibarrier (sleeper %d): completed at %lld ns, before rank %d started it at %lld ns",
             sleepers[s], (long long)t_out, r, (long long)in[r]);
  }
  free(in);
}

/* All 17 calls started back to back on independent buffers, one MPI_Waitall. */
static void test_batch(int rep) {
  Op* ops = calloc(NCALLS, sizeof(Op));
  MPI_Request reqs[NCALLS];
  CHECK(ops != NULL, "calloc");
  for (int call = 0; call < NCALLS; ++call) {
    Case c = {call, (call + rep) % 3, 37 + rep, (call + rep) % np, (call + rep) % 2 && has_inplace(call) ? F_INPLACE : 0,
              MPI_SUM};
    if (is_reduction(call)) c.pair = 0;
    op_init(&ops[call], &c);
    op_start(&ops[call]);
    reqs[call] = ops[call].req;
  }
  snprintf(ctx, sizeof ctx, "batch %d of all calls", rep);
  if (rep % 2 == 0) {
    CHECK_MPI(MPI_Waitall(NCALLS, reqs, STATUSES_IGNORE));
  } else { /* MPI_Waitsome until all are done */
    int left = NCALLS, outc, idx[NCALLS];
    while (left > 0) {
      CHECK_MPI(MPI_Waitsome(NCALLS, reqs, &outc, idx, STATUSES_IGNORE));
      CHECK(outc >= 1 && outc <= left, "%s: MPI_Waitsome outcount %d with %d pending", ctx, outc, left);
      left -= outc;
    }
    CHECK_MPI(MPI_Waitsome(NCALLS, reqs, &outc, idx, STATUSES_IGNORE));
    EXPECT(outc == MPI_UNDEFINED, "%s: MPI_Waitsome with no active request: outcount %d", ctx, outc);
  }
  for (int call = 0; call < NCALLS; ++call) {
    EXPECT(reqs[call] == MPI_REQUEST_NULL, "%s: request %d not freed", ctx, call);
    op_check(&ops[call]);
  }
  free(ops);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  CHECK(np <= 64, "at most 64 ranks");
  t_allgatherv_self = getenv("NBC_BASIC_ALLGATHERV_SELF_DISPLS_IGNORED") != NULL;
  t_alltoallw_inplace = getenv("NBC_BASIC_IALLTOALLW_INPLACE_TYPE_SIZE") != NULL;
  CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_INT, &lay_vec.type));
  CHECK_MPI(MPI_Type_commit(&lay_vec.type));
  {
    int size = 0;
    MPI_Aint lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_size(lay_vec.type, &size));
    CHECK_MPI(MPI_Type_get_extent(lay_vec.type, &lb, &ext));
    EXPECT(size == 24 && lb == 0 && ext == 32, "vector(3,2,3,int): size %d lb %ld extent %ld", size, (long)lb, (long)ext);
  }
  pairs[0] = (Pair){&lay_int, &lay_int};
  pairs[1] = (Pair){&lay_vec, &lay_int};
  pairs[2] = (Pair){&lay_int, &lay_vec};
  test_ibarrier();
  for (int call = C_BCAST; call < NCALLS; ++call) run_call(call);
  for (int rep = 0; rep < 2; ++rep) test_batch(rep);
  CHECK_MPI(MPI_Type_free(&lay_vec.type));
  coll_finish("nbc_basic");
  return 0;
}
