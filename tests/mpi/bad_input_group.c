/* Bad-input catalogue: groups (docs/errors.md). Every MPI_Group_* call.
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1): MPI_ERR_GROUP (invalid group,
 * MPI_GROUP_NULL included), MPI_ERR_RANK (a rank that is not in the group: translated,
 * included or excluded, 7.3.1-7.3.2). MPI-4.1 7.3.2 makes repeated ranks and malformed
 * ranges erroneous without naming a class: shmpi answers MPI_ERR_RANK for a repeated or
 * computed out-of-range rank and MPI_ERR_ARG for a malformed count or range. NULL
 * output pointers and freed handles are shmpi's promise (IMPL), except where MPICH and
 * Open MPI answer with the same class (STD). Group calls are local. */
#include "bad_input.h"

static MPI_Group worldgroup, deadgroup, newgroup, groupnull = MPI_GROUP_NULL;
static int out, ranks2[2], r_bad[1] = {2}, r_dup[2] = {0, 0}, r_ok[1] = {0};
static int rg_stride0[1][3] = {{0, 1, 0}}, rg_dir[1][3] = {{1, 0, 1}}, rg_out[1][3] = {{0, 2, 1}},
           rg_dup[2][3] = {{0, 0, 1}, {0, 1, 1}}, rg_ok[1][3] = {{0, 0, 1}};

static void setup(void) {
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &worldgroup));
  int n = 0;
  MPI_Group_size(worldgroup, &n);
  CHECK(n == 2, "the group catalogue runs at 2 ranks (rank 2 is out of range)");
  CHECK_MPI(MPI_Group_incl(worldgroup, 1, r_ok, &deadgroup));
  MPI_Group g = deadgroup;
  CHECK_MPI(MPI_Group_free(&g));
  newgroup = MPI_GROUP_NULL;
  watch(&newgroup, sizeof newgroup);
  watch(&groupnull, sizeof groupnull);
  watch(&out, sizeof out);
  watch(ranks2, sizeof ranks2);
}

static void teardown(void) { CHECK_MPI(MPI_Group_free(&worldgroup)); }

