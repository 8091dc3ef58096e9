/* nbc_latency: latency and communication/computation overlap of nonblocking collectives on
 * MPI_COMM_WORLD by message size, at any rank count, as OSU's nonblocking collective tests
 * (osu_iallreduce, osu_ibcast, osu_iscatter) define them, next to the blocking version of
 * the same call in the same launch. Standard MPI only, so the same source builds against
 * shmpi, Open MPI and MPICH.
 *
 *   nbc_latency ITERATIONS WARMUP REPETITIONS COLLS SIZES
 *     COLLS  comma list of the nonblocking iallreduce, ibcast, iscatter and the blocking
 *            allreduce, bcast, scatter
 *     SIZES  comma list of message sizes in bytes (multiples of 8)
 *
 * Size: the bytes of one rank's message (OSU's convention), n = SIZE / 8 doubles; root 0:
 *   (i)allreduce  every rank contributes n doubles, MPI_SUM on MPI_DOUBLE
 *   (i)bcast      n doubles from rank 0
 *   (i)scatter    every rank receives n doubles (root sends p x SIZE)
 *
 * Per size, the cases run in the order COLLS gives them. A nonblocking call whose blocking
 * version is listed too is measured together with it, where the first of the two is listed:
 * their timed loops alternate (one of the nonblocking call, one of the blocking call, ...),
 * so that a machine whose speed changes between minutes times both alike, and the
 * nonblocking line adds paired_ratio=, the median over those loop pairs of nonblocking /
 * blocking time. A nonblocking case is two measurements, OSU's:
 *   pure     loops of I<coll> + MPI_Wait, no computation: t_pure, the latency (min_us,
 *            median_us), as the blocking cases' latency;
 *   overlap  loops of I<coll>, then a dummy computation of about t_pure (the pure loops'
 *            median) with no MPI call inside (OSU's default: no MPI_Test during the
 *            computation), then MPI_Wait: t_total per iteration, and each rank's own time
 *            in the computation, t_compute (its mean over the ranks, as OSU averages over
 *            ranks). Overlap, per loop, exactly as OSU computes it:
 *              overlap% = max(0, 100 * (1 - (t_total - t_compute) / t_pure))
 *            100: the collective cost nothing on top of the computation; 0: none of it
 *            overlapped (it ran only inside MPI_Wait). The median over the loops is reported.
 * The computation is a dependent chain of floating-point multiply-adds on registers (no
 * memory traffic to compete with the collective's), calibrated once per launch on every
 * rank (the best of 11 timed runs of 2000 units: preemption does not stretch it) to units
 * of ~50 ns (compute_util.h, shared with overlap_limit.c); t_pure is divided into units on
 * every rank alike.
 *
 * Data, as coll_latency.c: every message starts as an exact integer pattern particular to
 * the message (sender and destination); before each call its senders stamp its first and
 * last element and one element that moves through the message (k % n in call k) with a
 * value unique to that call and message, and restore the previous moving element (a send
 * buffer is only touched before the call starts, a receive buffer only read after MPI_Wait).
 * Every rank checks after every call the three stamped elements of what it received (sums
 * computed exactly), and after each measurement the whole of the last call's result. A
 * library that skips or caches work, completes a request before its data is there or mixes
 * up blocks fails: an error on stderr, no RESULT line for that case, exit status 1.
 *
 * Buffers, as coll_latency.c: on a page, or NBC_LATENCY_BUF_OFFSET bytes (a multiple of 8)
 * past one (16: where glibc's malloc() puts large blocks).
 *
 * Timing, per measurement, as coll_latency.c: WARMUP' iterations (in doubling chunks;
 * stopped once they took 0.1 s), then REPETITIONS timed loops of ITERATIONS' back-to-back
 * iterations, each loop after one MPI_Barrier (the same for every library). Every rank reads
 * CLOCK_MONOTONIC right after the barrier and after its loop; a loop's value is its span,
 * the latest end minus the earliest start over all ranks, per iteration. (OSU puts an
 * MPI_Barrier after every iteration and averages each rank's own times instead: see
 * coll_latency.c for why the span.) The slowest rank's own time per call is printed as
 * tmax_median_us=. ITERATIONS' and WARMUP' are ITERATIONS and WARMUP up to 1 KiB and keep
 * the bytes per loop constant above (at least 4, and WARMUP' at least 64, OSU's
 * skip_large being 10: case_util.h warmup_for_size); a loop that would take much longer
 * than 20 ms is shortened (rma_util.h capped_iters; never below 1/200 of ITERATIONS', nor
 * below 2). iters= is the pure loops' shortest length, overlap_iters= the overlap loops'.
 *
 * Ranks agree on loop lengths and combine timings and checks through a small RMA control
 * window outside the timed loops (case_util.h; as coll_latency.c): no collective of the
 * library under test is trusted with the measurement.
 *
 * Rank 0 prints per case, microseconds per call:
 *   RESULT bench=nbc_<icoll>_<bytes> ranks=<p> min_us=<x> median_us=<y> iters=<i> tmax_median_us=<t>
 *          [paired_ratio=<r>] overlap_pct=<o> total_us=<t_total> compute_us=<t_compute> exposed_us=<e>
 *          overlap_iters=<j>
 *   RESULT bench=nbc_<coll>_<bytes> ranks=<p> min_us=<x> median_us=<y> iters=<i> tmax_median_us=<t>
 * (one line each; total_us, compute_us and exposed_us = t_total - t_compute, the time the
 * collective added to the computation, the medians over the overlap loops).
 */
