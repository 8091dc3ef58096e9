// MPI_Request objects (MPI-4.1 3.7) and generalized requests (13.4): the object behind a
// request handle, its registry, and the waiting the completion calls do.
//
// A request handle is the object's address, accepted only while the registry holds it
// (a freed or garbage handle is MPI_ERR_REQUEST, not a crash). A kind that completes at
// issue (MPI_Rput & co.) makes a complete request with new_completed_request(); a kind
// that completes later either sets `complete` itself (complete_request() when the
// request carries no poll hook: it wakes sleeping waiters) or gives a `poll` hook that
// MPI_Wait/MPI_Test call until it reports completion.
//
// Lifetime: a completed non-persistent request is freed by the Wait/Test call that
// returns it (the handle becomes MPI_REQUEST_NULL). MPI_Request_free on an incomplete
// request detaches it: it is destroyed once complete (a generalized request in
// MPI_Grequest_complete, which then calls free_fn; another kind by the next completion
// call that sees it complete, or reap_detached_requests()). Kinds with more state
// derive from RequestObj; the registry ends them through dispose() (delete by default).
//
// Threads: MPI_Grequest_complete (complete_request) may run on another thread while a
// completion call waits; everything else follows the runtime's MPI_THREAD_SERIALIZED.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>

namespace shmpi::client {

struct RequestObj {
  enum class Kind : std::uint8_t { rma, generalized, p2p, coll };

  explicit RequestObj(Kind k) : kind(k) {}
  virtual ~RequestObj() = default;
  // How the registry ends an unregistered request: delete, unless the kind recycles
  // its objects (nonblocking collectives keep them warm for the next call).
  virtual void dispose() { delete this; }
  RequestObj(const RequestObj&) = delete;
  RequestObj& operator=(const RequestObj&) = delete;

  Kind kind;
  // Completion: either complete already, or poll() is called by Wait/Test until it
  // returns true (the caller then sets `complete`). A request without a poll hook that
  // completes later must be completed with complete_request(), which wakes waiters.
  std::atomic<bool> complete{false};
  bool (*poll)(RequestObj*) = nullptr;
  // What Wait/Test return: MPI_SOURCE, MPI_TAG, the byte count (types/status.hpp) and
  // the cancelled bit (status_cancelled()); MPI_ERROR is the request's error code
  // (MPI_SUCCESS unless the operation failed). Unused for generalized requests, whose
  // status query_fn computes at completion time.
  MPI_Status status{};
  // Opaque to this module (e.g. the window). When raise_on_owner is set, errors of this
  // request (a failed completion, an abort while waiting for it) go through it, so the
  // owner applies its own error handler; else they go to MPI_COMM_SELF's handler.
  void* owner = nullptr;
  int (*raise_on_owner)(void* owner, int code) = nullptr;
  // Persistent kinds (point-to-point, collective): completion makes the request
  // inactive instead of freeing it; an inactive request behaves like MPI_REQUEST_NULL in
  // the completion calls (empty status) until its kind restarts it (active = true,
  // complete = false).
  bool persistent = false;
  bool active = true;

  // Generalized requests (MPI_Grequest_start); a null function is a no-op returning
  // MPI_SUCCESS.
  MPI_Grequest_query_function* query_fn = nullptr;
  MPI_Grequest_free_function* free_fn = nullptr;
  MPI_Grequest_cancel_function* cancel_fn = nullptr;
  void* extra_state = nullptr;

  // One object that stands for many requests, each complete from its start
  // (new_preset_handle): the completion calls return it without freeing it, and it may
  // appear several times in one array.
  bool preset = false;

