// Data-movement collectives: barrier, bcast, scatter(v), gather(v), allgather(v),
// alltoall(v/w). One call = one post and one done per rank (engine.hpp); small
// contributions travel through the writer's staging slot; large ones through the
// writer's stream ring (bcast, scatter, gather: stream.hpp; a blocking alltoall
// pumping while it reads: exchange.hpp; a nonblocking one within the ring), else they
// are read from the writer's own memory with process_vm_readv.
#include <algorithm>
#include <cstring>

#include "barrier.hpp"
#include "coll/collectives.hpp"
#include "coll/exchange.hpp"
#include "coll/fiber.hpp"
#include "coll/numa.hpp"
#include "coll/stream.hpp"
#include "copy_bytes.hpp"
#include "errors.hpp"
#include "runtime.hpp"
#include "types/pack.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

namespace {

// Uniform pieces (the regular scatter and alltoall, small): all the same size and all
// staged, so the descriptor says where each is (kDescUniform) and the piece table is
// not written; up to kInlineBytes in all travel in the descriptor line itself, which
// the reader polls anyway. False (nothing written) if the pieces are not such.
// Marks the descriptor uniform with pieces of b bytes (uniform_staged) and says where
// the first goes and how far apart they are (`stride`).
std::byte* uniform_area(Call& k, std::uint64_t b, std::uint64_t& stride) {
  layout::CallDesc& d = my_desc(k);
  d.addr = 0;
  d.bytes = b;
  const auto others = static_cast<std::uint64_t>(k.n - 1);
  const bool inline_ = b * others <= layout::kInlineBytes;
  d.status |= layout::kDescUniform | (inline_ ? layout::kDescInline : 0);
  stride = inline_ ? b : (b + 63) / 64 * 64;
  assert(!k.small_stage || others * stride <= layout::kSmallStage);
  return inline_ ? reinterpret_cast<std::byte*>(d.value) : my_stage(k);
}

bool contribute_uniform(Call& k, const Buf* send, int skip, std::uint64_t stage_max) {
  const std::uint64_t b = static_cast<std::uint64_t>(send[skip == 0 ? 1 : 0].bytes());
  if (b > stage_max || !uniform_staged(k.n, b)) return false;
  for (int j = 0; j < k.n; ++j) {
    if (j != skip && static_cast<std::uint64_t>(send[j].bytes()) != b) return false;
  }
  std::uint64_t stride = 0;
  std::byte* to = uniform_area(k, b, stride);
  for (int j = 0, idx = 0; j < k.n; ++j) {
    if (j != skip) pack_to(send[j], to + static_cast<std::uint64_t>(idx++) * stride);
  }
  return true;
}

// A bcast or scatter root's nonblocking call whose large contribution went by single
// copies: the latest finish stamp of this call among its readers (path_choice.hpp), read
// after finish() waited for their `done`.
void note_readers(const Call& k, PathPick& p) {
  if (!p.picked || p.stream || current_task() == nullptr) return;
  const std::uint64_t now = path_clock_ns();
  std::uint64_t end = 0;
  for (int r = 0; r < k.n; ++r) {
    if (r == k.me) continue;
    const std::uint64_t w = k.b->rank(r).finish_stamp.load(std::memory_order_relaxed);
    if (!layout::stamp_is_of(w, k.seq)) continue;  // another call's
    // The full time from its low 48 bits: the latest such time not after now.
    std::uint64_t t = (now & ~layout::kStampNsMask) | (w & layout::kStampNsMask);
    if (t > now) {
      if (now <= layout::kStampNsMask) continue;
      t -= layout::kStampNsMask + 1;
    }
    end = std::max(end, t);
  }
  p.readers_end_ns = end;
}

// Streams or single copies for this member's large pieces (path_choice.hpp): its own
// measured pick, except in an alltoall of more than two members, where comm rank 0
// picks for all and publishes it in its CommRank line, and the others follow.
PathPick choose_path(Call& k, PathKind kind, std::uint64_t bytes) {
  if (kind != PathKind::alltoall || k.n <= 2) return pick_path(k.comm->paths, kind, bytes);
  if (k.me != 0) return follow_pick(k.b->rank(0).copy_classes, kind, bytes);
  const PathPick p = pick_path(k.comm->paths, kind, bytes);
  publish_pick(k.mine->copy_classes, p);
  return p;
}

// An alltoall's rank 0 that picked for all (choose_path) times its call only if every
// other member sent its large piece for us the way the pick went (a member that read an
// older pick, or found its ring busy, took the other path): else `path` is untimed.
void untimed_unless_followed(const Call& k, PathPick& path) {
  if (!path.timed || k.n <= 2) return;
  for (int r = 0; r < k.n; ++r) {
    if (r == k.me) continue;
    const layout::CallDesc& d = desc(k, r);
    bool followed = (d.status & layout::kDescInvalid) == 0;
    if (followed && (d.status & layout::kDescUniform) == 0) {  // uniform: all staged
      const layout::PieceDesc& p = pieces(k, r)[k.me];
      const bool streamed = (p.stream & layout::kPieceStreamed) != 0;
      followed = (p.addr == 0 && !streamed) || streamed == path.stream;  // staged, or as picked
    }
    if (!followed) {
      path.timed = false;
      return;
    }
  }
}

// The pieces this rank sends, one per destination (skip: a destination whose piece
// does not travel, e.g. our own). Uniform small pieces: contribute_uniform. Else
// staged while the slot has room and the piece is small, otherwise streamed while our
// ring is free and the call's stream stays within `stream_max` bytes of chunks (the
// caller pumps them after its post: stream.hpp), else exposed: the user's memory when
// contiguous and stable, else packed into scratch 0; the piece table says which.
// `split`: a streamed piece that may be split (stream.hpp kSplitMin) exposes its head
// (addr, stage_off = head bytes) and streams the rest, if the rest fits the ring (a
// pump that waited for room would wait for a reader still reading the head).
// `path` (a scatter root, an alltoall member; its kind set): at the first piece too
// large to stage, the call picks streams or single copies for all of them
// (choose_path); null: streams. `stage_max`: the largest piece staged (the rest are
// chosen, streamed or exposed).
void contribute_pieces(Call& k, const Buf* send, int skip, bool snapshot, std::uint64_t stream_max, bool split,
                       PathPick* path = nullptr, std::uint64_t stage_max = kStageMax) {
  if (k.n > 1 && contribute_uniform(k, send, skip, stage_max)) return;
  layout::PieceDesc* t = my_pieces(k);
  std::byte* stage = my_stage(k);
  std::uint64_t off = 0, scratch_bytes = 0, streamed = 0;
  // Pass 1: decide; pass 2: fill (scratch is sized once).
  for (int j = 0; j < k.n; ++j) {
    layout::PieceDesc& p = t[j];
    p = layout::PieceDesc{};
    if (j == skip) continue;
    const auto bytes = static_cast<std::uint64_t>(send[j].bytes());
    p.bytes = bytes;
    if (bytes <= stage_max && off + bytes <= layout::kStageSlot) {
      p.stage_off = off;
      off += (bytes + 63) / 64 * 64;
      assert(!k.small_stage || off <= layout::kSmallStage);
      continue;
    }
    if (path != nullptr && !path->timed && path->bytes == 0) {
      *path = choose_path(k, path->kind, bytes);
      if (!path->stream) stream_max = 0;
    }
    if (streamed + stream_chunks(bytes) * layout::kStreamChunk <= stream_max && can_stream(k)) {
      const bool halves = split && !snapshot && send[j].contiguous() && bytes >= kSplitMin &&
                          stream_chunks(bytes - split_head(bytes)) <= layout::kStreamChunks;
      const std::uint64_t head = halves ? split_head(bytes) : 0;
      streamed += stream_chunks(bytes - head) * layout::kStreamChunk;
      p.stream = layout::kPieceStreamed | take_chunks(k, bytes - head);
      if (head > 0) {
        p.addr = reinterpret_cast<std::uint64_t>(send[j].data());
        p.stage_off = head;
      }
    } else if (!snapshot && send[j].contiguous()) {
      p.addr = reinterpret_cast<std::uint64_t>(send[j].data());
      k.exposed = true;
    } else {
      p.addr = 1;  // scratch, placed below
      p.stage_off = scratch_bytes;
      scratch_bytes += (bytes + 63) / 64 * 64;
      k.exposed = true;
    }
  }
  // Picked streams but found the ring busy: the call's time is not a stream's.
  if (path != nullptr && path->stream && !k.streaming) path->timed = false;
  std::byte* s = scratch_bytes > 0 ? scratch(k.comm, 0, scratch_bytes) : nullptr;
  for (int j = 0; j < k.n; ++j) {
    layout::PieceDesc& p = t[j];
    if (j == skip || p.bytes == 0 || p.stream != 0) continue;
    const Buf& b = send[j];
    if (p.addr == 0) {
      pack_to(b, stage + p.stage_off);
    } else if (p.addr == 1) {
      types::pack(*b.type, *b.flat, b.addr, b.count, s + p.stage_off);
      p.addr = reinterpret_cast<std::uint64_t>(s + p.stage_off);
      p.stage_off = 0;
    }
  }
}

// Writes the pieces contribute_pieces() chose to stream into our ring. False if aborted.
bool pump_pieces(Call& k, const Buf* send) {
  if (!k.streaming) return true;
  const layout::PieceDesc* t = my_pieces(k);
  return pump(k, k.n, [&](int j) {
    StreamPart part = piece_part(t[j], j);
    part.src = &send[j];
    if (t[j].addr != 0 && part.bytes > 0) {  // split: the rest after the exposed head
      part.src = nullptr;
      part.raw = send[j].data() + t[j].stage_off;
      part.bytes -= t[j].stage_off;
    }
    return part;
  });
}

}  // namespace

