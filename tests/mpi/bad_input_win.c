/* Bad-input catalogue: RMA windows (MPI-4.1 13.2, 13.6, 9.3.2 for window error
 * handlers, 9.2 for MPI_Alloc_mem): creation in every flavour and its _c form,
 * MPI_Win_shared_query(_c), MPI_Win_attach/_detach, MPI_Win_free, MPI_Win_get_attr,
 * _get_group, _set_info/_get_info, _set_name/_get_name, the window error handler calls,
 * MPI_Alloc_mem and MPI_Free_mem. (MPI_Win_set_attr, _delete_attr and the window keyvals
 * are in the attributes area.)
 *
 * Creation is collective: every rank passes the same bad argument. Windows made here are
 * over guarded memory and watched (Win_allocate(_shared) windows through their base).
 *
 * Classes (MPI-4.1 9.4, Table 9.1): MPI_ERR_COMM, MPI_ERR_WIN, MPI_ERR_SIZE (invalid
 * size argument), MPI_ERR_DISP (invalid disp argument), MPI_ERR_RANK, MPI_ERR_KEYVAL,
 * MPI_ERR_RMA_FLAVOR (wrong type of window for the call), MPI_ERR_RMA_ATTACH (memory
 * cannot be attached), MPI_ERR_RMA_SYNC (an epoch still open), MPI_ERR_INFO, and
 * MPI_ERR_ARG for NULL output arguments. */
#include "bad_input.h"
#include "bad_input_mpi4.h"

#define WN 8 /* ints per window */

static int nranks;
static int *wmem, *att, *other, *lmem, *shared_base, *alloc_base, *name_len;
static MPI_Win win, dyn, shwin, alloc_win, locked, freed_win, win_out;
static void* ptr_out;
static MPI_Aint size_out;
__attribute__((unused)) static MPI_Aint disp_c_out; /* the _c calls: MPI-4 */
static int disp_out, flag_out;
static MPI_Info freed_info, bad_value_info;
static MPI_Errhandler comm_eh, eh_out;
static MPI_Group group_out;
static char name[MPI_MAX_OBJECT_NAME];

static void comm_eh_fn(MPI_Comm* c, int* e, ...) { (void)c, (void)e; }

static int* guarded_ints(int n) {
  int* p = (int*)guarded_alloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; ++i) p[i] = 7 + i;
  watch(p, (size_t)n * sizeof(int));
  return p;
}

static void make_win(int* mem, MPI_Win* w) {
  CHECK_MPI(MPI_Win_create(mem, WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, w));
  CHECK_MPI(MPI_Win_set_errhandler(*w, MPI_ERRORS_RETURN));
}

static void setup(void) {
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  wmem = guarded_ints(WN);
  att = guarded_ints(WN);
  other = guarded_ints(WN);
  lmem = guarded_ints(WN);
  name_len = guarded_ints(1);
  make_win(wmem, &win);
  make_win(lmem, &locked);
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
  CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Win_attach(dyn, att, WN * sizeof(int)));
  CHECK_MPI(MPI_Win_allocate_shared(WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &shared_base, &shwin));
  CHECK_MPI(MPI_Win_set_errhandler(shwin, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Win_allocate(WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &alloc_base, &alloc_win));
  CHECK_MPI(MPI_Win_set_errhandler(alloc_win, MPI_ERRORS_RETURN));
  for (int i = 0; i < WN; ++i) shared_base[i] = alloc_base[i] = 50 + i;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  /* every rank stored into its shared part */
  watch(shared_base, WN * sizeof(int));
  watch(alloc_base, WN * sizeof(int));
  CHECK_MPI(MPI_Win_lock_all(0, locked));
  {  /* handles that were valid once */
    MPI_Info tmp;
    CHECK_MPI(MPI_Info_create(&tmp));
    freed_info = tmp;
    CHECK_MPI(MPI_Info_free(&tmp));
    MPI_Win w;
    make_win(other, &w);
    freed_win = w;
    CHECK_MPI(MPI_Win_free(&w));
  }
  CHECK_MPI(MPI_Info_create(&bad_value_info));
  CHECK_MPI(MPI_Info_set(bad_value_info, "accumulate_ordering", "sideways"));
  CHECK_MPI(MPI_Comm_create_errhandler(comm_eh_fn, &comm_eh));
}

