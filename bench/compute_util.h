/* The dummy computation of the nonblocking-collective overlap measurements (OSU's
 * "dummy compute"), shared by nbc_latency.c and overlap_limit.c so that both time the
 * same work (header-only, C11). */
#ifndef SHMPI_BENCH_COMPUTE_UTIL_H
#define SHMPI_BENCH_COMPUTE_UTIL_H

#include "bench_util.h"

#define UNIT_OPS 16 /* dependent multiply-adds per unit: ~50 ns */
static volatile double compute_seed = 1.0;
static volatile double compute_sink;

/* `units` units of arithmetic, no memory traffic and no MPI call (the compiler cannot drop
 * it: the chain starts at a volatile and ends in one). */
static void dummy_compute(long units) {
  double x = compute_seed;
  for (long i = 0; i < units; ++i)
    for (int j = 0; j < UNIT_OPS; ++j) x = x * 0.9999999 + 1e-9;
  compute_sink = x;
}

/* Seconds per unit of f on this process: the best of 11 runs of 2000 units (a run that
 * was preempted does not count). */
static inline double calibrate_units(void (*f)(long)) {
  double best = 1.0;
  f(2000);
  for (int t = 0; t < 11; ++t) {
    const double t0 = now_s();
    f(2000);
    const double dt = (now_s() - t0) / 2000.0;
    if (dt > 0 && dt < best) best = dt;
  }
  return best;
}

#endif
