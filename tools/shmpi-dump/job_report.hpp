// Reading a job's segment into plain values (one snapshot) and printing them as a
// table or JSON. Reads only; the segment is mapped read-only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shm_layout/segment_view.hpp"
#include "comm_report.hpp"
#include "p2p_report.hpp"
#include "window_report.hpp"

namespace shmpi::dump {

struct RankRow {
  std::uint32_t rank;
  std::int32_t pid;
  std::string state;
  bool alive;
  std::int32_t core;
  std::int32_t numa_node;
  std::uint64_t barriers_entered;
  std::uint64_t barriers_completed;
  std::string waiting_in;
};

struct JobSnapshot {
  std::string segment;
  std::uint64_t job_id;
  std::uint32_t layout_version;
  std::uint64_t segment_size;
  std::uint32_t nranks;
  std::int32_t broker_pid;
  std::int32_t runner_pid;
  bool bind_to_core;
  double age_s;
  std::string barrier_algo;
  std::uint64_t barrier_arrivals;
  std::uint32_t barrier_release;
  bool aborted;
  std::string abort_text;
  std::vector<RankRow> ranks;
  bool with_details;  // windows, communicators and inboxes were read
  std::vector<WindowSnapshot> windows;
  std::vector<CommSnapshot> comms;
  std::vector<InboxSnapshot> p2p;
};

// with_details: also open and read every window, communicator and point-to-point inbox
// the job lists (see window_report.hpp, comm_report.hpp, p2p_report.hpp).
JobSnapshot snapshot(const std::string& segment, const layout::SegmentView& v, bool with_details);

std::string job_list_table(const std::vector<JobSnapshot>& jobs);
std::string job_list_json(const std::vector<JobSnapshot>& jobs);
std::string job_table(const JobSnapshot& j);
std::string job_json(const JobSnapshot& j);

}  // namespace shmpi::dump
