/* coll_basic: exact results of the blocking data-movement collectives on MPI_COMM_WORLD
 * (MPI-4.1 Collective Communication: Barrier, Broadcast, Gather, Scatter, Gather-to-all,
 * All-to-All).
 *
 * Every message is a stream of basic elements (bytes, ints or int64s) whose values are a
 * hash of (call, source rank, destination rank, stream index, iteration), so a value
 * from another rank, another position or an earlier call (stale staging data) is caught.
 * Every receive buffer sits between guard zones and is pre-filled with a pseudo-random
 * pattern; after the call the WHOLE buffer, guards, gaps between segments and holes
 * inside derived datatypes included, must equal the expected image byte for byte. Send
 * buffers must come back unchanged, and so must receive buffers that are not significant
 * (Gather/Gatherv at non-roots, when one is passed instead of NULL).
 *
 * Each call runs: sizes 0, 1, 13, 1001 basic elements (twice each, same buffers layout,
 * new data), 8192 ints (32 KiB), 13 and 1001 bytes at odd addresses, every pair of
 * signature-matching but different datatypes below at 13 elements (vector, struct with
 * lb 4, indexed with decreasing displacements, resized, contiguous, byte vector, int64
 * struct/hvector), cases of 1 MiB + 12 bytes per block (contiguous, and in place) and of
 * 100003 indexed elements sent as resized ones, for Allgather(v) also 2.5 MiB + 12 bytes
 * per block (contiguous, in place, and indexed sent as resized), MPI_IN_PLACE wherever
 * the standard allows it (Scatter(v) and Gather(v) at the root, Allgather(v),
 * Alltoall(v/w); each call's "in place" paragraph), every root for the rooted calls, and
 * (MPI_VERSION >= 4) the _c variants. The v-variants give some ranks zero counts and
 * place segments at non-monotone displacements with gaps; Alltoallw uses a different
 * datatype pair per peer and odd byte displacements. Roots of the other cases rotate
 * over 0, 3, size-1, 1, size/2.
 * MPI_Barrier: a rank sleeps before entering; no rank may leave before every rank has
 * entered (CLOCK_MONOTONIC stamps taken before entry and after exit, exchanged with
 * MPI_Allgather).
 * Point-to-point is not used. Prints "coll_basic: OK (N checks)" on rank 0.
 *
 * Peer toggles (set by tests/peer/run_coll_peer.sh), each avoiding one peer bug:
 *   COLL_BASIC_ALLGATHERV_SELF_DISPLS_IGNORED  MPICH 4.0.2: on a 1-rank communicator
 *       MPI_Allgatherv writes at recvbuf, ignoring displs[0]; 1-rank Allgatherv cases
 *       then use displs[0] = 0.
 *   COLL_BASIC_ALLTOALLW_SELF_DISPLS_SCALED  Open MPI 4.1.4 (coll/self): on a 1-rank
 *       communicator MPI_Alltoallw multiplies the byte displacements by the extent;
 *       1-rank Alltoallw cases then use displacements 0.
 * Usage: coll_basic */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "coll_util.h"

static int g_iter; /* advances identically on every rank: one per collective call */
static char ctx[256];
static int t_allgatherv_self, t_alltoallw_self; /* peer toggles, see the header */

enum { GUARD = 64 };
enum { C_BCAST, C_SCATTER, C_SCATTERV, C_GATHER, C_GATHERV, C_ALLGATHER, C_ALLGATHERV, C_ALLTOALL, C_ALLTOALLV,
       C_ALLTOALLW, NCALLS };
static const char* const call_name[NCALLS] = {"MPI_Bcast",     "MPI_Scatter",  "MPI_Scatterv",  "MPI_Gather",
                                              "MPI_Gatherv",   "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall",
                                              "MPI_Alltoallv", "MPI_Alltoallw"};
enum { F_INPLACE = 1, F_C = 2 };

/* Basic element j of the message src -> dst of `call` in iteration `it`. */
static uint64_t val(int call, int src, int dst, size_t j, int it) {
  const uint32_t lo = hash5(call, src, dst, (long)j, it);
  const uint32_t hi = mix32(lo ^ 0x5bd1e995u);
  return (uint64_t)hi << 32 | lo;
}

/* ---- datatypes and their type maps, written out by hand ---- */
typedef struct {
  const char* name;
  MPI_Datatype type;
  int unit;     /* bytes of the basic element */
  int n;        /* basic elements per datatype element */
  int off[6];   /* byte displacement of each, in type-map order */
  MPI_Aint lb, extent;
  MPI_Aint span; /* max(off) + unit: bytes one element reaches from the buffer address */
} Layout;

enum { L_INT, L_BYTE, L_I64, L_VEC, L_STRUCT, L_INDEXED, L_RESIZED, L_CONTIG3, L_BYTEVEC, L_I64REV, L_I64HVEC,
       NLAYOUTS };
static Layout lay[NLAYOUTS];

