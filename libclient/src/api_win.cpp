// Window creation, queries and management (MPI-4.1 13.2, 13.6, 9.3.2 for error
// handlers, 9.2 for MPI_Alloc_mem). The collective machinery is in
// rma/window_create.cpp; the layout in shm_layout/window.hpp.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "api.hpp"
#include "attr/attr.hpp"
#include "group/group.hpp"
#include "info/info.hpp"
#include "rma/shared_ranges.hpp"
#include "rma/window_create.hpp"

using namespace shmpi::client;
namespace layout = shmpi::layout;

namespace shmpi::client {

int raise_win(WinObj* w, int cls, const std::string& message) {
  const int code = make_error_code(cls, message);
  ErrhandlerObj* eh = w->errhandler;
  if (eh->kind == ErrhandlerObj::Kind::ret) return code;
  if (eh->kind == ErrhandlerObj::Kind::user) {
    MPI_Win h = w->handle;
    int e = code;
    reinterpret_cast<MPI_Win_errhandler_function*>(eh->fn)(&h, &e);
    return code;
  }
  fatal_error(code);
}

}  // namespace shmpi::client

namespace {

std::string str(long long v) { return std::to_string(v); }

// Attribute values handed out by MPI_Win_get_attr live with the window.
struct WinAttrs {
  MPI_Aint size;
  int disp_unit;
  int flavor;
  int model;
};
std::mutex g_attr_mutex;
std::map<const WinObj*, WinAttrs> g_attrs;

WinObj* win_arg(MPI_Win win, const char* call, int& rc) {
  if (!initialized()) {
    rc = not_initialized(call);
    return nullptr;
  }
  WinObj* w = to_win(win);
  if (w == nullptr) {
    rc = raise(nullptr, MPI_ERR_WIN, std::string(call) + ": win is " + (win == MPI_WIN_NULL ? "MPI_WIN_NULL" : "not a valid window"));
  }
  return w;
}

int create(const char* call, layout::WinFlavor flavor, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
           void* base, void* baseptr, MPI_Win* win) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, call, rc);
  if (c == nullptr) return rc;
  if (win == nullptr) return raise(c, MPI_ERR_ARG, std::string(call) + ": win is NULL");
  *win = MPI_WIN_NULL;
  CreateArgs a{call, c, flavor, 0, 1, info, base, baseptr, 0, {}};
  // Local argument errors still enter the collective (see CreateArgs::local_error).
  if (size < 0) {
    a.local_error = MPI_ERR_SIZE;
    a.local_message = std::string(call) + ": size " + str(size) + " is negative";
  } else if (disp_unit <= 0) {
    a.local_error = MPI_ERR_DISP;
    a.local_message = std::string(call) + ": disp_unit " + str(disp_unit) + " must be positive";
  } else if (info != MPI_INFO_NULL && to_info(info) == nullptr) {
    a.local_error = MPI_ERR_INFO;
    a.local_message = std::string(call) + ": info is not a valid info object";
  } else if (flavor == layout::WinFlavor::create && size > 0 && base == nullptr) {
    a.local_error = MPI_ERR_BASE;
    a.local_message = std::string(call) + ": base is NULL with size " + str(size);
  } else if ((flavor == layout::WinFlavor::allocate || flavor == layout::WinFlavor::shared) && baseptr == nullptr) {
    a.local_error = MPI_ERR_ARG;
    a.local_message = std::string(call) + ": baseptr is NULL";
  } else {
    a.size = static_cast<std::uint64_t>(size);
    a.disp_unit = disp_unit;
  }
  rc = create_window(a, win);
  if (rc == MPI_SUCCESS) {
    WinObj* w = to_win(*win);
    std::lock_guard<std::mutex> lock(g_attr_mutex);
    g_attrs[w] = WinAttrs{static_cast<MPI_Aint>(w->my_size), static_cast<int>(w->my_disp_unit),
                          flavor == layout::WinFlavor::create     ? MPI_WIN_FLAVOR_CREATE
                          : flavor == layout::WinFlavor::allocate ? MPI_WIN_FLAVOR_ALLOCATE
                          : flavor == layout::WinFlavor::dynamic  ? MPI_WIN_FLAVOR_DYNAMIC
                                                                  : MPI_WIN_FLAVOR_SHARED,
                          MPI_WIN_UNIFIED};
  }
  return rc;
}

