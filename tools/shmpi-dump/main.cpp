// shmpi-dump: a read-only view of this user's shmpi jobs.
//   shmpi-dump [--json]                 list live jobs
//   shmpi-dump [--json] JOB             one job: ranks, barrier generations, abort state,
//                                       RMA windows (flavour, info, locks, epochs, calls),
//                                       communicators (members, collective sequence
//                                       numbers, who waits for whom)
//   shmpi-dump [--json] --segment NAME  one segment by its /dev/shm name
//   --windows-only                      with JOB or --segment: only the windows
//   --comms-only                        with JOB or --segment: only the communicators
//                                       (with --windows-only: both, nothing else)
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
    "       shmpi-dump [--json] [--watch SEC] [--windows-only] [--comms-only] (JOB | --segment NAME)\n";

std::string one_job(const dump::JobSnapshot& j, bool json, bool windows_only, bool comms_only) {
  if (!windows_only && !comms_only) return json ? dump::job_json(j) + "\n" : dump::job_table(j);
  if (json) {
    std::string o = "{\"job_id\":" + std::to_string(j.job_id);
    if (windows_only) o += ",\"windows\":" + dump::windows_json(j.windows);
    if (comms_only) o += ",\"comms\":" + dump::comms_json(j.comms);
    return o + "}\n";
  }
  std::string o = "job " + std::to_string(j.job_id) + "  ";
  if (windows_only) o += dump::windows_table(j.windows);
  if (comms_only) o += dump::comms_table(j.comms);
  return o;
}

int show(bool json, bool windows_only, bool comms_only, const std::string& job_arg, const std::string& segment_arg) {
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
  if (one) out = one_job(jobs[0], json, windows_only, comms_only);
  else out = json ? dump::job_list_json(jobs) + "\n" : dump::job_list_table(jobs);
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  bool windows_only = false;
  bool comms_only = false;
  double watch = 0;
  std::string job, segment;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--windows-only") {
      windows_only = true;
    } else if (a == "--comms-only") {
      comms_only = true;
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
  if ((windows_only || comms_only) && job.empty() && segment.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (watch <= 0) return show(json, windows_only, comms_only, job, segment);
  for (;;) {
    if (!json) std::fputs("\033[H\033[2J", stdout);
    show(json, windows_only, comms_only, job, segment);
    timespec ts{static_cast<time_t>(watch), static_cast<long>((watch - static_cast<double>(static_cast<time_t>(watch))) * 1e9)};
    nanosleep(&ts, nullptr);
  }
}
