/* Bad-input catalogue: communicators (docs/errors.md). MPI_Comm_rank/size, dup,
 * dup_with_info, split, split_type, create, create_group, free, compare, group, names,
 * test_inter, set_info/get_info.
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1): MPI_ERR_COMM (invalid
 * communicator, MPI_COMM_NULL included; freeing a predefined one, 7.4.3), MPI_ERR_GROUP
 * (invalid group), MPI_ERR_INFO (invalid info), MPI_ERR_TAG (MPI_Comm_create_group's tag,
 * 7.4.2), MPI_ERR_ARG (other arguments: split colors, split types). The constructors are
 * collective: each row's bad argument is the same at every rank and is found before any
 * communication, so no rank waits for another. A group that is not a subset of comm's
 * group or misses the caller (7.4.2: erroneous) and NULL output pointers are shmpi's
 * promise (IMPL), except NULL pointers that MPICH and Open MPI answer with MPI_ERR_ARG
 * too (STD). */
#include "bad_input.h"

static MPI_Comm deadcomm, newcomm, commnull = MPI_COMM_NULL, world = MPI_COMM_WORLD, self = MPI_COMM_SELF;
static MPI_Group worldgroup, othergroup, newgroup;
static MPI_Info deadinfo, newinfo, okinfo;
static int out, flag;
static char name[MPI_MAX_OBJECT_NAME];

static void setup(void) {
  int rank = 0, nranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &deadcomm));
  MPI_Comm c = deadcomm;
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK_MPI(MPI_Info_create(&okinfo)); /* before deadinfo is freed: no reuse of its handle */
  CHECK_MPI(MPI_Info_create(&deadinfo));
  MPI_Info i = deadinfo;
  CHECK_MPI(MPI_Info_free(&i));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &worldgroup));
  const int others[1] = {(rank + 1) % nranks};
  CHECK_MPI(MPI_Group_incl(worldgroup, 1, others, &othergroup)); /* just the next rank */
  newcomm = MPI_COMM_NULL;
  newgroup = MPI_GROUP_NULL;
  newinfo = MPI_INFO_NULL;
  watch(&newcomm, sizeof newcomm);
  watch(&newgroup, sizeof newgroup);
  watch(&newinfo, sizeof newinfo);
  watch(&out, sizeof out);
  watch(&flag, sizeof flag);
  watch(name, sizeof name);
  watch(&commnull, sizeof commnull);
  watch(&world, sizeof world);
  watch(&self, sizeof self);
}

static void teardown(void) {
  CHECK_MPI(MPI_Group_free(&othergroup));
  CHECK_MPI(MPI_Group_free(&worldgroup));
  CHECK_MPI(MPI_Info_free(&okinfo));
}

