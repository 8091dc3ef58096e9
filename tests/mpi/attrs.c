/* attrs: attribute caching as MPI-4.1 7.7 specifies it, on communicators, datatypes and
 * windows: keyval creation and freeing, set/get/delete, the copy callbacks on MPI_Comm_dup
 * (and _dup_with_info, _idup) and MPI_Type_dup (MPI_XXX_DUP_FN copies the value,
 * MPI_XXX_NULL_COPY_FN and flag = 0 copy nothing), the delete callbacks on delete_attr, on
 * setting a value again and on freeing the object, the arguments every callback receives,
 * a freed keyval that stays usable by the attributes still attached (MPI-4.1 7.7.2), the
 * predefined attributes of MPI_COMM_WORLD (MPI-4.1 9.1.2) and of windows (13.2.6), the
 * delete callbacks of MPI_COMM_SELF at MPI_Finalize, last set first and before MPI is
 * finalized (MPI-4.1, "Allowing User Functions at MPI Process Termination"), and the
 * error classes under MPI_ERRORS_RETURN (MPI_ERR_KEYVAL for an invalid keyval, one of
 * another object kind, or a predefined one that is set, deleted or freed; a callback's
 * error fails the call).
 *
 * ATTRS_PEER=1 skips shmpi's promises beyond the standard: the exact predefined values
 * (MPI_TAG_UB INT_MAX, MPI_HOST MPI_PROC_NULL, MPI_IO MPI_ANY_SOURCE, MPI_WTIME_IS_GLOBAL
 * 1, MPI_UNIVERSE_SIZE the world size, no MPI_APPNUM), predefined attributes inherited by
 * a duplicate of MPI_COMM_WORLD, a stale (freed) keyval is MPI_ERR_KEYVAL, a failed
 * dup deletes the attributes it had copied, a failed free leaves the object usable, and
 * the message texts.
 * Peer deviations, each tolerated only where its variable is set (tests/peer):
 *   ATTRS_KEYVAL_ERRORS_ARE_OTHER        (Open MPI 4.1) MPI_KEYVAL_INVALID or a keyval of
 *                                        another object kind is MPI_ERR_OTHER, not
 *                                        MPI_ERR_KEYVAL, in set_attr, delete_attr and
 *                                        free_keyval
 *   ATTRS_GET_KIND_UNCHECKED             (Open MPI 4.1) get_attr with a keyval of another
 *                                        object kind succeeds
 *   ATTRS_TYPE_DUP_COPY_ERROR_IS_INTERN  (Open MPI 4.1) a failing copy callback fails
 *                                        MPI_Type_dup with MPI_ERR_INTERN (MPI_Comm_dup
 *                                        returns the callback's class)
 * Usage: attrs */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* MPI_Comm_idup is a nonblocking collective: shmpi gets it with the nonblocking
 * collectives; until then its copy check runs against the peers only. */
#if defined(SHMPI_MPI_H_INCLUDED)
#define HAVE_COMM_IDUP 0
#else
#define HAVE_COMM_IDUP 1
#endif

static int rank, size, peer;

static int env(const char* name) { return getenv(name) != NULL; }

static void check_class(int rc, int expected, const char* what) {
  int cls = -1;
  CHECK(rc != MPI_SUCCESS, "%s succeeded, expected class %d", what, expected);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == expected, "%s: class %d, expected %d", what, cls, expected);
}

/* An invalid keyval (MPI_KEYVAL_INVALID, or one of another object kind) given to a call
 * other than get: MPI_ERR_KEYVAL (MPI-4.1 7.7.5). */
static void check_bad_keyval(int rc, const char* what) {
  check_class(rc, env("ATTRS_KEYVAL_ERRORS_ARE_OTHER") ? MPI_ERR_OTHER : MPI_ERR_KEYVAL, what);
}

/* A get with a keyval of another object kind: MPI_ERR_KEYVAL. */
static void check_wrong_kind_get(int rc, const char* what) {
  if (rc == MPI_SUCCESS && env("ATTRS_GET_KIND_UNCHECKED")) return;
  check_class(rc, MPI_ERR_KEYVAL, what);
}

/* Erroneous calls whose class the standard leaves open (changing, deleting or freeing a
 * predefined attribute, MPI-4.1 9.1.2): an error, of class `expected` on shmpi. */
static void check_fails(int rc, int expected, const char* what) {
  if (!peer) {
    check_class(rc, expected, what);
    return;
  }
  CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
}

/* shmpi only: the error string names the call and the argument. */
static void check_text(int rc, const char* expected) {
  if (peer) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(strstr(text, expected) != NULL, "error text \"%s\" does not contain \"%s\"", text, expected);
}

/* Attribute values: addresses in here (a copy callback returns the next one). */
static char vals[128];
#define VAL(i) ((void*)&vals[i])

/* What one keyval's callbacks saw. The callbacks check their keyval and extra_state
 * argument and, where `check_*` is set, the object they are called on. */
typedef struct {
  const char* name;
  int keyval;        /* as created (the caller's variable becomes MPI_KEYVAL_INVALID when freed) */
  int copies, deletes;
  int copy_flag;     /* what the copy callback answers: 1 copies value + 1, 0 copies nothing */
  int fail_copy, fail_delete;  /* return MPI_ERR_OTHER */
  int check_comm, check_type, check_win;
  MPI_Comm comm;     /* the object the next callback must be called on */
  MPI_Datatype type;
  MPI_Win win;
  void* last_in;      /* copy: attribute_val_in */
  void* last_deleted; /* delete: attribute_val */
  int order_tag;      /* finalize order */
} state_t;

static state_t* new_state(const char* name) {
  state_t* s = calloc(1, sizeof *s);
  CHECK(s != NULL, "out of memory");
  s->name = name;
  s->copy_flag = 1;
  return s;
}