#include "bench_util.h"

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "case_util.h"
#include "compute_util.h"
#include "rma_util.h"

enum coll { C_IALLREDUCE, C_IBCAST, C_ISCATTER, C_ALLREDUCE, C_BCAST, C_SCATTER, C_COUNT };
static const char* const coll_names[C_COUNT] = {"iallreduce", "ibcast", "iscatter", "allreduce", "bcast", "scatter"};

/* What a case computes, whether nonblocking or not. */
enum kind { K_ALLREDUCE, K_BCAST, K_SCATTER };
static enum kind kind_of(enum coll c) { return (enum kind)(c % 3); }
static int is_nonblocking(enum coll c) { return c < C_ALLREDUCE; }

#define MAX_RANKS 64 /* message ids (sender * p + destination) stay below 4096: stamps unique */
#define MAX_BYTES (64L << 20) /* per message: p x SIZE stays an int count of doubles */
#define CTL_VALS (3 * MAX_REPS + 2) /* values per rank and control step */

struct ctx {
  int rank, p;
  MPI_Comm comm;
  struct ctl ctl; /* control window: CTL_VALS doubles per rank and step */
  double* sbuf; /* send and receive buffers: what the largest case needs here (buffer_needs) */
  double* rbuf;
  long bad; /* calls of the current measurement in which this rank received wrong values */
  long units; /* overlap: dummy-computation units per iteration (0: none, the pure loops) */
  double comp_s; /* overlap: this rank's time in the computation, current loop */
};

static const struct case_words words = {"nbc_latency", "calls", "elements in the last call's results"};

/* ---- Data (as coll_latency.c) ----------------------------------------------------------- */

/* Message m's element i before stamping: an integer in 1..509. */
static inline double base_val(long m, long i) { return (double)((i * 7 + m * 13) % 509 + 1); }

/* The stamp of message m in iteration k: unique per (k mod 2^20, m < 4096), above any
 * base value; sums over 64 ranks stay below 2^39 (exact). */
static inline double stamp_val(long k, long m) { return 1024.0 + (double)(k & 0xFFFFF) * 4096.0 + (double)m; }

static inline int stamped(long i, long n, long k) { return i == 0 || i == n - 1 || i == k % n; }

/* Message m's element i as sent in iteration k. */
static inline double msg_val(long m, long k, long n, long i) {
  return stamped(i, n, k) ? stamp_val(k, m) : base_val(m, i);
}

static void init_msg(double* buf, long n, long m) {
  for (long i = 0; i < n; ++i) buf[i] = base_val(m, i);
}

/* Stamps message m for iteration k: restores the previous moving element, then stamps the
 * first, the last and the moving one. */
static inline void stamp_msg(double* buf, long n, long m, long k) {
  if (k > 0) buf[(k - 1) % n] = base_val(m, (k - 1) % n);
  const double v = stamp_val(k, m);
  buf[0] = v;
  buf[n - 1] = v;
  buf[k % n] = v;
}