typedef struct {
  int s, r; /* layouts on the sending and on the receiving side */
} Pair;
static const Pair pairs[] = {{L_INT, L_INT},         {L_VEC, L_INT},      {L_INT, L_STRUCT},    {L_INDEXED, L_RESIZED},
                             {L_CONTIG3, L_VEC},     {L_BYTEVEC, L_BYTE}, {L_BYTE, L_BYTEVEC},  {L_I64REV, L_I64HVEC},
                             {L_I64, L_I64REV},      {L_STRUCT, L_INDEXED}};
enum { NPAIRS = sizeof pairs / sizeof pairs[0], P_INT = 0 };
static const Pair pair_bytes = {L_BYTE, L_BYTE};

static void set_layout(int id, const char* name, MPI_Datatype t, int unit, int n, const int* off, MPI_Aint lb,
                       MPI_Aint extent) {
  Layout* L = &lay[id];
  L->name = name;
  L->type = t;
  L->unit = unit;
  L->n = n;
  L->span = 0;
  for (int k = 0; k < n; ++k) {
    L->off[k] = off[k];
    if (off[k] + unit > L->span) L->span = off[k] + unit;
  }
  L->lb = lb;
  L->extent = extent;
  if (t != MPI_INT && t != MPI_BYTE && t != MPI_INT64_T) CHECK_MPI(MPI_Type_commit(&L->type));
  /* the model must be what MPI thinks the type is */
  int size = -1;
  MPI_Aint glb = -1, gext = -1;
  CHECK_MPI(MPI_Type_size(L->type, &size));
  CHECK_MPI(MPI_Type_get_extent(L->type, &glb, &gext));
  EXPECT(size == unit * n && glb == lb && gext == extent, "layout %s: size %d lb %ld extent %ld, model %d %ld %ld",
         name, size, (long)glb, (long)gext, unit * n, (long)lb, (long)extent);
}

static void make_layouts(void) {
  MPI_Datatype t, u;
  { const int o[] = {0}; set_layout(L_INT, "int", MPI_INT, 4, 1, o, 0, 4); }
  { const int o[] = {0}; set_layout(L_BYTE, "byte", MPI_BYTE, 1, 1, o, 0, 1); }
  { const int o[] = {0}; set_layout(L_I64, "int64", MPI_INT64_T, 8, 1, o, 0, 8); }
  { /* 3 blocks of 2 ints, stride 3 ints */
    CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_INT, &t));
    const int o[] = {0, 4, 12, 16, 24, 28};
    set_layout(L_VEC, "vector(3,2,3,int)", t, 4, 6, o, 0, 32);
  }
  { /* one int at byte 4, two ints at byte 12: lb 4, ub 20 */
    const int bl[2] = {1, 2};
    const MPI_Aint d[2] = {4, 12};
    const MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
    const int o[] = {4, 12, 16};
    set_layout(L_STRUCT, "struct{int@4,2int@12}", t, 4, 3, o, 4, 16);
  }
  { /* two ints at int 5, then one at int 0: the type map runs backwards */
    const int bl[2] = {2, 1}, d[2] = {5, 0};
    CHECK_MPI(MPI_Type_indexed(2, bl, d, MPI_INT, &t));
    const int o[] = {20, 24, 0};
    set_layout(L_INDEXED, "indexed{2@5,1@0}", t, 4, 3, o, 0, 28);
  }
  { /* ints 0 and 2, extent stretched to 20 bytes */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &u));
    CHECK_MPI(MPI_Type_create_resized(u, 0, 20, &t));
    CHECK_MPI(MPI_Type_free(&u));
    const int o[] = {0, 8};
    set_layout(L_RESIZED, "resized(vector(2,1,2,int),0,20)", t, 4, 2, o, 0, 20);
  }
  {
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    const int o[] = {0, 4, 8};
    set_layout(L_CONTIG3, "contiguous(3,int)", t, 4, 3, o, 0, 12);
  }
  {
    CHECK_MPI(MPI_Type_vector(2, 3, 5, MPI_BYTE, &t));
    const int o[] = {0, 1, 2, 5, 6, 7};
    set_layout(L_BYTEVEC, "vector(2,3,5,byte)", t, 1, 6, o, 0, 8);
  }
  {
    const int bl[2] = {1, 1};
    const MPI_Aint d[2] = {8, 0};
    const MPI_Datatype ty[2] = {MPI_INT64_T, MPI_INT64_T};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
    const int o[] = {8, 0};
    set_layout(L_I64REV, "struct{int64@8,int64@0}", t, 8, 2, o, 0, 16);
  }
  {
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 24, MPI_INT64_T, &t));
    const int o[] = {0, 24};
    set_layout(L_I64HVEC, "hvector(2,1,24,int64)", t, 8, 2, o, 0, 32);
  }
}

static void free_layouts(void) {
  for (int i = 0; i < NLAYOUTS; ++i)
    if (lay[i].type != MPI_INT && lay[i].type != MPI_BYTE && lay[i].type != MPI_INT64_T)
      CHECK_MPI(MPI_Type_free(&lay[i].type));
}

