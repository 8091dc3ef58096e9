/* coll_latency: latency of blocking collectives on MPI_COMM_WORLD by message size, at any
 * rank count, in the manner of Intel MPI Benchmarks / OSU's collective tests, plus the
 * references they are judged against (a memcpy and a plain a[i] += b[i] on one core).
 * Standard MPI only, so the same source builds against shmpi, Open MPI and MPICH.
 *
 *   coll_latency ITERATIONS WARMUP REPETITIONS COLLS SIZES [REF_SIZES]
 *     COLLS      comma list of barrier, bcast, scatter, scatterv, gather, reduce, allreduce,
 *                reduce_nc, allreduce_nc, reduce_scatter_block, alltoall, scan, allgather, and the
 *                references copy, reduce_ref
 *     SIZES      comma list of message sizes in bytes (multiples of 8; 16 for the _nc
 *                cases); barrier runs once whatever SIZES says
 *     REF_SIZES  the sizes for copy and reduce_ref (default: SIZES)
 *
 * Size, per collective: the bytes of one rank's message (OSU's convention), n = SIZE / 8
 * doubles (n = SIZE / 16 elements of two doubles for _nc); root 0 everywhere:
 *   bcast                 MPI_Bcast of n doubles
 *   scatter, scatterv     every rank receives n doubles (root sends p x SIZE); scatterv with
 *                         counts n, displacements j*n (as OSU's osu_scatterv)
 *   gather                every rank sends n doubles (root receives p x SIZE)
 *   reduce, allreduce     every rank contributes n doubles, MPI_SUM on MPI_DOUBLE
 *   reduce_nc,            the same with a non-commutative user op (MPI_Op_create, commute=0)
 *   allreduce_nc          on n elements of MPI_Type_contiguous(2, MPI_DOUBLE): see below
 *   reduce_scatter_block  every rank's result block is n doubles (recvcount n; each rank
 *                         sends p x SIZE), MPI_SUM on MPI_DOUBLE
 *   alltoall              every rank sends n doubles to every rank, itself included (p x
 *                         SIZE each way)
 *   scan                  every rank contributes n doubles, MPI_SUM on MPI_DOUBLE; rank r
 *                         receives the sum over ranks 0..r
 *   allgather             every rank sends n doubles to every rank (receives p x SIZE)
 *   copy                  rank 0 alone: memcpy of SIZE bytes between two private buffers
 *   reduce_ref            rank 0 alone: a[i] += b[i] over two private arrays of SIZE bytes of
 *                         doubles (-O3, AVX2 when the CPU has it; as rma_latency's `local`)
 * The references are what 1 MiB collectives are held against (bench/README.md).
 *
 * Buffers. The send and receive buffers start on a page (posix_memalign), or
 * COLL_LATENCY_BUF_OFFSET bytes (a multiple of 8) past one: 16 is where glibc's malloc()
 * puts large blocks, which is what most programs pass (some copies run slower there:
 * docs/collectives.md "Copies into user buffers").
 *
 * The non-commutative op composes affine maps x -> a*x + b, element (a, b), in rank order:
 *   (a1, b1) o (a2, b2) = (a1*a2, a1*b2 + b1)      [invec o inoutvec -> inoutvec]
 * associative, not commutative (reversed: (a1*a2, a2*b1 + b2)), about a SUM's cost per
 * element. Every a is 1 or 2 (one rank has 2 at each element), every b a small integer, so
 * results are exact and a library that combines out of order gets them wrong.
 *
 * Data. Every message starts as an exact integer pattern particular to the message (sender
 * and destination); before each call its senders stamp its first and last element and one
 * element that moves through the message (k % n in iteration k) with a value unique to that
 * iteration and message, and restore the previous moving element. Every rank checks after
 * every call the three stamped elements of everything it received (sums and compositions
 * computed exactly), and after the case the whole of the last call's results, element by
 * element. A library that skips or caches work, mixes up blocks or combines out of order
 * fails: an error on stderr, no RESULT line for that case, exit status 1. (One wrong element
 * elsewhere in an earlier call goes unnoticed: checking everything after every call would
 * cost as much as the large collectives themselves.)
 *
 * Timing, per case: WARMUP' calls (in doubling chunks; stopped once they took 0.1 s), then
 * REPETITIONS timed loops of ITERATIONS' back-to-back calls, each loop after one MPI_Barrier
 * (the same for every library). Every rank reads CLOCK_MONOTONIC (one clock for all
 * processes of the node) right after the barrier and after its loop; the loop's value is its
 * span, the latest end minus the earliest start over all ranks, per call (as rma_contended).
 * The maximum over ranks of each rank's own time (IMB's t_max, OSU's max) is printed too,
 * as tmax_median_us=, but is not the measure: oversubscribed, a rank that is not running
 * does not time anything, and with a root that sends eagerly and runs ahead every rank's own
 * loop can be short while the collective takes milliseconds (MPICH at 8 ranks on 2 cores:
 * 8 B MPI_Scatter t_max 19 us, span 1.7 ms). Where the ranks fit on the cores the two agree.
 * The calls follow each other without a barrier in between, so a rooted collective whose
 * root need not wait (e.g. an eager MPI_Bcast) may overlap consecutive calls: the value is
 * the cost per call in a stream of calls, which is what an application calling it in a loop
 * sees.
 * ITERATIONS' and WARMUP' are ITERATIONS and WARMUP up to 1 KiB and keep the bytes per loop
 * constant above (at least 4, and WARMUP' at least 64, OSU's skip_large being 10: case_util.h
 * warmup_for_size), and a loop that would take much longer than 20 ms is
 * shortened (from the warmup's pace, and again after a loop that overran; never below 1/200
 * of ITERATIONS', nor below 2; rma_util.h capped_iters): MPICH busy-polls, and 8 ranks on 2
 * cores cost it milliseconds per call. iters= is the shortest loop's length. References:
 * rank 0 alone loops, the others only take part in the barriers.
 *
 * Ranks agree on loop lengths and combine timings and check results through a small RMA
 * control window (MPI_Win_allocate; MPI_Put into every rank + one MPI_Win_fence per step),
 * outside the timed loops: no collective of the library under test is trusted with the
 * measurement, and the library needs no point-to-point calls.
 *
 * Rank 0 prints per case, microseconds per call:
 *   RESULT bench=coll_<coll>_<bytes> ranks=<p> min_us=<x> median_us=<y> iters=<i> tmax_median_us=<t>
 * (coll_barrier for the barrier).
 */
