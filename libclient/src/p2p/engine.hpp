// The point-to-point engine: send and receive requests, matching (MPI-4.1 3.5: by
// communicator context, source and tag, non-overtaking per sender), the progress engine
// that drains this rank's inbox rings and pushes queued sends, and waiting.
//
// Protocols (docs/p2p.md): a message of at most the eager limit (16 KiB by default) is
// copied into the receiver's ring and the send completes at once (a synchronous send
// waits for the receiver's ack at match time). A larger one is a rendezvous: the ring
// carries only an announcement; when it matches, the receiver either clears the sender
// to stream the data through the stream area (both copying at once, on two cores), or,
// with more ranks than cores, copies it straight out of the sender's memory
// (process_vm_readv) and acks.
//
// Matching happens when a record is drained: it goes to the first posted receive that
// matches, else to the unexpected queue (eager payload copied to private memory, so the
// rings never stay full of unmatched messages: flow control cannot deadlock). A new
// receive first searches the unexpected queue, then is posted. Rings are drained in
// order and each sender's records are handled in ring order, so per-sender order holds.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "objects.hpp"
#include "request/request.hpp"
#include "shm_layout/p2p.hpp"
#include "types/datatype.hpp"

namespace shmpi::client::p2p {

enum class Mode : std::uint8_t { standard, sync, ready, buffered };

struct Unexpected;

struct P2pRequest : RequestObj {
  P2pRequest() : RequestObj(Kind::p2p) {}
  ~P2pRequest() override;

  enum class Op : std::uint8_t { send, recv };
  enum class State : std::uint8_t {
    inactive,  // persistent, not started
    queued,    // send: waiting for ring space or an ack slot (pending queue)
    acking,    // send: written, waiting for the receiver's ack
    streaming, // pipelined rendezvous: sender writing / receiver draining data records
    posted,    // recv: in the posted queue
    done,
  };
  Op op = Op::send;
  Mode mode = Mode::standard;
  State state = State::inactive;
  bool internal = false;      // a blocking call's request on its stack: never registered
  const char* call = "";      // the call that posted it, for error messages (a literal)
  CommObj* comm = nullptr;
  std::uint32_t context = 0;
  int my_rank = 0;            // in comm (a send's source)
  int peer = 0;               // comm rank, MPI_ANY_SOURCE or MPI_PROC_NULL
  std::uint32_t world_peer = 0;
  int tag = 0;
  void* buf = nullptr;
  MPI_Count count = 0;
  types::Datatype* type = nullptr;  // holds an internal reference while the request lives
  const types::Flat* flat = nullptr;
  MPI_Count bytes = 0;              // count * type->size
  // send
  std::unique_ptr<std::byte[]> packed;  // rendezvous of a non-contiguous buffer
  std::uint32_t ack_slot = 0;
  std::uint16_t ack_gen = 0;
  bool pipelined = false;
  // pipelined rendezvous: bytes streamed so far (sender: written; receiver: drained) of
  // `total`; the receiver's ring and slot the data comes with
  std::uint64_t streamed = 0;
  std::uint64_t total = 0;
  std::uint32_t stream_sender = 0;
  std::uint32_t ack_bits = 0;       // the message's kind_bits (its ack slot and gen)
  // recv: matched by MPI_Mrecv/MPI_Imrecv from this message instead of the queues
  Unexpected* message = nullptr;
  bool cancel_requested = false;
  // intrusive queue links (posted queue, a peer's pending sends, the acking list)
  P2pRequest* prev = nullptr;
  P2pRequest* next = nullptr;
};

// MPI_Init / MPI_Finalize (finalize after the last barrier; flush_sends before it:
// waits until every send has completed, false if the job aborted).
bool init(std::string& why);
bool flush_sends();
void finalize();

// Fills a request for a send/recv (arguments already validated). Takes an internal
// reference on the type.
void setup(P2pRequest& r, P2pRequest::Op op, Mode mode, CommObj* c, const void* buf, MPI_Count count,
           types::Datatype* t, const types::Flat* f, int peer, int tag);
// Starts a set-up request (also MPI_Start of a persistent one). A send to or a receive
// from MPI_PROC_NULL completes at once. Returns an MPI error class with `why` if the
// peer's inbox cannot be mapped (the request is then complete with that error).
int start(P2pRequest& r, std::string& why);

// Runs the engine once: drains the inbox, pushes queued sends, collects acks. True if it
// did anything.
bool progress();
// Whether anything is outstanding (posted receives, queued or acking sends): waits in
// other calls (barriers, collectives) then keep the engine running.
bool busy();

// Waits until r is done (progress, spin, yield, sleep on the doorbell). False if the job
// aborted first. `what` is shown by shmpi-dump.
bool wait(P2pRequest& r, layout::P2pWait what);
// Waits until done() (progressing); false if the job aborted.
template <class Done>
bool wait_until(Done done, layout::P2pWait what);

// MPI_Cancel of a receive still posted: removes it; it completes cancelled.
void cancel(P2pRequest& r);
// Unlinks an unfinished request from the engine's queues (a blocking call whose wait
// failed: its request lives on the caller's stack). An ack slot it holds stays taken.
void abandon(P2pRequest& r);

// ---- probe and matched messages ----------------------------------------------------

// A drained message nobody has received yet.
struct Unexpected {
  std::uint32_t context = 0;
  int src = 0;
  int tag = 0;
  std::uint64_t bytes = 0;
  std::uint32_t kind_bits = 0;
  std::uint32_t sender = 0;          // world rank (ring index)
  std::uint64_t rndv_addr = 0;
  std::unique_ptr<std::byte[]> payload;  // eager payload
  Unexpected* prev = nullptr;
  Unexpected* next = nullptr;
};

// The first unexpected message matching (context, src, tag), or null (progresses first).
Unexpected* find_unexpected(std::uint32_t context, int src, int tag);
// Removes it from the queue (MPI_Mprobe): it belongs to the caller.
void take_unexpected(Unexpected* u);
// Receives message u (taken) into r (set up, recv): completes r. Frees u.
void receive_message(P2pRequest& r, Unexpected* u);
// What a probe returns for u.
void probe_status(const Unexpected& u, MPI_Status* st);

// Fills a status for a send to / receive from MPI_PROC_NULL (MPI-4.1 3.11).
void proc_null_status(MPI_Status& s);

// The request behind a handle, if it is a point-to-point one.
inline P2pRequest* as_p2p(RequestObj* r) {
  return r != nullptr && r->kind == RequestObj::Kind::p2p ? static_cast<P2pRequest*>(r) : nullptr;
}

}  // namespace shmpi::client::p2p

#include "p2p/engine_wait.hpp"