int barrier(CommObj* c, std::string& why, Part part) {
  if (c->size == 1) return MPI_SUCCESS;
  if (takes_world_barrier(c)) {
    return world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates) ? MPI_SUCCESS : aborted(why);
  }
  if (const NumaGroups& ng = numa_groups(c); ng.active && !nonblocking_call()) return numa_barrier(c, ng, why);
  Call k = begin(c, layout::CollKind::barrier);
  k.lazy_done = true;
  if (part != Part::after_post) {
    if (part == Part::bounded && !reservable(k, false)) return kNeedsTask;  // at issue, nothing written yet
    if (!reserve(k)) return aborted(why);
    post(k);
    if (part == Part::bounded && !posts_arrive(k, 0, k.n - 1)) return kPostedOnly;
  }
  if (!wait_arrivals(k)) return aborted(why);
  for (int r = 0; r < k.n; ++r) {
    if (r != k.me && !wait_posted(k, r)) return aborted(why);
  }
  finish_now(k);
  return MPI_SUCCESS;
}

int bcast(CommObj* c, const Buf& buf, int root, bool invalid, std::string& why, Part part) {
  if (const NumaGroups& ng = numa_groups(c); ng.active && !nonblocking_call()) {
    return numa_bcast(c, ng, buf, root, invalid, why);
  }
  Call k = begin(c, layout::CollKind::bcast);
  k.lazy_done = true;
  if (invalid) return sit_out(k) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  // A large message is streamed by the root (stream.hpp); if its ring is busy (another
  // call of ours streams: nonblocking calls), exposed and split: each rank reads the first
  // (n-1)/n of it, and the root, which has nothing else to do, writes the last 1/n into
  // every rank that offered its (contiguous) buffer in its descriptor. Both halves
  // copy in parallel; the root says it is done writing with its `done` flag. Small
  // messages: only the root posts.
  const auto room = static_cast<std::uint64_t>(buf.bytes());
  auto tail_at = [&](std::uint64_t bytes) { return bytes - bytes / static_cast<std::uint64_t>(k.n) / 64 * 64; };
  auto takes_tail = [&](const layout::CallDesc& rd, const layout::CallDesc& reader) {
    return rd.addr != 0 && reader.addr2 != 0 && rd.bytes <= reader.bytes2 && tail_at(rd.bytes) < rd.bytes;
  };
  bool ok = true;
  layout::CallDesc& d = my_desc(k);
  PathPick path;  // the root's, for a large message
  const bool trial = part == Part::trial;
  if (k.me == root) {
    // A small message stages in the small slot: it may run further ahead.
    const bool small = bcast_small(true, buf);
    if (trial && room > kStageMax) return kNeedsTask;
    if (trial && !reservable(k, small)) return kNotYet;
    if (!(small ? reserve_small(k) : reserve(k))) return aborted(why);
    const bool large = room > kStageMax && k.n > 1;
    if (large) {
      path = pick_path(c->paths, PathKind::bcast, room);
      if (path.stream && !can_stream(k)) path = PathPick{false, false};  // ring busy: exposed, untimed
    }
    if (large && path.stream) {
      // Streamed: every reader drains the same chunks (stream.hpp).
      const std::uint32_t first = stream_whole(k, room);
      post(k);
      ok = pump(k, 1, [&](int) { return StreamPart{&buf, nullptr, room, first, -1}; });
      if (!ok) return aborted(why);
      ok = finish(k);
      path_done(c->paths, path);
      return result(k, ok, why);
    }
    contribute(k, buf);
    post(k);
    // k.exposed, not d.addr: reading our own descriptor line right after writing it
    // stalls until the line is back from the readers that hold it.
    if (k.exposed) {
      const std::uint64_t tail = tail_at(d.bytes);
      for (int r = 0; r < k.n && ok; ++r) {
        if (r == root) continue;
        if (!wait_posted(k, r)) return aborted(why);
        if (!takes_tail(d, desc(k, r))) continue;
        ok = store_to(k, r, desc(k, r).addr2 + tail, reinterpret_cast<const std::byte*>(d.addr) + tail, d.bytes - tail);
      }
      d.value[1] = ok ? 0 : 1;  // published by `done` (finish)
    }
  } else {
    // A rank posts (its offer, or that it has none) only for a large message: early when
    // its own buffer is large, else once it sees the root's is (an erroneous truncating
    // call); the root, exposing, waits for every rank's post.
    auto offer = [&](bool with_buffer) {
      if (!reserve(k)) return false;
      d.status = 0;
      d.addr = d.bytes = 0;
      d.addr2 = with_buffer && buf.contiguous() ? reinterpret_cast<std::uint64_t>(buf.data()) : 0;
      d.bytes2 = room;
      post(k);
      return true;
    };
    const bool early = room > kStageMax;
    if (trial && early) return kNeedsTask;
    if (trial && !poll_briefly([&] { return posted_now(k, root); })) return kNotYet;
    if (early && !offer(true)) return aborted(why);
    ok = wait_posted(k, root);
    const auto large = [](const layout::CallDesc& rd) {
      return rd.addr != 0 || (rd.status & layout::kDescStreamed) != 0;
    };
    if (trial && large(desc(k, root))) return kNotYet;  // an erroneous truncating call
    if (ok && !early && large(desc(k, root)) && !offer(false)) return aborted(why);
    if (ok && peer_ok(k, root)) {
      const layout::CallDesc& rd = desc(k, root);
      if (takes_tail(rd, d)) {  // not for a streamed message (addr 0): receive_from drains it
        ok = fetch(k, root, source(k, root, rd), 0, buf.data(), tail_at(rd.bytes)) && wait_done(k, root, k.seq);
        if (ok && rd.value[1] != 0) {
          ok = false;
          k.why = "rank " + std::to_string(root) + " could not write its part of the message";
        }
      } else {
        const Source src = source(k, root, rd);  // receive_from's, once for both
        prefetch_next_staged(k, root, src);
        ok = receive(k, root, src, 0, rd.bytes, buf);
      }
    }
  }
  ok = finish(k) && ok;
  note_readers(k, path);
  path_done(c->paths, path);
  return result(k, ok, why);
}