static int comm_copy(MPI_Comm oldcomm, int keyval, void* extra_state, void* in, void* out, int* flag) {
  state_t* s = extra_state;
  CHECK(keyval == s->keyval, "%s: copy callback got keyval %d, expected %d", s->name, keyval, s->keyval);
  if (s->check_comm) CHECK(oldcomm == s->comm, "%s: copy callback called on another communicator", s->name);
  s->copies++;
  s->last_in = in;
  if (s->fail_copy) return MPI_ERR_OTHER;
  *flag = s->copy_flag;
  if (s->copy_flag) *(void**)out = (char*)in + 1;
  return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm comm, int keyval, void* value, void* extra_state) {
  state_t* s = extra_state;
  CHECK(keyval == s->keyval, "%s: delete callback got keyval %d, expected %d", s->name, keyval, s->keyval);
  if (s->check_comm) CHECK(comm == s->comm, "%s: delete callback called on another communicator", s->name);
  s->deletes++;
  s->last_deleted = value;
  return s->fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int type_copy(MPI_Datatype oldtype, int keyval, void* extra_state, void* in, void* out, int* flag) {
  state_t* s = extra_state;
  CHECK(keyval == s->keyval, "%s: copy callback got keyval %d, expected %d", s->name, keyval, s->keyval);
  if (s->check_type) CHECK(oldtype == s->type, "%s: copy callback called on another datatype", s->name);
  s->copies++;
  s->last_in = in;
  if (s->fail_copy) return MPI_ERR_OTHER;
  *flag = s->copy_flag;
  if (s->copy_flag) *(void**)out = (char*)in + 1;
  return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void* value, void* extra_state) {
  state_t* s = extra_state;
  CHECK(keyval == s->keyval, "%s: delete callback got keyval %d, expected %d", s->name, keyval, s->keyval);
  if (s->check_type) CHECK(type == s->type, "%s: delete callback called on another datatype", s->name);
  s->deletes++;
  s->last_deleted = value;
  return s->fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int win_copy(MPI_Win oldwin, int keyval, void* extra_state, void* in, void* out, int* flag) {
  state_t* s = extra_state;
  (void)oldwin, (void)in, (void)out, (void)flag;
  CHECK(0, "%s: window copy callback called (keyval %d): windows are never duplicated", s->name, keyval);
  return MPI_ERR_OTHER;
}

static int win_delete(MPI_Win win, int keyval, void* value, void* extra_state) {
  state_t* s = extra_state;
  CHECK(keyval == s->keyval, "%s: delete callback got keyval %d, expected %d", s->name, keyval, s->keyval);
  if (s->check_win) CHECK(win == s->win, "%s: delete callback called on another window", s->name);
  s->deletes++;
  s->last_deleted = value;
  return s->fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* A delete callback that calls MPI itself: reads another attribute of its communicator,
 * sets one, and frees its own keyval (a library tearing itself down). */
static int reentrant_other = MPI_KEYVAL_INVALID, reentrant_self = MPI_KEYVAL_INVALID, reentrant_calls;

static int reentrant_delete(MPI_Comm comm, int keyval, void* value, void* extra_state) {
  (void)extra_state;
  CHECK(keyval == reentrant_self && value == VAL(90), "reentrant delete callback: keyval %d value %p", keyval, value);
  void* v = NULL;
  int flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(comm, reentrant_other, &v, &flag));
  CHECK(flag == 1 && v == VAL(91), "reentrant delete callback: other attribute: flag %d value %p", flag, v);
  CHECK_MPI(MPI_Comm_set_attr(comm, reentrant_other, VAL(92)));
  int k = keyval;
  CHECK_MPI(MPI_Comm_free_keyval(&k));
  reentrant_calls++;
  return MPI_SUCCESS;
}

static int comm_keyval(state_t* s, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* del) {
  int k = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(copy, del, &k, s));
  CHECK(k != MPI_KEYVAL_INVALID, "%s: MPI_Comm_create_keyval returned MPI_KEYVAL_INVALID", s->name);
  s->keyval = k;
  return k;
}

/* The value of `keyval` on comm, or NULL with *flag = 0. */
static void* comm_get(MPI_Comm comm, int keyval, int* flag) {
  void* v = NULL;
  *flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &v, flag));
  CHECK(*flag == 0 || *flag == 1, "flag %d", *flag);
  return *flag ? v : NULL;
}

static void expect_comm_attr(MPI_Comm comm, int keyval, void* expected, const char* what) {
  int flag;
  void* v = comm_get(comm, keyval, &flag);
  if (expected == NULL) {
    CHECK(flag == 0, "%s: attribute set, expected none", what);
  } else {
    CHECK(flag == 1, "%s: attribute not set", what);
    CHECK(v == expected, "%s: value %p, expected %p", what, v, expected);
  }
}

/* ---- predefined attributes of MPI_COMM_WORLD (MPI-4.1 9.1.2) ---------------------------- */

static int predefined_int(MPI_Comm comm, int keyval, int* flag) {
  int* v = NULL;
  *flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &v, flag));
  CHECK(*flag == 0 || *flag == 1, "flag %d", *flag);
  if (!*flag) return INT_MIN;
  CHECK(v != NULL, "predefined attribute %d: NULL pointer", keyval);
  return *v;
}

