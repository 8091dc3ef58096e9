/* The one-core reduce reference a[i] += b[i] of rma_latency.c (local) and coll_latency.c
 * (reduce_ref). Header-only, C11; include it only where it is used (its functions are not
 * inline). */
#ifndef SHMPI_BENCH_LOCAL_ADD_H
#define SHMPI_BENCH_LOCAL_ADD_H

/* GCC (what mpicc runs for all three libraries here): the loop at -O3, and once more for
 * AVX2, picked at run time. Elsewhere the plain loop at the caller's flags. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LOCAL_ADD_AVX2 1
__attribute__((noinline, optimize("O3"), target("avx2"))) static void local_add_avx2(double* restrict a,
                                                                                   const double* restrict b, long n) {
  for (long i = 0; i < n; ++i) a[i] += b[i];
}
__attribute__((noinline, optimize("O3"))) static void local_add_base(double* restrict a, const double* restrict b,
                                                                     long n) {
  for (long i = 0; i < n; ++i) a[i] += b[i];
}
#else
static void local_add_base(double* restrict a, const double* restrict b, long n) {
  for (long i = 0; i < n; ++i) a[i] += b[i];
}
#endif

static void (*local_add)(double* restrict, const double* restrict, long) = local_add_base;

/* Picks local_add's variant for this CPU (call once, before timing); returns its name. */
static const char* select_local_add(void) {
#ifdef LOCAL_ADD_AVX2
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) {
    local_add = local_add_avx2;
    return "avx2";
  }
#endif
  return "baseline";
}

#endif
