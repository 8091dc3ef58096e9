/* groups: process groups as MPI-4.1 7.3 specifies them: MPI_Comm_group of MPI_COMM_WORLD
 * and MPI_COMM_SELF, size/rank/translate_ranks/compare, the set constructors with the
 * standard's member order, incl/excl/range_incl/range_excl, MPI_GROUP_EMPTY results,
 * MPI_Group_free, and the error classes under MPI_ERRORS_RETURN. Expected member lists
 * are computed by a naive reference of the standard's definitions here and, at 4 ranks,
 * also written out by hand.
 *
 * Error classes: the standard makes bad rank arguments erroneous without naming a class;
 * the test expects the class whose definition (MPI-4.1 9.4) fits: a rank that is out of
 * range or repeated, directly or computed from a range (range_incl is defined as
 * expanding the ranges and calling MPI_Group_incl) is MPI_ERR_RANK, a negative count or
 * a malformed range (zero stride, a stride that does not lead from first to last) is
 * MPI_ERR_ARG, a bad group handle MPI_ERR_GROUP.
 *
 * Peer deviations, each tolerated only where its variable is set (tests/peer):
 *   GROUPS_PROC_NULL_WITH_EMPTY_UNDEFINED (MPICH 4.0, Open MPI 4.1) translate_ranks to (and,
 *                                   Open MPI, from) MPI_GROUP_EMPTY turns MPI_PROC_NULL into
 *                                   MPI_UNDEFINED
 *   GROUPS_NO_DUPLICATE_CHECK       (MPICH 4.0, Open MPI 4.1) incl/excl accept a repeated rank
 *   GROUPS_NEGATIVE_N_UNCHECKED     (Open MPI 4.1) a negative n is accepted or MPI_ERR_GROUP
 *   GROUPS_EXCL_N_ABOVE_SIZE_IS_ERR_GROUP (Open MPI 4.1) excl of more ranks than the group
 *                                   has is MPI_ERR_GROUP
 *   GROUPS_TRANSLATE_NO_RANK_CHECK  (Open MPI 4.1) translate_ranks accepts an out-of-range rank
 *                                   (and reads out of bounds: the check would crash it)
 *   GROUPS_RANGE_RANK_ERRORS_ARE_ARG (MPICH 4.0) a range's bad computed rank is MPI_ERR_ARG
 *   GROUPS_RANGE_ARG_ERRORS_ARE_RANK (Open MPI 4.1) a zero or misdirected stride is MPI_ERR_RANK
 *   GROUPS_RANGE_LAST_MUST_BE_VALID (Open MPI 4.1) refuses a range whose last is out of range
 *                                   even when no computed rank is
 * GROUPS_PEER=1 skips shmpi's promises beyond the standard (a freed handle is an error,
 * NULL output arguments, the message text, MPI_GROUP_EMPTY handles for every empty result,
 * freeing the MPI_GROUP_EMPTY handle itself repeatedly).
 * Usage: groups */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAXN 64
/* A negative rank that is not MPI_PROC_NULL (-1 in MPICH) */
#define NEGATIVE (MPI_PROC_NULL == -1 ? -2 : -1)

static int rank, size, peer;

static int env(const char* name) { return getenv(name) != NULL; }

static void check_class(int rc, int expected, const char* what) {
  int cls = -1;
  CHECK(rc != MPI_SUCCESS, "%s succeeded, expected class %d", what, expected);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == expected, "%s: class %d, expected %d", what, cls, expected);
}

/* shmpi only: the error string names the call and the argument. */
static void check_text(int rc, const char* expected) {
  if (peer) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(strstr(text, expected) != NULL, "error text \"%s\" does not contain \"%s\"", text, expected);
}

/* The world ranks of g's members, in group order; returns the size. */
static int members(MPI_Group g, int out[MAXN]) {
  MPI_Group world;
  int n = -1, in[MAXN];
  CHECK_MPI(MPI_Group_size(g, &n));
  CHECK(n >= 0 && n <= MAXN, "group size %d", n);
  for (int i = 0; i < n; ++i) in[i] = i;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_translate_ranks(g, n, in, world, out));
  CHECK_MPI(MPI_Group_free(&world));
  return n;
}

/* g holds exactly the world ranks expect[0..n-1], in that order, and MPI_Group_rank
 * agrees with where this process appears. */
