// Core assignment across concurrent jobs, on a synthetic two-NUMA-node topology so the
// test means the same on any machine.
#include <doctest/doctest.h>

#include <cstdlib>
#include <set>

#include "core_allocator.hpp"

using shmpi::daemon::CoreAllocator;

namespace {
struct SyntheticTopology {
  explicit SyntheticTopology(const char* desc) { setenv("HWLOC_SYNTHETIC", desc, 1); }
  ~SyntheticTopology() { unsetenv("HWLOC_SYNTHETIC"); }
};
}  // namespace

TEST_CASE("a second job gets the cores the first left free") {
  SyntheticTopology topo("package:2 core:2 pu:1");  // 4 cores, 2 packages
  CoreAllocator cores;
  REQUIRE(cores.core_count() == 4);
  const auto a = cores.assign(2, true);
  const auto b = cores.assign(2, true);
  std::set<int> used;
  for (const auto& p : a) used.insert(p.core);
  for (const auto& p : b) used.insert(p.core);
  CHECK(used.size() == 4);
  cores.release(a);
  const auto c = cores.assign(2, true);
  std::set<int> c_cores;
  for (const auto& p : c) c_cores.insert(p.core);
  std::set<int> a_cores;
  for (const auto& p : a) a_cores.insert(p.core);
  CHECK(c_cores == a_cores);  // the freed cores, not b's
}

TEST_CASE("more ranks than cores spread evenly") {
  SyntheticTopology topo("core:2 pu:1");
  CoreAllocator cores;
  REQUIRE(cores.core_count() == 2);
  cores.assign(8, true);
  const auto load = cores.load();
  CHECK(load == std::vector<std::uint32_t>{4, 4});
}

TEST_CASE("each core reports the NUMA node it belongs to") {
  SyntheticTopology topo("numa:2 core:2 pu:1");
  CoreAllocator cores;
  REQUIRE(cores.core_count() == 4);
  const auto p = cores.assign(4, true);
  std::set<int> nodes;
  for (const auto& x : p) nodes.insert(x.numa_node);
  CHECK(nodes == std::set<int>{0, 1});
}

TEST_CASE("unbound jobs take no cores") {
  SyntheticTopology topo("core:2 pu:1");
  CoreAllocator cores;
  const auto p = cores.assign(3, false);
  for (const auto& x : p) CHECK(x.core == -1);
  CHECK(cores.load() == std::vector<std::uint32_t>{0, 0});
}

TEST_CASE("ranks of one NUMA node are consecutive, also with more ranks than cores") {
  SyntheticTopology topo("numa:2 core:2 pu:1");
  CoreAllocator cores;
  const auto p = cores.assign(8, true);  // two ranks per core
  for (std::size_t r = 0; r < p.size(); ++r) CHECK(p[r].numa_node == (r < 4 ? 0 : 1));
  CHECK(cores.load() == std::vector<std::uint32_t>{2, 2, 2, 2});
}
