// Creating, opening and removing segment shm objects (Boost.Interprocess), shared by
// the broker (create/remove), the ranks (open read-write) and shmpi-dump (read-only).
#pragma once

#include <boost/interprocess/mapped_region.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "shm_layout/segment_view.hpp"

namespace shmpi::layout {

class SegmentMapping {
 public:
  SegmentMapping() = default;
  SegmentMapping(SegmentMapping&&) = default;
  SegmentMapping& operator=(SegmentMapping&&) = default;

  // Exclusive create (fails if the name exists), mode 0600, sized, mapped read-write.
  // The header is left zeroed: the creator fills and publishes it.
  static SegmentMapping create(const std::string& name, std::size_t size, std::string& why);
  // Opens and maps an existing segment and validates its header (check_header). A
  // segment not owned by our uid is refused whatever its name.
  // `populate` pre-faults the mapping's page tables (MAP_POPULATE).
  static SegmentMapping open(const std::string& name, bool writable, bool populate, std::string& why);
  // shm_unlink; true if this call removed it.
  static bool remove(const std::string& name);
  // Names in /dev/shm starting with `prefix` of regular files owned by our uid; the
  // names of other files with that prefix go to `foreign` if given.
  static std::vector<std::string> list(const std::string& prefix, std::vector<std::string>* foreign = nullptr);

  bool valid() const { return region_.get_address() != nullptr; }
  void* address() const { return region_.get_address(); }
  std::size_t size() const { return region_.get_size(); }
  SegmentView view() const { return SegmentView(address(), size()); }

 private:
  boost::interprocess::mapped_region region_;
};

}  // namespace shmpi::layout
