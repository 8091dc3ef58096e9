#include "attr/attr.hpp"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "errors.hpp"
#include "rma/window.hpp"
#include "types/datatype.hpp"

namespace shmpi::client::attr {

struct Keyval {
  int id;
  Kind kind;
  AnyFn copy;
  AnyFn del;
  void* extra;
  bool predefined;
  // The user's handle (dropped by MPI_Xxx_free_keyval, never for a predefined keyval)
  // plus one per attached attribute and per callback in progress. Deleted at zero.
  int refs = 1;
};

struct Attr {
  Keyval* kv;
  void* value;
  bool deleting = false;  // its delete callback is running
};

struct AttrList {
  std::vector<Attr> items;  // in the order they were set
  // Communicators: the predefined attributes are cached here too (a duplicate of
  // MPI_COMM_WORLD). MPI_COMM_WORLD itself always has them.
  bool env = false;
};

namespace {

// Guards the keyval registry, the reference counts, the side tables and every AttrList.
// Never held while a callback runs.
std::mutex g_mutex;
// User keyvals whose handle is not freed. At exit, those no attribute uses are deleted
// (a program need not free its keyvals; MPI_Finalize does not end their life).
struct KeyvalTable : std::unordered_map<int, Keyval*> {
  ~KeyvalTable() {
    for (auto& [id, kv] : *this) {
      if (kv->refs == 1) delete kv;
    }
  }
};
KeyvalTable g_keyvals;
int g_next_id = kFirstUserKeyval;
int g_live_user = 0;  // user Keyval objects alive
std::unordered_map<const void*, AttrList*> g_type_lists;
std::unordered_map<const void*, AttrList*> g_win_lists;

constexpr std::uintptr_t kNullFn = 0;  // MPI_XXX_NULL_COPY_FN, MPI_XXX_NULL_DELETE_FN
constexpr std::uintptr_t kDupFn = 1;   // MPI_XXX_DUP_FN
// The ABI keeps 1..4095 for predefined constants: no function lives there.
constexpr std::uintptr_t kLowestFunction = 4096;

std::uintptr_t fn_value(AnyFn f) { return reinterpret_cast<std::uintptr_t>(f); }

// Predefined keyvals: the ABI's numbers; callbacks as Open MPI has them (the
// environment attributes are inherited by duplicates, MPI_LASTUSEDCODE is not).
Keyval g_predefined[] = {
    {MPI_TAG_UB, Kind::comm, reinterpret_cast<AnyFn>(kDupFn), nullptr, nullptr, true},
    {MPI_IO, Kind::comm, reinterpret_cast<AnyFn>(kDupFn), nullptr, nullptr, true},
    {MPI_HOST, Kind::comm, reinterpret_cast<AnyFn>(kDupFn), nullptr, nullptr, true},
    {MPI_WTIME_IS_GLOBAL, Kind::comm, reinterpret_cast<AnyFn>(kDupFn), nullptr, nullptr, true},
    {MPI_APPNUM, Kind::comm, reinterpret_cast<AnyFn>(kDupFn), nullptr, nullptr, true},
    {MPI_LASTUSEDCODE, Kind::comm, nullptr, nullptr, nullptr, true},
    {MPI_UNIVERSE_SIZE, Kind::comm, reinterpret_cast<AnyFn>(kDupFn), nullptr, nullptr, true},
    {MPI_WIN_BASE, Kind::win, nullptr, nullptr, nullptr, true},
    {MPI_WIN_DISP_UNIT, Kind::win, nullptr, nullptr, nullptr, true},
    {MPI_WIN_SIZE, Kind::win, nullptr, nullptr, nullptr, true},
    {MPI_WIN_CREATE_FLAVOR, Kind::win, nullptr, nullptr, nullptr, true},
    {MPI_WIN_MODEL, Kind::win, nullptr, nullptr, nullptr, true},
};

// The values of the predefined communicator attributes: get returns their addresses.
int g_tag_ub = INT_MAX;  // shmpi takes any non-negative int tag
int g_host = MPI_PROC_NULL;
int g_io = MPI_ANY_SOURCE;  // every process can do I/O
int g_wtime_is_global = 1;  // MPI_Wtime is CLOCK_MONOTONIC: one clock on one node
int g_universe_size = 1;
int g_last_used_code = MPI_ERR_LASTCODE;

const char* predefined_name(int id) {
  switch (id) {
    case MPI_TAG_UB: return "MPI_TAG_UB";
    case MPI_IO: return "MPI_IO";
    case MPI_HOST: return "MPI_HOST";
    case MPI_WTIME_IS_GLOBAL: return "MPI_WTIME_IS_GLOBAL";
    case MPI_APPNUM: return "MPI_APPNUM";
    case MPI_LASTUSEDCODE: return "MPI_LASTUSEDCODE";
    case MPI_UNIVERSE_SIZE: return "MPI_UNIVERSE_SIZE";
    case MPI_WIN_BASE: return "MPI_WIN_BASE";
    case MPI_WIN_DISP_UNIT: return "MPI_WIN_DISP_UNIT";
    case MPI_WIN_SIZE: return "MPI_WIN_SIZE";
    case MPI_WIN_CREATE_FLAVOR: return "MPI_WIN_CREATE_FLAVOR";
    case MPI_WIN_MODEL: return "MPI_WIN_MODEL";
    default: return nullptr;
  }
}

std::string describe(int id) {
  const char* n = predefined_name(id);
  return n ? "keyval " + std::string(n) + " (" + std::to_string(id) + ")" : "keyval " + std::to_string(id);
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::comm: return "communicator";
    case Kind::type: return "datatype";
    case Kind::win: return "window";
  }
  return "?";
}

int error(int cls, const char* call, const std::string& what) { return make_error_code(cls, std::string(call) + ": " + what); }

// ---- keyvals (under g_mutex) ----------------------------------------------------------

Keyval* find_keyval(int id) {
  for (Keyval& k : g_predefined) {
    if (k.id == id) return &k;
  }
  auto it = g_keyvals.find(id);
  return it == g_keyvals.end() ? nullptr : it->second;
}

void retain(Keyval* kv) {
  if (!kv->predefined) ++kv->refs;
}

void release(Keyval* kv) {
  if (kv->predefined) return;
  if (--kv->refs == 0) {
    --g_live_user;
    delete kv;
  }
}

// The keyval `id` of an attribute call on a `kind` object; `verb` ("set", "deleted",
// "freed") for the calls that modify: a predefined keyval refuses them.
int resolve(Kind kind, int id, const char* call, const char* verb, Keyval*& out) {
  out = nullptr;
  if (id == MPI_KEYVAL_INVALID) return error(MPI_ERR_KEYVAL, call, "keyval is MPI_KEYVAL_INVALID");
  Keyval* kv = find_keyval(id);
  if (kv == nullptr) {
    return error(MPI_ERR_KEYVAL, call, describe(id) + " is not a valid keyval (never created, or freed)");
  }
  if (kv->kind != kind) {
    return error(MPI_ERR_KEYVAL, call,
                 describe(id) + " is a " + (kv->predefined ? "predefined " : "") + kind_name(kv->kind) + " keyval, not a " +
                     kind_name(kind) + " keyval");
  }
  if (verb != nullptr && kv->predefined) {
    return error(MPI_ERR_KEYVAL, call, describe(id) + " is a predefined attribute, which cannot be " + verb);
  }
  out = kv;
  return MPI_SUCCESS;
}

// ---- attribute lists (under g_mutex) --------------------------------------------------

AttrList* list_of(const Object& o, bool create) {
  if (o.kind == Kind::comm) {
    auto* c = static_cast<CommObj*>(o.obj);
    if (c->attrs == nullptr && create) c->attrs = new AttrList;
    return c->attrs;
  }
  auto& table = o.kind == Kind::type ? g_type_lists : g_win_lists;
  auto it = table.find(o.obj);
  if (it != table.end()) return it->second;
  if (!create) return nullptr;
  auto* l = new AttrList;
  table.emplace(o.obj, l);
  return l;
}

// Frees o's list if nothing is left in it.
void drop_if_empty(const Object& o) {
  AttrList* l = list_of(o, false);
  if (l == nullptr || !l->items.empty() || l->env) return;
  if (o.kind == Kind::comm) {
    static_cast<CommObj*>(o.obj)->attrs = nullptr;
  } else {
    (o.kind == Kind::type ? g_type_lists : g_win_lists).erase(o.obj);
  }
  delete l;
}

int index_of(const AttrList* l, const Keyval* kv) {
  if (l == nullptr) return -1;
  for (std::size_t i = 0; i < l->items.size(); ++i) {
    if (l->items[i].kv == kv) return static_cast<int>(i);
  }
  return -1;
}

// Whether communicator `c` carries the predefined attributes (MPI_LASTUSEDCODE:
// MPI_COMM_WORLD only).
bool has_env(const CommObj* c, int id) {
  if (c == &g_world) return true;
  if (id == MPI_LASTUSEDCODE) return false;
  return c->attrs != nullptr && c->attrs->env;
}

// ---- callbacks (called without g_mutex) -----------------------------------------------

int call_delete(const Object& o, const Keyval* kv, void* value) {
  if (fn_value(kv->del) == kNullFn) return MPI_SUCCESS;
  switch (o.kind) {
    case Kind::comm:
      return reinterpret_cast<MPI_Comm_delete_attr_function*>(kv->del)(static_cast<MPI_Comm>(o.handle), kv->id, value,
                                                                        kv->extra);
    case Kind::type:
      return reinterpret_cast<MPI_Type_delete_attr_function*>(kv->del)(static_cast<MPI_Datatype>(o.handle), kv->id,
                                                                        value, kv->extra);
    case Kind::win:
      return reinterpret_cast<MPI_Win_delete_attr_function*>(kv->del)(static_cast<MPI_Win>(o.handle), kv->id, value,
                                                                       kv->extra);
  }
  return MPI_SUCCESS;
}

int call_copy(const Object& o, const Keyval* kv, void* in, void** out, int* flag) {
  *out = nullptr;
  *flag = 0;
  const std::uintptr_t f = fn_value(kv->copy);
  if (f == kNullFn) return MPI_SUCCESS;
  if (f == kDupFn) {
    *out = in;
    *flag = 1;
    return MPI_SUCCESS;
  }
  switch (o.kind) {
    case Kind::comm:
      return reinterpret_cast<MPI_Comm_copy_attr_function*>(kv->copy)(static_cast<MPI_Comm>(o.handle), kv->id, kv->extra,
                                                                       in, out, flag);
    case Kind::type:
      return reinterpret_cast<MPI_Type_copy_attr_function*>(kv->copy)(static_cast<MPI_Datatype>(o.handle), kv->id,
                                                                       kv->extra, in, out, flag);
    case Kind::win:
      return reinterpret_cast<MPI_Win_copy_attr_function*>(kv->copy)(static_cast<MPI_Win>(o.handle), kv->id, kv->extra,
                                                                      in, out, flag);
  }
  return MPI_SUCCESS;
}

// The error a call returns when a callback returned `rc`: a code of rc's class
// (MPI_ERR_OTHER if rc is no MPI error code) whose message names the callback.
int callback_error(const char* call, const char* which, int id, Kind kind, int rc) {
  int cls = error_class_of(rc);
  if (cls <= MPI_SUCCESS) cls = MPI_ERR_OTHER;
  std::string what = std::string("the ") + which + " callback of " + kind_name(kind) + " " + describe(id) +
                     " returned error code " + std::to_string(rc);
  const std::string text = error_text(rc);
  if (!text.empty()) what += " (" + text + ")";
  return error(cls, call, what);
}

// Runs the delete callback of the attribute of `kv` on `o` and removes it if the callback
// succeeds. Called and returns with `lock` held; releases it around the callback.
int delete_one(const Object& o, Keyval* kv, const char* call, std::unique_lock<std::mutex>& lock) {
  AttrList* l = list_of(o, false);
  int i = index_of(l, kv);
  if (i < 0 || l->items[static_cast<std::size_t>(i)].deleting) return MPI_SUCCESS;  // not set, or nested
  l->items[static_cast<std::size_t>(i)].deleting = true;
  void* value = l->items[static_cast<std::size_t>(i)].value;
  retain(kv);  // the user may free the keyval from the callback
  lock.unlock();
  const int rc = call_delete(o, kv, value);
  lock.lock();
  l = list_of(o, false);
  i = index_of(l, kv);
  int result = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) {
    if (i >= 0) l->items[static_cast<std::size_t>(i)].deleting = false;
    result = callback_error(call, "delete", kv->id, o.kind, rc);
  } else if (i >= 0) {
    l->items.erase(l->items.begin() + i);
    release(kv);  // the attribute's reference
  }
  release(kv);
  return result;
}

