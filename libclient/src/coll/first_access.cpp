#include "coll/first_access.hpp"

#include <atomic>

#include "coll/comm_block.hpp"

namespace shmpi::client::coll {

void load_pages(const std::byte* p, std::uint64_t len) {
  for (std::uint64_t at = 0; at < len; at += layout::kPage) {
    (void)*reinterpret_cast<const volatile std::byte*>(p + at);
  }
}

void store_pages(std::byte* p, std::uint64_t len) {
  for (std::uint64_t at = 0; at < len; at += layout::kPage) {
    *reinterpret_cast<volatile std::byte*>(p + at) = std::byte{0};
  }
}

void touch_pages_for_write(std::byte* p, std::uint64_t len) {
  for (std::uint64_t at = 0; at < len; at += layout::kPage) {
    // Page aligned, so the word is aligned; the value stays what it was.
    std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(p + at)).fetch_add(0, std::memory_order_relaxed);
  }
}

void warm_staged(Call& k, std::uint64_t span) {
  CommObj* c = k.comm;
  const std::uint64_t upto = (span + layout::kPage - 1) / layout::kPage * layout::kPage;
  if (c->staged_warm >= upto) return;
  const std::uint64_t from = c->staged_warm;
  c->staged_warm = upto;
  for (int s = 0; s < static_cast<int>(layout::kStageDepth); ++s) {
    for (int r = 0; r < k.n; ++r) {
      std::byte* stage = k.b->stage(r, s) + from;
      // Our own slots: written by us, read by others (also now, in earlier calls).
      if (r == k.me) {
        touch_pages_for_write(stage, upto - from);
      } else {
        load_pages(stage, upto - from);
      }
    }
    if (upto > layout::kGateInlineBytes) touch_pages_for_write(k.b->shared_result(s) + from, upto - from);
  }
}

}  // namespace shmpi::client::coll
