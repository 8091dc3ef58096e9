#include "runtime.hpp"

#include <linux/membarrier.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "barrier.hpp"
#include "shm_layout/segment_init.hpp"
#include "shmpi_common/protocol.hpp"
#include "shmpi_common/unix_socket.hpp"
#include "env.hpp"
#include "wait.hpp"

namespace shmpi::client {
using namespace shmpi::layout;

Runtime g_rt;
WaitContext g_wait;

namespace {

bool request(const proto::Message& req, proto::Message& reply, std::string& why) {
  return proto::request(g_rt.broker_fd, req, reply, why);
}

// Has the broker closed our connection (it died)? Then it will abort nothing any more.
bool broker_gone() {
  if (g_rt.singleton || g_rt.broker_fd < 0) return true;
  pollfd p{g_rt.broker_fd, POLLRDHUP, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR)) != 0;
}

// How a wait spends its time before it sleeps (see wait.hpp). Ranks with a core of
// their own spin ~tens of microseconds. Oversubscribed ranks (more ranks than CPUs)
// spin briefly, then sched_yield so the core goes straight to a rank that still has to
// arrive; 8 ranks on 2 cores: 6 us per barrier with yields, 45 us with futex sleeps
// alone (bench/barrier_latency). Long waits still end in a futex sleep.
void set_wait_budget(std::uint32_t nranks) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const bool oversubscribed = cpus > 0 && nranks > static_cast<std::uint64_t>(cpus);
  g_wait.oversubscribed = oversubscribed;
  g_wait.spin_limit = oversubscribed ? 32 : 4000;
  // Collectives oversubscribed: every member must run for a call to complete, so a
  // waiter yields at once. 8 ranks on 2 cores, 8-byte allreduce: 10.4 us per call with
  // 32 pause spins per wait, 6.3 without; barrier 6.8 -> 4.3 (point-to-point pairs sit
  // on different cores and keep the 32: ping-pong 0.11 us, 3.2 without).
  g_wait.coll_spin_limit = oversubscribed ? 0 : 4000;
  g_wait.yield_limit = oversubscribed ? 256 : 0;
  // A nonblocking collective at issue polls this long for members' posts (wait.hpp
  // poll_briefly): in lockstep they come a cross-core latency or two later, 25-130 ns
  // on the 2-core VM depending on its state (2 ranks, 8-byte MPI_Iallreduce +
  // MPI_Wait, slow state: 8 polls ~0.2 us gave 1.25-1.34x MPI_Allreduce, 1 us 1.0x).
  g_wait.issue_spin_ns = oversubscribed ? 0 : 1000;
  std::uint64_t v = 0;
  if (env_u64("SHMPI_SPIN", v)) g_wait.spin_limit = static_cast<std::uint32_t>(v);
  if (env_u64("SHMPI_YIELD", v)) g_wait.yield_limit = static_cast<std::uint32_t>(v);
  if (env_u64("SHMPI_COLL_SPIN", v)) g_wait.coll_spin_limit = static_cast<std::uint32_t>(v);
  if (env_u64("SHMPI_ISSUE_SPIN_NS", v)) g_wait.issue_spin_ns = v;
  // Asymmetric sleep handshake (wait.hpp) where the kernel offers it.
  const long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  g_wait.asymmetric = cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
                      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0) == 0 &&
                      std::getenv("SHMPI_NO_MEMBARRIER") == nullptr;
}

BarrierAlgo barrier_algo(const SegmentView& seg) {
  constexpr BarrierAlgo kNamed[] = {BarrierAlgo::central, BarrierAlgo::dissemination};
  if (const int i = env_word("SHMPI_BARRIER", {"central", "dissemination"}); i >= 0) return kNamed[i];
  return static_cast<BarrierAlgo>(seg.header().barrier_algo);
}

bool join_singleton(std::string& why) {
  const std::size_t size = segment_size_for(1);
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED) {
    why = std::string("cannot map a singleton segment: ") + std::strerror(errno);
    return false;
  }
  auto* slot = reinterpret_cast<RankSlot*>(static_cast<std::byte*>(p) + kRankTableOffset);
  slot->pid = getpid();
  slot->core = -1;
  slot->numa_node = -1;
  init_segment(p, SegmentParams{});
  g_rt.private_segment = p;
  g_rt.seg = SegmentView(p, size);
  g_rt.singleton = true;
  g_rt.rank = 0;
  g_rt.size = 1;
  return true;
}