static long gcd(long a, long b) { return b == 0 ? a : gcd(b, a % b); }
/* basic elements per block must be a multiple of both types' element sizes */
static long gran(const Pair* P) {
  const long a = lay[P->s].n, b = lay[P->r].n;
  return a / gcd(a, b) * b;
}
static size_t bytes_for(long count, const Layout* L) {
  return count == 0 ? 0 : (size_t)((count - 1) * L->extent + L->span);
}
/* byte streams go to odd addresses */
static int mis_send(const Layout* L) { return L->unit == 1 ? 3 : 0; }
static int mis_recv(const Layout* L) { return L->unit == 1 ? 1 : 0; }

/* Writes basic elements j0.. of the stream (call, src, dst, it) as `count` elements of L. */
static void place(unsigned char* base, long count, const Layout* L, int call, int src, int dst, size_t j0, int it) {
  size_t j = j0;
  for (long e = 0; e < count; ++e)
    for (int k = 0; k < L->n; ++k, ++j) {
      const uint64_t v = val(call, src, dst, j, it);
      memcpy(base + (size_t)e * (size_t)L->extent + (size_t)L->off[k], &v, (size_t)L->unit);
    }
}

/* ---- guarded buffers ---- */
typedef struct {
  unsigned char* mem;
  size_t total, bytes;
  unsigned char* p; /* the address passed to MPI */
} Buf;

static void buf_init(Buf* b, size_t bytes, int mis, uint32_t seed) {
  b->bytes = bytes;
  b->total = bytes + 2 * GUARD + (size_t)mis;
  b->mem = malloc(b->total);
  CHECK(b->mem != NULL, "malloc %zu", b->total);
  b->p = b->mem + GUARD + mis;
  for (size_t i = 0; i < b->total; i += 4) {
    const uint32_t v = mix32(seed * 0x2545F491u ^ (uint32_t)(i + 1) * 0x9E3779B9u);
    memcpy(b->mem + i, &v, b->total - i < 4 ? b->total - i : 4);
  }
}
static void buf_clone(Buf* d, const Buf* s) {
  *d = *s;
  d->mem = malloc(s->total);
  CHECK(d->mem != NULL, "malloc %zu", s->total);
  memcpy(d->mem, s->mem, s->total);
  d->p = d->mem + (s->p - s->mem);
}
static void buf_free(Buf* b) {
  free(b->mem);
  memset(b, 0, sizeof *b);
}

/* got must equal want byte for byte; nelem basic elements were expected in it. */
static void verify(const Buf* got, const Buf* want, long nelem, const char* what) {
  nchecks += nelem + 1; /* the elements, and everything around them */
  if (memcmp(got->mem, want->mem, got->total) == 0) return;
  size_t i = 0;
  while (got->mem[i] == want->mem[i]) ++i;
  const long rel = (long)(got->mem + i - got->p);
  const char* where = rel < 0                     ? "guard before the buffer"
                      : (size_t)rel >= got->bytes ? "guard after the buffer"
                                                  : "buffer";
  const int bytes_match = 0;
  CHECK(bytes_match, "%s: %s: byte %ld (%s of %zu bytes) is 0x%02x, want 0x%02x", ctx, what, rel, where, got->bytes,
        got->mem[i], want->mem[i]);
}

/* ---- one collective call, checked ---- */
typedef struct {
  int call, pair; /* pair index, or -1 for the byte/byte pair */
  long k;
  int root, flags;
} Case;

static const Pair* pair_of(const Case* c) { return c->pair < 0 ? &pair_bytes : &pairs[c->pair]; }

static void describe(const Case* c, int it) {
  const Pair* P = pair_of(c);
  snprintf(ctx, sizeof ctx, "%s%s%s, %s -> %s, k=%ld, root %d, iteration %d", call_name[c->call],
           (c->flags & F_C) ? "_c" : "", (c->flags & F_INPLACE) ? " MPI_IN_PLACE" : "", lay[P->s].name, lay[P->r].name,
           c->k, c->root, it);
}

static void check_rc(int rc) {
  EXPECT(rc == MPI_SUCCESS, "%s returned %d", ctx, rc);
}

static void t_bcast(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout* L = me == c->root ? &lay[P->s] : &lay[P->r];
  const long B = round_up(c->k, gran(P)), cnt = B / L->n;
  Buf b, want;
  buf_init(&b, bytes_for(cnt, L), me == c->root ? mis_send(L) : mis_recv(L), seed(it, 1));
  if (me == c->root) place(b.p, cnt, L, C_BCAST, c->root, 0, 0, it);
  buf_clone(&want, &b);
  if (me != c->root) place(want.p, cnt, L, C_BCAST, c->root, 0, 0, it);
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C)
    rc = MPI_Bcast_c(b.p, cnt, L->type, c->root, MPI_COMM_WORLD);
  else
#endif
    rc = MPI_Bcast(b.p, (int)cnt, L->type, c->root, MPI_COMM_WORLD);
  check_rc(rc);
  verify(&b, &want, B, me == c->root ? "root's buffer" : "received data");
  buf_free(&b);
  buf_free(&want);
}