/* 1 if any of the three stamped elements of iteration k is not v. */
static inline int wrong3(const double* buf, long n, long k, double v) {
  return buf[0] != v || buf[n - 1] != v || buf[k % n] != v;
}

/* ---- One iteration ---------------------------------------------------------------------- */

/* Between a nonblocking call's start and its MPI_Wait: the computation (overlap loops). */
static inline void wait_for(struct ctx* c, MPI_Request* req) {
  if (c->units > 0) {
    const double t0 = now_s();
    dummy_compute(c->units);
    c->comp_s += now_s() - t0;
  }
  MPI_Wait(req, MPI_STATUS_IGNORE);
}

/* Iteration k of `coll` on n doubles. */
static inline void iteration(struct ctx* c, enum coll coll, long n, long k) {
  const int p = c->p, me = c->rank, cnt = (int)n, nb = is_nonblocking(coll);
  double* const sb = c->sbuf;
  double* const rb = c->rbuf;
  MPI_Request req;
  switch (kind_of(coll)) {
    case K_ALLREDUCE: {
      stamp_msg(sb, n, me, k);
      if (nb) {
        MPI_Iallreduce(sb, rb, cnt, MPI_DOUBLE, MPI_SUM, c->comm, &req);
        wait_for(c, &req);
      } else {
        MPI_Allreduce(sb, rb, cnt, MPI_DOUBLE, MPI_SUM, c->comm);
      }
      double v = 0.0;
      for (long s = 0; s < p; ++s) v += stamp_val(k, s);
      c->bad += wrong3(rb, n, k, v);
      return;
    }
    case K_BCAST: {
      double* const buf = me == 0 ? sb : rb;
      if (me == 0) stamp_msg(sb, n, 0, k);
      if (nb) {
        MPI_Ibcast(buf, cnt, MPI_DOUBLE, 0, c->comm, &req);
        wait_for(c, &req);
      } else {
        MPI_Bcast(buf, cnt, MPI_DOUBLE, 0, c->comm);
      }
      if (me != 0) c->bad += wrong3(rb, n, k, stamp_val(k, 0));
      return;
    }
    case K_SCATTER:
      if (me == 0)
        for (long j = 0; j < p; ++j) stamp_msg(sb + j * n, n, j, k);
      if (nb) {
        MPI_Iscatter(sb, cnt, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, 0, c->comm, &req);
        wait_for(c, &req);
      } else {
        MPI_Scatter(sb, cnt, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, 0, c->comm);
      }
      c->bad += wrong3(rb, n, k, stamp_val(k, me));
      return;
  }
}

/* The bytes of send and receive buffer this rank needs for `coll` at SIZE `bytes` (only
 * these are allocated and touched: first-touch page faults cost tens of microseconds on
 * these VMs). */
static void buffer_needs(enum coll coll, int rank, int p, long bytes, long* sbytes, long* rbytes) {
  long sb = 0, rb = 0;
  switch (kind_of(coll)) {
    case K_ALLREDUCE: sb = rb = bytes; break;
    case K_BCAST: *(rank == 0 ? &sb : &rb) = bytes; break;
    case K_SCATTER: sb = rank == 0 ? (long)p * bytes : 0, rb = bytes; break;
  }
  *sbytes = sb;
  *rbytes = rb;
}

/* Before a measurement: every message this rank sends gets its base pattern, and what it
 * receives a value no correct result has. */
static void reset_case(struct ctx* c, enum coll coll, long n) {
  const int p = c->p, me = c->rank;
  long sbytes, rbytes;
  buffer_needs(coll, me, p, n * 8, &sbytes, &rbytes);
  for (long i = 0; i < rbytes / 8; ++i) c->rbuf[i] = -1.0;
  switch (kind_of(coll)) {
    case K_ALLREDUCE: init_msg(c->sbuf, n, me); break;
    case K_BCAST:
      if (me == 0) init_msg(c->sbuf, n, 0);
      break;
    case K_SCATTER:
      if (me == 0)
        for (long j = 0; j < p; ++j) init_msg(c->sbuf + j * n, n, j);
      break;
  }
}

/* After a measurement whose last call was iteration k: the wrong elements this rank
 * received in it. */
