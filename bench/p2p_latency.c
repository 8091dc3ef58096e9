/* p2p_latency: point-to-point latency and bandwidth between rank pairs, in the manner of
 * OSU's osu_latency (ping-pong) and osu_bw (windowed streaming), plus the reference they are
 * judged against (a memcpy on one core). Standard MPI only, so the same source builds
 * against shmpi, Open MPI and MPICH.
 *
 *   p2p_latency ITERATIONS WARMUP REPETITIONS MODES SIZES [REF_SIZES]
 *     MODES      comma list of pingpong, bw, and the reference copy
 *     SIZES      comma list of message sizes in bytes (multiples of 8)
 *     REF_SIZES  the sizes for copy (default: SIZES)
 *
 * Pairs: rank r with rank r^1 (at 2 ranks one pair; at 8 ranks four pairs, all exchanging
 * at the same time); an odd last rank only takes part in the barriers. The even rank of a
 * pair starts each exchange (and is the sender in bw). Rank 0's pair is the one reported.
 *   pingpong  rank 0: MPI_Send SIZE bytes (MPI_BYTE) to rank 1, MPI_Recv SIZE bytes back;
 *             rank 1: MPI_Recv, MPI_Send. One iteration is a round trip; reported: half of
 *             it, the one-way latency (osu_latency). SIZE / that is the ping-pong bandwidth.
 *   bw        one iteration is a window: the sender posts WINDOW (64) MPI_Isend of SIZE
 *             bytes, the receiver 64 MPI_Irecv, both MPI_Waitall, then the receiver sends a
 *             4-byte ack (MPI_UINT32_T) that the sender MPI_Recvs (osu_bw, window 64).
 *             Reported: the window's time / 64, microseconds per message; SIZE / that is the
 *             streaming bandwidth. Unlike osu_bw, which receives all 64 messages of a window
 *             into one buffer (overlapping pending receives: erroneous in MPI), every
 *             receive of a window has its own buffer (64 x SIZE on the receiver); the 64
 *             sends share one buffer (allowed since MPI-3).
 *   copy      rank 0 alone: memcpy of SIZE bytes between two private buffers (the others
 *             only take part in the barriers): one core's copy of a message, the limit of a
 *             single-copy transfer.
 *
 * Data. Messages are arrays of uint32 words. Every message starts as an integer pattern of
 * its own (pair and direction, values below 2^31); before each iteration k its sender stamps
 * the first and last word and one word that moves through the message ((k * 1031) mod
 * words) with a value unique to k and the message (top bit set, so never a pattern value),
 * and restores the previous moving word. Per iteration the receiver checks the three stamped
 * words of what it received (pingpong: both ranks; bw: one receive buffer of the window,
 * buffer k mod 64 in window k, and the sender checks the ack, which carries the receiver's
 * stamp for k); after each case every word of the last iteration's message (bw: of all 64
 * buffers of the last window) is checked. A library that skips, reorders, truncates or
 * caches transfers fails: an error on stderr, no RESULT line for that case, exit status 1.
 *
 * Timing, per case (as coll_latency.c): one iteration that does not count for the pace (the
 * first message of a launch or of a new size may pay a set-up: Open MPI's first window of
 * 4 KiB messages took 0.24 s), WARMUP' iterations (in doubling chunks; stopped once they took
 * 0.1 s), then REPETITIONS timed loops of ITERATIONS' iterations, each loop after
 * one MPI_Barrier (the same for every library). Every rank reads CLOCK_MONOTONIC right after
 * the barrier and after its loop; the measure is rank 0's own loop time (it starts and ends
 * every exchange of its pair: OSU's measure), per one-way message (pingpong: loop / (2 x
 * iterations)) or per message (bw: loop / (64 x iterations)). The maximum over all ranks of
 * each rank's own loop time, per message, is printed too as tmax_median_us= (at 8 ranks: the
 * slowest pair). ITERATIONS' and WARMUP' are ITERATIONS and WARMUP up to 1 KiB of data per
 * iteration (pingpong: SIZE; bw: 64 x SIZE) and keep the bytes per loop constant above (at
 * least 4 and 1); a loop that would take much longer than 20 ms is shortened (from the
 * warmup's pace, and again after a loop that overran; never below 1/200 of ITERATIONS', nor
 * below 2; rma_util.h capped_iters). iters= is the shortest loop's length.
 *
 * Ranks agree on loop lengths and combine times and checks through a small RMA control
 * window (MPI_Win_allocate; MPI_Put into every rank + one MPI_Win_fence per step) outside
 * the timed loops, as coll_latency.c: no collective of the library under test is trusted
 * with the measurement. Every buffer is allocated for the launch's largest case and touched
 * before timing.
 *
 * Rank 0 prints per case:
 *   RESULT bench=p2p_latency_<bytes> ranks=<p> min_us=<x> median_us=<y> iters=<i> tmax_median_us=<t> mbps_median=<b>
 *   RESULT bench=p2p_bw_<bytes> ...          (same fields; us per message)
 *   RESULT bench=p2p_copy_<bytes> ranks=<p> min_us=<x> median_us=<y> iters=<i> mbps_median=<b>
 * mbps_median: SIZE / median_us, in MB/s (10^6 bytes per second).
 */
