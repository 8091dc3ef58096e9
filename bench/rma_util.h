/* Helpers shared by the RMA benchmark programs (rma_latency.c, rma_contended.c).
 * Header-only, C11 + standard MPI; include after
 * bench_util.h.
 *
 * Window flavours, as in OSU's -w option:
 *   allocate  MPI_Win_allocate: the library's own (shared) memory;
 *   create    MPI_Win_create on private memory: page-aligned posix_memalign, touched by
 *             its owner (OSU's -w create does exactly this).
 * Every buffer is touched before timing (first-touch page faults cost 26-75 us a page on
 * these VMs: they are not what is measured).
 */
#ifndef SHMPI_BENCH_RMA_UTIL_H
#define SHMPI_BENCH_RMA_UTIL_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum flavour { FLAVOUR_ALLOCATE, FLAVOUR_CREATE };

static inline int parse_flavour(const char* s, enum flavour* f) {
  if (strcmp(s, "allocate") == 0) return *f = FLAVOUR_ALLOCATE, 1;
  if (strcmp(s, "create") == 0) return *f = FLAVOUR_CREATE, 1;
  return 0;
}

static inline const char* flavour_name(enum flavour f) { return f == FLAVOUR_ALLOCATE ? "allocate" : "create"; }

/* Page-aligned, zeroed and touched (pre-faulted) private memory; aborts on failure. */
static inline void* bench_alloc(size_t bytes) {
  void* p = NULL;
  if (bytes == 0) bytes = 64;
  if (posix_memalign(&p, 4096, bytes) != 0 || p == NULL) {
    fprintf(stderr, "bench_alloc(%zu) failed\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(p, 0, bytes);
  return p;
}

/* A buffer offset from environment variable `var`: bytes (a multiple of 8 below 4096) past
 * a page that message buffers start at, 0 when unset; -1 (and a message from rank 0) when
 * bad. 16 is where glibc's malloc() puts large blocks (docs/collectives.md "Copies into
 * user buffers"). */
static inline long bench_buf_offset(const char* var, int rank) {
  const char* env = getenv(var);
  const long off = env != NULL ? atol(env) : 0;
  if (off < 0 || off >= 4096 || off % 8 != 0) {
    if (rank == 0) fprintf(stderr, "%s: a multiple of 8 below 4096, not %s\n", var, env);
    return -1;
  }
  return off;
}

/* A benchmark's send and receive buffers of sbytes and rbytes, page-aligned, or `var`
 * bytes past a page (bench_buf_offset); *sbase and *rbase are what to free(). 0 when `var`
 * is bad (nothing allocated). */
static inline int bench_message_buffers(const char* var, int rank, long sbytes, long rbytes, double** sbuf,
                                        double** rbuf, void** sbase, void** rbase) {
  const long off = bench_buf_offset(var, rank);
  if (off < 0) return 0;
  *sbase = bench_alloc((size_t)(sbytes + off));
  *rbase = bench_alloc((size_t)(rbytes + off));
  *sbuf = (double*)((char*)*sbase + off);
  *rbuf = (double*)((char*)*rbase + off);
  return 1;
}

/* A window of `bytes` bytes (disp_unit 1) on MPI_COMM_WORLD in flavour f. *base is this
 * rank's window memory, zeroed and touched by its owner; *priv is what to free() after
 * MPI_Win_free (NULL for allocate). */
static inline MPI_Win make_window(enum flavour f, size_t bytes, void** base, void** priv) {
  MPI_Win win = MPI_WIN_NULL;
  *priv = NULL;
  if (f == FLAVOUR_ALLOCATE) {
    MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &win);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Touch by the owner, in a local exclusive epoch (the portable way to store to one's
     * own window memory). */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    memset(*base, 0, bytes);
    MPI_Win_unlock(rank, win);
  } else {
    *priv = *base = bench_alloc(bytes);
    MPI_Win_create(*base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return win;
}

static inline void free_window(MPI_Win* win, void* priv) {
  MPI_Win_free(win);
  free(priv);
}

/* Rank 0's value of v on every rank, through a small control window (there are no
 * collectives other than MPI_Barrier to lean on): rank 0 stores it in its own window
 * memory, a fence publishes it, the others MPI_Get it, a second fence completes the gets.
 * ctl: a window with at least 8 bytes at rank 0, ctl_base its local memory. */
static inline int64_t share_from_rank0(int64_t v, MPI_Win ctl, void* ctl_base) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int64_t out = v;
  if (rank == 0) memcpy(ctl_base, &v, sizeof v);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, ctl);
  if (rank != 0) MPI_Get(&out, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, ctl);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, ctl);
  return out;
}