int scatter(CommObj* c, const Buf* send, const Buf& recv, int root, bool recv_in_place, bool invalid, std::string& why,
            Part part) {
  Call k = begin(c, layout::CollKind::scatter);
  k.lazy_done = true;
  if (invalid) return sit_out(k) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  bool ok = true;
  PathPick path;  // the root's, for its large pieces
  path.kind = PathKind::scatter;
  const bool trial = part == Part::trial;
  if (k.me == root) {
    const bool small = scatter_small(true, k.n, send, root);
    if (trial && !small && !pieces_staged(k.n, send, root)) return kNeedsTask;
    if (trial && !reservable(k, small)) return kNotYet;
    if (!(small ? reserve_small(k) : reserve(k))) return aborted(why);
    my_desc(k).status = 0;
    contribute_pieces(k, send, root, false, UINT64_MAX, k.n == 2, &path);
    post(k);
    // The streamed pieces first: their readers copy while we copy our own block.
    if (!pump_pieces(k, send)) return aborted(why);
    if (!recv_in_place) local_copy(k, send[root], recv);
  } else {
    if (trial && !poll_briefly([&] { return posted_now(k, root); })) return kNotYet;
    ok = wait_posted(k, root);
    if (ok && peer_ok(k, root)) {
      std::uint64_t bytes = 0;
      const Source src = piece_from(k, root, bytes);
      if (trial && src.stream != 0) return kNotYet;  // its reader posts and acks chunks
      // 8 ranks on 2 cores, 8-byte MPI_Scatter stream: 1.04 -> 0.87 us per call.
      prefetch_next_staged(k, root, src);
      if (src.stream != 0) {
        // The root waits for our post before it waits for our acks (stream.hpp).
        if (!reserve(k)) return aborted(why);
        my_desc(k).status = 0;
        post(k);
      }
      ok = receive(k, root, src, 0, bytes, recv);
    }
  }
  ok = finish(k) && ok;
  note_readers(k, path);
  path_done(c->paths, path);
  return result(k, ok, why);
}

