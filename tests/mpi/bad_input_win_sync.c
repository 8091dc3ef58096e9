/* Bad-input catalogue: RMA synchronization (MPI-4.1 13.5): MPI_Win_fence, _lock,
 * _unlock, _lock_all, _unlock_all, _flush, _flush_local, _flush_all, _flush_local_all,
 * _sync, and PSCW: _post, _start, _complete, _wait, _test.
 *
 * Windows (MPI_Win_create over guarded, watched memory), each in one state for all rows:
 * `idle` (no epoch), `all` (in a lock_all epoch), `held` (a shared lock on rank 0),
 * `pscw` (on MPI_COMM_SELF, exposure and access epochs open to itself) and `solo` (on
 * MPI_COMM_SELF, no epoch; a group naming another rank is not its group). A failed call
 * must leave the state as it was: teardown closes exactly what setup opened.
 *
 * Classes (MPI-4.1 9.4, Table 9.1): MPI_ERR_WIN, MPI_ERR_RANK, MPI_ERR_LOCKTYPE,
 * MPI_ERR_ASSERT (invalid assert argument, 13.5.5), MPI_ERR_GROUP, MPI_ERR_RMA_SYNC
 * (wrong synchronization of RMA calls: an epoch that is not open, or one that conflicts
 * with the epoch already open, 13.5). */
#include "bad_input.h"

#define WN 8 /* ints per window */

static int nranks;
static MPI_Win idle, all, held, pscw, solo;
static MPI_Group self_group, world_group;
static int* flag_buf;

static void make_win(MPI_Comm comm, MPI_Win* w) {
  int* mem = (int*)guarded_alloc(WN * sizeof(int));
  for (int i = 0; i < WN; ++i) mem[i] = 100 + i;
  CHECK_MPI(MPI_Win_create(mem, WN * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, w));
  CHECK_MPI(MPI_Win_set_errhandler(*w, MPI_ERRORS_RETURN));
  watch(mem, WN * sizeof(int));
}

static void setup(void) {
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  CHECK(nranks >= 2, "needs 2 ranks (a group with a rank outside an MPI_COMM_SELF window)");
  make_win(MPI_COMM_WORLD, &idle);
  make_win(MPI_COMM_WORLD, &all);
  make_win(MPI_COMM_WORLD, &held);
  make_win(MPI_COMM_SELF, &pscw);
  make_win(MPI_COMM_SELF, &solo);
  CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self_group));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  flag_buf = (int*)guarded_alloc(sizeof(int));
  watch(flag_buf, sizeof(int));
  CHECK_MPI(MPI_Win_lock_all(0, all));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, held));
  CHECK_MPI(MPI_Win_post(self_group, 0, pscw));
  CHECK_MPI(MPI_Win_start(self_group, 0, pscw));
}

static void teardown(void) {
  CHECK_MPI(MPI_Win_complete(pscw));
  CHECK_MPI(MPI_Win_wait(pscw));
  CHECK_MPI(MPI_Win_unlock(0, held));
  CHECK_MPI(MPI_Win_unlock_all(all));
  CHECK_MPI(MPI_Win_free(&idle));
  CHECK_MPI(MPI_Win_free(&all));
  CHECK_MPI(MPI_Win_free(&held));
  CHECK_MPI(MPI_Win_free(&pscw));
  CHECK_MPI(MPI_Win_free(&solo));
  CHECK_MPI(MPI_Group_free(&self_group));
  CHECK_MPI(MPI_Group_free(&world_group));
}

#define XR(X, ...) X(__VA_ARGS__)
#define WIN_NULL "win", "`MPI_WIN_NULL`", MPI_ERR_WIN, STD
#define RANK "rank", "comm size", MPI_ERR_RANK, STD
#define ASSERT(what) "assert", what, MPI_ERR_ASSERT, STD
#define SYNC(state) "win", state, MPI_ERR_RMA_SYNC, STD
#define GROUP_NULL "group", "`MPI_GROUP_NULL`", MPI_ERR_GROUP, STD
#define FOREIGN "group", "a rank outside the window's group", MPI_ERR_GROUP, IMPL
#define BAD_BITS 0x40000 /* no MPI_MODE_* bit */
#define LS MPI_LOCK_SHARED