static void t_scatter(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long B = round_up(c->k, gran(P)), cs = B / Ls->n, cr = B / Lr->n;
  const int root = c->root, inplace = (c->flags & F_INPLACE) && me == root;
  Buf sb = {0}, sw = {0}, rb = {0}, rw = {0};
  if (me == root) {
    buf_init(&sb, bytes_for(cs * np, Ls), mis_send(Ls), seed(it, 2));
    for (int i = 0; i < np; ++i) place(sb.p + (size_t)(i * cs * Ls->extent), cs, Ls, C_SCATTER, root, i, 0, it);
    buf_clone(&sw, &sb);
  }
  if (!inplace) {
    buf_init(&rb, bytes_for(cr, Lr), mis_recv(Lr), seed(it, 3));
    buf_clone(&rw, &rb);
    place(rw.p, cr, Lr, C_SCATTER, root, me, 0, it);
  }
  void* recvbuf = inplace ? MPI_IN_PLACE : (void*)rb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C)
    rc = MPI_Scatter_c(sb.p, cs, Ls->type, recvbuf, cr, Lr->type, root, MPI_COMM_WORLD);
  else
#endif
    rc = MPI_Scatter(sb.p, (int)cs, Ls->type, recvbuf, (int)cr, Lr->type, root, MPI_COMM_WORLD);
  check_rc(rc);
  if (me == root) verify(&sb, &sw, 0, "root's send buffer (must be unchanged)");
  if (!inplace) verify(&rb, &rw, B, "received segment");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
}

static void t_scatterv(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long g = gran(P);
  const int root = c->root, inplace = (c->flags & F_INPLACE) && me == root;
  int* counts = malloc((size_t)np * sizeof(int));
  int* displs = malloc((size_t)np * sizeof(int));
  CHECK(counts && displs, "malloc");
  for (int i = 0; i < np; ++i) counts[i] = (int)(round_up(vcount(c->k, i), g) / Ls->n);
  const long total = place_displs(counts, it, displs);
  const long Bme = round_up(vcount(c->k, me), g), cr = Bme / Lr->n;
  Buf sb = {0}, sw = {0}, rb = {0}, rw = {0};
  if (me == root) {
    buf_init(&sb, bytes_for(total, Ls), mis_send(Ls), seed(it, 4));
    for (int i = 0; i < np; ++i)
      place(sb.p + (size_t)(displs[i] * Ls->extent), counts[i], Ls, C_SCATTERV, root, i, 0, it);
    buf_clone(&sw, &sb);
  }
  if (!inplace) {
    buf_init(&rb, bytes_for(cr, Lr), mis_recv(Lr), seed(it, 5));
    buf_clone(&rw, &rb);
    place(rw.p, cr, Lr, C_SCATTERV, root, me, 0, it);
  }
  void* recvbuf = inplace ? MPI_IN_PLACE : (void*)rb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C) {
    MPI_Count* cc = to_count(counts);
    MPI_Aint* dd = to_aint(displs);
    rc = MPI_Scatterv_c(sb.p, cc, dd, Ls->type, recvbuf, cr, Lr->type, root, MPI_COMM_WORLD);
    free(cc), free(dd);
  } else
#endif
    rc = MPI_Scatterv(sb.p, counts, displs, Ls->type, recvbuf, (int)cr, Lr->type, root, MPI_COMM_WORLD);
  check_rc(rc);
  if (me == root) verify(&sb, &sw, 0, "root's send buffer (must be unchanged)");
  if (!inplace) verify(&rb, &rw, Bme, "received segment");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
  free(counts), free(displs);
}

static void t_gather(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long B = round_up(c->k, gran(P)), cs = B / Ls->n, cr = B / Lr->n;
  const int root = c->root, inplace = (c->flags & F_INPLACE) && me == root;
  Buf sb = {0}, sw = {0}, rb = {0}, rw = {0};
  if (!inplace) {
    buf_init(&sb, bytes_for(cs, Ls), mis_send(Ls), seed(it, 6));
    place(sb.p, cs, Ls, C_GATHER, me, root, 0, it);
    buf_clone(&sw, &sb);
  }
  /* non-roots: recvbuf is not significant; NULL in even iterations, else a buffer that
   * must stay untouched */
  if (me == root || it % 2) {
    buf_init(&rb, bytes_for(cr * np, Lr), mis_recv(Lr), seed(it, 7));
    if (inplace) place(rb.p + (size_t)(me * cr * Lr->extent), cr, Lr, C_GATHER, me, root, 0, it);
    buf_clone(&rw, &rb);
    if (me == root)
      for (int i = 0; i < np; ++i) place(rw.p + (size_t)(i * cr * Lr->extent), cr, Lr, C_GATHER, i, root, 0, it);
  }
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C)
    rc = MPI_Gather_c(sendbuf, cs, Ls->type, rb.p, cr, Lr->type, root, MPI_COMM_WORLD);
  else
#endif
    rc = MPI_Gather(sendbuf, (int)cs, Ls->type, rb.p, (int)cr, Lr->type, root, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  if (rb.mem)
    verify(&rb, &rw, me == root ? B * np : 0,
           me == root ? "gathered data" : "non-root's recvbuf (not significant: must be untouched)");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
}

