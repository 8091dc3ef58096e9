/* Bad-input catalogue: error handlers, error codes, and the environment calls that can
 * be tested after MPI_Init (docs/errors.md): MPI_Comm_create/set/get_errhandler,
 * MPI_Errhandler_free, MPI_Comm_call_errhandler, MPI_Error_class, MPI_Error_string,
 * MPI_Get_version, MPI_Get_library_version, MPI_Get_processor_name, MPI_Initialized,
 * MPI_Finalized, MPI_Query_thread, MPI_Is_thread_main, MPI_Init, MPI_Init_thread
 * (MPI_Abi_get_version: shmpi's MPI-5 ABI only).
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1): MPI_ERR_COMM (invalid
 * communicator), MPI_ERR_ARG (invalid argument of another kind: an errhandler that is
 * null or was made for windows, 9.3.1, an error code that is none, 9.4). Calling MPI_Init
 * or MPI_Init_thread twice is erroneous (11.2.1) and shmpi answers MPI_ERR_OTHER; NULL
 * output pointers and freed handles are shmpi's promise (IMPL), except where MPICH and
 * Open MPI answer with the same class (STD). */
#include "bad_input.h"

static MPI_Errhandler eh, deadeh, wineh, ehnull = MPI_ERRHANDLER_NULL;
static int out, out2, flag, provided;
static char text[MPI_MAX_ERROR_STRING], lib[MPI_MAX_LIBRARY_VERSION_STRING], proc[MPI_MAX_PROCESSOR_NAME];

static void comm_handler(MPI_Comm* c, int* code, ...) {
  (void)c;
  (void)code;
}
static void win_handler(MPI_Win* w, int* code, ...) {
  (void)w;
  (void)code;
}

static void setup(void) {
  CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &eh));
  CHECK_MPI(MPI_Win_create_errhandler(win_handler, &wineh));
  CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &deadeh)); /* freed last: no reuse of its handle */
  MPI_Errhandler e = deadeh;
  CHECK_MPI(MPI_Errhandler_free(&e));
  watch(&eh, sizeof eh);
  watch(&ehnull, sizeof ehnull);
  watch(&out, sizeof out);
  watch(&out2, sizeof out2);
  watch(&flag, sizeof flag);
  watch(&provided, sizeof provided);
  watch(text, sizeof text);
  watch(lib, sizeof lib);
  watch(proc, sizeof proc);
}

static void teardown(void) {
  MPI_Errhandler cur = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &cur));
  CHECK(cur == MPI_ERRORS_RETURN, "MPI_COMM_WORLD's handler changed by the rows");
  CHECK_MPI(MPI_Errhandler_free(&cur));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK_MPI(MPI_Errhandler_free(&wineh));
}

#if MPI_VERSION >= 5
#define ROWS_ABI(X)                                                                                           \
  X(abi_get_version_major, "MPI_Abi_get_version", "abi_major", "NULL", MPI_ERR_ARG, IMPL,                    \
    MPI_Abi_get_version(NULL, &out))                                                                          \
  X(abi_get_version_minor, "MPI_Abi_get_version", "abi_minor", "NULL", MPI_ERR_ARG, IMPL, MPI_Abi_get_version(&out, NULL))
#else
#define ROWS_ABI(X)
#endif

