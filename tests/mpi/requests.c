/* requests: MPI_Request completion calls (MPI-4.1 3.7.3-3.7.5, 3.8.4) exercised through
 * generalized requests (13.4), whose completion the test controls: completed before and
 * after the wait, from a second thread, query_fn setting MPI_SOURCE/MPI_TAG/count and the
 * cancelled bit, cancel_fn/free_fn call counts and order, an error from query_fn
 * (MPI_ERR_IN_STATUS in the multiple-completion calls), the MPI_REQUEST_NULL rules, and
 * error classes under MPI_ERRORS_RETURN. Every rank runs the same checks on its own.
 *
 * Usage: requests [abort]
 *   abort: the last rank SIGKILLs itself while the others wait (MPI_ERRORS_RETURN) on a
 *   generalized request nobody completes; a survivor prints what MPI_Wait returned and
 *   exits 5 if it was an error (as die_in_barrier.c's "return" mode; shmpi returns
 *   MPI_ERR_PROC_ABORTED, most MPIs kill the survivors instead).
 *
 * Environment:
 *   REQUESTS_PEER=1 skips shmpi's promises beyond the standard: invalid and stale handles
 *     are MPI_ERR_REQUEST with the call and array index in the message, a request given
 *     twice in one array is refused, MPI_STATUS_IGNORE/NULL arguments are MPI_ERR_ARG,
 *     MPI_Grequest_complete may run on another thread during MPI_Wait even below
 *     MPI_THREAD_MULTIPLE, and a free_fn error is returned by the call that frees.
 *   Peer deviations from the standard (set by tests/peer/run_against_peer.sh):
 *   REQUESTS_NEGATIVE_COUNT_IS_ARG / REQUESTS_NULL_ARRAY_IS_REQUEST: the class of a
 *     negative count / a NULL array with count > 0 (Open MPI 4.1: MPI_ERR_ARG /
 *     MPI_ERR_REQUEST; shmpi and MPICH: MPI_ERR_COUNT / MPI_ERR_ARG). The standard
 *     names no class for these; the toggles keep the checks exact.
 *   REQUESTS_NULL_REQUEST_PTR_IS_REQUEST: MPI_Wait(NULL, ...) is MPI_ERR_REQUEST, not
 *     MPI_ERR_ARG (Open MPI 4.1).
 *   REQUESTS_FREE_FN_AT_REQUEST_FREE: MPI_Request_free of an incomplete generalized
 *     request calls free_fn at once (MPICH 4.0); 13.4.1 says free_fn runs in whichever
 *     of MPI_Request_free and MPI_Grequest_complete comes last. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int g_peer; /* REQUESTS_PEER */
/* MPI_STATUSES_IGNORE through a variable: MPICH's is (MPI_Status *)1, which GCC 12's
 * -Wstringop-overflow takes for a zero-sized array argument. */
static MPI_Status* g_statuses_ignore;
#define STATUSES_IGNORE g_statuses_ignore
static int g_seq;  /* orders callback invocations */

typedef struct {
  int queries, frees, cancels;
  int query_seq, free_seq;    /* g_seq at the last query_fn / free_fn call */
  int cancel_complete;        /* the complete argument of the last cancel_fn call */
  int source, tag, count;     /* what query_fn reports */
  int cancelled;              /* query_fn reports the request cancelled */
  int query_error;            /* query_fn returns it (and puts it in MPI_ERROR) */
  int free_error;             /* free_fn returns it */
} State;

static int query_fn(void* extra, MPI_Status* st) {
  State* s = (State*)extra;
  s->queries++;
  s->query_seq = ++g_seq;
  st->MPI_SOURCE = s->source;
  st->MPI_TAG = s->tag;
  MPI_Status_set_elements(st, MPI_INT, s->count);
  MPI_Status_set_cancelled(st, s->cancelled);
  /* The standard's channel is the return value; Open MPI 4.1 also reads MPI_ERROR. */
  if (s->query_error != MPI_SUCCESS) st->MPI_ERROR = s->query_error;
  return s->query_error;
}

static int free_fn(void* extra) {
  State* s = (State*)extra;
  s->frees++;
  s->free_seq = ++g_seq;
  return s->free_error;
}

static int cancel_fn(void* extra, int complete) {
  State* s = (State*)extra;
  s->cancels++;
  s->cancel_complete = complete;
  return MPI_SUCCESS;
}

static void init_state(State* s, int source, int tag, int count) {
  memset(s, 0, sizeof *s);
  s->source = source;
  s->tag = tag;
  s->count = count;
}

static MPI_Request start(State* s) {
  MPI_Request r = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r));
  CHECK(r != MPI_REQUEST_NULL, "MPI_Grequest_start returned MPI_REQUEST_NULL");
  return r;
}

static int class_of(int rc) {
  int cls = -1;
  CHECK_MPI(MPI_Error_class(rc, &cls));
  return cls;
}

static int env(const char* name) { return getenv(name) != NULL; }

static void poison(MPI_Status* st) {
  memset(st, 0x5a, sizeof *st);
  st->MPI_SOURCE = 77;
  st->MPI_TAG = 78;
}

