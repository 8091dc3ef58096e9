/* rma_datatypes: derived datatypes at the origin, the target and (MPI_Get_accumulate)
 * the result buffer (MPI-4.1 13.3: the origin and target type maps may differ if the
 * type signatures agree; accumulate types are built from one predefined type). Types:
 * contiguous, vector, hvector, indexed (blocks out of memory order), indexed_block,
 * hindexed, struct (one basic type, blocks out of order), resized (a larger extent; a
 * negative lb), subarray, and a vector of a resized type; counts above 1. Cases:
 * MPI_Put, MPI_Get, MPI_Accumulate (SUM, REPLACE), MPI_Get_accumulate (SUM, NO_OP,
 * REPLACE) on MPI_INT and MPI_DOUBLE types, each in its own 256-byte slot of the right
 * neighbour's window. Every byte of the window and of the origin and result buffers is
 * checked against a hand-computed image: entries of the type maps hold exactly the
 * values moved or combined, in type-signature order; every other byte keeps its
 * pattern. Under passive target the same cases run again with MPI_Rput, MPI_Rget,
 * MPI_Raccumulate and MPI_Rget_accumulate, completed by MPI_Wait, by an MPI_Test loop
 * or by one MPI_Waitall; after completion and before any flush or unlock the Rget and
 * Rget_accumulate buffers must hold their data, and the Rput/Raccumulate origin buffers
 * are overwritten (local completion: MPI must not read them any more). Request-based
 * operations exist only in passive target epochs (MPI-4.1 13.3.5): not under fence/PSCW.
 * Non-dynamic windows use disp_unit 4 (target_disp scales, type map displacements not).
 * Usage: rma_datatypes [FLAVOUR|all] [SYNC|all]
 *   FLAVOUR: allocate shared create_heap create_static dynamic   (default all)
 *   SYNC:    fence lock_all lock_shared lock_exclusive pscw       (default all) */
#include <stdint.h>
#include <string.h>

#include "check.h"

#include "rma_harness.h"

/* ---- datatypes with their type maps computed by hand ---- */
#define MAXN 16
typedef struct {
  MPI_Datatype t;
  const char* name;
  MPI_Datatype basic;
  int bsize, n;       /* basic element size; entries per instance */
  MPI_Aint off[MAXN]; /* byte displacement of each entry, in type map order */
  MPI_Aint lb, extent;
} tmap;

enum {
  T_CONTIG,
  T_VEC,
  T_HVEC,
  T_IDX,
  T_IBLOCK,
  T_HIDX,
  T_STRUCT,
  T_RES2,
  T_RESLB,
  T_SUBARR,
  T_NEST,
  D_VEC,
  D_IDX,
  D_CONTIG,
  D_STRUCT,
  NTMAPS
};
static tmap maps[NTMAPS];

static void commit(int id, const char* name, MPI_Datatype t, MPI_Datatype basic, MPI_Aint lb, MPI_Aint extent) {
  tmap* m = &maps[id];
  m->t = t;
  m->name = name;
  m->basic = basic;
  m->bsize = basic == MPI_INT ? (int)sizeof(int) : (int)sizeof(double);
  m->lb = lb;
  m->extent = extent;
  CHECK_MPI(MPI_Type_commit(&m->t));
  int size = -1;
  MPI_Aint glb = -1, gext = -1;
  CHECK_MPI(MPI_Type_size(m->t, &size));
  CHECK_MPI(MPI_Type_get_extent(m->t, &glb, &gext));
  CHECK(size == m->n * m->bsize, "%s: size %d, expected %d", name, size, m->n * m->bsize);
  CHECK(glb == lb && gext == extent, "%s: lb %ld extent %ld, expected %ld %ld", name, (long)glb, (long)gext, (long)lb,
        (long)extent);
}
static void add(int id, MPI_Aint off) {
  CHECK(maps[id].n < MAXN, "type map too long");
  maps[id].off[maps[id].n++] = off;
}