#include "bench_util.h"

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "case_util.h"
#include "rma_util.h"

enum mode { M_PINGPONG, M_BW, M_COPY, M_COUNT };
static const char* const mode_names[M_COUNT] = {"pingpong", "bw", "copy"};
static const char* const mode_tags[M_COUNT] = {"p2p_latency", "p2p_bw", "p2p_copy"};

#define WINDOW 64 /* osu_bw's default window */
#define MAX_RANKS 64 /* message ids (2 x pair + direction) stay below 128: stamps unique */
#define MAX_BYTES (64L << 20) /* per message; bw: at most 16 MiB (64 receive buffers) */
#define MAX_BW_BYTES (16L << 20)
#define CTL_VALS (MAX_REPS + 2) /* values per rank and control step */
#define TAG_PING 11
#define TAG_PONG 12
#define TAG_BW 13
#define TAG_ACK 14

struct ctx {
  int rank, p;
  int partner; /* rank ^ 1, or -1 if there is none (odd last rank) */
  int first; /* this rank starts the exchanges (even rank), and sends in bw */
  long m_send, m_recv; /* message ids: what this rank sends, what it receives */
  MPI_Comm comm;
  struct ctl ctl; /* control window: CTL_VALS doubles per rank and step */
  uint32_t* sbuf; /* send buffer: the largest pingpong/bw message */
  uint32_t* rbuf; /* receive buffers: the largest pingpong message, or WINDOW bw messages */
  uint32_t* ref_a; /* rank 0: copy destination and source, largest REF_SIZE each */
  uint32_t* ref_b;
  MPI_Request req[WINDOW];
  MPI_Status stat[WINDOW]; /* as osu_bw (MPI_STATUSES_IGNORE trips gcc's -Wstringop-overflow with MPICH's mpi.h) */
  long bad; /* iterations of the current case in which this rank saw wrong values */
};

static const struct case_words words = {"p2p_latency", "iterations", "words in the last iteration"};

/* ---- Data ------------------------------------------------------------------------------- */

/* Message m's word i before stamping: 1..509. */
static inline uint32_t base_val(long m, long i) { return (uint32_t)((i * 7 + m * 13) % 509 + 1); }

/* The stamp of message m (< 128) in iteration k: unique per (k mod 2^24, m), top bit set. */
static inline uint32_t stamp_val(long k, long m) {
  return 0x80000000u | ((uint32_t)(k & 0xFFFFFF) << 7) | (uint32_t)(m & 127);
}

/* The moving stamped word of an nw-word message in iteration k: hops across the message. */
static inline long moving(long k, long nw) { return (k * 1031) % nw; }

static inline int stamped(long i, long nw, long k) { return i == 0 || i == nw - 1 || i == moving(k, nw); }

/* Message m's word i as sent in iteration k. */
static inline uint32_t msg_val(long m, long k, long nw, long i) {
  return stamped(i, nw, k) ? stamp_val(k, m) : base_val(m, i);
}

static void init_msg(uint32_t* buf, long nw, long m) {
  for (long i = 0; i < nw; ++i) buf[i] = base_val(m, i);
}

/* Stamps message m for iteration k: restores the previous moving word, then stamps the
 * first, the last and the moving one. */