int scatter_uniform(CommObj* c, const std::byte* const* at, const Buf& own, const Buf& recv, bool recv_in_place,
                    std::string& why, Part part) {
  Call k = begin(c, layout::CollKind::scatter);
  k.lazy_done = true;
  const auto b = static_cast<std::uint64_t>(own.bytes());
  // As scatter(): pieces_small() of uniform pieces.
  const auto others = static_cast<std::uint64_t>(k.n - 1);
  const bool small = stages_small(others * ((b + 63) / 64 * 64), others * b, k.n > 1);
  if (part == Part::trial && !reservable(k, small)) return kNotYet;
  if (!(small ? reserve_small(k) : reserve(k))) return aborted(why);
  my_desc(k).status = 0;
  std::uint64_t to_stride = 0;
  std::byte* to = uniform_area(k, b, to_stride);
  for (int j = 0; j < k.n; ++j) {
    if (j != k.me) {
      copy_bytes(to, at[j], static_cast<std::size_t>(b));
      to += to_stride;
    }
  }
  post(k);
  if (!recv_in_place) local_copy(k, own, recv);
  const bool ok = finish(k);
  return result(k, ok, why);
}

namespace {
// gather(), with member r's receive block at the root as recv(r) (a Buf): the plan's
// pieces, or the lean path's uniform ones (gather_uniform).
template <class Recv>
int gather_with(CommObj* c, const Buf& send, Recv&& recv, int root, bool send_in_place, bool invalid,
                std::string& why) {
  Call k = begin(c, layout::CollKind::gather);
  k.lazy_done = true;
  // Only the root reads a sender's exposed contribution: the other senders need not
  // publish `done` for it (they never look at each other's descriptors).
  k.may_read = [](const Call& call, int r) { return r == call.reader_arg; };
  k.reader_arg = root;
  if (invalid) return sit_out(k) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  bool ok = true;
  // The root writes its descriptor and piece table alone, and a sender of a small
  // block stages it in its small slot: they may run further ahead.
  const bool small = gather_small(k.me == root, send);
  if (!(small ? reserve_small(k) : reserve(k))) return aborted(why);
  PathPick path;  // a 2-member root's, for its sender's large block
  if (k.me != root) {
    // A large contribution goes straight into the root's buffer when the root offers
    // its address (process_vm_writev, while the root copies its own block) and we are
    // one of several senders: streamed, the root would drain every sender's ring on
    // its one core, where each sender's write runs on its own (docs/collectives.md
    // "Gather from several senders"). Of two members the root picks by measured time;
    // without an offer it is streamed; if our ring is busy (nonblocking calls), it is
    // written or exposed.
    const auto bytes = static_cast<std::uint64_t>(send.bytes());
    const layout::PieceDesc* offer = nullptr;
    bool stream = false;
    if (bytes > kStageMax) {
      if (!wait_posted(k, root)) return aborted(why);
      const layout::PieceDesc& p = pieces(k, root)[k.me];
      const layout::CallDesc& rd = desc(k, root);
      const bool table = (rd.status & (layout::kDescInvalid | layout::kDescUniform)) == 0;
      if (table && p.addr != 0 && bytes <= p.bytes) offer = &p;
      // Of two members, the root chose (path_choice.hpp): streamed unless it asks for the
      // write (kDescWantsWrite) and offers the block.
      const bool write = offer != nullptr && (k.n > 2 || (rd.status & layout::kDescWantsWrite) != 0);
      stream = (rd.status & layout::kDescInvalid) == 0 && !write && can_stream(k);
    }
    // Split (stream.hpp kSplitMin): the head straight into the root's buffer while the
    // root copies its own block, then the rest streamed.
    const std::uint64_t head =
        stream && offer != nullptr && k.n == 2 && send.contiguous() && bytes >= kSplitMin ? split_head(bytes) : 0;
    if (head > 0 && !store_to(k, root, offer->addr, send.data(), head)) stream = false;  // fails below too
    if (stream) {
      // Into our ring while the root copies out (stream.hpp): two memcpys on two cores
      // instead of one process_vm_writev, which costs ~3x a memcpy.
      const std::uint32_t first = stream_whole(k, bytes - head);
      layout::CallDesc& d = my_desc(k);
      d.bytes = bytes;
      if (head > 0) {
        d.status |= layout::kDescWritten;  // [0, head) is in the root's buffer
        d.bytes2 = head;
      }
      post(k);
      StreamPart part{&send, nullptr, bytes, first, root};
      if (head > 0) part = StreamPart{nullptr, send.data() + head, bytes - head, first, root};
      if (!pump(k, 1, [&](int) { return part; })) return aborted(why);
    } else if (offer != nullptr) {
      const std::byte* from = send.data();
      if (!send.contiguous()) {
        std::byte* s = scratch(c, 0, bytes);
        types::pack(*send.type, *send.flat, send.addr, send.count, s);
        from = s;
      }
      layout::CallDesc& d = my_desc(k);
      d.addr = 0;
      d.bytes = bytes;
      d.status = store_to(k, root, offer->addr, from, bytes) ? layout::kDescWritten : layout::kDescInvalid;
      if (d.status == layout::kDescInvalid) {
        d.bytes2 = static_cast<std::uint64_t>(k.me) + 1;
        ok = false;
      }
    } else {
      contribute(k, send);
    }
    if (!stream) post(k);
  } else {
    // Offer the address of every large contiguous receive block. With none to offer,
    // kDescUniform says the piece table is not written (a sender that has a large
    // block to send, in an erroneous call, must not take a stale offer).
    layout::CallDesc& d = my_desc(k);
    auto offered = [&](int r) {
      const Buf& b = recv(r);
      return r != root && b.contiguous() && static_cast<std::uint64_t>(b.bytes()) > kStageMax;
    };
    bool any = false;
    for (int r = 0; r < k.n && !any; ++r) any = offered(r);
    d.status = any ? 0 : layout::kDescUniform;
    // Two members: the sender writes its offered block or streams it, as our measured
    // calls say (path_choice.hpp); timed to our finish().
    if (k.n == 2 && any) {
      path = pick_path(c->paths, PathKind::gather, static_cast<std::uint64_t>(recv(1 - root).bytes()));
      if (!path.stream) d.status |= layout::kDescWantsWrite;
    }
    if (any) {
      layout::PieceDesc* t = my_pieces(k);
      for (int r = 0; r < k.n; ++r) {
        const bool o = offered(r);
        t[r] = layout::PieceDesc{o ? reinterpret_cast<std::uint64_t>(recv(r).data()) : 0,
                                 o ? static_cast<std::uint64_t>(recv(r).bytes()) : 0, 0, 0};
      }
    }
    post(k);
    // Staged blocks beyond the descriptor line: their first lines now, so the misses
    // overlap (reduce.cpp does the same).
    for (int r = 0; r < k.n; ++r) {
      const auto b = static_cast<std::uint64_t>(recv(r).bytes());
      if (r != root && b > layout::kInlineBytes && b <= kStageMax) {
        __builtin_prefetch(stage_in(k, r, b <= small_max()));
      }
    }
    if (!send_in_place) local_copy(k, send, recv(root));
    for (int r = 0; r < k.n && ok; ++r) {
      if (r == root) continue;
      ok = wait_posted(k, r);
      if (!ok || !peer_ok(k, r)) {
        path.timed = false;
        continue;
      }
      const layout::CallDesc& rd = desc(k, r);
      const bool written = (rd.status & layout::kDescWritten) != 0;
      // Timed by the path the block took (a busy ring may have changed it).
      if (path.timed) path.stream = (rd.status & layout::kDescStreamed) != 0;
      if (written && (rd.status & layout::kDescStreamed) != 0) {
        // Split: the head is in our buffer, the rest comes through r's ring.
        ok = drain(k, r, static_cast<std::uint32_t>(rd.value[0]), rd.bytes - rd.bytes2, recv(r), rd.bytes2);
      } else if (!written) {
        ok = receive_from(k, r, recv(r));  // also drains
      }
    }
  }
  ok = finish(k) && ok;
  if (ok) path_done(c->paths, path);
  return result(k, ok, why);
}
}  // namespace

