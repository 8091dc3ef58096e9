/* overlap_limit: the overlap OSU's nonblocking benchmarks can find at 2 ranks for a call
 * that costs WORK ns of CPU around one cache-line exchange. NOT an MPI program.
 *
 *   overlap_limit [ITERATIONS [WARMUP [REPETITIONS [WORKS]]]]   defaults: 20000 2000 5 0,50,100,200,400
 *     WORKS  comma list of CPU nanoseconds per call (0 to 100000)
 *
 * Two processes (pair_util.h: fork, pinned to CPUs 0 and 1) share one generation flag
 * each on its own 64-byte line, as in flag_barrier_limit.c. Call number g is: WORK/2 ns of
 * CPU (its issue), store g to the own flag (release), spin with a pause until the
 * other's flag is >= g (acquire), WORK/2 ns of CPU (its wait). The CPU work is a chain
 * of register-only integer operations calibrated on each process (the best of 11 timed
 * runs): a library's instructions without cache misses. Per WORK, as nbc_latency.c
 * measures a nonblocking collective (OSU's definitions):
 *   pure     loops of calls without computation: t_pure per call (min_us, median_us);
 *   overlap  loops of calls with nbc_latency.c's dummy computation (compute_util.h:
 *            register floating point, ~50 ns units) of about t_pure (this process's
 *            pure median) between the store and the spin, timed around each
 *            computation as there:
 *              overlap% = max(0, 100 * (1 - (t_total - t_compute) / t_pure))
 *            per loop, the median reported, with exposed_us = t_total - t_compute.
 * The other's line is all a call here waits for, so the figure is what the hardware
 * leaves a call of that CPU cost: with WORK = 0 the line transfer is all there is to
 * hide (less the two clock reads around the computation, which OSU's method counts as
 * exposed); as WORK grows, all of it shows after the computation while t_pure grows by
 * the same, and the figure falls. A library call that spends as much CPU in MPI_Ix +
 * MPI_Wait and waits for one line of the other rank (an 8-byte MPI_Iallreduce) should
 * not expect more in the same state of the machine (docs/collectives-measured.md,
 * "Nonblocking and persistent collectives", session 36).
 *
 * Timing as flag_barrier_limit.c: WARMUP calls first, then per measurement REPETITIONS
 * loops of ITERATIONS calls, each loop after one untimed exchange; the parent times each
 * loop (CLOCK_MONOTONIC) and prints per WORK
 *
 *   RESULT bench=overlap_limit_<work>ns ranks=2 min_us=<x> median_us=<y> iters=<i> overlap_pct=<o> exposed_us=<e>
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "compute_util.h"
#include "pair_util.h"

#define MAX_WORK_NS 100000L

static volatile uint64_t work_seed = 1;
static volatile uint64_t work_sink;

/* `units` units of integer work: 16 dependent operations each, on registers. */
static void cpu_work(long units) {
  uint64_t x = work_seed;
  for (long i = 0; i < units; ++i)
    for (int j = 0; j < 16; ++j) x = (x ^ (x >> 7)) + (uint64_t)j;
  work_sink = x;
}

struct ctx {
  struct pair_flags* s;
  int me;
  uint64_t g;       /* the last call's generation */
  long half_units;  /* cpu_work units at issue and at wait: WORK / 2 */
  long comp_units;  /* dummy_compute units between store and spin (0: pure loops) */
  double comp_s;    /* time in the computation, current loop */
};

static inline void call(struct ctx* c) {
  const uint64_t g = ++c->g;
  cpu_work(c->half_units);
  pair_post(c->s, c->me, g);
  if (c->comp_units > 0) {
    const double t0 = now_s();
    dummy_compute(c->comp_units);
    c->comp_s += now_s() - t0;
  }
  pair_wait(c->s, c->me, g);
  cpu_work(c->half_units);
}

/* One loop of `iters` calls after an untimed one without computation: seconds per call,
 * and c->comp_s, the computation's seconds per call. */
static double loop(struct ctx* c, long iters) {
  const long comp = c->comp_units;
  c->comp_units = 0;
  call(c);
  c->comp_units = comp;
  c->comp_s = 0;
  const double t0 = now_s();
  for (long i = 0; i < iters; ++i) call(c);
  const double dt = (now_s() - t0) / (double)iters;
  c->comp_s /= (double)iters;
  return dt;
}

int main(int argc, char** argv) {
  int ok = 1;
  const long iters = parse_arg(argc, argv, 1, 20000, 1, 100000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 2000, 0, 100000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  char dflt[] = "0,50,100,200,400";
  char* toks[MAX_LIST];
  const int nworks = split_list(argc > 4 ? argv[4] : dflt, toks, MAX_LIST);
  long works[MAX_LIST];
  for (int i = 0; i < nworks; ++i) {
    char* end = NULL;
    works[i] = strtol(toks[i], &end, 10);
    if (end == toks[i] || *end != '\0' || works[i] < 0 || works[i] > MAX_WORK_NS) ok = 0;
  }
  if (!ok || nworks == 0 || argc > 5) {
    fprintf(stderr, "usage: %s [ITERATIONS>=1 [WARMUP>=0 [REPETITIONS 1..%d [WORKS]]]] (WORKS: ns 0..%ld, comma list)\n",
            argv[0], MAX_REPS, MAX_WORK_NS);
    return 2;
  }

  struct ctx c = {0};
  c.s = pair_start("overlap_limit", &c.me);
  if (c.s == NULL) return 1;
  const double work_unit_s = calibrate_units(cpu_work);
  const double comp_unit_s = calibrate_units(dummy_compute);
  for (long i = 0; i < warmup; ++i) call(&c);

  for (int w = 0; w < nworks; ++w) {
    c.half_units = (long)(0.5e-9 * (double)works[w] / work_unit_s + 0.5);
    double pure_us[MAX_REPS], overlap[MAX_REPS], exposed_us[MAX_REPS];
    c.comp_units = 0;
    for (int r = 0; r < reps; ++r) pure_us[r] = 1e6 * loop(&c, iters);
    const double t_pure_us = median_in_place(pure_us, reps); /* pure_us[0]: the minimum */
    /* Each process sizes its own computation from its own t_pure (as OSU); both run the
     * same number of calls whatever the sizes. */
    c.comp_units = (long)(1e-6 * t_pure_us / comp_unit_s + 0.5);
    if (c.comp_units < 1) c.comp_units = 1;
    for (int r = 0; r < reps; ++r) {
      const double total_us = 1e6 * loop(&c, iters);
      exposed_us[r] = total_us - 1e6 * c.comp_s;
      const double o = 100.0 * (1.0 - exposed_us[r] / t_pure_us);
      overlap[r] = o > 0 ? o : 0;
    }
    if (c.me == 1) continue;
    printf("RESULT bench=overlap_limit_%ldns ranks=2 min_us=%.4f median_us=%.4f iters=%ld", works[w], pure_us[0],
           t_pure_us, iters);
    printf(" overlap_pct=%.2f exposed_us=%.4f\n", median_in_place(overlap, reps), median_in_place(exposed_us, reps));
    fflush(stdout);
  }
  return pair_end(c.s, c.me) ? 0 : 1;
}
