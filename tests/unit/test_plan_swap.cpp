// Plan::swap (libclient/src/coll/plan.hpp): a nonblocking call's request takes over the
// process's plan member by member (nbc.cpp request_for). Every member must move both
// ways, references included; a member left out of the swap would run a request with
// another call's arguments.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "coll/plan.hpp"

using namespace shmpi::client;
using namespace shmpi::client::coll;

namespace {

template <class T>
T* fake(std::uintptr_t v) {
  return reinterpret_cast<T*>(v);
}

// A plan whose every member carries `tag` (pointers: fake addresses, never followed).
Plan filled(int tag) {
  Plan p;
  const auto a = static_cast<std::uintptr_t>(tag) * 0x1000;
  p.kind = tag == 1 ? PlanKind::scatter : PlanKind::reduce;
  p.comm = fake<CommObj>(a + 0x10);
  p.call = tag == 1 ? "MPI_Iscatter" : "MPI_Ireduce";
  p.cls = tag == 1 ? MPI_ERR_COUNT : MPI_ERR_TYPE;
  p.msg = std::string(40 + tag, static_cast<char>('a' + tag));  // past the small-string buffer
  p.one = Buf{fake<std::byte>(a + 0x20), tag, fake<types::Datatype>(a + 0x30), nullptr};
  p.send.assign(static_cast<std::size_t>(tag), p.one);
  p.recv.assign(static_cast<std::size_t>(tag) + 1, p.one);
  p.root = tag + 2;
  p.in_place = tag == 1;
  p.rkind = tag == 1 ? ReduceKind::scan : ReduceKind::exscan;
  p.sbuf = fake<void>(a + 0x40);
  p.rbuf = fake<void>(a + 0x50);
  p.count = 100 + tag;
  p.counts.assign(static_cast<std::size_t>(tag) + 2, tag);
  p.reducer.type = fake<types::Datatype>(a + 0x60);
  p.op.o = fake<OpObj>(a + 0x70);
  p.held.v.assign(static_cast<std::size_t>(tag), fake<types::Datatype>(a + 0x80));
  p.part = tag == 1 ? Part::bounded : Part::trial;
  return p;
}

void check(const Plan& p, int tag) {
  const auto a = static_cast<std::uintptr_t>(tag) * 0x1000;
  CHECK(p.kind == (tag == 1 ? PlanKind::scatter : PlanKind::reduce));
  CHECK(p.comm == fake<CommObj>(a + 0x10));
  CHECK(std::string(p.call) == (tag == 1 ? "MPI_Iscatter" : "MPI_Ireduce"));
  CHECK(p.cls == (tag == 1 ? MPI_ERR_COUNT : MPI_ERR_TYPE));
  CHECK(p.msg == std::string(40 + tag, static_cast<char>('a' + tag)));
  CHECK(p.one.addr == fake<std::byte>(a + 0x20));
  CHECK(p.one.count == tag);
  CHECK(p.one.type == fake<types::Datatype>(a + 0x30));
  CHECK(p.send.size() == static_cast<std::size_t>(tag));
  REQUIRE(p.recv.size() == static_cast<std::size_t>(tag) + 1);
  CHECK(p.recv.back().addr == fake<std::byte>(a + 0x20));
  CHECK(p.root == tag + 2);
  CHECK(p.in_place == (tag == 1));
  CHECK(p.rkind == (tag == 1 ? ReduceKind::scan : ReduceKind::exscan));
  CHECK(p.sbuf == fake<void>(a + 0x40));
  CHECK(p.rbuf == fake<void>(a + 0x50));
  CHECK(p.count == 100 + tag);
  REQUIRE(p.counts.size() == static_cast<std::size_t>(tag) + 2);
  CHECK(p.counts.front() == tag);
  CHECK(p.reducer.type == fake<types::Datatype>(a + 0x60));
  CHECK(p.op.o == fake<OpObj>(a + 0x70));
  REQUIRE(p.held.v.size() == static_cast<std::size_t>(tag));
  CHECK(p.held.v.front() == fake<types::Datatype>(a + 0x80));
  CHECK(p.part == (tag == 1 ? Part::bounded : Part::trial));
}

// The fake references must not be dropped (they point nowhere).
void forget_refs(Plan& p) {
  p.op.o = nullptr;
  p.held.v.clear();
}

}  // namespace

TEST_CASE("Plan::swap exchanges every member, references included") {
  Plan a = filled(1), b = filled(2);
  a.swap(b);
  check(a, 2);
  check(b, 1);
  b.swap(a);
  check(a, 1);
  check(b, 2);
  forget_refs(a);
  forget_refs(b);
}
