/* rma_latency: latency of one-sided operations at 2 ranks, in the manner of OSU's
 * osu_fop_latency / osu_cas_latency / osu_acc_latency / osu_get_acc_latency /
 * osu_put_latency / osu_get_latency, plus the references those are judged against (an
 * MPI_Barrier, an empty epoch, a plain local a[i] += b[i]). Standard MPI only, so the same
 * source builds against shmpi, Open MPI and MPICH.
 *
 *   rma_latency ITERATIONS WARMUP REPETITIONS SYNC FLAVOUR OPS SIZES [ACC_TYPE]
 *     SYNC     lock | lockx | lock_all | flush | flush_local | fence | pscw
 *     FLAVOUR  allocate | create            (rma_util.h)
 *     OPS      comma list of fop, cas, acc, get_acc, put, get, empty, barrier, local
 *     SIZES    comma list of message sizes in bytes (multiples of 8); fop, cas, empty and
 *              barrier run once (fop/cas move one 8-byte element) whatever SIZES says
 *     ACC_TYPE double (default) | int64: the element type of acc and get_acc (MPI_SUM)
 *
 * Rank 0 is the origin, rank 1 the target; one window of the largest size (flavour
 * FLAVOUR) serves every case of the launch, always at displacement 0. Per iteration, on
 * rank 0 (rank 1 only takes part in the active modes):
 *   lock         MPI_Win_lock(SHARED, 1); op; MPI_Win_unlock(1)      (OSU's "lock")
 *   lockx        the same with MPI_LOCK_EXCLUSIVE
 *   lock_all     MPI_Win_lock_all; op; MPI_Win_unlock_all
 *   flush        op; MPI_Win_flush(1)          inside one MPI_Win_lock_all epoch
 *   flush_local  op; MPI_Win_flush_local(1)    inside one MPI_Win_lock_all epoch
 *   fence        op; MPI_Win_fence(0)          (rank 1: MPI_Win_fence(0)): one epoch
 *   pscw         MPI_Win_start({1}); op; MPI_Win_complete  (rank 1: MPI_Win_post({0});
 *                MPI_Win_wait): one epoch
 * The ops: fop = MPI_Fetch_and_op(MPI_SUM, int64); cas = MPI_Compare_and_swap(int64);
 * acc = MPI_Accumulate(MPI_SUM, ACC_TYPE, SIZE/8 elements); get_acc =
 * MPI_Get_accumulate(MPI_SUM, same); put / get = MPI_Put / MPI_Get of SIZE MPI_BYTEs;
 * empty = the synchronization alone (e.g. an empty fence epoch). The references ignore SYNC:
 * barrier = MPI_Barrier on both ranks, no window access; local = rank 0 adds two private
 * double arrays of SIZE bytes, a[i] += b[i], in a plain loop compiled for the best vector
 * ISA the CPU has (AVX2 or baseline): one core's time for what a SIZE accumulate computes.
 *
 * The data changes every iteration: fop adds a different value each time, cas swaps in a
 * new value each time (and always succeeds: it compares with the value it expects), acc,
 * get_acc, put and local change one element of the origin buffer before each call. (get
 * reads what rank 1 wrote before the case: in passive modes the target cannot change it
 * without extra synchronization.) Every fetched value is checked against what rank 0 knows
 * the target holds, and after each case rank 0 reads the first and last element of the
 * window back (MPI_Get under a shared lock) and checks them: an implementation that loses
 * or skips operations fails (exit status 1, no RESULT line for that case) instead of
 * looking fast.
 *
 * Per case: rank 1 resets the window (zeros; for get a byte pattern) under a local
 * exclusive lock, WARMUP' iterations, then REPETITIONS timed loops of ITERATIONS'
 * iterations, each preceded by one MPI_Barrier (the same for every library; in the active
 * modes inside the epoch sequence), timed by rank 0 with MPI_Wtime. ITERATIONS' and
 * WARMUP' are ITERATIONS and WARMUP up to 1 KiB and keep the bytes per loop constant above
 * (rma_util.h iters_for_size; at least 4 and 1); a loop that would take much longer than
 * 20 ms is shortened (rma_util.h capped_iters: from the warmup's median pace, and again
 * after a loop that overran, never below 1/200 of ITERATIONS'; slow paths such as MPICH's
 * 1 MiB accumulates, or a busy machine, would otherwise stretch the run to hours); the
 * warmup stops after 0.1 s. iters= is the shortest loop's length. Rank 0 prints per case,
 * in microseconds per iteration (op plus its synchronization):
 *   RESULT bench=rma_<SYNC>_<FLAVOUR>_<op>_<bytes> ranks=2 min_us=<x> median_us=<y> iters=<i>
 */