static void t_gatherv(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long g = gran(P);
  const int root = c->root, inplace = (c->flags & F_INPLACE) && me == root;
  int* counts = malloc((size_t)np * sizeof(int));
  int* displs = malloc((size_t)np * sizeof(int));
  CHECK(counts && displs, "malloc");
  long Ball = 0;
  for (int i = 0; i < np; ++i) {
    counts[i] = (int)(round_up(vcount(c->k, i), g) / Lr->n);
    Ball += round_up(vcount(c->k, i), g);
  }
  const long total = place_displs(counts, it + 1, displs);
  const long Bme = round_up(vcount(c->k, me), g), cs = Bme / Ls->n;
  Buf sb = {0}, sw = {0}, rb = {0}, rw = {0};
  if (!inplace) {
    buf_init(&sb, bytes_for(cs, Ls), mis_send(Ls), seed(it, 8));
    place(sb.p, cs, Ls, C_GATHERV, me, root, 0, it);
    buf_clone(&sw, &sb);
  }
  if (me == root || it % 2) {
    buf_init(&rb, bytes_for(total, Lr), mis_recv(Lr), seed(it, 9));
    if (inplace) place(rb.p + (size_t)(displs[me] * Lr->extent), counts[me], Lr, C_GATHERV, me, root, 0, it);
    buf_clone(&rw, &rb);
    if (me == root)
      for (int i = 0; i < np; ++i)
        place(rw.p + (size_t)(displs[i] * Lr->extent), counts[i], Lr, C_GATHERV, i, root, 0, it);
  }
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C) {
    MPI_Count* cc = to_count(counts);
    MPI_Aint* dd = to_aint(displs);
    rc = MPI_Gatherv_c(sendbuf, cs, Ls->type, rb.p, cc, dd, Lr->type, root, MPI_COMM_WORLD);
    free(cc), free(dd);
  } else
#endif
    rc = MPI_Gatherv(sendbuf, (int)cs, Ls->type, rb.p, counts, displs, Lr->type, root, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  if (rb.mem)
    verify(&rb, &rw, me == root ? Ball : 0,
           me == root ? "gathered data" : "non-root's recvbuf (not significant: must be untouched)");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
  free(counts), free(displs);
}

static void t_allgather(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long B = round_up(c->k, gran(P)), cs = B / Ls->n, cr = B / Lr->n;
  const int inplace = c->flags & F_INPLACE;
  Buf sb = {0}, sw = {0}, rb, rw;
  if (!inplace) {
    buf_init(&sb, bytes_for(cs, Ls), mis_send(Ls), seed(it, 10));
    place(sb.p, cs, Ls, C_ALLGATHER, me, 0, 0, it);
    buf_clone(&sw, &sb);
  }
  buf_init(&rb, bytes_for(cr * np, Lr), mis_recv(Lr), seed(it, 11));
  if (inplace) place(rb.p + (size_t)(me * cr * Lr->extent), cr, Lr, C_ALLGATHER, me, 0, 0, it);
  buf_clone(&rw, &rb);
  for (int i = 0; i < np; ++i) place(rw.p + (size_t)(i * cr * Lr->extent), cr, Lr, C_ALLGATHER, i, 0, 0, it);
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C)
    rc = MPI_Allgather_c(sendbuf, cs, Ls->type, rb.p, cr, Lr->type, MPI_COMM_WORLD);
  else
#endif
    rc = MPI_Allgather(sendbuf, (int)cs, Ls->type, rb.p, (int)cr, Lr->type, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  verify(&rb, &rw, B * np, "gathered data");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
}

static void t_allgatherv(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long g = gran(P);
  const int inplace = c->flags & F_INPLACE;
  int* counts = malloc((size_t)np * sizeof(int));
  int* displs = malloc((size_t)np * sizeof(int));
  CHECK(counts && displs, "malloc");
  long Ball = 0;
  for (int i = 0; i < np; ++i) {
    counts[i] = (int)(round_up(vcount(c->k, i), g) / Lr->n);
    Ball += round_up(vcount(c->k, i), g);
  }
  long total = place_displs(counts, it + 2, displs);
  if (np == 1 && t_allgatherv_self) displs[0] = 0, total = counts[0];
  const long Bme = round_up(vcount(c->k, me), g), cs = Bme / Ls->n;
  Buf sb = {0}, sw = {0}, rb, rw;
  if (!inplace) {
    buf_init(&sb, bytes_for(cs, Ls), mis_send(Ls), seed(it, 12));
    place(sb.p, cs, Ls, C_ALLGATHERV, me, 0, 0, it);
    buf_clone(&sw, &sb);
  }
  buf_init(&rb, bytes_for(total, Lr), mis_recv(Lr), seed(it, 13));
  if (inplace) place(rb.p + (size_t)(displs[me] * Lr->extent), counts[me], Lr, C_ALLGATHERV, me, 0, 0, it);
  buf_clone(&rw, &rb);
  for (int i = 0; i < np; ++i) place(rw.p + (size_t)(displs[i] * Lr->extent), counts[i], Lr, C_ALLGATHERV, i, 0, 0, it);
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C) {
    MPI_Count* cc = to_count(counts);
    MPI_Aint* dd = to_aint(displs);
    rc = MPI_Allgatherv_c(sendbuf, cs, Ls->type, rb.p, cc, dd, Lr->type, MPI_COMM_WORLD);
    free(cc), free(dd);
  } else
