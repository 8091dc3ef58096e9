#include "objects.hpp"

#include "comm/comm.hpp"

#include <mutex>
#include <unordered_set>

namespace shmpi::client {

ErrhandlerObj g_errors_are_fatal{ErrhandlerObj::Kind::fatal};
ErrhandlerObj g_errors_abort{ErrhandlerObj::Kind::abort};
ErrhandlerObj g_errors_return{ErrhandlerObj::Kind::ret};
namespace {
CommObj predefined_comm(MPI_Comm h, const char* name) {
  CommObj c;
  c.handle = h;
  c.errhandler = &g_errors_are_fatal;
  c.name = name;
  c.predefined = true;
  return c;
}
}  // namespace
CommObj g_world = predefined_comm(MPI_COMM_WORLD, "MPI_COMM_WORLD");
CommObj g_self = predefined_comm(MPI_COMM_SELF, "MPI_COMM_SELF");

namespace {
// Live user errhandlers. Not a hot path: errhandlers are created and set rarely.
std::mutex g_registry_mutex;
std::unordered_set<ErrhandlerObj*> g_user_errhandlers;

bool predefined(ErrhandlerObj* e) {
  return e == &g_errors_are_fatal || e == &g_errors_abort || e == &g_errors_return;
}
}  // namespace

CommObj* to_comm(MPI_Comm c) {
  if (c == MPI_COMM_WORLD) return &g_world;
  if (c == MPI_COMM_SELF) return &g_self;
  if (c == MPI_COMM_NULL) return nullptr;
  return comm::lookup(c);
}

ErrhandlerObj* to_errhandler(MPI_Errhandler e) {
  if (e == MPI_ERRORS_ARE_FATAL) return &g_errors_are_fatal;
  if (e == MPI_ERRORS_ABORT) return &g_errors_abort;
  if (e == MPI_ERRORS_RETURN) return &g_errors_return;
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto* p = reinterpret_cast<ErrhandlerObj*>(e);
  return g_user_errhandlers.count(p) ? p : nullptr;
}

MPI_Errhandler to_handle(ErrhandlerObj* e) {
  if (e == &g_errors_are_fatal) return MPI_ERRORS_ARE_FATAL;
  if (e == &g_errors_abort) return MPI_ERRORS_ABORT;
  if (e == &g_errors_return) return MPI_ERRORS_RETURN;
  return reinterpret_cast<MPI_Errhandler>(e);
}

ErrhandlerObj* new_user_errhandler(MPI_Comm_errhandler_function* fn) {
  auto* e = new ErrhandlerObj{ErrhandlerObj::Kind::user, fn};
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  g_user_errhandlers.insert(e);
  return e;
}

void retain(ErrhandlerObj* e) {
  if (!predefined(e)) e->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(ErrhandlerObj* e) {
  if (predefined(e)) return;
  if (e->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    g_user_errhandlers.erase(e);
    delete e;
  }
}

}  // namespace shmpi::client
