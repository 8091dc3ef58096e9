/* coll_determinism: MPI_Allreduce(MPI_SUM) of floating point data whose sum depends on
 * the order of the additions must give the same bits on every rank (MPI-4.1 All-Reduce:
 * "MPI requires that all MPI processes ... participating in these operations receive
 * identical results") and in every repetition (Reduce, advice to implementors: the same
 * result whenever the function is applied on the same arguments in the same order;
 * shmpi promises it).
 *
 * Three data sets, each reduced REPS times (default 100; the large one REPS/5 times):
 *   - 5 doubles: one rank holds +1e16, the next -1e16, the others values near their
 *     unit in the last place (2), so the result depends on where the pair cancels;
 *   - 1001 floats and 131075 doubles (1 MiB + 24 bytes): half of the values +-1e8 or
 *     +-1e16 times 1..4, the others near those values' last place, 1.0, or spread over
 *     40 binades.
 * Every repetition on every rank must equal the first bit for bit; after the loop rank
 * 0's and the last rank's results are broadcast and must equal every rank's. Each result
 * must lie within the error bound of any summation order, |s - exact| <= size * eps *
 * sum |x| (exact in long double from the inputs, which every rank can recompute). With
 * 3 or more ranks the data must really be order-sensitive: the sums in rank order and
 * in other orders (reverse, rank 1 last, pairwise) must differ in at least an eighth of
 * the elements, else this test could not fail.
 * Point-to-point is not used. Prints "coll_determinism: OK (N checks)" on rank 0.
 * Usage: coll_determinism [REPS] */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "coll_util.h"

/* Input of rank r, element i (see the header). Values near the huge ones' last place
 * round differently depending on whether they are added before or after two huge ones
 * cancel. */
static double value(int set, int r, long i) {
  const uint32_t h =
      mix32(mix32((uint32_t)set * 0x9E3779B1u ^ (uint32_t)(r + 1) * 0x85EBCA77u) ^ (uint32_t)i * 0xC2B2AE3Du);
  const double frac = (double)(h >> 8) / 16777216.0; /* [0, 1), 24 bits */
  const double big = set == 1 ? 1e8 : 1e16, ulp = set == 1 ? 8 : 2;
  if (set == 0) /* the small set: one +1e16 and one -1e16 per element, the rest near 1 ulp */
    return r == i % np ? big : r == (i + 1) % np ? -big : (frac - 0.5) * 5 * ulp;
  switch (h % 8) {
    case 0:
    case 1:
    case 2:
    case 3: return (h & 16 ? -big : big) * (double)(1 + (h >> 5) % 4);
    case 4:
    case 5: return (frac - 0.5) * 5 * ulp;
    case 6: return 1.0;
    default: return frac * ldexp(1.0, (int)(h % 40) - 20) * (h & 32 ? -1 : 1);
  }
}

typedef struct {
  const char* name;
  MPI_Datatype type;
  size_t size;
  long count;
  int reps;
} Set;

static void load(const Set* s, int set, int r, void* out) {
  for (long i = 0; i < s->count; ++i) {
    const double v = value(set, r, i);
    if (s->type == MPI_FLOAT) ((float*)out)[i] = (float)v;
    else ((double*)out)[i] = v;
  }
}
static long double elem(const Set* s, const void* p, long i) {
  return s->type == MPI_FLOAT ? (long double)((const float*)p)[i] : (long double)((const double*)p)[i];
}

