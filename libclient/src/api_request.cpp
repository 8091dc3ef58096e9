// MPI_Wait, MPI_Test and their any/all/some forms, MPI_Request_free,
// MPI_Request_get_status, MPI_Cancel, MPI_Test_cancelled, MPI_Status_set_cancelled
// (MPI-4.1 3.7.3-3.8.4) and generalized requests, MPI_Grequest_start/complete (13.4).
//
// The rules the calls share:
// - MPI_REQUEST_NULL and inactive (persistent) requests complete at once with an empty
//   status; a call whose requests are all null/inactive returns index/outcount
//   MPI_UNDEFINED (flag true for the Test forms).
// - A completed non-persistent request is freed by the call that returns it and its
//   handle set to MPI_REQUEST_NULL, failed ones included (MPICH and Open MPI alike).
// - A generalized request's status is computed by its query_fn when a call returns it
//   (and by each MPI_Request_get_status once complete); free_fn runs when it is freed.
//   The request's error: query_fn's return value, else an error query_fn left in
//   status->MPI_ERROR (Open MPI's convention), else free_fn's return value.
// - The single-completion calls (Wait, Test, Waitany, Testany, Request_get_status)
//   return a failed request's code through the error handler and leave the status's
//   MPI_ERROR untouched (MPI-4.1 3.2.5); the multiple-completion calls set every
//   returned status's MPI_ERROR and return MPI_ERR_IN_STATUS if any request failed.
// - Every handle is checked before any request is touched: an invalid one is
//   MPI_ERR_REQUEST naming the call and the array index; a request given twice in one
//   array is MPI_ERR_REQUEST too (it would be completed twice).
// - Waiting watches the job's abort word: a dead job fails the call with
//   MPI_ERR_PROC_ABORTED, leaving every request as it was.
// Errors of a request go through its owner's error handler (RequestObj::raise_on_owner),
// else, like errors of no object, through MPI_COMM_SELF's.
#include <sched.h>

#include "api.hpp"
#include "coll/nbc.hpp"
#include "p2p/engine.hpp"
#include "request/request.hpp"
#include "wait.hpp"

using namespace shmpi::client;

namespace {

constexpr const char* kInvalid = " is not a valid request (already completed and freed, or never created)";

RequestObj* obj(MPI_Request h) { return h == MPI_REQUEST_NULL ? nullptr : reinterpret_cast<RequestObj*>(h); }

bool inactive(const RequestObj* r) { return r->persistent && !r->active; }

std::string at(const char* call, const char* array, int i) {
  return std::string(call) + ": " + array + "[" + std::to_string(i) + "]";
}

// What a completion call returns of a request's status: all but MPI_ERROR.
void copy_status(const MPI_Status& from, MPI_Status* to) {
  if (to == MPI_STATUS_IGNORE) return;
  to->MPI_SOURCE = from.MPI_SOURCE;
  to->MPI_TAG = from.MPI_TAG;
  for (int i = 0; i < 5; ++i) to->MPI_internal[i] = from.MPI_internal[i];
}

void empty_status(MPI_Status* s) {
  if (s != MPI_STATUS_IGNORE) set_empty_status(*s);
}

// Returns completed `r` (the handle at *handle) to the caller: query, status, free.
// Returns the request's error (query_fn's, else free_fn's).
int finish(RequestObj* r, MPI_Request* handle, MPI_Status* status) {
  const int err = query_request(r);
  copy_status(r->status, status);
  const bool persistent = r->persistent;
  const int freed = retire_request(r);
  if (!persistent) *handle = MPI_REQUEST_NULL;
  return err != MPI_SUCCESS ? err : freed;
}

int aborted(const char* call, const RequestObj* r) {
  return ErrorSink::of(r).raise(
      make_error_code(MPI_ERR_PROC_ABORTED, std::string(call) + ": the job aborted while waiting: " + abort_reason()));
}

// The single request at *request: nullptr with rc = MPI_SUCCESS for MPI_REQUEST_NULL
// (when `null_ok`), nullptr with rc = the raised error otherwise.
RequestObj* request_arg(const char* call, MPI_Request* request, bool null_ok, int& rc) {
  if (request == nullptr) {
    rc = raise(nullptr, MPI_ERR_ARG, std::string(call) + ": request is NULL");
    return nullptr;
  }
  if (*request == MPI_REQUEST_NULL) {
    if (!null_ok) rc = raise(nullptr, MPI_ERR_REQUEST, std::string(call) + ": *request is MPI_REQUEST_NULL");
    return nullptr;
  }
  RequestObj* r = to_request(*request);
  if (r == nullptr) rc = raise(nullptr, MPI_ERR_REQUEST, std::string(call) + ": *request" + kInvalid);
  return r;
}

// Checks an array argument: count, NULL arrays, invalid handles, duplicates. Returns
// MPI_SUCCESS or the raised error.
int check_array(const char* call, const char* count_name, int count, const MPI_Request reqs[]) {
  if (count < 0) {
    return raise(nullptr, MPI_ERR_COUNT, std::string(call) + ": " + count_name + " " + std::to_string(count) + " is negative");
  }
  if (count > 0 && reqs == nullptr) {
    return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": array_of_requests is NULL but " + count_name + " is " +
                                           std::to_string(count));
  }
  const int bad = first_invalid_request(count, reqs);
  if (bad >= 0) return raise(nullptr, MPI_ERR_REQUEST, at(call, "array_of_requests", bad) + kInvalid);
  return MPI_SUCCESS;
}

