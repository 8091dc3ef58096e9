/* rma_hammer: exact results under contention (MPI-4.1 13.3.4, 13.7.1 atomicity, 13.7.2
 * ordering). Every rank hammers overlapping ranges of ONE target (rank 0, then the last
 * rank) with a deterministic mix per iteration:
 *   - MPI_Fetch_and_op(+1, MPI_SUM) on an int64 and on a double counter ("tickets");
 *   - MPI_Accumulate(MPI_SUM), 1..300 elements, on an int64 and on a double array;
 *   - MPI_Get_accumulate(MPI_SUM), 1..96 elements, on both arrays;
 *   - MPI_Compare_and_swap increments of an int64 counter (retry loop with flush under
 *     passive target; one attempt per epoch under fence/PSCW, where results only arrive
 *     at the end of the epoch).
 * All added values are positive integers (exact as doubles), drawn from a generator
 * seeded by (rank, iteration, target), so every rank can recompute what every rank
 * added. Checked:
 *   - each array element ends at exactly init + everything added (read with MPI_Get by
 *     every rank, and by the target from its own memory);
 *   - the tickets of all ranks, gathered at rank 0 through a window, are exactly
 *     0..N-1 with N = ranks x iterations, and each rank's own tickets increase (same
 *     origin, same location: accumulate ordering);
 *   - the values a successful CAS replaced are exactly 0..S-1 and the counter ends at
 *     S (S = nranks x iterations under passive target);
 *   - every value MPI_Get_accumulate returned lies between init + this rank's own
 *     earlier additions (ordering) and the final total minus this rank's own later ones.
 * Usage: rma_hammer [FLAVOUR|all] [SYNC|all] [ITERATIONS]
 *   FLAVOUR: allocate shared create_heap create_static dynamic   (default all)
 *   SYNC:    fence lock_all lock_shared lock_exclusive pscw       (default all)
 *   ITERATIONS per rank and target (default 40). */
#include <stdint.h>
#include <string.h>

#include "check.h"

#include "rma_harness.h"

/* Window layout, in 8-byte elements. */
#define NA 320             /* elements per array */
#define MAX_ACC 300        /* largest MPI_Accumulate */
#define MAX_GACC 96        /* largest MPI_Get_accumulate */
#define E_TICKET 0         /* int64 fetch-and-op counter */
#define E_DTICKET 1        /* double fetch-and-op counter */
#define E_CAS 2            /* int64 compare-and-swap counter */
#define E_INT 4            /* int64 array */
#define E_DBL (E_INT + NA) /* double array */
#define NELEMS (E_DBL + NA)
#define EPOCH 8 /* iterations per epoch */

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
static uint64_t rnd(int r, int it, int target, int what) {
  return mix(mix(mix(((uint64_t)r << 20) ^ (uint64_t)target) + (uint64_t)it) + (uint64_t)what);
}
static int64_t init_int(int k) { return 7 * (int64_t)k + 5; }
static double init_dbl(int k) { return 3.0 * k; }

/* What rank r does in iteration it against target: for kind 0 (acc int), 1 (acc
 * double), 2 (get_acc int), 3 (get_acc double) a count, an offset and values. */
typedef struct {
  int count[4], off[4];
} plan;
static void make_plan(int r, int it, int target, plan* p) {
  for (int kind = 0; kind < 4; ++kind) {
    const int max = kind < 2 ? MAX_ACC : MAX_GACC;
    p->count[kind] = 1 + (int)(rnd(r, it, target, kind) % (uint64_t)max);
    p->off[kind] = (int)(rnd(r, it, target, 10 + kind) % (uint64_t)(NA - p->count[kind] + 1));
  }
}
static int64_t value(int r, int it, int target, int kind, int k) {
  return 1 + (int64_t)(rnd(r, it, target, 100 + kind * 1000 + k) % 1000);
}

/* Marks v in seen[0..n); fails on a value out of range or seen before. */
static void mark_once(unsigned char* seen, int64_t n, int64_t v, const char* what, int from) {
  CHECK(v >= 0 && v < n, "%s %lld from rank %d outside 0..%lld", what, (long long)v, from, (long long)(n - 1));
  CHECK(!seen[v], "%s %lld handed out twice (second time to rank %d)", what, (long long)v, from);
  seen[v] = 1;
}