int shared_query(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit_c, int* disp_unit, void* baseptr, const char* call) {
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (size == nullptr || (disp_unit == nullptr && disp_unit_c == nullptr) || baseptr == nullptr) {
    return raise_win(w, MPI_ERR_ARG, std::string(call) + ": size, disp_unit and baseptr must not be NULL");
  }
  if (w->flavor == layout::WinFlavor::dynamic) {
    return raise_win(w, MPI_ERR_RMA_FLAVOR, std::string(call) + ": not defined on windows from MPI_Win_create_dynamic (MPI-4.1 13.2.3)");
  }
  // MPI-4.1 13.2.3: the other flavours. Memory a peer can load and store directly is reported
  // (allocate flavours always; MPI_Win_create memory when shared in place); otherwise
  // size 0 and a NULL base.
  int r = rank;
  if (rank == MPI_PROC_NULL) {
    // The lowest rank with a non-zero size (MPI-4.1 13.2.3).
    r = -1;
    for (int i = 0; i < w->size; ++i) {
      if (w->targets[static_cast<std::size_t>(i)].size > 0) {
        r = i;
        break;
      }
    }
    if (r < 0) {
      *size = 0;
      if (disp_unit) *disp_unit = 0;
      if (disp_unit_c) *disp_unit_c = 0;
      *static_cast<void**>(baseptr) = nullptr;
      return MPI_SUCCESS;
    }
  } else if (rank < 0 || rank >= w->size) {
    return raise_win(w, MPI_ERR_RANK, std::string(call) + ": rank " + str(rank) + " is not in the window's group (size " + str(w->size) + ")");
  }
  const WinTarget& t = w->targets[static_cast<std::size_t>(r)];
  if (!t.shared || t.local == nullptr) {
    *size = 0;
    if (disp_unit) *disp_unit = static_cast<int>(t.disp_unit);
    if (disp_unit_c) *disp_unit_c = static_cast<MPI_Aint>(t.disp_unit);
    *static_cast<void**>(baseptr) = nullptr;
    return MPI_SUCCESS;
  }
  *size = static_cast<MPI_Aint>(t.size);
  if (disp_unit) *disp_unit = static_cast<int>(t.disp_unit);
  if (disp_unit_c) *disp_unit_c = static_cast<MPI_Aint>(t.disp_unit);
  *static_cast<void**>(baseptr) = t.size > 0 || w->flavor == layout::WinFlavor::shared ? static_cast<void*>(t.local) : nullptr;
  return MPI_SUCCESS;
}


}  // namespace

extern "C" {

int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return create("MPI_Win_create", layout::WinFlavor::create, size, disp_unit, info, comm, base, nullptr, win);
}
int PMPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return create("MPI_Win_create_c", layout::WinFlavor::create, size, disp_unit, info, comm, base, nullptr, win);
}
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate", layout::WinFlavor::allocate, size, disp_unit, info, comm, nullptr, baseptr, win);
}
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate_c", layout::WinFlavor::allocate, size, disp_unit, info, comm, nullptr, baseptr, win);
}
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate_shared", layout::WinFlavor::shared, size, disp_unit, info, comm, nullptr, baseptr, win);
}
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return create("MPI_Win_allocate_shared_c", layout::WinFlavor::shared, size, disp_unit, info, comm, nullptr, baseptr, win);
}
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return create("MPI_Win_create_dynamic", layout::WinFlavor::dynamic, 0, 1, info, comm, nullptr, nullptr, win);
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  return shared_query(win, rank, size, nullptr, disp_unit, baseptr, "MPI_Win_shared_query");
}
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit, void* baseptr) {
  return shared_query(win, rank, size, disp_unit, nullptr, baseptr, "MPI_Win_shared_query_c");
}

