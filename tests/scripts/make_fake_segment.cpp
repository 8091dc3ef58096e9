// Test helper: creates a published segment in /dev/shm whose header claims another
// layout version, prints its name. Usage: make_fake_segment --version N
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shm_layout/segment_file.hpp"
#include "shm_layout/segment_init.hpp"
#include "shmpi_common/paths.hpp"

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--version") != 0) {
    std::fprintf(stderr, "usage: make_fake_segment --version N\n");
    return 2;
  }
  const std::string name = shmpi::paths::segment_name(999999);
  std::string why;
  auto m = shmpi::layout::SegmentMapping::create(name, shmpi::layout::segment_size_for(1), why);
  if (!m.valid()) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 1;
  }
  shmpi::layout::SegmentParams p;
  p.job_id = 999999;
  shmpi::layout::init_segment(m.address(), p);
  static_cast<shmpi::layout::JobHeader*>(m.address())->layout_version =
      static_cast<std::uint32_t>(std::atoi(argv[2]));
  std::printf("%s\n", name.c_str());
  return 0;
}