#define ROWS(X)                                                                                               \
  X(comm_create_errhandler_fn, "MPI_Comm_create_errhandler", "comm_errhandler_fn", "NULL", MPI_ERR_ARG, STD, \
    MPI_Comm_create_errhandler(NULL, &eh))                                                                    \
  X(comm_create_errhandler_errhandler, "MPI_Comm_create_errhandler", "errhandler", "NULL", MPI_ERR_ARG, STD, \
    MPI_Comm_create_errhandler(comm_handler, NULL))                                                           \
  X(comm_set_errhandler_comm, "MPI_Comm_set_errhandler", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,         \
    MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN))                                                \
  X(comm_set_errhandler_null, "MPI_Comm_set_errhandler", "errhandler", "MPI_ERRHANDLER_NULL", MPI_ERR_ARG, STD, \
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL))                                             \
  X(comm_set_errhandler_freed, "MPI_Comm_set_errhandler", "errhandler", "freed errhandler", MPI_ERR_ARG, IMPL, \
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, deadeh))                                                          \
  X(comm_set_errhandler_win, "MPI_Comm_set_errhandler", "errhandler", "a window's (MPI_Win_create_errhandler)", \
    MPI_ERR_ARG, IMPL, MPI_Comm_set_errhandler(MPI_COMM_WORLD, wineh))                                         \
  X(comm_get_errhandler_comm, "MPI_Comm_get_errhandler", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,         \
    MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh))                                                              \
  X(comm_get_errhandler_errhandler, "MPI_Comm_get_errhandler", "errhandler", "NULL", MPI_ERR_ARG, STD,      \
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL))                                                            \
  X(errhandler_free_ptr, "MPI_Errhandler_free", "errhandler", "NULL", MPI_ERR_ARG, STD, MPI_Errhandler_free(NULL)) \
  X(errhandler_free_null, "MPI_Errhandler_free", "*errhandler", "MPI_ERRHANDLER_NULL", MPI_ERR_ARG, STD,     \
    MPI_Errhandler_free(&ehnull))                                                                             \
  X(errhandler_free_freed, "MPI_Errhandler_free", "*errhandler", "freed errhandler", MPI_ERR_ARG, IMPL,      \
    MPI_Errhandler_free(&deadeh))                                                                             \
  X(comm_call_errhandler_comm, "MPI_Comm_call_errhandler", "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD,       \
    MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER))                                                   \
  X(error_class_errorclass, "MPI_Error_class", "errorclass", "NULL", MPI_ERR_ARG, IMPL, MPI_Error_class(MPI_ERR_OTHER, NULL)) \
  X(error_class_code, "MPI_Error_class", "errorcode", "123456 (no error code)", MPI_ERR_ARG, IMPL,            \
    MPI_Error_class(123456, &out))                                                                            \
  X(error_string_string, "MPI_Error_string", "string", "NULL", MPI_ERR_ARG, IMPL,                            \
    MPI_Error_string(MPI_ERR_OTHER, NULL, &out))                                                              \
  X(error_string_resultlen, "MPI_Error_string", "resultlen", "NULL", MPI_ERR_ARG, IMPL,                      \
    MPI_Error_string(MPI_ERR_OTHER, text, NULL))                                                              \
  X(error_string_code, "MPI_Error_string", "errorcode", "123456 (no error code)", MPI_ERR_ARG, IMPL,          \
    MPI_Error_string(123456, text, &out))                                                                     \
  X(get_version_version, "MPI_Get_version", "version", "NULL", MPI_ERR_ARG, STD, MPI_Get_version(NULL, &out)) \
  X(get_version_subversion, "MPI_Get_version", "subversion", "NULL", MPI_ERR_ARG, STD, MPI_Get_version(&out, NULL)) \
  X(get_library_version_version, "MPI_Get_library_version", "version", "NULL", MPI_ERR_ARG, STD,           \
    MPI_Get_library_version(NULL, &out))                                                                      \
  X(get_library_version_resultlen, "MPI_Get_library_version", "resultlen", "NULL", MPI_ERR_ARG, STD,       \
    MPI_Get_library_version(lib, NULL))                                                                       \
  X(get_processor_name_name, "MPI_Get_processor_name", "name", "NULL", MPI_ERR_ARG, STD,                    \
    MPI_Get_processor_name(NULL, &out))                                                                       \
  X(get_processor_name_resultlen, "MPI_Get_processor_name", "resultlen", "NULL", MPI_ERR_ARG, STD,          \
    MPI_Get_processor_name(proc, NULL))                                                                       \
  ROWS_ABI(X)                                                                                                 \
  X(initialized_flag, "MPI_Initialized", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Initialized(NULL))           \
  X(finalized_flag, "MPI_Finalized", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Finalized(NULL))                 \
  X(query_thread_provided, "MPI_Query_thread", "provided", "NULL", MPI_ERR_ARG, STD, MPI_Query_thread(NULL)) \
  X(is_thread_main_flag, "MPI_Is_thread_main", "flag", "NULL", MPI_ERR_ARG, IMPL, MPI_Is_thread_main(NULL))  \
  X(init_again, "MPI_Init", "(state)", "MPI already initialized", MPI_ERR_OTHER, IMPL, MPI_Init(NULL, NULL)) \
  X(init_thread_again, "MPI_Init_thread", "(state)", "MPI already initialized", MPI_ERR_OTHER, IMPL,         \
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided))                                                \
  X(init_thread_provided, "MPI_Init_thread", "provided", "NULL", MPI_ERR_ARG, IMPL,                          \
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, NULL))                                                     \
  X(init_thread_required, "MPI_Init_thread", "required", "-5 (no MPI_THREAD_* level)", MPI_ERR_ARG, IMPL,    \
    MPI_Init_thread(NULL, NULL, -5, &provided))

BAD_INPUT_MAIN("Error handlers and the environment", ROWS, setup, teardown)
