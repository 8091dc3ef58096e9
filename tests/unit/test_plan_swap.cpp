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

// The fake references must not be dropped (they point nowhere).
void forget_refs(Plan& p) {
  p.op.o = nullptr;
  p.held.v.clear();
}

// p holds what filled(tag) holds, member by member.
void check(const Plan& p, int tag) {
  Plan want = filled(tag);
  CHECK(p.kind == want.kind);
  CHECK(p.comm == want.comm);
  CHECK(std::string(p.call) == want.call);
  CHECK(p.cls == want.cls);
  CHECK(p.msg == want.msg);
  CHECK(p.one.addr == want.one.addr);
  CHECK(p.one.count == want.one.count);
  CHECK(p.one.type == want.one.type);
  CHECK(p.send.size() == want.send.size());
  REQUIRE(p.recv.size() == want.recv.size());
  CHECK(p.recv.back().addr == want.recv.back().addr);
  CHECK(p.root == want.root);
  CHECK(p.in_place == want.in_place);
  CHECK(p.rkind == want.rkind);
  CHECK(p.sbuf == want.sbuf);
  CHECK(p.rbuf == want.rbuf);
  CHECK(p.count == want.count);
  CHECK(p.counts == want.counts);
  CHECK(p.reducer.type == want.reducer.type);
  CHECK(p.op.o == want.op.o);
  CHECK(p.held.v == want.held.v);
  CHECK(p.part == want.part);
  forget_refs(want);
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