#include "bench_util.h"

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "local_add.h"
#include "rma_util.h"

enum op { OP_FOP, OP_CAS, OP_ACC, OP_GET_ACC, OP_PUT, OP_GET, OP_EMPTY, OP_BARRIER, OP_LOCAL, OP_COUNT };
static const char* const op_names[OP_COUNT] = {"fop", "cas",   "acc",     "get_acc", "put",
                                               "get", "empty", "barrier", "local"};

enum sync { SYNC_LOCK, SYNC_LOCKX, SYNC_LOCK_ALL, SYNC_FLUSH, SYNC_FLUSH_LOCAL, SYNC_FENCE, SYNC_PSCW, SYNC_COUNT };
static const char* const sync_names[SYNC_COUNT] = {"lock", "lockx", "lock_all", "flush", "flush_local", "fence", "pscw"};

struct ctx {
  int rank;
  enum sync sync;
  MPI_Win win;
  MPI_Group peer; /* the other rank, for PSCW */
  MPI_Win ctl; /* control window: agreeing on loop lengths */
  void* ctl_base;
  unsigned char* base; /* own window memory */
  unsigned char* sbuf; /* origin buffer */
  unsigned char* rbuf; /* result buffer */
  double* local; /* rank 0's private a[] for the local reference */
  int acc_double; /* acc/get_acc element type: 1 double, 0 int64 */
  long bad; /* fetched values that were not what the target must have held */
};

/* ---- Elements and synchronization ----------------------------------------------------- */

/* The 8-byte element e of buffer p as a double (acc type double) or int64. */
static inline double elem_get(const unsigned char* p, long e, int dbl) {
  if (dbl) {
    double v;
    memcpy(&v, p + 8 * e, 8);
    return v;
  }
  int64_t v;
  memcpy(&v, p + 8 * e, 8);
  return (double)v;
}

static inline void elem_add(unsigned char* p, long e, int dbl, double x) {
  if (dbl) {
    double v;
    memcpy(&v, p + 8 * e, 8);
    v += x;
    memcpy(p + 8 * e, &v, 8);
  } else {
    int64_t v;
    memcpy(&v, p + 8 * e, 8);
    v += (int64_t)x;
    memcpy(p + 8 * e, &v, 8);
  }
}

static inline unsigned char pattern(long i) { return (unsigned char)(i * 7 + 3); }

/* Per-iteration synchronization around the op, on the origin (rank 0). */
static inline void origin_open(struct ctx* c) {
  switch (c->sync) {
    case SYNC_LOCK: MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, c->win); break;
    case SYNC_LOCKX: MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, c->win); break;
    case SYNC_LOCK_ALL: MPI_Win_lock_all(0, c->win); break;
    case SYNC_PSCW: MPI_Win_start(c->peer, 0, c->win); break;
    default: break;
  }
}

static inline void origin_close(struct ctx* c) {
  switch (c->sync) {
    case SYNC_LOCK:
    case SYNC_LOCKX: MPI_Win_unlock(1, c->win); break;
    case SYNC_LOCK_ALL: MPI_Win_unlock_all(c->win); break;
    case SYNC_FLUSH: MPI_Win_flush(1, c->win); break;
    case SYNC_FLUSH_LOCAL: MPI_Win_flush_local(1, c->win); break;
    case SYNC_FENCE: MPI_Win_fence(0, c->win); break;
    case SYNC_PSCW: MPI_Win_complete(c->win); break;
    default: break;
  }
}

static int is_active(enum sync s) { return s == SYNC_FENCE || s == SYNC_PSCW; }