static long verify_case(struct ctx* c, enum coll coll, long n, long k) {
  const int p = c->p, me = c->rank;
  const double* rb = c->rbuf;
  long wrong = 0;
  switch (kind_of(coll)) {
    case K_ALLREDUCE:
      for (long i = 0; i < n; ++i) {
        double v = 0.0;
        for (long s = 0; s < p; ++s) v += msg_val(s, k, n, i);
        wrong += rb[i] != v;
      }
      break;
    case K_BCAST:
      if (me != 0)
        for (long i = 0; i < n; ++i) wrong += rb[i] != msg_val(0, k, n, i);
      break;
    case K_SCATTER:
      for (long i = 0; i < n; ++i) wrong += rb[i] != msg_val(me, k, n, i);
      break;
  }
  return wrong;
}

/* ---- One measurement -------------------------------------------------------------------- */

/* What the loops of one measurement gave, the same on every rank. Per loop r: us[r] the
 * span per iteration, tmax[r] the slowest rank's own time per iteration, comp[r] the mean
 * over the ranks of each one's computation time per iteration (overlap loops). */
struct timing {
  double us[MAX_REPS], tmax[MAX_REPS], comp[MAX_REPS];
  long iters; /* the shortest loop */
  long calls; /* calls in all, warmup included */
  double bad[2]; /* worst rank: calls with wrong values, wrong values in the last call */
};

/* Warmup and REPETITIONS timed loops of each of the m (1 or 2) collectives cs[0..m), all of
 * one kind (kind_of: the same buffers, stamps and checks), on n doubles, with c->units of
 * computation per iteration (nonblocking calls only); t[i] gets cs[i]'s loops. Two
 * collectives are warmed up one after the other and their timed loops then alternate:
 * loop r of cs[0], loop r of cs[1], loop r+1 of cs[0], ... A VM whose speed changes from
 * one minute to the next (these do, 2-4x for a cross-core copy) then times both in the
 * same states, so their ratio compares like with like; one measured whole before the
 * other gave nonblocking/blocking ratios of 0.5-2 at one size in one launch (docs/
 * collectives-measured.md, "Nonblocking and persistent collectives"). The stamps' iteration
 * counts on across both (one kind, one message). Returns 1 if the checks passed (on every
 * rank); a wrong value is counted against both. */
static int measure(struct ctx* c, const enum coll* cs, int m, long n, long iters, long warmup, int reps,
                   struct timing* t) {
  c->bad = 0;
  reset_case(c, cs[0], n); /* no barrier needed: a receive buffer is the library's only inside the call */

  long k = 0; /* calls so far: the stamps' iteration */
  long len_of[2], floor_of[2];
  for (int i = 0; i < m; ++i) {
    struct warmup w = {.total = warmup}; /* paces: seconds per iteration, max over ranks */
    for (long len; (len = warmup_next(&w)) > 0;) {
      const double w0 = now_s();
      for (long j = 0; j < len; ++j) iteration(c, cs[i], n, k++);
      const double dt = now_s() - w0;
      if (warmup_step(&w, &c->ctl, dt / (double)len, dt, len)) break;
    }
    floor_of[i] = iters_floor(iters);
    len_of[i] = warmup_capped(&w, iters, floor_of[i]);
  }

  double v[2][3 * MAX_REPS + 2]; /* per collective and loop: -start, end, own time; then the two checks */
  double comp[MAX_REPS];
  long loop_iters[2][MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < m; ++i) {
      const long len = len_of[i];
      c->comp_s = 0.0;
      MPI_Barrier(c->comm); /* pre-timing barrier, same for every library */
      const double t0 = now_s();
      for (long j = 0; j < len; ++j) iteration(c, cs[i], n, k++);
      const double t1 = now_s();
      v[i][3 * r] = -t0;
      v[i][3 * r + 1] = t1;
      v[i][3 * r + 2] = t1 - t0;
      if (m == 1) comp[r] = c->comp_s / (double)len;
      loop_iters[i][r] = len;
      if (r + 1 < reps && len > floor_of[i]) {
        double span[2] = {-t0, t1};
        ctl_allmax(&c->ctl, span, 2);
        len_of[i] = next_loop_iters(len, span[0] + span[1], LOOP_BUDGET_S, floor_of[i]);
      }
    }
  }

  const double bad = (double)c->bad, wrong = (double)verify_case(c, cs[0], n, k - 1);
  if (c->units > 0) ctl_allsum(&c->ctl, comp, reps);
  for (int i = 0; i < m; ++i) {
    v[i][3 * reps] = bad;
    v[i][3 * reps + 1] = wrong;
    ctl_allmax(&c->ctl, v[i], 3 * reps + 2);
    long shortest = loop_iters[i][0];
    for (int r = 0; r < reps; ++r) {
      t[i].us[r] = 1e6 * (v[i][3 * r] + v[i][3 * r + 1]) / (double)loop_iters[i][r];
      t[i].tmax[r] = 1e6 * v[i][3 * r + 2] / (double)loop_iters[i][r];
      t[i].comp[r] = c->units > 0 && m == 1 ? 1e6 * comp[r] / (double)c->p : 0.0;
      if (loop_iters[i][r] < shortest) shortest = loop_iters[i][r];
    }
    t[i].iters = shortest;
    t[i].calls = k;
    t[i].bad[0] = v[i][3 * reps];
    t[i].bad[1] = v[i][3 * reps + 1];
  }
  return t[0].bad[0] == 0.0 && t[0].bad[1] == 0.0;
}