#endif
    rc = MPI_Allgatherv(sendbuf, (int)cs, Ls->type, rb.p, counts, displs, Lr->type, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  verify(&rb, &rw, Ball, "gathered data");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
  free(counts), free(displs);
}

static void t_alltoall(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long B = round_up(c->k, gran(P)), cs = B / Ls->n, cr = B / Lr->n;
  const int inplace = c->flags & F_INPLACE;
  Buf sb = {0}, sw = {0}, rb, rw;
  if (!inplace) {
    buf_init(&sb, bytes_for(cs * np, Ls), mis_send(Ls), seed(it, 14));
    for (int j = 0; j < np; ++j) place(sb.p + (size_t)(j * cs * Ls->extent), cs, Ls, C_ALLTOALL, me, j, 0, it);
    buf_clone(&sw, &sb);
  }
  buf_init(&rb, bytes_for(cr * np, Lr), mis_recv(Lr), seed(it, 15));
  if (inplace) /* the data to send sits in recvbuf, in the receive type map */
    for (int j = 0; j < np; ++j) place(rb.p + (size_t)(j * cr * Lr->extent), cr, Lr, C_ALLTOALL, me, j, 0, it);
  buf_clone(&rw, &rb);
  for (int i = 0; i < np; ++i) place(rw.p + (size_t)(i * cr * Lr->extent), cr, Lr, C_ALLTOALL, i, me, 0, it);
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C)
    rc = MPI_Alltoall_c(sendbuf, cs, Ls->type, rb.p, cr, Lr->type, MPI_COMM_WORLD);
  else
#endif
    rc = MPI_Alltoall(sendbuf, (int)cs, Ls->type, rb.p, (int)cr, Lr->type, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  verify(&rb, &rw, B * np, "received blocks");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
}

static void t_alltoallv(const Case* c, int it) {
  const Pair* P = pair_of(c);
  const Layout *Ls = &lay[P->s], *Lr = &lay[P->r];
  const long g = gran(P);
  const int inplace = c->flags & F_INPLACE;
  int *sc = malloc((size_t)np * sizeof(int)), *sd = malloc((size_t)np * sizeof(int));
  int *rcn = malloc((size_t)np * sizeof(int)), *rd = malloc((size_t)np * sizeof(int));
  CHECK(sc && sd && rcn && rd, "malloc");
  long Brecv = 0;
  for (int j = 0; j < np; ++j) {
    const long bs = round_up(inplace ? pcount_sym(c->k, me, j) : pcount(c->k, me, j), g);
    const long br = round_up(inplace ? pcount_sym(c->k, j, me) : pcount(c->k, j, me), g);
    sc[j] = (int)(bs / Ls->n);
    rcn[j] = (int)(br / Lr->n);
    Brecv += br;
  }
  const long stotal = place_displs(sc, it + me, sd);
  const long rtotal = place_displs(rcn, it + me + 1, rd);
  Buf sb = {0}, sw = {0}, rb, rw;
  if (!inplace) {
    buf_init(&sb, bytes_for(stotal, Ls), mis_send(Ls), seed(it, 16));
    for (int j = 0; j < np; ++j) place(sb.p + (size_t)(sd[j] * Ls->extent), sc[j], Ls, C_ALLTOALLV, me, j, 0, it);
    buf_clone(&sw, &sb);
  }
  buf_init(&rb, bytes_for(rtotal, Lr), mis_recv(Lr), seed(it, 17));
  if (inplace)
    for (int j = 0; j < np; ++j) place(rb.p + (size_t)(rd[j] * Lr->extent), rcn[j], Lr, C_ALLTOALLV, me, j, 0, it);
  buf_clone(&rw, &rb);
  for (int i = 0; i < np; ++i) place(rw.p + (size_t)(rd[i] * Lr->extent), rcn[i], Lr, C_ALLTOALLV, i, me, 0, it);
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C) {
    MPI_Count *c1 = to_count(sc), *c2 = to_count(rcn);
    MPI_Aint *d1 = to_aint(sd), *d2 = to_aint(rd);
    rc = MPI_Alltoallv_c(sendbuf, c1, d1, Ls->type, rb.p, c2, d2, Lr->type, MPI_COMM_WORLD);
    free(c1), free(c2), free(d1), free(d2);
  } else
#endif
    rc = MPI_Alltoallv(sendbuf, sc, sd, Ls->type, rb.p, rcn, rd, Lr->type, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  verify(&rb, &rw, Brecv, "received blocks");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
  free(sc), free(sd), free(rcn), free(rd);
}

/* Alltoallw: the block i -> j uses pair (i + j + pair) % NPAIRS (symmetric, so that in
 * place the receive types of both ends match); byte displacements, blocks of byte
 * streams at odd addresses, placed in non-monotone order. */