/* Whether rank 1 iterates too: the barrier reference, and any window op in the active modes. */
static int target_iterates(const struct ctx* c, enum op op) {
  return op == OP_BARRIER || (op != OP_LOCAL && is_active(c->sync));
}

/* What rank 1 does per iteration when it iterates. */
static inline void target_iteration(struct ctx* c, enum op op) {
  if (op == OP_BARRIER) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (c->sync == SYNC_FENCE) {
    MPI_Win_fence(0, c->win);
  } else if (c->sync == SYNC_PSCW) {
    MPI_Win_post(c->peer, 0, c->win);
    MPI_Win_wait(c->win);
  }
}

/* Rank 0's decision v (warmup done? loop length?) on every rank when rank 1 iterates too
 * (both: the same on every rank); otherwise only rank 0 loops and no one else needs it (this
 * saves two fences per decision, which cost a time slice each on a busy machine with the
 * busy-polling peers). */
static inline int64_t agree(struct ctx* c, int both, int64_t v) {
  return both ? share_from_rank0(v, c->ctl, c->ctl_base) : v;
}

/* Origin-side knowledge of the target's window: elements 0 and last (8-byte elements). */
struct shadow {
  double first, last; /* acc/get_acc/fop/cas values */
  long k; /* iterations issued so far in this case */
};

/* One iteration on rank 0: change the data, issue op within its synchronization, check
 * fetched values. count: elements (acc family, local) or bytes (put/get). */
static inline void origin_iteration(struct ctx* c, enum op op, long count, struct shadow* s) {
  const long k = s->k++;
  if (op == OP_BARRIER) {
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  }
  if (op == OP_LOCAL) {
    double* b = (double*)(void*)c->sbuf;
    b[k % count] += 1.0; /* the data changes every call */
    local_add(c->local, b, count);
    return;
  }
  origin_open(c);
  switch (op) {
    case OP_FOP: {
      const int64_t add = k + 1;
      int64_t res = -1;
      MPI_Fetch_and_op(&add, &res, MPI_INT64_T, 1, 0, MPI_SUM, c->win);
      origin_close(c);
      if ((double)res != s->first) c->bad++;
      s->first += (double)add;
      return;
    }
    case OP_CAS: {
      const int64_t expect = (int64_t)s->first, swap = expect + 1 + (k & 15);
      int64_t res = -1;
      MPI_Compare_and_swap(&swap, &expect, &res, MPI_INT64_T, 1, 0, c->win);
      origin_close(c);
      if (res != expect) c->bad++;
      s->first = (double)swap;
      return;
    }
    case OP_ACC:
    case OP_GET_ACC: {
      const MPI_Datatype t = c->acc_double ? MPI_DOUBLE : MPI_INT64_T;
      elem_add(c->sbuf, k % count, c->acc_double, 1.0); /* the data changes every call */
      if (op == OP_ACC) {
        MPI_Accumulate(c->sbuf, (int)count, t, 1, 0, (int)count, t, MPI_SUM, c->win);
        origin_close(c);
      } else {
        MPI_Get_accumulate(c->sbuf, (int)count, t, c->rbuf, (int)count, t, 1, 0, (int)count, t, MPI_SUM, c->win);
        origin_close(c);
        if (elem_get(c->rbuf, 0, c->acc_double) != s->first ||
            elem_get(c->rbuf, count - 1, c->acc_double) != s->last)
          c->bad++;
      }
      s->first += elem_get(c->sbuf, 0, c->acc_double);
      if (count > 1) s->last += elem_get(c->sbuf, count - 1, c->acc_double);
      else s->last = s->first;
      return;
    }
    case OP_PUT:
      c->sbuf[k % count] = (unsigned char)(k + 1);
      MPI_Put(c->sbuf, (int)count, MPI_BYTE, 1, 0, (int)count, MPI_BYTE, c->win);
      origin_close(c);
      return;
    case OP_GET:
      MPI_Get(c->rbuf, (int)count, MPI_BYTE, 1, 0, (int)count, MPI_BYTE, c->win);
      origin_close(c);
      return;
    default: /* OP_EMPTY: the synchronization alone */
      origin_close(c);
      return;
  }
}

/* Rank 1 resets its window for a case: the get pattern or zeros (local exclusive lock);
 * rank 0 its buffers. */