static void predefined(void) {
  int flag;
  int v = predefined_int(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
  CHECK(flag == 1, "MPI_TAG_UB is not set on MPI_COMM_WORLD");
  CHECK(v >= 32767, "MPI_TAG_UB %d < 32767", v);
  if (!peer) CHECK(v == INT_MAX, "MPI_TAG_UB %d, expected INT_MAX", v);

  v = predefined_int(MPI_COMM_WORLD, MPI_HOST, &flag);
  if (flag) CHECK(v == MPI_PROC_NULL || (v >= 0 && v < size), "MPI_HOST %d", v);
  if (!peer) CHECK(flag == 1 && v == MPI_PROC_NULL, "MPI_HOST: flag %d value %d, expected MPI_PROC_NULL", flag, v);

  v = predefined_int(MPI_COMM_WORLD, MPI_IO, &flag);
  CHECK(flag == 1, "MPI_IO is not set on MPI_COMM_WORLD");
  CHECK(v == MPI_ANY_SOURCE || v == MPI_PROC_NULL || (v >= 0 && v < size), "MPI_IO %d", v);
  if (!peer) CHECK(v == MPI_ANY_SOURCE, "MPI_IO %d, expected MPI_ANY_SOURCE", v);

  v = predefined_int(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag);
  if (flag) CHECK(v == 0 || v == 1, "MPI_WTIME_IS_GLOBAL %d", v);
  if (!peer) CHECK(flag == 1 && v == 1, "MPI_WTIME_IS_GLOBAL: flag %d value %d, expected 1", flag, v);

  v = predefined_int(MPI_COMM_WORLD, MPI_APPNUM, &flag);
  if (flag) CHECK(v >= 0, "MPI_APPNUM %d", v);
  if (!peer) CHECK(flag == 0, "MPI_APPNUM set (%d) without an MPMD launch", v);

  v = predefined_int(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag);
  /* Open MPI counts slots (cores): an oversubscribed job's universe is smaller than its world. */
  if (flag) CHECK(v >= 1, "MPI_UNIVERSE_SIZE %d", v);
  if (!peer) CHECK(flag == 1 && v == size, "MPI_UNIVERSE_SIZE: flag %d value %d, expected %d", flag, v, size);

  v = predefined_int(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
  CHECK(flag == 1, "MPI_LASTUSEDCODE is not set on MPI_COMM_WORLD");
  CHECK(v >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d < MPI_ERR_LASTCODE %d", v, MPI_ERR_LASTCODE);

  /* Predefined keyvals cannot be set, deleted or freed. */
  int rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, VAL(0));
  check_fails(rc, MPI_ERR_KEYVAL, "MPI_Comm_set_attr(MPI_TAG_UB)");
  check_text(rc, "MPI_Comm_set_attr");
  check_text(rc, "MPI_TAG_UB");
  v = predefined_int(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
  CHECK(flag == 1 && v >= 32767, "MPI_TAG_UB changed by a failed set");
  check_fails(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr(MPI_TAG_UB)");
  check_fails(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, VAL(0)), MPI_ERR_KEYVAL,
              "MPI_Comm_set_attr(MPI_UNIVERSE_SIZE)");
  int k = MPI_TAG_UB;
  check_fails(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval(MPI_TAG_UB)");
  v = predefined_int(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
  CHECK(flag == 1 && v >= 32767, "MPI_TAG_UB gone after a failed free_keyval");

  /* Invalid keyvals and keyvals of another kind. */
  void* p = NULL;
  rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &p, &flag);
  check_class(rc, MPI_ERR_KEYVAL, "MPI_Comm_get_attr(MPI_KEYVAL_INVALID)");
  check_text(rc, "MPI_KEYVAL_INVALID");
  check_bad_keyval(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, VAL(0)), "MPI_Comm_set_attr(MPI_KEYVAL_INVALID)");
  check_wrong_kind_get(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WIN_BASE, &p, &flag), "MPI_Comm_get_attr(MPI_WIN_BASE)");
  k = MPI_WIN_SIZE;
  check_fails(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Win_free_keyval(MPI_WIN_SIZE)");

  if (!peer) {
    /* shmpi: a duplicate of MPI_COMM_WORLD inherits the predefined attributes (as in
     * Open MPI), except MPI_LASTUSEDCODE; MPI_COMM_SELF has none. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    v = predefined_int(dup, MPI_TAG_UB, &flag);
    CHECK(flag == 1 && v == INT_MAX, "MPI_TAG_UB on a duplicate of MPI_COMM_WORLD: flag %d value %d", flag, v);
    v = predefined_int(dup, MPI_UNIVERSE_SIZE, &flag);
    CHECK(flag == 1 && v == size, "MPI_UNIVERSE_SIZE on a duplicate: flag %d value %d", flag, v);
    predefined_int(dup, MPI_LASTUSEDCODE, &flag);
    CHECK(flag == 0, "MPI_LASTUSEDCODE copied to a duplicate");
    CHECK_MPI(MPI_Comm_free(&dup));
    predefined_int(MPI_COMM_SELF, MPI_TAG_UB, &flag);
    CHECK(flag == 0, "MPI_TAG_UB set on MPI_COMM_SELF");
  }
}

/* ---- communicator attributes without new communicators --------------------------------- */

static void comm_basics(void) {
  state_t* s = new_state("comm basics");
  int k = comm_keyval(s, comm_copy, comm_delete);
  s->check_comm = 1;
  s->comm = MPI_COMM_WORLD;
  int flag;
  comm_get(MPI_COMM_WORLD, k, &flag);
  CHECK(flag == 0, "a new keyval has an attribute");

  /* The value is the pointer itself, never dereferenced. */
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void*)(intptr_t)42));
  CHECK(comm_get(MPI_COMM_WORLD, k, &flag) == (void*)(intptr_t)42 && flag, "value 42 did not come back");
  /* Setting again deletes the old value first. */
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, VAL(1)));
  CHECK(s->deletes == 1 && s->last_deleted == (void*)(intptr_t)42, "set again: %d delete calls, last value %p",
        s->deletes, s->last_deleted);
  expect_comm_attr(MPI_COMM_WORLD, k, VAL(1), "after set again");
  /* Per communicator: MPI_COMM_SELF has its own. */
  expect_comm_attr(MPI_COMM_SELF, k, NULL, "MPI_COMM_SELF");
  s->comm = MPI_COMM_SELF;
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k, VAL(2)));
  expect_comm_attr(MPI_COMM_SELF, k, VAL(2), "MPI_COMM_SELF after set");
  expect_comm_attr(MPI_COMM_WORLD, k, VAL(1), "MPI_COMM_WORLD after setting MPI_COMM_SELF");
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, k));
  CHECK(s->deletes == 2 && s->last_deleted == VAL(2), "delete on MPI_COMM_SELF: %d calls, last %p", s->deletes,
        s->last_deleted);
  expect_comm_attr(MPI_COMM_SELF, k, NULL, "MPI_COMM_SELF after delete");

  /* A failing delete callback fails delete_attr and set. */
  s->comm = MPI_COMM_WORLD;
  s->fail_delete = 1;
  int rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, k);
  check_class(rc, MPI_ERR_OTHER, "MPI_Comm_delete_attr with a failing delete callback");
  check_text(rc, "delete callback");
  CHECK(s->deletes == 3, "%d delete calls", s->deletes);
  if (!peer) expect_comm_attr(MPI_COMM_WORLD, k, VAL(1), "after a failed delete");
  check_class(MPI_Comm_set_attr(MPI_COMM_WORLD, k, VAL(3)), MPI_ERR_OTHER, "MPI_Comm_set_attr with a failing delete callback");
  CHECK(s->deletes == 4, "%d delete calls", s->deletes);
  if (!peer) expect_comm_attr(MPI_COMM_WORLD, k, VAL(1), "after a failed set");
  s->fail_delete = 0;
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, VAL(4)));
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k));
  CHECK(s->last_deleted == VAL(4), "deleted %p, expected %p", s->last_deleted, VAL(4));
  expect_comm_attr(MPI_COMM_WORLD, k, NULL, "after delete");
  CHECK(s->copies == 0, "copy callback called %d times without a dup", s->copies);

  /* Keyvals of other kinds are MPI_ERR_KEYVAL on a communicator, and the other way round. */
  int tk = MPI_KEYVAL_INVALID, wk = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL));
  void* p;
  rc = MPI_Comm_set_attr(MPI_COMM_WORLD, tk, VAL(0));
  check_bad_keyval(rc, "MPI_Comm_set_attr with a datatype keyval");
  check_text(rc, "datatype keyval");
  check_wrong_kind_get(MPI_Comm_get_attr(MPI_COMM_WORLD, tk, &p, &flag), "MPI_Comm_get_attr with a datatype keyval");
  check_bad_keyval(MPI_Comm_delete_attr(MPI_COMM_WORLD, wk), "MPI_Comm_delete_attr with a window keyval");
  check_bad_keyval(MPI_Type_set_attr(MPI_INT, k, VAL(0)), "MPI_Type_set_attr with a communicator keyval");
  check_wrong_kind_get(MPI_Type_get_attr(MPI_INT, wk, &p, &flag), "MPI_Type_get_attr with a window keyval");
  int k2 = k;
  check_bad_keyval(MPI_Type_free_keyval(&k2), "MPI_Type_free_keyval of a communicator keyval");
  CHECK(k2 == k, "a failed free changed the keyval");
  k2 = tk;
  check_bad_keyval(MPI_Comm_free_keyval(&k2), "MPI_Comm_free_keyval of a datatype keyval");
  CHECK_MPI(MPI_Type_free_keyval(&tk));
  CHECK(tk == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval left %d", tk);
  CHECK_MPI(MPI_Win_free_keyval(&wk));
  CHECK(wk == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval left %d", wk);

  /* Callbacks may call MPI, on the same communicator too. */
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, reentrant_delete, &reentrant_self, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &reentrant_other, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, reentrant_self, VAL(90)));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, reentrant_other, VAL(91)));
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, reentrant_self));
  CHECK(reentrant_calls == 1, "reentrant delete callback called %d times", reentrant_calls);
  expect_comm_attr(MPI_COMM_WORLD, reentrant_other, VAL(92), "set from a delete callback");
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, reentrant_other));
  CHECK_MPI(MPI_Comm_free_keyval(&reentrant_other));

  /* Free: the variable becomes MPI_KEYVAL_INVALID. */
  k2 = k;
  CHECK_MPI(MPI_Comm_free_keyval(&k2));
  CHECK(k2 == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left %d", k2);
  check_bad_keyval(MPI_Comm_free_keyval(&k2), "MPI_Comm_free_keyval(MPI_KEYVAL_INVALID)");
  if (!peer) {
    /* shmpi: keyvals are never reused, so a stale copy is an error, not another key. */
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, k, VAL(0));
    check_class(rc, MPI_ERR_KEYVAL, "MPI_Comm_set_attr with a freed keyval");
    check_text(rc, "not a valid keyval");
    check_class(MPI_Comm_get_attr(MPI_COMM_WORLD, k, &p, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr with a freed keyval");
    k2 = k;
    check_class(MPI_Comm_free_keyval(&k2), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval of a freed keyval");
    int n = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &n, NULL));
    CHECK(n != k && n != MPI_TAG_UB && n != MPI_WIN_BASE, "new keyval %d reuses an old or predefined one", n);
    CHECK(n > 0, "keyval %d is not positive", n);
    CHECK_MPI(MPI_Comm_free_keyval(&n));
    /* NULL arguments. */
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL);
    check_class(rc, MPI_ERR_ARG, "MPI_Comm_create_keyval(comm_keyval NULL)");
    check_text(rc, "comm_keyval is NULL");
    check_class(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &flag), MPI_ERR_ARG, "MPI_Comm_get_attr(attribute_val NULL)");
    check_class(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, NULL), MPI_ERR_ARG, "MPI_Comm_get_attr(flag NULL)");
    check_class(MPI_Comm_free_keyval(NULL), MPI_ERR_ARG, "MPI_Comm_free_keyval(NULL)");
  }
  free(s);
}