#define GROUP_ROWS(X, P, F, ARG, ...)                                                                        \
  X(P##_group, #F, ARG, "MPI_GROUP_NULL", MPI_ERR_GROUP, STD, F(MPI_GROUP_NULL, __VA_ARGS__))               \
  X(P##_group_freed, #F, ARG, "freed group", MPI_ERR_GROUP, IMPL, F(deadgroup, __VA_ARGS__))

/* The two-group calls F(group1, group2, OUT): */
#define TWO_GROUP_ROWS(X, P, F, OUT, OUTNAME)                                                                \
  X(P##_group1, #F, "group1", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD, F(MPI_GROUP_NULL, worldgroup, OUT))     \
  X(P##_group2, #F, "group2", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD, F(worldgroup, MPI_GROUP_NULL, OUT))     \
  X(P##_group1_freed, #F, "group1", "freed group", MPI_ERR_GROUP, IMPL, F(deadgroup, worldgroup, OUT))      \
  X(P##_out, #F, OUTNAME, "NULL", MPI_ERR_ARG, IMPL, F(worldgroup, worldgroup, NULL))

/* MPI_Group_incl / MPI_Group_excl */
#define INCL_ROWS(X, P, F)                                                                                   \
  GROUP_ROWS(X, P, F, "group", 1, r_ok, &newgroup)                                                           \
  X(P##_n, #F, "n", "-1", MPI_ERR_ARG, IMPL, F(worldgroup, -1, r_ok, &newgroup))                              \
  X(P##_ranks, #F, "ranks", "NULL (n 1)", MPI_ERR_ARG, IMPL, F(worldgroup, 1, NULL, &newgroup))              \
  X(P##_rank_range, #F, "ranks[0]", "2 (group size 2)", MPI_ERR_RANK, STD, F(worldgroup, 1, r_bad, &newgroup)) \
  X(P##_rank_repeated, #F, "ranks[1]", "repeats ranks[0]", MPI_ERR_RANK, IMPL, F(worldgroup, 2, r_dup, &newgroup)) \
  X(P##_newgroup, #F, "newgroup", "NULL", MPI_ERR_ARG, IMPL, F(worldgroup, 1, r_ok, NULL))

/* MPI_Group_range_incl / MPI_Group_range_excl */
#define RANGE_ROWS(X, P, F)                                                                                  \
  GROUP_ROWS(X, P, F, "group", 1, rg_ok, &newgroup)                                                          \
  X(P##_n, #F, "n", "-1", MPI_ERR_ARG, IMPL, F(worldgroup, -1, rg_ok, &newgroup))                             \
  X(P##_ranges, #F, "ranges", "NULL (n 1)", MPI_ERR_ARG, IMPL, F(worldgroup, 1, NULL, &newgroup))            \
  X(P##_stride0, #F, "ranges[0]", "(0, 1, 0): stride 0", MPI_ERR_ARG, IMPL, F(worldgroup, 1, rg_stride0, &newgroup)) \
  X(P##_direction, #F, "ranges[0]", "(1, 0, 1): stride leads away", MPI_ERR_ARG, IMPL,                        \
    F(worldgroup, 1, rg_dir, &newgroup))                                                                     \
  X(P##_rank_range, #F, "ranges[0]", "(0, 2, 1): computes rank 2", MPI_ERR_RANK, IMPL,                       \
    F(worldgroup, 1, rg_out, &newgroup))                                                                     \
  X(P##_rank_repeated, #F, "ranges[1]", "computes rank 0 again", MPI_ERR_RANK, IMPL, F(worldgroup, 2, rg_dup, &newgroup)) \
  X(P##_newgroup, #F, "newgroup", "NULL", MPI_ERR_ARG, IMPL, F(worldgroup, 1, rg_ok, NULL))

#define ROWS(X)                                                                                              \
  GROUP_ROWS(X, group_size, MPI_Group_size, "group", &out)                                                   \
  X(group_size_size, "MPI_Group_size", "size", "NULL", MPI_ERR_ARG, STD, MPI_Group_size(worldgroup, NULL))  \
  GROUP_ROWS(X, group_rank, MPI_Group_rank, "group", &out)                                                   \
  X(group_rank_rank, "MPI_Group_rank", "rank", "NULL", MPI_ERR_ARG, STD, MPI_Group_rank(worldgroup, NULL))  \
  X(translate_group1, "MPI_Group_translate_ranks", "group1", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD,          \
    MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, r_ok, worldgroup, ranks2))                                  \
  X(translate_group2, "MPI_Group_translate_ranks", "group2", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD,          \
    MPI_Group_translate_ranks(worldgroup, 1, r_ok, MPI_GROUP_NULL, ranks2))                                  \
  X(translate_n, "MPI_Group_translate_ranks", "n", "-1", MPI_ERR_ARG, IMPL,                                  \
    MPI_Group_translate_ranks(worldgroup, -1, r_ok, worldgroup, ranks2))                                     \
  X(translate_ranks1, "MPI_Group_translate_ranks", "ranks1", "NULL (n 1)", MPI_ERR_ARG, IMPL,               \
    MPI_Group_translate_ranks(worldgroup, 1, NULL, worldgroup, ranks2))                                      \
  X(translate_ranks2, "MPI_Group_translate_ranks", "ranks2", "NULL (n 1)", MPI_ERR_ARG, IMPL,               \
    MPI_Group_translate_ranks(worldgroup, 1, r_ok, worldgroup, NULL))                                        \
  X(translate_rank_range, "MPI_Group_translate_ranks", "ranks1[0]", "2 (group1 size 2)", MPI_ERR_RANK, STD, \
    MPI_Group_translate_ranks(worldgroup, 1, r_bad, worldgroup, ranks2))                                     \
  TWO_GROUP_ROWS(X, group_compare, MPI_Group_compare, &out, "result")                                        \
  TWO_GROUP_ROWS(X, group_union, MPI_Group_union, &newgroup, "newgroup")                                     \
  TWO_GROUP_ROWS(X, group_intersection, MPI_Group_intersection, &newgroup, "newgroup")                       \
  TWO_GROUP_ROWS(X, group_difference, MPI_Group_difference, &newgroup, "newgroup")                           \
  INCL_ROWS(X, group_incl, MPI_Group_incl)                                                                   \
  INCL_ROWS(X, group_excl, MPI_Group_excl)                                                                   \
  RANGE_ROWS(X, group_range_incl, MPI_Group_range_incl)                                                      \
  RANGE_ROWS(X, group_range_excl, MPI_Group_range_excl)                                                      \
  X(group_free_ptr, "MPI_Group_free", "group", "NULL", MPI_ERR_ARG, IMPL, MPI_Group_free(NULL))             \
  X(group_free_null, "MPI_Group_free", "*group", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD, MPI_Group_free(&groupnull)) \
  X(group_free_freed, "MPI_Group_free", "*group", "freed group", MPI_ERR_GROUP, IMPL, MPI_Group_free(&deadgroup))

BAD_INPUT_MAIN("Groups", ROWS, setup, teardown)
