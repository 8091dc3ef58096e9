/* switch_floor: the context-switch floor for an oversubscribed barrier. NOT an MPI program.
 *
 *   switch_floor [ITERATIONS [WARMUP [REPETITIONS [NPROCS]]]]   defaults: 5000 500 5 8
 *
 * With more ranks than CPUs, a barrier cannot complete until every rank has run once
 * since the previous one, so each CPU must switch to each of the ranks it holds at least
 * once per barrier. This measures that cost with nothing else in it: NPROCS processes
 * (process 0 and NPROCS-1 forked children) are pinned round-robin to the CPUs this
 * process may use (sched_getaffinity; 8 processes on 2 CPUs: 4 per CPU), and each calls
 * sched_yield() in a loop. One yield per process on a CPU is one "round": every process
 * on that CPU ran once, which is the least an oversubscribed barrier has to wait for.
 *
 * Same scheme as the other programs: every process does WARMUP yields, then REPETITIONS
 * loops of ITERATIONS yields, each preceded by a start barrier (a counter in a shared
 * anonymous mapping: C11 atomics, spin with sched_yield, so waiting processes keep
 * taking part in the rotation), and a final barrier after the last loop so that no
 * process leaves its CPU while another is still being timed. Process 0 times each of its
 * loops (CLOCK_MONOTONIC); time per round = loop time / ITERATIONS. It prints
 *
 *   RESULT bench=switch_floor ranks=<NPROCS> min_us=<x> median_us=<y> iters=<i>
 *
 * min and median over the REPETITIONS loops. If the processes are not oversubscribed
 * (NPROCS <= CPUs), sched_yield returns at once and the number is no floor of anything;
 * a note on stderr says so.
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
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_PROCS 1024
#define CACHE_LINE 64

struct shared {
  _Alignas(CACHE_LINE) _Atomic uint64_t arrived; /* total barrier arrivals so far */
  char pad[CACHE_LINE - sizeof(uint64_t)];
};

static pid_t children[MAX_PROCS]; /* in process 0 only */
static int nchildren;

/* Process 0 checks now and then that no child has died, so it fails instead of waiting
 * forever; the children have PR_SET_PDEATHSIG for the other way. */
static void check_children(void) {
  for (int i = 0; i < nchildren; ++i) {
    int status;
    if (children[i] > 0 && waitpid(children[i], &status, WNOHANG) == children[i]) {
      fprintf(stderr, "switch_floor: process %d exited during the benchmark\n", i + 1);
      exit(1);
    }
  }
}

/* Barrier number k (k = 1, 2, ...) of nprocs processes: arrive, then yield until all
 * nprocs have arrived k times. The counter only grows, so there is nothing to reset. */
static void barrier(struct shared* s, uint64_t k, uint64_t nprocs) {
  atomic_fetch_add_explicit(&s->arrived, 1, memory_order_acq_rel);
  uint32_t spins = 0;
  while (atomic_load_explicit(&s->arrived, memory_order_acquire) < k * nprocs) {
    sched_yield();
    if (++spins == (1u << 12)) {
      spins = 0;
      check_children();
    }
  }
}

int main(int argc, char** argv) {
  int ok = 1;
  const long iters = parse_arg(argc, argv, 1, 5000, 1, 1000000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 500, 0, 1000000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  const int nprocs = (int)parse_arg(argc, argv, 4, 8, 1, MAX_PROCS, &ok);
  if (!ok) {
    fprintf(stderr, "usage: %s [ITERATIONS>=1 [WARMUP>=0 [REPETITIONS 1..%d [NPROCS 1..%d]]]]\n", argv[0], MAX_REPS,
            MAX_PROCS);
    return 2;
  }

  /* The CPUs we may use, in order; process i goes to cpus[i % ncpus]. */
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    perror("switch_floor: sched_getaffinity");
    return 1;
  }
  int cpus[CPU_SETSIZE];
  int ncpus = 0;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[ncpus++] = c;
  if (ncpus == 0) {
    fprintf(stderr, "switch_floor: no usable CPU\n");
    return 1;
  }
  if (nprocs <= ncpus)
    fprintf(stderr, "switch_floor: note: %d processes on %d CPUs are not oversubscribed: no switch floor\n", nprocs,
            ncpus);

  struct shared* s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) {
    perror("switch_floor: mmap");
    return 1;
  }
  atomic_init(&s->arrived, 0);

  const pid_t parent = getpid();
  int me = 0;
  fflush(stdout);
  fflush(stderr);
  for (int i = 1; i < nprocs; ++i) {
    const pid_t pid = fork();
    if (pid < 0) {
      perror("switch_floor: fork");
      for (int j = 0; j < nchildren; ++j) kill(children[j], SIGKILL);
      return 1;
    }
    if (pid == 0) {
      me = i;
      nchildren = 0;
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(1); /* process 0 died before prctl */
      break;
    }
    children[nchildren++] = pid;
  }

  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpus[me % ncpus], &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0)
    fprintf(stderr, "switch_floor: warning: process %d cannot pin to CPU %d: %s\n", me, cpus[me % ncpus],
            strerror(errno));

  uint64_t k = 0;
  barrier(s, ++k, (uint64_t)nprocs); /* everyone forked and pinned */
  for (long i = 0; i < warmup; ++i) sched_yield();

  double per_round_us[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    barrier(s, ++k, (uint64_t)nprocs);
    const double t0 = now_s();
    for (long i = 0; i < iters; ++i) sched_yield();
    const double t1 = now_s();
    per_round_us[r] = 1e6 * (t1 - t0) / (double)iters;
  }
  barrier(s, ++k, (uint64_t)nprocs); /* nobody leaves while another is being timed */

  if (me != 0) _exit(0);

  int failed = 0;
  for (int i = 0; i < nchildren; ++i) {
    int status = 0;
    if (waitpid(children[i], &status, 0) != children[i] || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
  }
  if (failed) {
    fprintf(stderr, "switch_floor: a child failed\n");
    return 1;
  }
  print_result("switch_floor", nprocs, per_round_us, reps, iters);
  munmap(s, sizeof *s);
  return 0;
}
