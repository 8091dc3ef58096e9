// A communicator's collective block (shm_layout/comm.hpp) as mapped by one process.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shm_layout/comm.hpp"

namespace shmpi::client::coll {

struct CommBlock {
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  int fd = -1;  // the memfd, kept open by the creator (shmpi-dump opens it via /proc)
  std::uint32_t n = 0;
  layout::CommGeometry geo{};
  bool gated = false;  // header().flags has kCommGated (read once: the header does not change)

  layout::CommHeader& header() const { return *reinterpret_cast<layout::CommHeader*>(base); }
  layout::CommMember& member(int r) const {
    return reinterpret_cast<layout::CommMember*>(base + geo.members)[r];
  }
  layout::CallGate& gate(int slot) const { return reinterpret_cast<layout::CallGate*>(base + geo.gates)[slot]; }
  layout::CommRank& rank(int r) const { return reinterpret_cast<layout::CommRank*>(base + geo.ranks)[r]; }
  layout::PieceDesc* table(int r, int slot) const {
    return reinterpret_cast<layout::PieceDesc*>(base + geo.tables + static_cast<std::uint64_t>(r) * geo.table_stride) +
           static_cast<std::size_t>(slot) * n;
  }
  std::byte* stage(int r, int slot) const {
    return base + geo.stage + static_cast<std::uint64_t>(r) * geo.stage_stride +
           static_cast<std::uint64_t>(slot) * layout::kStageSlot;
  }
  std::byte* small_stage(int r, int slot) const {
    return base + geo.small + static_cast<std::uint64_t>(r) * geo.small_stride +
           static_cast<std::uint64_t>(slot) * layout::kSmallStage;
  }
  // Reader r's ack of member w's stream (comm.hpp kStreamChunk).
  layout::Flag& ack(int r, int w) const {
    return reinterpret_cast<layout::Flag*>(base + geo.acks + static_cast<std::uint64_t>(r) * geo.acks_stride)[w];
  }
  // The shared result of a gated allreduce in slot `slot` (comm.hpp CallGate).
  std::byte* shared_result(int slot) const {
    return base + geo.results + static_cast<std::uint64_t>(slot) * layout::kSharedResultBytes;
  }
  std::byte* ring(int r) const { return base + geo.rings + static_cast<std::uint64_t>(r) * layout::kStreamRing; }
};

// The creator (the new communicator's rank 0): a fresh memfd holding the header and
// the member table. nullptr with `why` on failure.
CommBlock* create_block(const std::vector<layout::CommMember>& members, std::uint32_t context_id, std::string& why);
// Every other member: maps the creator's memfd through /proc/<pid>/fd/<fd> and checks
// the header.
CommBlock* open_block(pid_t pid, int fd, std::string& why);
void close_block(CommBlock* b);

}  // namespace shmpi::client::coll