int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  constexpr const char* call = "MPI_Win_attach";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (w->flavor != layout::WinFlavor::dynamic) {
    return raise_win(w, MPI_ERR_RMA_FLAVOR, std::string(call) + ": the window was not created with MPI_Win_create_dynamic");
  }
  if (size < 0) return raise_win(w, MPI_ERR_SIZE, std::string(call) + ": size " + str(size) + " is negative");
  if (size == 0) return MPI_SUCCESS;
  if (base == nullptr) return raise_win(w, MPI_ERR_RMA_ATTACH, std::string(call) + ": base is NULL");
  layout::AttachTable& a = w->attach_table(w->rank);
  const auto lo = reinterpret_cast<std::uint64_t>(base);
  const std::uint64_t hi = lo + static_cast<std::uint64_t>(size);
  int free_slot = -1;
  for (int i = 0; i < static_cast<int>(layout::kMaxAttach); ++i) {
    const layout::AttachedRegion& r = a.regions[i];
    if (r.base == 0) {
      if (free_slot < 0) free_slot = i;
      continue;
    }
    if (lo < r.base + r.size && r.base < hi) {
      return raise_win(w, MPI_ERR_RMA_ATTACH, std::string(call) + ": the region overlaps a region already attached (MPI-4.1 13.2.4)");
    }
  }
  if (free_slot < 0) {
    return raise_win(w, MPI_ERR_RMA_ATTACH, std::string(call) + ": already " + str(layout::kMaxAttach) + " regions attached to this window");
  }
  a.regions[free_slot].size = static_cast<std::uint64_t>(size);
  std::atomic_ref<std::uint64_t>(a.regions[free_slot].base).store(lo, std::memory_order_release);
  a.generation.fetch_add(1, std::memory_order_release);
  return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void* base) {
  constexpr const char* call = "MPI_Win_detach";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (w->flavor != layout::WinFlavor::dynamic) {
    return raise_win(w, MPI_ERR_RMA_FLAVOR, std::string(call) + ": the window was not created with MPI_Win_create_dynamic");
  }
  layout::AttachTable& a = w->attach_table(w->rank);
  const auto lo = reinterpret_cast<std::uint64_t>(base);
  for (auto& r : a.regions) {
    if (r.base != 0 && r.base == lo) {
      std::atomic_ref<std::uint64_t>(r.base).store(0, std::memory_order_release);
      r.size = 0;
      a.generation.fetch_add(1, std::memory_order_release);
      return MPI_SUCCESS;
    }
  }
  return raise_win(w, MPI_ERR_RMA_ATTACH, std::string(call) + ": base was not attached to this window");
}

int PMPI_Win_free(MPI_Win* win) {
  constexpr const char* call = "MPI_Win_free";
  if (win == nullptr) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": win is NULL");
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(*win, call, rc);
  if (w == nullptr) return rc;
  // A free that fails leaves the window as it was: refuse an open epoch before touching
  // the attributes (free_window checks it again for its other callers).
  if (w->lock_all != 0 || w->locks_held != 0 || w->start_group != nullptr || w->post_group != nullptr) {
    return raise_win(w, MPI_ERR_RMA_SYNC, std::string(call) + ": the window still has an open epoch (unlock, complete or wait first)");
  }
  // User attributes go first (delete callbacks, MPI-4.1 7.7.3); a failing callback fails
  // the free and the window stays.
  if (const int arc = attr::delete_win_attrs(w); arc != MPI_SUCCESS) {
    return raise_win(w, error_class_of(arc), error_text(arc));
  }
  {
    std::lock_guard<std::mutex> lock(g_attr_mutex);
    g_attrs.erase(w);
  }
  rc = free_window(w, call);
  if (rc == MPI_SUCCESS) *win = MPI_WIN_NULL;
  return rc;
}

int PMPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag) {
  constexpr const char* call = "MPI_Win_get_attr";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (attribute_val == nullptr || flag == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": attribute_val and flag must not be NULL");
  if (keyval != MPI_WIN_BASE && keyval != MPI_WIN_SIZE && keyval != MPI_WIN_DISP_UNIT && keyval != MPI_WIN_CREATE_FLAVOR &&
      keyval != MPI_WIN_MODEL) {
    // User keyvals (and errors: MPI_KEYVAL_INVALID, freed, another kind's keyval).
    rc = attr::get_attr(attr::win_object(w), keyval, attribute_val, flag, call);
    return rc == MPI_SUCCESS ? rc : raise_win(w, error_class_of(rc), error_text(rc));
  }
  std::lock_guard<std::mutex> lock(g_attr_mutex);
  WinAttrs& a = g_attrs[w];
  void* v = nullptr;
  switch (keyval) {
    case MPI_WIN_BASE: v = w->base; break;
    case MPI_WIN_SIZE: v = &a.size; break;
    case MPI_WIN_DISP_UNIT: v = &a.disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: v = &a.flavor; break;
    case MPI_WIN_MODEL: v = &a.model; break;
    default:
      return raise_win(w, MPI_ERR_KEYVAL, std::string(call) + ": keyval " + str(keyval) + " is not a window attribute key");
  }
  *static_cast<void**>(attribute_val) = v;
  *flag = 1;
  return MPI_SUCCESS;
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  constexpr const char* call = "MPI_Win_get_group";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (group == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": group is NULL");
  std::vector<int> ranks;
  for (const WinTarget& t : w->targets) ranks.push_back(t.world_rank);
  *group = new_group_handle(std::move(ranks));
  return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  constexpr const char* call = "MPI_Win_set_info";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (info != MPI_INFO_NULL && to_info(info) == nullptr) return raise_win(w, MPI_ERR_INFO, std::string(call) + ": info is not a valid info object");
  // The hints fixed at creation (ordering, ops, granularity, locks) shape the shared
  // protocol every rank follows; changing them later is allowed to be ignored
  // (MPI-4.1 13.2.7), and is, so MPI_Win_get_info keeps reporting what is in effect.
  return MPI_SUCCESS;
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  constexpr const char* call = "MPI_Win_get_info";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (info_used == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": info_used is NULL");
  InfoObj i;
  i.entries.emplace_back("accumulate_ordering", (w->info_flags & layout::kInfoOrderingNone) ? "none" : "rar,raw,war,waw");
  i.entries.emplace_back("accumulate_ops", (w->info_flags & layout::kInfoOpsSameOp) ? "same_op" : "same_op_no_op");
  i.entries.emplace_back("no_locks", (w->info_flags & layout::kInfoNoLocks) ? "true" : "false");
  i.entries.emplace_back("mpi_accumulate_granularity", std::to_string(w->granularity));
  if (w->flavor == layout::WinFlavor::shared) {
    i.entries.emplace_back("alloc_shared_noncontig", (w->info_flags & layout::kInfoNoncontig) ? "true" : "false");
  }
  *info_used = new_info_handle(std::move(i));
  return MPI_SUCCESS;
}

int PMPI_Win_set_name(MPI_Win win, const char* name) {
  constexpr const char* call = "MPI_Win_set_name";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (name == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": win_name is NULL");
  w->name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char* name, int* resultlen) {
  constexpr const char* call = "MPI_Win_get_name";
  if (win == MPI_WIN_NULL && name != nullptr && resultlen != nullptr && initialized()) {
    // MPI-4.1 7.8: the null handle's name is "MPI_WIN_NULL".
    std::memcpy(name, "MPI_WIN_NULL", 13);
    *resultlen = 12;
    return MPI_SUCCESS;
  }
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (name == nullptr || resultlen == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": win_name and resultlen must not be NULL");
  std::memcpy(name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* fn, MPI_Errhandler* errhandler) {
  if (fn == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Win_create_errhandler: win_errhandler_fn is NULL");
  if (errhandler == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Win_create_errhandler: errhandler is NULL");
  ErrhandlerObj* e = new_user_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(fn));
  e->for_win = true;
  *errhandler = to_handle(e);
  return MPI_SUCCESS;
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  constexpr const char* call = "MPI_Win_set_errhandler";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  ErrhandlerObj* e = to_errhandler(errhandler);
  if (e == nullptr || (e->kind == ErrhandlerObj::Kind::user && !e->for_win)) {
    return raise_win(w, MPI_ERR_ARG, std::string(call) + ": errhandler is " +
                                         (errhandler == MPI_ERRHANDLER_NULL ? "MPI_ERRHANDLER_NULL" : e == nullptr ? "not a valid errhandler" : "not a window errhandler"));
  }
  retain(e);
  release(w->errhandler);
  w->errhandler = e;
  return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  constexpr const char* call = "MPI_Win_get_errhandler";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  if (errhandler == nullptr) return raise_win(w, MPI_ERR_ARG, std::string(call) + ": errhandler is NULL");
  retain(w->errhandler);
  *errhandler = to_handle(w->errhandler);
  return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  constexpr const char* call = "MPI_Win_call_errhandler";
  int rc = MPI_SUCCESS;
  WinObj* w = win_arg(win, call, rc);
  if (w == nullptr) return rc;
  ErrhandlerObj* eh = w->errhandler;
  if (eh->kind == ErrhandlerObj::Kind::user) {
    MPI_Win h = w->handle;
    int e = errorcode;
    reinterpret_cast<MPI_Win_errhandler_function*>(eh->fn)(&h, &e);
    return MPI_SUCCESS;
  }
  if (eh->kind == ErrhandlerObj::Kind::ret) return MPI_SUCCESS;
  fatal_error(errorcode);
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  constexpr const char* call = "MPI_Alloc_mem";
  if (baseptr == nullptr) return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": baseptr is NULL");
  if (size < 0) return raise(nullptr, MPI_ERR_SIZE, std::string(call) + ": size " + str(size) + " is negative");
  if (info != MPI_INFO_NULL && to_info(info) == nullptr) return raise(nullptr, MPI_ERR_INFO, std::string(call) + ": info is not a valid info object");
  // Shared memory (a memfd mapping), so a window created on it can be shared with peers.
  const std::size_t len = size == 0 ? layout::kPage : layout::round_up(static_cast<std::uint64_t>(size), layout::kPage);
  const int fd = memfd_create("shmpi-mem", MFD_CLOEXEC);
  void* p = MAP_FAILED;
  if (fd >= 0 && ftruncate(fd, static_cast<off_t>(len)) == 0) {
    p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  }
  if (p == MAP_FAILED) {
    if (fd >= 0) close(fd);
    return raise(nullptr, MPI_ERR_NO_MEM, std::string(call) + ": cannot allocate " + str(size) + " bytes");
  }
  add_alloc_mem(p, len, fd);
  *static_cast<void**>(baseptr) = p;
  return MPI_SUCCESS;
}

int PMPI_Free_mem(void* base) {
  constexpr const char* call = "MPI_Free_mem";
  if (base == nullptr) return MPI_SUCCESS;
  std::size_t len = 0;
  if (!remove_alloc_mem(base, len)) return raise(nullptr, MPI_ERR_BASE, std::string(call) + ": base was not returned by MPI_Alloc_mem");
  munmap(base, len);
  return MPI_SUCCESS;
}

}  // extern "C"

