/* Bad-input catalogue: requests (docs/errors.md). MPI_Wait/MPI_Test and their any/all/
 * some forms, MPI_Request_free, MPI_Request_get_status, MPI_Cancel,
 * MPI_Test_cancelled, MPI_Status_set_cancelled, generalized requests, MPI_Start and
 * MPI_Startall.
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1): MPI_ERR_REQUEST (invalid
 * request), MPI_ERR_COUNT, MPI_ERR_ARG, MPI_ERR_BUFFER (a buffered send without an
 * attached buffer, 3.6.1). Which request is invalid where (a nonblocking collective's
 * request given to MPI_Request_free or MPI_Cancel, 6.12; starting an active or a
 * non-persistent request, 3.9; a request twice in one array) is erroneous use the
 * standard leaves detection of open: shmpi's promise (IMPL), unless MPICH and Open MPI
 * answer with the same class (STD), as they do for most of these and for NULL pointers.
 *
 * Objects the rows use (every rank makes them in setup, frees them in teardown):
 * `pending`, a receive nobody matches; `active`, a started persistent receive nobody
 * matches; `inactive`, a persistent receive never started; `ibar`, an MPI_Ibarrier
 * (complete once both ranks posted theirs; still not freeable); `bsend_req`, an
 * MPI_Bsend_init with no buffer attached; `greq`, a generalized request. A failing row
 * must leave all of them as they are, so teardown completes them normally. */
#include "bad_input.h"

enum { TAG_NEVER = 4242 };

static int *rbuf, nranks, other, flag, idx, outcount, indices[4];
static MPI_Request req, pending, active, inactive, ibar, bsend_req, greq, reqs[4], dup_reqs[2];
static MPI_Request bogus; /* a freed request's handle */
static MPI_Status st, sts[4];

static int query_fn(void* extra, MPI_Status* s) {
  (void)extra;
  MPI_Status_set_elements(s, MPI_BYTE, 0);
  MPI_Status_set_cancelled(s, 0);
  s->MPI_SOURCE = MPI_UNDEFINED;
  s->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
static int free_fn(void* extra) {
  (void)extra;
  return MPI_SUCCESS;
}
static int cancel_fn(void* extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}

static void setup(void) {
  int rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  other = (rank + 1) % nranks;
  rbuf = (int*)guarded_alloc(16 * sizeof(int));
  CHECK_MPI(MPI_Irecv(rbuf, 1, MPI_INT, other, TAG_NEVER, MPI_COMM_WORLD, &pending));
  CHECK_MPI(MPI_Recv_init(rbuf + 1, 1, MPI_INT, other, TAG_NEVER + 1, MPI_COMM_WORLD, &active));
  CHECK_MPI(MPI_Start(&active));
  CHECK_MPI(MPI_Recv_init(rbuf + 2, 1, MPI_INT, other, TAG_NEVER + 2, MPI_COMM_WORLD, &inactive));
  CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &ibar));
  CHECK_MPI(MPI_Bsend_init(rbuf + 3, 1, MPI_INT, other, TAG_NEVER + 3, MPI_COMM_WORLD, &bsend_req));
  CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &greq));
  CHECK_MPI(MPI_Isend(rbuf + 4, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &bogus));
  MPI_Request done = bogus;
  CHECK_MPI(MPI_Wait(&done, MPI_STATUS_IGNORE)); /* bogus keeps the freed handle */
  req = MPI_REQUEST_NULL;
  reqs[0] = pending;
  reqs[1] = reqs[2] = reqs[3] = MPI_REQUEST_NULL;
  dup_reqs[0] = dup_reqs[1] = pending;
  watch(rbuf, 16 * sizeof(int));
  watch(&req, sizeof req);
  watch(&pending, sizeof pending);
  watch(&active, sizeof active);
  watch(&inactive, sizeof inactive);
  watch(&ibar, sizeof ibar);
  watch(&bsend_req, sizeof bsend_req);
  watch(&greq, sizeof greq);
  watch(reqs, sizeof reqs);
  watch(dup_reqs, sizeof dup_reqs);
  watch(&flag, sizeof flag);
  watch(&idx, sizeof idx);
  watch(&outcount, sizeof outcount);
  watch(indices, sizeof indices);
  watch(&st, sizeof st);
  watch(sts, sizeof sts);
}