bool join_runner_job(std::string& why) {
  std::uint64_t job = 0, rank = 0, size = 0;
  if (!env_u64("SHMPI_JOB_ID", job) || !env_u64("SHMPI_RANK", rank) || !env_u64("SHMPI_SIZE", size) ||
      size == 0 || rank >= size) {
    why = "SHMPI_JOB_ID/SHMPI_RANK/SHMPI_SIZE are missing or invalid (start the program with shmpirun)";
    return false;
  }
  const char* sock = std::getenv("SHMPI_SOCKET");
  if (sock == nullptr) {
    why = "SHMPI_SOCKET is not set (start the program with shmpirun)";
    return false;
  }
  g_rt.broker_fd = connect_unix(sock);
  if (g_rt.broker_fd < 0) {
    why = std::string("cannot connect to the broker at ") + sock + ": " + std::strerror(errno);
    return false;
  }
  proto::Message reply;
  if (!request(proto::Join{job, static_cast<std::uint32_t>(rank), 0}, reply, why)) return false;
  const auto* j = std::get_if<proto::Joined>(&reply);
  if (j == nullptr || j->nranks != size) {
    why = "unexpected reply from the broker to join";
    return false;
  }
  g_rt.mapping = SegmentMapping::open(proto::get_name(j->segment, sizeof j->segment), true, true, why);
  if (!g_rt.mapping.valid()) return false;
  g_rt.seg = g_rt.mapping.view();
  if (g_rt.seg.nranks() != size || g_rt.seg.header().job_id != job) {
    why = "the segment the broker named belongs to another job";
    return false;
  }
  g_rt.job_id = job;
  g_rt.rank = static_cast<std::uint32_t>(rank);
  g_rt.size = static_cast<std::uint32_t>(size);
  g_rt.core = j->core;
  g_rt.numa_node = j->numa_node;
  if (j->core >= 0) {
    // Pin before the rank allocates anything, so its private memory is first touched on
    // its own NUMA node too (the broker already placed its segment page there).
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(j->core, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
      why = "cannot bind to core " + std::to_string(j->core) + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

}  // namespace

bool join_job(std::string& why) {
  const bool ok = std::getenv("SHMPI_JOB_ID") == nullptr ? join_singleton(why) : join_runner_job(why);
  if (!ok) return false;
  g_rt.main_thread = static_cast<pid_t>(syscall(SYS_gettid));
  g_wait.abort = &g_rt.seg.header().abort;
  g_wait.self = &g_rt.seg.slot(g_rt.rank);
  g_wait.segment_base = g_rt.seg.base();
  g_wait.segment_size = g_rt.seg.size();
  set_wait_budget(g_rt.size);
  g_rt.barrier_algo = barrier_algo(g_rt.seg);
  // The broker wrote every rank's core into its slot before any rank joined.
  g_rt.core_mates = {};
  if (g_rt.core >= 0) {
    g_rt.core_mates.known = true;
    for (std::uint32_t r = 0; r < g_rt.size; ++r) {
      if (r != g_rt.rank && g_rt.seg.slot(r).core == g_rt.core) g_rt.core_mates.slots.push_back(&g_rt.seg.slot(r));
    }
  }
  g_rt.seg.slot(g_rt.rank).state.store(static_cast<std::uint32_t>(RankState::running), std::memory_order_release);
  // MPI_Init returns only when every rank has joined: from here on every rank slot is
  // filled and any peer's death is the broker's to report.
  if (!world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates)) {
    why = "job aborted during MPI_Init: " + abort_reason();
    return false;
  }
  g_rt.phase = Phase::initialized;
  return true;
}

bool leave_job(std::string& why) {
  if (!world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates)) {
    why = "job aborted during MPI_Finalize: " + abort_reason();
    return false;
  }
  if (!g_rt.singleton) {
    proto::Message reply;
    // Every rank has passed the barrier: the job's work is complete. A broker that died
    // meanwhile has nothing left to record (the runner removes the segment, or the next
    // broker reclaims it), so that alone does not fail MPI_Finalize.
    if (!request(proto::Finalize{}, reply, why) && !broker_gone()) return false;
    ::close(g_rt.broker_fd);
    g_rt.broker_fd = -1;
  }
  g_rt.phase = Phase::finalized;
  return true;
}

void abort_job(int code) {
  if (!g_rt.singleton && g_rt.broker_fd >= 0) {
    // The broker aborts the job and wakes every waiter before it acks; if it is gone
    // the runner still sees our exit status and stops the others.
    proto::Message reply;
    std::string why;
    request(proto::Abort{code, 0}, reply, why);
  }
  std::fflush(nullptr);
  _exit(code & 0xff ? code & 0xff : 1);
}

bool job_aborted_now() { return g_wait.abort != nullptr && job_aborted(); }

std::string abort_reason() {
  if (g_wait.abort == nullptr) return "unknown reason";
  const AbortWord& a = *g_wait.abort;
  if (a.state.load(std::memory_order_acquire) == 0) return "job is running";
  const std::string who = "rank " + std::to_string(a.rank) + (a.pid > 0 ? " (pid " + std::to_string(a.pid) + ")" : "");
  switch (static_cast<AbortKind>(a.kind)) {
    case AbortKind::rank_died:
      if (a.signal != 0) {
        return who + " died: killed by signal " + std::to_string(a.signal) + " (" + strsignal(a.signal) + ")";
      }
      return who + " died without MPI_Finalize (exit status " + std::to_string(a.code) + ")";
    case AbortKind::user_abort:
      return who + " called MPI_Abort with errorcode " + std::to_string(a.code);
    case AbortKind::runner:
      return "shmpirun stopped the job";
    case AbortKind::broker:
      return "the broker (shmpid) shut down";
    case AbortKind::none:
      break;
  }
  return "unknown reason";
}

namespace {
// Has this process exited? Gone, or a zombie (its runner has not reaped it yet).
bool process_gone(pid_t pid) {
  if (pid <= 0) return false;
  char path[64], buf[512];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "re");
  if (f == nullptr) return true;
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');  // the command name may hold anything
  return close != nullptr && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X');
}

bool peer_process_gone() {
  for (std::uint32_t r = 0; r < g_rt.size; ++r) {
    if (r != g_rt.rank && process_gone(static_cast<pid_t>(g_rt.seg.slot(r).pid))) return true;
  }
  return false;
}
}  // namespace

bool await_abort_after_peer_loss(int err) {
  if (g_wait.abort == nullptr) return false;
  if (job_aborted()) return true;
  if (g_rt.singleton) return false;
  if (err == ESRCH || peer_process_gone()) {
    for (int i = 0; i < 2000 && !job_aborted() && !broker_gone(); ++i) {
      timespec ts{0, 1'000'000};
      nanosleep(&ts, nullptr);
    }
  }
  return job_aborted();
}

int abort_exit_code() {
  const AbortWord& a = *g_wait.abort;
  if (static_cast<AbortKind>(a.kind) == AbortKind::user_abort && (a.code & 0xff) != 0) return a.code & 0xff;
  return 1;
}

}  // namespace shmpi::client
