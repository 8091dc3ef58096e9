// Communicator creation (docs/collectives.md, "Communicators").
//
// Every constructor is a split of a parent communicator, in three exchanges over the
// parent's collective block (three integers per member, carried in the descriptors):
//   1. {color, key, world rank}: every member computes its new group;
//   2. the group's first member creates the block (a memfd) and publishes {pid, fd,
//      context id}; the others map it;
//   3. {mapped ok}: a member that failed makes its whole group fail together.
// MPI_COMM_WORLD's block is made at MPI_Init by world rank 0 and announced through the
// job segment; MPI_Comm_create_group, whose non-members do not take part, announces
// through the leader's RankSlot::exchange instead of the parent.
#include "comm/comm.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "barrier.hpp"
#include "coll/comm_block.hpp"
#include "coll/engine.hpp"
#include "errors.hpp"
#include "runtime.hpp"
#include "wait.hpp"

namespace shmpi::client::comm {

namespace {

std::mutex g_mutex;
std::unordered_set<CommObj*> g_comms;
// Moves (under g_mutex) whenever a communicator leaves g_comms: lookup()'s per-thread
// last answer stands while it has not moved.
std::atomic<std::uint64_t> g_removals{0};

// What a leader announces in its RankSlot::exchange (world creation, create_group).
struct Announce {
  std::atomic<std::uint64_t> key;  // 0 = nothing announced; written last (release)
  std::int32_t pid;
  std::int32_t fd;                 // -1: the leader failed to create the block
  std::uint32_t context_id;
  std::uint32_t pad;
  std::atomic<std::uint32_t> acks;  // members that have mapped (or given up)
};
static_assert(sizeof(Announce) <= layout::kExchangeBytes);

Announce& announce_of(int world_rank) {
  return *reinterpret_cast<Announce*>(g_rt.seg.slot(static_cast<std::uint32_t>(world_rank)).exchange);
}

// Polls until pred() (announcements are not futex flags: creation is not a hot path).
template <class Pred>
bool poll_until(Pred pred) {
  for (std::uint32_t i = 0;; ++i) {
    if (pred()) return true;
    if (job_aborted()) return false;
    if (i < 2000) cpu_relax();
    else if (i < 4000) sched_yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

std::uint32_t new_context_id() {
  return g_rt.seg.header().next_context_id.fetch_add(1, std::memory_order_relaxed);
}

void dir_publish(CommObj* c) {
  if (c->block == nullptr || c->block->fd < 0 || g_rt.singleton) return;
  layout::RankSlot& s = g_rt.seg.slot(g_rt.rank);
  for (layout::CommDirEntry& e : s.comms) {
    if (e.state.load(std::memory_order_relaxed) != 0) continue;
    e.context_id = c->context_id;
    e.pid = static_cast<std::int32_t>(getpid());
    e.fd = c->block->fd;
    e.block_bytes = c->block->bytes;
    std::memset(e.name, 0, sizeof e.name);
    std::strncpy(e.name, c->name.c_str(), sizeof e.name - 1);
    e.state.store(1, std::memory_order_release);
    return;
  }
}

void dir_remove(CommObj* c) {
  if (c->block == nullptr || c->block->fd < 0 || g_rt.singleton) return;
  for (layout::CommDirEntry& e : g_rt.seg.slot(g_rt.rank).comms) {
    if (e.state.load(std::memory_order_relaxed) == 1 && e.fd == c->block->fd && e.context_id == c->context_id) {
      e.state.store(0, std::memory_order_release);
    }
  }
}

void dir_rename(CommObj* c) {
  if (c->block == nullptr || c->block->fd < 0 || g_rt.singleton) return;
  char name[sizeof(layout::CommDirEntry::name)] = {};
  std::strncpy(name, c->name.c_str(), sizeof name - 1);
  for (layout::CommDirEntry& e : g_rt.seg.slot(g_rt.rank).comms) {
    if (e.state.load(std::memory_order_relaxed) == 1 && e.fd == c->block->fd && e.context_id == c->context_id) {
      std::memcpy(e.name, name, sizeof name);  // a torn read by shmpi-dump only garbles a name
    }
  }
}

std::vector<layout::CommMember> members_of(const std::vector<int>& world) {
  std::vector<layout::CommMember> m(world.size());
  for (std::size_t i = 0; i < world.size(); ++i) {
    m[i].world_rank = world[i];
    m[i].pid = g_rt.seg.slot(static_cast<std::uint32_t>(world[i])).pid;
  }
  return m;
}

CommObj* make_obj(CommObj* parent, std::vector<int> world, int rank, std::uint32_t ctx, coll::CommBlock* b) {
  auto* c = new CommObj{};
  c->handle = reinterpret_cast<MPI_Comm>(c);
  c->rank = rank;
  c->size = static_cast<int>(world.size());
  c->world_of = std::move(world);
  c->context_id = ctx;
  c->block = b;
  c->errhandler = parent != nullptr ? parent->errhandler : &g_errors_are_fatal;
  retain(c->errhandler);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_comms.insert(c);
  }
  dir_publish(c);
  return c;
}

}  // namespace

bool exchange(CommObj* c, const std::int64_t mine[3], std::vector<std::int64_t>& all) {
  all.assign(static_cast<std::size_t>(3 * c->size), 0);
  coll::Call k = coll::begin(c, layout::CollKind::comm_create);
  if (!coll::reserve(k)) return false;
  layout::CallDesc& d = coll::my_desc(k);
  std::memcpy(d.value, mine, sizeof d.value);
  d.addr = 0;
  d.bytes = 0;
  d.status = 0;
  coll::post(k);
  for (int r = 0; r < c->size; ++r) {
    if (r != k.me && !coll::wait_posted(k, r)) return false;
    std::memcpy(&all[static_cast<std::size_t>(3 * r)], coll::desc(k, r).value, 3 * sizeof(std::int64_t));
  }
  return coll::finish(k);
}

bool allgather_small(CommObj* c, const void* mine, std::size_t len, void* all) {
  coll::Call k = coll::begin(c, layout::CollKind::allgather);
  if (!coll::reserve(k)) return false;
  layout::CallDesc& d = coll::my_desc(k);
  d.addr = 0;
  d.bytes = len;
  d.status = 0;
  std::memcpy(coll::my_stage(k), mine, len);
  coll::post(k);
  auto* out = static_cast<std::byte*>(all);
  for (int r = 0; r < c->size; ++r) {
    if (r != k.me && !coll::wait_posted(k, r)) return false;
    std::memcpy(out + static_cast<std::size_t>(r) * len, k.b->stage(r, k.stage_slot), len);
  }
  return coll::finish(k);
}

bool init_predefined(std::string& why) {
  g_world.predefined = g_self.predefined = true;
  g_world.context_id = 0;
  g_self.context_id = 1;
  g_world.world_of.resize(g_rt.size);
  for (std::uint32_t i = 0; i < g_rt.size; ++i) g_world.world_of[i] = static_cast<int>(i);
  g_self.world_of = {static_cast<int>(g_rt.rank)};
  g_self.block = coll::create_block(members_of(g_self.world_of), 1, why);
  if (g_self.block == nullptr) return false;
  if (g_rt.size == 1) {
    g_world.block = coll::create_block(members_of(g_world.world_of), 0, why);
    return g_world.block != nullptr;
  }
  // World rank 0 creates world's block and announces it; the others map it; a world
  // barrier later rank 0 takes the announcement down.
  Announce& a = announce_of(0);
  if (g_rt.rank == 0) {
    g_world.block = coll::create_block(members_of(g_world.world_of), 0, why);
    a.pid = static_cast<std::int32_t>(getpid());
    a.fd = g_world.block != nullptr ? g_world.block->fd : -1;
    a.context_id = 0;
    a.key.store(1, std::memory_order_release);
  }
  if (!world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates)) {
    why = "job aborted while creating MPI_COMM_WORLD";
    return false;
  }
  bool ok = true;
  if (g_rt.rank != 0) {
    if (a.key.load(std::memory_order_acquire) != 1 || a.fd < 0) {
      why = "world rank 0 could not create MPI_COMM_WORLD's collective block";
      ok = false;
    } else {
      g_world.block = coll::open_block(a.pid, a.fd, why);
      ok = g_world.block != nullptr;
    }
  }
  if (!world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates)) {
    why = "job aborted while creating MPI_COMM_WORLD";
    return false;
  }
  if (g_rt.rank == 0) {
    a.key.store(0, std::memory_order_relaxed);
    dir_publish(&g_world);
  }
  return ok;
}

