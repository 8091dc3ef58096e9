/* coll_numa: the collectives that have a NUMA-aware path in shmpi (Barrier, Bcast,
 * Reduce, Allreduce), on communicators whose members span NUMA nodes in different
 * patterns: MPI_COMM_WORLD (each node's ranks consecutive), a split whose rank order
 * interleaves the nodes, and a two-member communicator of the first and last rank.
 * Standard MPI: on a one-node machine (or a peer MPI) the same calls run their usual
 * paths and every result must still be exact.
 *
 * Checks per communicator: Bcast from every root at 0, 1, 7, 1000 and 262147 ints and
 * with a strided vector type (holes stay untouched); Reduce (every root, also in place)
 * and Allreduce (also in place) of int sums at 1, 1000 and 262147 elements; a
 * non-commutative 2x2 matrix product mod 1000003 (user op) through Reduce at every root
 * and Allreduce, which must equal the product in rank order; MINLOC with ties (the
 * smallest index wins); double Allreduce whose bits are the same on every rank and in
 * 100 repetitions; Barrier ordering (a counter in a shared file is not needed: each
 * rank's Allreduce after a Barrier sees every rank's pre-barrier contribution).
 *
 * shmpi only, from tests/scripts/numa_coll.sh:
 *   COLL_NUMA_LEADERS  the expected "shmpi_numa_leaders" info key of MPI_COMM_WORLD
 *       (shmpi reports the comm ranks that lead each NUMA node; absent on one node).
 *   COLL_NUMA_ONE_BAD  one rank (on the last node) passes a negative count to Bcast and
 *       Allreduce while the others pass good ones: it gets MPI_ERR_COUNT, the ranks that
 *       needed its data (all in Allreduce, all when it is the Bcast root) an error, and
 *       nobody hangs (a promise beyond the standard, which leaves this
 *       erroneous program undefined).
 * Peer toggle (set by tests/peer/run_coll_peer.sh):
 *   COLL_NUMA_REDUCE_INPLACE_ROOT_CRASHES  MPICH 4.0.2: MPI_Reduce with MPI_IN_PLACE at
 *       a root other than 0 segfaults in a memcpy from 1000 ints on (2 ranks, root 1,
 *       1000 MPI_INT, MPI_SUM is enough): those calls are skipped.
 * Prints "coll_numa: OK (N checks)" on rank 0. Usage: coll_numa */
#include <stdint.h>
#include <string.h>

#include "check.h"

static int wme, wnp;
static long long nchecks;

#define EXPECT(cond, ...)   \
  do {                      \
    ++nchecks;              \
    CHECK(cond, __VA_ARGS__); \
  } while (0)

static const long long kMod = 1000003;

/* inout = in x inout: in comes from the lower ranks (MPI-4.1 6.9.5). */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const long long* a = in;
  long long* b = inout;
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    long long c[4] = {(a[0] * b[0] + a[1] * b[2]) % kMod, (a[0] * b[1] + a[1] * b[3]) % kMod,
                      (a[2] * b[0] + a[3] * b[2]) % kMod, (a[2] * b[1] + a[3] * b[3]) % kMod};
    memcpy(b, c, sizeof c);
  }
}

static void mat_of(int r, int e, long long m[4]) {
  m[0] = 1 + r + e, m[1] = 2 * r + 1, m[2] = (r * 7 + e) % 5, m[3] = 3 + e % 4;
}

static int val(int r, int i, int iter) { return r * 1000003 + i * 7 + iter; }

static void bcast_checks(MPI_Comm c, int me, int np) {
  const int sizes[] = {0, 1, 7, 1000, 262147};
  int* buf = malloc(sizeof(int) * 262147);
  for (int s = 0; s < 5; ++s) {
    const int n = sizes[s];
    for (int root = 0; root < np; ++root) {
      for (int i = 0; i < n; ++i) buf[i] = me == root ? val(root, i, s) : -1;
      CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, c));
      int bad = -1;
      for (int i = 0; i < n && bad < 0; ++i)
        if (buf[i] != val(root, i, s)) bad = i;
      EXPECT(bad < 0, "bcast %d ints from %d: element %d is %d", n, root, bad, bad >= 0 ? buf[bad] : 0);
    }
  }
  /* A vector type with holes: every other int travels, the holes keep their value. */
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(500, 1, 2, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  for (int root = 0; root < np; ++root) {
    for (int i = 0; i < 1000; ++i) buf[i] = me == root ? val(root, i, 9) : -7;
    CHECK_MPI(MPI_Bcast(buf, 1, vec, root, c));
    for (int i = 0; i < 1000; ++i) {
      const int want = i % 2 == 0 ? val(root, i, 9) : me == root ? val(root, i, 9) : -7;
      EXPECT(buf[i] == want, "bcast vector from %d: int %d is %d, want %d", root, i, buf[i], want);
    }
  }
  CHECK_MPI(MPI_Type_free(&vec));
  free(buf);
}