static void teardown(void) {
  CHECK_MPI(MPI_Cancel(&pending));
  CHECK_MPI(MPI_Wait(&pending, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Cancel(&active));
  CHECK_MPI(MPI_Wait(&active, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&active));
  CHECK_MPI(MPI_Request_free(&inactive));
  CHECK_MPI(MPI_Wait(&ibar, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&bsend_req));
  CHECK_MPI(MPI_Grequest_complete(greq));
  CHECK_MPI(MPI_Wait(&greq, MPI_STATUS_IGNORE));
}

#define ROWS(X)                                                                                                     \
  X(wait_request, "MPI_Wait", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Wait(NULL, &st))                            \
  X(wait_freed, "MPI_Wait", "*request", "freed request", MPI_ERR_REQUEST, IMPL, MPI_Wait(&bogus, &st))              \
  X(test_request, "MPI_Test", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Test(NULL, &flag, &st))                     \
  X(test_freed, "MPI_Test", "*request", "freed request", MPI_ERR_REQUEST, IMPL, MPI_Test(&bogus, &flag, &st))       \
  X(test_flag, "MPI_Test", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Test(&pending, NULL, &st))                        \
  X(waitall_count, "MPI_Waitall", "count", "-1", MPI_ERR_COUNT, IMPL, MPI_Waitall(-1, reqs, sts))                   \
  X(waitall_array, "MPI_Waitall", "array_of_requests", "NULL (count 1)", MPI_ERR_ARG, IMPL, MPI_Waitall(1, NULL, sts)) \
  X(waitall_freed, "MPI_Waitall", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,                   \
    MPI_Waitall(1, &bogus, sts))                                                                                     \
  X(waitall_dup, "MPI_Waitall", "array_of_requests[1]", "same request as [0]", MPI_ERR_REQUEST, IMPL,               \
    MPI_Waitall(2, dup_reqs, sts))                                                                                   \
  X(testall_count, "MPI_Testall", "count", "-1", MPI_ERR_COUNT, IMPL, MPI_Testall(-1, reqs, &flag, sts))            \
  X(testall_array, "MPI_Testall", "array_of_requests", "NULL (count 1)", MPI_ERR_ARG, IMPL,                          \
    MPI_Testall(1, NULL, &flag, sts))                                                                                \
  X(testall_freed, "MPI_Testall", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,                   \
    MPI_Testall(1, &bogus, &flag, sts))                                                                              \
  X(testall_dup, "MPI_Testall", "array_of_requests[1]", "same request as [0]", MPI_ERR_REQUEST, IMPL,               \
    MPI_Testall(2, dup_reqs, &flag, sts))                                                                            \
  X(testall_flag, "MPI_Testall", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Testall(1, reqs, NULL, sts))                \
  X(waitany_count, "MPI_Waitany", "count", "-1", MPI_ERR_COUNT, IMPL, MPI_Waitany(-1, reqs, &idx, &st))            \
  X(waitany_array, "MPI_Waitany", "array_of_requests", "NULL (count 1)", MPI_ERR_ARG, IMPL,                          \
    MPI_Waitany(1, NULL, &idx, &st))                                                                                 \
  X(waitany_freed, "MPI_Waitany", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,                   \
    MPI_Waitany(1, &bogus, &idx, &st))                                                                               \
  X(waitany_index, "MPI_Waitany", "index", "NULL", MPI_ERR_ARG, STD, MPI_Waitany(1, reqs, NULL, &st))              \
  X(testany_count, "MPI_Testany", "count", "-1", MPI_ERR_COUNT, IMPL, MPI_Testany(-1, reqs, &idx, &flag, &st))     \
  X(testany_array, "MPI_Testany", "array_of_requests", "NULL (count 1)", MPI_ERR_ARG, IMPL,                          \
    MPI_Testany(1, NULL, &idx, &flag, &st))                                                                          \
  X(testany_freed, "MPI_Testany", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,                   \
    MPI_Testany(1, &bogus, &idx, &flag, &st))                                                                        \
  X(testany_index, "MPI_Testany", "index", "NULL", MPI_ERR_ARG, STD, MPI_Testany(1, reqs, NULL, &flag, &st))       \
  X(testany_flag, "MPI_Testany", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Testany(1, reqs, &idx, NULL, &st))          \
  X(waitsome_count, "MPI_Waitsome", "incount", "-1", MPI_ERR_COUNT, IMPL,                                           \
    MPI_Waitsome(-1, reqs, &outcount, indices, sts))                                                                 \
  X(waitsome_array, "MPI_Waitsome", "array_of_requests", "NULL (incount 1)", MPI_ERR_ARG, IMPL,                     \
    MPI_Waitsome(1, NULL, &outcount, indices, sts))                                                                  \
  X(waitsome_freed, "MPI_Waitsome", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,                 \
    MPI_Waitsome(1, &bogus, &outcount, indices, sts))                                                                \
  X(waitsome_dup, "MPI_Waitsome", "array_of_requests[1]", "same request as [0]", MPI_ERR_REQUEST, IMPL,             \
    MPI_Waitsome(2, dup_reqs, &outcount, indices, sts))                                                              \
  X(waitsome_outcount, "MPI_Waitsome", "outcount", "NULL", MPI_ERR_ARG, STD, MPI_Waitsome(1, reqs, NULL, indices, sts)) \
  X(waitsome_indices, "MPI_Waitsome", "array_of_indices", "NULL", MPI_ERR_ARG, STD,                                \
    MPI_Waitsome(1, reqs, &outcount, NULL, sts))                                                                     \
  X(testsome_count, "MPI_Testsome", "incount", "-1", MPI_ERR_COUNT, IMPL,                                           \
    MPI_Testsome(-1, reqs, &outcount, indices, sts))                                                                 \
  X(testsome_array, "MPI_Testsome", "array_of_requests", "NULL (incount 1)", MPI_ERR_ARG, IMPL,                     \
    MPI_Testsome(1, NULL, &outcount, indices, sts))                                                                  \
  X(testsome_freed, "MPI_Testsome", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,                 \
    MPI_Testsome(1, &bogus, &outcount, indices, sts))                                                                \
  X(testsome_dup, "MPI_Testsome", "array_of_requests[1]", "same request as [0]", MPI_ERR_REQUEST, IMPL,             \
    MPI_Testsome(2, dup_reqs, &outcount, indices, sts))                                                              \
  X(testsome_outcount, "MPI_Testsome", "outcount", "NULL", MPI_ERR_ARG, STD, MPI_Testsome(1, reqs, NULL, indices, sts)) \
  X(testsome_indices, "MPI_Testsome", "array_of_indices", "NULL", MPI_ERR_ARG, STD,                                \
    MPI_Testsome(1, reqs, &outcount, NULL, sts))                                                                     \
  X(request_free_ptr, "MPI_Request_free", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Request_free(NULL))            \
  X(request_free_null, "MPI_Request_free", "*request", "MPI_REQUEST_NULL", MPI_ERR_REQUEST, STD,                   \
    MPI_Request_free(&req))                                                                                          \
  X(request_free_freed, "MPI_Request_free", "*request", "freed request", MPI_ERR_REQUEST, IMPL,                    \
    MPI_Request_free(&bogus))                                                                                        \
  X(request_free_nbc, "MPI_Request_free", "*request", "a nonblocking collective's", MPI_ERR_REQUEST, IMPL,         \
    MPI_Request_free(&ibar))                                                                                         \
  X(get_status_freed, "MPI_Request_get_status", "request", "freed request", MPI_ERR_REQUEST, IMPL,                 \
    MPI_Request_get_status(bogus, &flag, &st))                                                                       \
  X(get_status_flag, "MPI_Request_get_status", "flag", "NULL", MPI_ERR_ARG, STD,                                  \
    MPI_Request_get_status(pending, NULL, &st))                                                                      \
  X(cancel_ptr, "MPI_Cancel", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Cancel(NULL))                              \
  X(cancel_null, "MPI_Cancel", "*request", "MPI_REQUEST_NULL", MPI_ERR_REQUEST, STD, MPI_Cancel(&req))             \
  X(cancel_freed, "MPI_Cancel", "*request", "freed request", MPI_ERR_REQUEST, IMPL, MPI_Cancel(&bogus))            \
  X(cancel_nbc, "MPI_Cancel", "*request", "a nonblocking collective's", MPI_ERR_REQUEST, IMPL, MPI_Cancel(&ibar))  \
  X(test_cancelled_status, "MPI_Test_cancelled", "status", "NULL (MPI_STATUS_IGNORE)", MPI_ERR_ARG, STD,           \
    MPI_Test_cancelled(NULL, &flag))                                                                                 \
  X(test_cancelled_flag, "MPI_Test_cancelled", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Test_cancelled(&st, NULL))    \
  X(set_cancelled_status, "MPI_Status_set_cancelled", "status", "NULL (MPI_STATUS_IGNORE)", MPI_ERR_ARG, STD,      \
    MPI_Status_set_cancelled(NULL, 1))                                                                               \
  X(grequest_start_request, "MPI_Grequest_start", "request", "NULL", MPI_ERR_ARG, IMPL,                            \
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, NULL))                                                    \
  X(grequest_complete_null, "MPI_Grequest_complete", "request", "MPI_REQUEST_NULL", MPI_ERR_REQUEST, STD,          \
    MPI_Grequest_complete(MPI_REQUEST_NULL))                                                                         \
  X(grequest_complete_freed, "MPI_Grequest_complete", "request", "freed request", MPI_ERR_REQUEST, IMPL,           \
    MPI_Grequest_complete(bogus))                                                                                    \
  X(grequest_complete_kind, "MPI_Grequest_complete", "request", "a receive's (not generalized)", MPI_ERR_REQUEST,  \
    STD, MPI_Grequest_complete(pending))                                                                            \
  X(start_ptr, "MPI_Start", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Start(NULL))                                 \
  X(start_null, "MPI_Start", "*request", "MPI_REQUEST_NULL", MPI_ERR_REQUEST, STD, MPI_Start(&req))                \
  X(start_freed, "MPI_Start", "*request", "freed request", MPI_ERR_REQUEST, IMPL, MPI_Start(&bogus))               \
  X(start_nonpersistent, "MPI_Start", "*request", "a nonblocking receive's", MPI_ERR_REQUEST, STD,                \
    MPI_Start(&pending))                                                                                             \
  X(start_active, "MPI_Start", "*request", "active persistent request", MPI_ERR_REQUEST, IMPL, MPI_Start(&active)) \
  X(start_nbc, "MPI_Start", "*request", "a nonblocking collective's", MPI_ERR_REQUEST, STD, MPI_Start(&ibar))     \
  X(start_bsend_nobuf, "MPI_Start", "*request", "MPI_Bsend_init, no buffer attached", MPI_ERR_BUFFER, STD,         \
    MPI_Start(&bsend_req))                                                                                           \
  X(startall_count, "MPI_Startall", "count", "-1", MPI_ERR_COUNT, IMPL, MPI_Startall(-1, &inactive))               \
  X(startall_array, "MPI_Startall", "array_of_requests", "NULL (count 1)", MPI_ERR_ARG, IMPL, MPI_Startall(1, NULL)) \
  X(startall_null, "MPI_Startall", "array_of_requests[0]", "MPI_REQUEST_NULL", MPI_ERR_REQUEST, STD,           \
    MPI_Startall(1, &req))                                                                                           \
  X(startall_freed, "MPI_Startall", "array_of_requests[0]", "freed request", MPI_ERR_REQUEST, IMPL,               \
    MPI_Startall(1, &bogus))                                                                                         \
  X(startall_nonpersistent, "MPI_Startall", "array_of_requests[0]", "a nonblocking receive's", MPI_ERR_REQUEST,    \
    STD, MPI_Startall(1, &pending))                                                                                 \
  X(startall_active, "MPI_Startall", "array_of_requests[0]", "active persistent request", MPI_ERR_REQUEST, STD,   \
    MPI_Startall(1, &active))

BAD_INPUT_MAIN("Requests", ROWS, setup, teardown)
