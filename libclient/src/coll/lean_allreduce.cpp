#include "coll/lean_allreduce.hpp"

#include "coll/engine.hpp"
#include "coll/image.hpp"
#include "coll/nbc.hpp"
#include "coll/posted_fold.hpp"
#include "request/request.hpp"

namespace shmpi::client::coll {

bool lean_allreduce_fits(const Plan& p) {
  const CommObj* c = p.comm;
  const types::Datatype* t = p.reducer.type;
  // A predefined op (its kernel chosen) on a predefined type: the request holds no
  // reference to either (neither is ever freed) and the result is folded in the user's
  // buffer (image.hpp writable).
  if (p.kind != PlanKind::reduce || p.rkind != ReduceKind::allreduce || p.reducer.kernel == nullptr ||
      !t->predefined || p.count <= 0 || c->size < 2 || c->block == nullptr || c->block->gated) {
    return false;
  }
  if (static_cast<std::uint64_t>(geometry(*t).span(p.count)) > kStageMax) return false;
  // As nbc.cpp start_mode's `posting`: begin() and reserve() must not wait.
  return first_in_line(p) && own_slot_free(p) &&
         first_not_done(*p.comm, reserved_upto(c->seq + 1, false)) < 0;
}

namespace {
// r's plan becomes p's (a reduction of a predefined op and type: no references to take),
// field by field into the recycled request's plan (Plan::swap exchanged every member).
void take_reduction(Plan& q, const Plan& p) {
  q.kind = p.kind;
  q.comm = p.comm;
  q.call = p.call;
  q.cls = MPI_SUCCESS;
  q.msg.clear();
  q.root = 0;
  q.in_place = p.in_place;
  q.rkind = p.rkind;
  q.sbuf = p.sbuf;
  q.rbuf = p.rbuf;
  q.count = p.count;
  q.counts.clear();
  q.reducer = p.reducer;
  q.part = Part::whole;
}
}  // namespace

int lean_allreduce(const Plan& p, MPI_Request* request) {
  CommObj* c = p.comm;
  const Reducer& op = p.reducer;
  const Geometry g = geometry(*op.type);
  const MPI_Count span = g.span(p.count);
  auto* res = static_cast<std::byte*>(p.rbuf) + g.tlb;
  const std::byte* in = p.in_place ? res : static_cast<const std::byte*>(p.sbuf) + g.tlb;
  g_at_issue = true;  // engine waits would run progress(): none here (fits checked)
  Call k = begin(c, layout::CollKind::allreduce);
  k.lazy_done = true;
  (void)reserve(k);  // at once (lean_allreduce_fits)
  // Staged (a copy, so in place needs no copy aside); as reduce_staged.
  contribute_image(k, in, span, false);
  my_desc(k).addr2 = reinterpret_cast<std::uint64_t>(res);
  post(k);
  const FoldArgs f{0, k.n - 1, 0, p.count, span, g.tlb, static_cast<std::uint64_t>(span), res};
  // As reduce_staged: poll for the posts unless the program works between its issues
  // and waits (posted_fold.hpp poll_at_issue); if all came and are what the fold
  // covers, the call ends here.
  const bool ended = poll_at_issue(*c) && posts_arrive(k, 0, k.n - 1) && fold_posted(k, op, f) == FoldStep::done;
  g_at_issue = false;
  if (ended) {
    *request = completed_handle();
    return MPI_SUCCESS;
  }
  CollRequest* r = new_request();
  take_reduction(r->plan, p);
  static_cast<FoldArgs&>(r->fold) = f;
  r->fold.k.emplace(k);
  r->fold.looked = false;
  start_kept(*r);
  attach(*r);
  *request = new_request_handle(r);
  return MPI_SUCCESS;
}

}  // namespace shmpi::client::coll
