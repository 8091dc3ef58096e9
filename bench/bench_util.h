/* Helpers shared by the benchmark programs (header-only, C11): argument parsing, a
 * monotonic clock, and the one RESULT line format that compare.py parses. */
#ifndef SHMPI_BENCH_UTIL_H
#define SHMPI_BENCH_UTIL_H
/* Needs POSIX clock_gettime: a program that includes this before any system header
 * under plain -std=c11 gets it declared. */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_REPS 101

/* argv[i] as a long in [lo, hi], or dflt if absent; clears *ok on a bad value. */
static inline long parse_arg(int argc, char** argv, int i, long dflt, long lo, long hi, int* ok) {
  if (argc <= i) return dflt;
  char* end = NULL;
  const long v = strtol(argv[i], &end, 10);
  if (end == argv[i] || *end != '\0' || v < lo || v > hi) *ok = 0;
  return v;
}

static inline double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Sorts the per-loop values and prints
 *   RESULT bench=<name> ranks=<n> min_us=<x> median_us=<y> iters=<i> */
static inline void print_result(const char* bench, int ranks, double* us, int reps, long iters) {
  qsort(us, (size_t)reps, sizeof us[0], cmp_double);
  const double median = reps % 2 ? us[reps / 2] : 0.5 * (us[reps / 2 - 1] + us[reps / 2]);
  printf("RESULT bench=%s ranks=%d min_us=%.4f median_us=%.4f iters=%ld\n", bench, ranks, us[0], median, iters);
  fflush(stdout);
}

#endif