static void teardown(void) {
  /* The failed MPI_Win_free of `locked` changed nothing: its attributes are intact. */
  MPI_Aint* size_attr = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Win_get_attr(locked, MPI_WIN_SIZE, &size_attr, &flag));
  CHECK(flag && *size_attr == WN * (MPI_Aint)sizeof(int), "MPI_WIN_SIZE after a failed MPI_Win_free: flag %d size %ld",
        flag, flag ? (long)*size_attr : -1L);
  CHECK_MPI(MPI_Win_unlock_all(locked));
  CHECK_MPI(MPI_Win_detach(dyn, att));
  CHECK_MPI(MPI_Win_free(&locked));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Win_free(&dyn));
  CHECK_MPI(MPI_Win_free(&shwin));
  CHECK_MPI(MPI_Win_free(&alloc_win));
  CHECK_MPI(MPI_Info_free(&bad_value_info));
  CHECK_MPI(MPI_Errhandler_free(&comm_eh));
}

#define XR(X, ...) X(__VA_ARGS__)
#define WIN_NULL "win", "`MPI_WIN_NULL`", MPI_ERR_WIN, STD
#define WIN_FREED "win", "a freed window", MPI_ERR_WIN, IMPL
#define COMM "comm", "`MPI_COMM_NULL`", MPI_ERR_COMM, STD
#define SIZE "size", "-1", MPI_ERR_SIZE, STD
#define DISP "disp_unit", "0", MPI_ERR_DISP, STD
#define INFO_FREED "info", "a freed info", MPI_ERR_INFO, IMPL
#define INFO_VALUE "info", "`accumulate_ordering` = `sideways`", MPI_ERR_INFO_VALUE, IMPL
#define OUT_NULL(arg) arg, "NULL", MPI_ERR_ARG, IMPL
#define CW MPI_COMM_WORLD
#define IN MPI_INFO_NULL
#define WB (WN * sizeof(int))