SHMPI_PMPI_ALIAS(int, MPI_Win_create, (void*, MPI_Aint, int, MPI_Info, MPI_Comm, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_create_c, (void*, MPI_Aint, MPI_Aint, MPI_Info, MPI_Comm, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_allocate, (MPI_Aint, int, MPI_Info, MPI_Comm, void*, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_allocate_c, (MPI_Aint, MPI_Aint, MPI_Info, MPI_Comm, void*, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_allocate_shared, (MPI_Aint, int, MPI_Info, MPI_Comm, void*, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_allocate_shared_c, (MPI_Aint, MPI_Aint, MPI_Info, MPI_Comm, void*, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_create_dynamic, (MPI_Info, MPI_Comm, MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_shared_query, (MPI_Win, int, MPI_Aint*, int*, void*))
SHMPI_PMPI_ALIAS(int, MPI_Win_shared_query_c, (MPI_Win, int, MPI_Aint*, MPI_Aint*, void*))
SHMPI_PMPI_ALIAS(int, MPI_Win_attach, (MPI_Win, void*, MPI_Aint))
SHMPI_PMPI_ALIAS(int, MPI_Win_detach, (MPI_Win, const void*))
SHMPI_PMPI_ALIAS(int, MPI_Win_free, (MPI_Win*))
SHMPI_PMPI_ALIAS(int, MPI_Win_get_attr, (MPI_Win, int, void*, int*))
SHMPI_PMPI_ALIAS(int, MPI_Win_get_group, (MPI_Win, MPI_Group*))
SHMPI_PMPI_ALIAS(int, MPI_Win_set_info, (MPI_Win, MPI_Info))
SHMPI_PMPI_ALIAS(int, MPI_Win_get_info, (MPI_Win, MPI_Info*))
SHMPI_PMPI_ALIAS(int, MPI_Win_set_name, (MPI_Win, const char*))
SHMPI_PMPI_ALIAS(int, MPI_Win_get_name, (MPI_Win, char*, int*))
SHMPI_PMPI_ALIAS(int, MPI_Win_create_errhandler, (MPI_Win_errhandler_function*, MPI_Errhandler*))
SHMPI_PMPI_ALIAS(int, MPI_Win_set_errhandler, (MPI_Win, MPI_Errhandler))
SHMPI_PMPI_ALIAS(int, MPI_Win_get_errhandler, (MPI_Win, MPI_Errhandler*))
SHMPI_PMPI_ALIAS(int, MPI_Win_call_errhandler, (MPI_Win, int))
SHMPI_PMPI_ALIAS(int, MPI_Alloc_mem, (MPI_Aint, MPI_Info, void*))
SHMPI_PMPI_ALIAS(int, MPI_Free_mem, (void*))
