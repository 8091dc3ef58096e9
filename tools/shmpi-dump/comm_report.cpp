// Printing communicator snapshots: one table section per communicator, or a JSON array.
#include <cinttypes>

#include "comm_report.hpp"
#include "format.hpp"

namespace shmpi::dump {

namespace {

// "0, 1, 2" (sep ", ") or "0,1,2" (sep ",") of a list of numbers.
template <class V, class F>
std::string join(const V& v, const char* sep, F f) {
  std::string o;
  for (const auto& x : v) o += (o.empty() ? "" : sep) + f(x);
  return o;
}

std::string head_line(const CommSnapshot& c) {
  return fmt("communicator context %u  name %s  created by rank %u (pid %d, fd %d)", c.context_id,
             c.name.empty() ? "-" : json_str(c.name).c_str(), c.creator_rank, c.pid, c.fd);
}

std::string world_of(const CommSnapshot& c, std::uint32_t r) { return std::to_string(c.ranks[r].world_rank); }

std::string stall_line(const CommSnapshot& c) {
  if (!c.stalled) {
    if (c.ranks.empty()) return "";
    if (c.stall.call == 0) return "  in step: no collective call yet\n";
    return fmt("  in step: every member has entered call %" PRIu64 "\n", c.stall.call);
  }
  const Stall& s = c.stall;
  const auto num = [](std::uint32_t r) { return std::to_string(r); };
  const auto world = [&c](std::uint32_t r) { return world_of(c, r); };
  // Lists are joined outside fmt (one line of fmt holds 511 bytes; a list may be longer).
  const std::string plural = s.missing.size() == 1 ? "" : "s";
  const std::string missing = "rank" + plural + " " + join(s.missing, ", ", num) + " (world rank" + plural + " " +
                              join(s.missing, ", ", world) + ")";
  // A missing rank that is not running any more (dead, finalized) will never arrive.
  std::string gone;
  for (std::uint32_t r : s.missing) {
    const CommRankRow& row = c.ranks[r];
    if (row.world_state != "running") gone += fmt("%srank %u is %s", gone.empty() ? "" : ", ", r, row.world_state.c_str());
  }
  if (!gone.empty()) gone = " (" + gone + ")";
  if (s.inside.empty()) {
    return fmt("  call %" PRIu64 ": ", s.call) + missing + (s.missing.size() == 1 ? " has" : " have") +
           " not entered it yet" + gone + "; no member is waiting in it\n";
  }
  return fmt("  call %" PRIu64 " (", s.call) + s.kind + "): waiting for " + missing + gone + "; inside it: rank" +
         (s.inside.size() == 1 ? "" : "s") + " " + join(s.inside, ", ", num) + "\n";
}

std::string waits_text(const CommRankRow& r) {
  if (r.waiting_on < 0) return "-";
  if (r.waiting_on_world < 0) return fmt("?%d", r.waiting_on);  // out of range: corrupt
  return fmt("%d (world %d)", r.waiting_on, r.waiting_on_world);
}

std::string comm_table(const CommSnapshot& c) {
  std::string o = head_line(c);
  if (!c.problem.empty()) return o + ": " + c.problem + "\n";
  const auto world = [](const CommRankRow& r) { return std::to_string(r.world_rank); };
  o += fmt("\n  size %u  members (world ranks) ", c.size) + join(c.ranks, ",", world) + "\n";
  o += stall_line(c);
  // (No STATE column: the rank table above has it, once per rank.)
  o += fmt("  %-4s %-5s %-8s %-8s %-8s %-8s %-14s %s\n", "RANK", "WORLD", "PID", "CALLS", "POSTED", "DONE", "IN-CALL",
           "WAITS-ON");
  for (const CommRankRow& r : c.ranks) {
    o += fmt("  %-4u %-5d %-8d %-8" PRIu64 " %-8u %-8u %-14s %s\n", r.rank, r.world_rank, r.pid, r.calls, r.posted,
             r.done, coll_kind_name(r.waiting_kind).c_str(), waits_text(r).c_str());
  }
  return o;
}

std::string opt_int(std::int64_t v) { return v >= 0 ? std::to_string(v) : "null"; }

std::string comm_json(const CommSnapshot& c) {
  std::string o = fmt("{\"context_id\":%u,\"name\":", c.context_id) + json_str(c.name);
  o += fmt(",\"creator_rank\":%u,\"dir_slot\":%u,\"pid\":%d,\"fd\":%d,\"block_bytes\":%" PRIu64 ",\"ok\":%s",
           c.creator_rank, c.dir_slot, c.pid, c.fd, c.block_bytes, c.problem.empty() ? "true" : "false");
  if (!c.problem.empty()) return o + ",\"error\":" + json_str(c.problem) + "}";
  const auto world = [](const CommRankRow& r) { return std::to_string(r.world_rank); };
  o += fmt(",\"size\":%u,\"members\":[", c.size) + join(c.ranks, ",", world) + "],\"ranks\":[";
  for (std::size_t i = 0; i < c.ranks.size(); ++i) {
    const CommRankRow& r = c.ranks[i];
    o += fmt("%s{\"rank\":%u,\"world_rank\":%d,\"pid\":%d,\"state\":\"%s\",\"calls\":%" PRIu64
             ",\"posted\":%u,\"done\":%u,\"in_call\":",
             i ? "," : "", r.rank, r.world_rank, r.pid, r.world_state.c_str(), r.calls, r.posted, r.done);
    o += (r.waiting_kind != 0 ? json_str(coll_kind_name(r.waiting_kind)) : "null");
    o += ",\"waiting_on\":" + (r.waiting_on >= 0 ? std::to_string(r.waiting_on) : "null");
    o += ",\"waiting_on_world\":" + opt_int(r.waiting_on_world) + "}";
  }
  o += "],\"stall\":";
  if (!c.stalled) return o + "null}";
  const Stall& s = c.stall;
  const auto num = [](std::uint32_t r) { return std::to_string(r); };
  const auto w = [&c](std::uint32_t r) { return world_of(c, r); };
  o += fmt("{\"call\":%" PRIu64 ",\"kind\":", s.call) + (s.kind.empty() ? "null" : json_str(s.kind));
  o += ",\"waiting_for\":[" + join(s.missing, ",", num) + "],\"waiting_for_world\":[" + join(s.missing, ",", w) +
       "],\"inside\":[" + join(s.inside, ",", num) + "]}";
  return o + "}";
}

}  // namespace

std::string comms_table(const std::vector<CommSnapshot>& cs) {
  std::string o = fmt("communicators: %zu\n", cs.size());
  if (!cs.empty()) {
    o += "  (CALLS collective calls entered = sequence number of the last; POSTED/DONE the last call whose\n"
         "   contribution is posted / that the rank finished reading; IN-CALL the collective it is inside;\n"
         "   WAITS-ON the comm rank it waits for. MPI_Barrier on MPI_COMM_WORLD does not use the block: it\n"
         "   shows in the job's rank table, column WAITING)\n";
  }
  for (const auto& c : cs) o += comm_table(c);
  return o;
}

std::string comms_json(const std::vector<CommSnapshot>& cs) {
  std::string o = "[";
  for (std::size_t i = 0; i < cs.size(); ++i) o += (i ? "," : "") + comm_json(cs[i]);
  return o + "]";
}

}  // namespace shmpi::dump
