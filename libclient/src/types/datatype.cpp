// Datatype handles: predefined objects, the registry of live derived types, reference
// counts.
#include "types/datatype.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_set>

#include "types/basic_types.hpp"

namespace shmpi::client::types {
namespace {

std::recursive_mutex g_mutex;  // recursive: destroying a type releases its children
std::unordered_set<Datatype*> g_handles;  // derived types with handle_refs > 0
std::size_t g_live = 0;  // derived types not yet destroyed
std::atomic<std::uint64_t> g_releases{0};  // handles released so far (lookup's per-thread answer)

using PredefinedTable = decltype(g_predefined);

Flat* basic_flat(const BasicInfo& b) {
  auto* f = new Flat;
  if (b.first == 0) {
    f->blocks.push_back({0, b.size});
    f->elems.push_back({0, 1, b.handle, b.size});
  } else {
    const BasicInfo* x = basic_info(std::uintptr_t{b.first});
    const BasicInfo* y = basic_info(std::uintptr_t{b.second});
    f->blocks.push_back({0, x->size});
    if (b.second_offset == x->size) {
      f->blocks[0].length += y->size;
    } else {
      f->blocks.push_back({b.second_offset, y->size});
    }
    if (x->handle == y->handle && b.second_offset == x->size) {
      f->elems.push_back({0, 2, x->handle, x->size});
    } else {
      f->elems.push_back({0, 1, x->handle, x->size});
      f->elems.push_back({b.second_offset, 1, y->handle, y->size});
    }
  }
  f->uniform_length = f->blocks.size() == 1 || f->blocks[0].length == f->blocks[1].length ? f->blocks[0].length : 0;
  return f;
}

PredefinedTable make_predefined() {
  PredefinedTable t{};
  for (std::uintptr_t v = kFirstPredefinedType; v <= kLastPredefinedType; ++v) {
    const BasicInfo* b = basic_info(v);
    if (b == nullptr) continue;
    // Never destroyed: predefined types live as long as the process.
    auto* d = new Datatype;
    d->handle = reinterpret_cast<MPI_Datatype>(v);
    d->predefined = true;
    d->committed = true;
    d->size = b->size;
    d->lb = 0;
    d->ub = b->extent;
    d->true_lb = 0;
    d->true_ub = b->first == 0 ? b->size : b->second_offset + basic_info(std::uintptr_t{b->second})->size;
    d->align = b->align;
    d->elements = b->first == 0 ? 1 : 2;
    d->basic = v;
    d->name = b->name;
    d->set_flat(std::unique_ptr<Flat>(basic_flat(*b)));
    t[v - kFirstPredefinedType] = d;
  }
  return t;
}

void destroy(Datatype* t) {
  --g_live;
  for (Datatype* c : t->children) release_internal(c);
  for (Datatype* c : t->layout.types) release_internal(c);
  delete t;
}

}  // namespace

PredefinedTable g_predefined = make_predefined();

Datatype* lookup_other(MPI_Datatype h) {
  // MPI_DATATYPE_NULL, or an unassigned value of the reserved range.
  if (h == MPI_DATATYPE_NULL || is_predefined_value(h)) return nullptr;
  // A collective in a loop looks the same derived handle up every call: a thread's last
  // answer stands until some handle is released (g_releases moves under the mutex
  // first), without the registry's mutex. Using the type after the lookup is as safe
  // as before: a concurrent MPI_Type_free could always come right after the lookup.
  thread_local MPI_Datatype t_last_handle = MPI_DATATYPE_NULL;
  thread_local Datatype* t_last = nullptr;
  thread_local std::uint64_t t_last_releases = 0;
  if (h == t_last_handle && g_releases.load(std::memory_order_acquire) == t_last_releases) return t_last;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  auto* p = reinterpret_cast<Datatype*>(h);
  if (g_handles.count(p) == 0) return nullptr;
  t_last_handle = h;
  t_last = p;
  t_last_releases = g_releases.load(std::memory_order_relaxed);
  return p;
}

Datatype* lookup_committed(MPI_Datatype h) {
  Datatype* t = lookup(h);
  return t != nullptr && t->committed ? t : nullptr;
}

MPI_Datatype publish(std::unique_ptr<Datatype> t) {
  Datatype* p = t.release();
  p->handle = reinterpret_cast<MPI_Datatype>(p);
  p->handle_refs = 1;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  ++g_live;
  g_handles.insert(p);
  return p->handle;
}

MPI_Datatype add_handle(Datatype* t) {
  if (t->predefined) return t->handle;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  if (t->handle_refs++ == 0) g_handles.insert(t);
  return t->handle;
}

bool release_handle(Datatype* t) {
  if (t->predefined) return false;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  if (--t->handle_refs == 0) {
    g_releases.fetch_add(1, std::memory_order_release);
    g_handles.erase(t);
    if (t->internal_refs == 0) destroy(t);
  }
  return true;
}

void retain_internal(Datatype* t) {
  if (t->predefined) return;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  ++t->internal_refs;
}

void release_internal(Datatype* t) {
  if (t->predefined) return;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  if (--t->internal_refs == 0 && t->handle_refs == 0) destroy(t);
}

std::size_t live_derived_types() {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  return g_live;
}

Datatype* adopt_internal(std::unique_ptr<Datatype> t) {
  Datatype* p = t.release();
  p->handle = MPI_DATATYPE_NULL;
  p->handle_refs = 0;
  p->internal_refs = 0;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  ++g_live;
  return p;
}

}  // namespace shmpi::client::types