#include "bench_util.h"

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "case_util.h"
#include "local_add.h"
#include "rma_util.h"

enum coll {
  C_BARRIER,
  C_BCAST,
  C_SCATTER,
  C_SCATTERV,
  C_GATHER,
  C_REDUCE,
  C_ALLREDUCE,
  C_REDUCE_NC,
  C_ALLREDUCE_NC,
  C_REDUCE_SCATTER_BLOCK,
  C_ALLTOALL,
  C_SCAN,
  C_ALLGATHER,
  C_COPY,
  C_REDUCE_REF,
  C_COUNT
};
static const char* const coll_names[C_COUNT] = {
    "barrier",  "bcast",     "scatter",   "scatterv",     "gather",
    "reduce",   "allreduce", "reduce_nc", "allreduce_nc", "reduce_scatter_block",
    "alltoall", "scan",      "allgather", "copy",      "reduce_ref"};

#define MAX_RANKS 64 /* message ids (sender * p + destination) stay below 4096: stamps unique */
#define MAX_BYTES (64L << 20) /* per message: p x SIZE stays an int count of doubles */
#define CTL_VALS (3 * MAX_REPS + 2) /* values per rank and control step */

static int is_reference(enum coll c) { return c == C_COPY || c == C_REDUCE_REF; }
static int is_nc(enum coll c) { return c == C_REDUCE_NC || c == C_ALLREDUCE_NC; }

struct ctx {
  int rank, p;
  MPI_Comm comm;
  struct ctl ctl; /* control window: CTL_VALS doubles per rank and step */
  double* sbuf; /* send and receive buffers: what the largest case needs here (buffer_needs) */
  double* rbuf;
  double* ref_a; /* rank 0: references, largest REF_SIZE each */
  double* ref_b;
  int* counts; /* scatterv */
  int* displs;
  MPI_Datatype pair; /* two doubles: the _nc element */
  MPI_Op affine; /* the non-commutative op */
  long bad; /* calls of the current case in which this rank received wrong values */
};

static const struct case_words words = {"coll_latency", "calls", "elements in the last call's results"};

/* ---- The non-commutative op ----------------------------------------------------------- */