// A request given twice would be completed (and freed) twice: refused up front by the
// calls that complete several requests.
int check_duplicates(const char* call, int count, const MPI_Request reqs[]) {
  const std::uint32_t mark = next_mark();
  for (int i = 0; i < count; ++i) {
    RequestObj* r = obj(reqs[i]);
    if (r == nullptr || r->preset) continue;  // the preset stands for many requests
    if (r->mark == mark) {
      return raise(nullptr, MPI_ERR_REQUEST, at(call, "array_of_requests", i) + " is the same request as array_of_requests[" +
                                                 std::to_string(r->mark_index) + "]");
    }
    r->mark = mark;
    r->mark_index = i;
  }
  return MPI_SUCCESS;
}

int null_arg(const char* call, const char* what) {
  return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": " + what + " is NULL");
}

// Failures collected by a multiple-completion call; raised as one MPI_ERR_IN_STATUS.
struct Failures {
  int count = 0;
  int first_index = -1;
  int first_code = MPI_SUCCESS;
  ErrorSink sink;

  void add(int index, int code, ErrorSink s) {
    if (code == MPI_SUCCESS) return;
    if (count++ == 0) {
      first_index = index;
      first_code = code;
      sink = s;
    }
  }
  int result(const char* call, int completed) const {
    if (count == 0) return MPI_SUCCESS;
    std::string text = error_text(first_code);
    if (text.empty()) text = "error code " + std::to_string(first_code);
    return sink.raise(make_error_code(
        MPI_ERR_IN_STATUS, std::string(call) + ": " + std::to_string(count) + " of " + std::to_string(completed) +
                               " completed requests failed (see the statuses' MPI_ERROR fields); array_of_requests[" +
                               std::to_string(first_index) + "]: " + text));
  }
};

// Completes the whole array (every request done, or null/inactive): Waitall/Testall.
int finish_all(const char* call, int count, MPI_Request reqs[], MPI_Status statuses[]) {
  Failures failed;
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    RequestObj* r = obj(reqs[i]);
    int err = MPI_SUCCESS;
    if (r == nullptr || inactive(r)) {
      empty_status(st);
    } else {
      const ErrorSink sink = ErrorSink::of(r);
      err = finish(r, &reqs[i], st);
      failed.add(i, err, sink);
    }
    if (st != MPI_STATUS_IGNORE) st->MPI_ERROR = err;
  }
  reap_detached_requests();
  return failed.result(call, count);
}