static void check_members(MPI_Group g, const int* expect, int n, const char* what) {
  int got[MAXN], r = -2, mine = MPI_UNDEFINED;
  const int m = members(g, got);
  CHECK(m == n, "%s: size %d, expected %d", what, m, n);
  for (int i = 0; i < n; ++i) {
    CHECK(got[i] == expect[i], "%s: group rank %d is world rank %d, expected %d", what, i, got[i], expect[i]);
    if (expect[i] == rank) mine = i;
  }
  CHECK_MPI(MPI_Group_rank(g, &r));
  CHECK(r == mine, "%s: MPI_Group_rank %d, expected %d", what, r, mine);
}

static void check_compare(MPI_Group a, MPI_Group b, int expected, const char* what) {
  int result = -1;
  CHECK_MPI(MPI_Group_compare(a, b, &result));
  CHECK(result == expected, "%s: MPI_Group_compare %d, expected %d", what, result, expected);
  CHECK_MPI(MPI_Group_compare(b, a, &result));
  CHECK(result == expected, "%s (swapped): MPI_Group_compare %d, expected %d", what, result, expected);
}

static int contains(const int* list, int n, int x) {
  for (int i = 0; i < n; ++i) {
    if (list[i] == x) return 1;
  }
  return 0;
}

/* The standard's definitions (MPI-4.1 7.3.2), naively. */
static int ref_union(const int* a, int na, const int* b, int nb, int* out) {
  int n = 0;
  for (int i = 0; i < na; ++i) out[n++] = a[i];
  for (int i = 0; i < nb; ++i) {
    if (!contains(a, na, b[i])) out[n++] = b[i];
  }
  return n;
}
static int ref_intersection(const int* a, int na, const int* b, int nb, int* out) {
  int n = 0;
  for (int i = 0; i < na; ++i) {
    if (contains(b, nb, a[i])) out[n++] = a[i];
  }
  return n;
}
static int ref_difference(const int* a, int na, const int* b, int nb, int* out) {
  int n = 0;
  for (int i = 0; i < na; ++i) {
    if (!contains(b, nb, a[i])) out[n++] = a[i];
  }
  return n;
}

static void free_group(MPI_Group* g) {
  CHECK_MPI(MPI_Group_free(g));
  CHECK(*g == MPI_GROUP_NULL, "MPI_Group_free did not set MPI_GROUP_NULL");
}

static void basics(void) {
  MPI_Group world, world2, self;
  int all[MAXN], r = -2, n = -1;
  for (int i = 0; i < size; ++i) all[i] = i;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  check_members(world, all, size, "MPI_Comm_group(MPI_COMM_WORLD)");
  CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  check_members(self, &rank, 1, "MPI_Comm_group(MPI_COMM_SELF)");
  CHECK_MPI(MPI_Group_rank(self, &r));
  CHECK(r == 0, "rank in the self group %d", r);

  /* MPI_GROUP_EMPTY: no members, nobody's rank. */
  CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
  CHECK(n == 0, "MPI_GROUP_EMPTY has size %d", n);
  CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
  CHECK(r == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY %d", r);

  /* compare */
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world2));
  check_compare(world, world2, MPI_IDENT, "two MPI_Comm_group(MPI_COMM_WORLD)");
  check_compare(world, world, MPI_IDENT, "a group with itself");
  check_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, MPI_IDENT, "MPI_GROUP_EMPTY with itself");
  check_compare(self, self, MPI_IDENT, "self with itself");
  check_compare(world, self, size == 1 ? MPI_IDENT : MPI_UNEQUAL, "world with self");
  check_compare(world, MPI_GROUP_EMPTY, MPI_UNEQUAL, "world with MPI_GROUP_EMPTY");

  /* translate_ranks: world -> self, -> empty, MPI_PROC_NULL stays MPI_PROC_NULL. */
  int in[MAXN + 1], out[MAXN + 1];
  for (int i = 0; i < size; ++i) in[i] = i;
  in[size] = MPI_PROC_NULL;
  CHECK_MPI(MPI_Group_translate_ranks(world, size + 1, in, self, out));
  for (int i = 0; i < size; ++i) {
    const int expect = i == rank ? 0 : MPI_UNDEFINED;
    CHECK(out[i] == expect, "world rank %d in the self group: %d, expected %d", i, out[i], expect);
  }
  CHECK(out[size] == MPI_PROC_NULL, "MPI_PROC_NULL translated to %d", out[size]);
  CHECK_MPI(MPI_Group_translate_ranks(world, size + 1, in, MPI_GROUP_EMPTY, out));
  for (int i = 0; i < size; ++i) CHECK(out[i] == MPI_UNDEFINED, "world rank %d in MPI_GROUP_EMPTY: %d", i, out[i]);
  if (!env("GROUPS_PROC_NULL_WITH_EMPTY_UNDEFINED")) {
    CHECK(out[size] == MPI_PROC_NULL, "MPI_PROC_NULL translated into MPI_GROUP_EMPTY: %d", out[size]);
  }
  in[0] = 0;
  CHECK_MPI(MPI_Group_translate_ranks(self, 1, in, world, out));
  CHECK(out[0] == rank, "self rank 0 in world: %d", out[0]);
  in[0] = MPI_PROC_NULL;
  CHECK_MPI(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, in, world, out));
  if (!env("GROUPS_PROC_NULL_WITH_EMPTY_UNDEFINED")) {
    CHECK(out[0] == MPI_PROC_NULL, "MPI_PROC_NULL from MPI_GROUP_EMPTY: %d", out[0]);
  }
  out[0] = 12345;
  CHECK_MPI(MPI_Group_translate_ranks(world, 0, in, self, out));
  CHECK(out[0] == 12345, "n = 0 wrote to ranks2");

  free_group(&world2);
  free_group(&self);
  free_group(&world);
}

