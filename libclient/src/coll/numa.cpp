// NUMA-aware barrier, bcast, reduce and allreduce (numa.hpp). Call A gathers towards the
// leaders or spreads from the root; call B spreads from the leaders to their nodes.
#include "coll/numa.hpp"

#include <algorithm>
#include <cstring>

#include "coll/image.hpp"
#include "objects.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

int group_leader(const NumaGroups& ng, int r) { return ng.leader[static_cast<std::size_t>(ng.group_of[static_cast<std::size_t>(r)])]; }
const std::vector<int>& group_members(const NumaGroups& ng, int r) {
  return ng.members[static_cast<std::size_t>(ng.group_of[static_cast<std::size_t>(r)])];
}

// Waits for rank r's post of call k; false (error recorded) if it is invalid or the
// job aborted.
bool arrived(Call& k, int r) {
  if (r != k.me && !wait_posted(k, r)) return false;
  return peer_ok(k, r);
}

// The first of `ranks` but us (all posted, valid) whose contribution differs in size
// from our `span` (size_matches records the error), or -1: a fold must not read past one.
int differs(Call& k, const std::vector<int>& ranks, MPI_Count span) {
  for (int r : ranks) {
    if (r != k.me && !size_matches(k, r, static_cast<std::uint64_t>(span))) return r;
  }
  return -1;
}

}  // namespace

int numa_barrier(CommObj* c, const NumaGroups& ng, std::string& why) {
  const int me = c->rank;
  const int leader = group_leader(ng, me);
  // A: members post at once; a leader posts when its whole node has arrived, then waits
  // for the other leaders' posts (their nodes have arrived too).
  Call a = begin(c, layout::CollKind::barrier);
  if (me != leader) {
    post(a);
  } else {
    for (int r : group_members(ng, me)) {
      if (r != me && !wait_posted(a, r)) return aborted(why);
    }
    post(a);
    for (int l : ng.leader) {
      if (l != me && !wait_posted(a, l)) return aborted(why);
    }
  }
  finish_now(a);
  // B: the leaders release their nodes.
  Call b = begin(c, layout::CollKind::barrier);
  if (me == leader) {
    post(b);
  } else if (!wait_posted(b, leader)) {
    return aborted(why);
  }
  finish_now(b);
  return MPI_SUCCESS;
}

int numa_bcast(CommObj* c, const NumaGroups& ng, const Buf& buf, int root, bool invalid, std::string& why) {
  const int me = c->rank;
  const bool roots_node = ng.group_of[static_cast<std::size_t>(me)] == ng.group_of[static_cast<std::size_t>(root)];
  // Who holds the data for this rank's node after call A: the root on its own node,
  // the leader elsewhere.
  const int head = roots_node ? root : group_leader(ng, me);
  Call a = begin(c, layout::CollKind::bcast);
  if (invalid) {
    if (sit_out(a) != MPI_SUCCESS) return aborted(why);
    Call b = begin(c, layout::CollKind::bcast);
    return sit_out(b) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  }
  // A: the root exposes or stages; its node and the other nodes' leaders read it.
  bool ok = true;
  if (me == root) {
    if (!reserve(a)) return aborted(why);
    contribute(a, buf);
    post(a);
  } else if (roots_node || me == head) {
    ok = wait_posted(a, root);
    if (ok && peer_ok(a, root)) ok = receive_from(a, root, buf);
  }
  ok = finish(a) && ok;
  if (!ok && job_aborted()) return aborted(why);
  // B: each other node's leader passes on what it received.
  Call b = begin(c, layout::CollKind::bcast);
  b.error = a.error;
  b.why = a.why;
  if (!roots_node && me == head) {
    if (!reserve(b)) return aborted(why);
    if (!ok || (a.error != MPI_SUCCESS && a.error != MPI_ERR_TRUNCATE)) {
      post_invalid(b, coll::invalid(desc(a, root)) ? culprit(a, root) : me);
    } else {
      // Truncated here (an erroneous program): pass on what fit, and what the root
      // sent, so that the node's ranks report MPI_ERR_TRUNCATE as they would reading
      // from the root.
      contribute(b, buf);
      my_desc(b).bytes2 = desc(a, root).bytes;
      post(b);
    }
  } else if (!roots_node) {
    ok = wait_posted(b, head);
    if (ok && peer_ok(b, head)) {
      const layout::CallDesc& d = desc(b, head);
      const auto room = static_cast<std::uint64_t>(buf.bytes());
      ok = receive(b, head, source(b, head, d), 0, std::min(d.bytes, room), buf);
      if (d.bytes2 > room && b.error == MPI_SUCCESS) {
        b.error = MPI_ERR_TRUNCATE;
        b.why = "rank " + std::to_string(root) + " sends " + std::to_string(d.bytes2) +
                " bytes, the receive buffer holds " + std::to_string(room);
      }
    }
  }
  ok = finish(b) && ok;
  return result(b, ok, why);
}