/* ---- MPI_COMM_SELF at MPI_Finalize ------------------------------------------------------ */

static state_t* fin[3];
static int fin_order[8], fin_n, fin_finalized = -1;

static int fin_delete(MPI_Comm comm, int keyval, void* value, void* extra_state) {
  state_t* s = extra_state;
  int f = -1;
  MPI_Finalized(&f);
  if (fin_finalized != 1) fin_finalized = f;
  /* No CHECK here at the last callbacks' time: MPI_Abort would still work, but keep it
   * simple and record; main checks after MPI_Finalize. */
  if (comm != MPI_COMM_SELF || keyval != s->keyval || value != VAL(10 + s->order_tag)) s->fail_delete = 1;
  if (fin_n < 8) fin_order[fin_n++] = s->order_tag;
  s->deletes++;
  return MPI_SUCCESS;
}

static void self_at_finalize(void) {
  static const char* names[3] = {"finalize a", "finalize b", "finalize c"};
  for (int i = 0; i < 3; ++i) {
    fin[i] = new_state(names[i]);
    fin[i]->order_tag = i;
    comm_keyval(fin[i], MPI_COMM_NULL_COPY_FN, fin_delete);
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, fin[i]->keyval, VAL(10 + i)));
  }
  /* The first keyval is freed now: its attribute stays until MPI_Finalize deletes it. */
  int k = fin[0]->keyval;
  CHECK_MPI(MPI_Comm_free_keyval(&k));
  expect_comm_attr(MPI_COMM_SELF, fin[1]->keyval, VAL(11), "MPI_COMM_SELF");
  CHECK(fin[0]->deletes == 0, "freeing a keyval deleted its attribute");
}

