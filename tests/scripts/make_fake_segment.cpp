// Test helper: creates a published one-rank segment in /dev/shm and prints its name.
//   make_fake_segment --version N      header claims layout version N
//   make_fake_segment --broker-pid P   valid header, created by broker pid P, whose
//                                      only rank (pid P too) is running
//   make_fake_segment --layout-version prints this build's layout version, creates nothing
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shm_layout/segment_file.hpp"
#include "shm_layout/segment_init.hpp"
#include "shmpi_common/paths.hpp"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout-version") == 0) {
    std::printf("%u\n", shmpi::layout::kLayoutVersion);
    return 0;
  }
  const bool version = argc == 3 && std::strcmp(argv[1], "--version") == 0;
  const bool broker = argc == 3 && std::strcmp(argv[1], "--broker-pid") == 0;
  if (!version && !broker) {
    std::fprintf(stderr, "usage: make_fake_segment --version N | --broker-pid PID\n");
    return 2;
  }
  const int value = std::atoi(argv[2]);
  const std::string name = shmpi::paths::segment_name(999999);
  std::string why;
  auto m = shmpi::layout::SegmentMapping::create(name, shmpi::layout::segment_size_for(1), why);
  if (!m.valid()) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 1;
  }
  shmpi::layout::SegmentParams p;
  p.job_id = 999999;
  p.broker_pid = broker ? value : 0;
  shmpi::layout::init_segment(m.address(), p);
  auto* h = static_cast<shmpi::layout::JobHeader*>(m.address());
  if (version) h->layout_version = static_cast<std::uint32_t>(value);
  if (broker) {
    auto& s0 = m.view().slot(0);
    s0.pid = value;
    s0.state.store(static_cast<std::uint32_t>(shmpi::layout::RankState::running));
  }
  std::printf("%s\n", name.c_str());
  return 0;
}