/* The median of x[0..n) (x is left alone). */
static double median_of(const double* x, int n) {
  double tmp[MAX_REPS];
  memcpy(tmp, x, (size_t)n * sizeof x[0]);
  return median_pace(tmp, n);
}

/* The RESULT line of a blocking case, or of a measurement whose checks failed (rank 0). */
static void report_pure(struct ctx* c, const char* name, struct timing* t, int reps, int ok) {
  char extra[64] = "";
  if (ok) snprintf(extra, sizeof extra, "tmax_median_us=%.4f", median_of(t->tmax, reps));
  if (c->rank == 0) report_case(&words, name, c->p, t->us, reps, t->iters, extra, t->bad, t->calls);
}

/* One case (coll, bytes): a blocking call's loops, or a nonblocking call's pure loops and
 * then its overlap loops; with `partner` (>= 0: the blocking version of a nonblocking
 * coll), the two calls' loops alternate (measure) and both are reported, coll first, its
 * line with paired_ratio= (the median over the loop pairs of coll's time / partner's).
 * Rank 0 reports. Returns 1 if the checks passed. */
static int run_case(struct ctx* c, enum coll coll, int partner, long bytes, long iters, long warmup, int reps,
                    double unit_s) {
  const long n = bytes / 8;
  char name[64], pname[64];
  snprintf(name, sizeof name, "nbc_%s_%ld", coll_names[coll], bytes);
  if (partner >= 0) snprintf(pname, sizeof pname, "nbc_%s_%ld", coll_names[partner], bytes);
  struct timing pure[2], ovl;
  const enum coll cs[2] = {coll, partner >= 0 ? (enum coll)partner : coll};
  c->units = 0;
  const int ok = measure(c, cs, partner >= 0 ? 2 : 1, n, iters, warmup, reps, pure);
  const double t_pure = median_of(pure[0].us, reps); /* the same on every rank */
  if (!ok || !is_nonblocking(coll)) {
    report_pure(c, name, &pure[0], reps, ok);
    if (partner >= 0) report_pure(c, pname, &pure[1], reps, ok);
    return ok;
  }
  char extra[320] = "";
  snprintf(extra, sizeof extra, "tmax_median_us=%.4f", median_of(pure[0].tmax, reps));
  if (partner >= 0) {
    double ratio[MAX_REPS];
    for (int r = 0; r < reps; ++r) ratio[r] = pure[0].us[r] / pure[1].us[r];
    const size_t len = strlen(extra);
    snprintf(extra + len, sizeof extra - len, " paired_ratio=%.4f", median_of(ratio, reps));
  }

  /* Overlap: about t_pure of computation between the start and the wait. */
  const double units = t_pure * 1e-6 / unit_s;
  c->units = units < 1.0 ? 1 : (long)(units + 0.5);
  const int ok2 = measure(c, cs, 1, n, iters, warmup, reps, &ovl);
  c->units = 0;
  if (!ok2) {
    if (c->rank == 0) {
      char oname[80];
      snprintf(oname, sizeof oname, "%s (overlap loops)", name);
      report_case(&words, oname, c->p, ovl.us, reps, ovl.iters, "", ovl.bad, ovl.calls);
    }
    return 0;
  }
  double overlap[MAX_REPS], exposed[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    exposed[r] = ovl.us[r] - ovl.comp[r];
    const double o = 100.0 * (1.0 - exposed[r] / t_pure);
    overlap[r] = o > 0.0 ? o : 0.0;
  }
  const size_t len = strlen(extra);
  snprintf(extra + len, sizeof extra - len,
           " overlap_pct=%.2f total_us=%.4f compute_us=%.4f exposed_us=%.4f overlap_iters=%ld", median_of(overlap, reps),
           median_of(ovl.us, reps), median_of(ovl.comp, reps), median_of(exposed, reps), ovl.iters);
  if (c->rank == 0) report_case(&words, name, c->p, pure[0].us, reps, pure[0].iters, extra, pure[0].bad, pure[0].calls);
  if (partner >= 0) report_pure(c, pname, &pure[1], reps, 1);
  return 1;
}