  // Owned by request.cpp / api_request.cpp.
  bool user_freed = false;   // MPI_Request_free came first: destroy on completion
  std::uint32_t mark = 0;    // duplicate detection in the multiple-completion calls
  int mark_index = 0;
};

// The request behind `r`; nullptr if `r` is MPI_REQUEST_NULL, not a live request, or a
// request the user already freed (MPI_Request_free).
RequestObj* to_request(MPI_Request r);
// Registers `r` (allocated with new, or a derived kind) and returns its handle.
MPI_Request new_request_handle(RequestObj* r);
// A complete request of `kind` returning `st` (MPI_ERROR: the operation's error code).
MPI_Request new_completed_request(RequestObj::Kind kind, const MPI_Status& st);
// Registers `r` (complete, never to be destroyed) as the process's preset request and
// returns its handle: an operation that completed at issue without error hands this
// out instead of a request of its own (no allocation, no registry update, and the
// completion calls find it without the registry's lock). One preset per process.
MPI_Request new_preset_handle(RequestObj* r);
// The preset request once registered, else nullptr.
extern std::atomic<RequestObj*> g_preset;
inline bool is_preset(MPI_Request h) {
  return h != MPI_REQUEST_NULL && reinterpret_cast<RequestObj*>(h) == g_preset.load(std::memory_order_relaxed);
}
// Marks `r` complete and wakes completion calls sleeping on it (may run on another
// thread). If the user freed `r` before, destroys it here (a generalized request's
// free_fn runs first) and returns free_fn's code; else MPI_SUCCESS. `r` must not be
// used after this call unless the caller knows the user has not freed it.
int complete_request(RequestObj* r);
// Destroys detached (user-freed) requests that have completed since.
void reap_detached_requests();

// ---- used by api_request.cpp -----------------------------------------------------------

// MPI-4.1 3.7.3 empty status: MPI_ANY_SOURCE, MPI_ANY_TAG, count 0, not cancelled;
// MPI_ERROR untouched (the multiple-completion calls set it themselves).
void set_empty_status(MPI_Status& s);
// The cancelled bit lives in MPI_Status.MPI_internal[2] (bit 0); [0..1] hold the byte
// count (types/status.hpp).
inline bool status_cancelled(const MPI_Status& s) { return (s.MPI_internal[2] & 1) != 0; }
inline void set_status_cancelled(MPI_Status& s, bool on) {
  s.MPI_internal[2] = on ? (s.MPI_internal[2] | 1) : (s.MPI_internal[2] & ~1);
}

// Like to_request, plus `user_freed` requests (MPI_Grequest_complete takes a copy of a
// handle the user freed, MPI-4.1 13.4.1).
RequestObj* to_request_any(MPI_Request r);
// Checks every non-null handle of `reqs` in one registry pass; returns the index of the
// first invalid one, or -1.
int first_invalid_request(int count, const MPI_Request reqs[]);

// Has `r` completed? Calls its poll hook if not yet.
inline bool request_done(RequestObj* r) {
  if (r->complete.load(std::memory_order_acquire)) return true;
  if (r->poll != nullptr && r->poll(r)) {
    r->complete.store(true, std::memory_order_release);
    return true;
  }
  return false;
}

// Calls a generalized request's query_fn into r->status (reset to an empty status with
// MPI_ERROR = MPI_SUCCESS first). Returns the request's error: query_fn's return value,
// else the MPI_ERROR it left in the status (Open MPI's convention). Other kinds: their
// status's MPI_ERROR.
int query_request(RequestObj* r);
// Ends a completed request after query_request: unregisters and destroys it (for a
// generalized request after calling free_fn) and returns free_fn's code; a persistent
// request is made inactive instead.
int retire_request(RequestObj* r);
// MPI_Request_free: destroys a complete request now (returning free_fn's code),
// detaches an incomplete one.
int free_request(RequestObj* r);

// Raises `code` through r's owner if it has one, else on MPI_COMM_SELF.
struct ErrorSink {
  void* owner = nullptr;
  int (*raise_on_owner)(void*, int) = nullptr;
  static ErrorSink of(const RequestObj* r) { return r ? ErrorSink{r->owner, r->raise_on_owner} : ErrorSink{}; }
  int raise(int code) const;
};

// How the completion calls wait: spin (g_wait budget), then sched_yield, then sleep.
// With only requests that complete_request() completes pending, the sleep is a futex
// wait on a process-wide completion counter (woken by complete_request; 50 ms bound so
// the abort word is still read); with a polled request pending, growing nanosleeps
// (10 us to 1 ms). The caller reads generation() before checking its requests and
// passes it to pause(), so a completion in between is never slept through.
class Backoff {
 public:
  static std::uint32_t generation();
  // `collective`: what is waited for is a collective request, whose members must all
  // run: oversubscribed, it yields without spinning first (WaitContext::coll_spin_limit;
  // 8 ranks on 2 cores, 8-byte MPI_Iallreduce + MPI_Wait: 9.9 -> 6.9 us).
  void pause(std::uint32_t seen_generation, bool polled_pending, bool collective = false);

 private:
  std::uint32_t spins_ = 0;
  std::uint32_t yields_ = 0;
  long sleep_ns_ = 10'000;
  std::uint64_t events_ = 0;
};

// Set by the point-to-point engine at MPI_Init: sleeps until the engine has news (its
// doorbell rings) or `timeout_ns` pass, unless one pass of the engine does something.
// Backoff uses it instead of a blind sleep while a polled request is pending.
extern void (*g_polled_sleep)(long timeout_ns);
// Bumped by the point-to-point engine whenever a pass did something: a Backoff that
// sees it move starts spinning again instead of sleeping between every step of a long
// exchange (a streamed message hands over thousands of chunks in one MPI_Waitall).
extern std::uint64_t g_engine_events;

// A fresh mark for duplicate detection (never 0).
std::uint32_t next_mark();

}  // namespace shmpi::client
