/* ring_limit: not MPI. What two processes on two cores can do with 1 MiB-class data
 * through shared memory at best: the floors under shmpi's 2-rank large collectives,
 * next to the one-core references that coll_latency.c holds them against (a memcpy, a
 * += b). Two forked processes pinned to CPUs 0 and 1 share an anonymous mapping with one
 * ring each, shmpi's stream layout (shm_layout/comm.hpp): 32 chunks of 64 KiB; a writer
 * waits for room (its reader's ack counter), copies a chunk in and releases its written
 * counter; a reader acquires that, uses the chunk where it lies and releases its ack.
 *
 *   ring_limit ITERATIONS WARMUP REPETITIONS CASES SIZE
 *     CASES  comma list of:
 *       copy       process 0 alone: memcpy of SIZE bytes between private buffers
 *       add        process 0 alone: a[i] += b[i] over SIZE bytes of doubles
 *       stream     0 streams SIZE bytes, 1 copies them out: a streamed block (bcast,
 *                  scatter, gather) moved by two memcpys on two cores at once
 *       fold       0 streams SIZE bytes of doubles, 1 folds out = mine + chunk in place:
 *                  a 2-rank MPI_Reduce of SIZE
 *       rsb        both: stream SIZE to the other and fold their own SIZE from the other's
 *                  ring (writing first while there is room): a 2-rank
 *                  MPI_Reduce_scatter_block with SIZE per block
 *       allreduce  both, on SIZE / 2 each (shmpi's split allreduce): stream the other's
 *                  half of the input, fold their own half from the other's ring into
 *                  out and stream each finished chunk of it, copy the other's half of the
 *                  result out of its ring: a 2-rank MPI_Allreduce of SIZE
 *       cma        process 0: process_vm_readv of SIZE bytes that process 1 just wrote
 *                  (only the reads are timed: how a reader could take a peer's memory
 *                  without a ring)
 *     SIZE   bytes, a multiple of 128 KiB up to 2 MiB (one ring)
 * Per case: WARMUP iterations, then REPETITIONS loops of ITERATIONS, each started by both
 * processes through a counter barrier; a loop's value is process 0's time from the barrier
 * until both have finished, per iteration. Prints per case
 *   RESULT bench=ring_<case>_<SIZE> ranks=2 min_us=<x> median_us=<y> iters=<i>
 * Every iteration changes one element of each input, and each process that received or
 * combined data checks that element (a wrong one: a message on stderr, exit status 1).
 * Numbers: docs/collectives.md "Floors". */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "local_add.h"

#define CHUNK (64L << 10)
#define CHUNKS 32L
#define MAX_REPS 64

/* GCC: out = a + b at -O3 (AVX2 picked at run time, as local_add.h). */
#if defined(LOCAL_ADD_AVX2)
__attribute__((noinline, optimize("O3"), target("avx2"))) static void add3_avx2(double* restrict o, const double* restrict a,
                                                                              const double* restrict b, long n) {
  for (long i = 0; i < n; ++i) o[i] = a[i] + b[i];
}
#endif
__attribute__((noinline)) static void add3_base(double* restrict o, const double* restrict a, const double* restrict b,
                                                long n) {
  for (long i = 0; i < n; ++i) o[i] = a[i] + b[i];
}
static void (*add3)(double* restrict, const double* restrict, const double* restrict, long) = add3_base;

/* One ring per process; the counters on their own cache lines. */
struct ring {
  _Alignas(128) _Atomic long written; /* chunks written by the owner */
  _Alignas(128) _Atomic long acked;   /* chunks its reader is done with */
  _Alignas(4096) char data[CHUNKS * CHUNK];
};
struct shared {
  _Alignas(128) _Atomic long arrived; /* barrier: both add 1 per round */
  _Alignas(128) _Atomic long finished;
  struct ring ring[2];
};

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}
static void relax(void) { __builtin_ia32_pause(); }
static void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  if (sched_setaffinity(0, sizeof s, &s) != 0) perror("ring_limit: sched_setaffinity");
}
static int cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* This process's side of a case. */
struct side {
  int me;
  struct shared* sh;
  long size;
  double *in, *mine, *out; /* in: what we stream (SIZE); mine: our own operand; out */
  long put, got;           /* chunks written to our ring, taken from the other's (never reset) */
};