/* ---- Main ------------------------------------------------------------------------------- */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct case_args a;
  const int ok = argc == 6 && parse_case_args(argc, argv, coll_names, C_COUNT, MAX_BYTES, &a);
  if (!ok || size > MAX_RANKS) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -n P %s ITERATIONS WARMUP REPETITIONS COLLS SIZES   (P <= %d)\n"
              "  COLLS: comma list of iallreduce,ibcast,iscatter (nonblocking: latency and overlap) and "
              "allreduce,bcast,scatter (blocking: latency)\n"
              "  SIZES: comma list of bytes per message (multiples of 8, at most %ld)\n",
              argv[0], MAX_RANKS, MAX_BYTES);
    MPI_Finalize();
    return 2;
  }

  struct ctx c = {.rank = rank, .p = size, .comm = MPI_COMM_WORLD};
  const double unit_s = calibrate_units(dummy_compute);
  ctl_open(&c.ctl, rank, size, CTL_VALS);
  long sbytes = 64, rbytes = 64; /* what the largest case of any collective needs on this rank */
  for (int i = 0; i < a.nnames; ++i)
    for (int j = 0; j < a.nsizes; ++j) {
      long sb, rb;
      buffer_needs((enum coll)a.names[i], rank, size, a.sizes[j], &sb, &rb);
      if (sb > sbytes) sbytes = sb;
      if (rb > rbytes) rbytes = rb;
    }
  /* NBC_LATENCY_BUF_OFFSET: the message buffers start this many bytes past a page */
  void *sbase = NULL, *rbase = NULL;
  if (!bench_message_buffers("NBC_LATENCY_BUF_OFFSET", rank, sbytes, rbytes, &c.sbuf, &c.rbuf, &sbase, &rbase)) {
    MPI_Finalize();
    return 2;
  }

  int all_ok = 1;
  for (int j = 0; j < a.nsizes; ++j) {
    const long it = iters_for_size(a.iters, a.sizes[j], 4), w = warmup_for_size(a.warmup, a.sizes[j]);
    /* A nonblocking call whose blocking version is listed too is measured with it
     * (alternating loops, run_case), where the first of the two is listed. */
    int done[C_COUNT] = {0};
    for (int i = 0; i < a.nnames; ++i) {
      const enum coll coll = (enum coll)a.names[i];
      if (done[coll]) continue;
      const enum coll nb = is_nonblocking(coll) ? coll : (enum coll)(coll - C_ALLREDUCE);
      const enum coll blk = (enum coll)(nb + C_ALLREDUCE);
      int partner = -1;
      for (int q = 0; q < a.nnames; ++q)
        if (a.names[q] != (int)coll && (a.names[q] == (int)nb || a.names[q] == (int)blk)) partner = a.names[q];
      if (partner >= 0) done[nb] = done[blk] = 1;
      all_ok &= partner >= 0 ? run_case(&c, nb, blk, a.sizes[j], it, a.warmup ? w : 0, a.reps, unit_s)
                             : run_case(&c, coll, -1, a.sizes[j], it, a.warmup ? w : 0, a.reps, unit_s);
    }
  }

  ctl_close(&c.ctl);
  free(sbase);
  free(rbase);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
