/* rma_ordering: accumulate ordering (MPI-4.1 13.7.2; MPI-3.1 11.7.2). With the default
 * accumulate_ordering (rar,raw,war,waw) accumulate operations from one origin to
 * overlapping locations at one target execute in program order, with no flush between
 * them. Each origin owns a region of every target's window (nobody else touches it)
 * and keeps a model of it; in every round it opens one epoch on one target (the target
 * changes from round to round) and, without any flush in between, issues writes and
 * reads whose results must match the model as of their place in program order:
 *   - MPI_Accumulate(MPI_REPLACE, k) then MPI_Get_accumulate(MPI_NO_OP): reads k (raw),
 *     not a value written after it (war); 1 element, 7 elements, one of the 7;
 *   - a 512-element REPLACE, then a 1-element MPI_Fetch_and_op(MPI_NO_OP) of its last
 *     element; a 1-element REPLACE, then a 512-element read (small/large mixes);
 *   - MPI_Accumulate(MPI_SUM) then MPI_Fetch_and_op(MPI_NO_OP) sees the sum (int64,
 *     double); chained MPI_Get_accumulate(MPI_SUM) each return the previous total;
 *   - MPI_Fetch_and_op(MPI_REPLACE) returns the previous value, then NO_OP the new one;
 *   - MPI_INT REPLACE / NO_OP (a 4-byte type);
 *   - at each epoch's start, reads see the previous epoch's last writes; at the end a
 *     plain MPI_Get of every region equals the model (waw: the last write wins).
 * Windows of the create_heap and dynamic flavours are created with the info key
 * accumulate_ordering = "rar,war,raw,waw" spelled out (same as the default, listed in
 * another order: "the order of values is not significant"); the others with
 * MPI_INFO_NULL. Under lock_all one epoch spans all rounds and each round ends with
 * MPI_Win_flush or MPI_Win_flush_all; under the other modes each round is an epoch.
 * Usage: rma_ordering [FLAVOUR|all] [SYNC|all] [ROUNDS]
 *   FLAVOUR: allocate shared create_heap create_static dynamic   (default all)
 *   SYNC:    fence lock_all lock_shared lock_exclusive pscw       (default all)
 *   ROUNDS:  epochs per rank (default 16); round j targets rank (me + 1 + j) % size. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#include "rma_harness.h"

#define MULTI 7
#define BIG 512
#define STEPS 4
/* An origin's region in a target's window; the model the origin keeps of it. */
typedef struct {
  int64_t one, multi[MULTI], big[BIG], sum, gsum, swap;
  double dsum;
  int ival, pad;
} region;
#define OFF(field) ((MPI_Aint)offsetof(region, field))

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
static uint64_t counter = 0;
/* Values for REPLACE use all 64 bits (a torn or misplaced element shows). */
static int64_t fresh(void) { return (int64_t)mix(((uint64_t)me << 40) + ++counter); }
static int64_t small(void) { return 1 + (int64_t)(mix(((uint64_t)me << 40) + ++counter) % 1000); }

static void init_region(region* g, int target, int origin) {
  memset(g, 0, sizeof *g);
  const int64_t b = ((int64_t)target << 32) + ((int64_t)origin << 16);
  g->one = b + 1;
  for (int k = 0; k < MULTI; ++k)
    g->multi[k] = b + 100 + k;
  for (int k = 0; k < BIG; ++k)
    g->big[k] = b + 1000 + k;
  g->sum = 5;
  g->gsum = 7;
  g->swap = b + 3;
  g->dsum = 11.0;
  g->ival = 13 + origin;
}

/* Results of reads are checked when the epoch (or flush) completes them; values read
 * must match the model at the read's place in program order. */
#define POOL 8192
static int64_t src_i[POOL], res_i[POOL], want_i[POOL];
static double src_d[64], res_d[64], want_d[64];
static int src_n[64], res_n[64], want_n[64];
static const char* what_i[POOL];
/* MPI_NO_OP ignores the origin buffer of MPI_Get_accumulate (MPI-4.1 13.3.4.2); for
 * MPI_Fetch_and_op the standard does not say so, so those get a valid one. */
static const int64_t ignored_i = 0;
static const double ignored_d = 0;
static int nsrc_i, nres_i, nsrc_d, nres_d, nsrc_n, nres_n;