static void reset_case(struct ctx* c, enum op op, long bytes) {
  if (c->rank == 1) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, c->win);
    if (op == OP_GET)
      for (long i = 0; i < bytes; ++i) c->base[i] = pattern(i);
    else
      memset(c->base, 0, (size_t)bytes);
    MPI_Win_unlock(1, c->win);
  }
  if (c->rank == 0) {
    memset(c->sbuf, 0, (size_t)bytes);
    memset(c->rbuf, 0, (size_t)bytes);
    memset(c->local, 0, (size_t)bytes);
    if (op == OP_ACC || op == OP_GET_ACC || op == OP_LOCAL)
      for (long e = 0; e < bytes / 8; ++e) /* small, exact values */
        elem_add(c->sbuf, e, c->acc_double || op == OP_LOCAL, (double)(e % 5));
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0 reads the window's first and last 8 bytes back and checks them; 1 if right. */
static int verify(struct ctx* c, enum op op, long bytes, const struct shadow* s) {
  if (op == OP_EMPTY || op == OP_BARRIER || op == OP_LOCAL) return 1;
  unsigned char head[8], tail[8];
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, c->win);
  MPI_Get(head, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, c->win);
  MPI_Get(tail, 8, MPI_BYTE, 1, bytes - 8, 8, MPI_BYTE, c->win);
  MPI_Win_unlock(1, c->win);
  switch (op) {
    case OP_FOP:
    case OP_CAS: {
      int64_t v;
      memcpy(&v, head, 8);
      return (double)v == s->first;
    }
    case OP_ACC:
    case OP_GET_ACC:
      return elem_get(head, 0, c->acc_double) == s->first && elem_get(tail, 0, c->acc_double) == s->last;
    case OP_PUT: return memcmp(head, c->sbuf, 8) == 0 && memcmp(tail, c->sbuf + bytes - 8, 8) == 0;
    case OP_GET:
      for (long i = 0; i < 8; ++i)
        if (head[i] != pattern(i) || tail[i] != pattern(bytes - 8 + i) || c->rbuf[i] != pattern(i) ||
            c->rbuf[bytes - 8 + i] != pattern(bytes - 8 + i))
          return 0;
      return 1;
    default: return 0;
  }
}

