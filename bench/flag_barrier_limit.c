/* flag_barrier_limit: the hardware limit for a two-process barrier. NOT an MPI program.
 *
 *   flag_barrier_limit [ITERATIONS [WARMUP [REPETITIONS]]]   defaults: 20000 2000 5
 *
 * Two processes (fork) share an anonymous MAP_SHARED mapping holding one flag each, on
 * its own 64-byte cache line: a uint64 generation counter (pair_util.h, shared with
 * overlap_limit.c). Barrier number g (g = 1, 2, ...): store g to the own flag (release),
 * then spin with a pause instruction until the other's flag is >= g (acquire). That is
 * one cache-line transfer each way, with no sleeping, no library and no bookkeeping:
 * nothing a real barrier can beat.
 *
 * The parent ("rank 0") is pinned to CPU 0, the child to CPU 1. Same scheme as
 * barrier_latency.c: WARMUP barriers, then REPETITIONS loops of ITERATIONS barriers, each
 * preceded by one untimed barrier; the parent times each loop (CLOCK_MONOTONIC) and prints
 *
 *   RESULT bench=flag_limit ranks=2 min_us=<x> median_us=<y> iters=<i>
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "bench_util.h"
#include "pair_util.h"

static inline void barrier(struct pair_flags* s, int me, uint64_t g) {
  pair_post(s, me, g);
  pair_wait(s, me, g);
}

int main(int argc, char** argv) {
  int ok = 1;
  const long iters = parse_arg(argc, argv, 1, 20000, 1, 1000000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 2000, 0, 1000000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  if (!ok) {
    fprintf(stderr, "usage: %s [ITERATIONS>=1 [WARMUP>=0 [REPETITIONS 1..%d]]]\n", argv[0], MAX_REPS);
    return 2;
  }

  int me = 0;
  struct pair_flags* s = pair_start("flag_barrier_limit", &me);
  if (s == NULL) return 1;

  uint64_t g = 0;
  for (long i = 0; i < warmup; ++i) barrier(s, me, ++g);

  double per_barrier_us[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    barrier(s, me, ++g); /* pre-timing barrier */
    const double t0 = now_s();
    for (long i = 0; i < iters; ++i) barrier(s, me, ++g);
    const double t1 = now_s();
    per_barrier_us[r] = 1e6 * (t1 - t0) / (double)iters;
  }

  if (!pair_end(s, me)) return 1;
  print_result("flag_limit", 2, per_barrier_us, reps, iters);
  return 0;
}
