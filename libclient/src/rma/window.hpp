// RMA windows: the process-local object behind an MPI_Win handle, and its view of the
// shared control block (shm_layout/window.hpp).
//
// Where a call goes: api_rma.cpp checks arguments and the epoch, resolves the target
// (target.hpp: bounds, direct pointer or remote address) and hands the block pairs of
// origin and target datatypes (transfer.hpp) to the data path: memcpy / SIMD kernels on
// shared memory (allocate flavours, and the caller's own memory), process_vm_readv/
// writev on another rank's private memory (create / dynamic flavours). Accumulate
// atomicity (atomicity.hpp) is decided per call: exclusive lock → plain kernel; one
// element with a CPU atomic → announce + atomic; otherwise → bulk under stripe locks.
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "objects.hpp"
#include "shm_layout/window.hpp"

namespace shmpi::client {

struct GroupObj;

// How this origin reaches one target's window memory.
struct WinTarget {
  // Directly addressable here: the shared data area, a peer's memory shared in place
  // (MPI_Win_create on MPI_Alloc_mem or remapped memory), or our own memory.
  std::byte* local = nullptr;
  // Every rank maps this target's memory: single-element ops use CPU atomics under the
  // announce protocol. Otherwise every accumulate on it takes the stripe lock.
  bool shared = false;
  std::uint64_t remote = 0;     // the target's own address of its memory (CMA)
  std::uint64_t size = 0;       // bytes
  std::int64_t disp_unit = 1;
  pid_t pid = 0;
  int world_rank = 0;
};

// Per-target lock this origin holds (passive target).
enum class HeldLock : std::uint8_t { none, shared, exclusive, shared_nocheck, exclusive_nocheck };

struct WinObj {
  MPI_Win handle = MPI_WIN_NULL;
  CommObj* comm = nullptr;
  int rank = 0;      // in comm
  int size = 1;
  layout::WinFlavor flavor = layout::WinFlavor::allocate;

  // The control block mapping (and the data area after it, allocate flavours).
  std::byte* block = nullptr;
  std::size_t block_len = 0;
  int memfd = -1;          // kept open by comm rank 0 (shmpi-dump finds it through the fd)
  int dir_slot = -1;       // our RankSlot::windows entry, rank 0 only
  layout::WinHeader* hdr = nullptr;
  std::vector<std::pair<void*, std::size_t>> peer_maps;  // peers' memory shared in place

  std::vector<WinTarget> targets;
  void* base = nullptr;    // our own window memory (MPI_WIN_BASE)
  std::uint64_t my_size = 0;
  std::int64_t my_disp_unit = 1;
  int create_disp_unit = 0;  // as given (int) for MPI_WIN_DISP_UNIT

  ErrhandlerObj* errhandler = nullptr;
  std::string name;
  std::uint32_t info_flags = 0;
  std::uint32_t granularity = 4096;

  // Epochs of this process on this window.
  bool fence_open = false;        // access/exposure epoch opened by MPI_Win_fence
  bool fence_used = false;        // an RMA call happened since the last fence
  // Plain stores (put, SIMD accumulate) since the last flush: a flush fences only then;
  // the single-element path's locked instructions are full barriers already.
  bool unfenced = false;
  int lock_all = 0;               // 1 inside lock_all (2 with MPI_MODE_NOCHECK)
  int locks_held = 0;             // per-target locks held
  std::vector<HeldLock> held;     // per target
  GroupObj* start_group = nullptr;  // PSCW access epoch
  std::vector<int> start_targets;   // comm ranks
  std::vector<std::uint8_t> in_start;  // per target: in the access group
  GroupObj* post_group = nullptr;   // PSCW exposure epoch
  std::vector<int> post_origins;
  std::vector<std::uint32_t> post_seen;  // per target: posts consumed by our starts
  std::vector<std::uint32_t> done_seen;  // per origin: completes consumed by our waits

  // Dynamic windows: our attached regions (mirrors our AttachTable).
  // Reusable staging for get-accumulate results and remote accumulates.
  std::vector<std::byte> staging;         // packed origin / unpacked get
  std::vector<std::byte> staging_result;  // get-accumulate results of derived types
  std::vector<std::byte> staging_remote;  // private-memory targets: read-modify-write
  std::vector<std::int64_t> pair_bases;   // padded pair types: where each pair starts

  layout::WinRank& slot(int r) const {
    return *reinterpret_cast<layout::WinRank*>(block + layout::kWinRankOffset +
                                               static_cast<std::size_t>(r) * sizeof(layout::WinRank));
  }
  layout::WinRank& me() const { return slot(rank); }
  std::atomic<std::uint32_t>& post_word(int target, int origin) const {
    return reinterpret_cast<std::atomic<std::uint32_t>*>(block + layout::win_offsets(size).pscw)
        [static_cast<std::size_t>(target) * size + origin];
  }
  std::atomic<std::uint32_t>& done_word(int target, int origin) const {
    return reinterpret_cast<std::atomic<std::uint32_t>*>(block + layout::win_offsets(size).pscw)
        [static_cast<std::size_t>(size) * size + static_cast<std::size_t>(target) * size + origin];
  }
  layout::AttachTable& attach_table(int r) const {
    return *reinterpret_cast<layout::AttachTable*>(block + layout::win_offsets(size).attach +
                                                   static_cast<std::size_t>(r) * sizeof(layout::AttachTable));
  }
  void count(layout::RmaCall c) const {
    auto& w = me().calls[static_cast<std::size_t>(c)];
    w.store(w.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  bool access_epoch_to(int target) const {
    return fence_open || lock_all != 0 || held[static_cast<std::size_t>(target)] != HeldLock::none ||
           (start_group != nullptr && in_start[static_cast<std::size_t>(target)] != 0);
  }
  bool exclusive_on(int target) const {
    const HeldLock h = held[static_cast<std::size_t>(target)];
    return h == HeldLock::exclusive || h == HeldLock::exclusive_nocheck;
  }
  void publish_epoch() const;
};

// nullptr if `w` is not a live window handle (MPI_WIN_NULL included).
WinObj* to_win(MPI_Win w);
void register_win(WinObj* w);
void unregister_win(WinObj* w);

// Raises an error on the window's error handler (MPI-4.1 9.3); returns the code.
int raise_win(WinObj* w, int cls, const std::string& message);

}  // namespace shmpi::client