static int64_t* push_src(const int64_t* v, int n) {
  CHECK(nsrc_i + n <= POOL, "pool");
  int64_t* p = &src_i[nsrc_i];
  memcpy(p, v, (size_t)n * sizeof *v);
  nsrc_i += n;
  return p;
}
static int64_t* push_res(const int64_t* want, int n, const char* what) {
  CHECK(nres_i + n <= POOL, "pool");
  for (int k = 0; k < n; ++k) {
    want_i[nres_i + k] = want[k];
    res_i[nres_i + k] = ~want[k];
    what_i[nres_i + k] = what;
  }
  int64_t* p = &res_i[nres_i];
  nres_i += n;
  return p;
}

static void check_results(int round, int target, const char* fl, const char* sy) {
  for (int k = 0; k < nres_i; ++k) {
    CHECK(res_i[k] == want_i[k], "%s/%s round %d target %d: %s read %lld, program order says %lld", fl, sy, round,
          target, what_i[k], (long long)res_i[k], (long long)want_i[k]);
  }
  for (int k = 0; k < nres_d; ++k) {
    CHECK(res_d[k] == want_d[k], "%s/%s round %d target %d: double sum read %.17g, want %.17g", fl, sy, round, target,
          res_d[k], want_d[k]);
  }
  for (int k = 0; k < nres_n; ++k) {
    CHECK(res_n[k] == want_n[k], "%s/%s round %d target %d: MPI_INT read %d, want %d", fl, sy, round, target, res_n[k],
          want_n[k]);
  }
  nsrc_i = nres_i = nsrc_d = nres_d = nsrc_n = nres_n = 0;
}