static void constructors(void) {
  MPI_Group world, rev, evens, odds, g, g2;
  int all[MAXN], expect[MAXN], ranks[MAXN], nevens = 0, nodds = 0;
  int even_list[MAXN], odd_list[MAXN], rev_list[MAXN];
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  for (int i = 0; i < size; ++i) {
    all[i] = i;
    rev_list[i] = size - 1 - i;
    if (i % 2 == 0) even_list[nevens++] = i;
    else odd_list[nodds++] = i;
  }

  /* incl: order as given; n = 0 is MPI_GROUP_EMPTY. */
  CHECK_MPI(MPI_Group_incl(world, size, rev_list, &rev));
  check_members(rev, rev_list, size, "incl reversed");
  check_compare(world, rev, size == 1 ? MPI_IDENT : MPI_SIMILAR, "world with its reverse");
  CHECK_MPI(MPI_Group_incl(world, nevens, even_list, &evens));
  check_members(evens, even_list, nevens, "incl evens");
  check_compare(world, evens, size == 1 ? MPI_IDENT : MPI_UNEQUAL, "world with evens");
  CHECK_MPI(MPI_Group_incl(world, 0, ranks, &g));
  CHECK(g == MPI_GROUP_EMPTY, "incl of n = 0 is not MPI_GROUP_EMPTY");
  free_group(&g);
  /* incl of a reordered group indexes that group's ranks. */
  ranks[0] = 0;
  CHECK_MPI(MPI_Group_incl(rev, 1, ranks, &g));
  check_members(g, &rev_list[0], 1, "incl of rev's rank 0");
  free_group(&g);

  /* excl: the rest in group order; n = 0 gives an identical group. */
  ranks[0] = 0;
  CHECK_MPI(MPI_Group_excl(world, 1, ranks, &g));
  check_members(g, all + 1, size - 1, "excl world rank 0");
  free_group(&g);
  CHECK_MPI(MPI_Group_excl(rev, nevens, even_list, &odds));  /* rev ranks 0, 2, ... */
  {
    int n = 0;
    for (int i = 0; i < size; ++i) {
      if (i % 2 == 1) expect[n++] = rev_list[i];
    }
    check_members(odds, expect, n, "excl of rev's even ranks");
  }
  free_group(&odds);
  CHECK_MPI(MPI_Group_excl(rev, 0, ranks, &g));
  check_members(g, rev_list, size, "excl of n = 0");
  check_compare(g, rev, MPI_IDENT, "excl of n = 0 with its group");
  free_group(&g);
  CHECK_MPI(MPI_Group_excl(world, size, all, &g));
  check_compare(g, MPI_GROUP_EMPTY, MPI_IDENT, "excl of everyone with MPI_GROUP_EMPTY");
  if (!peer) CHECK(g == MPI_GROUP_EMPTY, "excl of everyone is not MPI_GROUP_EMPTY");
  free_group(&g);

  /* range_incl: first, first + stride, ..., up to last; several triplets in order. */
  {
    int rg[2][3] = {{size - 1, 0, -1}, {0, 0, 1}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, rg, &g));
    check_members(g, rev_list, size, "range_incl (size-1, 0, -1)");
    check_compare(g, rev, MPI_IDENT, "range_incl reversed with incl reversed");
    free_group(&g);
    int n = 0;
    if (size >= 2) {
      int rg2[2][3] = {{1, size - 1, 2}, {0, size - 1, 2}};  /* odds, then evens */
      CHECK_MPI(MPI_Group_range_incl(world, 2, rg2, &g));
      for (int i = 0; i < nodds; ++i) expect[n++] = odd_list[i];
      for (int i = 0; i < nevens; ++i) expect[n++] = even_list[i];
      check_members(g, expect, n, "range_incl odds then evens");
      if (size == 4) {
        const int lit[] = {1, 3, 0, 2};
        check_members(g, lit, 4, "range_incl odds then evens, at 4 ranks");
      }
      free_group(&g);
    }
    /* A stride past last computes first alone; last need not be a valid rank itself. */
    int rg3[1][3] = {{0, 0, 7}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, rg3, &g));
    check_members(g, all, 1, "range_incl (0, 0, 7)");
    free_group(&g);
    if (!env("GROUPS_RANGE_LAST_MUST_BE_VALID")) {
      int rg4[1][3] = {{0, size + 1, size + 2}};
      CHECK_MPI(MPI_Group_range_incl(world, 1, rg4, &g));
      check_members(g, all, 1, "range_incl (0, size + 1, size + 2)");
      free_group(&g);
    }
    /* (first, last) in either order with the stride's sign; a partial last step. */
    if (size >= 3) {
      int rg5[1][3] = {{size - 1, 0, -2}};
      CHECK_MPI(MPI_Group_range_incl(world, 1, rg5, &g));
      n = 0;
      for (int i = size - 1; i >= 0; i -= 2) expect[n++] = i;
      check_members(g, expect, n, "range_incl (size-1, 0, -2)");
      free_group(&g);
    }
    CHECK_MPI(MPI_Group_range_incl(world, 0, rg, &g));
    CHECK(g == MPI_GROUP_EMPTY, "range_incl of n = 0 is not MPI_GROUP_EMPTY");
    free_group(&g);

    /* range_excl: the rest, in group order. */
    int rg6[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_excl(world, 1, rg6, &g));
    check_members(g, odd_list, nodds, "range_excl evens");
    free_group(&g);
    CHECK_MPI(MPI_Group_range_excl(rev, 1, rg6, &g));  /* rev's even ranks */
    n = 0;
    for (int i = 1; i < size; i += 2) expect[n++] = rev_list[i];
    check_members(g, expect, n, "range_excl of rev's even ranks");
    free_group(&g);
    CHECK_MPI(MPI_Group_range_excl(world, 1, rg, &g));  /* everyone */
    check_compare(g, MPI_GROUP_EMPTY, MPI_IDENT, "range_excl of everyone with MPI_GROUP_EMPTY");
    if (!peer) CHECK(g == MPI_GROUP_EMPTY, "range_excl of everyone is not MPI_GROUP_EMPTY");
    free_group(&g);
    CHECK_MPI(MPI_Group_range_excl(rev, 0, rg, &g));
    check_compare(g, rev, MPI_IDENT, "range_excl of n = 0 with its group");
    free_group(&g);
  }

  /* union / intersection / difference, both argument orders, against the reference. */
  {
    struct {
      MPI_Group g;
      const int* list;
      int n;
    } sets[] = {{world, all, size}, {rev, rev_list, size}, {evens, even_list, nevens},
                {MPI_GROUP_EMPTY, all, 0}};
    const int nsets = (int)(sizeof sets / sizeof sets[0]);
    for (int i = 0; i < nsets; ++i) {
      for (int j = 0; j < nsets; ++j) {
        char what[96];
        int n;
        CHECK_MPI(MPI_Group_union(sets[i].g, sets[j].g, &g));
        n = ref_union(sets[i].list, sets[i].n, sets[j].list, sets[j].n, expect);
        snprintf(what, sizeof what, "union of sets %d and %d", i, j);
        check_members(g, expect, n, what);
        if (n == 0) CHECK(g == MPI_GROUP_EMPTY, "%s: empty but not MPI_GROUP_EMPTY", what);
        free_group(&g);
        CHECK_MPI(MPI_Group_intersection(sets[i].g, sets[j].g, &g));
        n = ref_intersection(sets[i].list, sets[i].n, sets[j].list, sets[j].n, expect);
        snprintf(what, sizeof what, "intersection of sets %d and %d", i, j);
        check_members(g, expect, n, what);
        if (n == 0) CHECK(g == MPI_GROUP_EMPTY, "%s: empty but not MPI_GROUP_EMPTY", what);
        free_group(&g);
        CHECK_MPI(MPI_Group_difference(sets[i].g, sets[j].g, &g));
        n = ref_difference(sets[i].list, sets[i].n, sets[j].list, sets[j].n, expect);
        snprintf(what, sizeof what, "difference of sets %d and %d", i, j);
        check_members(g, expect, n, what);
        if (n == 0) CHECK(g == MPI_GROUP_EMPTY, "%s: empty but not MPI_GROUP_EMPTY", what);
        free_group(&g);
      }
    }
    if (size == 4) { /* the reference itself, checked by hand: rev = 3 2 1 0, evens = 0 2 */
      const int u1[] = {0, 2, 3, 1}, u2[] = {3, 2, 1, 0}, i1[] = {2, 0}, i2[] = {0, 2}, d1[] = {3, 1};
      CHECK_MPI(MPI_Group_union(evens, rev, &g));
      check_members(g, u1, 4, "union(evens, rev)");
      free_group(&g);
      CHECK_MPI(MPI_Group_union(rev, evens, &g));
      check_members(g, u2, 4, "union(rev, evens)");
      free_group(&g);
      CHECK_MPI(MPI_Group_intersection(rev, evens, &g));
      check_members(g, i1, 2, "intersection(rev, evens)");
      free_group(&g);
      CHECK_MPI(MPI_Group_intersection(evens, rev, &g));
      check_members(g, i2, 2, "intersection(evens, rev)");
      free_group(&g);
      CHECK_MPI(MPI_Group_difference(rev, evens, &g));
      check_members(g, d1, 2, "difference(rev, evens)");
      free_group(&g);
      CHECK_MPI(MPI_Group_difference(evens, rev, &g));
      CHECK(g == MPI_GROUP_EMPTY, "difference(evens, rev) is not MPI_GROUP_EMPTY");
      free_group(&g);
    }
    /* a union of two groups that share no one: self and the others */
    MPI_Group self, others;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
    ranks[0] = rank;
    CHECK_MPI(MPI_Group_excl(world, 1, ranks, &others));
    CHECK_MPI(MPI_Group_union(self, others, &g));
    expect[0] = rank;
    for (int i = 0, n = 1; i < size; ++i) {
      if (i != rank) expect[n++] = i;
    }
    check_members(g, expect, size, "union(self, the others)");
    check_compare(g, world, size == 1 || rank == 0 ? MPI_IDENT : MPI_SIMILAR, "union(self, others) with world");
    CHECK_MPI(MPI_Group_intersection(self, others, &g2));
    CHECK(g2 == MPI_GROUP_EMPTY, "intersection(self, others) is not MPI_GROUP_EMPTY");
    free_group(&g2);
    free_group(&g);
    free_group(&others);
    free_group(&self);
  }

  /* A group outlives the group it was built from. */
  CHECK_MPI(MPI_Group_incl(rev, size, all, &g));
  free_group(&rev);
  check_members(g, rev_list, size, "incl of rev after freeing rev");
  free_group(&g);

  /* shmpi: MPI_GROUP_EMPTY itself may be freed any number of times (the constructors
   * return it, so its handle is freed like theirs): the handle becomes MPI_GROUP_NULL and
   * MPI_GROUP_EMPTY stays usable. (Open MPI 4.1 crashes on the second such free.) */
  if (!peer) {
    for (int i = 0; i < 3; ++i) {
      g = MPI_GROUP_EMPTY;
      free_group(&g);
    }
    int n = -1;
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK(n == 0, "MPI_GROUP_EMPTY after a free: size %d", n);
  }
  free_group(&evens);
  free_group(&world);
}

