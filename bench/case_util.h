/* Scaffolding shared by coll_latency.c, p2p_latency.c and nbc_latency.c (header-only, C11 +
 * standard MPI): their arguments, the control window through which the ranks agree and
 * combine outside the timed loops, a case's warmup, and rank 0's report of a case. */
#ifndef SHMPI_BENCH_CASE_UTIL_H
#define SHMPI_BENCH_CASE_UTIL_H

#include "bench_util.h" /* first: it selects POSIX */

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "rma_util.h"

/* ---- Arguments -------------------------------------------------------------------------- */

/*   ITERATIONS WARMUP REPETITIONS NAMES SIZES [REF_SIZES]
 * NAMES a comma list of the program's cases (modes, collectives), SIZES and REF_SIZES comma
 * lists of bytes (parse_sizes; REF_SIZES: SIZES again if absent). */
struct case_args {
  long iters, warmup;
  int reps;
  int names[MAX_LIST], nnames; /* indices into the program's names */
  long sizes[MAX_LIST], ref_sizes[MAX_LIST];
  int nsizes, nref;
  long max_bytes, max_ref; /* the largest of each list (at least 8) */
};

/* Parses argv into *a (names[0..count): the program's case names; sizes up to max_bytes);
 * 0 if an argument is missing, extra or bad. */
static inline int parse_case_args(int argc, char** argv, const char* const* names, int count, long max_bytes,
                                  struct case_args* a) {
  int ok = argc == 6 || argc == 7;
  a->iters = parse_arg(argc, argv, 1, 20000, 1, 1000000000L, &ok);
  a->warmup = parse_arg(argc, argv, 2, 2000, 0, 1000000000L, &ok);
  a->reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  a->nnames = a->nsizes = a->nref = 0;
  a->max_bytes = a->max_ref = 8;
  if (!ok) return 0;
  a->nnames = parse_names(argv[4], names, count, a->names);
  if (a->nnames == 0 || !parse_sizes(argv[5], a->sizes, &a->nsizes, &a->max_bytes, max_bytes)) return 0;
  if (argc == 7) return parse_sizes(argv[6], a->ref_sizes, &a->nref, &a->max_ref, max_bytes);
  memcpy(a->ref_sizes, a->sizes, sizeof a->sizes);
  a->nref = a->nsizes;
  a->max_ref = a->max_bytes;
  return 1;
}

/* ---- Control: agreeing and combining outside the timed loops, without collectives ------- */

/* A control window on MPI_COMM_WORLD (MPI_Win_allocate): `vals` doubles per rank and step,
 * two sets of them (steps alternate between the sets, so a fast rank's next step cannot
 * overwrite values a slow rank has yet to read). The window stays in a fence epoch between
 * steps. */
struct ctl {
  MPI_Win win;
  double* base;
  long step;
  int rank, p, vals;
};

static inline void ctl_open(struct ctl* c, int rank, int p, int vals) {
  c->rank = rank;
  c->p = p;
  c->vals = vals;
  c->step = 0;
  MPI_Win_allocate((MPI_Aint)(2 * p * vals * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &c->base, &c->win);
  memset(c->base, 0, 2 * (size_t)p * (size_t)vals * sizeof(double));
  MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win);
}

static inline void ctl_close(struct ctl* c) {
  MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win);
  MPI_Win_free(&c->win);
}

/* Every rank's v[0..nv) (nv <= vals) into every rank's control window: each rank puts its
 * values into its own slot of every rank's window, one fence completes them. Returns this
 * rank's copy of all of them: rank r's value j at [r * vals + j]. */
static inline const double* ctl_exchange(struct ctl* c, const double* v, int nv) {
  const int set = (int)(c->step++ & 1);
  const MPI_Aint disp = ((MPI_Aint)set * c->p + c->rank) * c->vals;
  for (int t = 0; t < c->p; ++t) MPI_Put(v, nv, MPI_DOUBLE, t, disp, nv, MPI_DOUBLE, c->win);
  MPI_Win_fence(0, c->win);
  return c->base + (long)set * c->p * c->vals;
}

/* v[0..nv) := the maximum over all ranks of v[0..nv) (nv <= vals). */
static inline void ctl_allmax(struct ctl* c, double* v, int nv) {
  const double* all = ctl_exchange(c, v, nv);
  for (int j = 0; j < nv; ++j) {
    double m = v[j];
    for (int r = 0; r < c->p; ++r) {
      const double x = all[(long)r * c->vals + j];
      if (x > m) m = x;
    }
    v[j] = m;
  }
}

/* v[0..nv) := the sum over all ranks of v[0..nv) (nv <= vals), added in rank order (the
 * same result on every rank). */
static inline void ctl_allsum(struct ctl* c, double* v, int nv) {
  const double* all = ctl_exchange(c, v, nv);
  for (int j = 0; j < nv; ++j) {
    double s = 0.0;
    for (int r = 0; r < c->p; ++r) s += all[(long)r * c->vals + j];
    v[j] = s;
  }
}

/* ---- A case's warmup -------------------------------------------------------------------- */