/* inoutvec[i] = invec[i] o inoutvec[i]: invec holds the lower ranks' part. */
static void affine_compose(void* invec, void* inoutvec, int* len, MPI_Datatype* type) {
  (void)type;
  const double* x = invec;
  double* y = inoutvec;
  const int n = *len;
  for (int i = 0; i < n; ++i) {
    const double a = x[2 * i] * y[2 * i], b = x[2 * i] * y[2 * i + 1] + x[2 * i + 1];
    y[2 * i] = a;
    y[2 * i + 1] = b;
  }
}

/* ---- Data ------------------------------------------------------------------------------- */

/* Message m's element i before stamping: an integer in 1..509. */
static inline double base_val(long m, long i) { return (double)((i * 7 + m * 13) % 509 + 1); }

/* The stamp of message m in iteration k: unique per (k mod 2^20, m < 4096), above any
 * base value; sums over 64 ranks stay below 2^39 (exact). */
static inline double stamp_val(long k, long m) { return 1024.0 + (double)(k & 0xFFFFF) * 4096.0 + (double)m; }

/* Whether element i of an n-element message is stamped in iteration k. */
static inline int stamped(long i, long n, long k) { return i == 0 || i == n - 1 || i == k % n; }

/* Message m's element i as sent in iteration k. */
static inline double msg_val(long m, long k, long n, long i) {
  return stamped(i, n, k) ? stamp_val(k, m) : base_val(m, i);
}

/* The a of element j of rank s's _nc message: 2 at one rank per element, else 1. */
static inline double nc_a(long s, long j, int p) { return (s + j) % p == 0 ? 2.0 : 1.0; }

/* Element values live at buf[i * stride + stride - 1]: stride 1 for doubles, 2 for the
 * b of _nc elements (their a never changes). */
static inline double* at(double* buf, long i, int stride) { return buf + i * stride + stride - 1; }

/* Fills message m (n elements) with its base pattern (_nc: also the a's; m is the sender). */
static void init_msg(double* buf, long n, int stride, long m, int p) {
  for (long i = 0; i < n; ++i) {
    if (stride == 2) buf[2 * i] = nc_a(m, i, p);
    *at(buf, i, stride) = base_val(m, i);
  }
}

/* Stamps message m for iteration k: restores the previous moving element, then stamps the
 * first, the last and the moving one. */
static inline void stamp_msg(double* buf, long n, int stride, long m, long k) {
  if (k > 0) *at(buf, (k - 1) % n, stride) = base_val(m, (k - 1) % n);
  const double v = stamp_val(k, m);
  *at(buf, 0, stride) = v;
  *at(buf, n - 1, stride) = v;
  *at(buf, k % n, stride) = v;
}

/* The sum over senders s of message (m0 + s * mstride)'s element i in iteration k. */
static inline double sum_val(long m0, long mstride, int p, long k, long n, long i) {
  double v = 0.0;
  for (long s = 0; s < p; ++s) v += msg_val(m0 + s * mstride, k, n, i);
  return v;
}

/* The composition over ranks 0..p-1 of element j of the _nc messages in iteration k. */
static inline void nc_val(int p, long k, long n, long j, double* a, double* b) {
  double A = 1.0, B = 0.0;
  for (long s = p - 1; s >= 0; --s) { /* x_s o (A, B) */
    const double as = nc_a(s, j, p);
    B = as * B + msg_val(s, k, n, j);
    A = as * A;
  }
  *a = A;
  *b = B;
}

/* Per-call checks of the three stamped elements of a received message (or result): 1 if
 * any is wrong. */
static inline int wrong3(const double* buf, long n, long k, double v) {
  return buf[0] != v || buf[n - 1] != v || buf[k % n] != v;
}

/* ... of a SUM over senders s of message (m0 + s * mstride). */
static inline int wrong3_sum(const double* buf, int p, long n, long k, long m0, long mstride) {
  double v = 0.0;
  for (long s = 0; s < p; ++s) v += stamp_val(k, m0 + s * mstride);
  return wrong3(buf, n, k, v);
}

/* ... of the _nc composition. */
static inline int wrong3_nc(const double* buf, int p, long n, long k) {
  const long js[3] = {0, n - 1, k % n};
  int wrong = 0;
  for (int t = 0; t < 3; ++t) {
    double a, b;
    nc_val(p, k, n, js[t], &a, &b);
    wrong |= buf[2 * js[t]] != a || buf[2 * js[t] + 1] != b;
  }
  return wrong;
}

