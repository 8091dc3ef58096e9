/* flag_barrier_limit: the hardware limit for a two-process barrier. NOT an MPI program.
 *
 *   flag_barrier_limit [ITERATIONS [WARMUP [REPETITIONS]]]   defaults: 20000 2000 5
 *
 * Two processes (fork) share an anonymous MAP_SHARED mapping holding one flag each, on
 * its own 64-byte cache line: a uint32 generation counter. Barrier number g (g = 1, 2,
 * ...): store g to the own flag (release), then spin with a pause instruction until the
 * other's flag is >= g (acquire). That is one cache-line transfer each way, with no
 * sleeping, no library and no bookkeeping: nothing a real barrier can beat.
 *
 * The parent ("rank 0") is pinned to CPU 0, the child to CPU 1. Same scheme as
 * barrier_latency.c: WARMUP barriers, then REPETITIONS loops of ITERATIONS barriers, each
 * preceded by one untimed barrier; the parent times each loop (CLOCK_MONOTONIC) and prints
 *
 *   RESULT bench=flag_limit ranks=2 min_us=<x> median_us=<y> iters=<i>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define CACHE_LINE 64

struct flag {
  _Alignas(CACHE_LINE) _Atomic uint32_t gen;
  char pad[CACHE_LINE - sizeof(uint32_t)];
};

struct shared {
  struct flag flag[2];
};

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

static pid_t child_pid; /* set in the parent only */

/* The parent checks now and then that the child is still alive, so a dead child makes it
 * fail instead of spinning forever. The child has PR_SET_PDEATHSIG for the other way. */
static void check_partner(void) {
  if (child_pid <= 0) return;
  int status;
  const pid_t r = waitpid(child_pid, &status, WNOHANG);
  if (r == child_pid) {
    fprintf(stderr, "flag_barrier_limit: the child exited during the benchmark\n");
    exit(1);
  }
}

static inline void barrier(struct shared* s, int me, uint32_t g) {
  atomic_store_explicit(&s->flag[me].gen, g, memory_order_release);
  const _Atomic uint32_t* other = &s->flag[1 - me].gen;
  uint32_t spins = 0;
  while (atomic_load_explicit(other, memory_order_acquire) < g) {
    cpu_relax();
    if (++spins == (1u << 22)) {
      spins = 0;
      check_partner();
    }
  }
}

static void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0)
    fprintf(stderr, "flag_barrier_limit: warning: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
}

int main(int argc, char** argv) {
  int ok = 1;
  const long iters = parse_arg(argc, argv, 1, 20000, 1, 1000000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 2000, 0, 1000000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  /* Generations are uint32 and must not wrap. */
  if (ok && (double)warmup + (double)reps * ((double)iters + 1.0) >= (double)UINT32_MAX) ok = 0;
  if (!ok) {
    fprintf(stderr, "usage: %s [ITERATIONS>=1 [WARMUP>=0 [REPETITIONS 1..%d]]] (total barriers < 2^32)\n",
            argv[0], MAX_REPS);
    return 2;
  }

  struct shared* s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) {
    perror("flag_barrier_limit: mmap");
    return 1;
  }
  atomic_init(&s->flag[0].gen, 0);
  atomic_init(&s->flag[1].gen, 0);

  const pid_t parent = getpid();
  fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    perror("flag_barrier_limit: fork");
    return 1;
  }
  const int me = pid == 0 ? 1 : 0;
  if (me == 1) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1); /* the parent died before prctl */
  } else {
    child_pid = pid;
  }
  pin_to(me);

  uint32_t g = 0;
  for (long i = 0; i < warmup; ++i) barrier(s, me, ++g);

  double per_barrier_us[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    barrier(s, me, ++g); /* pre-timing barrier */
    const double t0 = now_s();
    for (long i = 0; i < iters; ++i) barrier(s, me, ++g);
    const double t1 = now_s();
    per_barrier_us[r] = 1e6 * (t1 - t0) / (double)iters;
  }

  if (me == 1) _exit(0);

  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "flag_barrier_limit: the child failed\n");
    return 1;
  }
  print_result("flag_limit", 2, per_barrier_us, reps, iters);
  munmap(s, sizeof *s);
  return 0;
}