static void hammer(int flavour, int sync, int iters, int target) {
  rwin w;
  const MPI_Aint bytes = NELEMS * 8;
  win_open(&w, flavour, bytes, 8, MPI_INFO_NULL);
  int64_t* const mem_i = (int64_t*)w.base;
  double* const mem_d = (double*)w.base;

  local_begin(&w);
  mem_i[E_TICKET] = 0;
  mem_d[E_DTICKET] = 0.0;
  mem_i[E_CAS] = 0;
  mem_i[3] = 0;
  for (int k = 0; k < NA; ++k) {
    mem_i[E_INT + k] = init_int(k);
    mem_d[E_DBL + k] = init_dbl(k);
  }
  local_end(&w);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* Everything an operation reads or writes at the origin lives until the end. */
  int64_t* tick_i = calloc((size_t)iters, sizeof(int64_t));
  double* tick_d = calloc((size_t)iters, sizeof(double));
  int64_t* acc_i = calloc((size_t)iters * MAX_ACC, sizeof(int64_t));
  double* acc_d = calloc((size_t)iters * MAX_ACC, sizeof(double));
  int64_t* gsrc_i = calloc((size_t)iters * MAX_GACC, sizeof(int64_t));
  double* gsrc_d = calloc((size_t)iters * MAX_GACC, sizeof(double));
  int64_t* gres_i = calloc((size_t)iters * MAX_GACC, sizeof(int64_t));
  double* gres_d = calloc((size_t)iters * MAX_GACC, sizeof(double));
  int64_t* before_i = calloc((size_t)iters * MAX_GACC, sizeof(int64_t)); /* own additions before */
  int64_t* before_d = calloc((size_t)iters * MAX_GACC, sizeof(int64_t));
  int64_t* cas_old = calloc((size_t)iters + 1, sizeof(int64_t));
  int64_t own_i[NA] = {0}, own_d[NA] = {0};
  CHECK(tick_i && tick_d && acc_i && acc_d && gsrc_i && gsrc_d && gres_i && gres_d && before_i && before_d && cas_old,
        "calloc");
  static const int64_t one_i = 1;
  static const double one_d = 1.0;
  int ncas = 0;
  int64_t cas_guess = 0, cas_new = 0, cas_cmp = 0, cas_res = -1;
  int cas_pending = 0;

  int all[4096];
  CHECK(nranks <= 4096, "too many ranks");
  for (int r = 0; r < nranks; ++r)
    all[r] = r;
  syncer s;
  sync_setup(&s, sync, 1, &target, me == target ? nranks : 0, all);
  sync_begin(&w, &s);
  for (int it = 0; it < iters; ++it) {
    if (it > 0 && it % EPOCH == 0) {
      sync_mid(&w, &s);
      if (cas_pending) { /* fence / PSCW: the attempt's result arrived with the epoch's end */
        if (cas_res == cas_cmp) {
          cas_old[ncas++] = cas_cmp;
          cas_guess = cas_cmp + 1;
        } else {
          cas_guess = cas_res;
        }
        cas_pending = 0;
      }
    }
    plan p;
    make_plan(me, it, target, &p);
    CHECK_MPI(
        MPI_Fetch_and_op(&one_i, &tick_i[it], MPI_INT64_T, target, tdisp(&w, target, E_TICKET * 8), MPI_SUM, w.win));
    int64_t* a = &acc_i[(size_t)it * MAX_ACC];
    for (int k = 0; k < p.count[0]; ++k) {
      a[k] = value(me, it, target, 0, k);
      own_i[p.off[0] + k] += a[k];
    }
    CHECK_MPI(MPI_Accumulate(a, p.count[0], MPI_INT64_T, target, tdisp(&w, target, (E_INT + p.off[0]) * 8), p.count[0],
                             MPI_INT64_T, MPI_SUM, w.win));
    double* d = &acc_d[(size_t)it * MAX_ACC];
    for (int k = 0; k < p.count[1]; ++k) {
      d[k] = (double)value(me, it, target, 1, k);
      own_d[p.off[1] + k] += (int64_t)d[k];
    }
    CHECK_MPI(MPI_Accumulate(d, p.count[1], MPI_DOUBLE, target, tdisp(&w, target, (E_DBL + p.off[1]) * 8), p.count[1],
                             MPI_DOUBLE, MPI_SUM, w.win));
    CHECK_MPI(
        MPI_Fetch_and_op(&one_d, &tick_d[it], MPI_DOUBLE, target, tdisp(&w, target, E_DTICKET * 8), MPI_SUM, w.win));
    int64_t* gs = &gsrc_i[(size_t)it * MAX_GACC];
    for (int k = 0; k < p.count[2]; ++k) {
      gs[k] = value(me, it, target, 2, k);
      before_i[(size_t)it * MAX_GACC + k] = own_i[p.off[2] + k];
      own_i[p.off[2] + k] += gs[k];
    }
    CHECK_MPI(MPI_Get_accumulate(gs, p.count[2], MPI_INT64_T, &gres_i[(size_t)it * MAX_GACC], p.count[2], MPI_INT64_T,
                                 target, tdisp(&w, target, (E_INT + p.off[2]) * 8), p.count[2], MPI_INT64_T, MPI_SUM,
                                 w.win));
    double* gd = &gsrc_d[(size_t)it * MAX_GACC];
    for (int k = 0; k < p.count[3]; ++k) {
      gd[k] = (double)value(me, it, target, 3, k);
      before_d[(size_t)it * MAX_GACC + k] = own_d[p.off[3] + k];
      own_d[p.off[3] + k] += (int64_t)gd[k];
    }
    CHECK_MPI(MPI_Get_accumulate(gd, p.count[3], MPI_DOUBLE, &gres_d[(size_t)it * MAX_GACC], p.count[3], MPI_DOUBLE,
                                 target, tdisp(&w, target, (E_DBL + p.off[3]) * 8), p.count[3], MPI_DOUBLE, MPI_SUM,
                                 w.win));
    if (passive(sync)) { /* increment by CAS: retry until the compared value was current */
      for (int tries = 0;; ++tries) {
        CHECK(tries < 1000000, "CAS increment never succeeded");
        cas_cmp = cas_guess;
        cas_new = cas_guess + 1;
        CHECK_MPI(MPI_Compare_and_swap(&cas_new, &cas_cmp, &cas_res, MPI_INT64_T, target, tdisp(&w, target, E_CAS * 8),
                                       w.win));
        CHECK_MPI(MPI_Win_flush(target, w.win));
        if (cas_res == cas_cmp) {
          cas_old[ncas++] = cas_cmp;
          cas_guess = cas_cmp + 1;
          break;
        }
        CHECK(cas_res > cas_cmp, "CAS counter went from at least %lld back to %lld", (long long)cas_cmp,
              (long long)cas_res);
        cas_guess = cas_res;
      }
    } else if (it % EPOCH == 0) { /* one attempt per epoch */
      cas_cmp = cas_guess;
      cas_new = cas_guess + 1;
      CHECK_MPI(
          MPI_Compare_and_swap(&cas_new, &cas_cmp, &cas_res, MPI_INT64_T, target, tdisp(&w, target, E_CAS * 8), w.win));
      cas_pending = 1;
    }
  }
  sync_end(&w, &s);
  sync_free(&s);
  if (cas_pending && cas_res == cas_cmp) cas_old[ncas++] = cas_cmp;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* Expected totals: everything every rank added. */
  int64_t want_i[NA], want_d[NA];
  for (int k = 0; k < NA; ++k) {
    want_i[k] = init_int(k);
    want_d[k] = (int64_t)init_dbl(k);
  }
  for (int r = 0; r < nranks; ++r) {
    for (int it = 0; it < iters; ++it) {
      plan p;
      make_plan(r, it, target, &p);
      for (int kind = 0; kind < 4; ++kind) {
        int64_t* want = kind % 2 ? want_d : want_i;
        for (int k = 0; k < p.count[kind]; ++k)
          want[p.off[kind] + k] += value(r, it, target, kind, k);
      }
    }
  }
  const int64_t n_tickets = (int64_t)nranks * iters;

  /* Every rank reads the target's memory back through RMA... */
  int64_t got_i[NELEMS];
  double got_d[NA];
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, w.win));
  CHECK_MPI(MPI_Get(got_i, E_DBL, MPI_INT64_T, target, tdisp(&w, target, 0), E_DBL, MPI_INT64_T, w.win));
  CHECK_MPI(MPI_Get(got_d, NA, MPI_DOUBLE, target, tdisp(&w, target, E_DBL * 8), NA, MPI_DOUBLE, w.win));
  CHECK_MPI(MPI_Win_unlock(target, w.win));
  double dticket;
  memcpy(&dticket, &got_i[E_DTICKET], sizeof dticket);
  CHECK(got_i[E_TICKET] == n_tickets, "int64 ticket counter %lld, want %lld", (long long)got_i[E_TICKET],
        (long long)n_tickets);
  CHECK(dticket == (double)n_tickets, "double ticket counter %.17g, want %lld", dticket, (long long)n_tickets);
  if (passive(sync)) {
    CHECK(got_i[E_CAS] == n_tickets, "CAS counter %lld, want %lld", (long long)got_i[E_CAS], (long long)n_tickets);
  }
  for (int k = 0; k < NA; ++k) {
    CHECK(got_i[E_INT + k] == want_i[k], "int64 element %d is %lld, want %lld (%s/%s target %d)", k,
          (long long)got_i[E_INT + k], (long long)want_i[k], flavour_name[flavour], sync_name[sync], target);
    CHECK(got_d[k] == (double)want_d[k], "double element %d is %.17g, want %lld (%s/%s target %d)", k, got_d[k],
          (long long)want_d[k], flavour_name[flavour], sync_name[sync], target);
  }
  /* ...and the target from its own memory. */
  if (me == target) {
    local_begin(&w);
    for (int k = 0; k < NA; ++k) {
      CHECK(mem_i[E_INT + k] == want_i[k], "local int64 element %d is %lld, want %lld", k, (long long)mem_i[E_INT + k],
            (long long)want_i[k]);
      CHECK(mem_d[E_DBL + k] == (double)want_d[k], "local double element %d is %.17g", k, mem_d[E_DBL + k]);
    }
    CHECK(mem_i[E_CAS] == got_i[E_CAS], "local CAS counter %lld, RMA read %lld", (long long)mem_i[E_CAS],
          (long long)got_i[E_CAS]);
    local_end(&w);
  }

  /* Own results: tickets increase, get_accumulate results within their bounds. */
  for (int it = 0; it < iters; ++it) {
    CHECK(tick_d[it] == (double)(int64_t)tick_d[it], "double ticket %.17g is not an integer", tick_d[it]);
    if (it > 0) {
      CHECK(tick_i[it] > tick_i[it - 1], "own int64 tickets out of order: %lld then %lld", (long long)tick_i[it - 1],
            (long long)tick_i[it]);
      CHECK(tick_d[it] > tick_d[it - 1], "own double tickets out of order: %g then %g", tick_d[it - 1], tick_d[it]);
    }
    plan p;
    make_plan(me, it, target, &p);
    for (int k = 0; k < p.count[2]; ++k) {
      const int e = p.off[2] + k;
      const int64_t before = before_i[(size_t)it * MAX_GACC + k], res = gres_i[(size_t)it * MAX_GACC + k];
      const int64_t lo = init_int(e) + before, hi = want_i[e] - (own_i[e] - before);
      CHECK(res >= lo && res <= hi, "iteration %d: get_accumulate int64 element %d returned %lld, outside [%lld, %lld]",
            it, e, (long long)res, (long long)lo, (long long)hi);
    }
    for (int k = 0; k < p.count[3]; ++k) {
      const int e = p.off[3] + k;
      const int64_t before = before_d[(size_t)it * MAX_GACC + k];
      const double res = gres_d[(size_t)it * MAX_GACC + k];
      const double lo = init_dbl(e) + (double)before, hi = (double)(want_d[e] - (own_d[e] - before));
      CHECK(res >= lo && res <= hi && res == (double)(int64_t)res,
            "iteration %d: get_accumulate double element %d returned %.17g, outside [%g, %g]", it, e, res, lo, hi);
    }
  }

  /* Gather tickets and CAS results at rank 0 through a window. Per rank: the number
   * of successful CAS, int64 tickets, double tickets (as int64), replaced CAS values. */
  const int per = 1 + 3 * iters;
  int64_t* mine = calloc((size_t)per, sizeof(int64_t));
  CHECK(mine != NULL, "calloc");
  mine[0] = ncas;
  for (int it = 0; it < iters; ++it) {
    mine[1 + it] = tick_i[it];
    mine[1 + iters + it] = (int64_t)tick_d[it];
  }
  for (int c = 0; c < ncas; ++c)
    mine[1 + 2 * iters + c] = cas_old[c];
  int64_t* gathered = NULL;
  MPI_Win gw;
  CHECK_MPI(MPI_Win_allocate(allocate_size(me == 0 ? (MPI_Aint)nranks * per * 8 : 0), 8, MPI_INFO_NULL, MPI_COMM_WORLD,
                             &gathered, &gw));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, gw));
  CHECK_MPI(MPI_Put(mine, per, MPI_INT64_T, 0, (MPI_Aint)me * per, per, MPI_INT64_T, gw));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, gw));
  if (me == 0) {
    unsigned char* seen_i = calloc((size_t)n_tickets, 1);
    unsigned char* seen_d = calloc((size_t)n_tickets, 1);
    unsigned char* seen_c = calloc((size_t)n_tickets + 1, 1);
    CHECK(seen_i && seen_d && seen_c, "calloc");
    int64_t total_cas = 0;
    for (int r = 0; r < nranks; ++r)
      total_cas += gathered[(size_t)r * per];
    for (int r = 0; r < nranks; ++r) {
      const int64_t* g = &gathered[(size_t)r * per];
      for (int it = 0; it < iters; ++it) {
        mark_once(seen_i, n_tickets, g[1 + it], "int64 ticket", r);
        mark_once(seen_d, n_tickets, g[1 + iters + it], "double ticket", r);
      }
      for (int c = 0; c < g[0]; ++c)
        mark_once(seen_c, total_cas, g[1 + 2 * iters + c], "CAS-replaced value", r);
    }
    /* n values, each in 0..n-1, none twice: exactly 0..n-1. */
    CHECK(total_cas == got_i[E_CAS], "%lld successful CAS, counter is %lld", (long long)total_cas,
          (long long)got_i[E_CAS]);
    CHECK(total_cas >= (passive(sync) ? n_tickets : 1), "only %lld successful CAS", (long long)total_cas);
    free(seen_i);
    free(seen_d);
    free(seen_c);
  }
  CHECK_MPI(MPI_Win_free(&gw));
  free(mine);
  free(tick_i);
  free(tick_d);
  free(acc_i);
  free(acc_d);
  free(gsrc_i);
  free(gsrc_d);
  free(gres_i);
  free(gres_d);
  free(before_i);
  free(before_d);
  free(cas_old);
  win_close(&w);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
  const int fl = argc > 1 ? parse_choice(argv[1], flavour_name, NFLAVOURS, "flavour") : -1;
  const int sy = argc > 2 ? parse_choice(argv[2], sync_name, NSYNCS, "sync mode") : -1;
  CHECK(argc <= 4, "usage: rma_hammer [FLAVOUR|all] [SYNC|all] [ITERATIONS]");
  const int iters = argc > 3 ? atoi(argv[3]) : 40;
  CHECK(iters >= 1 && iters <= 100000, "iterations %d", iters);
  int runs = 0;
  for (int f = 0; f < NFLAVOURS; ++f) {
    if (fl >= 0 && f != fl) continue;
    for (int s = 0; s < NSYNCS; ++s) {
      if (sy >= 0 && s != sy) continue;
      hammer(f, s, iters, 0);
      if (nranks > 1) hammer(f, s, iters, nranks - 1);
      ++runs;
    }
  }
  if (me == 0) printf("rma_hammer: %d flavour/sync combinations, %d iterations, %d ranks: ok\n", runs, iters, nranks);
  MPI_Finalize();
  return 0;
}
