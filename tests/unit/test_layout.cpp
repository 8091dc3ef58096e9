// The segment layout: sizes, alignment, cache-line isolation of hot words, and the
// header check that every process runs before trusting a segment.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "shm_layout/layout_checksum.hpp"
#include "shm_layout/segment_init.hpp"
#include "shm_layout/segment_view.hpp"

using namespace shmpi::layout;

namespace {
// A zeroed, page-aligned buffer holding a published segment for `n` ranks.
struct FakeSegment {
  explicit FakeSegment(std::uint32_t n) : size(segment_size_for(n)) {
    mem = static_cast<std::byte*>(std::aligned_alloc(kPage, size));
    std::memset(mem, 0, size);
    SegmentParams p;
    p.nranks = n;
    p.job_id = 42;
    init_segment(mem, p);
  }
  ~FakeSegment() { std::free(mem); }
  JobHeader& header() { return *reinterpret_cast<JobHeader*>(mem); }
  std::size_t size;
  std::byte* mem;
};
}  // namespace

TEST_CASE("shared structs have the fixed sizes and alignments the layout promises") {
  CHECK(sizeof(Flag) == 64);
  CHECK(alignof(Flag) == 64);
  CHECK(sizeof(AbortWord) == 64);
  CHECK(sizeof(JobHeader) == 4096);
  CHECK(alignof(JobHeader) == 4096);
  CHECK(sizeof(RankSlot) == 4096);
  CHECK(alignof(RankSlot) == 4096);
  CHECK(segment_size_for(1) == 2 * 4096);
  CHECK(segment_size_for(8) == 9 * 4096);
}

TEST_CASE("hot words sit on cache lines of their own") {
  // Each pair below is written by different processes; sharing a line would make
  // every write invalidate the other's reads.
  CHECK(offsetof(JobHeader, abort) / kCacheLine != offsetof(JobHeader, creator_pid) / kCacheLine);
  CHECK(offsetof(JobHeader, barrier_arrivals) / kCacheLine != offsetof(JobHeader, abort) / kCacheLine);
  CHECK(offsetof(JobHeader, barrier_release) / kCacheLine !=
        offsetof(JobHeader, barrier_arrivals) / kCacheLine);
  for (std::uint32_t k = 0; k + 1 < kMaxBarrierRounds; ++k) {
    CHECK(offsetof(RankSlot, barrier_round) + k * sizeof(Flag) + sizeof(Flag) ==
          offsetof(RankSlot, barrier_round) + (k + 1) * sizeof(Flag));
  }
  CHECK(offsetof(RankSlot, barriers_entered) % kCacheLine == 0);
  CHECK(offsetof(RankSlot, barrier_round) % kCacheLine == 0);
  CHECK((1u << kMaxBarrierRounds) >= kMaxRanks);
}

TEST_CASE("a freshly initialised segment passes the header check") {
  FakeSegment s(4);
  CHECK(check_header(s.mem, s.size) == "");
  SegmentView v(s.mem, s.size);
  CHECK(v.nranks() == 4);
  CHECK(v.header().job_id == 42);
  CHECK(v.header().creator_pid.load() > 0);
  CHECK(v.offset_of(&v.slot(2)) == kRankTableOffset + 2 * sizeof(RankSlot));
}

TEST_CASE("a segment of another layout version is refused with both versions named") {
  FakeSegment s(2);
  s.header().layout_version = kLayoutVersion + 6;
  const std::string why = check_header(s.mem, s.size);
  CHECK(why.find("layout version " + std::to_string(kLayoutVersion + 6)) != std::string::npos);
  CHECK(why.find("layout version " + std::to_string(kLayoutVersion) + " ") != std::string::npos);
}

TEST_CASE("same version but another layout (forgotten bump) is refused by the checksum") {
  FakeSegment s(2);
  s.header().layout_checksum ^= 1;
  CHECK(check_header(s.mem, s.size).find("checksum") != std::string::npos);
}

TEST_CASE("corrupt or foreign headers are refused, never trusted") {
  SUBCASE("bad magic") {
    FakeSegment s(2);
    s.header().magic = 0x1234;
    CHECK(check_header(s.mem, s.size).find("magic") != std::string::npos);
  }
  SUBCASE("not yet published") {
    FakeSegment s(2);
    s.header().creator_pid.store(0);
    CHECK(check_header(s.mem, s.size).find("not published") != std::string::npos);
  }
  SUBCASE("rank count out of range") {
    FakeSegment s(2);
    s.header().nranks = kMaxRanks + 1;
    CHECK(check_header(s.mem, s.size).find("ranks") != std::string::npos);
    s.header().nranks = 0;
    CHECK(check_header(s.mem, s.size).find("ranks") != std::string::npos);
  }
  SUBCASE("size claims more than is mapped") {
    FakeSegment s(2);
    s.header().nranks = 3;
    s.header().segment_size = segment_size_for(3);
    CHECK(check_header(s.mem, s.size).find("truncated") != std::string::npos);
  }
  SUBCASE("inconsistent offsets") {
    FakeSegment s(2);
    s.header().rank_table_offset = 64;
    CHECK(check_header(s.mem, s.size).find("inconsistent") != std::string::npos);
  }
  SUBCASE("mapping smaller than a header") {
    FakeSegment s(1);
    CHECK(check_header(s.mem, 100).find("smaller") != std::string::npos);
    CHECK(check_header(nullptr, 0) != "");
  }
}

TEST_CASE("offsets read back from shared memory are validated before use") {
  FakeSegment s(2);
  SegmentView v(s.mem, s.size);
  CHECK(v.word_at(0) == nullptr);
  CHECK(v.word_at(3) == nullptr);
  CHECK(v.word_at(s.size) == nullptr);
  CHECK(v.word_at(s.size - 4) != nullptr);
  CHECK(v.word_at(~std::uint64_t{0} & ~std::uint64_t{3}) == nullptr);
  CHECK(v.word_at(offsetof(JobHeader, barrier_release)) ==
        reinterpret_cast<std::atomic<std::uint32_t>*>(&v.header().barrier_release.value));
}

TEST_CASE("a header rewritten after the check cannot steer slot() outside the mapping") {
  FakeSegment s(2);
  REQUIRE(check_header(s.mem, s.size) == "");
  s.header().nranks = 1000000;  // a rank scribbles on the header after validation
  SegmentView v(s.mem, s.size);
  CHECK(v.nranks() == 2);
  CHECK(reinterpret_cast<std::byte*>(&v.slot(v.nranks() - 1)) + sizeof(RankSlot) <= s.mem + s.size);
}
