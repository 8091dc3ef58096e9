#include "shm_layout/segment_file.hpp"

#include <dirent.h>
#include <sys/mman.h>

#include <boost/interprocess/exceptions.hpp>

namespace shmpi::layout {
namespace bip = boost::interprocess;

SegmentMapping SegmentMapping::create(const std::string& name, std::size_t size, std::string& why) {
  SegmentMapping m;
  try {
    bip::permissions perm(0600);
    bip::shared_memory_object shm(bip::create_only, name.c_str(), bip::read_write, perm);
    shm.truncate(static_cast<bip::offset_t>(size));
    m.region_ = bip::mapped_region(shm, bip::read_write, 0, size);
  } catch (const bip::interprocess_exception& e) {
    why = "cannot create shm segment " + name + ": " + e.what();
    return {};
  }
  return m;
}

SegmentMapping SegmentMapping::open(const std::string& name, bool writable, bool populate,
                                    std::string& why) {
  SegmentMapping m;
  try {
    const auto mode = writable ? bip::read_write : bip::read_only;
    bip::shared_memory_object shm(bip::open_only, name.c_str(), mode);
    bip::offset_t size = 0;
    if (!shm.get_size(size) || size <= 0) {
      why = "shm segment " + name + " is empty";
      return {};
    }
    m.region_ = bip::mapped_region(shm, mode, 0, static_cast<std::size_t>(size), nullptr,
                                   populate ? MAP_POPULATE : bip::default_map_options);
  } catch (const bip::interprocess_exception& e) {
    why = "cannot open shm segment " + name + ": " + e.what();
    return {};
  }
  why = check_header(m.address(), m.size());
  if (!why.empty()) {
    why = "shm segment " + name + ": " + why;
    return {};
  }
  return m;
}

bool SegmentMapping::remove(const std::string& name) {
  return bip::shared_memory_object::remove(name.c_str());
}

std::vector<std::string> SegmentMapping::list(const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir("/dev/shm")) {
    while (const dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n.compare(0, prefix.size(), prefix) == 0) out.push_back(n);
    }
    ::closedir(d);
  }
  return out;
}

}  // namespace shmpi::layout