/* MPI-4.1 3.7.3: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0, not cancelled. */
static void check_empty(const MPI_Status* st, const char* what) {
  int n = -1, c = -1;
  CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG, "%s: empty status has source %d tag %d",
        what, st->MPI_SOURCE, st->MPI_TAG);
  CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
  CHECK(n == 0, "%s: empty status has count %d", what, n);
  CHECK_MPI(MPI_Test_cancelled(st, &c));
  CHECK(c == 0, "%s: empty status is cancelled", what);
}

/* What query_fn of `s` reported. */
static void check_status(const MPI_Status* st, const State* s, const char* what) {
  int n = -1, e = -1, c = -1;
  CHECK(st->MPI_SOURCE == s->source && st->MPI_TAG == s->tag, "%s: source %d tag %d, expected %d %d", what,
        st->MPI_SOURCE, st->MPI_TAG, s->source, s->tag);
  CHECK_MPI(MPI_Get_count(st, MPI_INT, &n));
  CHECK(n == s->count, "%s: MPI_Get_count %d, expected %d", what, n, s->count);
  CHECK_MPI(MPI_Get_elements(st, MPI_INT, &e));
  CHECK(e == s->count, "%s: MPI_Get_elements %d, expected %d", what, e, s->count);
  CHECK_MPI(MPI_Test_cancelled(st, &c));
  CHECK(c == (s->cancelled != 0), "%s: MPI_Test_cancelled %d, expected %d", what, c, s->cancelled != 0);
}

/* query_fn may run several times per request (13.4.1; MPICH 4.0's Waitall runs it
 * twice); shmpi runs it once per call that returns the request's status. */
static int queries_ok(int queries, int expected) { return g_peer ? queries >= expected : queries == expected; }

/* query_fn (once on shmpi), then free_fn once, after it. */
static void check_retired(const State* s, const char* what) {
  CHECK(queries_ok(s->queries, 1) && s->frees == 1, "%s: query_fn called %d times, free_fn %d (expected 1, 1)", what,
        s->queries, s->frees);
  CHECK(s->query_seq < s->free_seq, "%s: free_fn ran before query_fn", what);
}

static void test_null_requests(void) {
  MPI_Request r = MPI_REQUEST_NULL, rs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st, sts[3];
  int flag = -1, index = -1, out = -1, idx[3];

  poison(&st);
  CHECK_MPI(MPI_Wait(&r, &st));
  check_empty(&st, "MPI_Wait(MPI_REQUEST_NULL)");
  CHECK(r == MPI_REQUEST_NULL, "MPI_Wait changed a null handle");
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));

  poison(&st);
  CHECK_MPI(MPI_Test(&r, &flag, &st));
  CHECK(flag == 1, "MPI_Test(MPI_REQUEST_NULL) flag %d", flag);
  check_empty(&st, "MPI_Test(MPI_REQUEST_NULL)");

  poison(&st);
  flag = -1;
  CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
  CHECK(flag == 1, "MPI_Request_get_status(MPI_REQUEST_NULL) flag %d", flag);
  check_empty(&st, "MPI_Request_get_status(MPI_REQUEST_NULL)");

  poison(&st);
  CHECK_MPI(MPI_Waitany(3, rs, &index, &st));
  CHECK(index == MPI_UNDEFINED, "MPI_Waitany over null requests: index %d, expected MPI_UNDEFINED", index);
  check_empty(&st, "MPI_Waitany over null requests");
  CHECK_MPI(MPI_Waitany(0, NULL, &index, MPI_STATUS_IGNORE));
  CHECK(index == MPI_UNDEFINED, "MPI_Waitany(0): index %d", index);

  poison(&st);
  flag = -1;
  CHECK_MPI(MPI_Testany(3, rs, &index, &flag, &st));
  CHECK(flag == 1 && index == MPI_UNDEFINED, "MPI_Testany over null requests: flag %d index %d", flag, index);
  check_empty(&st, "MPI_Testany over null requests");

  CHECK_MPI(MPI_Waitsome(3, rs, &out, idx, sts));
  CHECK(out == MPI_UNDEFINED, "MPI_Waitsome over null requests: outcount %d, expected MPI_UNDEFINED", out);
  out = -1;
  CHECK_MPI(MPI_Testsome(3, rs, &out, idx, STATUSES_IGNORE));
  CHECK(out == MPI_UNDEFINED, "MPI_Testsome over null requests: outcount %d", out);
  out = -1;
  CHECK_MPI(MPI_Waitsome(0, NULL, &out, NULL, STATUSES_IGNORE));
  CHECK(out == MPI_UNDEFINED, "MPI_Waitsome(0): outcount %d", out);

  for (int i = 0; i < 3; ++i) poison(&sts[i]);
  CHECK_MPI(MPI_Waitall(3, rs, sts));
  for (int i = 0; i < 3; ++i) check_empty(&sts[i], "MPI_Waitall over null requests");
  CHECK_MPI(MPI_Waitall(0, NULL, STATUSES_IGNORE));
  flag = -1;
  CHECK_MPI(MPI_Testall(3, rs, &flag, STATUSES_IGNORE));
  CHECK(flag == 1, "MPI_Testall over null requests: flag %d", flag);
}

