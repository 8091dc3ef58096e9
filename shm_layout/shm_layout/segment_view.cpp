#include "shm_layout/segment_view.hpp"

#include <cstring>

#include "shm_layout/layout_checksum.hpp"

namespace shmpi::layout {

std::string check_header(const void* base, std::size_t mapped_size) {
  if (base == nullptr || mapped_size < sizeof(JobHeader)) {
    return "segment is " + std::to_string(mapped_size) + " bytes, smaller than its " +
           std::to_string(sizeof(JobHeader)) + "-byte header";
  }
  // The identity is immutable once creator_pid is published (release by the broker);
  // acquire it first, then decide on one private snapshot of the identity.
  const auto* published = reinterpret_cast<const std::atomic<std::int32_t>*>(
      static_cast<const std::byte*>(base) + offsetof(JobHeader, creator_pid));
  if (published->load(std::memory_order_acquire) == 0) return "segment is not published yet";
  JobHeader h;
  std::memcpy(static_cast<void*>(&h), base, offsetof(JobHeader, creator_pid));
  if (h.magic != kMagic) return "not a shmpi segment (bad magic)";
  if (h.layout_version != kLayoutVersion) {
    return "segment layout version " + std::to_string(h.layout_version) +
           " does not match this program's layout version " + std::to_string(kLayoutVersion) +
           " (rebuild or use the shmpi installation that started the job)";
  }
  if (h.layout_checksum != kLayoutChecksum || h.header_size != sizeof(JobHeader) ||
      h.rank_slot_size != sizeof(RankSlot)) {
    return "segment layout checksum differs from this program's although both say layout "
           "version " + std::to_string(kLayoutVersion) + " (mismatched builds)";
  }
  if (h.nranks == 0 || h.nranks > kMaxRanks) {
    return "segment claims " + std::to_string(h.nranks) + " ranks (valid: 1.." +
           std::to_string(kMaxRanks) + ")";
  }
  if (h.rank_table_offset != kRankTableOffset || h.segment_size != segment_size_for(h.nranks)) {
    return "segment header sizes are inconsistent (corrupt segment)";
  }
  if (h.segment_size > mapped_size) {
    return "segment header says " + std::to_string(h.segment_size) + " bytes but only " +
           std::to_string(mapped_size) + " are mapped (truncated segment)";
  }
  if (h.barrier_algo > static_cast<std::uint32_t>(BarrierAlgo::central)) {
    return "segment names unknown barrier algorithm " + std::to_string(h.barrier_algo);
  }
  return {};
}

}  // namespace shmpi::layout