/* Loop lengths. A timed loop runs `iters` iterations, fewer if that would take much longer
 * than budget_s seconds (LOOP_BUDGET_S for latency loops): slow paths (MPICH's 1 MiB
 * accumulates take 5-100 ms each) and a busy machine (the peers busy-poll: with other work
 * on the cores each wait can cost a time slice) must not stretch the run to hours. The first
 * loop's length comes from the warmup, timed in doubling chunks (warmup_chunk; the median
 * chunk's pace: one stall does not count, a machine that stays slow does); after each loop
 * rank 0 shortens the next one if this one overran, by at most 4x (never lengthens it: min
 * and median are over loops of the same or decreasing length), and every rank uses rank 0's
 * value; never below iters_floor. The RESULT line reports the shortest loop's length. The
 * warmup stops early once it has taken WARMUP_BUDGET_S (rank 0 decides after each chunk). */
#define LOOP_BUDGET_S 0.02
#define MIN_CAPPED_ITERS 2
#define WARMUP_CHUNKS 16
#define WARMUP_BUDGET_S 0.1

/* The shortest loop capping may leave of a requested `iters`: iters / 200 (100 of the 20000
 * the driver asks for small messages: a loop of a few sub-microsecond ops would measure the
 * timer and the barrier skew), at least MIN_CAPPED_ITERS, at most iters. */
static inline long iters_floor(long iters) {
  const long f = iters / 200 > MIN_CAPPED_ITERS ? iters / 200 : MIN_CAPPED_ITERS;
  return f < iters ? f : iters;
}

/* iters, lowered to fit budget_s at per_iter_s seconds per iteration (no cap if <= 0), not
 * below floor. */
static inline long capped_iters(long iters, double per_iter_s, double budget_s, long floor) {
  if (per_iter_s <= 0) return iters;
  const double fit = budget_s / per_iter_s;
  if (fit >= (double)iters) return iters;
  return fit < (double)floor ? (floor < iters ? floor : iters) : (long)fit;
}

/* The length of warmup chunk k (0, 1, ...) when `done` of `warmup` iterations are done:
 * warmup/64 (at least 1), doubling, the last one taking what is left; 0 when done. At most
 * WARMUP_CHUNKS chunks. */
static inline long warmup_chunk(long warmup, long done, int k) {
  const long left = warmup - done;
  if (left <= 0) return 0;
  if (k >= WARMUP_CHUNKS - 1) return left;
  long len = warmup / 64 < 1 ? 1 : warmup / 64;
  for (int i = 0; i < k && len < left; ++i) len *= 2;
  return len < left ? len : left;
}

/* The median of the n chunk paces in t[] (sorted in place); 0 if none. */
static inline double median_pace(double* t, int n) { return median_in_place(t, n); }

/* After a loop of `iters` iterations that took loop_s: the next loop's length (rank 0
 * decides; share it with share_from_rank0 if other ranks loop too): shortened after an
 * overrun of more than 2x, by at most 4x per loop (one stall in an otherwise fast loop must
 * not leave two-iteration loops), not below floor. */
static inline long next_loop_iters(long iters, double loop_s, double budget_s, long floor) {
  if (loop_s <= 2.0 * budget_s) return iters;
  long next = capped_iters(iters, loop_s / (double)iters, budget_s, floor);
  if (next < iters / 4) next = iters / 4;
  if (next < floor) next = floor < iters ? floor : iters;
  return next;
}

/* Iterations for a message of `bytes` when `iters` are asked for at <= 1 KiB: the same
 * bytes per timed loop above 1 KiB (iters * 1 KiB), at least `floor`. */
static inline long iters_for_size(long iters, long bytes, long floor) {
  if (bytes <= 1024) return iters;
  const long n = (long)((double)iters * 1024.0 / (double)bytes);
  return n < floor ? floor : n;
}

/* One RESULT line with extra key=value text appended (compare.py ignores unknown keys).
 * Sorts us[]. */
static inline void print_result_extra(const char* bench, int ranks, double* us, int reps, long iters,
                                      const char* extra) {
  qsort(us, (size_t)reps, sizeof us[0], cmp_double);
  const double median = reps % 2 ? us[reps / 2] : 0.5 * (us[reps / 2 - 1] + us[reps / 2]);
  printf("RESULT bench=%s ranks=%d min_us=%.4f median_us=%.4f iters=%ld%s%s\n", bench, ranks, us[0], median, iters,
         extra && *extra ? " " : "", extra ? extra : "");
  fflush(stdout);
}

#endif