/* The warmup of one case, in doubling chunks (rma_util.h warmup_chunk) until `total`
 * iterations are done or they took WARMUP_BUDGET_S. Per chunk:
 *   for (long len; (len = warmup_next(&w)) > 0;) { ...len iterations...; if (warmup_step(...)) break; }
 * then warmup_capped gives the timed loops' length. */
struct warmup {
  long total, done; /* iterations asked for, done */
  int chunks; /* chunks done */
  double spent; /* seconds so far (max over the ranks) */
  double pace[WARMUP_CHUNKS]; /* seconds per iteration of each chunk (max over the ranks) */
  long longest; /* the longest chunk's length (the later one of equal lengths) */
  double longest_pace; /* its pace */
};

/* The warmup iterations of a case of `bytes`: WARMUP up to 1 KiB and the same bytes
 * above (rma_util.h iters_for_size), but at least 64 (or WARMUP if smaller; the warmup
 * still stops after 0.1 s): a library that settles per size is timed settled at every
 * size. OSU's skip_large is 10, enough for shmpi's path choice (up to 8 calls), but
 * not for a first pass over per-call resources: shmpi stages each of its last 32 calls
 * in pages of their own, and on these VMs the first access of a page costs 5-75 us, so
 * at 8 ranks a 32 KiB MPI_Allreduce's first 32 calls took 0.5-4.7 ms each and the
 * next ones ~0.1 ms (bench/README.md). 64 leaves a chunk of 32 calls after that first
 * pass, for warmup_capped's pace. */
#define WARMUP_LARGE_FLOOR 64L
static inline long warmup_for_size(long warmup, long bytes) {
  const long floor = warmup < WARMUP_LARGE_FLOOR ? warmup : WARMUP_LARGE_FLOOR;
  return iters_for_size(warmup, bytes, floor < 1 ? 1 : floor);
}

/* The next chunk's length; 0 once all are done. */
static inline long warmup_next(const struct warmup* w) { return warmup_chunk(w->total, w->done, w->chunks); }

/* After a chunk of len iterations that took dt seconds here, at `pace` seconds per iteration
 * (0 if this rank did not iterate): records the pace and the time so far, both the maximum
 * over the ranks through ctl if it is not NULL (then every rank must call this). Returns 1
 * once the warmup has taken WARMUP_BUDGET_S (the same decision on every rank). */
static inline int warmup_step(struct warmup* w, struct ctl* ctl, double pace, double dt, long len) {
  double v[2] = {pace, w->spent + dt}; /* pace, warmup time so far */
  if (ctl != NULL) ctl_allmax(ctl, v, 2);
  w->pace[w->chunks++] = v[0];
  if (len >= w->longest) {
    w->longest = len;
    w->longest_pace = v[0];
  }
  w->spent = v[1];
  w->done += len;
  return w->spent > WARMUP_BUDGET_S;
}

/* iters, cut to LOOP_BUDGET_S (capped_iters), not below floor, at the warmup's median
 * chunk pace or its longest chunk's if that is faster. The median alone passes over one
 * stall but not over a slow start: the chunks double from 1 call, so most of them fall in
 * the first calls of a case, which pay first accesses (warmup_for_size), and a case timed
 * first at its size ran loops of ~20 calls where the same case timed second ran ~150
 * (8 ranks, 32 KiB MPI_Scatter: 14.6-18 against 9.7-10.4 us per call, the gap of a
 * short loop's start skew and of the calls still settling; bench/README.md). The
 * longest chunk is the last half of the warmup or close: a pace over many calls, after
 * the start. Noise only adds time, so the faster of the two is the better guess. */
static inline long warmup_capped(struct warmup* w, long iters, long floor) {
  double pace = median_pace(w->pace, w->chunks);
  if (w->longest_pace > 0 && w->longest_pace < pace) pace = w->longest_pace;
  return capped_iters(iters, pace, LOOP_BUDGET_S, floor);
}

/* ---- Rank 0's report -------------------------------------------------------------------- */

/* How a program names its iterations and its final check in an error line. */
struct case_words {
  const char* prog; /* "coll_latency" */
  const char* iterations; /* "calls" */
  const char* last; /* what the final check counts: "elements in the last call's results" */
};

/* On rank 0 after case `name`, k iterations in all: its RESULT line (us[0..reps) per loop,
 * sorted here; iters the shortest loop; extra appended) if both checks found nothing
 * (bad[0]: iterations with wrong values, bad[1]: wrong values in the last one; worst rank),
 * else on stderr
 *   <prog>: <name>: WRONG RESULT (ranks=<p>; worst rank: <bad[0]> of <k> <iterations> had
 *   wrong values, <bad[1]> wrong <last>) */
static inline void report_case(const struct case_words* words, const char* name, int ranks, double* us, int reps,
                               long iters, const char* extra, const double bad[2], long k) {
  if (bad[0] == 0.0 && bad[1] == 0.0) {
    print_result_extra(name, ranks, us, reps, iters, extra);
    return;
  }
  fprintf(stderr, "%s: %s: WRONG RESULT (ranks=%d; worst rank: %.0f of %ld %s had wrong values, %.0f wrong %s)\n",
          words->prog, name, ranks, bad[0], k, words->iterations, bad[1], words->last);
  fflush(stderr);
}

#endif