// Deletes every attribute of `o`, the last set first, and frees its list. With
// `stop_on_error`, the first callback error ends it (that attribute and those set before
// it stay); otherwise failed attributes are removed all the same and the first error is
// returned.
int delete_all(const Object& o, const char* call, bool stop_on_error) {
  std::unique_lock<std::mutex> lock(g_mutex);
  int first_error = MPI_SUCCESS;
  for (;;) {
    AttrList* l = list_of(o, false);
    if (l == nullptr) return first_error;
    int last = -1;
    for (int i = static_cast<int>(l->items.size()) - 1; i >= 0; --i) {
      if (!l->items[static_cast<std::size_t>(i)].deleting) {
        last = i;
        break;
      }
    }
    if (last < 0) {
      if (!l->items.empty()) return first_error;  // only attributes being deleted by an outer call
      l->env = false;
      drop_if_empty(o);
      return first_error;
    }
    Keyval* kv = l->items[static_cast<std::size_t>(last)].kv;
    const int rc = delete_one(o, kv, call, lock);
    if (rc == MPI_SUCCESS) continue;
    if (stop_on_error) return rc;
    if (first_error == MPI_SUCCESS) first_error = rc;
    l = list_of(o, false);
    const int i = index_of(l, kv);
    if (i >= 0) {
      l->items.erase(l->items.begin() + i);
      release(kv);
    }
  }
}