static inline void stamp_msg(uint32_t* buf, long nw, long m, long k) {
  if (k > 0) {
    const long prev = moving(k - 1, nw);
    buf[prev] = base_val(m, prev);
  }
  const uint32_t v = stamp_val(k, m);
  buf[0] = v;
  buf[nw - 1] = v;
  buf[moving(k, nw)] = v;
}

/* 1 if any of the three stamped words of iteration k is not v. */
static inline int wrong3(const uint32_t* buf, long nw, long k, uint32_t v) {
  return buf[0] != v || buf[nw - 1] != v || buf[moving(k, nw)] != v;
}

/* The number of words of an nw-word message that are not message m of iteration k. */
static long wrong_words(const uint32_t* buf, long nw, long m, long k) {
  long wrong = 0;
  for (long i = 0; i < nw; ++i) wrong += buf[i] != msg_val(m, k, nw, i);
  return wrong;
}

/* ---- One iteration ---------------------------------------------------------------------- */

static inline void pingpong(struct ctx* c, long nw, long k) {
  const int bytes = (int)(nw * 4);
  if (c->first) {
    stamp_msg(c->sbuf, nw, c->m_send, k);
    MPI_Send(c->sbuf, bytes, MPI_BYTE, c->partner, TAG_PING, c->comm);
    MPI_Recv(c->rbuf, bytes, MPI_BYTE, c->partner, TAG_PONG, c->comm, MPI_STATUS_IGNORE);
    c->bad += wrong3(c->rbuf, nw, k, stamp_val(k, c->m_recv));
  } else {
    MPI_Recv(c->rbuf, bytes, MPI_BYTE, c->partner, TAG_PING, c->comm, MPI_STATUS_IGNORE);
    c->bad += wrong3(c->rbuf, nw, k, stamp_val(k, c->m_recv));
    stamp_msg(c->sbuf, nw, c->m_send, k);
    MPI_Send(c->sbuf, bytes, MPI_BYTE, c->partner, TAG_PONG, c->comm);
  }
}