/* ---- One call --------------------------------------------------------------------------- */

/* Iteration k of collective `coll` on n elements (doubles, or pairs for _nc). */
static inline void iteration(struct ctx* c, enum coll coll, long n, long k) {
  const int p = c->p, me = c->rank;
  const int cnt = (int)n;
  double* const sb = c->sbuf;
  double* const rb = c->rbuf;
  switch (coll) {
    case C_BARRIER: MPI_Barrier(c->comm); return;
    case C_BCAST:
      if (me == 0) {
        stamp_msg(sb, n, 1, 0, k);
        MPI_Bcast(sb, cnt, MPI_DOUBLE, 0, c->comm);
      } else {
        MPI_Bcast(rb, cnt, MPI_DOUBLE, 0, c->comm);
        c->bad += wrong3(rb, n, k, stamp_val(k, 0));
      }
      return;
    case C_SCATTER:
    case C_SCATTERV:
      if (me == 0)
        for (long j = 0; j < p; ++j) stamp_msg(sb + j * n, n, 1, j, k);
      if (coll == C_SCATTER)
        MPI_Scatter(sb, cnt, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, 0, c->comm);
      else
        MPI_Scatterv(sb, c->counts, c->displs, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, 0, c->comm);
      c->bad += wrong3(rb, n, k, stamp_val(k, me));
      return;
    case C_GATHER:
      stamp_msg(sb, n, 1, me, k);
      MPI_Gather(sb, cnt, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, 0, c->comm);
      if (me == 0) {
        int wrong = 0;
        for (long j = 0; j < p; ++j) wrong |= wrong3(rb + j * n, n, k, stamp_val(k, j));
        c->bad += wrong;
      }
      return;
    case C_REDUCE:
    case C_ALLREDUCE:
      stamp_msg(sb, n, 1, me, k);
      if (coll == C_REDUCE)
        MPI_Reduce(sb, rb, cnt, MPI_DOUBLE, MPI_SUM, 0, c->comm);
      else
        MPI_Allreduce(sb, rb, cnt, MPI_DOUBLE, MPI_SUM, c->comm);
      if (me == 0 || coll == C_ALLREDUCE) c->bad += wrong3_sum(rb, p, n, k, 0, 1);
      return;
    case C_REDUCE_NC:
    case C_ALLREDUCE_NC:
      stamp_msg(sb, n, 2, me, k);
      if (coll == C_REDUCE_NC)
        MPI_Reduce(sb, rb, cnt, c->pair, c->affine, 0, c->comm);
      else
        MPI_Allreduce(sb, rb, cnt, c->pair, c->affine, c->comm);
      if (me == 0 || coll == C_ALLREDUCE_NC) c->bad += wrong3_nc(rb, p, n, k);
      return;
    case C_REDUCE_SCATTER_BLOCK:
      for (long d = 0; d < p; ++d) stamp_msg(sb + d * n, n, 1, (long)me * p + d, k);
      MPI_Reduce_scatter_block(sb, rb, cnt, MPI_DOUBLE, MPI_SUM, c->comm);
      c->bad += wrong3_sum(rb, p, n, k, me, p);
      return;
    case C_ALLTOALL:
      for (long d = 0; d < p; ++d) stamp_msg(sb + d * n, n, 1, (long)me * p + d, k);
      MPI_Alltoall(sb, cnt, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, c->comm);
      {
        int wrong = 0;
        for (long s = 0; s < p; ++s) wrong |= wrong3(rb + s * n, n, k, stamp_val(k, s * p + me));
        c->bad += wrong;
      }
      return;
    case C_SCAN:
      stamp_msg(sb, n, 1, me, k);
      MPI_Scan(sb, rb, cnt, MPI_DOUBLE, MPI_SUM, c->comm);
      c->bad += wrong3_sum(rb, me + 1, n, k, 0, 1);
      return;
    case C_ALLGATHER:
      stamp_msg(sb, n, 1, me, k);
      MPI_Allgather(sb, cnt, MPI_DOUBLE, rb, cnt, MPI_DOUBLE, c->comm);
      {
        int wrong = 0;
        for (long j = 0; j < p; ++j) wrong |= wrong3(rb + j * n, n, k, stamp_val(k, j));
        c->bad += wrong;
      }
      return;
    case C_COPY:
      stamp_msg(c->ref_b, n, 1, 0, k);
      memcpy(c->ref_a, c->ref_b, (size_t)n * sizeof(double));
      c->bad += wrong3(c->ref_a, n, k, stamp_val(k, 0));
      return;
    case C_REDUCE_REF:
      c->ref_b[k % n] += 1.0; /* the data changes every call */
      local_add(c->ref_a, c->ref_b, n);
      return;
    default: return;
  }
}