static void test_wait_test(void) {
  State s;
  MPI_Status st;
  int flag = -1;

  /* Completed before the wait. */
  init_state(&s, 3, 42, 5);
  MPI_Request r = start(&s);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK(s.queries == 0 && s.frees == 0, "callbacks ran in MPI_Grequest_complete");
  poison(&st);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(r == MPI_REQUEST_NULL, "MPI_Wait did not free the completed request");
  check_status(&st, &s, "MPI_Wait");
  check_retired(&s, "MPI_Wait");

  /* MPI_STATUS_IGNORE: query_fn still runs (13.4.1). */
  init_state(&s, 1, 2, 0);
  r = start(&s);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  check_retired(&s, "MPI_Wait with MPI_STATUS_IGNORE");

  /* MPI_Test before and after completion. */
  init_state(&s, 0, 7, 9);
  r = start(&s);
  for (int i = 0; i < 3; ++i) {
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(flag == 0, "MPI_Test on an incomplete request: flag %d", flag);
  }
  CHECK(r != MPI_REQUEST_NULL && s.queries == 0 && s.frees == 0, "MPI_Test touched an incomplete request");
  CHECK_MPI(MPI_Grequest_complete(r));
  poison(&st);
  CHECK_MPI(MPI_Test(&r, &flag, &st));
  CHECK(flag == 1 && r == MPI_REQUEST_NULL, "MPI_Test on a complete request: flag %d", flag);
  check_status(&st, &s, "MPI_Test");
  check_retired(&s, "MPI_Test");

  /* MPI_Request_get_status: no query before completion, a query per call after, and
   * the request stays valid. */
  init_state(&s, 4, 8, 16);
  r = start(&s);
  CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
  CHECK(flag == 0 && s.queries == 0, "MPI_Request_get_status on an incomplete request: flag %d queries %d", flag,
        s.queries);
  CHECK_MPI(MPI_Grequest_complete(r));
  poison(&st);
  CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
  CHECK(flag == 1 && queries_ok(s.queries, 1) && s.frees == 0, "MPI_Request_get_status: flag %d queries %d frees %d", flag,
        s.queries, s.frees);
  check_status(&st, &s, "MPI_Request_get_status");
  CHECK_MPI(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
  CHECK(flag == 1 && queries_ok(s.queries, 2), "second MPI_Request_get_status: flag %d queries %d", flag, s.queries);
  CHECK(r != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(r == MPI_REQUEST_NULL && queries_ok(s.queries, 3) && s.frees == 1, "MPI_Wait after get_status: queries %d frees %d",
        s.queries, s.frees);
  check_status(&st, &s, "MPI_Wait after MPI_Request_get_status");
}

static void test_multiple(void) {
  State s[4];
  MPI_Request r[4];
  MPI_Status st[4], one;
  int flag = -1, index = -1, out = -1, idx[4];

  /* Waitall: two complete before, one null, one completed between Testall calls. */
  for (int i = 0; i < 4; ++i) init_state(&s[i], i, 100 + i, 10 * i);
  r[0] = start(&s[0]);
  r[1] = MPI_REQUEST_NULL;
  r[2] = start(&s[2]);
  r[3] = start(&s[3]);
  CHECK_MPI(MPI_Grequest_complete(r[0]));
  CHECK_MPI(MPI_Grequest_complete(r[3]));
  CHECK_MPI(MPI_Testall(4, r, &flag, st));
  CHECK(flag == 0, "MPI_Testall with an incomplete request: flag %d", flag);
  CHECK(r[0] != MPI_REQUEST_NULL && r[3] != MPI_REQUEST_NULL && s[0].frees == 0 && s[3].frees == 0,
        "MPI_Testall freed requests although not all were complete");
  CHECK_MPI(MPI_Grequest_complete(r[2]));
  for (int i = 0; i < 4; ++i) poison(&st[i]);
  CHECK_MPI(MPI_Waitall(4, r, st));
  for (int i = 0; i < 4; ++i) CHECK(r[i] == MPI_REQUEST_NULL, "MPI_Waitall left request %d", i);
  check_status(&st[0], &s[0], "MPI_Waitall[0]");
  check_empty(&st[1], "MPI_Waitall[1] (MPI_REQUEST_NULL)");
  check_status(&st[2], &s[2], "MPI_Waitall[2]");
  check_status(&st[3], &s[3], "MPI_Waitall[3]");
  check_retired(&s[0], "MPI_Waitall[0]");
  check_retired(&s[2], "MPI_Waitall[2]");
  check_retired(&s[3], "MPI_Waitall[3]");

  /* Testall completing everything, with MPI_STATUSES_IGNORE. */
  for (int i = 0; i < 2; ++i) {
    init_state(&s[i], i, i, i);
    r[i] = start(&s[i]);
    CHECK_MPI(MPI_Grequest_complete(r[i]));
  }
  CHECK_MPI(MPI_Testall(2, r, &flag, STATUSES_IGNORE));
  CHECK(flag == 1 && r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "MPI_Testall: flag %d", flag);
  check_retired(&s[0], "MPI_Testall[0]");
  check_retired(&s[1], "MPI_Testall[1]");

  /* Waitany / Testany. */
  for (int i = 0; i < 3; ++i) {
    init_state(&s[i], 10 + i, 20 + i, i + 1);
    r[i] = start(&s[i]);
  }
  CHECK_MPI(MPI_Testany(3, r, &index, &flag, &one));
  CHECK(flag == 0 && index == MPI_UNDEFINED, "MPI_Testany with nothing complete: flag %d index %d", flag, index);
  CHECK_MPI(MPI_Grequest_complete(r[1]));
  poison(&one);
  CHECK_MPI(MPI_Waitany(3, r, &index, &one));
  CHECK(index == 1 && r[1] == MPI_REQUEST_NULL, "MPI_Waitany: index %d", index);
  check_status(&one, &s[1], "MPI_Waitany");
  check_retired(&s[1], "MPI_Waitany");
  CHECK(s[0].queries == 0 && s[2].queries == 0, "MPI_Waitany queried an incomplete request");
  CHECK_MPI(MPI_Grequest_complete(r[2]));
  poison(&one);
  CHECK_MPI(MPI_Testany(3, r, &index, &flag, &one));
  CHECK(flag == 1 && index == 2 && r[2] == MPI_REQUEST_NULL, "MPI_Testany: flag %d index %d", flag, index);
  check_status(&one, &s[2], "MPI_Testany");
  CHECK_MPI(MPI_Grequest_complete(r[0]));
  CHECK_MPI(MPI_Waitany(3, r, &index, MPI_STATUS_IGNORE));
  CHECK(index == 0 && r[0] == MPI_REQUEST_NULL, "MPI_Waitany: index %d", index);
  CHECK_MPI(MPI_Waitany(3, r, &index, MPI_STATUS_IGNORE));
  CHECK(index == MPI_UNDEFINED, "MPI_Waitany after all completed: index %d", index);
  for (int i = 0; i < 3; ++i) check_retired(&s[i], "MPI_Waitany/Testany");

  /* Waitsome / Testsome. */
  for (int i = 0; i < 4; ++i) {
    init_state(&s[i], i, 200 + i, 3 * i);
    r[i] = start(&s[i]);
  }
  CHECK_MPI(MPI_Testsome(4, r, &out, idx, st));
  CHECK(out == 0, "MPI_Testsome with nothing complete: outcount %d", out);
  CHECK_MPI(MPI_Grequest_complete(r[0]));
  CHECK_MPI(MPI_Grequest_complete(r[2]));
  for (int i = 0; i < 4; ++i) poison(&st[i]);
  CHECK_MPI(MPI_Testsome(4, r, &out, idx, st));
  CHECK(out == 2, "MPI_Testsome: outcount %d, expected 2", out);
  for (int k = 0; k < out; ++k) {
    CHECK(idx[k] == 0 || idx[k] == 2, "MPI_Testsome: index %d was not complete", idx[k]);
    CHECK(r[idx[k]] == MPI_REQUEST_NULL, "MPI_Testsome did not free request %d", idx[k]);
    check_status(&st[k], &s[idx[k]], "MPI_Testsome");
  }
  CHECK(idx[0] != idx[1], "MPI_Testsome returned index %d twice", idx[0]);
  CHECK(r[1] != MPI_REQUEST_NULL && r[3] != MPI_REQUEST_NULL, "MPI_Testsome freed an incomplete request");
  CHECK_MPI(MPI_Grequest_complete(r[3]));
  poison(&st[0]);
  CHECK_MPI(MPI_Waitsome(4, r, &out, idx, st));
  CHECK(out == 1 && idx[0] == 3 && r[3] == MPI_REQUEST_NULL, "MPI_Waitsome: outcount %d index %d", out, idx[0]);
  check_status(&st[0], &s[3], "MPI_Waitsome");
  CHECK_MPI(MPI_Grequest_complete(r[1]));
  CHECK_MPI(MPI_Waitsome(4, r, &out, idx, STATUSES_IGNORE));
  CHECK(out == 1 && idx[0] == 1, "MPI_Waitsome: outcount %d index %d", out, idx[0]);
  CHECK_MPI(MPI_Waitsome(4, r, &out, idx, STATUSES_IGNORE));
  CHECK(out == MPI_UNDEFINED, "MPI_Waitsome after all completed: outcount %d", out);
  for (int i = 0; i < 4; ++i) check_retired(&s[i], "MPI_Waitsome/Testsome");
}

static void test_cancel_and_free(void) {
  State s;
  MPI_Status st;
  int flag = -1;

  /* Cancel before completion: cancel_fn(complete = false); query_fn reports it. */
  init_state(&s, 0, 1, 0);
  MPI_Request r = start(&s);
  CHECK_MPI(MPI_Cancel(&r));
  CHECK(s.cancels == 1 && s.cancel_complete == 0, "cancel_fn: %d calls, complete %d", s.cancels, s.cancel_complete);
  CHECK(r != MPI_REQUEST_NULL, "MPI_Cancel freed the request");
  s.cancelled = 1;
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(flag == 1, "MPI_Test_cancelled after a cancelled generalized request: %d", flag);
  check_retired(&s, "cancelled request");

  /* Cancel after completion: cancel_fn(complete = true). */
  init_state(&s, 0, 1, 0);
  r = start(&s);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Cancel(&r));
  CHECK(s.cancels == 1 && s.cancel_complete != 0, "cancel_fn after completion: %d calls, complete %d", s.cancels,
        s.cancel_complete);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(flag == 0, "MPI_Test_cancelled: %d", flag);

  /* MPI_Request_free of a complete request: free_fn at once, no query. */
  init_state(&s, 0, 1, 0);
  r = start(&s);
  CHECK_MPI(MPI_Grequest_complete(r));
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
  CHECK(s.frees == 1 && s.queries == 0, "MPI_Request_free: frees %d queries %d", s.frees, s.queries);

  /* MPI_Request_free first: free_fn runs in MPI_Grequest_complete (13.4.1), which takes
   * a copy of the handle. */
  init_state(&s, 0, 1, 0);
  r = start(&s);
  MPI_Request copy = r;
  CHECK_MPI(MPI_Request_free(&r));
  const int early = env("REQUESTS_FREE_FN_AT_REQUEST_FREE");
  CHECK(r == MPI_REQUEST_NULL && s.frees == early, "MPI_Request_free of an incomplete request: free_fn called %d times",
        s.frees);
  CHECK_MPI(MPI_Grequest_complete(copy));
  CHECK(s.frees == 1 && s.queries == 0, "MPI_Grequest_complete after MPI_Request_free: frees %d queries %d", s.frees,
        s.queries);

  /* The cancelled bit on a user status. */
  MPI_Status mine;
  memset(&mine, 0, sizeof mine);
  CHECK_MPI(MPI_Status_set_cancelled(&mine, 1));
  CHECK_MPI(MPI_Test_cancelled(&mine, &flag));
  CHECK(flag == 1, "MPI_Status_set_cancelled(1) then MPI_Test_cancelled: %d", flag);
  CHECK_MPI(MPI_Status_set_elements(&mine, MPI_INT, 4));
  CHECK_MPI(MPI_Test_cancelled(&mine, &flag));
  CHECK(flag == 1, "MPI_Status_set_elements cleared the cancelled bit");
  CHECK_MPI(MPI_Status_set_cancelled(&mine, 0));
  CHECK_MPI(MPI_Test_cancelled(&mine, &flag));
  CHECK(flag == 0, "MPI_Status_set_cancelled(0) then MPI_Test_cancelled: %d", flag);
  int n = -1;
  CHECK_MPI(MPI_Get_count(&mine, MPI_INT, &n));
  CHECK(n == 4, "MPI_Status_set_cancelled changed the count: %d", n);
}

/* A request that failed may be left allocated by an MPI (not by the standard): free it. */
static void drop(MPI_Request* r) {
  if (*r != MPI_REQUEST_NULL) CHECK_MPI(MPI_Request_free(r));
}

/* A good request next to a failed one in a multiple-completion call: completed
 * (MPI_SUCCESS, freed) or, on a peer, left pending (MPI_ERR_PENDING, still valid): then
 * wait for it here. Either way its status is what query_fn said. */
static void settle(MPI_Request* r, MPI_Status* st, const State* s, const char* what) {
  if (g_peer && *r != MPI_REQUEST_NULL && st->MPI_ERROR == MPI_ERR_PENDING) {
    CHECK_MPI(MPI_Wait(r, st));
  } else {
    CHECK(st->MPI_ERROR == MPI_SUCCESS && *r == MPI_REQUEST_NULL, "%s: good request: error %d, %s", what, st->MPI_ERROR,
          *r == MPI_REQUEST_NULL ? "freed" : "not freed");
  }
  check_status(st, s, what);
}

static void test_query_errors(void) {
  State s[3];
  MPI_Request r[3];
  MPI_Status st[3], one;
  int rc, out = -1, idx[3];

  /* Waitall: the failing request's status carries the error, the others MPI_SUCCESS,
   * or MPI_ERR_PENDING (3.7.5) if the call left them alone: then they are still to be
   * waited for (MPICH 4.0 stops at the first failure; shmpi completes every one). */
  for (int i = 0; i < 3; ++i) {
    init_state(&s[i], i, 300 + i, i);
    r[i] = start(&s[i]);
  }
  s[1].query_error = MPI_ERR_OTHER;
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Grequest_complete(r[i]));
  for (int i = 0; i < 3; ++i) poison(&st[i]);
  rc = MPI_Waitall(3, r, st);
  CHECK(class_of(rc) == MPI_ERR_IN_STATUS, "MPI_Waitall with a failing query_fn: class %d", class_of(rc));
  CHECK(class_of(st[1].MPI_ERROR) == MPI_ERR_OTHER, "MPI_Waitall: failed status carries class %d",
        class_of(st[1].MPI_ERROR));
  for (int i = 0; i < 3; i += 2) settle(&r[i], &st[i], &s[i], "MPI_Waitall next to a failure");
  drop(&r[1]);
  for (int i = 0; i < 3; ++i) CHECK(s[i].frees == 1, "request %d: free_fn called %d times", i, s[i].frees);

  /* Waitsome and Testsome: MPI_ERR_IN_STATUS too. */
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 2; ++i) {
      init_state(&s[i], i, i, i);
      r[i] = start(&s[i]);
      CHECK_MPI(MPI_Grequest_complete(r[i]));
    }
    s[0].query_error = MPI_ERR_OTHER;
    rc = pass == 0 ? MPI_Waitsome(2, r, &out, idx, st) : MPI_Testsome(2, r, &out, idx, st);
    const char* call = pass == 0 ? "MPI_Waitsome" : "MPI_Testsome";
    CHECK(class_of(rc) == MPI_ERR_IN_STATUS, "%s with a failing query_fn: class %d", call, class_of(rc));
    CHECK(out >= 1 && out <= 2, "%s: outcount %d", call, out);
    int saw_failure = 0;
    for (int k = 0; k < out; ++k) {
      if (idx[k] == 0) {
        saw_failure = 1;
        CHECK(class_of(st[k].MPI_ERROR) == MPI_ERR_OTHER, "%s: failed status class %d", call, class_of(st[k].MPI_ERROR));
      } else {
        CHECK(idx[k] == 1, "%s: index %d", call, idx[k]);
        settle(&r[1], &st[k], &s[1], call);
      }
    }
    CHECK(saw_failure, "%s: the failed request is not among the %d returned", call, out);
    if (r[1] != MPI_REQUEST_NULL) {
      /* A peer may leave it out of outcount altogether; shmpi returns every done one. */
      CHECK(g_peer && out == 1, "%s: request 1 left although complete", call);
      CHECK_MPI(MPI_Wait(&r[1], &one));
      check_status(&one, &s[1], call);
    }
    drop(&r[0]);
    CHECK(s[0].frees == 1 && s[1].frees == 1, "%s: free_fn calls %d %d", call, s[0].frees, s[1].frees);
  }

  /* The single-completion calls return the error itself. */
  init_state(&s[0], 0, 0, 0);
  s[0].query_error = MPI_ERR_OTHER;
  r[0] = start(&s[0]);
  CHECK_MPI(MPI_Grequest_complete(r[0]));
  rc = MPI_Wait(&r[0], &one);
  CHECK(class_of(rc) == MPI_ERR_OTHER, "MPI_Wait with a failing query_fn: class %d", class_of(rc));
  drop(&r[0]);
  CHECK(s[0].frees == 1, "MPI_Wait with a failing query_fn: free_fn called %d times", s[0].frees);

  if (!g_peer) {
    /* shmpi: a free_fn error is returned by the call that frees (13.4.1). */
    init_state(&s[0], 0, 0, 0);
    s[0].free_error = MPI_ERR_OTHER;
    r[0] = start(&s[0]);
    CHECK_MPI(MPI_Grequest_complete(r[0]));
    rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    CHECK(class_of(rc) == MPI_ERR_OTHER && r[0] == MPI_REQUEST_NULL, "MPI_Wait with a failing free_fn: class %d",
          class_of(rc));
  }
}