// Runs the copy callbacks of `from`'s attributes, attaching the copies to `to`.
int copy_all(const Object& from, const Object& to, const char* call) {
  std::vector<Attr> snapshot;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    AttrList* l = list_of(from, false);
    const bool env = from.kind == Kind::comm && has_env(static_cast<CommObj*>(from.obj), MPI_TAG_UB);
    if (env) list_of(to, true)->env = true;
    if (l != nullptr) {
      for (const Attr& a : l->items) {
        if (a.deleting) continue;
        retain(a.kv);
        snapshot.push_back(a);
      }
    }
  }
  int rc = MPI_SUCCESS;
  std::size_t next = 0;
  for (; next < snapshot.size(); ++next) {
    Keyval* kv = snapshot[next].kv;
    void* out = nullptr;
    int flag = 0;
    const int cb = call_copy(from, kv, snapshot[next].value, &out, &flag);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (cb != MPI_SUCCESS) {
      rc = callback_error(call, "copy", kv->id, from.kind, cb);
      break;
    }
    if (flag != 0) {
      AttrList* l = list_of(to, true);
      const int i = index_of(l, kv);
      if (i >= 0) {
        l->items[static_cast<std::size_t>(i)].value = out;
      } else {
        l->items.push_back({kv, out});
        retain(kv);
      }
    }
    release(kv);
  }
  if (rc != MPI_SUCCESS) {
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      for (; next < snapshot.size(); ++next) release(snapshot[next].kv);
    }
    delete_all(to, call, false);
  }
  return rc;
}