static inline void window(struct ctx* c, long nw, long k) {
  const int bytes = (int)(nw * 4);
  uint32_t ack = 0;
  if (c->first) {
    stamp_msg(c->sbuf, nw, c->m_send, k);
    for (int j = 0; j < WINDOW; ++j) MPI_Isend(c->sbuf, bytes, MPI_BYTE, c->partner, TAG_BW, c->comm, &c->req[j]);
    MPI_Waitall(WINDOW, c->req, c->stat);
    MPI_Recv(&ack, 1, MPI_UINT32_T, c->partner, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
    c->bad += ack != stamp_val(k, c->m_recv);
  } else {
    for (int j = 0; j < WINDOW; ++j)
      MPI_Irecv(c->rbuf + j * nw, bytes, MPI_BYTE, c->partner, TAG_BW, c->comm, &c->req[j]);
    MPI_Waitall(WINDOW, c->req, c->stat);
    c->bad += wrong3(c->rbuf + (k % WINDOW) * nw, nw, k, stamp_val(k, c->m_recv));
    ack = stamp_val(k, c->m_send);
    MPI_Send(&ack, 1, MPI_UINT32_T, c->partner, TAG_ACK, c->comm);
  }
}

static inline void copy(struct ctx* c, long nw, long k) {
  stamp_msg(c->ref_b, nw, 127, k);
  memcpy(c->ref_a, c->ref_b, (size_t)nw * 4);
  c->bad += wrong3(c->ref_a, nw, k, stamp_val(k, 127));
}

static inline void iteration(struct ctx* c, enum mode mode, long nw, long k) {
  switch (mode) {
    case M_PINGPONG: pingpong(c, nw, k); return;
    case M_BW: window(c, nw, k); return;
    case M_COPY: copy(c, nw, k); return;
    default: return;
  }
}

/* Before a case: what this rank sends gets its base pattern, what it receives a value no
 * message has (0). */
static void reset_case(struct ctx* c, enum mode mode, long nw) {
  if (mode == M_COPY) {
    if (c->rank == 0) {
      init_msg(c->ref_b, nw, 127);
      memset(c->ref_a, 0, (size_t)nw * 4);
    }
    return;
  }
  if (c->partner < 0) return;
  const int receives = mode == M_PINGPONG || !c->first;
  const int sends = mode == M_PINGPONG || c->first;
  if (sends) init_msg(c->sbuf, nw, c->m_send);
  if (receives) memset(c->rbuf, 0, (size_t)nw * 4 * (mode == M_BW ? WINDOW : 1));
}

/* After a case whose last iteration was k: the wrong words in what this rank received in it. */
static long verify_case(struct ctx* c, enum mode mode, long nw, long k) {
  if (mode == M_COPY) return c->rank == 0 ? wrong_words(c->ref_a, nw, 127, k) : 0;
  if (c->partner < 0) return 0;
  if (mode == M_PINGPONG) return wrong_words(c->rbuf, nw, c->m_recv, k);
  long wrong = 0;
  if (!c->first)
    for (int j = 0; j < WINDOW; ++j) wrong += wrong_words(c->rbuf + j * nw, nw, c->m_recv, k);
  return wrong;
}

/* ---- One case --------------------------------------------------------------------------- */

/* One case (mode, bytes). Returns 1 if its checks passed (on every rank). */
static int run_case(struct ctx* c, enum mode mode, long bytes, long iters, long warmup, int reps) {
  const long nw = bytes / 4;
  const int all = mode != M_COPY; /* every rank takes part (else rank 0 alone loops) */
  const int looping = all ? c->partner >= 0 : c->rank == 0;
  /* One-way messages per iteration, for the reported time. */
  const double msgs = mode == M_PINGPONG ? 2.0 : mode == M_BW ? (double)WINDOW : 1.0;
  c->bad = 0;
  reset_case(c, mode, nw); /* no barrier needed: a receive buffer is the library's only inside a call */

  long k = 0; /* iterations so far in this case: the stamps' iteration */
  struct warmup w = {.total = warmup}; /* paces: max over ranks */
  if (all || c->rank == 0) { /* copy: rank 0 alone warms up; otherwise every rank, idle ones too */
    /* One iteration first that sets no pace: the first message of a launch, or of a new
     * size, can cost a connection or protocol set-up, which the warmup would otherwise take
     * for the pace of every iteration (and cut the loops to their floor). */
    if (looping && warmup > 0) iteration(c, mode, nw, k);
    k += warmup > 0;
    for (long len; (len = warmup_next(&w)) > 0;) {
      const double w0 = now_s();
      if (looping)
        for (long i = 0; i < len; ++i) iteration(c, mode, nw, k + i);
      k += len;
      const double dt = now_s() - w0;
      if (warmup_step(&w, all ? &c->ctl : NULL, looping ? dt / (double)len : 0.0, dt, len)) break;
    }
  }
  const long floor = iters_floor(iters);
  iters = warmup_capped(&w, iters, floor);

  /* Per loop: rank 0's own time (the measure) and every rank's own time (combined: the
   * slowest, tmax). */
  double own[MAX_REPS];
  double v[MAX_REPS + 2];
  long loop_iters[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(c->comm); /* pre-timing barrier, same for every library */
    const double t0 = now_s();
    if (looping)
      for (long i = 0; i < iters; ++i) iteration(c, mode, nw, k + i);
    const double t1 = now_s();
    k += iters;
    own[r] = looping ? t1 - t0 : 0.0;
    loop_iters[r] = iters;
    if (r + 1 < reps && iters > floor) {
      double t[1] = {own[r]};
      if (all) ctl_allmax(&c->ctl, t, 1);
      iters = next_loop_iters(iters, t[0], LOOP_BUDGET_S, floor);
    }
  }

  /* After the loops: every loop's slowest own time, and the checks (wrong values in
   * iterations, wrong words in the last iteration). */
  for (int r = 0; r < reps; ++r) v[r] = own[r];
  v[reps] = v[reps + 1] = 0.0;
  if (looping) {
    v[reps] = (double)c->bad;
    v[reps + 1] = (double)verify_case(c, mode, nw, k - 1);
  }
  if (all) ctl_allmax(&c->ctl, v, reps + 2);
  double us[MAX_REPS], tmax[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    us[r] = 1e6 * own[r] / ((double)loop_iters[r] * msgs);
    tmax[r] = 1e6 * v[r] / ((double)loop_iters[r] * msgs);
  }
  const double bad[2] = {v[reps], v[reps + 1]};
  const int ok = bad[0] == 0.0 && bad[1] == 0.0;
  char name[64];
  snprintf(name, sizeof name, "%s_%ld", mode_tags[mode], bytes);
  if (c->rank == 0) {
    char extra[96] = "";
    if (ok) {
      const double med = median_pace(us, reps); /* sorts us[]; print_result_extra sorts it again */
      if (all)
        snprintf(extra, sizeof extra, "tmax_median_us=%.4f mbps_median=%.1f", median_pace(tmax, reps),
                 (double)bytes / med);
      else
        snprintf(extra, sizeof extra, "mbps_median=%.1f", (double)bytes / med);
    }
    report_case(&words, name, c->p, us, reps, iters, extra, bad, k);
  }
  return ok; /* copy: rank 0 alone knows (the others did no work) */
}

/* ---- Main ------------------------------------------------------------------------------- */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct case_args a;
  int ok = parse_case_args(argc, argv, mode_names, M_COUNT, MAX_BYTES, &a);
  int transfers = 0, copies = 0;
  long bw_max = 0, pp_max = 0;
  for (int i = 0; ok && i < a.nnames; ++i) {
    transfers |= a.names[i] != M_COPY;
    copies |= a.names[i] == M_COPY;
    if (a.names[i] == M_BW) bw_max = a.max_bytes;
    if (a.names[i] == M_PINGPONG) pp_max = a.max_bytes;
  }
  if (!ok || size > MAX_RANKS || (transfers && size < 2) || bw_max > MAX_BW_BYTES) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -n P %s ITERATIONS WARMUP REPETITIONS MODES SIZES [REF_SIZES]   (2 <= P <= %d; "
              "copy alone: P >= 1)\n"
              "  MODES: comma list of pingpong,bw,copy\n"
              "  SIZES, REF_SIZES: comma lists of bytes per message (multiples of 8, at most %ld; bw: at most %ld); "
              "REF_SIZES: for copy (default SIZES)\n",
              argv[0], MAX_RANKS, MAX_BYTES, MAX_BW_BYTES);
    MPI_Finalize();
    return 2;
  }

  struct ctx c = {.rank = rank, .p = size, .comm = MPI_COMM_WORLD};
  c.partner = (rank ^ 1) < size ? rank ^ 1 : -1;
  c.first = rank % 2 == 0;
  c.m_send = 2L * (rank / 2) + (c.first ? 0 : 1);
  c.m_recv = 2L * (rank / 2) + (c.first ? 1 : 0);
  ctl_open(&c.ctl, rank, size, CTL_VALS);
  /* Only what this rank needs (first-touch page faults cost ~10-75 us a page on these VMs):
   * pingpong sends and receives one message; bw's sender one message, its receiver 64. */
  long sbytes = 64, rbytes = 64;
  if (c.partner >= 0) {
    const long pp = pp_max, bw_s = c.first ? bw_max : 0, bw_r = c.first ? 0 : WINDOW * bw_max;
    sbytes = pp > sbytes ? pp : sbytes;
    sbytes = bw_s > sbytes ? bw_s : sbytes;
    rbytes = pp > rbytes ? pp : rbytes;
    rbytes = bw_r > rbytes ? bw_r : rbytes;
  }
  c.sbuf = bench_alloc((size_t)sbytes);
  c.rbuf = bench_alloc((size_t)rbytes);
  c.ref_a = bench_alloc(rank == 0 && copies ? (size_t)a.max_ref : 64);
  c.ref_b = bench_alloc(rank == 0 && copies ? (size_t)a.max_ref : 64);

  int all_ok = 1;
  for (int i = 0; i < a.nnames; ++i) {
    const enum mode mode = (enum mode)a.names[i];
    const long* sz = mode == M_COPY ? a.ref_sizes : a.sizes;
    const int nsz = mode == M_COPY ? a.nref : a.nsizes;
    for (int j = 0; j < nsz; ++j) {
      /* Data per iteration: a bw iteration moves a window of 64 messages. */
      const long per_iter = mode == M_BW ? WINDOW * sz[j] : sz[j];
      const long it = iters_for_size(a.iters, per_iter, 4), w = iters_for_size(a.warmup, per_iter, 1);
      all_ok &= run_case(&c, mode, sz[j], it, a.warmup ? w : 0, a.reps);
    }
  }

  ctl_close(&c.ctl);
  free(c.sbuf);
  free(c.rbuf);
  free(c.ref_a);
  free(c.ref_b);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
