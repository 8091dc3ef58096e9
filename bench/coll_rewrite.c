/* coll_rewrite: large data-movement collectives with the message unchanged between calls
 * against rewritten before every call. Standard MPI only (builds against shmpi, Open MPI
 * and MPICH alike); not part of compare.py.
 *
 *   coll_rewrite ITERATIONS BYTES COLLS
 *     COLLS  comma list of bcast, scatter, gather, alltoall (root 0)
 *     BYTES  bytes per rank's message (MPI_BYTE)
 *
 * coll_latency.c changes three elements of a message per call (enough to catch a library
 * that skips work), so the rest of it stays in whatever caches hold it from the last call.
 * A single-copy read of the sender's buffer (process_vm_readv) then finds most lines
 * still valid in the reader's cache, where a copy through a ring rewritten every call
 * moves all of them again. This program measures both: per collective, ITERATIONS calls
 * with the send buffers unchanged, then ITERATIONS calls with every sender rewriting its
 * whole send buffer (memset, a value particular to the call) right before the call; the
 * receivers check the first and last byte of every block they get (rewritten mode). Five
 * loops each after a barrier; per loop the slowest rank's time per call (the rewrite
 * included, which is the same work for every library). Rank 0 prints
 *
 *   RESULT bench=rewrite_<coll>_<bytes>_<unchanged|rewritten> ranks=<p> min_us=<x> median_us=<y> iters=<i>
 *
 * docs/collectives.md "Why streams" has what it showed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOOPS 5

static int cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Bytes of this rank's send buffer that the collective reads. */
static long send_bytes(const char* coll, int me, int p, long b) {
  if (!strcmp(coll, "bcast") || !strcmp(coll, "gather")) return !strcmp(coll, "bcast") && me != 0 ? 0 : b;
  if (!strcmp(coll, "scatter")) return me == 0 ? b * p : 0;
  return b * p; /* alltoall */
}

/* One call; returns the number of wrong bytes seen (rewritten mode: value v expected). */
static int one_call(const char* coll, char* sb, char* rb, long b, int me, int p, int check, unsigned char v) {
  int bad = 0;
  if (!strcmp(coll, "bcast")) {
    MPI_Bcast(me == 0 ? sb : rb, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (check && me != 0) bad += ((unsigned char)rb[0] != v) + ((unsigned char)rb[b - 1] != v);
  } else if (!strcmp(coll, "scatter")) {
    MPI_Scatter(sb, (int)b, MPI_BYTE, rb, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (check) bad += ((unsigned char)rb[0] != v) + ((unsigned char)rb[b - 1] != v);
  } else if (!strcmp(coll, "gather")) {
    MPI_Gather(sb, (int)b, MPI_BYTE, rb, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int r = 0; check && me == 0 && r < p; r++) {
      bad += ((unsigned char)rb[r * b] != v) + ((unsigned char)rb[r * b + b - 1] != v);
    }
  } else {
    MPI_Alltoall(sb, (int)b, MPI_BYTE, rb, (int)b, MPI_BYTE, MPI_COMM_WORLD);
    for (int r = 0; check && r < p; r++) {
      bad += ((unsigned char)rb[r * b] != v) + ((unsigned char)rb[r * b + b - 1] != v);
    }
  }
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 4 || atol(argv[1]) < 1 || atol(argv[2]) < 1) {
    if (me == 0) fprintf(stderr, "usage: coll_rewrite ITERATIONS BYTES COLLS (bcast,scatter,gather,alltoall)\n");
    MPI_Finalize();
    return 2;
  }
  const long iters = atol(argv[1]), b = atol(argv[2]);
  char* sb = malloc((size_t)(b * p));
  char* rb = malloc((size_t)(b * p));
  if (sb == NULL || rb == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  int status = 0;
  char* list = malloc(strlen(argv[3]) + 1); /* strtok's copy (strdup is not C11) */
  if (list == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  memcpy(list, argv[3], strlen(argv[3]) + 1);
  for (char* coll = strtok(list, ","); coll != NULL; coll = strtok(NULL, ",")) {
    if (strcmp(coll, "bcast") && strcmp(coll, "scatter") && strcmp(coll, "gather") && strcmp(coll, "alltoall")) {
      if (me == 0) fprintf(stderr, "coll_rewrite: unknown collective %s\n", coll);
      status = 2;
      continue;
    }
    const long sbytes = send_bytes(coll, me, p, b);
    for (int rewrite = 0; rewrite < 2; rewrite++) {
      double t[LOOPS];
      int bad = 0;
      memset(sb, 7, (size_t)(b * p));
      one_call(coll, sb, rb, b, me, p, 0, 0); /* warm-up */
      for (int loop = 0; loop < LOOPS; loop++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++) {
          const unsigned char v = (unsigned char)(i * 31 + loop + 1);
          if (rewrite && sbytes > 0) memset(sb, v, (size_t)sbytes);
          bad += one_call(coll, sb, rb, b, me, p, rewrite, v);
        }
        double mine = (MPI_Wtime() - t0) / (double)iters * 1e6;
        MPI_Allreduce(&mine, &t[loop], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      }
      int bad_all = 0;
      MPI_Allreduce(&bad, &bad_all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (bad_all != 0) {
        if (me == 0) fprintf(stderr, "coll_rewrite: %s: %d wrong bytes\n", coll, bad_all);
        status = 1;
        continue;
      }
      qsort(t, LOOPS, sizeof t[0], cmp_double);
      if (me == 0) {
        printf("RESULT bench=rewrite_%s_%ld_%s ranks=%d min_us=%.2f median_us=%.2f iters=%ld\n", coll, b,
               rewrite ? "rewritten" : "unchanged", p, t[0], t[LOOPS / 2], iters);
      }
    }
  }
  free(list);
  free(sb);
  free(rb);
  MPI_Finalize();
  return status;
}