static void build_types(void) {
  const MPI_Aint I = sizeof(int), D = sizeof(double);
  MPI_Datatype t, inner;
  /* contiguous(12) */
  for (int i = 0; i < 12; ++i)
    add(T_CONTIG, i * I);
  CHECK_MPI(MPI_Type_contiguous(12, MPI_INT, &t));
  commit(T_CONTIG, "contiguous(12)", t, MPI_INT, 0, 48);
  /* vector(3 blocks of 4, stride 6) */
  for (int b = 0; b < 3; ++b)
    for (int j = 0; j < 4; ++j)
      add(T_VEC, (b * 6 + j) * I);
  CHECK_MPI(MPI_Type_vector(3, 4, 6, MPI_INT, &t));
  commit(T_VEC, "vector(3,4,6)", t, MPI_INT, 0, 64);
  /* hvector(4 blocks of 3, stride 40 bytes) */
  for (int b = 0; b < 4; ++b)
    for (int j = 0; j < 3; ++j)
      add(T_HVEC, b * 40 + j * I);
  CHECK_MPI(MPI_Type_create_hvector(4, 3, 40, MPI_INT, &t));
  commit(T_HVEC, "hvector(4,3,40B)", t, MPI_INT, 0, 132);
  { /* indexed, blocks not in memory order */
    const int len[4] = {1, 3, 2, 6}, disp[4] = {10, 0, 5, 14};
    for (int b = 0; b < 4; ++b)
      for (int j = 0; j < len[b]; ++j)
        add(T_IDX, (disp[b] + j) * I);
    CHECK_MPI(MPI_Type_indexed(4, len, disp, MPI_INT, &t));
    commit(T_IDX, "indexed({1,3,2,6},{10,0,5,14})", t, MPI_INT, 0, 80);
  }
  { /* indexed_block */
    const int disp[6] = {0, 3, 7, 12, 9, 20};
    for (int b = 0; b < 6; ++b)
      for (int j = 0; j < 2; ++j)
        add(T_IBLOCK, (disp[b] + j) * I);
    CHECK_MPI(MPI_Type_create_indexed_block(6, 2, disp, MPI_INT, &t));
    commit(T_IBLOCK, "indexed_block(6,2)", t, MPI_INT, 0, 88);
  }
  { /* hindexed, byte displacements */
    const int len[3] = {5, 3, 4};
    const MPI_Aint disp[3] = {64, 0, 28};
    for (int b = 0; b < 3; ++b)
      for (int j = 0; j < len[b]; ++j)
        add(T_HIDX, disp[b] + j * I);
    CHECK_MPI(MPI_Type_create_hindexed(3, len, disp, MPI_INT, &t));
    commit(T_HIDX, "hindexed({5,3,4},{64,0,28}B)", t, MPI_INT, 0, 84);
  }
  { /* struct of MPI_INT blocks, not in memory order */
    const int len[3] = {4, 2, 6};
    const MPI_Aint disp[3] = {0, 48, 20};
    const MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_INT};
    for (int b = 0; b < 3; ++b)
      for (int j = 0; j < len[b]; ++j)
        add(T_STRUCT, disp[b] + j * I);
    CHECK_MPI(MPI_Type_create_struct(3, len, disp, types, &t));
    commit(T_STRUCT, "struct({4,2,6},{0,48,20}B)", t, MPI_INT, 0, 56);
  }
  /* resized: 2 ints, extent 12 (used with count 6) */
  add(T_RES2, 0);
  add(T_RES2, I);
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &inner));
  CHECK_MPI(MPI_Type_create_resized(inner, 0, 12, &t));
  CHECK_MPI(MPI_Type_free(&inner));
  commit(T_RES2, "resized(contiguous(2),0,12)", t, MPI_INT, 0, 12);
  /* resized with a negative lb: vector(2,1,2) as lb -8, extent 20 */
  add(T_RESLB, 0);
  add(T_RESLB, 2 * I);
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &inner));
  CHECK_MPI(MPI_Type_create_resized(inner, -8, 20, &t));
  CHECK_MPI(MPI_Type_free(&inner));
  commit(T_RESLB, "resized(vector(2,1,2),-8,20)", t, MPI_INT, -8, 20);
  { /* subarray: rows 1..3, columns 2..5 of a 6x8 C array */
    const int sizes[2] = {6, 8}, sub[2] = {3, 4}, start[2] = {1, 2};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c)
        add(T_SUBARR, ((1 + r) * 8 + 2 + c) * I);
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t));
    commit(T_SUBARR, "subarray(6x8,3x4 at 1,2)", t, MPI_INT, 0, 192);
  }
  /* vector(3,1,2) of the resized type: instances at 0, 24, 48 */
  for (int b = 0; b < 3; ++b) {
    add(T_NEST, b * 24);
    add(T_NEST, b * 24 + I);
  }
  CHECK_MPI(MPI_Type_vector(3, 1, 2, maps[T_RES2].t, &t));
  commit(T_NEST, "vector(3,1,2) of resized", t, MPI_INT, 0, 60);
  /* doubles */
  for (int b = 0; b < 3; ++b)
    for (int j = 0; j < 2; ++j)
      add(D_VEC, (b * 3 + j) * D);
  CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &t));
  commit(D_VEC, "double vector(3,2,3)", t, MPI_DOUBLE, 0, 64);
  {
    const int len[3] = {2, 1, 3}, disp[3] = {4, 0, 7};
    for (int b = 0; b < 3; ++b)
      for (int j = 0; j < len[b]; ++j)
        add(D_IDX, (disp[b] + j) * D);
    CHECK_MPI(MPI_Type_indexed(3, len, disp, MPI_DOUBLE, &t));
    commit(D_IDX, "double indexed({2,1,3},{4,0,7})", t, MPI_DOUBLE, 0, 80);
  }
  for (int i = 0; i < 6; ++i)
    add(D_CONTIG, i * D);
  CHECK_MPI(MPI_Type_contiguous(6, MPI_DOUBLE, &t));
  commit(D_CONTIG, "double contiguous(6)", t, MPI_DOUBLE, 0, 48);
  {
    const int len[2] = {3, 3};
    const MPI_Aint disp[2] = {48, 0};
    const MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
    for (int b = 0; b < 2; ++b)
      for (int j = 0; j < len[b]; ++j)
        add(D_STRUCT, disp[b] + j * D);
    CHECK_MPI(MPI_Type_create_struct(2, len, disp, types, &t));
    commit(D_STRUCT, "double struct({3,3},{48,0}B)", t, MPI_DOUBLE, 0, 72);
  }
}