static struct ring* own(struct side* s) { return &s->sh->ring[s->me]; }
static struct ring* other(struct side* s) { return &s->sh->ring[1 - s->me]; }
static int has_room(struct side* s) {
  return s->put - atomic_load_explicit(&own(s)->acked, memory_order_acquire) < CHUNKS;
}
static char* slot(struct ring* r, long c) { return r->data + (c % CHUNKS) * CHUNK; }
static void put_chunk(struct side* s, const void* src) {
  memcpy(slot(own(s), s->put), src, CHUNK);
  atomic_store_explicit(&own(s)->written, ++s->put, memory_order_release);
}
static const double* peek(struct side* s) {
  if (atomic_load_explicit(&other(s)->written, memory_order_acquire) <= s->got) return NULL;
  return (const double*)slot(other(s), s->got);
}
static void ack(struct side* s) { atomic_store_explicit(&other(s)->acked, ++s->got, memory_order_release); }

/* The element iteration k stamps and checks: a prime stride, so consecutive iterations
 * visit every chunk. */
static long at(const struct side* s, long k) { return (k * 4099) % (s->size / 8); }

/* One iteration of `what` on this side; returns the element process 0 checks. */
static double iteration(struct side* s, const char* what, long k) {
  const long per = CHUNK / 8, chunks = s->size / CHUNK;
  s->in[at(s, k)] = (double)k;
  s->mine[at(s, k)] = (double)(2 * k);
  if (strcmp(what, "copy") == 0) {
    memcpy(s->out, s->in, (size_t)s->size);
    return s->out[at(s, k)];
  }
  if (strcmp(what, "add") == 0) {
    local_add(s->mine, s->in, s->size / 8);
    return s->mine[at(s, k)];
  }
  if (strcmp(what, "stream") == 0 || strcmp(what, "fold") == 0) {
    const int fold = what[0] == 'f';
    for (long c = 0; c < chunks; ++c) {
      if (s->me == 0) {
        while (!has_room(s)) relax();
        put_chunk(s, s->in + c * per);
      } else {
        const double* p;
        while ((p = peek(s)) == NULL) relax();
        if (fold) add3(s->out + c * per, s->mine + c * per, p, per);
        else memcpy(s->out + c * per, p, CHUNK);
        ack(s);
      }
    }
    return s->out[at(s, k)];
  }
  if (strcmp(what, "rsb") == 0) {
    long w = 0, f = 0;
    while (w < chunks || f < chunks) {
      if (w < chunks && has_room(s)) {
        put_chunk(s, s->in + w++ * per);
        continue;
      }
      const double* p = f < chunks ? peek(s) : NULL;
      if (p == NULL) {
        relax();
        continue;
      }
      add3(s->out + f * per, s->mine + f * per, p, per);
      ack(s);
      ++f;
    }
    return s->out[at(s, k)];
  }
  if (strcmp(what, "allreduce") == 0) {
    /* Our half of the vector: [me * h, (me + 1) * h); the other's input half goes to it. */
    const long hc = chunks / 2, h = s->size / 16;
    double* my_half = s->out + s->me * h;
    const double* my_in = s->mine + s->me * h;
    const double* to_other = s->mine + (1 - s->me) * h;
    double* other_half = s->out + (1 - s->me) * h;
    long w = 0, f = 0, r = 0; /* input chunks written, folded (and result written), result read */
    while (w < hc || f < hc || r < hc) {
      if (w < hc && has_room(s)) {
        put_chunk(s, to_other + w++ * per);
        continue;
      }
      const double* p = peek(s);
      if (p != NULL && f < hc && has_room(s)) {
        add3(my_half + f * per, my_in + f * per, p, per);
        ack(s);
        put_chunk(s, my_half + f++ * per);
        continue;
      }
      if (p != NULL && f == hc) {
        memcpy(other_half + r++ * per, p, CHUNK);
        ack(s);
        continue;
      }
      relax();
    }
    return s->out[at(s, k)];
  }
  return 0;
}

/* The value this process's checked element must have after iteration k (-1: it
 * received nothing). Both processes set in[j] = k and mine[j] = 2k first. */
static double expected(const char* what, int me, long k) {
  const int receiver = strcmp(what, "stream") == 0 || strcmp(what, "fold") == 0 ? 1 : 0;
  const int both = strcmp(what, "rsb") == 0 || strcmp(what, "allreduce") == 0;
  if (!both && me != receiver) return -1;
  if (strcmp(what, "copy") == 0 || strcmp(what, "stream") == 0) return (double)k;
  if (strcmp(what, "add") == 0 || strcmp(what, "fold") == 0 || strcmp(what, "rsb") == 0) return (double)(3 * k);
  if (strcmp(what, "allreduce") == 0) return (double)(4 * k); /* mine0[j] + mine1[j] */
  return -1;
}

/* process_vm_readv of process 1's `in` into `out`, after process 1 rewrote it (a
 * handshake through `finished` per iteration, untimed); returns the time of the reads. */
