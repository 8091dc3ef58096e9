// Printing point-to-point snapshots: one table section (a row per rank, then the posted
// receives and queued records of the ranks that have any), or a JSON array.
#include <cinttypes>

#include "format.hpp"
#include "p2p_report.hpp"

namespace shmpi::dump {

namespace {

// MPI_ANY_SOURCE (-1) and MPI_ANY_TAG (-2) as "any".
std::string src_text(std::int32_t s) { return s == -1 ? "any" : std::to_string(s); }
std::string tag_text(std::int32_t t) { return t == -2 ? "any" : std::to_string(t); }
std::string src_json(std::int32_t s) { return s == -1 ? "\"any\"" : std::to_string(s); }
std::string tag_json(std::int32_t t) { return t == -2 ? "\"any\"" : std::to_string(t); }

bool has_peer(std::uint32_t waiting) {
  using layout::P2pWait;
  const auto w = static_cast<P2pWait>(waiting);
  return w == P2pWait::recv || w == P2pWait::send || w == P2pWait::probe;
}

std::string inbox_state(std::uint32_t s) {
  switch (s) {
    case 0: return "none";
    case 1: return "live";
    case 2: return "closed";
  }
  return fmt("corrupt(%u)", s);
}

std::string waiting_text(const InboxSnapshot& in) {
  if (in.waiting == static_cast<std::uint32_t>(layout::P2pWait::none)) return "-";
  const std::string name = p2p_wait_name(in.waiting);
  if (!has_peer(in.waiting)) return name;
  const char* dir = in.waiting == static_cast<std::uint32_t>(layout::P2pWait::send) ? "to" : "from";
  return name + " " + dir + " " + src_text(in.wait_src) + " tag " + tag_text(in.wait_tag) + " context " +
         std::to_string(in.wait_context);
}

std::string row_text(const InboxSnapshot& in) {
  std::string o = fmt("  %-4u %-8d ", in.rank, in.pid);
  if (!in.read) {
    if (!in.problem.empty()) return o + "inbox: " + in.problem + "\n";
    return o + (in.dir_state == 0 ? "no inbox yet (MPI_Init not finished)" : "inbox closed (MPI_Finalize)") + "\n";
  }
  return o + fmt("%-8u %-10u %-8" PRIu64 " %-8" PRIu64 " ", in.posted, in.unexpected, in.queued, in.sends_pending) +
         waiting_text(in) + "\n";
}

std::string record_text(const QueuedRecord& q) {
  return fmt("    %-16s context %u source %d tag %d  %" PRIu64 " bytes\n",
             q.rendezvous ? (q.sync ? "rendezvous sync" : "rendezvous") : (q.sync ? "eager sync" : "eager"), q.context,
             q.src, q.tag, q.bytes);
}

std::string details_text(const InboxSnapshot& in) {
  std::string o;
  if (in.posted != 0) {
    o += fmt("  rank %u posted receives (%u): ", in.rank, in.posted);
    for (std::size_t i = 0; i < in.shown.size(); ++i) {
      const PostedRow& p = in.shown[i];
      o += (i ? "; " : "") + fmt("context %u source ", p.context) + src_text(p.src) + " tag " + tag_text(p.tag);
    }
    if (in.posted > in.shown.size()) o += fmt("; %zu more not shown", in.posted - in.shown.size());
    o += "\n";
  }
  for (const RingRow& r : in.rings) {
    o += fmt("  rank %u ring from rank %u: %" PRIu64 " queued (%" PRIu64 " bytes; %" PRIu64
             " ring bytes from position %" PRIu64 ")",
             in.rank, r.sender, r.queued, r.queued_bytes, r.ring_used, r.head);
    o += (r.problem.empty() ? "" : "; " + r.problem) + "\n";
    for (const QueuedRecord& q : r.first) o += record_text(q);
    if (r.queued > r.first.size()) o += fmt("    ... %" PRIu64 " more\n", r.queued - r.first.size());
  }
  return o;
}

std::string inbox_json(const InboxSnapshot& in) {
  std::string o = fmt("{\"rank\":%u,\"pid\":%d,\"fd\":%d,\"inbox\":", in.rank, in.pid, in.fd) +
                  json_str(inbox_state(in.dir_state));
  o += fmt(",\"ring_bytes\":%u,\"inbox_bytes\":%" PRIu64 ",\"ok\":%s", in.ring_bytes, in.inbox_bytes,
           in.read ? "true" : "false");
  if (!in.problem.empty()) o += ",\"error\":" + json_str(in.problem);
  if (!in.read) return o + "}";
  o += fmt(",\"posted\":%u,\"posted_receives\":[", in.posted);
  for (std::size_t i = 0; i < in.shown.size(); ++i) {
    const PostedRow& p = in.shown[i];
    o += fmt("%s{\"context\":%u,\"source\":", i ? "," : "", p.context) + src_json(p.src) +
         ",\"tag\":" + tag_json(p.tag) + "}";
  }
  o += fmt("],\"unexpected\":%u,\"sends_pending\":%" PRIu64 ",\"waiting\":", in.unexpected, in.sends_pending);
  o += in.waiting == 0 ? "null" : json_str(p2p_wait_name(in.waiting));
  o += ",\"wait\":";
  if (has_peer(in.waiting)) {
    o += "{\"peer\":" + src_json(in.wait_src) + ",\"tag\":" + tag_json(in.wait_tag) +
         fmt(",\"context\":%u}", in.wait_context);
  } else {
    o += "null";
  }
  o += fmt(",\"queued\":%" PRIu64 ",\"queued_bytes\":%" PRIu64 ",\"rings\":[", in.queued, in.queued_bytes);
  for (std::size_t i = 0; i < in.rings.size(); ++i) {
    const RingRow& r = in.rings[i];
    o += fmt("%s{\"sender\":%u,\"head\":%" PRIu64 ",\"queued\":%" PRIu64 ",\"queued_bytes\":%" PRIu64
             ",\"ring_used\":%" PRIu64 ",\"records\":[",
             i ? "," : "", r.sender, r.head, r.queued, r.queued_bytes, r.ring_used);
    for (std::size_t k = 0; k < r.first.size(); ++k) {
      const QueuedRecord& q = r.first[k];
      o += fmt("%s{\"pos\":%" PRIu64 ",\"kind\":\"%s\",\"sync\":%s,\"context\":%u,\"source\":%d,\"tag\":%d,"
               "\"bytes\":%" PRIu64 "}",
               k ? "," : "", q.pos, q.rendezvous ? "rendezvous" : "eager", q.sync ? "true" : "false", q.context,
               q.src, q.tag, q.bytes);
    }
    o += "],\"error\":" + (r.problem.empty() ? std::string("null") : json_str(r.problem)) + "}";
  }
  return o + "]}";
}

}  // namespace

std::string p2p_table(const std::vector<InboxSnapshot>& in) {
  std::size_t live = 0;
  for (const InboxSnapshot& i : in) live += i.read ? 1 : 0;
  std::string o = fmt("point-to-point: %zu inboxes read of %zu ranks\n", live, in.size());
  if (in.empty()) return o;
  o += "  (POSTED receives posted, not matched; UNEXPECTED messages the rank drained but has not received\n"
       "   (held in its private memory: only their count shows); QUEUED records in its rings, not drained yet;\n"
       "   SENDS its sends not complete; WAITING the blocking call it is in. Sources are ranks in the\n"
       "   message's communicator (context); ring senders are world ranks)\n";
  o += fmt("  %-4s %-8s %-8s %-10s %-8s %-8s %s\n", "RANK", "PID", "POSTED", "UNEXPECTED", "QUEUED", "SENDS", "WAITING");
  for (const InboxSnapshot& i : in) o += row_text(i);
  for (const InboxSnapshot& i : in) {
    if (i.read) o += details_text(i);
  }
  return o;
}

std::string p2p_json(const std::vector<InboxSnapshot>& in) {
  std::string o = "[";
  for (std::size_t i = 0; i < in.size(); ++i) o += (i ? "," : "") + inbox_json(in[i]);
  return o + "]";
}

}  // namespace shmpi::dump