void finalize_all() {
  std::vector<CommObj*> live;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    live.assign(g_comms.begin(), g_comms.end());
    g_comms.clear();
    g_removals.fetch_add(1, std::memory_order_release);
  }
  for (CommObj* c : live) {
    dir_remove(c);
    coll::flush_done(c);
    coll::close_block(c->block);
    c->block = nullptr;
  }
  for (CommObj* c : {&g_world, &g_self}) {
    dir_remove(c);
    coll::flush_done(c);
    coll::close_block(c->block);
    c->block = nullptr;
  }
}

CommObj* lookup(MPI_Comm h) {
  // Every call on a communicator of the program's own validates the same handle: the
  // thread's last answer stands until some communicator is removed, without the
  // registry's mutex and hash (as types::lookup_other and borrow_op do; 2 ranks,
  // MPI_Barrier on a dup of MPI_COMM_WORLD: ~100 of its instructions).
  thread_local MPI_Comm t_last_handle = MPI_COMM_NULL;
  thread_local std::uint64_t t_last_removals = 0;
  if (h == t_last_handle && g_removals.load(std::memory_order_acquire) == t_last_removals) {
    return reinterpret_cast<CommObj*>(h);
  }
  auto* p = reinterpret_cast<CommObj*>(h);
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_comms.count(p) == 0) return nullptr;
  t_last_handle = h;
  t_last_removals = g_removals.load(std::memory_order_relaxed);
  return p;
}