/* The comm argument of F(comm, REST...): MPI_COMM_NULL and a freed communicator. */
#define COMM_ROWS(X, P, F, ...)                                                                               \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, F(MPI_COMM_NULL, __VA_ARGS__))                 \
  X(P##_comm_freed, #F, "comm", "freed communicator", MPI_ERR_COMM, IMPL, F(deadcomm, __VA_ARGS__))

#define ROWS(X)                                                                                                \
  COMM_ROWS(X, comm_rank, MPI_Comm_rank, &out)                                                                 \
  X(comm_rank_rank, "MPI_Comm_rank", "rank", "NULL", MPI_ERR_ARG, STD, MPI_Comm_rank(MPI_COMM_WORLD, NULL))   \
  COMM_ROWS(X, comm_size, MPI_Comm_size, &out)                                                                 \
  X(comm_size_size, "MPI_Comm_size", "size", "NULL", MPI_ERR_ARG, STD, MPI_Comm_size(MPI_COMM_WORLD, NULL))   \
  COMM_ROWS(X, comm_dup, MPI_Comm_dup, &newcomm)                                                               \
  X(comm_dup_newcomm, "MPI_Comm_dup", "newcomm", "NULL", MPI_ERR_ARG, STD, MPI_Comm_dup(MPI_COMM_WORLD, NULL)) \
  COMM_ROWS(X, comm_dup_with_info, MPI_Comm_dup_with_info, MPI_INFO_NULL, &newcomm)                            \
  X(comm_dup_with_info_info, "MPI_Comm_dup_with_info", "info", "freed info", MPI_ERR_INFO, IMPL,              \
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, deadinfo, &newcomm))                                                \
  X(comm_dup_with_info_newcomm, "MPI_Comm_dup_with_info", "newcomm", "NULL", MPI_ERR_ARG, STD,               \
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, NULL))                                               \
  COMM_ROWS(X, comm_split, MPI_Comm_split, 0, 0, &newcomm)                                                     \
  X(comm_split_color, "MPI_Comm_split", "color", "-5 (not MPI_UNDEFINED)", MPI_ERR_ARG, IMPL,                  \
    MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &newcomm))                                                           \
  X(comm_split_newcomm, "MPI_Comm_split", "newcomm", "NULL", MPI_ERR_ARG, STD,                               \
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, NULL))                                                                \
  COMM_ROWS(X, comm_split_type, MPI_Comm_split_type, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &newcomm)         \
  X(comm_split_type_type, "MPI_Comm_split_type", "split_type", "-5", MPI_ERR_ARG, STD,                        \
    MPI_Comm_split_type(MPI_COMM_WORLD, -5, 0, MPI_INFO_NULL, &newcomm))                                       \
  X(comm_split_type_info, "MPI_Comm_split_type", "info", "freed info", MPI_ERR_INFO, IMPL,                    \
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, deadinfo, &newcomm))                          \
  X(comm_split_type_newcomm, "MPI_Comm_split_type", "newcomm", "NULL", MPI_ERR_ARG, STD,                     \
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, NULL))                         \
  COMM_ROWS(X, comm_create, MPI_Comm_create, worldgroup, &newcomm)                                             \
  X(comm_create_group_null, "MPI_Comm_create", "group", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD,                 \
    MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &newcomm))                                                 \
  X(comm_create_not_subset, "MPI_Comm_create", "group", "not a subset of comm's group", MPI_ERR_GROUP, IMPL,  \
    MPI_Comm_create(MPI_COMM_SELF, othergroup, &newcomm))                                                      \
  X(comm_create_newcomm, "MPI_Comm_create", "newcomm", "NULL", MPI_ERR_ARG, STD,                             \
    MPI_Comm_create(MPI_COMM_WORLD, worldgroup, NULL))                                                         \
  COMM_ROWS(X, comm_create_group, MPI_Comm_create_group, worldgroup, 0, &newcomm)                              \
  X(comm_create_group_group, "MPI_Comm_create_group", "group", "MPI_GROUP_NULL", MPI_ERR_GROUP, STD,          \
    MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &newcomm))                                        \
  X(comm_create_group_tag, "MPI_Comm_create_group", "tag", "-5", MPI_ERR_TAG, STD,                            \
    MPI_Comm_create_group(MPI_COMM_WORLD, worldgroup, -5, &newcomm))                                           \
  X(comm_create_group_not_member, "MPI_Comm_create_group", "group", "without the caller", MPI_ERR_GROUP, IMPL, \
    MPI_Comm_create_group(MPI_COMM_WORLD, othergroup, 0, &newcomm))                                            \
  X(comm_create_group_newcomm, "MPI_Comm_create_group", "newcomm", "NULL", MPI_ERR_ARG, STD,                 \
    MPI_Comm_create_group(MPI_COMM_WORLD, worldgroup, 0, NULL))                                                \
  X(comm_free_ptr, "MPI_Comm_free", "comm", "NULL", MPI_ERR_ARG, IMPL, MPI_Comm_free(NULL))                   \
  X(comm_free_null, "MPI_Comm_free", "*comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, MPI_Comm_free(&commnull))   \
  X(comm_free_freed, "MPI_Comm_free", "*comm", "freed communicator", MPI_ERR_COMM, IMPL, MPI_Comm_free(&deadcomm)) \
  X(comm_free_world, "MPI_Comm_free", "*comm", "MPI_COMM_WORLD", MPI_ERR_COMM, STD, MPI_Comm_free(&world))    \
  X(comm_free_self, "MPI_Comm_free", "*comm", "MPI_COMM_SELF", MPI_ERR_COMM, STD, MPI_Comm_free(&self))       \
  X(comm_compare_comm1, "MPI_Comm_compare", "comm1", "MPI_COMM_NULL", MPI_ERR_COMM, STD,                      \
    MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &out))                                                     \
  X(comm_compare_comm2, "MPI_Comm_compare", "comm2", "MPI_COMM_NULL", MPI_ERR_COMM, STD,                      \
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &out))                                                     \
  X(comm_compare_result, "MPI_Comm_compare", "result", "NULL", MPI_ERR_ARG, STD,                             \
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL))                                                     \
  COMM_ROWS(X, comm_group, MPI_Comm_group, &newgroup)                                                          \
  X(comm_group_group, "MPI_Comm_group", "group", "NULL", MPI_ERR_ARG, STD, MPI_Comm_group(MPI_COMM_WORLD, NULL)) \
  COMM_ROWS(X, comm_set_name, MPI_Comm_set_name, "x")                                                          \
  X(comm_set_name_name, "MPI_Comm_set_name", "comm_name", "NULL", MPI_ERR_ARG, STD,                          \
    MPI_Comm_set_name(MPI_COMM_WORLD, NULL))                                                                   \
  COMM_ROWS(X, comm_get_name, MPI_Comm_get_name, name, &out)                                                   \
  X(comm_get_name_name, "MPI_Comm_get_name", "comm_name", "NULL", MPI_ERR_ARG, STD,                          \
    MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &out))                                                             \
  X(comm_get_name_resultlen, "MPI_Comm_get_name", "resultlen", "NULL", MPI_ERR_ARG, STD,                     \
    MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL))                                                             \
  COMM_ROWS(X, comm_test_inter, MPI_Comm_test_inter, &flag)                                                    \
  X(comm_test_inter_flag, "MPI_Comm_test_inter", "flag", "NULL", MPI_ERR_ARG, STD,                           \
    MPI_Comm_test_inter(MPI_COMM_WORLD, NULL))                                                                 \
  COMM_ROWS(X, comm_set_info, MPI_Comm_set_info, okinfo)                                                \
  X(comm_set_info_info, "MPI_Comm_set_info", "info", "freed info", MPI_ERR_INFO, IMPL,                        \
    MPI_Comm_set_info(MPI_COMM_WORLD, deadinfo))                                                               \
  COMM_ROWS(X, comm_get_info, MPI_Comm_get_info, &newinfo)                                                     \
  X(comm_get_info_info, "MPI_Comm_get_info", "info_used", "NULL", MPI_ERR_ARG, IMPL,                          \
    MPI_Comm_get_info(MPI_COMM_WORLD, NULL))

BAD_INPUT_MAIN("Communicators", ROWS, setup, teardown)