static double cma_reads(struct side* s, long n, long base, pid_t peer, int* bad) {
  double spent = 0;
  for (long i = 0; i < n; ++i) {
    const long k = base + i, j = at(s, k);
    if (s->me == 1) {
      while (atomic_load_explicit(&s->sh->finished, memory_order_acquire) != 2 * k + 1) relax();
      memset(s->in, (int)(k & 0x7f), (size_t)s->size);
      s->in[j] = (double)k;
      atomic_store_explicit(&s->sh->finished, 2 * k + 2, memory_order_release);
      continue;
    }
    atomic_store_explicit(&s->sh->finished, 2 * k + 1, memory_order_release);
    while (atomic_load_explicit(&s->sh->finished, memory_order_acquire) != 2 * k + 2) relax();
    struct iovec local = {s->out, (size_t)s->size}, remote = {s->in, (size_t)s->size};
    const double t0 = now_us();
    const ssize_t got = process_vm_readv(peer, &local, 1, &remote, 1, 0);
    spent += now_us() - t0;
    if (got != s->size || s->out[j] != (double)k) *bad = 1;
  }
  return spent;
}

/* Both processes run a case; process 0 times it and fills us[] (us per iteration). */
static int run_case(struct side* s, const char* what, long iters, long warmup, int reps, pid_t peer, double* us) {
  static long round = 0;
  const int cma = strcmp(what, "cma") == 0;
  const int solo = strcmp(what, "copy") == 0 || strcmp(what, "add") == 0;
  int bad = 0;
  for (int r = -1; r < reps; ++r) {
    const long n = r < 0 ? warmup : iters, base = (round + 1) * 1000003L;
    ++round;
    atomic_fetch_add(&s->sh->arrived, 1);
    while (atomic_load(&s->sh->arrived) < 2 * round) relax();
    double t = now_us();
    if (cma) {
      t = cma_reads(s, n, base, peer, &bad);
    } else if (!solo || s->me == 0) {
      for (long i = 0; i < n; ++i) {
        const double v = iteration(s, what, base + i), want = expected(what, s->me, base + i);
        if (want >= 0 && v != want) bad = 1;
      }
    }
    ++round;
    atomic_fetch_add(&s->sh->arrived, 1);
    while (atomic_load(&s->sh->arrived) < 2 * round) relax();
    if (!cma) t = now_us() - t;
    if (s->me == 0 && r >= 0) us[r] = t / (double)n;
  }
  return bad;
}

int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: ring_limit ITERATIONS WARMUP REPETITIONS CASES SIZE\n");
    return 2;
  }
  const long iters = atol(argv[1]), warmup = atol(argv[2]);
  const int reps = atoi(argv[3]) > MAX_REPS ? MAX_REPS : atoi(argv[3]);
  const long size = atol(argv[5]);
  if (iters < 1 || warmup < 0 || reps < 1 || size < 2 * CHUNK || size > CHUNKS * CHUNK || size % (2 * CHUNK) != 0) {
    fprintf(stderr, "ring_limit: bad arguments (SIZE: a multiple of 128 KiB up to 2 MiB)\n");
    return 2;
  }
  (void)select_local_add();
#ifdef LOCAL_ADD_AVX2
  if (__builtin_cpu_supports("avx2")) add3 = add3_avx2;
#endif
  struct shared* sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (sh == MAP_FAILED) {
    perror("ring_limit: mmap");
    return 1;
  }
  const pid_t child = fork();
  const int me = child == 0 ? 1 : 0;
  pin(me);
  struct side s = {me, sh, size, aligned_alloc(64, (size_t)size), aligned_alloc(64, (size_t)size),
                   aligned_alloc(64, (size_t)size), 0, 0};
  for (long i = 0; i < size / 8; ++i) s.in[i] = (double)(i % 7), s.mine[i] = (double)(i % 5), s.out[i] = 0;
  int bad = 0;
  char* list = strdup(argv[4]);
  for (char* what = strtok(list, ","); what != NULL; what = strtok(NULL, ",")) {
    double us[MAX_REPS];
    bad |= run_case(&s, what, iters, warmup, reps, me == 0 ? child : getppid(), us);
    if (me != 0) continue;
    qsort(us, (size_t)reps, sizeof us[0], cmp_double);
    const double med = reps % 2 ? us[reps / 2] : 0.5 * (us[reps / 2 - 1] + us[reps / 2]);
    printf("RESULT bench=ring_%s_%ld ranks=2 min_us=%.4f median_us=%.4f iters=%ld\n", what, size, us[0], med, iters);
    fflush(stdout);
  }
  if (child == 0) _exit(bad);
  int st = 0;
  waitpid(child, &st, 0);
  const int child_bad = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
  if (bad || child_bad) fprintf(stderr, "ring_limit: a checked element was wrong (process %d)\n", bad ? 0 : 1);
  return bad || child_bad;
}