int gather(CommObj* c, const Buf& send, const Buf* recv, int root, bool send_in_place, bool invalid, std::string& why) {
  return gather_with(c, send, [recv](int r) -> const Buf& { return recv[r]; }, root, send_in_place, invalid, why);
}

int gather_uniform(CommObj* c, const Buf& send, std::byte* const* at, const Buf& block, bool send_in_place,
                   std::string& why) {
  const MPI_Count lb = block.type->lb;
  return gather_with(
      c, send, [&](int r) { return Buf{at[r] - lb, block.count, block.type, block.flat}; }, c->rank, send_in_place,
      false, why);
}

int allgather(CommObj* c, const Buf& send, const Buf* recv, bool in_place, bool invalid, std::string& why) {
  Call k = begin(c, layout::CollKind::allgather);
  k.lazy_done = true;
  if (invalid) return sit_out(k) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  if (!reserve(k)) return aborted(why);
  const Buf& mine = in_place ? recv[k.me] : send;
  // A large block is streamed through our ring, read by every other member (as a
  // bcast's), or exposed, read with process_vm_readv. Of two members in a blocking
  // call (from kStageMax bytes: kChoiceStageMax), each picks by its measured calls
  // (path_choice.hpp) and both pump while they read (exchange_whole): a block larger
  // than the ring waits for room only while its writer can still read the other's,
  // so neither waits for the other's wait. Else the fixed path: streamed if it fits
  // the ring, all pumped before we read (nobody waits for room: members that read one
  // writer's stream after another's could otherwise wait in a cycle), else exposed;
  // also when our ring is busy (another nonblocking call streams). In place, our own
  // block is read while others' land around it: not the same bytes, so streaming or
  // exposing recv[me] is safe.
  const auto bytes = static_cast<std::uint64_t>(mine.bytes());
  const bool pair = k.n == 2 && !nonblocking_call();
  const bool fits = stream_chunks(bytes) <= layout::kStreamChunks;
  PathPick path;
  const bool chosen = pair && bytes > kChoiceStageMax;
  if (chosen) path = pick_path(c->paths, PathKind::allgather, bytes);
  const bool stream = (chosen ? path.stream : bytes > kStageMax && k.n > 1 && fits) && can_stream(k);
  if (path.stream && !stream) path.timed = false;  // picked streams, the ring is busy
  if (stream) {
    const std::uint32_t first = stream_whole(k, bytes);
    post(k);
    if (!pair && !pump(k, 1, [&](int) { return StreamPart{&mine, nullptr, bytes, first, -1}; })) {
      return aborted(why);
    }
  } else {
    contribute(k, mine, !chosen);
    post(k);
  }
  // Our own block while the other members arrive; after the exchange if we stream (the
  // other member waits for our stream, not for it).
  const bool copy_late = pair && stream;
  if (!in_place && !copy_late) local_copy(k, send, recv[k.me]);
  bool ok = true;
  if (pair) {
    // Gated, nothing streamed: one sleep until the other member has posted.
    ok = (k.streaming || wait_arrivals(k)) && exchange_whole(k, &mine, recv);
  } else {
    ok = wait_arrivals(k);
    for (int i = 1; i < k.n && ok; ++i) {
      const int r = (k.me + i) % k.n;  // start at different ranks: spreads the reads
      ok = wait_posted(k, r);
      if (ok && peer_ok(k, r)) ok = receive_from(k, r, recv[r]);
    }
  }
  if (!in_place && copy_late && !job_aborted()) local_copy(k, send, recv[k.me]);
  ok = finish(k) && ok;
  if (ok) path_done(c->paths, path);
  return result(k, ok, why);
}

