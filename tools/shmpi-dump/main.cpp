// shmpi-dump: a read-only view of this user's shmpi jobs.
//   shmpi-dump [--json]                 list live jobs
//   shmpi-dump [--json] JOB             one job: ranks, barrier generations, abort state,
//                                       RMA windows (flavour, info, locks, epochs, calls),
//                                       communicators (members, collective sequence
//                                       numbers, who waits for whom), point-to-point
//                                       (per rank: posted receives, unexpected and
//                                       queued messages, the blocking call it is in)
//   shmpi-dump [--json] --segment NAME  one segment by its /dev/shm name
//   --windows-only                      with JOB or --segment: only the windows
//   --comms-only                        with JOB or --segment: only the communicators
//   --p2p-only                          with JOB or --segment: only point-to-point
//                                       (the -only options combine: those sections,
//                                       nothing else)
//   --watch SEC                         repeat every SEC seconds until interrupted
// Exit status: 0 ok, 1 no such job, 2 usage or an unreadable/foreign segment.
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "job_report.hpp"
#include "shm_layout/segment_file.hpp"
#include "shmpi_common/paths.hpp"

namespace {
using namespace shmpi;

const char* const kUsage =
    "usage: shmpi-dump [--json] [--watch SEC] [JOB | --segment NAME]\n"
    "       shmpi-dump [--json] [--watch SEC] [--windows-only] [--comms-only] [--p2p-only] (JOB | --segment NAME)\n";

// Sections of one job's report (all of them unless some --X-only option was given).
struct Only {
  bool windows = false;
  bool comms = false;
  bool p2p = false;
  bool any() const { return windows || comms || p2p; }
};

std::string one_job(const dump::JobSnapshot& j, bool json, const Only& only) {
  if (!only.any()) return json ? dump::job_json(j) + "\n" : dump::job_table(j);
  if (json) {
    std::string o = "{\"job_id\":" + std::to_string(j.job_id);
    if (only.windows) o += ",\"windows\":" + dump::windows_json(j.windows);
    if (only.comms) o += ",\"comms\":" + dump::comms_json(j.comms);
    if (only.p2p) o += ",\"p2p\":" + dump::p2p_json(j.p2p);
    return o + "}\n";
  }
  std::string o = "job " + std::to_string(j.job_id) + "  ";
  if (only.windows) o += dump::windows_table(j.windows);
  if (only.comms) o += dump::comms_table(j.comms);
  if (only.p2p) o += dump::p2p_table(j.p2p);
  return o;
}

int show(bool json, const Only& only, const std::string& job_arg, const std::string& segment_arg) {
  std::vector<std::string> names;
  if (!segment_arg.empty()) {
    names.push_back(segment_arg);
  } else {
    names = layout::SegmentMapping::list(paths::segment_prefix());
  }
  const bool one = !job_arg.empty() || !segment_arg.empty();
  std::vector<dump::JobSnapshot> jobs;
  for (const auto& name : names) {
    std::uint64_t id = 0;
    if (segment_arg.empty() && !paths::parse_segment_name(name, id)) continue;
    if (!job_arg.empty() && std::to_string(id) != job_arg) continue;
    std::string why;
    layout::SegmentMapping m = layout::SegmentMapping::open(name, false, false, why);
    if (!m.valid()) {
      // A foreign or corrupt segment is reported, never guessed at.
      std::fprintf(stderr, "shmpi-dump: %s\n", why.c_str());
      if (!segment_arg.empty() || !job_arg.empty()) return 2;
      continue;
    }
    jobs.push_back(dump::snapshot(name, m.view(), one));
  }
  if (one && jobs.empty()) {
    std::fprintf(stderr, "shmpi-dump: no job %s\n", job_arg.empty() ? segment_arg.c_str() : job_arg.c_str());
    return 1;
  }
  std::string out;
  if (one) out = one_job(jobs[0], json, only);
  else out = json ? dump::job_list_json(jobs) + "\n" : dump::job_list_table(jobs);
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  Only only;
  double watch = 0;
  std::string job, segment;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--windows-only") {
      only.windows = true;
    } else if (a == "--comms-only") {
      only.comms = true;
    } else if (a == "--p2p-only") {
      only.p2p = true;
    } else if (a == "--watch" && i + 1 < argc) {
      watch = std::atof(argv[++i]);
      if (!(watch > 0)) {
        std::fputs(kUsage, stderr);
        return 2;
      }
    } else if (a == "--segment" && i + 1 < argc) {
      segment = argv[++i];
    } else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (!a.empty() && a[0] != '-' && job.empty()) {
      job = a;
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (only.any() && job.empty() && segment.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (watch <= 0) return show(json, only, job, segment);
  for (;;) {
    if (!json) std::fputs("\033[H\033[2J", stdout);
    show(json, only, job, segment);
    timespec ts{static_cast<time_t>(watch), static_cast<long>((watch - static_cast<double>(static_cast<time_t>(watch))) * 1e9)};
    nanosleep(&ts, nullptr);
  }
}