static void check_class(int rc, int expected, const char* what) {
  CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  CHECK(class_of(rc) == expected, "%s: class %d, expected %d", what, class_of(rc), expected);
}

static void check_message(int rc, const char* part1, const char* part2) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(strstr(text, part1) != NULL && strstr(text, part2) != NULL, "message \"%s\" lacks \"%s\" or \"%s\"", text,
        part1, part2);
}

static void test_errors(void) {
  MPI_Request rs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}, r = MPI_REQUEST_NULL;
  MPI_Status st;
  int flag, index, out, idx[2], rc;
  const int count_cls = env("REQUESTS_NEGATIVE_COUNT_IS_ARG") ? MPI_ERR_ARG : MPI_ERR_COUNT;
  const int array_cls = env("REQUESTS_NULL_ARRAY_IS_REQUEST") ? MPI_ERR_REQUEST : MPI_ERR_ARG;

  check_class(MPI_Waitall(-1, rs, STATUSES_IGNORE), count_cls, "MPI_Waitall(count -1)");
  check_class(MPI_Testall(-1, rs, &flag, STATUSES_IGNORE), count_cls, "MPI_Testall(count -1)");
  check_class(MPI_Waitany(-1, rs, &index, &st), count_cls, "MPI_Waitany(count -1)");
  check_class(MPI_Testany(-1, rs, &index, &flag, &st), count_cls, "MPI_Testany(count -1)");
  check_class(MPI_Waitsome(-1, rs, &out, idx, STATUSES_IGNORE), count_cls, "MPI_Waitsome(incount -1)");
  check_class(MPI_Testsome(-1, rs, &out, idx, STATUSES_IGNORE), count_cls, "MPI_Testsome(incount -1)");
  check_class(MPI_Waitall(2, NULL, STATUSES_IGNORE), array_cls, "MPI_Waitall(NULL array)");
  check_class(MPI_Waitany(2, NULL, &index, &st), array_cls, "MPI_Waitany(NULL array)");
  check_class(MPI_Testsome(2, NULL, &out, idx, STATUSES_IGNORE), array_cls, "MPI_Testsome(NULL array)");
  check_class(MPI_Request_free(&r), MPI_ERR_REQUEST, "MPI_Request_free(MPI_REQUEST_NULL)");
  check_class(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_Grequest_complete(MPI_REQUEST_NULL)");
  check_class(MPI_Cancel(&r), MPI_ERR_REQUEST, "MPI_Cancel(MPI_REQUEST_NULL)");
  check_class(MPI_Wait(NULL, &st), env("REQUESTS_NULL_REQUEST_PTR_IS_REQUEST") ? MPI_ERR_REQUEST : MPI_ERR_ARG,
              "MPI_Wait(NULL)");

  if (g_peer) return;
  /* shmpi: invalid and stale handles, messages naming the call and the index. */
  State s;
  init_state(&s, 0, 0, 0);
  MPI_Request good = start(&s), stale = start(&s);
  MPI_Request stale_copy = stale;
  CHECK_MPI(MPI_Grequest_complete(stale));
  CHECK_MPI(MPI_Wait(&stale, MPI_STATUS_IGNORE));
  MPI_Request garbage;
  memset(&garbage, 0x5a, sizeof garbage);
  MPI_Request arr[3] = {good, MPI_REQUEST_NULL, stale_copy};
  rc = MPI_Waitall(3, arr, STATUSES_IGNORE);
  check_class(rc, MPI_ERR_REQUEST, "MPI_Waitall with a stale handle");
  check_message(rc, "MPI_Waitall", "array_of_requests[2]");
  CHECK(arr[0] == good, "a failed MPI_Waitall changed a valid handle");
  arr[2] = garbage;
  rc = MPI_Testsome(3, arr, &out, idx, STATUSES_IGNORE);
  check_class(rc, MPI_ERR_REQUEST, "MPI_Testsome with a garbage handle");
  check_message(rc, "MPI_Testsome", "array_of_requests[2]");
  rc = MPI_Wait(&stale_copy, MPI_STATUS_IGNORE);
  check_class(rc, MPI_ERR_REQUEST, "MPI_Wait on a freed request");
  check_message(rc, "MPI_Wait", "request");
  check_class(MPI_Test(&garbage, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "MPI_Test(garbage)");
  check_class(MPI_Request_get_status(garbage, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST,
              "MPI_Request_get_status(garbage)");
  check_class(MPI_Grequest_complete(stale_copy), MPI_ERR_REQUEST, "MPI_Grequest_complete on a freed request");
  /* A request given twice in one array. */
  MPI_Request twice[3] = {good, MPI_REQUEST_NULL, good};
  rc = MPI_Waitall(3, twice, STATUSES_IGNORE);
  check_class(rc, MPI_ERR_REQUEST, "MPI_Waitall with a request twice");
  check_message(rc, "array_of_requests[2]", "array_of_requests[0]");
  /* NULL outputs. */
  check_class(MPI_Test(&good, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG, "MPI_Test(flag NULL)");
  check_class(MPI_Waitany(1, &good, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG, "MPI_Waitany(index NULL)");
  check_class(MPI_Testsome(1, &good, NULL, idx, STATUSES_IGNORE), MPI_ERR_ARG, "MPI_Testsome(outcount NULL)");
  check_class(MPI_Testsome(1, &good, &out, NULL, STATUSES_IGNORE), MPI_ERR_ARG, "MPI_Testsome(indices NULL)");
  check_class(MPI_Test_cancelled(MPI_STATUS_IGNORE, &flag), MPI_ERR_ARG, "MPI_Test_cancelled(MPI_STATUS_IGNORE)");
  check_class(MPI_Status_set_cancelled(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG, "MPI_Status_set_cancelled(MPI_STATUS_IGNORE)");
  check_class(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, NULL), MPI_ERR_ARG, "MPI_Grequest_start(NULL)");
  /* Completing twice. */
  CHECK_MPI(MPI_Grequest_complete(good));
  check_class(MPI_Grequest_complete(good), MPI_ERR_REQUEST, "a second MPI_Grequest_complete");
  CHECK_MPI(MPI_Wait(&good, MPI_STATUS_IGNORE));
}

/* ---- threads ---------------------------------------------------------------------- */

typedef struct {
  MPI_Request req;
  int call_mpi;          /* the thread calls MPI_Grequest_complete itself */
  atomic_int done;       /* the work is done (and completed, if call_mpi) */
  int rc;
} Worker;

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void* worker_main(void* arg) {
  Worker* w = (Worker*)arg;
  sleep_ms(30); /* long enough for the waiter to be asleep in MPI_Wait */
  w->rc = w->call_mpi ? MPI_Grequest_complete(w->req) : MPI_SUCCESS;
  atomic_store(&w->done, 1);
  return NULL;
}

/* Completion by a second thread while the main thread waits. With call_mpi the thread
 * calls MPI_Grequest_complete during MPI_Wait/Waitany; otherwise it only does the work
 * and the main thread completes the request once it sees it done (MPI_Test polling). */
static void wait_for_thread(int call_mpi, int any) {
  State s, other;
  init_state(&s, 5, 55, 555);
  init_state(&other, 0, 0, 0);
  Worker w = {MPI_REQUEST_NULL, call_mpi, 0, MPI_SUCCESS};
  w.req = start(&s);
  MPI_Request keep = w.req;
  MPI_Request rs[2] = {start(&other), w.req};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, worker_main, &w) == 0, "pthread_create failed");
  MPI_Status st;
  if (!call_mpi) {
    int flag = 0;
    while (!atomic_load(&w.done)) {
      CHECK_MPI(MPI_Test(&keep, &flag, MPI_STATUS_IGNORE));
      CHECK(flag == 0, "MPI_Test completed a request nobody completed");
      sleep_ms(1);
    }
    CHECK_MPI(MPI_Grequest_complete(keep));
  }
  poison(&st);
  if (any) {
    int index = -1;
    CHECK_MPI(MPI_Waitany(2, rs, &index, &st));
    CHECK(index == 1 && rs[1] == MPI_REQUEST_NULL, "MPI_Waitany woken by another thread: index %d", index);
  } else {
    CHECK_MPI(MPI_Wait(&keep, &st));
    CHECK(keep == MPI_REQUEST_NULL, "MPI_Wait did not free the request");
  }
  CHECK(pthread_join(t, NULL) == 0, "pthread_join failed");
  CHECK(w.rc == MPI_SUCCESS, "MPI_Grequest_complete on the second thread returned %d", w.rc);
  check_status(&st, &s, "completed by a second thread");
  check_retired(&s, "completed by a second thread");
  CHECK_MPI(MPI_Grequest_complete(rs[0]));
  CHECK_MPI(MPI_Wait(&rs[0], MPI_STATUS_IGNORE));
}

/* MPI_Request_free first, then MPI_Grequest_complete on the second thread: free_fn
 * runs there (13.4.1). */
static void free_then_thread_completes(void) {
  State s;
  init_state(&s, 0, 0, 0);
  Worker w = {MPI_REQUEST_NULL, 1, 0, MPI_SUCCESS};
  w.req = start(&s);
  MPI_Request r = w.req;
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(s.frees == env("REQUESTS_FREE_FN_AT_REQUEST_FREE"), "free_fn ran in MPI_Request_free of an incomplete request");
  pthread_t t;
  CHECK(pthread_create(&t, NULL, worker_main, &w) == 0, "pthread_create failed");
  CHECK(pthread_join(t, NULL) == 0, "pthread_join failed");
  CHECK(w.rc == MPI_SUCCESS && s.frees == 1 && s.queries == 0, "completed on a thread after MPI_Request_free: rc %d frees %d",
        w.rc, s.frees);
}

static void test_threads(int provided) {
  if (provided == MPI_THREAD_SINGLE) return;  /* no second thread allowed */
  const int multiple = provided == MPI_THREAD_MULTIPLE;
  wait_for_thread(multiple, 0);
  wait_for_thread(multiple, 1);
  if (!multiple && !g_peer) {
    /* shmpi promises MPI_Grequest_complete from another thread during a wait at every
     * level it provides; a peer only at MPI_THREAD_MULTIPLE. */
    wait_for_thread(1, 0);
    wait_for_thread(1, 1);
  }
  /* The main thread is outside MPI meanwhile: MPI_THREAD_SERIALIZED suffices. */
  if (multiple || provided == MPI_THREAD_SERIALIZED || !g_peer) free_then_thread_completes();
}

static int never_query(void* extra, MPI_Status* st) {
  (void)extra;
  (void)st;
  return MPI_SUCCESS;
}

static int abort_mode(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "abort mode needs at least 2 ranks");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1) {
    sleep_ms(200); /* let the others settle into MPI_Wait (and sleep in it) */
    raise(SIGKILL);
  }
  MPI_Request r;
  CHECK_MPI(MPI_Grequest_start(never_query, NULL, NULL, NULL, &r));
  const int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) {
    int cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
    printf("rank %d: MPI_Wait returned error class %d: %s\n", rank, cls, text);
    fflush(stdout);
    return 5;
  }
  fprintf(stderr, "FAIL rank %d: MPI_Wait completed a request nobody completed\n", rank);
  return 4;
}

int main(int argc, char** argv) {
  int provided = -1;
  CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  g_peer = env("REQUESTS_PEER");
  g_statuses_ignore = MPI_STATUSES_IGNORE;
  /* Errors on requests without a communicator: MPI_COMM_SELF (MPI-4.1 9.3), or
   * MPI_COMM_WORLD in older MPIs; set both. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  if (argc > 1 && strcmp(argv[1], "abort") == 0) return abort_mode();

  test_null_requests();
  test_wait_test();
  test_multiple();
  test_cancel_and_free();
  test_query_errors();
  test_errors();
  test_threads(provided);

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