bool valid_copy_fn(AnyFn f) { return fn_value(f) == kNullFn || fn_value(f) == kDupFn || fn_value(f) >= kLowestFunction; }
bool valid_delete_fn(AnyFn f) { return fn_value(f) == kNullFn || fn_value(f) >= kLowestFunction; }

std::string hex(std::uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

// ---- objects ------------------------------------------------------------------------

Object comm_object(CommObj* c) { return {Kind::comm, c, static_cast<void*>(c->handle)}; }
Object type_object(types::Datatype* t) { return {Kind::type, t, static_cast<void*>(t->handle)}; }
Object win_object(WinObj* w) { return {Kind::win, w, static_cast<void*>(w->handle)}; }

// ---- whole objects ------------------------------------------------------------------

int copy_comm_attrs(CommObj* oldc, CommObj* newc, const char* call) {
  return copy_all(comm_object(oldc), comm_object(newc), call);
}
int delete_comm_attrs(CommObj* c, const char* call) { return delete_all(comm_object(c), call, true); }
int copy_type_attrs(types::Datatype* oldt, types::Datatype* newt) {
  return copy_all(type_object(oldt), type_object(newt), "MPI_Type_dup");
}
int delete_type_attrs(types::Datatype* t) { return delete_all(type_object(t), "MPI_Type_free", true); }
int delete_win_attrs(WinObj* w) { return delete_all(win_object(w), "MPI_Win_free", true); }

bool has_type_attrs(const types::Datatype* t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_type_lists.count(t) != 0;
}

void set_last_used_code(int code) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_last_used_code = code;
}

// ---- keyvals ------------------------------------------------------------------------

int create_keyval(Kind kind, AnyFn copy_fn, AnyFn delete_fn, int* keyval, void* extra_state, const char* call) {
  const std::string k = kind == Kind::comm ? "comm" : kind == Kind::type ? "type" : "win";
  if (keyval == nullptr) return error(MPI_ERR_ARG, call, k + "_keyval is NULL");
  if (!valid_copy_fn(copy_fn)) {
    return error(MPI_ERR_ARG, call,
                 k + "_copy_attr_fn is " + hex(fn_value(copy_fn)) + ", neither a function nor MPI_" +
                     (kind == Kind::comm ? "COMM" : kind == Kind::type ? "TYPE" : "WIN") + "_NULL_COPY_FN/_DUP_FN");
  }
  if (!valid_delete_fn(delete_fn)) {
    return error(MPI_ERR_ARG, call,
                 k + "_delete_attr_fn is " + hex(fn_value(delete_fn)) + ", neither a function nor MPI_" +
                     (kind == Kind::comm ? "COMM" : kind == Kind::type ? "TYPE" : "WIN") + "_NULL_DELETE_FN");
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_next_id == INT_MAX) return error(MPI_ERR_OTHER, call, "out of keyvals (2^31 created)");
  auto* kv = new Keyval{g_next_id++, kind, copy_fn, delete_fn, extra_state, false};
  g_keyvals.emplace(kv->id, kv);
  ++g_live_user;
  *keyval = kv->id;
  return MPI_SUCCESS;
}