// Completes the `n` done requests listed in indices: Waitsome/Testsome.
int finish_some(const char* call, int n, MPI_Request reqs[], const int indices[], MPI_Status statuses[]) {
  Failures failed;
  for (int k = 0; k < n; ++k) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[k];
    RequestObj* r = obj(reqs[indices[k]]);
    const ErrorSink sink = ErrorSink::of(r);
    const int err = finish(r, &reqs[indices[k]], st);
    failed.add(indices[k], err, sink);
    if (st != MPI_STATUS_IGNORE) st->MPI_ERROR = err;
  }
  reap_detached_requests();
  return failed.result(call, n);
}

// A test call that found nothing complete. Oversubscribed (more ranks than cores), a
// loop of such calls would keep the core from the very rank it waits for for a whole
// time slice: every 16th one yields the core (as Open MPI's yield_when_idle, which it
// also turns on when oversubscribed).
void test_found_nothing() {
  static std::uint32_t idle = 0;
  if (g_wait.oversubscribed && ++idle % 16 == 0) sched_yield();
  reap_detached_requests();
}

// One completed request returned by a single-completion call.
int finish_one(RequestObj* r, MPI_Request* handle, MPI_Status* status) {
  const ErrorSink sink = ErrorSink::of(r);
  const int err = finish(r, handle, status);
  reap_detached_requests();
  return err == MPI_SUCCESS ? MPI_SUCCESS : sink.raise(err);
}

// Scans for Waitany/Testany/Waitsome/Testsome: what is active, done, polled.
struct Scan {
  bool any_active = false;
  bool polled = false;  // an active, incomplete request has a poll hook
};

}  // namespace

namespace {
// MPI_Wait past the preset request: kept out of line so that the preset path does not
// pay this frame's set-up (6 saved registers and a stack frame, ~17 instructions).
[[gnu::noinline]] int wait_request(MPI_Request* request, MPI_Status* status) {
  int rc = MPI_SUCCESS;
  RequestObj* r = request_arg("MPI_Wait", request, true, rc);
  if (r == nullptr || inactive(r)) {
    if (rc == MPI_SUCCESS) empty_status(status);
    return rc;
  }
  if (!request_done(r)) {
    Backoff backoff;
    for (;;) {
      const std::uint32_t gen = Backoff::generation();
      if (request_done(r)) break;
      if (job_aborted_now()) return aborted("MPI_Wait", r);
      backoff.pause(gen, r->poll != nullptr, r->kind == RequestObj::Kind::coll);
    }
  }
  return finish_one(r, request, status);
}
}  // namespace

extern "C" int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (request != nullptr && is_preset(*request)) [[likely]] {  // a collective complete at issue
    *request = MPI_REQUEST_NULL;
    empty_status(status);
    return MPI_SUCCESS;
  }
  return wait_request(request, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Wait, (MPI_Request*, MPI_Status*))

extern "C" int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (flag == nullptr) return null_arg("MPI_Test", "flag");
  int rc = MPI_SUCCESS;
  RequestObj* r = request_arg("MPI_Test", request, true, rc);
  if (r == nullptr || inactive(r)) {
    if (rc != MPI_SUCCESS) return rc;
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  if (!request_done(r)) {
    *flag = 0;
    test_found_nothing();
    return MPI_SUCCESS;
  }
  *flag = 1;
  return finish_one(r, request, status);
}
SHMPI_PMPI_ALIAS(int, MPI_Test, (MPI_Request*, int*, MPI_Status*))

extern "C" int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  const char* call = "MPI_Waitall";
  int rc = check_array(call, "count", count, array_of_requests);
  if (rc == MPI_SUCCESS) rc = check_duplicates(call, count, array_of_requests);
  if (rc != MPI_SUCCESS) return rc;
  // Wait for every request first (the first incomplete one at a time), then complete
  // them all: an abort while waiting leaves every request untouched.
  Backoff backoff;
  for (int next = 0;;) {
    const std::uint32_t gen = Backoff::generation();
    for (; next < count; ++next) {
      RequestObj* r = obj(array_of_requests[next]);
      if (r != nullptr && !inactive(r) && !request_done(r)) break;
    }
    if (next == count) break;
    RequestObj* pending = obj(array_of_requests[next]);
    if (job_aborted_now()) return aborted(call, pending);
    backoff.pause(gen, pending->poll != nullptr, pending->kind == RequestObj::Kind::coll);
  }
  return finish_all(call, count, array_of_requests, array_of_statuses);
}
SHMPI_PMPI_ALIAS(int, MPI_Waitall, (int, MPI_Request[], MPI_Status[]))