static void errors(void) {
  MPI_Group world, g = MPI_GROUP_NULL, null = MPI_GROUP_NULL;
  int n = -1, r = -1, in[MAXN + 2], out[MAXN + 2];
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  for (int i = 0; i < size; ++i) in[i] = i;

  /* Bad handles: MPI_ERR_GROUP (MPI_COMM_NULL: MPI_ERR_COMM). */
  check_class(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM, "MPI_Comm_group(MPI_COMM_NULL)");
  check_class(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP, "MPI_Group_size(MPI_GROUP_NULL)");
  check_class(MPI_Group_rank(MPI_GROUP_NULL, &r), MPI_ERR_GROUP, "MPI_Group_rank(MPI_GROUP_NULL)");
  check_class(MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, in, world, out), MPI_ERR_GROUP,
              "MPI_Group_translate_ranks(group1 MPI_GROUP_NULL)");
  check_class(MPI_Group_translate_ranks(world, 1, in, MPI_GROUP_NULL, out), MPI_ERR_GROUP,
              "MPI_Group_translate_ranks(group2 MPI_GROUP_NULL)");
  check_class(MPI_Group_compare(MPI_GROUP_NULL, world, &r), MPI_ERR_GROUP, "MPI_Group_compare(MPI_GROUP_NULL, world)");
  check_class(MPI_Group_compare(world, MPI_GROUP_NULL, &r), MPI_ERR_GROUP, "MPI_Group_compare(world, MPI_GROUP_NULL)");
  check_class(MPI_Group_union(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP, "MPI_Group_union(MPI_GROUP_NULL, world)");
  check_class(MPI_Group_union(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP, "MPI_Group_union(world, MPI_GROUP_NULL)");
  check_class(MPI_Group_intersection(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP, "MPI_Group_intersection(NULL, world)");
  check_class(MPI_Group_intersection(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP, "MPI_Group_intersection(world, NULL)");
  check_class(MPI_Group_difference(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP, "MPI_Group_difference(NULL, world)");
  check_class(MPI_Group_difference(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP, "MPI_Group_difference(world, NULL)");
  check_class(MPI_Group_incl(MPI_GROUP_NULL, 1, in, &g), MPI_ERR_GROUP, "MPI_Group_incl(MPI_GROUP_NULL)");
  check_class(MPI_Group_excl(MPI_GROUP_NULL, 1, in, &g), MPI_ERR_GROUP, "MPI_Group_excl(MPI_GROUP_NULL)");
  int rg[1][3] = {{0, 0, 1}};
  check_class(MPI_Group_range_incl(MPI_GROUP_NULL, 1, rg, &g), MPI_ERR_GROUP, "MPI_Group_range_incl(MPI_GROUP_NULL)");
  check_class(MPI_Group_range_excl(MPI_GROUP_NULL, 1, rg, &g), MPI_ERR_GROUP, "MPI_Group_range_excl(MPI_GROUP_NULL)");
  check_class(MPI_Group_free(&null), MPI_ERR_GROUP, "MPI_Group_free(MPI_GROUP_NULL)");

  /* translate_ranks: a rank outside group1 is MPI_ERR_RANK; a negative n MPI_ERR_ARG. */
  if (!env("GROUPS_TRANSLATE_NO_RANK_CHECK")) {
    in[0] = 0;
    in[1] = size;
    int rc = MPI_Group_translate_ranks(world, 2, in, world, out);
    check_class(rc, MPI_ERR_RANK, "MPI_Group_translate_ranks(ranks1[1] = size)");
    check_text(rc, "MPI_Group_translate_ranks: ranks1[1]");
    in[1] = NEGATIVE;
    check_class(MPI_Group_translate_ranks(world, 2, in, world, out), MPI_ERR_RANK, "translate_ranks(ranks1[1] < 0)");
    in[0] = 0;
    check_class(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, in, world, out), MPI_ERR_RANK,
                "translate_ranks(rank 0 of MPI_GROUP_EMPTY)");
  }
  if (!env("GROUPS_NEGATIVE_N_UNCHECKED")) {
    check_class(MPI_Group_translate_ranks(world, -1, in, world, out), MPI_ERR_ARG, "translate_ranks(n = -1)");
    check_class(MPI_Group_incl(world, -1, in, &g), MPI_ERR_ARG, "MPI_Group_incl(n = -1)");
    check_class(MPI_Group_excl(world, -1, in, &g), MPI_ERR_ARG, "MPI_Group_excl(n = -1)");
    check_class(MPI_Group_range_incl(world, -1, rg, &g), MPI_ERR_ARG, "MPI_Group_range_incl(n = -1)");
    check_class(MPI_Group_range_excl(world, -1, rg, &g), MPI_ERR_ARG, "MPI_Group_range_excl(n = -1)");
  }

  /* incl/excl: every rank valid (MPI_ERR_RANK) and distinct (MPI_ERR_RANK). */
  for (int incl = 1; incl >= 0; --incl) {
    int (*f)(MPI_Group, int, const int[], MPI_Group*) = incl ? MPI_Group_incl : MPI_Group_excl;
    const char* name = incl ? "MPI_Group_incl" : "MPI_Group_excl";
    char what[96];
    int ranks[3] = {0, size, 0};
    int rc = f(world, 2, ranks, &g);
    snprintf(what, sizeof what, "%s(ranks[1] = size)", name);
    check_class(rc, MPI_ERR_RANK, what);
    char text[96];
    snprintf(text, sizeof text, "%s: ranks[1] = %d is out of range (group size %d)", name, size, size);
    check_text(rc, text);
    ranks[1] = NEGATIVE;
    snprintf(what, sizeof what, "%s(ranks[1] < 0)", name);
    check_class(f(world, 2, ranks, &g), MPI_ERR_RANK, what);
    ranks[1] = MPI_PROC_NULL;
    snprintf(what, sizeof what, "%s(ranks[1] = MPI_PROC_NULL)", name);
    check_class(f(world, 2, ranks, &g), MPI_ERR_RANK, what);
    snprintf(what, sizeof what, "%s(rank 0 of MPI_GROUP_EMPTY)", name);
    check_class(f(MPI_GROUP_EMPTY, 1, ranks, &g),
                !incl && env("GROUPS_EXCL_N_ABOVE_SIZE_IS_ERR_GROUP") ? MPI_ERR_GROUP : MPI_ERR_RANK, what);
    if (!env("GROUPS_NO_DUPLICATE_CHECK")) {
      ranks[1] = 0;
      rc = f(world, 2, ranks, &g);
      snprintf(what, sizeof what, "%s(ranks 0, 0)", name);
      check_class(rc, MPI_ERR_RANK, what);
      snprintf(text, sizeof text, "%s: ranks[1] = 0 repeats ranks[0]", name);
      check_text(rc, text);
      /* more ranks than the group has: one must repeat */
      for (int i = 0; i <= size; ++i) in[i] = i % size;
      snprintf(what, sizeof what, "%s(n = size + 1)", name);
      check_class(f(world, size + 1, in, &g), MPI_ERR_RANK, what);
    }
  }

  /* range_incl/range_excl */
  const int range_rank_class = env("GROUPS_RANGE_RANK_ERRORS_ARE_ARG") ? MPI_ERR_ARG : MPI_ERR_RANK;
  const int range_arg_class = env("GROUPS_RANGE_ARG_ERRORS_ARE_RANK") ? MPI_ERR_RANK : MPI_ERR_ARG;
  for (int incl = 1; incl >= 0; --incl) {
    int (*f)(MPI_Group, int, int[][3], MPI_Group*) = incl ? MPI_Group_range_incl : MPI_Group_range_excl;
    const char* name = incl ? "MPI_Group_range_incl" : "MPI_Group_range_excl";
    char what[96], text[128];
    int zero[1][3] = {{0, size - 1, 0}};
    int rc = f(world, 1, zero, &g);
    snprintf(what, sizeof what, "%s(stride 0)", name);
    check_class(rc, range_arg_class, what);
    snprintf(text, sizeof text, "%s: ranges[0] = (0, %d, 0): the stride is 0", name, size - 1);
    check_text(rc, text);
    if (size >= 2) {
      int wrong_way[1][3] = {{size - 1, 0, 1}};
      snprintf(what, sizeof what, "%s(first > last, stride > 0)", name);
      check_class(f(world, 1, wrong_way, &g), range_arg_class, what);
      int wrong_way2[1][3] = {{0, size - 1, -1}};
      snprintf(what, sizeof what, "%s(first < last, stride < 0)", name);
      check_class(f(world, 1, wrong_way2, &g), range_arg_class, what);
    }
    int first_out[1][3] = {{size, size, 1}};
    snprintf(what, sizeof what, "%s(first = size)", name);
    check_class(f(world, 1, first_out, &g), range_rank_class, what);
    int negative[1][3] = {{-1, 0, 1}};
    snprintf(what, sizeof what, "%s(first = -1)", name);
    check_class(f(world, 1, negative, &g), range_rank_class, what);
    int computed_out[1][3] = {{0, size, 1}};  /* computes rank size */
    rc = f(world, 1, computed_out, &g);
    snprintf(what, sizeof what, "%s(0, size, 1)", name);
    check_class(rc, range_rank_class, what);
    snprintf(text, sizeof text, "%s: ranges[0] = (0, %d, 1) computes rank %d, which is out of range", name, size, size);
    check_text(rc, text);
    int twice[2][3] = {{0, size - 1, 1}, {size - 1, size - 1, 1}};
    rc = f(world, 2, twice, &g);
    snprintf(what, sizeof what, "%s(a rank in two triplets)", name);
    check_class(rc, range_rank_class, what);
    snprintf(text, sizeof text, "%s: ranges[1] = (%d, %d, 1) computes rank %d, which ranges[0] computed already", name,
             size - 1, size - 1, size - 1);
    check_text(rc, text);
    snprintf(what, sizeof what, "%s(rank 0 of MPI_GROUP_EMPTY)", name);
    int first_empty[1][3] = {{0, 0, 1}};
    check_class(f(MPI_GROUP_EMPTY, 1, first_empty, &g), range_rank_class, what);
  }
  if (!peer) {
    CHECK(g == MPI_GROUP_NULL, "a failed constructor wrote newgroup");
    /* shmpi: a freed or garbage handle is an error, not a crash; NULL outputs are
     * MPI_ERR_ARG; an error message names the call and the argument. */
    MPI_Group freed;
    CHECK_MPI(MPI_Group_incl(world, 1, in, &freed));
    MPI_Group copy = freed;
    free_group(&freed);
    int rc = MPI_Group_size(copy, &n);
    check_class(rc, MPI_ERR_GROUP, "MPI_Group_size(a freed group)");
    check_text(rc, "MPI_Group_size: group is not a valid group");
    check_class(MPI_Group_free(&copy), MPI_ERR_GROUP, "MPI_Group_free(a freed group)");
    MPI_Group garbage;
    memset(&garbage, 0x5a, sizeof garbage);
    check_class(MPI_Group_size(garbage, &n), MPI_ERR_GROUP, "MPI_Group_size(garbage)");
    rc = MPI_Group_size(MPI_GROUP_NULL, &n);
    check_text(rc, "MPI_Group_size: group is MPI_GROUP_NULL");
    rc = MPI_Group_union(world, MPI_GROUP_NULL, &g);
    check_text(rc, "MPI_Group_union: group2 is MPI_GROUP_NULL");
    check_class(MPI_Group_size(world, NULL), MPI_ERR_ARG, "MPI_Group_size(size NULL)");
    check_class(MPI_Group_rank(world, NULL), MPI_ERR_ARG, "MPI_Group_rank(rank NULL)");
    check_class(MPI_Group_compare(world, world, NULL), MPI_ERR_ARG, "MPI_Group_compare(result NULL)");
    check_class(MPI_Group_union(world, world, NULL), MPI_ERR_ARG, "MPI_Group_union(newgroup NULL)");
    check_class(MPI_Group_incl(world, 1, NULL, &g), MPI_ERR_ARG, "MPI_Group_incl(ranks NULL)");
    check_class(MPI_Group_range_incl(world, 1, NULL, &g), MPI_ERR_ARG, "MPI_Group_range_incl(ranges NULL)");
    check_class(MPI_Group_translate_ranks(world, 1, in, world, NULL), MPI_ERR_ARG, "translate_ranks(ranks2 NULL)");
    check_class(MPI_Group_free(NULL), MPI_ERR_ARG, "MPI_Group_free(NULL)");
    check_class(MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_group(group NULL)");
    /* huge ranges are checked, not expanded */
    int huge[1][3] = {{0, 2147483647, 1}};
    check_class(MPI_Group_range_incl(world, 1, huge, &g), MPI_ERR_RANK, "range_incl(0, INT_MAX, 1)");
    int huge2[1][3] = {{0, -2147483647 - 1, -1}};
    rc = MPI_Group_range_excl(world, 1, huge2, &g);
    check_class(rc, MPI_ERR_RANK, "range_excl(0, INT_MIN, -1)");
    check_text(rc, "computes rank -1, which is out of range");
    int huge3[1][3] = {{0, 2147483647 - 1, 2147483647}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, huge3, &g));
    const int rank0 = 0;
    check_members(g, &rank0, 1, "range_incl(0, INT_MAX - 1, INT_MAX)");
    free_group(&g);
  }
  free_group(&world);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  peer = env("GROUPS_PEER");
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size <= MAXN, "at most %d ranks", MAXN);
  basics();
  constructors();
  errors();
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
