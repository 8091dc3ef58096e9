/* Two processes exchanging generation flags, for the non-MPI floor programs
 * (flag_barrier_limit.c, overlap_limit.c): a shared mapping with one flag per process on
 * its own 64-byte line, fork, the parent ("rank 0") pinned to CPU 0 and the child to CPU
 * 1, and a dead partner failing the other instead of leaving it spinning (header-only,
 * C11 + Linux; the includer defines _GNU_SOURCE first, for the CPU_* macros). */
#ifndef SHMPI_BENCH_PAIR_UTIL_H
#define SHMPI_BENCH_PAIR_UTIL_H

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
#include <unistd.h>

#define PAIR_LINE 64

struct pair_flag {
  _Alignas(PAIR_LINE) _Atomic uint64_t gen;
  char pad[PAIR_LINE - sizeof(uint64_t)];
};

struct pair_flags {
  struct pair_flag flag[2];
};

static pid_t pair_child; /* the child's pid, in the parent only */
static const char* pair_name = "pair";

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* The parent calls this now and then while it spins: a child that died makes it fail
 * instead of spinning forever. The child has PR_SET_PDEATHSIG for the other way. */
static inline void pair_check_partner(void) {
  if (pair_child <= 0) return;
  int status;
  if (waitpid(pair_child, &status, WNOHANG) == pair_child) {
    fprintf(stderr, "%s: the child exited during the benchmark\n", pair_name);
    exit(1);
  }
}

/* Generation g on the own flag (release). */
static inline void pair_post(struct pair_flags* s, int me, uint64_t g) {
  atomic_store_explicit(&s->flag[me].gen, g, memory_order_release);
}

/* Spins with a pause until the other's flag is >= g (acquire). */
static inline void pair_wait(struct pair_flags* s, int me, uint64_t g) {
  const _Atomic uint64_t* other = &s->flag[1 - me].gen;
  uint32_t spins = 0;
  while (atomic_load_explicit(other, memory_order_acquire) < g) {
    cpu_relax();
    if (++spins == (1u << 22)) {
      spins = 0;
      pair_check_partner();
    }
  }
}

/* Maps the flags (both 0), forks and pins: *me is 0 in the parent (CPU 0), 1 in the child
 * (CPU 1). NULL if the mapping or the fork failed (said on stderr). */
static inline struct pair_flags* pair_start(const char* name, int* me) {
  pair_name = name;
  struct pair_flags* s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) {
    fprintf(stderr, "%s: mmap: %s\n", name, strerror(errno));
    return NULL;
  }
  atomic_init(&s->flag[0].gen, 0);
  atomic_init(&s->flag[1].gen, 0);
  const pid_t parent = getpid();
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "%s: fork: %s\n", name, strerror(errno));
    return NULL;
  }
  *me = pid == 0 ? 1 : 0;
  if (*me == 1) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1); /* the parent died before prctl */
  } else {
    pair_child = pid;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(*me, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0)
    fprintf(stderr, "%s: warning: cannot pin to CPU %d: %s\n", name, *me, strerror(errno));
  return s;
}

/* The end: the child exits (status 0); the parent waits for it and returns 1 if it
 * exited with status 0, else 0 (said on stderr). */
static inline int pair_end(struct pair_flags* s, int me) {
  if (me == 1) _exit(0);
  munmap(s, sizeof *s);
  int status = 0;
  if (waitpid(pair_child, &status, 0) != pair_child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "%s: the child failed\n", pair_name);
    return 0;
  }
  return 1;
}

#endif