static int check_after_finalize(void) {
  int bad = 0;
  if (fin_n != 3) {
    fprintf(stderr, "FAIL rank %d: %d delete callbacks on MPI_COMM_SELF at MPI_Finalize, expected 3\n", rank, fin_n);
    bad = 1;
  } else if (fin_order[0] != 2 || fin_order[1] != 1 || fin_order[2] != 0) {
    fprintf(stderr, "FAIL rank %d: MPI_COMM_SELF attributes deleted in order %d %d %d, expected 2 1 0 (last set first)\n",
            rank, fin_order[0], fin_order[1], fin_order[2]);
    bad = 1;
  }
  if (fin_finalized != 0) {
    fprintf(stderr, "FAIL rank %d: MPI_Finalized returned %d in a delete callback of MPI_COMM_SELF\n", rank, fin_finalized);
    bad = 1;
  }
  for (int i = 0; i < 3; ++i) {
    if (fin[i]->fail_delete) {
      fprintf(stderr, "FAIL rank %d: %s: delete callback got the wrong communicator, keyval or value\n", rank, fin[i]->name);
      bad = 1;
    }
  }
  return bad;
}

/* ---- MPI_Comm_dup / MPI_Comm_free -------------------------------------------------------- */

static void comm_dup_free(void) {
  MPI_Comm base;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
  CHECK_MPI(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
  state_t* sc = new_state("copying");        /* user copy callback: value + 1 */
  state_t* sd = new_state("MPI_COMM_DUP_FN");
  state_t* sn = new_state("MPI_COMM_NULL_COPY_FN");
  state_t* sz = new_state("copy with flag 0");
  int kc = comm_keyval(sc, comm_copy, comm_delete);
  int kd = comm_keyval(sd, MPI_COMM_DUP_FN, comm_delete);
  int kn = comm_keyval(sn, MPI_COMM_NULL_COPY_FN, comm_delete);
  int kz = comm_keyval(sz, comm_copy, comm_delete);
  sz->copy_flag = 0;
  CHECK_MPI(MPI_Comm_set_attr(base, kc, VAL(20)));
  CHECK_MPI(MPI_Comm_set_attr(base, kd, VAL(30)));
  CHECK_MPI(MPI_Comm_set_attr(base, kn, VAL(40)));
  CHECK_MPI(MPI_Comm_set_attr(base, kz, VAL(50)));
  sc->check_comm = sz->check_comm = 1;
  sc->comm = sz->comm = base;

  /* Every way of duplicating copies. */
  for (int how = 0; how < 3; ++how) {
    if (how == 2 && !HAVE_COMM_IDUP) continue;
    MPI_Comm d = MPI_COMM_NULL;
    const int c0 = sc->copies, z0 = sz->copies;
    if (how == 0) {
      CHECK_MPI(MPI_Comm_dup(base, &d));
    } else if (how == 1) {
      CHECK_MPI(MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &d));
    } else {
#if HAVE_COMM_IDUP
      MPI_Request r;
      CHECK_MPI(MPI_Comm_idup(base, &d, &r));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
#endif
    }
    CHECK(sc->copies == c0 + 1 && sc->last_in == VAL(20), "dup %d: copy callback: %d calls, value in %p", how,
          sc->copies - c0, sc->last_in);
    CHECK(sz->copies == z0 + 1, "dup %d: flag-0 copy callback: %d calls", how, sz->copies - z0);
    CHECK(sd->copies == 0 && sn->copies == 0, "the predefined copy functions were called as functions");
    expect_comm_attr(d, kc, VAL(21), "copied by the callback");
    expect_comm_attr(d, kd, VAL(30), "copied by MPI_COMM_DUP_FN");
    expect_comm_attr(d, kn, NULL, "MPI_COMM_NULL_COPY_FN");
    expect_comm_attr(d, kz, NULL, "copy callback with flag 0");
    expect_comm_attr(base, kc, VAL(20), "the original after dup");
    /* Free: each attribute of the duplicate is deleted, on the duplicate. */
    const int dc = sc->deletes, dd = sd->deletes, dn = sn->deletes, dz = sz->deletes;
    sc->comm = sd->comm = d;
    sc->check_comm = sd->check_comm = 1;
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
    CHECK(sc->deletes == dc + 1 && sc->last_deleted == VAL(21), "free: copied attribute: %d deletes, value %p",
          sc->deletes - dc, sc->last_deleted);
    CHECK(sd->deletes == dd + 1 && sd->last_deleted == VAL(30), "free: MPI_COMM_DUP_FN attribute: %d deletes, value %p",
          sd->deletes - dd, sd->last_deleted);
    CHECK(sn->deletes == dn && sz->deletes == dz, "free deleted attributes that were not copied");
    sc->comm = base;
    sd->check_comm = 0;
  }

  /* A keyval freed while attributes use it: they are still copied and deleted, with the
   * original keyval. */
  state_t* sf = new_state("freed keyval");
  int kf = comm_keyval(sf, comm_copy, comm_delete);
  CHECK_MPI(MPI_Comm_set_attr(base, kf, VAL(60)));
  CHECK_MPI(MPI_Comm_free_keyval(&kf));
  CHECK(kf == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left %d", kf);
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(base, &d));
  CHECK(sf->copies == 1 && sf->last_in == VAL(60), "freed keyval: %d copies, value in %p", sf->copies, sf->last_in);
  sc->comm = sf->comm = d;
  sf->check_comm = 1;
  CHECK_MPI(MPI_Comm_free(&d));
  sc->comm = base;
  sf->check_comm = 0;
  CHECK(sf->deletes == 1 && sf->last_deleted == VAL(61), "freed keyval: %d deletes, value %p", sf->deletes,
        sf->last_deleted);

  /* A failing copy callback fails the dup (every rank fails alike). */
  state_t* se = new_state("failing copy");
  int ke = comm_keyval(se, comm_copy, comm_delete);
  se->fail_copy = 1;
  CHECK_MPI(MPI_Comm_set_attr(base, ke, VAL(70)));
  const int c0 = sc->deletes, d0 = sd->deletes, f0 = sf->deletes;
  sc->check_comm = 0;  /* the partial copies are deleted on the new communicator, if at all */
  d = MPI_COMM_NULL;
  int rc = MPI_Comm_dup(base, &d);
  check_class(rc, MPI_ERR_OTHER, "MPI_Comm_dup with a failing copy callback");
  check_text(rc, "copy callback");
  CHECK(se->copies == 1, "failing copy callback called %d times", se->copies);
  if (!peer) {
    /* shmpi: the attributes copied before the failure (set before it: copied before it)
     * were deleted again, and there is no new communicator. */
    CHECK(sc->deletes == c0 + 1 && sc->last_deleted == VAL(21), "failed dup: copied attribute deleted %d times",
          sc->deletes - c0);
    CHECK(sd->deletes == d0 + 1 && sd->last_deleted == VAL(30), "failed dup: MPI_COMM_DUP_FN attribute deleted %d times",
          sd->deletes - d0);
    CHECK(sf->deletes == f0 + 1 && sf->last_deleted == VAL(61), "failed dup: freed-keyval attribute deleted %d times",
          sf->deletes - f0);
    CHECK(d == MPI_COMM_NULL, "failed dup returned a communicator");
  }
  sc->check_comm = 1;
  CHECK_MPI(MPI_Comm_delete_attr(base, ke));
  CHECK(se->deletes == 1 && se->last_deleted == VAL(70), "delete of the failing-copy attribute");

  /* A failing delete callback fails MPI_Comm_free. */
  if (!peer) {
    MPI_Comm f;
    CHECK_MPI(MPI_Comm_dup(base, &f));
    state_t* sx = new_state("failing delete");
    int kx = comm_keyval(sx, MPI_COMM_NULL_COPY_FN, comm_delete);
    CHECK_MPI(MPI_Comm_set_attr(f, kx, VAL(80)));
    sc->comm = f;  /* f has a copy of sc's attribute too */
    sx->fail_delete = 1;
    rc = MPI_Comm_free(&f);
    check_class(rc, MPI_ERR_OTHER, "MPI_Comm_free with a failing delete callback");
    /* shmpi: the communicator stays, with that attribute; freeing again works. */
    CHECK(f != MPI_COMM_NULL, "a failed MPI_Comm_free set MPI_COMM_NULL");
    expect_comm_attr(f, kx, VAL(80), "after a failed free");
    sx->fail_delete = 0;
    CHECK_MPI(MPI_Comm_free(&f));
    CHECK(sx->deletes == 2, "failing delete: %d calls", sx->deletes);
    sc->comm = base;
    CHECK_MPI(MPI_Comm_free_keyval(&kx));
    free(sx);
  }

  /* Freeing the base deletes what is left on it. */
  const int dc = sc->deletes, dd = sd->deletes, dn = sn->deletes, dz = sz->deletes, df = sf->deletes;
  sc->comm = sd->comm = sn->comm = sz->comm = sf->comm = base;
  sc->check_comm = sd->check_comm = sn->check_comm = sz->check_comm = sf->check_comm = 1;
  CHECK_MPI(MPI_Comm_free(&base));
  CHECK(sc->deletes == dc + 1 && sc->last_deleted == VAL(20), "free base: copying keyval");
  CHECK(sd->deletes == dd + 1 && sd->last_deleted == VAL(30), "free base: MPI_COMM_DUP_FN keyval");
  CHECK(sn->deletes == dn + 1 && sn->last_deleted == VAL(40), "free base: MPI_COMM_NULL_COPY_FN keyval");
  CHECK(sz->deletes == dz + 1 && sz->last_deleted == VAL(50), "free base: flag-0 keyval");
  CHECK(sf->deletes == df + 1 && sf->last_deleted == VAL(60), "free base: freed keyval: %d deletes", sf->deletes - df);
  CHECK(se->deletes == 1, "free base: the deleted attribute was deleted again");
  CHECK_MPI(MPI_Comm_free_keyval(&kc));
  CHECK_MPI(MPI_Comm_free_keyval(&kd));
  CHECK_MPI(MPI_Comm_free_keyval(&kn));
  CHECK_MPI(MPI_Comm_free_keyval(&kz));
  CHECK_MPI(MPI_Comm_free_keyval(&ke));
  free(sc), free(sd), free(sn), free(sz), free(sf), free(se);
}