static void t_alltoallw(const Case* c, int it) {
  const int inplace = c->flags & F_INPLACE;
  int *sc = malloc((size_t)np * sizeof(int)), *sd = malloc((size_t)np * sizeof(int));
  int *rcn = malloc((size_t)np * sizeof(int)), *rd = malloc((size_t)np * sizeof(int));
  MPI_Datatype *st = malloc((size_t)np * sizeof(MPI_Datatype)), *rt = malloc((size_t)np * sizeof(MPI_Datatype));
  const Layout **sl = malloc((size_t)np * sizeof(Layout*)), **rl = malloc((size_t)np * sizeof(Layout*));
  CHECK(sc && sd && rcn && rd && st && rt && sl && rl, "malloc");
  const int base = c->pair < 0 ? 5 : c->pair; /* the byte case starts at the byte pairs */
  long Brecv = 0;
  for (int j = 0; j < np; ++j) {
    const Pair* P = &pairs[(me + j + base) % NPAIRS]; /* me -> j and j -> me use the same pair */
    const long g = gran(P);
    const long bs = round_up(inplace ? pcount_sym(c->k, me, j) : pcount(c->k, me, j), g);
    const long br = round_up(inplace ? pcount_sym(c->k, j, me) : pcount(c->k, j, me), g);
    sl[j] = &lay[P->s];
    rl[j] = &lay[P->r];
    sc[j] = (int)(bs / sl[j]->n);
    rcn[j] = (int)(br / rl[j]->n);
    st[j] = sl[j]->type;
    rt[j] = rl[j]->type;
    Brecv += br;
  }
  /* byte displacements: blocks in permuted order, each at an 8-aligned offset (+1 for
   * byte streams), 8 bytes of gap after each */
  int order[64];
  size_t stotal = 0, rtotal = 0;
  perm(np, it + me, order);
  for (int t = 0; t < np; ++t) {
    const int j = order[t];
    stotal = (stotal + 7) / 8 * 8 + (size_t)(sl[j]->unit == 1);
    sd[j] = (int)stotal;
    stotal += bytes_for(sc[j], sl[j]) + 8;
  }
  perm(np, it + me + 1, order);
  for (int t = 0; t < np; ++t) {
    const int j = order[t];
    rtotal = (rtotal + 7) / 8 * 8 + (size_t)(rl[j]->unit == 1);
    rd[j] = (int)rtotal;
    rtotal += bytes_for(rcn[j], rl[j]) + 8;
  }
  if (np == 1 && t_alltoallw_self) sd[0] = rd[0] = 0;
  Buf sb = {0}, sw = {0}, rb, rw;
  if (!inplace) {
    buf_init(&sb, stotal, 0, seed(it, 18));
    for (int j = 0; j < np; ++j) place(sb.p + sd[j], sc[j], sl[j], C_ALLTOALLW, me, j, 0, it);
    buf_clone(&sw, &sb);
  }
  buf_init(&rb, rtotal, 0, seed(it, 19));
  if (inplace)
    for (int j = 0; j < np; ++j) place(rb.p + rd[j], rcn[j], rl[j], C_ALLTOALLW, me, j, 0, it);
  buf_clone(&rw, &rb);
  for (int i = 0; i < np; ++i) place(rw.p + rd[i], rcn[i], rl[i], C_ALLTOALLW, i, me, 0, it);
  void* sendbuf = inplace ? MPI_IN_PLACE : (void*)sb.p;
  int rc;
#if MPI_VERSION >= 4
  if (c->flags & F_C) {
    MPI_Count *c1 = to_count(sc), *c2 = to_count(rcn);
    MPI_Aint *d1 = to_aint(sd), *d2 = to_aint(rd);
    rc = MPI_Alltoallw_c(sendbuf, c1, d1, st, rb.p, c2, d2, rt, MPI_COMM_WORLD);
    free(c1), free(c2), free(d1), free(d2);
  } else
#endif
    rc = MPI_Alltoallw(sendbuf, sc, sd, st, rb.p, rcn, rd, rt, MPI_COMM_WORLD);
  check_rc(rc);
  if (!inplace) verify(&sb, &sw, 0, "send buffer (must be unchanged)");
  verify(&rb, &rw, Brecv, "received blocks");
  buf_free(&sb), buf_free(&sw), buf_free(&rb), buf_free(&rw);
  free(sc), free(sd), free(rcn), free(rd), free(st), free(rt), free(sl), free(rl);
}

static void run_case(const Case* c) {
  const int it = g_iter++;
  describe(c, it);
  switch (c->call) {
    case C_BCAST: t_bcast(c, it); break;
    case C_SCATTER: t_scatter(c, it); break;
    case C_SCATTERV: t_scatterv(c, it); break;
    case C_GATHER: t_gather(c, it); break;
    case C_GATHERV: t_gatherv(c, it); break;
    case C_ALLGATHER: t_allgather(c, it); break;
    case C_ALLGATHERV: t_allgatherv(c, it); break;
    case C_ALLTOALL: t_alltoall(c, it); break;
    case C_ALLTOALLV: t_alltoallv(c, it); break;
    case C_ALLTOALLW: t_alltoallw(c, it); break;
  }
}