int split(CommObj* parent, int color, int key, CommObj** out, std::string& why) {
  *out = nullptr;
  const int n = parent->size;
  std::vector<std::int64_t> all;
  const std::int64_t v1[3] = {color, key, parent->world_of[static_cast<std::size_t>(parent->rank)]};
  if (!exchange(parent, v1, all)) {
    why = "job aborted: " + abort_reason();
    return MPI_ERR_PROC_ABORTED;
  }
  // My group: same color, ordered by (key, parent rank).
  std::vector<int> mine;  // parent ranks
  if (color != MPI_UNDEFINED) {
    for (int r = 0; r < n; ++r)
      if (all[static_cast<std::size_t>(3 * r)] == color) mine.push_back(r);
    std::stable_sort(mine.begin(), mine.end(), [&](int a, int b) {
      return all[static_cast<std::size_t>(3 * a + 1)] < all[static_cast<std::size_t>(3 * b + 1)];
    });
  }
  const bool leader = !mine.empty() && mine[0] == parent->rank;
  std::vector<int> world(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) world[i] = static_cast<int>(all[static_cast<std::size_t>(3 * mine[i] + 2)]);

  coll::CommBlock* b = nullptr;
  std::uint32_t ctx = 0;
  std::int64_t v2[3] = {0, -1, 0};
  if (leader) {
    ctx = new_context_id();
    b = coll::create_block(members_of(world), ctx, why);
    v2[0] = getpid();
    v2[1] = b != nullptr ? b->fd : -2;
    v2[2] = ctx;
  }
  if (!exchange(parent, v2, all)) {
    coll::close_block(b);
    why = "job aborted: " + abort_reason();
    return MPI_ERR_PROC_ABORTED;
  }
  int my_rank = -1;
  if (!mine.empty()) {
    my_rank = static_cast<int>(std::find(mine.begin(), mine.end(), parent->rank) - mine.begin());
    const std::size_t l = static_cast<std::size_t>(3 * mine[0]);
    ctx = static_cast<std::uint32_t>(all[l + 2]);
    if (!leader && all[l + 1] >= 0) b = coll::open_block(static_cast<pid_t>(all[l]), static_cast<int>(all[l + 1]), why);
    else if (!leader) why = "the new communicator's rank 0 could not create its collective block";
  }
  const std::int64_t v3[3] = {mine.empty() || b != nullptr ? 1 : 0, 0, 0};
  if (!exchange(parent, v3, all)) {
    coll::close_block(b);
    why = "job aborted: " + abort_reason();
    return MPI_ERR_PROC_ABORTED;
  }
  if (mine.empty()) return MPI_SUCCESS;
  for (int r : mine) {
    if (all[static_cast<std::size_t>(3 * r)] == 0) {
      coll::close_block(b);
      if (why.empty()) why = "a member could not map the new communicator's collective block";
      return MPI_ERR_NO_MEM;
    }
  }
  *out = make_obj(parent, std::move(world), my_rank, ctx, b);
  return MPI_SUCCESS;
}

