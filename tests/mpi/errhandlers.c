/* errhandlers: error handlers and error codes as MPI-4.1 chapter 9 specifies them.
 * An error on an invalid communicator handle has no valid object: MPI-4.x raises it on
 * MPI_COMM_SELF, MPI-3.1 on MPI_COMM_WORLD; the test sets both alike, so it holds for
 * either reading. Usage: errhandlers */
#include <string.h>

#include "check.h"

static int calls = 0;
static int last_code = MPI_SUCCESS;
static MPI_Comm last_comm = MPI_COMM_NULL;

static void record(MPI_Comm* comm, int* code, ...) {
  ++calls;
  last_code = *code;
  last_comm = *comm;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, cls = -1, len = 0;
  char text[MPI_MAX_ERROR_STRING];

  /* The default handler on MPI_COMM_WORLD is MPI_ERRORS_ARE_FATAL. */
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL, "default errhandler is not MPI_ERRORS_ARE_FATAL");
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set MPI_ERRHANDLER_NULL");

  /* MPI_ERRORS_RETURN: the error comes back as a code of the right class. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int rc = MPI_Comm_rank(MPI_COMM_NULL, &rank);
  CHECK(rc != MPI_SUCCESS, "MPI_Comm_rank(MPI_COMM_NULL) succeeded");
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_COMM, "MPI_Comm_rank(MPI_COMM_NULL) gave class %d, expected MPI_ERR_COMM %d", cls,
        MPI_ERR_COMM);
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(len > 0 && (int)strlen(text) == len, "error string length %d", len);
  rc = MPI_Barrier(MPI_COMM_NULL);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_COMM, "MPI_Barrier(MPI_COMM_NULL) gave class %d", cls);

  /* Every error class maps to itself and has a string. */
  const int classes[] = {MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_COMM, MPI_ERR_RANK,
                         MPI_ERR_ARG,  MPI_ERR_OTHER,  MPI_ERR_INTERN, MPI_ERR_RMA_SYNC, MPI_ERR_WIN};
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
    CHECK_MPI(MPI_Error_class(classes[i], &cls));
    CHECK(cls == classes[i], "class of class %d is %d", classes[i], cls);
    CHECK_MPI(MPI_Error_string(classes[i], text, &len));
    CHECK(len > 0, "no string for class %d", classes[i]);
  }

  /* A user handler is called with the comm and the code, and the call returns. */
  MPI_Errhandler mine;
  CHECK_MPI(MPI_Comm_create_errhandler(record, &mine));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, mine));
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == mine, "get_errhandler did not return the handler just set");
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK_MPI(MPI_Errhandler_free(&mine)); /* still attached to the comm: stays usable */
  rc = MPI_Comm_size(MPI_COMM_NULL, &rank);
  CHECK(calls == 1, "user handler called %d times, expected 1", calls);
  CHECK(rc == last_code, "returned code %d differs from the one passed to the handler %d", rc, last_code);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_COMM, "class %d", cls);
  (void)last_comm;

  /* MPI_Comm_call_errhandler invokes the handler and returns MPI_SUCCESS. */
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
  CHECK(calls == 2 && last_code == MPI_ERR_OTHER, "call_errhandler: calls %d code %d", calls, last_code);
  CHECK(last_comm == MPI_COMM_WORLD, "handler got another communicator");

  /* Each communicator keeps its own handler. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG));
  CHECK(calls == 2, "MPI_COMM_SELF's MPI_ERRORS_RETURN called the user handler of MPI_COMM_WORLD");
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG));
  CHECK(calls == 3 && last_code == MPI_ERR_ARG, "calls %d code %d", calls, last_code);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