enum { BIG = 262147,   /* ints: 1 MiB + 12 bytes per block */
       HUGE = 655363 }; /* ints: 2.5 MiB + 12 bytes, more than a library may stage or buffer in one piece */

static void run_call(int call) {
  const int rooted =
      call == C_BCAST || call == C_SCATTER || call == C_SCATTERV || call == C_GATHER || call == C_GATHERV;
  const int has_inplace = call != C_BCAST;
  const int roots[5] = {0, 3 % np, np - 1, 1 % np, np / 2};
  int rot = 0;
#define NEXT_ROOT (rooted ? roots[rot++ % 5] : 0)
  Case c = {call, P_INT, 0, 0, 0};
  static const long sizes[4] = {0, 1, 13, 1001};
  for (int s = 0; s < 4; ++s)
    for (int rep = 0; rep < 2; ++rep) { /* same geometry twice, new data: stale data shows */
      c.k = sizes[s];
      c.root = NEXT_ROOT;
      run_case(&c);
    }
  c.pair = P_INT, c.k = 8192, c.root = NEXT_ROOT; /* 32 KiB: where libraries change protocol */
  run_case(&c);
  c.pair = -1; /* bytes at odd addresses */
  c.k = 13, c.root = NEXT_ROOT, run_case(&c);
  c.k = 1001, c.root = NEXT_ROOT, run_case(&c);
  for (int p = 1; p < NPAIRS; ++p) {
    c.pair = p, c.k = 13, c.root = NEXT_ROOT;
    run_case(&c);
  }
  c.pair = P_INT, c.k = BIG, c.root = np - 1;
  run_case(&c);
  c.pair = 3, c.k = 100003, c.root = NEXT_ROOT; /* large and non-contiguous on both sides */
  run_case(&c);
  if (call == C_ALLGATHER || call == C_ALLGATHERV) { /* every rank sends and receives HUGE blocks at once */
    c.pair = P_INT, c.k = HUGE, run_case(&c);
    c.flags = F_INPLACE, run_case(&c);
    c.flags = 0, c.pair = 3, run_case(&c);
  }
  if (has_inplace) {
    c.flags = F_INPLACE, c.pair = P_INT, c.k = BIG, c.root = NEXT_ROOT, run_case(&c);
    c.flags = F_INPLACE;
    c.pair = P_INT, c.k = 1, c.root = NEXT_ROOT, run_case(&c);
    c.pair = P_INT, c.k = 1001, c.root = NEXT_ROOT, run_case(&c);
    c.pair = 3, c.k = 13, c.root = NEXT_ROOT, run_case(&c);
    c.pair = -1, c.k = 13, c.root = NEXT_ROOT, run_case(&c);
    c.flags = 0;
  }
  if (rooted)
    for (int r = 0; r < np; ++r) {
      c.pair = r % NPAIRS, c.k = 13, c.root = r;
      c.flags = has_inplace && r % 2 ? F_INPLACE : 0;
      run_case(&c);
    }
#if MPI_VERSION >= 4
  c.flags = F_C, c.pair = 4, c.k = 13, c.root = NEXT_ROOT, run_case(&c);
  c.flags = F_C | (has_inplace ? F_INPLACE : 0), c.pair = P_INT, c.k = 1001, c.root = NEXT_ROOT, run_case(&c);
#endif
#undef NEXT_ROOT
}

/* MPI_Barrier: nobody leaves before everybody has entered (Barrier Synchronization). */
static void test_barrier(void) {
  int64_t* in = malloc((size_t)np * sizeof(int64_t));
  CHECK(in != NULL, "malloc");
  const int sleepers[4] = {0, np - 1, 3 % np, np / 2};
  for (int s = 0; s < 4; ++s) {
    if (me == sleepers[s]) {
      const struct timespec d = {0, 20 * 1000 * 1000};
      nanosleep(&d, NULL);
    }
    const int64_t t_in = now_ns();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    const int64_t t_out = now_ns();
    CHECK_MPI(MPI_Allgather(&t_in, 1, MPI_INT64_T, in, 1, MPI_INT64_T, MPI_COMM_WORLD));
    for (int r = 0; r < np; ++r)
      EXPECT(t_out >= in[r], "MPI_Barrier (sleeper %d): left at %lld ns, before rank %d entered at %lld ns",
             sleepers[s], (long long)t_out, r, (long long)in[r]);
  }
  for (int i = 0; i < 10; ++i) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));
  ++nchecks;
  free(in);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  CHECK(np <= 64, "at most 64 ranks");
  t_allgatherv_self = getenv("COLL_BASIC_ALLGATHERV_SELF_DISPLS_IGNORED") != NULL;
  t_alltoallw_self = getenv("COLL_BASIC_ALLTOALLW_SELF_DISPLS_SCALED") != NULL;
  make_layouts();
  test_barrier();
  for (int call = 0; call < NCALLS; ++call) run_call(call);
  free_layouts();
  coll_finish("coll_basic");
  return 0;
}
