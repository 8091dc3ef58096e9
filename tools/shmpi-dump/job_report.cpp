#include "job_report.hpp"

#include <signal.h>
#include <time.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "format.hpp"

namespace shmpi::dump {
using namespace shmpi::layout;

namespace {

const char* state_name(std::uint32_t s) {
  switch (static_cast<RankState>(s)) {
    case RankState::empty: return "not-joined";
    case RankState::joined: return "joining";
    case RankState::running: return "running";
    case RankState::finalized: return "finalized";
    case RankState::dead: return "dead";
  }
  return "corrupt";
}

const char* wait_name(std::uint32_t w) {
  switch (static_cast<WaitKind>(w)) {
    case WaitKind::none: return "-";
    case WaitKind::barrier: return "barrier";
  }
  return "corrupt";
}

const char* abort_kind_name(std::uint32_t k) {
  switch (static_cast<AbortKind>(k)) {
    case AbortKind::none: return "none";
    case AbortKind::rank_died: return "rank died";
    case AbortKind::user_abort: return "MPI_Abort";
    case AbortKind::runner: return "stopped by shmpirun";
    case AbortKind::broker: return "broker shut down";
  }
  return "corrupt";
}

bool alive(std::int32_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

}  // namespace

JobSnapshot snapshot(const std::string& segment, const SegmentView& v, bool with_details) {
  const JobHeader& h = v.header();
  JobSnapshot j{};
  j.segment = segment;
  j.job_id = h.job_id;
  j.layout_version = h.layout_version;
  j.segment_size = h.segment_size;
  j.nranks = v.nranks();  // clamped to the mapping
  j.broker_pid = h.broker_pid;
  j.runner_pid = h.runner_pid;
  j.bind_to_core = h.bind_to_core != 0;
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  const double now = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  j.age_s = now - static_cast<double>(h.created_unix_ns) * 1e-9;
  j.barrier_algo = h.barrier_algo == static_cast<std::uint32_t>(BarrierAlgo::central) ? "central" : "dissemination";
  j.barrier_arrivals = h.barrier_arrivals.load(std::memory_order_relaxed);
  j.barrier_release = h.barrier_release.value.load(std::memory_order_relaxed);
  j.aborted = h.abort.state.load(std::memory_order_acquire) != 0;
  if (j.aborted) {
    j.abort_text = fmt("%s: rank %d pid %d code %d signal %d", abort_kind_name(h.abort.kind), h.abort.rank,
                       h.abort.pid, h.abort.code, h.abort.signal);
  }
  for (std::uint32_t r = 0; r < j.nranks; ++r) {
    const RankSlot& s = v.slot(r);
    RankRow row{};
    row.rank = r;
    row.pid = s.pid;
    row.state = state_name(s.state.load(std::memory_order_acquire));
    row.alive = alive(s.pid);
    row.core = s.core;
    row.numa_node = s.numa_node;
    row.barriers_entered = s.barriers_entered.load(std::memory_order_relaxed);
    row.barriers_completed = s.barriers_completed.load(std::memory_order_relaxed);
    row.waiting_in = wait_name(s.waiting_in.load(std::memory_order_relaxed));
    j.ranks.push_back(row);
  }
  j.with_details = with_details;
  if (with_details) {
    j.windows = snapshot_windows(v);
    j.comms = snapshot_comms(v);
    j.p2p = snapshot_p2p(v);
  }
  return j;
}

std::string job_list_table(const std::vector<JobSnapshot>& jobs) {
  std::string o = fmt("%-6s %-6s %-8s %-8s %-9s %-10s %s\n", "JOB", "RANKS", "RUNNER", "AGE(s)", "STATE", "SIZE", "SEGMENT");
  for (const auto& j : jobs) {
    o += fmt("%-6" PRIu64 " %-6u %-8d %-8.1f %-9s %-10" PRIu64 " %s\n", j.job_id, j.nranks, j.runner_pid, j.age_s,
             j.aborted ? "aborted" : "running", j.segment_size, j.segment.c_str());
  }
  if (jobs.empty()) o += "(no jobs)\n";
  return o;
}

std::string job_list_json(const std::vector<JobSnapshot>& jobs) {
  std::string o = "[";
  for (std::size_t i = 0; i < jobs.size(); ++i) o += (i ? "," : "") + job_json(jobs[i]);
  return o + "]";
}

std::string job_table(const JobSnapshot& j) {
  std::string o = fmt("job %" PRIu64 "  segment %s  layout v%u  %" PRIu64 " bytes  age %.1f s\n", j.job_id,
                      j.segment.c_str(), j.layout_version, j.segment_size, j.age_s);
  o += fmt("runner pid %d  broker pid %d  binding %s  barrier %s (arrivals %" PRIu64 ", release gen %u)\n",
           j.runner_pid, j.broker_pid, j.bind_to_core ? "core" : "none", j.barrier_algo.c_str(),
           j.barrier_arrivals, j.barrier_release);
  o += "abort: " + (j.aborted ? j.abort_text : std::string("no")) + "\n";
  o += fmt("%-5s %-8s %-11s %-6s %-5s %-5s %-12s %-12s %s\n", "RANK", "PID", "STATE", "ALIVE", "CORE", "NUMA",
           "BARR-ENTER", "BARR-DONE", "WAITING");
  for (const auto& r : j.ranks) {
    o += fmt("%-5u %-8d %-11s %-6s %-5d %-5d %-12" PRIu64 " %-12" PRIu64 " %s\n", r.rank, r.pid, r.state.c_str(),
             r.alive ? "yes" : "no", r.core, r.numa_node, r.barriers_entered, r.barriers_completed,
             r.waiting_in.c_str());
  }
  if (j.with_details) o += windows_table(j.windows) + comms_table(j.comms) + p2p_table(j.p2p);
  return o;
}

std::string job_json(const JobSnapshot& j) {
  std::string o = fmt("{\"job_id\":%" PRIu64 ",\"segment\":", j.job_id) + json_str(j.segment);
  o += fmt(",\"layout_version\":%u,\"segment_size\":%" PRIu64 ",\"nranks\":%u,\"runner_pid\":%d,\"broker_pid\":%d,"
           "\"bind_to_core\":%s,\"age_s\":%.3f,\"barrier\":{\"algo\":\"%s\",\"arrivals\":%" PRIu64
           ",\"release_gen\":%u},\"aborted\":%s,\"abort\":",
           j.layout_version, j.segment_size, j.nranks, j.runner_pid, j.broker_pid, j.bind_to_core ? "true" : "false",
           j.age_s, j.barrier_algo.c_str(), j.barrier_arrivals, j.barrier_release, j.aborted ? "true" : "false");
  o += json_str(j.abort_text) + ",\"ranks\":[";
  for (std::size_t i = 0; i < j.ranks.size(); ++i) {
    const auto& r = j.ranks[i];
    o += fmt("%s{\"rank\":%u,\"pid\":%d,\"state\":\"%s\",\"alive\":%s,\"core\":%d,\"numa_node\":%d,"
             "\"barriers_entered\":%" PRIu64 ",\"barriers_completed\":%" PRIu64 ",\"waiting_in\":\"%s\"}",
             i ? "," : "", r.rank, r.pid, r.state.c_str(), r.alive ? "true" : "false", r.core, r.numa_node,
             r.barriers_entered, r.barriers_completed, r.waiting_in.c_str());
  }
  o += "]";
  if (j.with_details) {
    o += ",\"windows\":" + windows_json(j.windows) + ",\"comms\":" + comms_json(j.comms) + ",\"p2p\":" + p2p_json(j.p2p);
  }
  return o + "}";
}

}  // namespace shmpi::dump