extern "C" int PMPI_Testall(int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]) {
  const char* call = "MPI_Testall";
  if (flag == nullptr) return null_arg(call, "flag");
  int rc = check_array(call, "count", count, array_of_requests);
  if (rc == MPI_SUCCESS) rc = check_duplicates(call, count, array_of_requests);
  if (rc != MPI_SUCCESS) return rc;
  // Every request is polled (progress for each), but none is completed unless all are.
  bool all = true;
  for (int i = 0; i < count; ++i) {
    RequestObj* r = obj(array_of_requests[i]);
    if (r != nullptr && !inactive(r) && !request_done(r)) all = false;
  }
  *flag = all ? 1 : 0;
  if (!all) {
    test_found_nothing();
    return MPI_SUCCESS;
  }
  return finish_all(call, count, array_of_requests, array_of_statuses);
}
SHMPI_PMPI_ALIAS(int, MPI_Testall, (int, MPI_Request[], int*, MPI_Status[]))

extern "C" int PMPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  const char* call = "MPI_Waitany";
  if (index == nullptr) return null_arg(call, "index");
  const int rc = check_array(call, "count", count, array_of_requests);
  if (rc != MPI_SUCCESS) return rc;
  Backoff backoff;
  for (;;) {
    const std::uint32_t gen = Backoff::generation();
    Scan scan;
    RequestObj* first_pending = nullptr;
    for (int i = 0; i < count; ++i) {
      RequestObj* r = obj(array_of_requests[i]);
      if (r == nullptr || inactive(r)) continue;
      scan.any_active = true;
      if (request_done(r)) {
        *index = i;
        return finish_one(r, &array_of_requests[i], status);
      }
      if (first_pending == nullptr) first_pending = r;
      if (r->poll != nullptr) scan.polled = true;
    }
    if (!scan.any_active) {
      *index = MPI_UNDEFINED;
      empty_status(status);
      return MPI_SUCCESS;
    }
    if (job_aborted_now()) return aborted(call, first_pending);
    backoff.pause(gen, scan.polled);
  }
}
SHMPI_PMPI_ALIAS(int, MPI_Waitany, (int, MPI_Request[], int*, MPI_Status*))

extern "C" int PMPI_Testany(int count, MPI_Request array_of_requests[], int* index, int* flag, MPI_Status* status) {
  const char* call = "MPI_Testany";
  if (index == nullptr) return null_arg(call, "index");
  if (flag == nullptr) return null_arg(call, "flag");
  const int rc = check_array(call, "count", count, array_of_requests);
  if (rc != MPI_SUCCESS) return rc;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    RequestObj* r = obj(array_of_requests[i]);
    if (r == nullptr || inactive(r)) continue;
    any_active = true;
    if (request_done(r)) {
      *index = i;
      *flag = 1;
      return finish_one(r, &array_of_requests[i], status);
    }
  }
  *index = MPI_UNDEFINED;
  *flag = any_active ? 0 : 1;
  if (!any_active) empty_status(status);
  test_found_nothing();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Testany, (int, MPI_Request[], int*, int*, MPI_Status*))

