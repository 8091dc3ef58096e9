// Printing window snapshots: one table section per window, or a JSON array.
#include "window_report.hpp"

#include <cinttypes>

#include "format.hpp"

namespace shmpi::dump {
using namespace shmpi::layout;

namespace {

constexpr const char* kCallNames[kRmaCallKinds] = {"put", "get", "acc", "get_acc", "fetch_and_op", "cas"};

struct EpochBit {
  std::uint32_t bit;
  const char* name;
};
constexpr EpochBit kEpochs[] = {{kEpochFence, "fence"},
                                {kEpochLockAll, "lock_all"},
                                {kEpochLock, "lock"},
                                {kEpochAccess, "access"},
                                {kEpochExposure, "exposure"}};

std::string epoch_list(std::uint32_t e, const char* sep, bool quote) {
  std::string o;
  for (const auto& b : kEpochs) {
    if ((e & b.bit) == 0) continue;
    if (!o.empty()) o += sep;
    o += quote ? json_str(b.name) : b.name;
  }
  if ((e & ~0x1fu) != 0) {
    if (!o.empty()) o += sep;
    o += quote ? json_str(fmt("0x%x", e & ~0x1fu)) : fmt("0x%x", e & ~0x1fu);
  }
  return o;
}

const char* ordering(std::uint32_t flags) { return (flags & kInfoOrderingNone) != 0 ? "none" : "rar,raw,war,waw"; }
const char* ops(std::uint32_t flags) { return (flags & kInfoOpsSameOp) != 0 ? "same_op" : "same_op_no_op"; }
const char* tf(bool b) { return b ? "true" : "false"; }

// "X:1" exclusive by window rank 1, "S:2" two shared holders, "-" free.
std::string lock_text(const WinRankRow& r) {
  std::string o;
  if (r.exclusive_holder >= 0) o = fmt("X:%" PRId64, r.exclusive_holder);
  if (r.shared_holders != 0) o += (o.empty() ? "" : "+") + fmt("S:%u", r.shared_holders);
  return o.empty() ? "-" : o;
}

std::string head_line(const WindowSnapshot& w) {
  return fmt("window 0x%08x  created by rank %u (pid %d, fd %d)", w.win_id, w.creator_rank, w.pid, w.fd);
}

std::string window_table(const WindowSnapshot& w) {
  std::string o = head_line(w);
  if (!w.problem.empty()) return o + ": " + w.problem + "\n";
  o += fmt("  flavour %s  ranks %u  control %" PRIu64 " B  data %" PRIu64 " B  freed %u/%u\n", w.flavor.c_str(),
           w.nranks, w.control_bytes, w.data_bytes, w.freed, w.nranks);
  o += fmt("  info: accumulate_ordering=%s accumulate_ops=%s no_locks=%s alloc_shared_noncontig=%s granularity=%u\n",
           ordering(w.info_flags), ops(w.info_flags), tf((w.info_flags & kInfoNoLocks) != 0),
           tf((w.info_flags & kInfoNoncontig) != 0), w.granularity);
  std::string holders;
  for (const auto& r : w.ranks) {
    if ((r.epoch & kEpochLockAll) != 0) holders += (holders.empty() ? "" : ",") + std::to_string(r.rank);
  }
  o += fmt("  lock_all holders %u%s%s%s  exclusive lockers %u\n", w.lock_all_holders, holders.empty() ? "" : " (rank ",
           holders.c_str(), holders.empty() ? "" : ")", w.exclusive_lockers);
  o += fmt("  %-4s %-5s %-8s %-4s %-10s %-4s %-15s | %-8s %-4s | %-8s %-22s %-5s %-7s %-7s %-7s %-7s %-7s %s\n", "RANK",
           "WORLD", "PID", "NUMA", "SIZE", "DISP", "MEMORY", "LOCK", "BULK", "ANNOUNCE", "EPOCH", "HELD", "PUT", "GET",
           "ACC", "GETACC", "FOP", "CAS");
  std::string stripes;
  for (const auto& r : w.ranks) {
    const std::string epoch = epoch_list(r.epoch, ",", false);
    o += fmt("  %-4u %-5u %-8d %-4d %-10" PRIu64 " %-4" PRId64 " %-15s | %-8s %-4u | %-8s %-22s %-5s", r.rank,
             r.world_rank, r.pid, r.numa_node, r.size, r.disp_unit, r.memory.c_str(), lock_text(r).c_str(), r.bulk,
             r.announce >= 0 ? fmt("->%" PRId64, r.announce).c_str() : "-", epoch.empty() ? "-" : epoch.c_str(),
             fmt("%u/%u", r.locks_shared, r.locks_exclusive).c_str());
    for (std::size_t c = 0; c < kRmaCallKinds; ++c) o += fmt(c + 1 < kRmaCallKinds ? " %-7" PRIu64 : " %" PRIu64, r.calls[c]);
    o += "\n";
    for (const auto& [k, holder] : r.stripes) stripes += fmt(" %u:%u(rank %" PRId64 ")", r.rank, k, holder);
  }
  o += "  stripe locks (target:stripe):" + (stripes.empty() ? std::string(" none") : stripes) + "\n";
  return o;
}

std::string window_json(const WindowSnapshot& w) {
  std::string o = fmt("{\"win_id\":%u,\"creator_rank\":%u,\"dir_slot\":%u,\"pid\":%d,\"fd\":%d,\"ok\":%s", w.win_id,
                      w.creator_rank, w.dir_slot, w.pid, w.fd, tf(w.problem.empty()));
  if (!w.problem.empty()) return o + ",\"error\":" + json_str(w.problem) + "}";
  o += fmt(",\"flavor\":\"%s\",\"nranks\":%u,\"control_bytes\":%" PRIu64 ",\"data_bytes\":%" PRIu64 ",\"freed\":%u",
           w.flavor.c_str(), w.nranks, w.control_bytes, w.data_bytes, w.freed);
  o += fmt(",\"info\":{\"accumulate_ordering\":\"%s\",\"accumulate_ops\":\"%s\",\"no_locks\":%s,"
           "\"alloc_shared_noncontig\":%s,\"granularity\":%u}",
           ordering(w.info_flags), ops(w.info_flags), tf((w.info_flags & kInfoNoLocks) != 0),
           tf((w.info_flags & kInfoNoncontig) != 0), w.granularity);
  o += fmt(",\"all_locks\":{\"exclusive_lockers\":%u,\"lock_all_holders\":%u},\"ranks\":[", w.exclusive_lockers,
           w.lock_all_holders);
  for (std::size_t i = 0; i < w.ranks.size(); ++i) {
    const WinRankRow& r = w.ranks[i];
    o += fmt("%s{\"rank\":%u,\"world_rank\":%u,\"pid\":%d,\"numa_node\":%d,\"size\":%" PRIu64 ",\"disp_unit\":%" PRId64
             ",\"memory\":\"%s\"",
             i ? "," : "", r.rank, r.world_rank, r.pid, r.numa_node, r.size, r.disp_unit, r.memory.c_str());
    o += ",\"lock\":{\"exclusive_holder\":" + (r.exclusive_holder >= 0 ? std::to_string(r.exclusive_holder) : "null") +
         fmt(",\"shared_holders\":%u},\"bulk\":%u,\"stripes\":[", r.shared_holders, r.bulk);
    for (std::size_t k = 0; k < r.stripes.size(); ++k) {
      o += fmt("%s{\"stripe\":%u,\"holder\":%" PRId64 "}", k ? "," : "", r.stripes[k].first, r.stripes[k].second);
    }
    o += "],\"announce\":" + (r.announce >= 0 ? std::to_string(r.announce) : "null");
    o += ",\"epoch\":[" + epoch_list(r.epoch, ",", true) + "]";
    o += fmt(",\"locks_held\":{\"shared\":%u,\"exclusive\":%u},\"calls\":{", r.locks_shared, r.locks_exclusive);
    for (std::size_t c = 0; c < kRmaCallKinds; ++c) o += fmt("%s\"%s\":%" PRIu64, c ? "," : "", kCallNames[c], r.calls[c]);
    o += "}}";
  }
  return o + "]}";
}

}  // namespace

std::string windows_table(const std::vector<WindowSnapshot>& ws) {
  std::string o = fmt("windows: %zu\n", ws.size());
  if (!ws.empty()) {
    o += "  (as target: LOCK X:r exclusive by rank r, S:n shared holders; BULK accumulates in progress;\n"
         "   as origin: ANNOUNCE ->t atomic in flight to t, EPOCH, HELD shared/exclusive locks, calls by kind)\n";
  }
  for (const auto& w : ws) o += window_table(w);
  return o;
}

std::string windows_json(const std::vector<WindowSnapshot>& ws) {
  std::string o = "[";
  for (std::size_t i = 0; i < ws.size(); ++i) o += (i ? "," : "") + window_json(ws[i]);
  return o + "]";
}

}  // namespace shmpi::dump