static void run_set(int set, const Set* s) {
  const size_t bytes = (size_t)s->count * s->size;
  unsigned char *in = malloc(bytes), *first = malloc(bytes), *res = malloc(bytes), *other = malloc(bytes);
  CHECK(in && first && res && other, "malloc");
  load(s, set, me, in);
  /* the bound any summation order meets, and whether the order matters: the sum in rank
   * order against reverse order, rank 1 moved last, and a pairwise tree */
  long double* exact = calloc((size_t)s->count, sizeof(long double));
  long double* absum = calloc((size_t)s->count, sizeof(long double));
  double* vals = malloc((size_t)np * sizeof(double));
  CHECK(exact && absum && vals, "malloc");
  long sensitive = 0;
  for (long i = 0; i < s->count; ++i) {
    for (int r = 0; r < np; ++r) {
      vals[r] = s->type == MPI_FLOAT ? (double)(float)value(set, r, i) : value(set, r, i);
      exact[i] += vals[r];
      absum[i] += fabsl((long double)vals[r]);
    }
    double sums[4];
    for (int order = 0; order < 4; ++order) {
      double t[64];
      for (int r = 0; r < np; ++r) /* 0: rank order, 1: reverse, 2: rank 1 last, 3: pairwise */
        t[r] = vals[order == 1 ? np - 1 - r : order == 2 && np > 1 ? (r == np - 1 ? 1 : r < 1 ? r : r + 1) : r];
      if (order == 3) /* pairwise */
        for (int w = 1; w < np; w *= 2)
          for (int r = 0; r + w < np; r += 2 * w)
            t[r] = s->type == MPI_FLOAT ? (double)((float)t[r] + (float)t[r + w]) : t[r] + t[r + w];
      else
        for (int r = 1; r < np; ++r) t[0] = s->type == MPI_FLOAT ? (double)((float)t[0] + (float)t[r]) : t[0] + t[r];
      sums[order] = t[0];
    }
    sensitive += sums[1] != sums[0] || sums[2] != sums[0] || sums[3] != sums[0];
  }
  if (np >= 3) {
    EXPECT(sensitive * 8 >= s->count, "%s: only %ld of %ld elements depend on the order of summation", s->name,
           sensitive, s->count);
  }
  const long double eps = s->type == MPI_FLOAT ? FLT_EPSILON : DBL_EPSILON;
  for (int rep = 0; rep < s->reps; ++rep) {
    memset(res, 0xA5, bytes);
    CHECK_MPI(MPI_Allreduce(in, res, (int)s->count, s->type, MPI_SUM, MPI_COMM_WORLD));
    if (rep == 0) {
      memcpy(first, res, bytes);
      for (long i = 0; i < s->count; ++i) {
        const long double got = elem(s, res, i), err = fabsl(got - exact[i]), bound = np * eps * absum[i];
        EXPECT(err <= bound, "%s element %ld: sum %.21Lg is %.3Lg away from the exact %.21Lg (bound %.3Lg)", s->name, i,
               got, err, exact[i], bound);
      }
      continue;
    }
    ++nchecks;
    if (memcmp(res, first, bytes) == 0) continue;
    for (long i = 0; i < s->count; ++i) {
      const unsigned char* a = res + (size_t)i * s->size;
      const unsigned char* b = first + (size_t)i * s->size;
      CHECK(memcmp(a, b, s->size) == 0, "%s repetition %d, element %ld: %.21Lg, but repetition 0 gave %.21Lg", s->name,
            rep, i, elem(s, res, i), elem(s, first, i));
    }
  }
  /* every rank's result equals rank 0's and the last rank's */
  const int roots[2] = {0, np - 1};
  for (int k = 0; k < 2; ++k) {
    memcpy(other, first, bytes);
    CHECK_MPI(MPI_Bcast(other, (int)bytes, MPI_BYTE, roots[k], MPI_COMM_WORLD));
    for (long i = 0; i < s->count; ++i)
      EXPECT(memcmp(other + (size_t)i * s->size, first + (size_t)i * s->size, s->size) == 0,
             "%s element %ld: rank %d got %.21Lg, rank %d got %.21Lg", s->name, i, me, elem(s, first, i), roots[k],
             elem(s, other, i));
  }
  /* the input was not touched */
  load(s, set, me, other);
  EXPECT(memcmp(in, other, bytes) == 0, "%s: MPI_Allreduce changed the send buffer", s->name);
  free(in), free(first), free(res), free(other), free(vals), free(exact), free(absum);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  CHECK(np <= 64, "at most 64 ranks");
  const int reps = argc > 1 ? atoi(argv[1]) : 100;
  CHECK(reps >= 1, "REPS must be positive");
  const Set sets[3] = {{"5 doubles", MPI_DOUBLE, sizeof(double), 5, reps},
                       {"1001 floats", MPI_FLOAT, sizeof(float), 1001, reps},
                       {"131075 doubles", MPI_DOUBLE, sizeof(double), 131075, reps / 5 > 0 ? reps / 5 : 1}};
  for (int s = 0; s < 3; ++s) run_set(s, &sets[s]);
  coll_finish("coll_determinism");
  return 0;
}