namespace {

// Waitsome/Testsome: lists the done requests in indices; returns how many, or
// MPI_UNDEFINED when no request is active.
int collect_done(int incount, MPI_Request reqs[], int indices[], Scan& scan, RequestObj*& first_pending) {
  int n = 0;
  for (int i = 0; i < incount; ++i) {
    RequestObj* r = obj(reqs[i]);
    if (r == nullptr || inactive(r)) continue;
    scan.any_active = true;
    if (request_done(r)) {
      indices[n++] = i;
    } else {
      if (first_pending == nullptr) first_pending = r;
      if (r->poll != nullptr) scan.polled = true;
    }
  }
  return scan.any_active ? n : MPI_UNDEFINED;
}

int some(const char* call, bool wait, int incount, MPI_Request reqs[], int* outcount, int indices[],
         MPI_Status statuses[]) {
  if (outcount == nullptr) return null_arg(call, "outcount");
  int rc = check_array(call, "incount", incount, reqs);
  if (rc == MPI_SUCCESS && incount > 0 && indices == nullptr) {
    rc = raise(nullptr, MPI_ERR_ARG, std::string(call) + ": array_of_indices is NULL but incount is " + std::to_string(incount));
  }
  if (rc == MPI_SUCCESS) rc = check_duplicates(call, incount, reqs);
  if (rc != MPI_SUCCESS) return rc;
  Backoff backoff;
  for (;;) {
    const std::uint32_t gen = Backoff::generation();
    Scan scan;
    RequestObj* first_pending = nullptr;
    const int n = collect_done(incount, reqs, indices, scan, first_pending);
    if (n == MPI_UNDEFINED) {
      *outcount = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    if (n > 0 || !wait) {
      *outcount = n;
      if (n == 0) {
        test_found_nothing();
        return MPI_SUCCESS;
      }
      return finish_some(call, n, reqs, indices, statuses);
    }
    if (job_aborted_now()) return aborted(call, first_pending);
    backoff.pause(gen, scan.polled);
  }
}

}  // namespace

extern "C" int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]) {
  return some("MPI_Waitsome", true, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}
SHMPI_PMPI_ALIAS(int, MPI_Waitsome, (int, MPI_Request[], int*, int[], MPI_Status[]))

extern "C" int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]) {
  return some("MPI_Testsome", false, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}
SHMPI_PMPI_ALIAS(int, MPI_Testsome, (int, MPI_Request[], int*, int[], MPI_Status[]))

extern "C" int PMPI_Request_free(MPI_Request* request) {
  int rc = MPI_SUCCESS;
  RequestObj* r = request_arg("MPI_Request_free", request, false, rc);
  if (r == nullptr) return rc;
  const ErrorSink sink = ErrorSink::of(r);
  // MPI-4.1 6.12 and 6.13: freeing a nonblocking collective's request, or an active
  // persistent collective one, is erroneous (every member must complete the call).
  if (coll::CollRequest* q = coll::as_coll(r); q != nullptr && (!q->persistent || q->active)) {
    return sink.raise(make_error_code(MPI_ERR_REQUEST, q->persistent ? "MPI_Request_free: the persistent collective request is active "
                                                                       "(complete it with MPI_Wait/MPI_Test first)"
                                                                     : "MPI_Request_free: a nonblocking collective's request cannot "
                                                                       "be freed (MPI-4.1 6.12); complete it with MPI_Wait/MPI_Test"));
  }
  *request = MPI_REQUEST_NULL;
  const int err = free_request(r);
  return err == MPI_SUCCESS ? MPI_SUCCESS : sink.raise(err);
}
SHMPI_PMPI_ALIAS(int, MPI_Request_free, (MPI_Request*))

extern "C" int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  if (flag == nullptr) return null_arg("MPI_Request_get_status", "flag");
  RequestObj* r = nullptr;
  if (request != MPI_REQUEST_NULL) {
    r = to_request(request);
    if (r == nullptr) return raise(nullptr, MPI_ERR_REQUEST, std::string("MPI_Request_get_status: request") + kInvalid);
  }
  if (r == nullptr || inactive(r)) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  if (!request_done(r)) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  // Neither freed nor made inactive (MPI-4.1 3.7.3); query_fn runs on every call.
  *flag = 1;
  const int err = query_request(r);
  copy_status(r->status, status);
  return err == MPI_SUCCESS ? MPI_SUCCESS : ErrorSink::of(r).raise(err);
}
SHMPI_PMPI_ALIAS(int, MPI_Request_get_status, (MPI_Request, int*, MPI_Status*))