/* The bytes of send and receive buffer this rank needs for `coll` at SIZE `bytes` (none
 * for the references, which have their own buffers). Only these are allocated and touched:
 * a first-touch page fault costs tens of microseconds on these VMs, and p x 4 MiB buffers
 * on every rank would add seconds to every launch. */
static void buffer_needs(enum coll coll, int rank, int p, long bytes, long* sbytes, long* rbytes) {
  const long all = (long)p * bytes;
  long sb = 0, rb = 0;
  switch (coll) {
    case C_BCAST: *(rank == 0 ? &sb : &rb) = bytes; break;
    case C_SCATTER:
    case C_SCATTERV: sb = rank == 0 ? all : 0, rb = bytes; break;
    case C_GATHER: sb = bytes, rb = rank == 0 ? all : 0; break;
    case C_ALLGATHER: sb = bytes, rb = all; break;
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_REDUCE_NC:
    case C_ALLREDUCE_NC:
    case C_SCAN: sb = rb = bytes; break;
    case C_REDUCE_SCATTER_BLOCK: sb = all, rb = bytes; break;
    case C_ALLTOALL: sb = rb = all; break;
    default: break;
  }
  *sbytes = sb;
  *rbytes = rb;
}

/* Before a case: every message this rank sends gets its base pattern, and what it
 * receives a value no correct result has. */
static void reset_case(struct ctx* c, enum coll coll, long n) {
  const int p = c->p, me = c->rank;
  long sbytes, rbytes;
  buffer_needs(coll, me, p, n * (is_nc(coll) ? 16 : 8), &sbytes, &rbytes);
  for (long i = 0; i < rbytes / 8; ++i) c->rbuf[i] = -1.0;
  switch (coll) {
    case C_BCAST:
      if (me == 0) init_msg(c->sbuf, n, 1, 0, p);
      break;
    case C_SCATTER:
    case C_SCATTERV:
      if (me == 0)
        for (long j = 0; j < p; ++j) init_msg(c->sbuf + j * n, n, 1, j, p);
      break;
    case C_GATHER:
    case C_ALLGATHER:
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_SCAN: init_msg(c->sbuf, n, 1, me, p); break;
    case C_REDUCE_NC:
    case C_ALLREDUCE_NC: init_msg(c->sbuf, n, 2, me, p); break;
    case C_REDUCE_SCATTER_BLOCK:
    case C_ALLTOALL:
      for (long d = 0; d < p; ++d) init_msg(c->sbuf + d * n, n, 1, (long)me * p + d, p);
      break;
    case C_COPY:
      if (me == 0) {
        init_msg(c->ref_b, n, 1, 0, p);
        memset(c->ref_a, 0, (size_t)n * sizeof(double));
      }
      break;
    case C_REDUCE_REF:
      if (me == 0)
        for (long i = 0; i < n; ++i) c->ref_a[i] = 0.0, c->ref_b[i] = (double)(i % 5);
      break;
    default: break;
  }
  for (int j = 0; j < p; ++j) c->counts[j] = (int)n, c->displs[j] = (int)(j * n);
}

/* After a case whose last call was iteration k: every element this rank received in it;
 * returns the number of wrong ones. */