/* ---- cases ---- */
enum { PUT, GET, ACC, GACC };
static const char* const call_name[2][4] = {{"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate"},
                                            {"MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate"}};
typedef struct {
  int call, op; /* op: 0 SUM, 1 REPLACE, 2 NO_OP */
  int o, oc, t, tc, r, rc;
  MPI_Aint tbase; /* where the target buffer starts in its slot */
} tcase;
static const tcase cases[] = {
    {PUT, 0, T_CONTIG, 1, T_VEC, 1, 0, 0, 0},
    {PUT, 0, T_IDX, 1, T_STRUCT, 1, 0, 0, 0},
    {PUT, 0, T_RES2, 6, T_HVEC, 1, 0, 0, 0},
    {PUT, 0, T_VEC, 1, T_NEST, 2, 0, 0, 0},
    {PUT, 0, T_HIDX, 1, T_RESLB, 6, 0, 0, 8},
    {PUT, 0, D_STRUCT, 1, D_VEC, 1, 0, 0, 0},
    {GET, 0, T_IDX, 1, T_VEC, 1, 0, 0, 0},
    {GET, 0, T_RES2, 6, T_SUBARR, 1, 0, 0, 0},
    {GET, 0, T_NEST, 2, T_IBLOCK, 1, 0, 0, 0},
    {GET, 0, D_STRUCT, 1, D_VEC, 1, 0, 0, 0},
    {ACC, 0, T_IBLOCK, 1, T_IDX, 1, 0, 0, 0},
    {ACC, 0, T_STRUCT, 1, T_SUBARR, 1, 0, 0, 0},
    {ACC, 1, T_VEC, 1, T_RES2, 6, 0, 0, 0},
    {ACC, 0, T_CONTIG, 2, T_IBLOCK, 2, 0, 0, 0},
    {ACC, 0, D_VEC, 1, D_IDX, 1, 0, 0, 0},
    {GACC, 0, T_CONTIG, 1, T_VEC, 1, T_IDX, 1, 0},
    {GACC, 0, T_HVEC, 1, T_IBLOCK, 1, T_STRUCT, 1, 0},
    {GACC, 2, T_CONTIG, 1, T_STRUCT, 1, T_SUBARR, 1, 0},
    {GACC, 1, T_RES2, 6, T_NEST, 2, T_HIDX, 1, 0},
    {GACC, 0, D_IDX, 1, D_STRUCT, 1, D_CONTIG, 1, 0},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
#define SLOT 256
static const MPI_Op op_of[3] = {MPI_SUM, MPI_REPLACE, MPI_NO_OP};

/* Byte offset of entry e (signature order) of `count` instances of map m. */
static MPI_Aint entry(const tmap* m, int e) { return (e / m->n) * m->extent + m->off[e % m->n]; }
static int entries(int map, int count) { return maps[map].n * count; }

/* Patterns: every 4-byte int / 8-byte double of a slot holds a value naming its place.
 * `who`: 0 target window, 1 origin buffer, 2 result buffer. */
static void fill(unsigned char* p, int basic_is_double, int rank, int who, int slot) {
  for (int i = 0; i < SLOT / 8; ++i) {
    if (basic_is_double) {
      const double v = 1000.0 * (rank + 1) + 100000.0 * who + 0.5 * (slot * 32 + i);
      memcpy(p + 8 * i, &v, 8);
    } else {
      for (int h = 0; h < 2; ++h) {
        const int v = (who == 1 ? -1 : 1) * ((rank + 1) * 1000000 + who * 100000 + slot * 64 + 2 * i + h);
        memcpy(p + 8 * i + 4 * h, &v, 4);
      }
    }
  }
}
static int is_double(const tcase* c) { return maps[c->t].basic == MPI_DOUBLE; }

/* What element e (an int or a double at p) becomes under op. */
static void combine(unsigned char* dst, const unsigned char* src, int dbl, int op) {
  if (op == 2) return;
  if (dbl) {
    double a, b;
    memcpy(&a, src, 8);
    memcpy(&b, dst, 8);
    b = op == 0 ? a + b : a;
    memcpy(dst, &b, 8);
  } else {
    int a, b;
    memcpy(&a, src, 4);
    memcpy(&b, dst, 4);
    b = op == 0 ? a + b : a;
    memcpy(dst, &b, 4);
  }
}

/* Expected images after case c: target slot tgt (initially pattern of `target`),
 * origin buffer org and result buffer res (initially patterns of `origin`). */
static void expect(const tcase* c, int origin, int target, int slot, unsigned char* tgt, unsigned char* org,
                   unsigned char* res) {
  const int dbl = is_double(c), bs = dbl ? 8 : 4;
  fill(tgt, dbl, target, 0, slot);
  fill(org, dbl, origin, 1, slot);
  fill(res, dbl, origin, 2, slot);
  const int n = entries(c->t, c->tc);
  for (int e = 0; e < n; ++e) {
    unsigned char* te = tgt + c->tbase + entry(&maps[c->t], e);
    unsigned char* oe = org + entry(&maps[c->o], e);
    switch (c->call) {
      case PUT: memcpy(te, oe, (size_t)bs); break;
      case GET: memcpy(oe, te, (size_t)bs); break;
      case ACC: combine(te, oe, dbl, c->op); break;
      case GACC:
        memcpy(res + entry(&maps[c->r], e), te, (size_t)bs);
        combine(te, oe, dbl, c->op);
        break;
    }
  }
}

static void compare(const unsigned char* got, const unsigned char* want, size_t n, const char* what, const tcase* c,
                    int req, const char* fl, const char* sy) {
  for (size_t i = 0; i < n; ++i) {
    CHECK(got[i] == want[i], "%s/%s %s %s -> %s: %s byte %zu is 0x%02x, expected 0x%02x", fl, sy,
          call_name[req][c->call], maps[c->o].name, maps[c->t].name, what, i, got[i], want[i]);
  }
}

static void issue(const rwin* w, int target, const tcase* c, int req, MPI_Aint slot_off, unsigned char* org,
                  unsigned char* res, MPI_Request* r) {
  const tmap *o = &maps[c->o], *t = &maps[c->t], *rm = &maps[c->r];
  const MPI_Aint disp = tdisp(w, target, slot_off + c->tbase);
  const MPI_Op op = op_of[c->op];
  if (!req) {
    switch (c->call) {
      case PUT: CHECK_MPI(MPI_Put(org, c->oc, o->t, target, disp, c->tc, t->t, w->win)); break;
      case GET: CHECK_MPI(MPI_Get(org, c->oc, o->t, target, disp, c->tc, t->t, w->win)); break;
      case ACC: CHECK_MPI(MPI_Accumulate(org, c->oc, o->t, target, disp, c->tc, t->t, op, w->win)); break;
      case GACC:
        CHECK_MPI(MPI_Get_accumulate(org, c->oc, o->t, res, c->rc, rm->t, target, disp, c->tc, t->t, op, w->win));
        break;
    }
  } else {
    switch (c->call) {
      case PUT: CHECK_MPI(MPI_Rput(org, c->oc, o->t, target, disp, c->tc, t->t, w->win, r)); break;
      case GET: CHECK_MPI(MPI_Rget(org, c->oc, o->t, target, disp, c->tc, t->t, w->win, r)); break;
      case ACC: CHECK_MPI(MPI_Raccumulate(org, c->oc, o->t, target, disp, c->tc, t->t, op, w->win, r)); break;
      case GACC:
        CHECK_MPI(MPI_Rget_accumulate(org, c->oc, o->t, res, c->rc, rm->t, target, disp, c->tc, t->t, op, w->win, r));
        break;
    }
  }
}

static void run(int flavour, int sync) {
  const char *fl = flavour_name[flavour], *sy = sync_name[sync];
  const int phases = passive(sync) ? 2 : 1; /* phase 1: request-based */
  const MPI_Aint bytes = 2 * NCASES * SLOT;
  rwin w;
  win_open(&w, flavour, bytes, 4, MPI_INFO_NULL);
  const int right = (me + 1) % nranks, left = (me + nranks - 1) % nranks;
  unsigned char* org = malloc((size_t)bytes);
  unsigned char* res = malloc((size_t)bytes);
  unsigned char* want_t = malloc((size_t)bytes);
  unsigned char* want_o = malloc((size_t)bytes);
  unsigned char* want_r = malloc((size_t)bytes);
  unsigned char* scratch = malloc(3 * SLOT);
  CHECK(org && res && want_t && want_o && want_r && scratch, "malloc");
  /* Slot s of phase p is s + p * NCASES, in the window and in org/res alike. */
  local_begin(&w);
  for (int s = 0; s < 2 * NCASES; ++s)
    fill((unsigned char*)w.base + s * SLOT, is_double(&cases[s % NCASES]), me, 0, s);
  local_end(&w);
  for (int s = 0; s < 2 * NCASES; ++s) {
    fill(org + s * SLOT, is_double(&cases[s % NCASES]), me, 1, s);
    fill(res + s * SLOT, is_double(&cases[s % NCASES]), me, 2, s);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  syncer sc;
  sync_setup(&sc, sync, 1, &right, 1, &left);
  sync_begin(&w, &sc);
  for (int c = 0; c < NCASES; ++c)
    issue(&w, right, &cases[c], 0, (MPI_Aint)c * SLOT, org + c * SLOT, res + c * SLOT, NULL);
  if (phases == 2) {
    /* MPI-4.1 13.3.5: a completed MPI_Rget / MPI_Rget_accumulate has its data in the
     * origin / result buffer; after a completed MPI_Rput / MPI_Raccumulate the origin
     * buffer may be reused. MPICH 4.0.2 completes them too early: an MPI_Rget with
     * derived datatypes has no data yet (it arrives at the next flush), and an MPI_Rput
     * can still read its origin buffer afterwards (intermittently, at 3 ranks). Its peer
     * run sets RMA_REQUESTS_COMPLETE_EARLY, which skips only these checks (no check of
     * the buffers at completion, no overwriting); the checks after the epoch stay. */
    const int late = getenv("RMA_REQUESTS_COMPLETE_EARLY") != NULL;
    MPI_Request reqs[NCASES];
    int nreq = 0, deferred[NCASES];
    for (int c = 0; c < NCASES; ++c) {
      const int s = NCASES + c;
      MPI_Request r = MPI_REQUEST_NULL;
      issue(&w, right, &cases[c], 1, (MPI_Aint)s * SLOT, org + s * SLOT, res + s * SLOT, &r);
      CHECK(r != MPI_REQUEST_NULL, "%s returned MPI_REQUEST_NULL", call_name[1][cases[c].call]);
      const int how = c % 3;
      if (how == 2) {
        deferred[nreq] = c;
        reqs[nreq++] = r;
        continue;
      }
      if (how == 0) {
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
      } else {
        int flag = 0;
        for (long spins = 0; !flag; ++spins) {
          CHECK(spins < 100000000L, "MPI_Test never completed %s", call_name[1][cases[c].call]);
          CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        }
      }
      CHECK(r == MPI_REQUEST_NULL, "completed request not set to MPI_REQUEST_NULL");
      /* Complete at the origin: results are there, origin buffers are free again. */
      expect(&cases[c], me, right, s, scratch, scratch + SLOT, scratch + 2 * SLOT);
      if (cases[c].call == GET && !late)
        compare(org + s * SLOT, scratch + SLOT, SLOT, "origin buffer after completion", &cases[c], 1, fl, sy);
      if (cases[c].call == GACC && !late)
        compare(res + s * SLOT, scratch + 2 * SLOT, SLOT, "result buffer after completion", &cases[c], 1, fl, sy);
      if ((cases[c].call == PUT || cases[c].call == ACC) && !late) memset(org + s * SLOT, 0x77, SLOT);
    }
    MPI_Status statuses[NCASES]; /* (not MPI_STATUSES_IGNORE: gcc's access attributes in Open MPI's mpi.h) */
    CHECK_MPI(MPI_Waitall(nreq, reqs, statuses));
    for (int i = 0; i < nreq; ++i) {
      CHECK(reqs[i] == MPI_REQUEST_NULL, "MPI_Waitall left a request");
      const int c = deferred[i], s = NCASES + c;
      expect(&cases[c], me, right, s, scratch, scratch + SLOT, scratch + 2 * SLOT);
      if (cases[c].call == GET && !late)
        compare(org + s * SLOT, scratch + SLOT, SLOT, "origin buffer after MPI_Waitall", &cases[c], 1, fl, sy);
      if (cases[c].call == GACC && !late)
        compare(res + s * SLOT, scratch + 2 * SLOT, SLOT, "result buffer after MPI_Waitall", &cases[c], 1, fl, sy);
      if ((cases[c].call == PUT || cases[c].call == ACC) && !late) memset(org + s * SLOT, 0x77, SLOT);
    }
  }
  sync_end(&w, &sc);
  sync_free(&sc);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* Expected images: what I did to my right neighbour, what my left neighbour did to me. */
  for (int s = 0; s < 2 * NCASES; ++s) {
    const tcase* c = &cases[s % NCASES];
    if (s < phases * NCASES) {
      expect(c, me, right, s, scratch, want_o + s * SLOT, want_r + s * SLOT);
      expect(c, left, me, s, want_t + s * SLOT, scratch + SLOT, scratch + 2 * SLOT);
      if (s >= NCASES && (c->call == PUT || c->call == ACC) && !getenv("RMA_REQUESTS_COMPLETE_EARLY"))
        memset(want_o + s * SLOT, 0x77, SLOT);
    } else { /* not issued */
      fill(want_t + s * SLOT, is_double(c), me, 0, s);
      fill(want_o + s * SLOT, is_double(c), me, 1, s);
      fill(want_r + s * SLOT, is_double(c), me, 2, s);
    }
  }
  for (int s = 0; s < 2 * NCASES; ++s) {
    const tcase* c = &cases[s % NCASES];
    const int req = s >= NCASES;
    compare(org + s * SLOT, want_o + s * SLOT, SLOT, "origin buffer", c, req, fl, sy);
    compare(res + s * SLOT, want_r + s * SLOT, SLOT, "result buffer", c, req, fl, sy);
  }
  local_begin(&w);
  for (int s = 0; s < 2 * NCASES; ++s)
    compare((unsigned char*)w.base + s * SLOT, want_t + s * SLOT, SLOT, "target window", &cases[s % NCASES],
            s >= NCASES, fl, sy);
  local_end(&w);
  free(org);
  free(res);
  free(want_t);
  free(want_o);
  free(want_r);
  free(scratch);
  win_close(&w);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
  const int fl = argc > 1 ? parse_choice(argv[1], flavour_name, NFLAVOURS, "flavour") : -1;
  const int sy = argc > 2 ? parse_choice(argv[2], sync_name, NSYNCS, "sync mode") : -1;
  CHECK(argc <= 3, "usage: rma_datatypes [FLAVOUR|all] [SYNC|all]");
  build_types();
  for (int c = 0; c < NCASES; ++c) { /* the cases themselves: same signatures, slots big enough */
    const tcase* k = &cases[c];
    CHECK(entries(k->o, k->oc) == entries(k->t, k->tc), "case %d: signatures differ", c);
    CHECK(k->call != GACC || entries(k->r, k->rc) == entries(k->t, k->tc), "case %d: result signature", c);
    CHECK(maps[k->o].basic == maps[k->t].basic, "case %d: basic types differ", c);
    for (int e = 0; e < entries(k->t, k->tc); ++e) {
      CHECK(k->tbase + entry(&maps[k->t], e) + maps[k->t].bsize <= SLOT &&
                entry(&maps[k->o], e) + maps[k->o].bsize <= SLOT,
            "case %d does not fit a slot", c);
      CHECK(k->call != GACC || entry(&maps[k->r], e) + maps[k->r].bsize <= SLOT, "case %d result does not fit", c);
    }
  }
  int runs = 0;
  for (int f = 0; f < NFLAVOURS; ++f) {
    if (fl >= 0 && f != fl) continue;
    for (int s = 0; s < NSYNCS; ++s) {
      if (sy >= 0 && s != sy) continue;
      run(f, s);
      ++runs;
    }
  }
  for (int i = 0; i < NTMAPS; ++i)
    CHECK_MPI(MPI_Type_free(&maps[i].t));
  if (me == 0) printf("rma_datatypes: %d flavour/sync combinations, %d cases, %d ranks: ok\n", runs, NCASES, nranks);
  MPI_Finalize();
  return 0;
}