int free_keyval(Kind kind, int* keyval, const char* call) {
  if (keyval == nullptr) {
    return error(MPI_ERR_ARG, call,
                 std::string(kind == Kind::comm ? "comm" : kind == Kind::type ? "type" : "win") + "_keyval is NULL");
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  Keyval* kv = nullptr;
  if (int rc = resolve(kind, *keyval, call, "freed", kv); rc != MPI_SUCCESS) return rc;
  g_keyvals.erase(kv->id);
  release(kv);  // the handle's reference: attributes still attached keep it alive
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int live_user_keyvals() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_live_user;
}

// ---- attributes ---------------------------------------------------------------------

int set_attr(const Object& o, int keyval, void* value, const char* call) {
  std::unique_lock<std::mutex> lock(g_mutex);
  Keyval* kv = nullptr;
  if (int rc = resolve(o.kind, keyval, call, "set", kv); rc != MPI_SUCCESS) return rc;
  AttrList* l = list_of(o, true);
  int i = index_of(l, kv);
  if (i >= 0) {
    if (l->items[static_cast<std::size_t>(i)].deleting) {
      return error(MPI_ERR_OTHER, call, describe(keyval) + ": its attribute is being deleted (from its delete callback)");
    }
    // MPI-4.1 7.7.2: as if the old value were deleted (delete callback) and the new one set.
    if (int rc = delete_one(o, kv, call, lock); rc != MPI_SUCCESS) return rc;
    l = list_of(o, true);
    i = index_of(l, kv);
  }
  if (i >= 0) {
    l->items[static_cast<std::size_t>(i)].value = value;  // set again from the delete callback
  } else {
    l->items.push_back({kv, value});
    retain(kv);
  }
  return MPI_SUCCESS;
}

int get_attr(const Object& o, int keyval, void* attribute_val, int* flag, const char* call) {
  if (attribute_val == nullptr) return error(MPI_ERR_ARG, call, "attribute_val is NULL");
  if (flag == nullptr) return error(MPI_ERR_ARG, call, "flag is NULL");
  std::lock_guard<std::mutex> lock(g_mutex);
  Keyval* kv = nullptr;
  if (int rc = resolve(o.kind, keyval, call, nullptr, kv); rc != MPI_SUCCESS) return rc;
  if (kv->predefined) {
    int* v = nullptr;
    if (o.kind == Kind::comm && has_env(static_cast<CommObj*>(o.obj), keyval)) {
      switch (keyval) {
        case MPI_TAG_UB: v = &g_tag_ub; break;
        case MPI_HOST: v = &g_host; break;
        case MPI_IO: v = &g_io; break;
        case MPI_WTIME_IS_GLOBAL: v = &g_wtime_is_global; break;
        case MPI_UNIVERSE_SIZE:
          g_universe_size = g_world.size;
          v = &g_universe_size;
          break;
        case MPI_LASTUSEDCODE: v = &g_last_used_code; break;
        default: break;  // MPI_APPNUM: not an MPMD launch
      }
    }
    *flag = v != nullptr;
    if (v != nullptr) *static_cast<void**>(attribute_val) = v;
    return MPI_SUCCESS;
  }
  const AttrList* l = list_of(o, false);
  const int i = index_of(l, kv);
  *flag = i >= 0;
  if (i >= 0) *static_cast<void**>(attribute_val) = l->items[static_cast<std::size_t>(i)].value;
  return MPI_SUCCESS;
}

int delete_attr(const Object& o, int keyval, const char* call) {
  std::unique_lock<std::mutex> lock(g_mutex);
  Keyval* kv = nullptr;
  if (int rc = resolve(o.kind, keyval, call, "deleted", kv); rc != MPI_SUCCESS) return rc;
  const int rc = delete_one(o, kv, call, lock);
  if (rc == MPI_SUCCESS) drop_if_empty(o);
  return rc;
}

}  // namespace shmpi::client::attr
