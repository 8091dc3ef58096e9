// Checked access to a mapped segment: validates the header once, then hands out
// references to its parts by offset. Used by the ranks, the broker and shmpi-dump
// alike, so all three refuse a foreign or corrupt segment with the same message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "shm_layout/segment.hpp"

namespace shmpi::layout {

// Why a mapped region cannot be used as a segment, or empty if it can.
// Checks magic, layout version (naming both versions), checksum, sizes and offsets
// against `mapped_size`. Never reads outside [base, base + mapped_size).
std::string check_header(const void* base, std::size_t mapped_size);

class SegmentView {
 public:
  SegmentView() = default;
  // Precondition: check_header(base, size) returned "". The rank count is read once and
  // clamped to what the mapping holds, so a process that later scribbles on the header
  // cannot make slot() reach outside the mapping (the broker relies on this).
  SegmentView(void* base, std::size_t size)
      : base_(static_cast<std::byte*>(base)), size_(size), nranks_(clamped_nranks()) {}

  JobHeader& header() const { return *reinterpret_cast<JobHeader*>(base_); }
  std::uint32_t nranks() const { return nranks_; }
  // Precondition: rank < nranks().
  RankSlot& slot(std::uint32_t rank) const {
    return *reinterpret_cast<RankSlot*>(base_ + kRankTableOffset + std::size_t{rank} * sizeof(RankSlot));
  }
  std::byte* base() const { return base_; }
  std::size_t size() const { return size_; }

  // Offset of an object inside the segment (what goes into shared words).
  std::uint64_t offset_of(const void* p) const {
    return static_cast<std::uint64_t>(static_cast<const std::byte*>(p) - base_);
  }
  // A 32-bit futex word at `off`, or nullptr if `off` is not a valid, aligned word
  // inside the segment. For offsets read back from shared memory.
  std::atomic<std::uint32_t>* word_at(std::uint64_t off) const {
    if (off == 0 || off % 4 != 0 || off > size_ - 4) return nullptr;
    return reinterpret_cast<std::atomic<std::uint32_t>*>(base_ + off);
  }

 private:
  std::uint32_t clamped_nranks() const {
    if (base_ == nullptr || size_ < kRankTableOffset) return 0;
    const std::uint64_t fits = (size_ - kRankTableOffset) / sizeof(RankSlot);
    const std::uint32_t claimed = reinterpret_cast<const volatile JobHeader*>(base_)->nranks;
    return static_cast<std::uint32_t>(claimed < fits ? claimed : fits);
  }

  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  std::uint32_t nranks_ = 0;
};

}  // namespace shmpi::layout
