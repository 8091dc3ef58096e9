// The communicators of a job, read into plain values (one snapshot) and printed as a
// table section or JSON. A communicator's collective block (shm_layout/comm.hpp) is a
// memfd in the fd table of its creator (comm rank 0), listed in the creator's
// RankSlot::comms; it is opened through /proc/<pid>/fd/<fd>, mapped read-only, its
// header, member table and per-rank progress words copied out, validated against the
// mapping and unmapped again. A communicator that vanished or does not validate becomes
// an entry with `problem` set, never a crash.
//
// What answers "who has not arrived": every collective call on a communicator has a
// sequence number, the same on all members; CommRank::calls is the last one a rank
// entered. Ranks inside call N (waiting_kind != none) whose peers are still at calls
// < N are waiting for those peers: Stall below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shm_layout/comm.hpp"
#include "shm_layout/segment_view.hpp"

namespace shmpi::dump {

struct CommRankRow {
  std::uint32_t rank;          // rank in the communicator
  std::int32_t world_rank;
  std::int32_t pid;
  std::string world_state;     // the world rank's RankState ("running", "dead", ...)
  std::uint64_t calls;         // collective calls entered = sequence number of the last
  std::uint32_t posted;        // sequence number of the last call whose contribution is posted
  std::uint32_t done;          // ... of the last call this rank finished reading
  std::uint32_t waiting_kind;  // layout::CollKind; 0: not inside a collective call
  std::int32_t waiting_on;     // comm rank waited for, -1 none (may be out of range: corrupt)
  std::int32_t waiting_on_world;  // its world rank, -1 if none or out of range
};

// Call `call` (the highest sequence number any rank entered) that some members have
// not entered yet: `missing` (comm ranks, calls < call) are the ones the others wait for;
// `inside` are the members inside it (waiting_kind != none).
struct Stall {
  std::uint64_t call = 0;
  std::string kind;            // CollKind name(s) of the ranks inside ("barrier", "a/b" if they differ)
  std::vector<std::uint32_t> missing;
  std::vector<std::uint32_t> inside;
};

struct CommSnapshot {
  // From the directory entry (always set).
  std::uint32_t creator_rank;  // job rank whose RankSlot lists the communicator
  std::uint32_t dir_slot;
  std::uint32_t context_id;
  std::int32_t pid;
  std::int32_t fd;
  std::uint64_t block_bytes;
  std::string name;            // as recorded when it was created; printable ASCII only
  std::string problem;         // non-empty: could not be read; the rest is unset
  // From the block.
  std::uint32_t size;
  std::vector<CommRankRow> ranks;
  bool stalled;                // `stall` is set
  Stall stall;
};

// Every live communicator listed in the job's rank slots, in (rank, slot) order.
std::vector<CommSnapshot> snapshot_comms(const layout::SegmentView& v);

// The CollKind's name ("barrier", ...), "-" for none, "corrupt(N)" if unknown.
std::string coll_kind_name(std::uint32_t k);

std::string comms_table(const std::vector<CommSnapshot>& cs);
std::string comms_json(const std::vector<CommSnapshot>& cs);  // a JSON array

}  // namespace shmpi::dump
