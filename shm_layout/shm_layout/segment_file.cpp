#include "shm_layout/segment_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
    // /dev/shm is world-writable: anyone can create a file under our name prefix. Only
    // a segment our own uid created can be a job of ours; anything else is refused
    // before it is mapped (checked on the open descriptor, so it cannot be swapped).
    struct stat st{};
    if (::fstat(shm.get_mapping_handle().handle, &st) != 0 || !S_ISREG(st.st_mode)) {
      why = "shm segment " + name + " is not a regular file (refusing to use it)";
      return {};
    }
    if (st.st_uid != ::geteuid()) {
      why = "shm segment " + name + " is owned by uid " + std::to_string(st.st_uid) + ", not by uid " +
            std::to_string(::geteuid()) + " (refusing to use it)";
      return {};
    }
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

std::vector<std::string> SegmentMapping::list(const std::string& prefix, std::vector<std::string>* foreign) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir("/dev/shm")) {
    while (const dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n.compare(0, prefix.size(), prefix) != 0) continue;
      // The name alone proves nothing (see open): files of another owner are not ours.
      struct stat st{};
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (S_ISREG(st.st_mode) && st.st_uid == ::geteuid()) {
        out.push_back(n);
      } else if (foreign) {
        foreign->push_back(n);
      }
    }
    ::closedir(d);
  }
  return out;
}

}  // namespace shmpi::layout