#define ROWS(X)                                                                                                        \
  /* creation */                                                                                                       \
  XR(X, create_comm, "MPI_Win_create", COMM, MPI_Win_create(other, WB, 4, IN, MPI_COMM_NULL, &win_out))               \
  XR(X, create_size, "MPI_Win_create", SIZE, MPI_Win_create(other, -1, 4, IN, CW, &win_out))                          \
  XR(X, create_disp, "MPI_Win_create", DISP, MPI_Win_create(other, WB, 0, IN, CW, &win_out))                          \
  XR(X, create_base, "MPI_Win_create", "base", "NULL (size 32)", MPI_ERR_BASE, IMPL,                                  \
     MPI_Win_create(NULL, WB, 4, IN, CW, &win_out))                                                                   \
  XR(X, create_info, "MPI_Win_create", INFO_FREED, MPI_Win_create(other, WB, 4, freed_info, CW, &win_out))            \
  XR(X, create_info_value, "MPI_Win_create", INFO_VALUE, MPI_Win_create(other, WB, 4, bad_value_info, CW, &win_out))  \
  XR(X, create_win, "MPI_Win_create", OUT_NULL("win"), MPI_Win_create(other, WB, 4, IN, CW, NULL))                    \
  MPI4(XR(X, create_c_comm, "MPI_Win_create_c", COMM, MPI_Win_create_c(other, WB, 4, IN, MPI_COMM_NULL, &win_out))) \
  MPI4(XR(X, create_c_size, "MPI_Win_create_c", SIZE, MPI_Win_create_c(other, -1, 4, IN, CW, &win_out))) \
  MPI4(XR(X, create_c_disp, "MPI_Win_create_c", DISP, MPI_Win_create_c(other, WB, 0, IN, CW, &win_out))) \
  MPI4(XR(X, create_c_win, "MPI_Win_create_c", OUT_NULL("win"), MPI_Win_create_c(other, WB, 4, IN, CW, NULL))) \
  XR(X, alloc_comm, "MPI_Win_allocate", COMM, MPI_Win_allocate(WB, 4, IN, MPI_COMM_NULL, &ptr_out, &win_out))         \
  XR(X, alloc_size, "MPI_Win_allocate", SIZE, MPI_Win_allocate(-1, 4, IN, CW, &ptr_out, &win_out))                    \
  XR(X, alloc_disp, "MPI_Win_allocate", DISP, MPI_Win_allocate(WB, 0, IN, CW, &ptr_out, &win_out))                    \
  XR(X, alloc_info, "MPI_Win_allocate", INFO_FREED, MPI_Win_allocate(WB, 4, freed_info, CW, &ptr_out, &win_out))      \
  XR(X, alloc_baseptr, "MPI_Win_allocate", OUT_NULL("baseptr"), MPI_Win_allocate(WB, 4, IN, CW, NULL, &win_out))      \
  XR(X, alloc_win, "MPI_Win_allocate", OUT_NULL("win"), MPI_Win_allocate(WB, 4, IN, CW, &ptr_out, NULL))              \
  MPI4(XR(X, alloc_c_comm, "MPI_Win_allocate_c", COMM, MPI_Win_allocate_c(WB, 4, IN, MPI_COMM_NULL, &ptr_out, &win_out))) \
  MPI4(XR(X, alloc_c_size, "MPI_Win_allocate_c", SIZE, MPI_Win_allocate_c(-1, 4, IN, CW, &ptr_out, &win_out))) \
  MPI4(XR(X, alloc_c_disp, "MPI_Win_allocate_c", DISP, MPI_Win_allocate_c(WB, 0, IN, CW, &ptr_out, &win_out))) \
  MPI4(XR(X, alloc_c_baseptr, "MPI_Win_allocate_c", OUT_NULL("baseptr"), MPI_Win_allocate_c(WB, 4, IN, CW, NULL, &win_out))) \
  XR(X, shared_comm, "MPI_Win_allocate_shared", COMM,                                                                 \
     MPI_Win_allocate_shared(WB, 4, IN, MPI_COMM_NULL, &ptr_out, &win_out))                                           \
  XR(X, shared_size, "MPI_Win_allocate_shared", SIZE, MPI_Win_allocate_shared(-1, 4, IN, CW, &ptr_out, &win_out))     \
  XR(X, shared_disp, "MPI_Win_allocate_shared", DISP, MPI_Win_allocate_shared(WB, 0, IN, CW, &ptr_out, &win_out))     \
  XR(X, shared_info, "MPI_Win_allocate_shared", INFO_FREED,                                                           \
     MPI_Win_allocate_shared(WB, 4, freed_info, CW, &ptr_out, &win_out))                                              \
  XR(X, shared_baseptr, "MPI_Win_allocate_shared", OUT_NULL("baseptr"),                                               \
     MPI_Win_allocate_shared(WB, 4, IN, CW, NULL, &win_out))                                                          \
  XR(X, shared_win, "MPI_Win_allocate_shared", OUT_NULL("win"), MPI_Win_allocate_shared(WB, 4, IN, CW, &ptr_out, NULL)) \
  MPI4(XR(X, shared_c_comm, "MPI_Win_allocate_shared_c", COMM, \
     MPI_Win_allocate_shared_c(WB, 4, IN, MPI_COMM_NULL, &ptr_out, &win_out))) \
  MPI4(XR(X, shared_c_size, "MPI_Win_allocate_shared_c", SIZE, MPI_Win_allocate_shared_c(-1, 4, IN, CW, &ptr_out, &win_out))) \
  MPI4(XR(X, shared_c_disp, "MPI_Win_allocate_shared_c", DISP, MPI_Win_allocate_shared_c(WB, 0, IN, CW, &ptr_out, &win_out))) \
  XR(X, dynamic_comm, "MPI_Win_create_dynamic", COMM, MPI_Win_create_dynamic(IN, MPI_COMM_NULL, &win_out))            \
  XR(X, dynamic_info, "MPI_Win_create_dynamic", INFO_FREED, MPI_Win_create_dynamic(freed_info, CW, &win_out))         \
  XR(X, dynamic_win, "MPI_Win_create_dynamic", OUT_NULL("win"), MPI_Win_create_dynamic(IN, CW, NULL))                 \
  /* MPI_Win_shared_query */                                                                                           \
  XR(X, sq_win, "MPI_Win_shared_query", WIN_NULL, MPI_Win_shared_query(MPI_WIN_NULL, 0, &size_out, &disp_out, &ptr_out)) \
  XR(X, sq_rank, "MPI_Win_shared_query", "rank", "comm size", MPI_ERR_RANK, STD,                                      \
     MPI_Win_shared_query(shwin, nranks, &size_out, &disp_out, &ptr_out))                                             \
  XR(X, sq_dynamic, "MPI_Win_shared_query", "win", "a dynamic window", MPI_ERR_RMA_FLAVOR, STD,                       \
     MPI_Win_shared_query(dyn, 0, &size_out, &disp_out, &ptr_out))                                                    \
  XR(X, sq_size, "MPI_Win_shared_query", OUT_NULL("size"), MPI_Win_shared_query(shwin, 0, NULL, &disp_out, &ptr_out)) \
  XR(X, sq_disp, "MPI_Win_shared_query", OUT_NULL("disp_unit"), MPI_Win_shared_query(shwin, 0, &size_out, NULL, &ptr_out)) \
  XR(X, sq_baseptr, "MPI_Win_shared_query", OUT_NULL("baseptr"),                                                      \
     MPI_Win_shared_query(shwin, 0, &size_out, &disp_out, NULL))                                                      \
  MPI4(XR(X, sq_c_win, "MPI_Win_shared_query_c", WIN_NULL, \
     MPI_Win_shared_query_c(MPI_WIN_NULL, 0, &size_out, &disp_c_out, &ptr_out))) \
  MPI4(XR(X, sq_c_rank, "MPI_Win_shared_query_c", "rank", "comm size", MPI_ERR_RANK, STD, \
     MPI_Win_shared_query_c(shwin, nranks, &size_out, &disp_c_out, &ptr_out))) \
  MPI4(XR(X, sq_c_dynamic, "MPI_Win_shared_query_c", "win", "a dynamic window", MPI_ERR_RMA_FLAVOR, STD, \
     MPI_Win_shared_query_c(dyn, 0, &size_out, &disp_c_out, &ptr_out))) \
  MPI4(XR(X, sq_c_baseptr, "MPI_Win_shared_query_c", OUT_NULL("baseptr"), \
     MPI_Win_shared_query_c(shwin, 0, &size_out, &disp_c_out, NULL))) \
  /* MPI_Win_attach, MPI_Win_detach */                                                                                 \
  XR(X, attach_win, "MPI_Win_attach", WIN_NULL, MPI_Win_attach(MPI_WIN_NULL, other, WB))                              \
  XR(X, attach_flavor, "MPI_Win_attach", "win", "not from `MPI_Win_create_dynamic`", MPI_ERR_RMA_FLAVOR, STD,         \
     MPI_Win_attach(win, other, WB))                                                                                  \
  XR(X, attach_size, "MPI_Win_attach", "size", "-1", MPI_ERR_SIZE, IMPL, MPI_Win_attach(dyn, other, -1))              \
  XR(X, attach_base, "MPI_Win_attach", "base", "NULL (size 32)", MPI_ERR_RMA_ATTACH, IMPL, MPI_Win_attach(dyn, NULL, WB)) \
  XR(X, attach_overlap, "MPI_Win_attach", "base", "overlaps an attached region", MPI_ERR_RMA_ATTACH, STD,             \
     MPI_Win_attach(dyn, att + 1, sizeof(int)))                                                                       \
  XR(X, detach_win, "MPI_Win_detach", WIN_NULL, MPI_Win_detach(MPI_WIN_NULL, att))                                    \
  XR(X, detach_flavor, "MPI_Win_detach", "win", "not from `MPI_Win_create_dynamic`", MPI_ERR_RMA_FLAVOR, STD,         \
     MPI_Win_detach(win, att))                                                                                        \
  XR(X, detach_base, "MPI_Win_detach", "base", "not attached", MPI_ERR_RMA_ATTACH, STD, MPI_Win_detach(dyn, other))   \
  /* MPI_Win_free */                                                                                                   \
  XR(X, free_ptr, "MPI_Win_free", OUT_NULL("win"), MPI_Win_free(NULL))                                                \
  XR(X, free_null, "MPI_Win_free", WIN_NULL, MPI_Win_free(&(MPI_Win){MPI_WIN_NULL}))                                  \
  XR(X, free_freed, "MPI_Win_free", WIN_FREED, MPI_Win_free(&(MPI_Win){freed_win}))                                   \
  XR(X, free_epoch, "MPI_Win_free", "win", "in a lock_all epoch", MPI_ERR_RMA_SYNC, STD,                              \
     MPI_Win_free(&(MPI_Win){locked}))                                                                                \
  /* MPI_Win_get_attr, _get_group, _set_info, _get_info, _set_name, _get_name */                                      \
  XR(X, get_attr_win, "MPI_Win_get_attr", WIN_NULL, MPI_Win_get_attr(MPI_WIN_NULL, MPI_WIN_SIZE, &ptr_out, &flag_out)) \
  XR(X, get_attr_val, "MPI_Win_get_attr", OUT_NULL("attribute_val"), MPI_Win_get_attr(win, MPI_WIN_SIZE, NULL, &flag_out)) \
  XR(X, get_attr_flag, "MPI_Win_get_attr", OUT_NULL("flag"), MPI_Win_get_attr(win, MPI_WIN_SIZE, &ptr_out, NULL))     \
  XR(X, get_attr_invalid, "MPI_Win_get_attr", "win_keyval", "`MPI_KEYVAL_INVALID`", MPI_ERR_KEYVAL, STD,              \
     MPI_Win_get_attr(win, MPI_KEYVAL_INVALID, &ptr_out, &flag_out))                                                  \
  XR(X, get_attr_comm_key, "MPI_Win_get_attr", "win_keyval", "`MPI_TAG_UB` (a communicator key)", MPI_ERR_KEYVAL,     \
     IMPL, MPI_Win_get_attr(win, MPI_TAG_UB, &ptr_out, &flag_out))                                                    \
  XR(X, get_group_win, "MPI_Win_get_group", WIN_NULL, MPI_Win_get_group(MPI_WIN_NULL, &group_out))                    \
  XR(X, get_group_freed, "MPI_Win_get_group", WIN_FREED, MPI_Win_get_group(freed_win, &group_out))                    \
  XR(X, get_group_out, "MPI_Win_get_group", OUT_NULL("group"), MPI_Win_get_group(win, NULL))                          \
  XR(X, set_info_win, "MPI_Win_set_info", WIN_NULL, MPI_Win_set_info(MPI_WIN_NULL, IN))                               \
  XR(X, set_info_info, "MPI_Win_set_info", INFO_FREED, MPI_Win_set_info(win, freed_info))                             \
  XR(X, get_info_win, "MPI_Win_get_info", WIN_NULL, MPI_Win_get_info(MPI_WIN_NULL, &(MPI_Info){IN}))                  \
  XR(X, get_info_out, "MPI_Win_get_info", OUT_NULL("info_used"), MPI_Win_get_info(win, NULL))                         \
  XR(X, set_name_win, "MPI_Win_set_name", WIN_NULL, MPI_Win_set_name(MPI_WIN_NULL, "w"))                              \
  XR(X, set_name_name, "MPI_Win_set_name", OUT_NULL("win_name"), MPI_Win_set_name(win, NULL))                         \
  XR(X, get_name_freed, "MPI_Win_get_name", WIN_FREED, MPI_Win_get_name(freed_win, name, name_len))                   \
  XR(X, get_name_name, "MPI_Win_get_name", OUT_NULL("win_name"), MPI_Win_get_name(win, NULL, name_len))               \
  XR(X, get_name_len, "MPI_Win_get_name", OUT_NULL("resultlen"), MPI_Win_get_name(win, name, NULL))                   \
  /* window error handlers */                                                                                          \
  XR(X, create_eh_fn, "MPI_Win_create_errhandler", OUT_NULL("win_errhandler_fn"), MPI_Win_create_errhandler(NULL, &eh_out)) \
  XR(X, create_eh_out, "MPI_Win_create_errhandler", OUT_NULL("errhandler"),                                          \
     MPI_Win_create_errhandler((MPI_Win_errhandler_function*)comm_eh_fn, NULL))                                        \
  XR(X, set_eh_win, "MPI_Win_set_errhandler", WIN_NULL, MPI_Win_set_errhandler(MPI_WIN_NULL, MPI_ERRORS_RETURN))      \
  XR(X, set_eh_null, "MPI_Win_set_errhandler", "errhandler", "`MPI_ERRHANDLER_NULL`", MPI_ERR_ARG, IMPL,              \
     MPI_Win_set_errhandler(win, MPI_ERRHANDLER_NULL))                                                                \
  XR(X, set_eh_comm, "MPI_Win_set_errhandler", "errhandler", "a communicator error handler", MPI_ERR_ARG, IMPL,       \
     MPI_Win_set_errhandler(win, comm_eh))                                                                            \
  XR(X, get_eh_win, "MPI_Win_get_errhandler", WIN_NULL, MPI_Win_get_errhandler(MPI_WIN_NULL, &eh_out))                \
  XR(X, get_eh_out, "MPI_Win_get_errhandler", OUT_NULL("errhandler"), MPI_Win_get_errhandler(win, NULL))              \
  XR(X, call_eh_win, "MPI_Win_call_errhandler", WIN_NULL, MPI_Win_call_errhandler(MPI_WIN_NULL, MPI_ERR_OTHER))       \
  /* MPI_Alloc_mem, MPI_Free_mem */                                                                                    \
  XR(X, alloc_mem_size, "MPI_Alloc_mem", "size", "-1", MPI_ERR_SIZE, IMPL, MPI_Alloc_mem(-1, IN, &ptr_out))           \
  XR(X, alloc_mem_info, "MPI_Alloc_mem", INFO_FREED, MPI_Alloc_mem(64, freed_info, &ptr_out))                         \
  XR(X, alloc_mem_baseptr, "MPI_Alloc_mem", OUT_NULL("baseptr"), MPI_Alloc_mem(64, IN, NULL))                         \
  XR(X, free_mem_base, "MPI_Free_mem", "base", "not from `MPI_Alloc_mem`", MPI_ERR_BASE, IMPL, MPI_Free_mem(other))

BAD_INPUT_MAIN("RMA windows", ROWS, setup, teardown)
