#include "coll/plan.hpp"

#include <algorithm>
#include <utility>

namespace shmpi::client::coll {

void OpRef::drop() {
  release_op(o);
  o = nullptr;
}

void TypeRefs::add(types::Datatype* t) {
  // Predefined types are never freed: no reference (and no allocation) needed.
  if (t == nullptr || t->predefined || std::find(v.begin(), v.end(), t) != v.end()) return;
  types::retain_internal(t);
  v.push_back(t);
}

void TypeRefs::drop() {
  for (types::Datatype* t : v) types::release_internal(t);
  v.clear();
}

namespace {
// Swaps the members m... of a and b (the std::swap overloads for strings and vectors
// exchange their buffers; OpRef and TypeRefs have their own).
template <class T, class... M>
void swap_members(T& a, T& b, M T::*... m) noexcept {
  using std::swap;
  (swap(a.*m, b.*m), ...);
}
}  // namespace

void Plan::swap(Plan& x) noexcept {
  // A member added to Plan must be added here too (tests/unit/test_plan_swap.cpp checks
  // each one; this assertion points here when the layout changes).
  static_assert(sizeof(Plan) == 288, "Plan::swap: swap the new member too, then update this size");
  swap_members(*this, x, &Plan::kind, &Plan::comm, &Plan::call, &Plan::cls, &Plan::msg, &Plan::one, &Plan::send,
               &Plan::recv, &Plan::root, &Plan::in_place, &Plan::rkind, &Plan::sbuf, &Plan::rbuf, &Plan::count,
               &Plan::counts, &Plan::reducer, &Plan::op, &Plan::held, &Plan::part);
}

void Plan::hold_types() {
  // A failed check runs without data; the fill_* calls wrote only what the call uses
  // (send: the scatter root's, and alltoall's unless in place; recv: the gather root's,
  // allgather's and alltoall's): other entries may be stale (api_coll.cpp fresh()).
  if (!ok()) return;
  const bool at_root = comm->rank == root;
  held.add(one.type);
  if ((kind == PlanKind::scatter && at_root) || (kind == PlanKind::alltoall && !in_place)) {
    for (const Buf& b : send) held.add(b.type);
  }
  if ((kind == PlanKind::gather && at_root) || kind == PlanKind::allgather || kind == PlanKind::alltoall) {
    for (const Buf& b : recv) held.add(b.type);
  }
  if (kind == PlanKind::reduce) held.add(reducer.type);
}

int run(Plan& p, std::string& why) {
  const bool invalid = !p.ok();
  switch (p.kind) {
    case PlanKind::barrier:
      return barrier(p.comm, why, p.part);
    case PlanKind::bcast:
      return bcast(p.comm, p.one, p.root, invalid, why, p.part);
    case PlanKind::scatter:
      return scatter(p.comm, p.send.data(), p.one, p.root, p.in_place, invalid, why, p.part);
    case PlanKind::gather:
      return gather(p.comm, p.one, p.recv.data(), p.root, p.in_place, invalid, why);
    case PlanKind::allgather:
      return allgather(p.comm, p.one, p.recv.data(), p.in_place, invalid, why);
    case PlanKind::alltoall:
      return alltoall(p.comm, p.send.data(), p.recv.data(), p.in_place, invalid, why);
    case PlanKind::reduce:
      return reduce(p.comm, p.rkind, p.sbuf, p.rbuf, p.count, p.counts.empty() ? nullptr : p.counts.data(), p.reducer,
                    p.root, p.in_place, invalid, why, p.part);
  }
  return MPI_ERR_INTERN;
}

}  // namespace shmpi::client::coll