extern "C" int PMPI_Cancel(MPI_Request* request) {
  int rc = MPI_SUCCESS;
  RequestObj* r = request_arg("MPI_Cancel", request, false, rc);
  if (r == nullptr) return rc;
  if (inactive(r)) return MPI_SUCCESS;
  // A posted receive is withdrawn (it completes cancelled); a send is not cancelled (it
  // completes normally, MPI-4.1 3.8.4 allows that; cancelling sends is deprecated).
  if (p2p::P2pRequest* p = p2p::as_p2p(r)) {
    p2p::cancel(*p);
    return MPI_SUCCESS;
  }
  if (coll::as_coll(r) != nullptr) {
    return ErrorSink::of(r).raise(make_error_code(
        MPI_ERR_REQUEST, "MPI_Cancel: a collective's request cannot be cancelled (MPI-4.1 6.12, 6.13)"));
  }
  // A generalized request's cancel_fn starts the cancellation; its query_fn reports the
  // outcome (MPI_Status_set_cancelled). RMA requests complete at issue: nothing to cancel.
  if (r->kind != RequestObj::Kind::generalized || r->cancel_fn == nullptr) return MPI_SUCCESS;
  const int err = r->cancel_fn(r->extra_state, r->complete.load(std::memory_order_acquire) ? 1 : 0);
  return err == MPI_SUCCESS ? MPI_SUCCESS : ErrorSink::of(r).raise(err);
}
SHMPI_PMPI_ALIAS(int, MPI_Cancel, (MPI_Request*))

extern "C" int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
  if (status == nullptr) return null_arg("MPI_Test_cancelled", "status (MPI_STATUS_IGNORE)");
  if (flag == nullptr) return null_arg("MPI_Test_cancelled", "flag");
  *flag = status_cancelled(*status) ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Test_cancelled, (const MPI_Status*, int*))

extern "C" int PMPI_Status_set_cancelled(MPI_Status* status, int flag) {
  if (status == nullptr) return null_arg("MPI_Status_set_cancelled", "status (MPI_STATUS_IGNORE)");
  set_status_cancelled(*status, flag != 0);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Status_set_cancelled, (MPI_Status*, int))

extern "C" int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                                   MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  if (!initialized()) return not_initialized("MPI_Grequest_start");
  if (request == nullptr) return null_arg("MPI_Grequest_start", "request");
  auto* r = new RequestObj(RequestObj::Kind::generalized);
  r->query_fn = query_fn;
  r->free_fn = free_fn;
  r->cancel_fn = cancel_fn;
  r->extra_state = extra_state;
  set_empty_status(r->status);
  *request = new_request_handle(r);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Grequest_start, (MPI_Grequest_query_function*, MPI_Grequest_free_function*,
                                           MPI_Grequest_cancel_function*, void*, MPI_Request*))

extern "C" int PMPI_Grequest_complete(MPI_Request request) {
  const char* call = "MPI_Grequest_complete";
  if (request == MPI_REQUEST_NULL) return raise(nullptr, MPI_ERR_REQUEST, std::string(call) + ": request is MPI_REQUEST_NULL");
  // A handle the user freed with MPI_Request_free stays valid here (MPI-4.1 13.4.1).
  RequestObj* r = to_request_any(request);
  if (r == nullptr) return raise(nullptr, MPI_ERR_REQUEST, std::string(call) + ": request" + kInvalid);
  if (r->kind != RequestObj::Kind::generalized) {
    return raise(nullptr, MPI_ERR_REQUEST, std::string(call) + ": request is not a generalized request");
  }
  if (r->complete.load(std::memory_order_acquire)) {
    return raise(nullptr, MPI_ERR_REQUEST, std::string(call) + ": request is already complete");
  }
  const ErrorSink sink = ErrorSink::of(r);
  const int err = complete_request(r);  // destroys r if the user freed it (free_fn's code)
  return err == MPI_SUCCESS ? MPI_SUCCESS : sink.raise(err);
}
SHMPI_PMPI_ALIAS(int, MPI_Grequest_complete, (MPI_Request))