static long verify_case(struct ctx* c, enum coll coll, long n, long k) {
  const int p = c->p, me = c->rank;
  const double* rb = c->rbuf;
  long wrong = 0;
  switch (coll) {
    case C_BCAST:
      if (me != 0)
        for (long i = 0; i < n; ++i) wrong += rb[i] != msg_val(0, k, n, i);
      break;
    case C_SCATTER:
    case C_SCATTERV:
      for (long i = 0; i < n; ++i) wrong += rb[i] != msg_val(me, k, n, i);
      break;
    case C_GATHER:
    case C_ALLGATHER:
      if (me == 0 || coll == C_ALLGATHER)
        for (long j = 0; j < p; ++j)
          for (long i = 0; i < n; ++i) wrong += rb[j * n + i] != msg_val(j, k, n, i);
      break;
    case C_REDUCE:
    case C_ALLREDUCE:
      if (me == 0 || coll == C_ALLREDUCE)
        for (long i = 0; i < n; ++i) wrong += rb[i] != sum_val(0, 1, p, k, n, i);
      break;
    case C_REDUCE_NC:
    case C_ALLREDUCE_NC:
      if (me == 0 || coll == C_ALLREDUCE_NC)
        for (long j = 0; j < n; ++j) {
          double a, b;
          nc_val(p, k, n, j, &a, &b);
          wrong += rb[2 * j] != a || rb[2 * j + 1] != b;
        }
      break;
    case C_REDUCE_SCATTER_BLOCK:
      for (long i = 0; i < n; ++i) wrong += rb[i] != sum_val(me, p, p, k, n, i);
      break;
    case C_ALLTOALL:
      for (long s = 0; s < p; ++s)
        for (long i = 0; i < n; ++i) wrong += rb[s * n + i] != msg_val(s * p + me, k, n, i);
      break;
    case C_SCAN:
      for (long i = 0; i < n; ++i) wrong += rb[i] != sum_val(0, 1, me + 1, k, n, i);
      break;
    case C_COPY:
      if (me == 0)
        for (long i = 0; i < n; ++i) wrong += c->ref_a[i] != msg_val(0, k, n, i);
      break;
    default: break;
  }
  return wrong;
}

/* ---- One case --------------------------------------------------------------------------- */

/* One case (coll, bytes). Returns 1 if its checks passed (on every rank). */
static int run_case(struct ctx* c, enum coll coll, long bytes, long iters, long warmup, int reps) {
  const long n = coll == C_BARRIER ? 1 : bytes / (is_nc(coll) ? 16 : 8);
  const int all = !is_reference(coll); /* every rank calls (else rank 0 alone loops) */
  const int looping = all || c->rank == 0;
  c->bad = 0;
  reset_case(c, coll, n); /* no barrier needed: a receive buffer is the library's only inside the call */

  long k = 0; /* calls so far in this case: the stamps' iteration */
  struct warmup w = {.total = warmup}; /* paces: seconds per call, max over ranks */
  if (looping) {
    for (long len; (len = warmup_next(&w)) > 0;) {
      const double w0 = now_s();
      for (long i = 0; i < len; ++i) iteration(c, coll, n, k++);
      const double dt = now_s() - w0;
      if (warmup_step(&w, all ? &c->ctl : NULL, dt / (double)len, dt, len)) break;
    }
  }
  const long floor = iters_floor(iters);
  iters = warmup_capped(&w, iters, floor);

  /* Per loop, on every rank: its start (right after the barrier) and end on the node's
   * CLOCK_MONOTONIC, and its own time. Combined over the ranks at the end, and after a loop
   * where the next loop's length may depend on it (not once it is at the floor). The loop's
   * value is the span: the latest end minus the earliest start. */
  double v[3 * MAX_REPS + 2]; /* per loop: -start, end, own time; then the two checks */
  long loop_iters[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(c->comm); /* pre-timing barrier, same for every library */
    const double t0 = now_s();
    if (looping)
      for (long i = 0; i < iters; ++i) iteration(c, coll, n, k++);
    const double t1 = now_s();
    v[3 * r] = -t0;
    v[3 * r + 1] = t1;
    v[3 * r + 2] = t1 - t0;
    loop_iters[r] = iters;
    if (r + 1 < reps && iters > floor) {
      double span[2] = {-t0, t1};
      if (all) ctl_allmax(&c->ctl, span, 2);
      iters = next_loop_iters(iters, span[0] + span[1], LOOP_BUDGET_S, floor);
    }
  }

  /* After the loops: every loop's span and slowest own time, and the checks (wrong values
   * in calls, in the final results). */
  v[3 * reps] = v[3 * reps + 1] = 0.0;
  if (looping) {
    v[3 * reps] = (double)c->bad;
    v[3 * reps + 1] = (double)verify_case(c, coll, n, k - 1);
  }
  if (all) ctl_allmax(&c->ctl, v, 3 * reps + 2);
  double us[MAX_REPS], tmax[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    us[r] = 1e6 * (v[3 * r] + v[3 * r + 1]) / (double)loop_iters[r];
    tmax[r] = 1e6 * v[3 * r + 2] / (double)loop_iters[r];
  }
  const double bad[2] = {v[3 * reps], v[3 * reps + 1]};
  const int ok = bad[0] == 0.0 && bad[1] == 0.0;
  char name[128];
  if (coll == C_BARRIER)
    snprintf(name, sizeof name, "coll_barrier");
  else
    snprintf(name, sizeof name, "coll_%s_%ld", coll_names[coll], bytes);
  if (c->rank == 0) {
    char extra[64] = "";
    if (ok) snprintf(extra, sizeof extra, "tmax_median_us=%.4f", median_pace(tmax, reps));
    report_case(&words, name, c->p, us, reps, iters, extra, bad, k);
  }
  return ok; /* references: rank 0 alone knows (the others did no work) */
}

