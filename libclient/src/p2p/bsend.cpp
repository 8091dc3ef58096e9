#include "p2p/bsend.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "p2p/engine.hpp"
#include "types/pack.hpp"

namespace shmpi::client::p2p {
namespace {

struct Region {
  std::uint64_t off;
  std::uint64_t len;
  P2pRequest* req;  // the internal send of the copy
};

bool g_attached = false;
std::byte* g_buf = nullptr;
std::uint64_t g_size = 0;
std::vector<Region> g_used;  // sorted by offset

// Frees the parts whose sends have completed.
void reclaim() {
  if (g_used.empty()) return;
  progress();
  std::erase_if(g_used, [](const Region& r) {
    if (r.req->state != P2pRequest::State::done) return false;
    delete r.req;
    return true;
  });
}

// First free part of `len` bytes, or -1.
std::int64_t first_fit(std::uint64_t len) {
  std::uint64_t at = 0;
  for (const Region& r : g_used) {
    if (r.off - at >= len) return static_cast<std::int64_t>(at);
    at = r.off + r.len;
  }
  return g_size - at >= len ? static_cast<std::int64_t>(at) : -1;
}

}  // namespace

int buffer_attach(void* buf, MPI_Count size, std::string& why) {
  if (g_attached) {
    why = "a buffer is already attached (MPI_Buffer_detach it first)";
    return MPI_ERR_BUFFER;
  }
  if (size < 0) {
    why = "size " + std::to_string(size) + " is negative";
    return MPI_ERR_COUNT;
  }
  if (buf == nullptr && size > 0) {
    why = "buffer is NULL";
    return MPI_ERR_BUFFER;
  }
  g_attached = true;
  g_buf = static_cast<std::byte*>(buf);
  g_size = static_cast<std::uint64_t>(size);
  return MPI_SUCCESS;
}

int buffer_detach(void** addr, MPI_Count* size, std::string& why) {
  if (!g_attached) {
    why = "no buffer is attached";
    return MPI_ERR_BUFFER;
  }
  // MPI-4.1 3.6.1: detach blocks until every message in the buffer has been sent.
  set_wait_target(MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
  const bool ok = wait_until(
      [] {
        reclaim();
        return g_used.empty();
      },
      layout::P2pWait::send);
  if (!ok) {
    why = "the job aborted while buffered messages were still being sent";
    return MPI_ERR_PROC_ABORTED;
  }
  *addr = g_buf;
  *size = static_cast<MPI_Count>(g_size);
  g_attached = false;
  g_buf = nullptr;
  g_size = 0;
  return MPI_SUCCESS;
}

int bsend(CommObj* c, const void* buf, MPI_Count count, types::Datatype* t, const types::Flat* f, int dest, int tag,
          std::string& why) {
  const auto bytes = static_cast<std::uint64_t>(count * t->size);
  const std::uint64_t need = bytes + MPI_BSEND_OVERHEAD;
  if (!g_attached) {
    why = "no buffer is attached (MPI_Buffer_attach) for a " + std::to_string(bytes) + "-byte buffered send";
    return MPI_ERR_BUFFER;
  }
  reclaim();
  const std::int64_t off = first_fit(need);
  if (off < 0) {
    std::uint64_t used = 0;
    for (const Region& r : g_used) used += r.len;
    why = "the attached buffer (" + std::to_string(g_size) + " bytes, " + std::to_string(used) + " in use by " +
          std::to_string(g_used.size()) + " pending buffered sends) has no room for " + std::to_string(bytes) +
          " bytes + MPI_BSEND_OVERHEAD";
    return MPI_ERR_BUFFER;
  }
  std::byte* copy = g_buf + off + MPI_BSEND_OVERHEAD;
  if (bytes > 0) types::pack(*t, *f, buf, count, copy);
  types::Datatype* byte_type = types::lookup(MPI_BYTE);
  auto* r = new P2pRequest;
  r->internal = true;
  setup(*r, P2pRequest::Op::send, Mode::standard, c, copy, static_cast<MPI_Count>(bytes), byte_type,
        types::flatten(byte_type), dest, tag);
  const int rc = start(*r, why);
  if (rc != MPI_SUCCESS) {
    delete r;
    return rc;
  }
  const Region reg{static_cast<std::uint64_t>(off), need, r};
  g_used.insert(std::upper_bound(g_used.begin(), g_used.end(), reg,
                                 [](const Region& a, const Region& b) { return a.off < b.off; }),
                reg);
  return MPI_SUCCESS;
}

}  // namespace shmpi::client::p2p