static void sum_checks(MPI_Comm c, int me, int np) {
  const int sizes[] = {1, 1000, 262147};
  int* in = malloc(sizeof(int) * 262147);
  int* out = malloc(sizeof(int) * 262147);
  for (int s = 0; s < 3; ++s) {
    const int n = sizes[s];
    for (int root = 0; root < np; ++root) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        if (in_place && root != 0 && n >= 1000 && getenv("COLL_NUMA_REDUCE_INPLACE_ROOT_CRASHES") != NULL) continue;
        for (int i = 0; i < n; ++i) in[i] = val(me, i, s), out[i] = -1;
        if (in_place && me == root) {
          memcpy(out, in, sizeof(int) * (size_t)n);
          CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, out, n, MPI_INT, MPI_SUM, root, c));
        } else {
          CHECK_MPI(MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, root, c));
        }
        if (me != root) continue;
        for (int i = 0; i < n; ++i) {
          long long want = 0;
          for (int r = 0; r < np; ++r) want += val(r, i, s);
          EXPECT(out[i] == (int)want, "reduce %d ints to %d (in place %d): element %d", n, root, in_place, i);
          if (out[i] != (int)want) break;
        }
      }
    }
    for (int in_place = 0; in_place < 2; ++in_place) {
      for (int i = 0; i < n; ++i) in[i] = val(me, i, s), out[i] = in_place ? in[i] : -1;
      CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_SUM, c));
      for (int i = 0; i < n; ++i) {
        long long want = 0;
        for (int r = 0; r < np; ++r) want += val(r, i, s);
        EXPECT(out[i] == (int)want, "allreduce %d ints (in place %d): element %d", n, in_place, i);
        if (out[i] != (int)want) break;
      }
    }
  }
  free(in);
  free(out);
}

static void matrix_checks(MPI_Comm c, int me, int np) {
  MPI_Datatype mat;
  MPI_Op op;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_LONG_LONG, &mat));
  CHECK_MPI(MPI_Type_commit(&mat));
  CHECK_MPI(MPI_Op_create(matmul, 0, &op));
  enum { kN = 3000 };  /* 96 000 bytes: the large (exposed) path too */
  long long* in = malloc(sizeof(long long) * 4 * kN);
  long long* out = malloc(sizeof(long long) * 4 * kN);
  long long* want = malloc(sizeof(long long) * 4 * kN);
  for (int e = 0; e < kN; ++e) {
    mat_of(me, e, in + 4 * e);
    mat_of(np - 1, e, want + 4 * e);
    for (int r = np - 2; r >= 0; --r) {
      long long m[4];
      int one = 1;
      mat_of(r, e, m);
      matmul(m, want + 4 * e, &one, NULL);
    }
  }
  const int counts[] = {1, kN};
  for (int s = 0; s < 2; ++s) {
    const int n = counts[s];
    for (int root = 0; root < np; ++root) {
      memset(out, 0, sizeof(long long) * 4 * (size_t)n);
      CHECK_MPI(MPI_Reduce(in, out, n, mat, op, root, c));
      if (me == root)
        EXPECT(memcmp(out, want, sizeof(long long) * 4 * (size_t)n) == 0, "matrix reduce of %d to %d", n, root);
    }
    memset(out, 0, sizeof(long long) * 4 * (size_t)n);
    CHECK_MPI(MPI_Allreduce(in, out, n, mat, op, c));
    EXPECT(memcmp(out, want, sizeof(long long) * 4 * (size_t)n) == 0, "matrix allreduce of %d", n);
  }
  free(in);
  free(out);
  free(want);
  CHECK_MPI(MPI_Op_free(&op));
  CHECK_MPI(MPI_Type_free(&mat));
}

static void minloc_checks(MPI_Comm c, int me, int np) {
  struct { double v; int i; } in[3], out[3];
  for (int k = 0; k < 3; ++k) in[k].v = (double)((me + k) % 2), in[k].i = me;
  for (int root = 0; root < np; ++root) {
    CHECK_MPI(MPI_Reduce(in, out, 3, MPI_DOUBLE_INT, MPI_MINLOC, root, c));
    if (me != root) continue;
    for (int k = 0; k < 3; ++k) {
      int idx = 0;  /* the smallest rank holding the smallest value */
      for (int r = 1; r < np; ++r)
        if ((r + k) % 2 < (idx + k) % 2) idx = r;
      EXPECT(out[k].v == (double)((idx + k) % 2) && out[k].i == idx, "minloc %d at root %d: (%g, %d), want index %d", k,
             root, out[k].v, out[k].i, idx);
    }
  }
  CHECK_MPI(MPI_Allreduce(in, out, 3, MPI_DOUBLE_INT, MPI_MAXLOC, c));
  for (int k = 0; k < 3; ++k) {
    int idx = 0;  /* the smallest rank holding the largest value */
    for (int r = 1; r < np; ++r)
      if ((r + k) % 2 > (idx + k) % 2) idx = r;
    EXPECT(out[k].v == (double)((idx + k) % 2) && out[k].i == idx, "maxloc %d: (%g, %d), want index %d", k, out[k].v,
           out[k].i, idx);
  }
}