/* ---- datatypes ------------------------------------------------------------------------- */

static void type_attrs(void) {
  state_t* s = new_state("type");
  state_t* sn = new_state("type, MPI_TYPE_NULL_COPY_FN");
  state_t* sd = new_state("type, MPI_TYPE_DUP_FN");
  int k = MPI_KEYVAL_INVALID, kn = MPI_KEYVAL_INVALID, kd = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &k, s));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &kn, sn));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &kd, sd));
  s->keyval = k, sn->keyval = kn, sd->keyval = kd;
  CHECK(k != kn && k != kd && kn != kd, "keyvals %d %d %d are not distinct", k, kn, kd);

  MPI_Datatype t, u;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  void* v = NULL;
  int flag = -1;
  CHECK_MPI(MPI_Type_get_attr(t, k, &v, &flag));
  CHECK(flag == 0, "a new type has an attribute");
  CHECK_MPI(MPI_Type_set_attr(t, k, VAL(1)));
  CHECK_MPI(MPI_Type_set_attr(t, kn, VAL(2)));
  CHECK_MPI(MPI_Type_set_attr(t, kd, VAL(3)));
  CHECK_MPI(MPI_Type_get_attr(t, k, &v, &flag));
  CHECK(flag == 1 && v == VAL(1), "type attribute: flag %d value %p", flag, v);

  s->check_type = 1;
  s->type = t;
  CHECK_MPI(MPI_Type_dup(t, &u));
  CHECK(s->copies == 1 && s->last_in == VAL(1), "MPI_Type_dup: %d copies, value in %p", s->copies, s->last_in);
  CHECK(sn->copies == 0 && sd->copies == 0, "predefined copy functions called as functions");
  CHECK_MPI(MPI_Type_get_attr(u, k, &v, &flag));
  CHECK(flag == 1 && v == VAL(2), "dup: copied value: flag %d value %p", flag, v);
  CHECK_MPI(MPI_Type_get_attr(u, kn, &v, &flag));
  CHECK(flag == 0, "dup: MPI_TYPE_NULL_COPY_FN attribute copied");
  CHECK_MPI(MPI_Type_get_attr(u, kd, &v, &flag));
  CHECK(flag == 1 && v == VAL(3), "dup: MPI_TYPE_DUP_FN value: flag %d value %p", flag, v);

  /* Set again and delete. */
  s->type = u;
  CHECK_MPI(MPI_Type_set_attr(u, k, VAL(4)));
  CHECK(s->deletes == 1 && s->last_deleted == VAL(2), "set again on a type: %d deletes, value %p", s->deletes,
        s->last_deleted);
  CHECK_MPI(MPI_Type_delete_attr(u, k));
  CHECK(s->deletes == 2 && s->last_deleted == VAL(4), "type delete_attr: %d deletes, value %p", s->deletes, s->last_deleted);
  CHECK_MPI(MPI_Type_get_attr(u, k, &v, &flag));
  CHECK(flag == 0, "deleted type attribute still set");

  /* Free: delete callbacks on the type freed. */
  sd->check_type = 1;
  sd->type = u;
  CHECK_MPI(MPI_Type_free(&u));
  CHECK(u == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");
  CHECK(sd->deletes == 1 && sd->last_deleted == VAL(3), "free dup: MPI_TYPE_DUP_FN attribute: %d deletes", sd->deletes);
  CHECK(s->deletes == 2 && sn->deletes == 0, "free dup deleted attributes it did not have");

  /* A freed keyval stays usable by the attributes still attached. */
  int k2 = k;
  CHECK_MPI(MPI_Type_free_keyval(&k2));
  CHECK(k2 == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval left %d", k2);
  sn->check_type = 1;
  s->type = sn->type = sd->type = t;
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(s->deletes == 3 && s->last_deleted == VAL(1), "free: %d deletes, value %p (freed keyval)", s->deletes,
        s->last_deleted);
  CHECK(sn->deletes == 1 && sn->last_deleted == VAL(2), "free: MPI_TYPE_NULL_COPY_FN attribute");
  CHECK(sd->deletes == 2 && sd->last_deleted == VAL(3), "free: MPI_TYPE_DUP_FN attribute");

  /* Predefined datatypes cache attributes too. */
  sn->type = MPI_INT;
  CHECK_MPI(MPI_Type_set_attr(MPI_INT, kn, VAL(5)));
  CHECK_MPI(MPI_Type_get_attr(MPI_INT, kn, &v, &flag));
  CHECK(flag == 1 && v == VAL(5), "MPI_INT attribute: flag %d value %p", flag, v);
  CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, kn, &v, &flag));
  CHECK(flag == 0, "MPI_DOUBLE has MPI_INT's attribute");
  CHECK_MPI(MPI_Type_delete_attr(MPI_INT, kn));
  CHECK(sn->deletes == 2 && sn->last_deleted == VAL(5), "MPI_INT delete_attr");

  /* A failing copy callback fails MPI_Type_dup. */
  state_t* se = new_state("type, failing copy");
  int ke = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &ke, se));
  se->keyval = ke;
  se->fail_copy = 1;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
  CHECK_MPI(MPI_Type_set_attr(t, ke, VAL(6)));
  int rc = MPI_Type_dup(t, &u);
  check_class(rc, env("ATTRS_TYPE_DUP_COPY_ERROR_IS_INTERN") ? MPI_ERR_INTERN : MPI_ERR_OTHER,
              "MPI_Type_dup with a failing copy callback");
  check_text(rc, "MPI_Type_dup");
  CHECK(se->copies == 1, "failing type copy callback: %d calls", se->copies);
  if (!peer) CHECK(u == MPI_DATATYPE_NULL, "a failed MPI_Type_dup returned a datatype");
  se->fail_copy = 0;
  if (!peer) {
    /* shmpi: a failing delete callback fails MPI_Type_free, and the type stays. */
    se->fail_delete = 1;
    rc = MPI_Type_free(&t);
    check_class(rc, MPI_ERR_OTHER, "MPI_Type_free with a failing delete callback");
    CHECK(t != MPI_DATATYPE_NULL, "a failed MPI_Type_free set MPI_DATATYPE_NULL");
    CHECK_MPI(MPI_Type_get_attr(t, ke, &v, &flag));
    CHECK(flag == 1 && v == VAL(6), "attribute gone after a failed MPI_Type_free");
    se->fail_delete = 0;
  }
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(se->deletes == (peer ? 1 : 2) && se->last_deleted == VAL(6), "failing-copy keyval: %d deletes", se->deletes);

  /* Errors: datatype handles, keyvals. */
  check_bad_keyval(MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, VAL(0)), "MPI_Type_set_attr(MPI_KEYVAL_INVALID)");
  check_wrong_kind_get(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag), "MPI_Type_get_attr(MPI_TAG_UB)");
  if (!peer) {
    rc = MPI_Type_set_attr(MPI_DATATYPE_NULL, kn, VAL(0));
    check_class(rc, MPI_ERR_TYPE, "MPI_Type_set_attr(MPI_DATATYPE_NULL)");
    check_text(rc, "MPI_Type_set_attr");
  }
  CHECK_MPI(MPI_Type_free_keyval(&kn));
  CHECK_MPI(MPI_Type_free_keyval(&kd));
  CHECK_MPI(MPI_Type_free_keyval(&ke));
  free(s), free(sn), free(sd), free(se);
}

