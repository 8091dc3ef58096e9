// Point-to-point state of a job, read into plain values (one snapshot) and printed as a
// table section or JSON. Every rank's inbox (shm_layout/p2p.hpp) is a memfd in its own
// fd table, listed in its RankSlot::inbox; it is opened through /proc/<pid>/fd/<fd> and
// read with pread() (never written, never mapped), validated against the listing and
// the geometry, and closed again. An inbox that vanished or does not validate becomes an
// entry with `problem` set, never a crash.
//
// What answers "who waits for what": per rank, the receives it has posted and not
// matched (the first kShownPosted of them), the messages it has drained but not
// received (only their count: they live in the rank's private memory), the records
// still queued in its rings (not drained yet: per sender, count, bytes and the first
// few envelopes), its unfinished sends and the blocking call it is in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shm_layout/p2p.hpp"
#include "shm_layout/segment_view.hpp"

namespace shmpi::dump {

// Envelopes shown per ring (the rest are only counted).
inline constexpr std::size_t kShownRecords = 4;

// A posted receive as the owner shows it (InboxHeader::shown).
struct PostedRow {
  std::uint32_t context;
  std::int32_t src;  // comm rank, MPI_ANY_SOURCE = -1
  std::int32_t tag;  // MPI_ANY_TAG = -2
};

// A record still in a ring (not drained by the owner yet).
struct QueuedRecord {
  std::uint64_t pos;      // its ring position
  bool rendezvous;        // false: eager (payload in the ring)
  bool sync;              // synchronous send (MPI_Ssend): the sender waits for the match
  std::uint32_t context;
  std::int32_t src;       // sender's rank in that communicator, as written
  std::int32_t tag;
  std::uint64_t bytes;    // message size (packed bytes)
};

// The ring of one sender in an inbox; listed only when it holds records or a problem.
struct RingRow {
  std::uint32_t sender;       // world rank
  std::uint64_t head;         // the owner's read position
  std::uint64_t queued;       // records not yet drained (skip records not counted)
  std::uint64_t queued_bytes; // their message bytes
  std::uint64_t ring_used;    // ring bytes they occupy, from head
  std::vector<QueuedRecord> first;  // the first kShownRecords of them
  std::string problem;        // the walk stopped on something inconsistent (the counts
                              // above are what came before it)
};

struct InboxSnapshot {
  // From the rank slot (always set).
  std::uint32_t rank;          // world rank, the inbox's owner
  std::uint32_t dir_state;     // InboxDir::state: 0 none yet, 1 live, 2 closed
  std::int32_t pid;
  std::int32_t fd;
  std::uint32_t ring_bytes;
  std::uint64_t inbox_bytes;
  std::string problem;         // live but could not be read; the rest is unset
  bool read;                   // live and read: the fields below are set
  // From the inbox header (the owner's relaxed stores; a moving rank may be mid-update).
  std::uint32_t posted;
  std::vector<PostedRow> shown;  // min(posted, kShownPosted) of them
  std::uint32_t unexpected;
  std::uint32_t waiting;         // layout::P2pWait
  std::int32_t wait_src;
  std::int32_t wait_tag;
  std::uint32_t wait_context;
  std::uint64_t sends_pending;
  // From the rings.
  std::uint64_t queued;          // over all rings
  std::uint64_t queued_bytes;
  std::vector<RingRow> rings;    // senders with queued records or a problem
};

// Every rank's inbox, in rank order (a rank without a live inbox has read == false and,
// unless its state is corrupt, no problem).
std::vector<InboxSnapshot> snapshot_p2p(const layout::SegmentView& v);

// "none", "recv", ... of a P2pWait; "corrupt(N)" if unknown.
std::string p2p_wait_name(std::uint32_t w);

std::string p2p_table(const std::vector<InboxSnapshot>& in);
std::string p2p_json(const std::vector<InboxSnapshot>& in);  // a JSON array

}  // namespace shmpi::dump