int create_group(CommObj* parent, const std::vector<int>& world_ranks, int tag, CommObj** out, std::string& why) {
  *out = nullptr;
  const int me_world = parent->world_of[static_cast<std::size_t>(parent->rank)];
  const auto it = std::find(world_ranks.begin(), world_ranks.end(), me_world);
  const int my_rank = static_cast<int>(it - world_ranks.begin());
  if (world_ranks.size() == 1) {
    coll::CommBlock* b = coll::create_block(members_of(world_ranks), new_context_id(), why);
    if (b == nullptr) return MPI_ERR_NO_MEM;
    *out = make_obj(parent, world_ranks, 0, b->header().context_id, b);
    return MPI_SUCCESS;
  }
  // The announcement key: parent, tag, the member list, and how many times these
  // members made this very call before (they all count the same calls, in order).
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](std::uint64_t v) {
    h ^= v;
    h *= 0x100000001b3ull;
  };
  mix(parent->context_id);
  mix(static_cast<std::uint32_t>(tag));
  for (int w : world_ranks) mix(static_cast<std::uint32_t>(w));
  static std::map<std::uint64_t, std::uint64_t> generation;
  mix(++generation[h]);
  const std::uint64_t key = h | 2;  // never 0 (nothing announced) or 1 (world's block)
  Announce& a = announce_of(world_ranks[0]);
  coll::CommBlock* b = nullptr;
  if (my_rank == 0) {
    // A previous announcement of ours is down once all its members acknowledged it.
    const std::uint32_t ctx = new_context_id();
    b = coll::create_block(members_of(world_ranks), ctx, why);
    a.pid = static_cast<std::int32_t>(getpid());
    a.fd = b != nullptr ? b->fd : -1;
    a.context_id = ctx;
    a.acks.store(0, std::memory_order_relaxed);
    a.key.store(key, std::memory_order_release);
    const auto want = static_cast<std::uint32_t>(world_ranks.size() - 1);
    const bool ok = poll_until([&] { return a.acks.load(std::memory_order_acquire) == want; });
    a.key.store(0, std::memory_order_release);
    if (!ok) {
      coll::close_block(b);
      why = "job aborted: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    if (b == nullptr) return MPI_ERR_NO_MEM;
  } else {
    if (!poll_until([&] { return a.key.load(std::memory_order_acquire) == key; })) {
      why = "job aborted: " + abort_reason();
      return MPI_ERR_PROC_ABORTED;
    }
    const int fd = a.fd;
    const pid_t pid = a.pid;
    if (fd >= 0) b = coll::open_block(pid, fd, why);
    a.acks.fetch_add(1, std::memory_order_acq_rel);
    if (b == nullptr) {
      if (why.empty()) why = "the new communicator's rank 0 could not create its collective block";
      return MPI_ERR_NO_MEM;
    }
  }
  *out = make_obj(parent, world_ranks, my_rank, b->header().context_id, b);
  // Every member has mapped the block before anyone uses (or frees) the communicator.
  std::vector<std::int64_t> all;
  const std::int64_t v[3] = {1, 0, 0};
  if (!exchange(*out, v, all)) {
    why = "job aborted: " + abort_reason();
    return MPI_ERR_PROC_ABORTED;
  }
  return MPI_SUCCESS;
}

void rename(CommObj* c) { dir_rename(c); }

void retire(CommObj* c) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_comms.erase(c) != 0) g_removals.fetch_add(1, std::memory_order_release);
}

void destroy(CommObj* c) {
  retire(c);
  dir_remove(c);
  coll::flush_done(c);
  coll::close_block(c->block);
  release(c->errhandler);
  delete c;
}

}  // namespace shmpi::client::comm