/* One round's operations on `t`'s region for this origin, all in one epoch. */
static void issue_round(const rwin* w, int t, region* m) {
  const MPI_Aint base = (MPI_Aint)me * (MPI_Aint)sizeof(region);
#define D(field) tdisp(w, t, base + OFF(field))
  const MPI_Win win = w->win;
  int64_t tmp[BIG];
  /* carried over from the previous epoch on this target (or the initial values) */
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, push_res(&m->one, 1, "first read of one"), 1, MPI_INT64_T, t,
                               D(one), 1, MPI_INT64_T, MPI_NO_OP, win));
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, push_res(m->multi, MULTI, "first read of multi"), MULTI,
                               MPI_INT64_T, t, D(multi), MULTI, MPI_INT64_T, MPI_NO_OP, win));
  CHECK_MPI(MPI_Fetch_and_op(&ignored_i, push_res(&m->big[BIG - 1], 1, "first read of big[last]"), MPI_INT64_T, t,
                             D(big[BIG - 1]), MPI_NO_OP, win));
  for (int step = 0; step < STEPS; ++step) {
    /* 1 element: REPLACE then NO_OP */
    m->one = fresh();
    CHECK_MPI(MPI_Accumulate(push_src(&m->one, 1), 1, MPI_INT64_T, t, D(one), 1, MPI_INT64_T, MPI_REPLACE, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, push_res(&m->one, 1, "one after REPLACE"), 1, MPI_INT64_T, t,
                                 D(one), 1, MPI_INT64_T, MPI_NO_OP, win));
    /* 7 elements, read back whole and one of them */
    for (int k = 0; k < MULTI; ++k)
      m->multi[k] = fresh();
    CHECK_MPI(MPI_Accumulate(push_src(m->multi, MULTI), MULTI, MPI_INT64_T, t, D(multi), MULTI, MPI_INT64_T,
                             MPI_REPLACE, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, push_res(m->multi, MULTI, "multi after REPLACE"), MULTI,
                                 MPI_INT64_T, t, D(multi), MULTI, MPI_INT64_T, MPI_NO_OP, win));
    const int pick = (step * 3 + 1) % MULTI;
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, push_res(&m->multi[pick], 1, "multi[k] after REPLACE"), 1,
                                 MPI_INT64_T, t, D(multi[pick]), 1, MPI_INT64_T, MPI_NO_OP, win));
    /* large write, small read of its last element; small write, large read */
    for (int k = 0; k < BIG; ++k)
      m->big[k] = fresh();
    CHECK_MPI(MPI_Accumulate(push_src(m->big, BIG), BIG, MPI_INT64_T, t, D(big), BIG, MPI_INT64_T, MPI_REPLACE, win));
    CHECK_MPI(MPI_Fetch_and_op(&ignored_i, push_res(&m->big[BIG - 1], 1, "big[last] after large REPLACE"), MPI_INT64_T,
                               t, D(big[BIG - 1]), MPI_NO_OP, win));
    const int at = (step * 37) % BIG;
    m->big[at] = fresh();
    CHECK_MPI(
        MPI_Accumulate(push_src(&m->big[at], 1), 1, MPI_INT64_T, t, D(big[at]), 1, MPI_INT64_T, MPI_REPLACE, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, push_res(m->big, BIG, "big after 1-element REPLACE"), BIG,
                                 MPI_INT64_T, t, D(big), BIG, MPI_INT64_T, MPI_NO_OP, win));
    /* SUM then fetch-and-op NO_OP */
    tmp[0] = small();
    m->sum += tmp[0];
    CHECK_MPI(MPI_Accumulate(push_src(tmp, 1), 1, MPI_INT64_T, t, D(sum), 1, MPI_INT64_T, MPI_SUM, win));
    CHECK_MPI(
        MPI_Fetch_and_op(&ignored_i, push_res(&m->sum, 1, "sum after SUM"), MPI_INT64_T, t, D(sum), MPI_NO_OP, win));
    /* chained get_accumulate SUM: each returns the total before it */
    for (int c = 0; c < 2; ++c) {
      tmp[0] = small();
      CHECK_MPI(MPI_Get_accumulate(push_src(tmp, 1), 1, MPI_INT64_T, push_res(&m->gsum, 1, "get_accumulate SUM chain"),
                                   1, MPI_INT64_T, t, D(gsum), 1, MPI_INT64_T, MPI_SUM, win));
      m->gsum += tmp[0];
    }
    /* fetch-and-op REPLACE returns the old value, NO_OP then the new one */
    tmp[0] = fresh();
    CHECK_MPI(MPI_Fetch_and_op(push_src(tmp, 1), push_res(&m->swap, 1, "fetch_and_op REPLACE old value"), MPI_INT64_T,
                               t, D(swap), MPI_REPLACE, win));
    m->swap = tmp[0];
    CHECK_MPI(MPI_Fetch_and_op(&ignored_i, push_res(&m->swap, 1, "swap after REPLACE"), MPI_INT64_T, t, D(swap),
                               MPI_NO_OP, win));
    /* double SUM then NO_OP */
    CHECK(nsrc_d < 64 && nres_d < 64 && nsrc_n < 64 && nres_n < 64, "pool");
    src_d[nsrc_d] = (double)small();
    m->dsum += src_d[nsrc_d];
    CHECK_MPI(MPI_Accumulate(&src_d[nsrc_d++], 1, MPI_DOUBLE, t, D(dsum), 1, MPI_DOUBLE, MPI_SUM, win));
    want_d[nres_d] = m->dsum;
    res_d[nres_d] = -1.0;
    CHECK_MPI(MPI_Fetch_and_op(&ignored_d, &res_d[nres_d++], MPI_DOUBLE, t, D(dsum), MPI_NO_OP, win));
    /* MPI_INT REPLACE then NO_OP */
    src_n[nsrc_n] = (int)(fresh() >> 33);
    m->ival = src_n[nsrc_n];
    CHECK_MPI(MPI_Accumulate(&src_n[nsrc_n++], 1, MPI_INT, t, D(ival), 1, MPI_INT, MPI_REPLACE, win));
    want_n[nres_n] = m->ival;
    res_n[nres_n] = ~m->ival;
    CHECK_MPI(
        MPI_Get_accumulate(NULL, 0, MPI_INT, &res_n[nres_n++], 1, MPI_INT, t, D(ival), 1, MPI_INT, MPI_NO_OP, win));
  }
#undef D
}