/* ---- windows --------------------------------------------------------------------------- */

static void win_attrs(void) {
  char* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

  /* The predefined attributes are still there. */
  void* v = NULL;
  int flag = -1;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
  CHECK(flag == 1 && v == base, "MPI_WIN_BASE: flag %d value %p, expected %p", flag, v, (void*)base);
  MPI_Aint* sz = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
  CHECK(flag == 1 && *sz == 64, "MPI_WIN_SIZE: flag %d", flag);
  int* iv = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &iv, &flag));
  CHECK(flag == 1 && *iv == MPI_WIN_FLAVOR_ALLOCATE, "MPI_WIN_CREATE_FLAVOR: flag %d", flag);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &iv, &flag));
  CHECK(flag == 1 && (*iv == MPI_WIN_UNIFIED || *iv == MPI_WIN_SEPARATE), "MPI_WIN_MODEL: flag %d", flag);

  state_t* s = new_state("window");
  int k = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Win_create_keyval(win_copy, win_delete, &k, s));
  s->keyval = k;
  s->check_win = 1;
  s->win = win;
  CHECK_MPI(MPI_Win_get_attr(win, k, &v, &flag));
  CHECK(flag == 0, "a new window keyval has an attribute");
  CHECK_MPI(MPI_Win_set_attr(win, k, VAL(1)));
  CHECK_MPI(MPI_Win_get_attr(win, k, &v, &flag));
  CHECK(flag == 1 && v == VAL(1), "window attribute: flag %d value %p", flag, v);
  CHECK_MPI(MPI_Win_set_attr(win, k, VAL(2)));
  CHECK(s->deletes == 1 && s->last_deleted == VAL(1), "window set again: %d deletes", s->deletes);
  CHECK_MPI(MPI_Win_delete_attr(win, k));
  CHECK(s->deletes == 2 && s->last_deleted == VAL(2), "window delete_attr: %d deletes", s->deletes);
  CHECK_MPI(MPI_Win_get_attr(win, k, &v, &flag));
  CHECK(flag == 0, "deleted window attribute still set");
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
  CHECK(flag == 1 && v == base, "MPI_WIN_BASE changed");

  /* Errors. */
  int rc = MPI_Win_set_attr(win, MPI_WIN_BASE, VAL(0));
  check_fails(rc, MPI_ERR_KEYVAL, "MPI_Win_set_attr(MPI_WIN_BASE)");
  check_text(rc, "MPI_WIN_BASE");
  check_fails(MPI_Win_delete_attr(win, MPI_WIN_SIZE), MPI_ERR_KEYVAL, "MPI_Win_delete_attr(MPI_WIN_SIZE)");
  check_wrong_kind_get(MPI_Win_get_attr(win, MPI_TAG_UB, &v, &flag), "MPI_Win_get_attr(MPI_TAG_UB)");
  check_bad_keyval(MPI_Win_set_attr(win, MPI_KEYVAL_INVALID, VAL(0)), "MPI_Win_set_attr(MPI_KEYVAL_INVALID)");
  int ck = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
  rc = MPI_Win_set_attr(win, ck, VAL(0));
  check_bad_keyval(rc, "MPI_Win_set_attr with a communicator keyval");
  check_text(rc, "communicator keyval");
  CHECK_MPI(MPI_Comm_free_keyval(&ck));

  /* A failing delete callback fails delete_attr. */
  CHECK_MPI(MPI_Win_set_attr(win, k, VAL(3)));
  s->fail_delete = 1;
  check_class(MPI_Win_delete_attr(win, k), MPI_ERR_OTHER, "MPI_Win_delete_attr with a failing delete callback");
  s->fail_delete = 0;
  if (!peer) {
    CHECK_MPI(MPI_Win_get_attr(win, k, &v, &flag));
    CHECK(flag == 1 && v == VAL(3), "window attribute gone after a failed delete");
  } else {
    CHECK_MPI(MPI_Win_set_attr(win, k, VAL(3)));
  }

  /* MPI_Win_free deletes it, with the keyval already freed. */
  int k2 = k;
  CHECK_MPI(MPI_Win_free_keyval(&k2));
  CHECK(k2 == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval left %d", k2);
  const int before = s->deletes;
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
  CHECK(s->deletes == before + 1 && s->last_deleted == VAL(3), "MPI_Win_free: %d deletes, value %p", s->deletes - before,
        s->last_deleted);
  free(s);
}

int main(int argc, char** argv) {
  peer = env("ATTRS_PEER");
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  predefined();
  comm_basics();
  type_attrs();
  win_attrs();
  comm_dup_free();
  self_at_finalize();
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  const int bad = check_after_finalize();
  for (int i = 0; i < 3; ++i) free(fin[i]);
  return bad ? 1 : 0;
}