/* ---- Main ------------------------------------------------------------------------------- */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct case_args a;
  int ok = parse_case_args(argc, argv, coll_names, C_COUNT, MAX_BYTES, &a);
  for (int i = 0; ok && i < a.nnames; ++i)
    for (int j = 0; j < a.nsizes; ++j)
      if (is_nc((enum coll)a.names[i]) && a.sizes[j] % 16 != 0) ok = 0;
  if (!ok || size > MAX_RANKS) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -n P %s ITERATIONS WARMUP REPETITIONS COLLS SIZES [REF_SIZES]   (P <= %d)\n"
              "  COLLS: comma list of barrier,bcast,scatter,scatterv,gather,reduce,allreduce,reduce_nc,"
              "allreduce_nc,reduce_scatter_block,alltoall,scan,allgather,copy,reduce_ref\n"
              "  SIZES, REF_SIZES: comma lists of bytes per message (multiples of 8, of 16 for the _nc cases, "
              "at most %ld); REF_SIZES: for copy and reduce_ref (default SIZES)\n",
              argv[0], MAX_RANKS, MAX_BYTES);
    MPI_Finalize();
    return 2;
  }

  struct ctx c = {.rank = rank, .p = size, .comm = MPI_COMM_WORLD};
  select_local_add();
  ctl_open(&c.ctl, rank, size, CTL_VALS);
  long sbytes = 64, rbytes = 64; /* what the largest case of any collective needs on this rank */
  for (int i = 0; i < a.nnames; ++i)
    for (int j = 0; j < a.nsizes; ++j) {
      long sb, rb;
      buffer_needs((enum coll)a.names[i], rank, size, a.sizes[j], &sb, &rb);
      if (sb > sbytes) sbytes = sb;
      if (rb > rbytes) rbytes = rb;
    }
  /* COLL_LATENCY_BUF_OFFSET: the message buffers start this many bytes past a page */
  void *sbase = NULL, *rbase = NULL;
  if (!bench_message_buffers("COLL_LATENCY_BUF_OFFSET", rank, sbytes, rbytes, &c.sbuf, &c.rbuf, &sbase, &rbase)) {
    MPI_Finalize();
    return 2;
  }
  c.ref_a = bench_alloc(rank == 0 ? (size_t)a.max_ref : 64);
  c.ref_b = bench_alloc(rank == 0 ? (size_t)a.max_ref : 64);
  c.counts = calloc((size_t)size, sizeof(int));
  c.displs = calloc((size_t)size, sizeof(int));
  if (c.counts == NULL || c.displs == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Type_contiguous(2, MPI_DOUBLE, &c.pair);
  MPI_Type_commit(&c.pair);
  MPI_Op_create(affine_compose, 0, &c.affine);

  int all_ok = 1;
  for (int i = 0; i < a.nnames; ++i) {
    const enum coll coll = (enum coll)a.names[i];
    if (coll == C_BARRIER) {
      all_ok &= run_case(&c, coll, 0, a.iters, a.warmup, a.reps);
      continue;
    }
    const long* sz = is_reference(coll) ? a.ref_sizes : a.sizes;
    const int nsz = is_reference(coll) ? a.nref : a.nsizes;
    for (int j = 0; j < nsz; ++j) {
      const long it = iters_for_size(a.iters, sz[j], 4), w = warmup_for_size(a.warmup, sz[j]);
      all_ok &= run_case(&c, coll, sz[j], it, a.warmup ? w : 0, a.reps);
    }
  }

  ctl_close(&c.ctl);
  MPI_Op_free(&c.affine);
  MPI_Type_free(&c.pair);
  free(sbase);
  free(rbase);
  free(c.ref_a);
  free(c.ref_b);
  free(c.counts);
  free(c.displs);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