int numa_reduce(CommObj* c, const NumaGroups& ng, ReduceKind kind, const void* send, void* recv, MPI_Count count,
                const Reducer& op, int root, bool in_place, bool invalid, std::string& why) {
  const bool all = kind == ReduceKind::allreduce;
  const layout::CollKind ck = all ? layout::CollKind::allreduce : layout::CollKind::reduce;
  const int me = c->rank;
  const int leader = group_leader(ng, me);
  const std::vector<int>& mine = group_members(ng, me);
  const int groups = static_cast<int>(ng.leader.size());

  Call a = begin(c, ck);
  if (invalid) {
    if (sit_out(a) != MPI_SUCCESS) return aborted(why);
    if (!all) return MPI_SUCCESS;
    Call b = begin(c, ck);
    return sit_out(b) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  }
  if (!reserve(a)) return aborted(why);
  const types::Datatype& t = *op.type;
  const Geometry g = geometry(t);
  const MPI_Count span = g.span(count);
  const auto* in_img = static_cast<const std::byte*>(in_place ? recv : send) + g.tlb;
  const bool has_result = all || me == root;
  const bool direct = writable(t);
  std::byte* res_img = nullptr;
  if (has_result && count > 0) {
    res_img = direct ? static_cast<std::byte*>(recv) + g.tlb : scratch(c, 2, static_cast<std::size_t>(span));
  }
  bool ok = true;
  int named = me;  // whom a leader names when it cannot pass a result on

  // A: members contribute their images; each leader folds its node's images (in rank
  // order, its own first) into a partial and contributes that.
  if (me != leader) {
    // Stable until the leader has posted its partial: a member writes its result only
    // after that (reduce root) or in call B (allreduce).
    contribute_image(a, in_img, span, false);
    post(a);
  } else {
    bool all_in = true;
    for (int r : mine) all_in = (r == me || arrived(a, r)) && all_in;
    if (!all_in) {
      if (job_aborted()) return aborted(why);
      for (int r : mine) {
        if (r != me && coll::invalid(desc(a, r))) named = culprit(a, r);
      }
      post_invalid(a, named);
      ok = false;
    } else if (const int r = differs(a, mine, span); r >= 0) {
      // A member's count differs (an erroneous call): we fold nothing, and the others
      // learn from our invalid post that this call failed, naming that member.
      named = r;
      post_invalid(a, named);
      ok = false;
    } else if (mine.size() == 1) {
      // Its own image is its partial; in place, its result overwrites it while it is
      // still read (by itself and the other leaders): expose a copy then.
      contribute_image(a, in_img, span, in_place && has_result);
      post(a);
    } else {
      layout::CallDesc& d = my_desc(a);
      d.status = 0;
      d.bytes = static_cast<std::uint64_t>(span);
      const bool small = static_cast<std::uint64_t>(span) <= kStageMax;
      std::byte* partial = small ? stage_for(a, static_cast<std::uint64_t>(span))
                                 : scratch(c, 3, static_cast<std::size_t>(span));
      const int lo = mine.front();
      ok = fold(a, op, g, [&](int i) {
             const int r = lo + i;
             return r == me ? FoldIn{r, {}, in_img} : FoldIn{r, source(a, r, desc(a, r)), nullptr};
           }, static_cast<int>(mine.size()), 0, count, partial);
      if (!ok) {
        post_invalid(a, me);
      } else {
        d.addr = small ? 0 : reinterpret_cast<std::uint64_t>(partial);
        a.exposed = a.exposed || !small;
        post(a);
      }
    }
  }
  // The total (reduce: the root; allreduce: every leader): the partials in node order.
  if (ok && ((all && me == leader) || (!all && me == root))) {
    bool all_in = true;
    for (int l : ng.leader) {
      const bool in = l == me || arrived(a, l);
      if (!in && !job_aborted() && coll::invalid(desc(a, l))) named = culprit(a, l);
      all_in = in && all_in;
    }
    if (all_in && differs(a, ng.leader, span) >= 0) all_in = false;
    ok = all_in && fold(a, op, g, [&](int i) {
           const int l = ng.leader[static_cast<std::size_t>(i)];
           return FoldIn{l, source(a, l, desc(a, l)), nullptr};
         }, groups, 0, count, res_img);
  }
  const bool fin_a = finish(a);
  if (!fin_a) return aborted(why);
  if (all) {
    // B: the leaders hand the total to their nodes.
    Call b = begin(c, ck);
    b.error = a.error;
    b.why = a.why;
    if (me == leader) {
      if (!reserve(b)) return aborted(why);
      if (!ok) {
        post_invalid(b, named);
      } else {
        contribute_image(b, res_img, span, false);
        post(b);
      }
    } else {
      ok = wait_posted(b, leader) && peer_ok(b, leader);
      if (ok) ok = fetch(b, leader, source(b, leader, desc(b, leader)), 0, res_img, static_cast<std::size_t>(span));
    }
    if (!finish(b)) return aborted(why);
    if (!ok) return result(b, false, why);
  } else if (!ok) {
    return result(a, false, why);
  }
  if (!direct && has_result && count > 0) image_to_buffer(c, op, res_img, static_cast<std::byte*>(recv), count);
  return MPI_SUCCESS;
}

}  // namespace shmpi::client::coll