int alltoall(CommObj* c, const Buf* send, const Buf* recv, bool in_place, bool invalid, std::string& why) {
  Call k = begin(c, layout::CollKind::alltoall);
  k.lazy_done = true;
  if (invalid) return sit_out(k) == MPI_SUCCESS ? MPI_SUCCESS : aborted(why);
  if (!reserve(k)) return aborted(why);
  my_desc(k).status = 0;
  // In place, every outgoing piece is overwritten by an incoming one: snapshot them
  // (a streamed piece is copied into the ring before anything arrives). Every member
  // streams and reads: a member that pumps before it reads must fit its streams in the
  // ring (nobody waits for room). A blocking call that is not in place streams every
  // large piece and pumps while it reads (exchange.hpp); every member of a blocking
  // call reads that way, so that no writer waits on a reader that waits for it.
  // Large pieces: streamed or exposed as this member's measured calls say (every member
  // reads all the others and waits for its readers, so its call is the collective's);
  // of more than two members, as rank 0's say (choose_path), which times a call only
  // if every member followed it (untimed_unless_followed).
  const Buf* out = in_place ? recv : send;
  const bool interleaved = !nonblocking_call();
  PathPick path;
  path.kind = PathKind::alltoall;
  contribute_pieces(k, out, k.me, in_place, interleaved && !in_place ? UINT64_MAX : layout::kStreamRing, false,
                    &path, interleaved ? kChoiceStageMax : kStageMax);
  post(k);
  if (interleaved) {
    if (in_place && !pump_pieces(k, out)) return aborted(why);
    // Our own block while the others arrive; after the exchange if we stream (the
    // others wait for our streams, not for it).
    const bool copy_late = k.streaming;
    if (!in_place && !copy_late) local_copy(k, send[k.me], recv[k.me]);
    // Gated, nothing streamed: one sleep until every member has posted, then every
    // piece is read in one pass (every member posted before its exchange: no deadlock).
    if (!k.streaming && !wait_arrivals(k)) return aborted(why);
    const bool ok = exchange(k, in_place ? nullptr : out, recv);
    if (!job_aborted() && !in_place && copy_late) local_copy(k, send[k.me], recv[k.me]);
    untimed_unless_followed(k, path);
    const bool finished = finish(k);
    path_done(c->paths, path);
    return result(k, finished && ok, why);
  }
  if (!pump_pieces(k, out)) return aborted(why);
  bool ok = true;
  for (int i = 1; i < k.n && ok; ++i) {
    const int r = (k.me + i) % k.n;
    ok = wait_posted(k, r);
    if (ok && peer_ok(k, r)) {
      std::uint64_t bytes = 0;
      const Source src = piece_from(k, r, bytes);
      ok = receive(k, r, src, 0, bytes, recv[r]);
    }
  }
  if (!in_place) local_copy(k, send[k.me], recv[k.me]);
  untimed_unless_followed(k, path);
  ok = finish(k) && ok;
  path_done(c->paths, path);
  return result(k, ok, why);
}

}  // namespace shmpi::client::coll
