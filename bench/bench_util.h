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
#include <string.h>
#include <time.h>

#define MAX_REPS 101
#define MAX_LIST 32 /* items of a comma list argument (more are ignored) */

/* argv[i] as a long in [lo, hi], or dflt if absent; clears *ok on a bad value. */
static inline long parse_arg(int argc, char** argv, int i, long dflt, long lo, long hi, int* ok) {
  if (argc <= i) return dflt;
  char* end = NULL;
  const long v = strtol(argv[i], &end, 10);
  if (end == argv[i] || *end != '\0' || v < lo || v > hi) *ok = 0;
  return v;
}

/* Splits "a,b,c" in place into at most max tokens; returns the count. */
static inline int split_list(char* s, char** out, int max) {
  int n = 0;
  for (char* tok = strtok(s, ","); tok != NULL && n < max; tok = strtok(NULL, ",")) out[n++] = tok;
  return n;
}

/* The index of s in names[0..n), or -1. */
static inline int lookup_name(const char* s, const char* const* names, int n) {
  for (int i = 0; i < n; ++i)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

/* A comma list of names into their indices in names[0..n) (out: MAX_LIST entries); returns
 * how many, 0 if there are none or one is unknown. */
static inline int parse_names(char* s, const char* const* names, int n, int* out) {
  char* toks[MAX_LIST];
  const int m = split_list(s, toks, MAX_LIST);
  for (int i = 0; i < m; ++i)
    if ((out[i] = lookup_name(toks[i], names, n)) < 0) return 0;
  return m;
}

/* A comma list of message sizes in bytes (multiples of 8, 8 to max_bytes), appended to
 * out[*count...] (MAX_LIST entries), *max raised to the largest; 0 if there are none or one
 * is bad. */
static inline int parse_sizes(char* s, long* out, int* count, long* max, long max_bytes) {
  char* toks[MAX_LIST];
  const int m = split_list(s, toks, MAX_LIST);
  for (int i = 0; i < m; ++i) {
    char* end = NULL;
    const long v = strtol(toks[i], &end, 10);
    if (end == toks[i] || *end != '\0' || v < 8 || v % 8 != 0 || v > max_bytes) return 0;
    out[(*count)++] = v;
    if (v > *max) *max = v;
  }
  return m > 0;
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

/* The median of v[0..n), sorted in place (v[0] is then the minimum); 0 if n <= 0. */
static inline double median_in_place(double* v, int n) {
  if (n <= 0) return 0.0;
  qsort(v, (size_t)n, sizeof v[0], cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Sorts the per-loop values and prints
 *   RESULT bench=<name> ranks=<n> min_us=<x> median_us=<y> iters=<i> */
static inline void print_result(const char* bench, int ranks, double* us, int reps, long iters) {
  const double median = median_in_place(us, reps);
  printf("RESULT bench=%s ranks=%d min_us=%.4f median_us=%.4f iters=%ld\n", bench, ranks, us[0], median, iters);
  fflush(stdout);
}

#endif