#define ROWS(X)                                                                                                        \
  /* MPI_Win_fence */                                                                                                  \
  XR(X, fence_win, "MPI_Win_fence", WIN_NULL, MPI_Win_fence(0, MPI_WIN_NULL))                                         \
  XR(X, fence_assert, "MPI_Win_fence", ASSERT("an undefined bit"), MPI_Win_fence(BAD_BITS, idle))                     \
  XR(X, fence_nocheck, "MPI_Win_fence", "assert", "`MPI_MODE_NOCHECK` (not a fence assertion)", MPI_ERR_ASSERT, IMPL, \
     MPI_Win_fence(MPI_MODE_NOCHECK, idle))                                                                           \
  XR(X, fence_lock_all, "MPI_Win_fence", SYNC("in a lock_all epoch"), MPI_Win_fence(0, all))                          \
  XR(X, fence_lock, "MPI_Win_fence", SYNC("in a lock epoch"), MPI_Win_fence(0, held))                                 \
  XR(X, fence_pscw, "MPI_Win_fence", SYNC("in PSCW epochs"), MPI_Win_fence(0, pscw))                                  \
  /* MPI_Win_lock, MPI_Win_unlock */                                                                                   \
  XR(X, lock_win, "MPI_Win_lock", WIN_NULL, MPI_Win_lock(LS, 0, 0, MPI_WIN_NULL))                                     \
  XR(X, lock_type, "MPI_Win_lock", "lock_type", "0", MPI_ERR_LOCKTYPE, STD, MPI_Win_lock(0, 0, 0, idle))              \
  XR(X, lock_rank, "MPI_Win_lock", RANK, MPI_Win_lock(LS, nranks, 0, idle))                                           \
  XR(X, lock_assert, "MPI_Win_lock", ASSERT("an undefined bit"), MPI_Win_lock(LS, 0, BAD_BITS, idle))                 \
  XR(X, lock_again, "MPI_Win_lock", SYNC("target already locked"), MPI_Win_lock(LS, 0, 0, held))                      \
  XR(X, lock_lock_all, "MPI_Win_lock", SYNC("in a lock_all epoch"), MPI_Win_lock(LS, 0, 0, all))                      \
  XR(X, lock_pscw, "MPI_Win_lock", SYNC("in a PSCW access epoch"), MPI_Win_lock(LS, 0, 0, pscw))                      \
  XR(X, unlock_win, "MPI_Win_unlock", WIN_NULL, MPI_Win_unlock(0, MPI_WIN_NULL))                                      \
  XR(X, unlock_rank, "MPI_Win_unlock", RANK, MPI_Win_unlock(nranks, held))                                            \
  XR(X, unlock_none, "MPI_Win_unlock", SYNC("target not locked"), MPI_Win_unlock(0, idle))                            \
  XR(X, unlock_other, "MPI_Win_unlock", SYNC("another target locked"), MPI_Win_unlock(1, held))                       \
  /* MPI_Win_lock_all, MPI_Win_unlock_all */                                                                           \
  XR(X, lock_all_win, "MPI_Win_lock_all", WIN_NULL, MPI_Win_lock_all(0, MPI_WIN_NULL))                                \
  XR(X, lock_all_assert, "MPI_Win_lock_all", ASSERT("an undefined bit"), MPI_Win_lock_all(BAD_BITS, idle))            \
  XR(X, lock_all_again, "MPI_Win_lock_all", SYNC("in a lock_all epoch"), MPI_Win_lock_all(0, all))                    \
  XR(X, lock_all_lock, "MPI_Win_lock_all", SYNC("in a lock epoch"), MPI_Win_lock_all(0, held))                        \
  XR(X, lock_all_pscw, "MPI_Win_lock_all", SYNC("in a PSCW access epoch"), MPI_Win_lock_all(0, pscw))                 \
  XR(X, unlock_all_win, "MPI_Win_unlock_all", WIN_NULL, MPI_Win_unlock_all(MPI_WIN_NULL))                             \
  XR(X, unlock_all_none, "MPI_Win_unlock_all", SYNC("no epoch"), MPI_Win_unlock_all(idle))                            \
  XR(X, unlock_all_lock, "MPI_Win_unlock_all", SYNC("in a lock epoch, not lock_all"), MPI_Win_unlock_all(held))       \
  /* flushes, MPI_Win_sync */                                                                                          \
  XR(X, flush_win, "MPI_Win_flush", WIN_NULL, MPI_Win_flush(0, MPI_WIN_NULL))                                         \
  XR(X, flush_rank, "MPI_Win_flush", RANK, MPI_Win_flush(nranks, all))                                                \
  XR(X, flush_none, "MPI_Win_flush", SYNC("no epoch"), MPI_Win_flush(0, idle))                                        \
  XR(X, flush_other, "MPI_Win_flush", SYNC("target not locked"), MPI_Win_flush(1, held))                              \
  XR(X, flush_local_win, "MPI_Win_flush_local", WIN_NULL, MPI_Win_flush_local(0, MPI_WIN_NULL))                       \
  XR(X, flush_local_rank, "MPI_Win_flush_local", RANK, MPI_Win_flush_local(nranks, all))                              \
  XR(X, flush_local_none, "MPI_Win_flush_local", SYNC("no epoch"), MPI_Win_flush_local(0, idle))                      \
  XR(X, flush_local_other, "MPI_Win_flush_local", SYNC("target not locked"), MPI_Win_flush_local(1, held))            \
  XR(X, flush_all_win, "MPI_Win_flush_all", WIN_NULL, MPI_Win_flush_all(MPI_WIN_NULL))                                \
  XR(X, flush_all_none, "MPI_Win_flush_all", SYNC("no epoch"), MPI_Win_flush_all(idle))                               \
  XR(X, flush_all_pscw, "MPI_Win_flush_all", SYNC("in PSCW epochs"), MPI_Win_flush_all(pscw))                         \
  XR(X, flush_local_all_win, "MPI_Win_flush_local_all", WIN_NULL, MPI_Win_flush_local_all(MPI_WIN_NULL))              \
  XR(X, flush_local_all_none, "MPI_Win_flush_local_all", SYNC("no epoch"), MPI_Win_flush_local_all(idle))             \
  XR(X, sync_win, "MPI_Win_sync", WIN_NULL, MPI_Win_sync(MPI_WIN_NULL))                                               \
  /* PSCW */                                                                                                           \
  XR(X, post_win, "MPI_Win_post", WIN_NULL, MPI_Win_post(self_group, 0, MPI_WIN_NULL))                                \
  XR(X, post_group, "MPI_Win_post", GROUP_NULL, MPI_Win_post(MPI_GROUP_NULL, 0, solo))                                \
  XR(X, post_assert, "MPI_Win_post", ASSERT("an undefined bit"), MPI_Win_post(self_group, BAD_BITS, solo))            \
  XR(X, post_foreign, "MPI_Win_post", FOREIGN, MPI_Win_post(world_group, 0, solo))                                    \
  XR(X, post_again, "MPI_Win_post", SYNC("exposure epoch already posted"), MPI_Win_post(self_group, 0, pscw))         \
  XR(X, start_win, "MPI_Win_start", WIN_NULL, MPI_Win_start(self_group, 0, MPI_WIN_NULL))                             \
  XR(X, start_group, "MPI_Win_start", GROUP_NULL, MPI_Win_start(MPI_GROUP_NULL, 0, solo))                             \
  XR(X, start_assert, "MPI_Win_start", ASSERT("an undefined bit"), MPI_Win_start(self_group, BAD_BITS, solo))         \
  XR(X, start_foreign, "MPI_Win_start", FOREIGN, MPI_Win_start(world_group, 0, solo))                                 \
  XR(X, start_again, "MPI_Win_start", SYNC("access epoch already started"), MPI_Win_start(self_group, 0, pscw))       \
  XR(X, start_lock_all, "MPI_Win_start", SYNC("in a lock_all epoch"), MPI_Win_start(self_group, 0, all))              \
  XR(X, complete_win, "MPI_Win_complete", WIN_NULL, MPI_Win_complete(MPI_WIN_NULL))                                   \
  XR(X, complete_none, "MPI_Win_complete", SYNC("no access epoch started"), MPI_Win_complete(solo))                   \
  XR(X, wait_win, "MPI_Win_wait", WIN_NULL, MPI_Win_wait(MPI_WIN_NULL))                                               \
  XR(X, wait_none, "MPI_Win_wait", SYNC("no exposure epoch posted"), MPI_Win_wait(solo))                              \
  XR(X, test_win, "MPI_Win_test", WIN_NULL, MPI_Win_test(MPI_WIN_NULL, flag_buf))                                     \
  XR(X, test_flag, "MPI_Win_test", "flag", "NULL", MPI_ERR_ARG, IMPL, MPI_Win_test(pscw, NULL))                       \
  XR(X, test_none, "MPI_Win_test", SYNC("no exposure epoch posted"), MPI_Win_test(solo, flag_buf))

BAD_INPUT_MAIN("RMA synchronization", ROWS, setup, teardown)