static void float_checks(MPI_Comm c, int me) {
  enum { kN = 5000 };
  double* in = malloc(sizeof(double) * kN);
  double* first = malloc(sizeof(double) * kN);
  double* out = malloc(sizeof(double) * kN);
  double* other = malloc(sizeof(double) * kN);
  for (int i = 0; i < kN; ++i) in[i] = 1.0 / (3.0 + me + i) * (i % 2 ? 1e10 : 1e-6);
  CHECK_MPI(MPI_Allreduce(in, first, kN, MPI_DOUBLE, MPI_SUM, c));
  for (int rep = 0; rep < 100; ++rep) {
    CHECK_MPI(MPI_Allreduce(in, out, kN, MPI_DOUBLE, MPI_SUM, c));
    EXPECT(memcmp(out, first, sizeof(double) * kN) == 0, "double allreduce repetition %d differs", rep);
  }
  /* Every rank holds the same bits. */
  memcpy(other, first, sizeof(double) * kN);
  CHECK_MPI(MPI_Bcast(other, kN, MPI_DOUBLE, 0, c));
  EXPECT(memcmp(other, first, sizeof(double) * kN) == 0, "double allreduce differs from rank 0's");
  free(in);
  free(first);
  free(out);
  free(other);
}

static void barrier_checks(MPI_Comm c, int me, int np) {
  /* Each round: everyone barriers, then the sum of the round numbers everyone has
   * reached must be np * round (nobody is a round behind or ahead). */
  for (int round = 1; round <= 200; ++round) {
    CHECK_MPI(MPI_Barrier(c));
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&round, &sum, 1, MPI_INT, MPI_SUM, c));
    EXPECT(sum == np * round, "round %d: sum %d", round, sum);
  }
  (void)me;
}

static void one_bad(MPI_Comm c, int me, int np) {
  if (np < 2) return;
  CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
  const int bad = np - 1;
  int buf[16] = {0}, out[16];
  for (int root = 0; root < np; ++root) {
    int rc = MPI_Bcast(buf, me == bad ? -1 : 16, MPI_INT, root, c);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    /* Ranks that needed the bad rank's data fail; the others may complete. */
    if (me == bad) EXPECT(cls == MPI_ERR_COUNT, "bad bcast: class %d", cls);
    else if (root == bad) EXPECT(cls != MPI_SUCCESS, "bcast from bad rank %d: success", bad);
  }
  int rc = MPI_Allreduce(buf, out, me == bad ? -1 : 16, MPI_INT, MPI_SUM, c);
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  EXPECT(me == bad ? cls == MPI_ERR_COUNT : cls != MPI_SUCCESS, "allreduce with rank %d bad: class %d", bad, cls);
  /* The communicator still works. */
  int one = 1, sum = 0;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
  EXPECT(sum == np, "allreduce after errors: %d", sum);
}

static void run_on(MPI_Comm c) {
  int me, np;
  MPI_Comm_rank(c, &me);
  MPI_Comm_size(c, &np);
  bcast_checks(c, me, np);
  sum_checks(c, me, np);
  matrix_checks(c, me, np);
  minloc_checks(c, me, np);
  float_checks(c, me);
  barrier_checks(c, me, np);
  if (getenv("COLL_NUMA_ONE_BAD") != NULL) one_bad(c, me, np);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &wme);
  MPI_Comm_size(MPI_COMM_WORLD, &wnp);
  const char* leaders = getenv("COLL_NUMA_LEADERS");
  if (leaders != NULL) {
    MPI_Info info;
    char value[256] = "";
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &info));
    CHECK_MPI(MPI_Info_get(info, "shmpi_numa_leaders", (int)sizeof value - 1, value, &flag));
    EXPECT(flag && strcmp(value, leaders) == 0, "shmpi_numa_leaders is '%s' (flag %d), want '%s'", value, flag, leaders);
    CHECK_MPI(MPI_Info_free(&info));
  }
  MPI_Comm dup, interleaved, ends;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  run_on(dup);
  /* Even world ranks first, then odd ones: with consecutive ranks per node, the new
   * rank order alternates between nodes. */
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, (wme % 2) * wnp + wme, &interleaved));
  run_on(interleaved);
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, wme == 0 || wme == wnp - 1 ? 0 : MPI_UNDEFINED, wme, &ends));
  if (ends != MPI_COMM_NULL) {
    run_on(ends);
    CHECK_MPI(MPI_Comm_free(&ends));
  }
  CHECK_MPI(MPI_Comm_free(&interleaved));
  CHECK_MPI(MPI_Comm_free(&dup));
  long long total = 0;
  CHECK_MPI(MPI_Reduce(&nchecks, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (wme == 0) printf("coll_numa: OK (%lld checks)\n", total);
  MPI_Finalize();
  return 0;
}