/* One case (op, bytes). Returns 1 if its checks passed. */
static int run_case(struct ctx* c, enum op op, long bytes, long iters, long warmup, int reps, const char* flav) {
  const long count = (op == OP_PUT || op == OP_GET) ? bytes : bytes / 8;
  const int both = target_iterates(c, op);
  const int in_epochs = op != OP_LOCAL && op != OP_BARRIER; /* the window's epoch sequence */
  struct shadow s = {0.0, 0.0, 0};
  c->bad = 0;
  reset_case(c, op, bytes);

  /* Epoch sequence opened once per case. */
  if (in_epochs && c->sync == SYNC_FENCE) MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win);
  if (in_epochs && c->rank == 0 && (c->sync == SYNC_FLUSH || c->sync == SYNC_FLUSH_LOCAL))
    MPI_Win_lock_all(0, c->win);

  double pace[WARMUP_CHUNKS]; /* seconds per iteration of each warmup chunk */
  int chunks = 0;
  long warmed = 0;
  double spent = 0.0;
  for (long len; (len = warmup_chunk(warmup, warmed, chunks)) > 0;) {
    const double w0 = MPI_Wtime();
    for (long i = 0; i < len; ++i) {
      if (c->rank == 0) origin_iteration(c, op, count, &s);
      else if (c->rank == 1 && both) target_iteration(c, op);
    }
    const double dt = MPI_Wtime() - w0;
    pace[chunks++] = dt / (double)len;
    warmed += len;
    spent += dt;
    if (agree(c, both, spent > WARMUP_BUDGET_S)) break; /* enough warmup */
  }
  const long floor = iters_floor(iters);
  iters = agree(c, both, capped_iters(iters, median_pace(pace, chunks), LOOP_BUDGET_S, floor));

  double us[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD); /* pre-timing barrier, same for every library */
    const double t0 = MPI_Wtime();
    if (c->rank == 0) {
      for (long i = 0; i < iters; ++i) origin_iteration(c, op, count, &s);
    } else if (c->rank == 1 && both) {
      for (long i = 0; i < iters; ++i) target_iteration(c, op);
    }
    const double loop_s = MPI_Wtime() - t0;
    us[r] = 1e6 * loop_s / (double)iters;
    if (r + 1 < reps) iters = agree(c, both, next_loop_iters(iters, loop_s, LOOP_BUDGET_S, floor));
  }

  if (in_epochs && c->rank == 0 && (c->sync == SYNC_FLUSH || c->sync == SYNC_FLUSH_LOCAL))
    MPI_Win_unlock_all(c->win);
  if (in_epochs && c->sync == SYNC_FENCE) MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win);

  int ok = 1;
  if (c->rank == 0) {
    const int back = verify(c, op, bytes, &s);
    ok = back && c->bad == 0;
    char name[128];
    snprintf(name, sizeof name, "rma_%s_%s_%s_%ld", sync_names[c->sync], flav, op_names[op], bytes);
    if (ok) {
      print_result(name, 2, us, reps, iters);
    } else {
      fprintf(stderr, "rma_latency: %s: WRONG RESULT (%ld of %ld fetched values wrong; window read back %s)\n", name,
              c->bad, s.k, back ? "right" : "WRONG");
      fflush(stderr);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int ok = argc == 8 || argc == 9;
  const long iters = parse_arg(argc, argv, 1, 10000, 1, 1000000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 1000, 0, 1000000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  int sync = -1;
  enum flavour flav = FLAVOUR_ALLOCATE;
  int ops[MAX_LIST], nops = 0, nsizes = 0, acc_double = 1;
  long sizes[MAX_LIST], max_bytes = 8;
  if (ok) {
    sync = lookup_name(argv[4], sync_names, SYNC_COUNT);
    ok = sync >= 0 && parse_flavour(argv[5], &flav);
    nops = ok ? parse_names(argv[6], op_names, OP_COUNT, ops) : 0;
    ok = ok && nops > 0 && parse_sizes(argv[7], sizes, &nsizes, &max_bytes, 1L << 30);
    if (argc == 9) {
      if (strcmp(argv[8], "double") == 0) acc_double = 1;
      else if (strcmp(argv[8], "int64") == 0) acc_double = 0;
      else ok = 0;
    }
  }
  if (!ok || size != 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -n 2 %s ITERATIONS WARMUP REPETITIONS lock|lockx|lock_all|flush|flush_local|fence|pscw "
              "allocate|create OPS SIZES [double|int64]\n  OPS: comma list of fop,cas,acc,get_acc,put,get,empty,"
              "barrier,local; SIZES: comma list of bytes (multiples of 8)\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }

  struct ctx c = {.rank = rank, .sync = (enum sync)sync, .acc_double = acc_double};
  select_local_add();
  void* priv = NULL;
  void* base = NULL;
  c.win = make_window(flav, (size_t)max_bytes, &base, &priv);
  c.base = base;
  MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c.ctl_base, &c.ctl);
  c.sbuf = bench_alloc((size_t)max_bytes);
  c.rbuf = bench_alloc((size_t)max_bytes);
  c.local = bench_alloc((size_t)max_bytes);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int other = 1 - rank;
  MPI_Group_incl(world, 1, &other, &c.peer);

  int all_ok = 1;
  for (int i = 0; i < nops; ++i) {
    const enum op op = (enum op)ops[i];
    if (op == OP_FOP || op == OP_CAS || op == OP_EMPTY || op == OP_BARRIER) {
      all_ok &= run_case(&c, op, 8, iters, warmup, reps, flavour_name(flav));
      continue;
    }
    for (int j = 0; j < nsizes; ++j) {
      const long n = iters_for_size(iters, sizes[j], 4), w = iters_for_size(warmup, sizes[j], 1);
      all_ok &= run_case(&c, op, sizes[j], n, warmup ? w : 0, reps, flavour_name(flav));
    }
  }

  MPI_Group_free(&c.peer);
  MPI_Group_free(&world);
  free_window(&c.win, priv);
  MPI_Win_free(&c.ctl);
  free(c.sbuf);
  free(c.rbuf);
  free(c.local);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
