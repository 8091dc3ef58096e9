#include "coll/chain.hpp"

#include <algorithm>
#include <cstring>

#include "coll/stream.hpp"
#include "copy_bytes.hpp"
#include "wait.hpp"

namespace shmpi::client::coll {

bool chain_fits(const Geometry& g, MPI_Count count, int n, bool direct) {
  if (!g_wait.oversubscribed || n < 2 || !direct || count <= 0) return false;
  const auto span = static_cast<std::uint64_t>(g.span(count));
  return span >= kChainMin && layout::kStreamChunk % static_cast<std::uint64_t>(g.ext) == 0 &&
         stream_chunks(span) <= layout::kStreamChunks;
}

int chain_allreduce(Call& k, const Reducer& op, const Geometry& g, const std::byte* in_img, std::byte* recv_img,
                    MPI_Count count, std::string& why) {
  const int w = k.n - 1;
  const auto span = static_cast<std::uint64_t>(g.span(count));
  layout::CallDesc& d = my_desc(k);
  if (k.me == w) {
    if (!can_stream(k)) return kNotChained;  // a nonblocking call of ours streams
    const std::uint32_t first = stream_whole(k, span);
    d.status |= layout::kDescChain;
    post(k);
    // The accumulator starts as our input (in place too: it is read here, before the
    // result lands on it).
    if (!pump(k, 1, [&](int) { return StreamPart{nullptr, in_img, span, first, -1}; })) return aborted(why);
  } else {
    if (!wait_posted(k, w)) return aborted(why);
    if ((desc(k, w).status & layout::kDescChain) == 0) return kNotChained;
    d.status = 0;
    d.bytes = span;
    d.addr = d.addr2 = 0;
    post(k);
  }
  const auto first = static_cast<std::uint32_t>(desc(k, w).value[0]);
  const std::uint32_t chunks = stream_chunks(span);
  const MPI_Count per = static_cast<MPI_Count>(layout::kStreamChunk) / g.ext;  // elements per chunk
  bool ok = true;
  const bool agree = sizes_agree(k, 0, k.n - 1, span, ok);
  if (ok && agree && k.me < w) {
    // acc = x(me) o acc, chunk by chunk, after member me+1.
    layout::Flag& before = k.me + 1 == w ? k.b->rank(w).streamed : k.b->ack(k.me + 1, w);
    layout::Flag& mine = k.b->ack(k.me, w);
    for (std::uint32_t j = 0; j < chunks && ok; ++j) {
      ok = wait_on(k, k.me + 1, before, first + j + 1);
      if (!ok) break;
      const MPI_Count e = static_cast<MPI_Count>(j) * per;
      std::byte* acc = stream_chunk(k, w, first + j);
      op.apply(in_img + g.at(e) - g.tlb, acc - g.tlb, std::min(per, count - e));
      signal_flag(mine, first + j + 1);
    }
  }
  if (ok && agree) {
    // Member 0 folds last: a chunk it is done with is the result.
    layout::Flag& final = k.b->ack(0, w);
    for (std::uint32_t j = 0; j < chunks && ok; ++j) {
      if (k.me != 0) ok = wait_on(k, 0, final, first + j + 1);
      if (!ok) break;
      const std::uint64_t off = std::uint64_t{j} * layout::kStreamChunk;
      copy_bytes(recv_img + off, stream_chunk(k, w, first + j),
                 static_cast<std::size_t>(std::min<std::uint64_t>(layout::kStreamChunk, span - off)));
    }
  }
  if (!finish(k)) return aborted(why);
  return result(k, ok, why);
}

}  // namespace shmpi::client::coll