static void run(int flavour, int sync, int rounds) {
  const MPI_Aint bytes = (MPI_Aint)nranks * (MPI_Aint)sizeof(region);
  MPI_Info info = MPI_INFO_NULL;
  if (flavour == FL_CREATE_HEAP || flavour == FL_DYNAMIC) {
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "rar,war,raw,waw"));
  }
  rwin w;
  win_open(&w, flavour, bytes, 1, info);
  if (info != MPI_INFO_NULL) CHECK_MPI(MPI_Info_free(&info));
  region* regions = (region*)w.base;
  region* model = malloc((size_t)nranks * sizeof(region));
  CHECK(model != NULL, "malloc");
  local_begin(&w);
  for (int r = 0; r < nranks; ++r)
    init_region(&regions[r], me, r);
  local_end(&w);
  for (int t = 0; t < nranks; ++t)
    init_region(&model[t], t, me);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  if (sync == SY_LOCK_ALL) {
    /* one passive epoch on all targets; every round ends with a flush of its target */
    CHECK_MPI(MPI_Win_lock_all(0, w.win));
    for (int j = 0; j < rounds; ++j) {
      const int t = (me + 1 + j) % nranks;
      issue_round(&w, t, &model[t]);
      CHECK_MPI(j % 2 ? MPI_Win_flush(t, w.win) : MPI_Win_flush_all(w.win));
      check_results(j, t, flavour_name[flavour], sync_name[sync]);
    }
    CHECK_MPI(MPI_Win_unlock_all(w.win));
  } else {
    /* Under PSCW a rank's origin and target change every round: a post may arrive for
     * a later epoch than the one being started, and the start must not match it (MPI-4.1
     * 13.5.2). MPICH 4.0.2 hangs there (at 4 ranks); its peer run sets
     * RMA_PSCW_FIXED_PARTNERS, which keeps the same partners in every round under PSCW. */
    const int fixed = sync == SY_PSCW && getenv("RMA_PSCW_FIXED_PARTNERS") != NULL;
    for (int j = 0; j < rounds; ++j) {
      const int shift = fixed ? 0 : j;
      const int t = (me + 1 + shift) % nranks;
      const int o = ((me - 1 - shift) % nranks + nranks) % nranks; /* the rank targeting me */
      syncer s;
      sync_setup(&s, sync, 1, &t, 1, &o);
      sync_begin(&w, &s);
      issue_round(&w, t, &model[t]);
      sync_end(&w, &s);
      sync_free(&s);
      check_results(j, t, flavour_name[flavour], sync_name[sync]);
    }
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  /* The last write wins: a plain MPI_Get of each region equals the model. */
  region* got = malloc(sizeof(region));
  CHECK(got != NULL, "malloc");
  for (int t = 0; t < nranks; ++t) {
    memset(got, 0xee, sizeof *got);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w.win));
    CHECK_MPI(MPI_Get(got, (int)sizeof(region), MPI_BYTE, t, tdisp(&w, t, (MPI_Aint)me * (MPI_Aint)sizeof(region)),
                      (int)sizeof(region), MPI_BYTE, w.win));
    CHECK_MPI(MPI_Win_unlock(t, w.win));
    CHECK(memcmp(got, &model[t], sizeof(region)) == 0, "%s/%s: final region at target %d differs from program order",
          flavour_name[flavour], sync_name[sync], t);
  }
  free(got);
  free(model);
  win_close(&w);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
  const int fl = argc > 1 ? parse_choice(argv[1], flavour_name, NFLAVOURS, "flavour") : -1;
  const int sy = argc > 2 ? parse_choice(argv[2], sync_name, NSYNCS, "sync mode") : -1;
  CHECK(argc <= 4, "usage: rma_ordering [FLAVOUR|all] [SYNC|all] [ROUNDS]");
  const int rounds = argc > 3 ? atoi(argv[3]) : 16;
  CHECK(rounds >= 1 && rounds <= 100000, "rounds %d", rounds);
  int runs = 0;
  for (int f = 0; f < NFLAVOURS; ++f) {
    if (fl >= 0 && f != fl) continue;
    for (int s = 0; s < NSYNCS; ++s) {
      if (sy >= 0 && s != sy) continue;
      run(f, s, rounds);
      ++runs;
    }
  }
  if (me == 0) printf("rma_ordering: %d flavour/sync combinations, %d rounds, %d ranks: ok\n", runs, rounds, nranks);
  MPI_Finalize();
  return 0;
}
