/* coll_comms: many communicators at once (MPI-4.1 Groups, Contexts,
 * Communicators, and Caching) and collectives on them.
 *
 * Built from MPI_COMM_WORLD: two MPI_Comm_dup generations; MPI_Comm_split into halves
 * and into odd/even ranks with keys that reverse the order, into one communicator of
 * everybody in reverse order, with MPI_UNDEFINED for every third rank (MPI_COMM_NULL),
 * and a nested split of the halves with equal keys (ties keep the parent's order);
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (one node: everybody) and with
 * MPI_UNDEFINED on odd ranks; MPI_Comm_create from a group of the even ranks (odd ranks
 * get MPI_COMM_NULL) and from a reversed group; MPI_Comm_create_group, called by the
 * members only, of the upper half in reverse order. For each, every rank knows which
 * world ranks it should hold in which order and checks MPI_Comm_rank/size,
 * MPI_Group_translate_ranks to MPI_COMM_WORLD's group (and MPI_UNDEFINED for ranks the
 * target lacks), and MPI_Comm_compare against every other communicator (IDENT,
 * CONGRUENT, SIMILAR, UNEQUAL from the member lists, as MPI_COMM_COMPARE defines them).
 *
 * Then rounds of collectives interleaved over all of them (each rank walks the same list
 * and takes part where it is a member, so several communicators are busy at a time):
 * MPI_Bcast from a rotating root, MPI_Allreduce(SUM), MPI_Allgather of world ranks and
 * MPI_Barrier, each communicator seeing every one; results are checked exactly. Twelve
 * more duplicates live at once, every third is freed and replaced (context ids reused
 * next to live ones), and an MPI_Allreduce runs on each in reverse creation order.
 *
 * Names (Naming Objects): MPI_COMM_WORLD/MPI_COMM_SELF have their predefined names, a set name
 * reads back, a duplicate does not inherit it. Attributes (Caching): a keyval with copy and
 * delete callbacks that record their arguments (old communicator, keyval, extra_state,
 * value) on MPI_Comm_dup, MPI_Comm_set_attr over an existing value, MPI_Comm_delete_attr
 * and MPI_Comm_free; MPI_Comm_split does not copy attributes; a copy callback returning
 * flag = 0 drops the attribute; MPI_COMM_NULL_COPY_FN drops, MPI_COMM_DUP_FN copies the
 * value; MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID and the attributes still attached
 * get their delete callback when their communicator is freed. MPI_TAG_UB on
 * MPI_COMM_WORLD: present, at least 32767 (Tag Values). MPI_Comm_free sets MPI_COMM_NULL.
 * Point-to-point is not used. Prints "coll_comms: OK (N checks)" on rank 0.
 * Usage: coll_comms */
#include <stdint.h>
#include <string.h>

#include "coll_util.h"

enum { MAXN = 64, MAXC = 16 };

typedef struct {
  const char* name;
  MPI_Comm c; /* MPI_COMM_NULL where this rank is not a member */
  int n;
  int m[MAXN]; /* world rank of each rank of c */
} Comm;

static Comm comms[MAXC];
static int ncomms;

static Comm* add(const char* name) {
  CHECK(ncomms < MAXC, "too many communicators");
  Comm* C = &comms[ncomms++];
  memset(C, 0, sizeof *C);
  C->name = name;
  C->c = MPI_COMM_NULL;
  return C;
}

/* The members MPI_Comm_split must produce: the ranks of the parent with my color,
 * ordered by key, ties by rank in the parent (MPI_COMM_SPLIT). rule(w, p, &key) gives the color
 * and key of world rank w, which is rank p of the parent. */
typedef int (*Rule)(int w, int p, int* key);
static void split_members(const Comm* parent, Rule rule, int my_color, Comm* out) {
  int keys[MAXN];
  out->n = 0;
  for (int p = 0; p < parent->n; ++p) {
    int key;
    if (rule(parent->m[p], p, &key) != my_color) continue;
    int pos = out->n++;
    while (pos > 0 && keys[pos - 1] > key) { /* stable insertion: ties keep parent order */
      keys[pos] = keys[pos - 1];
      out->m[pos] = out->m[pos - 1];
      --pos;
    }
    keys[pos] = key;
    out->m[pos] = parent->m[p];
  }
}
static void do_split(const Comm* parent, Rule rule, Comm* out) {
  int my_p = -1;
  for (int p = 0; p < parent->n; ++p)
    if (parent->m[p] == me) my_p = p;
  if (my_p < 0) return; /* not in the parent */
  int key;
  const int color = rule(me, my_p, &key);
  CHECK_MPI(MPI_Comm_split(parent->c, color, key, &out->c));
  if (color == MPI_UNDEFINED) {
    EXPECT(out->c == MPI_COMM_NULL, "%s: MPI_UNDEFINED color did not give MPI_COMM_NULL", out->name);
    out->n = 0;
    return;
  }
  split_members(parent, rule, color, out);
}

static int half_size(void) { return (np + 1) / 2; }
static int rule_halves(int w, int p, int* key) { (void)p; *key = -w; return w < half_size() ? 0 : 1; }
static int rule_parity(int w, int p, int* key) { (void)p; *key = np - w; return w % 2; }
static int rule_reverse(int w, int p, int* key) { (void)p; *key = np - 1 - w; return 0; }
static int rule_undef(int w, int p, int* key) { (void)p; *key = w; return w % 3 == 2 ? MPI_UNDEFINED : w % 3; }
static int rule_nested(int w, int p, int* key) { (void)w; *key = 0; return p % 2; }

static int cmp_result(const Comm* a, const Comm* b) {
  if (a->c == b->c) return MPI_IDENT;
  if (a->n != b->n) return MPI_UNEQUAL;
  if (memcmp(a->m, b->m, (size_t)a->n * sizeof(int)) == 0) return MPI_CONGRUENT;
  for (int i = 0; i < a->n; ++i) {
    int found = 0;
    for (int j = 0; j < b->n; ++j) found |= a->m[i] == b->m[j];
    if (!found) return MPI_UNEQUAL;
  }
  return MPI_SIMILAR;
}
static const char* cmp_name(int r) {
  return r == MPI_IDENT       ? "MPI_IDENT"
         : r == MPI_CONGRUENT ? "MPI_CONGRUENT"
         : r == MPI_SIMILAR   ? "MPI_SIMILAR"
         : r == MPI_UNEQUAL   ? "MPI_UNEQUAL"
                              : "?";
}

static MPI_Group world_group;

/* rank, size, translation to the world group, inter-communicator test */
static void check_comm(const Comm* C) {
  if (C->c == MPI_COMM_NULL) return;
  int r = -1, n = -1, inter = -1;
  CHECK_MPI(MPI_Comm_size(C->c, &n));
  EXPECT(n == C->n, "%s: size %d, expected %d", C->name, n, C->n);
  CHECK_MPI(MPI_Comm_rank(C->c, &r));
  EXPECT(r >= 0 && r < n && C->m[r] == me, "%s: rank %d, but that rank should be world rank %d, not %d", C->name, r,
         r >= 0 && r < n ? C->m[r] : -1, me);
  CHECK_MPI(MPI_Comm_test_inter(C->c, &inter));
  EXPECT(inter == 0, "%s: MPI_Comm_test_inter says %d", C->name, inter);
  MPI_Group g;
  CHECK_MPI(MPI_Comm_group(C->c, &g));
  int gs = -1, ranks[MAXN], out[MAXN];
  CHECK_MPI(MPI_Group_size(g, &gs));
  EXPECT(gs == C->n, "%s: group size %d", C->name, gs);
  for (int i = 0; i < n; ++i) ranks[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(g, n, ranks, world_group, out));
  for (int i = 0; i < n; ++i)
    EXPECT(out[i] == C->m[i], "%s: rank %d translates to world rank %d, expected %d", C->name, i, out[i], C->m[i]);
  /* and back: world ranks outside C translate to MPI_UNDEFINED */
  for (int i = 0; i < np; ++i) ranks[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(world_group, np, ranks, g, out));
  for (int w = 0; w < np; ++w) {
    int want = MPI_UNDEFINED;
    for (int i = 0; i < C->n; ++i)
      if (C->m[i] == w) want = i;
    EXPECT(out[w] == want, "%s: world rank %d translates to %d, expected %d", C->name, w, out[w], want);
  }
  CHECK_MPI(MPI_Group_free(&g));
  EXPECT(g == MPI_GROUP_NULL, "MPI_Group_free did not set MPI_GROUP_NULL");
}

static void check_all_compares(void) {
  for (int i = 0; i < ncomms; ++i)
    for (int j = 0; j < ncomms; ++j) {
      if (comms[i].c == MPI_COMM_NULL || comms[j].c == MPI_COMM_NULL) continue;
      int r = -1;
      CHECK_MPI(MPI_Comm_compare(comms[i].c, comms[j].c, &r));
      const int want = cmp_result(&comms[i], &comms[j]);
      EXPECT(r == want, "MPI_Comm_compare(%s, %s) = %s, expected %s", comms[i].name, comms[j].name, cmp_name(r),
             cmp_name(want));
    }
}

/* One collective on C, chosen by kind; exact results from the member list. */
static void coll_on(const Comm* C, int ci, int round, int kind) {
  if (C->c == MPI_COMM_NULL) return;
  int r;
  CHECK_MPI(MPI_Comm_rank(C->c, &r));
  switch (kind) {
    case 0: { /* Bcast from a rotating root */
      const int root = (round + ci) % C->n;
      int buf[7];
      for (int i = 0; i < 7; ++i) buf[i] = r == root ? C->m[root] * 1000 + round * 100 + ci * 10 + i : -1;
      CHECK_MPI(MPI_Bcast(buf, 7, MPI_INT, root, C->c));
      for (int i = 0; i < 7; ++i)
        EXPECT(buf[i] == C->m[root] * 1000 + round * 100 + ci * 10 + i, "%s round %d: MPI_Bcast from %d: [%d] = %d",
               C->name, round, root, i, buf[i]);
    } break;
    case 1: { /* Allreduce of world ranks */
      long long v[2] = {(long long)(me + 1) * (round + 1) + ci, 1}, s[2] = {0, 0}, want = 0;
      CHECK_MPI(MPI_Allreduce(v, s, 2, MPI_LONG_LONG, MPI_SUM, C->c));
      for (int i = 0; i < C->n; ++i) want += (long long)(C->m[i] + 1) * (round + 1) + ci;
      EXPECT(s[0] == want && s[1] == C->n, "%s round %d: MPI_Allreduce gave %lld and %lld, expected %lld and %d",
             C->name, round, s[0], s[1], want, C->n);
    } break;
    case 2: { /* Allgather: every member's world rank, in communicator order */
      int mine[2] = {me, round * 100 + ci}, all[2 * MAXN];
      CHECK_MPI(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, C->c));
      for (int i = 0; i < C->n; ++i)
        EXPECT(all[2 * i] == C->m[i] && all[2 * i + 1] == round * 100 + ci,
               "%s round %d: MPI_Allgather slot %d holds (%d, %d), expected (%d, %d)", C->name, round, i, all[2 * i],
               all[2 * i + 1], C->m[i], round * 100 + ci);
    } break;
    default:
      CHECK_MPI(MPI_Barrier(C->c));
      ++nchecks;
      break;
  }
}

/* ---- attributes ---- */
typedef struct {
  int copies, deletes;
  MPI_Comm copy_old, del_comm;
  int copy_key, del_key;
  void *copy_extra, *copy_in, *del_extra, *del_val;
} Record;
static Record rec;
static int state1, state2; /* extra_state targets */

static int copy_cb(MPI_Comm oldcomm, int keyval, void* extra, void* in, void* out, int* flag) {
  ++rec.copies;
  rec.copy_old = oldcomm, rec.copy_key = keyval, rec.copy_extra = extra, rec.copy_in = in;
  *(void**)out = (void*)((intptr_t)in + 1);
  *flag = 1;
  return MPI_SUCCESS;
}
static int copy_skip_cb(MPI_Comm oldcomm, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)out;
  ++rec.copies;
  rec.copy_old = oldcomm, rec.copy_key = keyval, rec.copy_extra = extra, rec.copy_in = in;
  *flag = 0;
  return MPI_SUCCESS;
}
static int delete_cb(MPI_Comm comm, int keyval, void* val, void* extra) {
  ++rec.deletes;
  rec.del_comm = comm, rec.del_key = keyval, rec.del_val = val, rec.del_extra = extra;
  return MPI_SUCCESS;
}

static void expect_attr(MPI_Comm c, int key, int present, intptr_t val, const char* what) {
  void* v = NULL;
  int flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(c, key, &v, &flag));
  EXPECT(flag == present, "%s: attribute %s", what, flag ? "present" : "absent");
  if (present) EXPECT((intptr_t)v == val, "%s: attribute %ld, expected %ld", what, (long)(intptr_t)v, (long)val);
}

static void attributes(MPI_Comm base) {
  int k1, k2, k3, k4;
  CHECK_MPI(MPI_Comm_create_keyval(copy_cb, delete_cb, &k1, &state1));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(copy_skip_cb, delete_cb, &k4, &state2));
  const int k1_value = k1;
  MPI_Comm a, b, c, s;
  CHECK_MPI(MPI_Comm_dup(base, &a));
  expect_attr(a, k1, 0, 0, "fresh communicator");
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_set_attr(a, k1, (void*)100));
  expect_attr(a, k1, 1, 100, "after set");
  EXPECT(rec.deletes == 0 && rec.copies == 0, "callbacks ran on the first set: %d deletes, %d copies", rec.deletes,
         rec.copies);
  /* setting again deletes the old value first (MPI_COMM_SET_ATTR) */
  CHECK_MPI(MPI_Comm_set_attr(a, k1, (void*)101));
  EXPECT(rec.deletes == 1 && rec.del_comm == a && rec.del_key == k1 && rec.del_val == (void*)100 &&
             rec.del_extra == &state1,
         "set over a value: %d delete callbacks, comm %s, key %d, value %p, extra %s", rec.deletes,
         rec.del_comm == a ? "right" : "wrong", rec.del_key, rec.del_val, rec.del_extra == &state1 ? "right" : "wrong");
  expect_attr(a, k1, 1, 101, "after the second set");
  CHECK_MPI(MPI_Comm_set_attr(a, k2, (void*)200));
  CHECK_MPI(MPI_Comm_set_attr(a, k3, (void*)300));
  CHECK_MPI(MPI_Comm_set_attr(a, k4, (void*)400));
  /* dup: k1 copied through copy_cb (value + 1), k2 dropped (NULL_COPY_FN), k3 copied as
   * is (DUP_FN), k4 dropped by its callback's flag = 0 */
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_dup(a, &b));
  EXPECT(rec.copies == 2, "MPI_Comm_dup ran %d copy callbacks, expected 2 (k1 and k4)", rec.copies);
  expect_attr(b, k1, 1, 102, "k1 on the duplicate");
  expect_attr(b, k2, 0, 0, "k2 (MPI_COMM_NULL_COPY_FN) on the duplicate");
  expect_attr(b, k3, 1, 300, "k3 (MPI_COMM_DUP_FN) on the duplicate");
  expect_attr(b, k4, 0, 0, "k4 (callback returned flag 0) on the duplicate");
  expect_attr(a, k1, 1, 101, "k1 on the original after dup");
  /* the recorded copy callback (the last one of the two) got the original's handle */
  EXPECT(rec.copy_old == a, "copy callback: oldcomm is not the communicator being duplicated");
  EXPECT((rec.copy_key == k1 && rec.copy_extra == &state1 && rec.copy_in == (void*)101) ||
             (rec.copy_key == k4 && rec.copy_extra == &state2 && rec.copy_in == (void*)400),
         "copy callback: keyval %d, extra_state and value %p do not belong together", rec.copy_key, rec.copy_in);
  /* one more dup with only k1 to pin its arguments */
  CHECK_MPI(MPI_Comm_delete_attr(b, k3));
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_dup(b, &c));
  EXPECT(rec.copies == 1 && rec.copy_old == b && rec.copy_key == k1 && rec.copy_extra == &state1 &&
             rec.copy_in == (void*)102,
         "copy callback on dup: %d calls, oldcomm %s, keyval %d, extra %s, value %p", rec.copies,
         rec.copy_old == b ? "right" : "wrong", rec.copy_key, rec.copy_extra == &state1 ? "right" : "wrong",
         rec.copy_in);
  expect_attr(c, k1, 1, 103, "k1 on the second duplicate");
  expect_attr(c, k3, 0, 0, "k3 after MPI_Comm_delete_attr on the parent");
  /* split copies no attributes and runs no callback */
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_split(a, 0, 0, &s));
  EXPECT(rec.copies == 0, "MPI_Comm_split ran %d copy callbacks", rec.copies);
  expect_attr(s, k1, 0, 0, "k1 on a split");
  expect_attr(s, k3, 0, 0, "k3 on a split");
  /* delete_attr runs the delete callback */
  CHECK_MPI(MPI_Comm_delete_attr(a, k1));
  EXPECT(rec.deletes == 1 && rec.del_comm == a && rec.del_key == k1 && rec.del_val == (void*)101 &&
             rec.del_extra == &state1,
         "MPI_Comm_delete_attr: %d delete callbacks, value %p", rec.deletes, rec.del_val);
  expect_attr(a, k1, 0, 0, "k1 after MPI_Comm_delete_attr");
  /* free_keyval: the handle becomes invalid, attached values live on until their
   * communicator is freed, which runs the delete callback with the keyval's value */
  CHECK_MPI(MPI_Comm_free_keyval(&k1));
  EXPECT(k1 == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval did not set MPI_KEYVAL_INVALID");
  memset(&rec, 0, sizeof rec);
  const MPI_Comm b_handle = b;
  CHECK_MPI(MPI_Comm_free(&b));
  EXPECT(b == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
  EXPECT(rec.deletes == 1 && rec.del_comm == b_handle && rec.del_key == k1_value && rec.del_val == (void*)102 &&
             rec.del_extra == &state1,
         "MPI_Comm_free: %d delete callbacks, comm %s, keyval %d (expected %d), value %p", rec.deletes,
         rec.del_comm == b_handle ? "right" : "wrong", rec.del_key, k1_value, rec.del_val);
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_free(&c));
  EXPECT(rec.deletes == 1 && rec.del_val == (void*)103, "freeing the second duplicate: %d delete callbacks, value %p",
         rec.deletes, rec.del_val);
  /* k4 is still on a: freeing a runs its delete callback */
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_free(&a));
  EXPECT(rec.deletes == 1 && rec.del_key == k4 && rec.del_val == (void*)400 && rec.del_extra == &state2,
         "freeing the original: %d delete callbacks, keyval %d, value %p", rec.deletes, rec.del_key, rec.del_val);
  CHECK_MPI(MPI_Comm_free(&s));
  EXPECT(a == MPI_COMM_NULL && s == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
  CHECK_MPI(MPI_Comm_free_keyval(&k2));
  CHECK_MPI(MPI_Comm_free_keyval(&k3));
  CHECK_MPI(MPI_Comm_free_keyval(&k4));
  EXPECT(k2 == MPI_KEYVAL_INVALID && k3 == MPI_KEYVAL_INVALID && k4 == MPI_KEYVAL_INVALID, "keyvals not invalidated");
  /* attributes on MPI_COMM_WORLD itself */
  int k5;
  CHECK_MPI(MPI_Comm_create_keyval(copy_cb, delete_cb, &k5, &state2));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k5, (void*)500));
  memset(&rec, 0, sizeof rec);
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
  EXPECT(rec.copies == 1 && rec.copy_old == MPI_COMM_WORLD && rec.copy_in == (void*)500,
         "dup of MPI_COMM_WORLD: %d copy callbacks, value %p", rec.copies, rec.copy_in);
  expect_attr(a, k5, 1, 501, "k5 on a duplicate of MPI_COMM_WORLD");
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k5));
  EXPECT(rec.deletes == 1 && rec.del_comm == MPI_COMM_WORLD && rec.del_val == (void*)500, "delete on MPI_COMM_WORLD");
  CHECK_MPI(MPI_Comm_free(&a));
  EXPECT(rec.deletes == 2 && rec.del_val == (void*)501, "free of the duplicate: %d deletes", rec.deletes);
  CHECK_MPI(MPI_Comm_free_keyval(&k5));
}

/* Many duplicates alive at once, freed in an interleaved order and replaced, so that
 * freed context ids are reused while their neighbours are still in use. */
static void churn(void) {
  enum { K = 12 };
  MPI_Comm d[K];
  for (int i = 0; i < K; ++i) CHECK_MPI(MPI_Comm_dup(i % 2 ? d[i - 1] : MPI_COMM_WORLD, &d[i]));
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = K - 1; i >= 0; --i) { /* reverse creation order */
      int v = (me + 1) * (i + 1 + pass), sum = 0;
      CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, d[i]));
      EXPECT(sum == np * (np + 1) / 2 * (i + 1 + pass), "duplicate %d (pass %d): sum %d", i, pass, sum);
    }
    if (pass == 0) /* free every third, make new ones in their place */
      for (int i = 0; i < K; i += 3) {
        CHECK_MPI(MPI_Comm_free(&d[i]));
        EXPECT(d[i] == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
        CHECK_MPI(MPI_Comm_dup(d[(i + 1) % K], &d[i]));
        int cmp = -1;
        CHECK_MPI(MPI_Comm_compare(d[i], d[(i + 1) % K], &cmp));
        EXPECT(cmp == MPI_CONGRUENT, "a new duplicate compares %d with its parent", cmp);
      }
  }
  for (int i = 0; i < K; ++i) CHECK_MPI(MPI_Comm_free(&d[i]));
}

static void names(Comm* dup1, MPI_Comm dup2) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
  EXPECT(strcmp(name, "MPI_COMM_WORLD") == 0 && len == (int)strlen(name), "MPI_COMM_WORLD's name is \"%s\" (%d)", name,
         len);
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
  EXPECT(strcmp(name, "MPI_COMM_SELF") == 0 && len == (int)strlen(name), "MPI_COMM_SELF's name is \"%s\" (%d)", name,
         len);
  CHECK_MPI(MPI_Comm_set_name(dup1->c, "first duplicate"));
  CHECK_MPI(MPI_Comm_get_name(dup1->c, name, &len));
  EXPECT(strcmp(name, "first duplicate") == 0 && len == 15, "set name reads back as \"%s\" (%d)", name, len);
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(dup1->c, &d));
  CHECK_MPI(MPI_Comm_get_name(d, name, &len));
  EXPECT(strcmp(name, "first duplicate") != 0 && len == (int)strlen(name),
         "a duplicate inherited the name \"%s\" (7.8: names do not propagate)", name);
  CHECK_MPI(MPI_Comm_free(&d));
  CHECK_MPI(MPI_Comm_set_name(dup2, "second duplicate"));
  CHECK_MPI(MPI_Comm_get_name(dup1->c, name, &len));
  EXPECT(strcmp(name, "first duplicate") == 0, "naming another communicator renamed this one to \"%s\"", name);
  CHECK_MPI(MPI_Comm_set_name(dup1->c, "renamed"));
  CHECK_MPI(MPI_Comm_get_name(dup1->c, name, &len));
  EXPECT(strcmp(name, "renamed") == 0 && len == 7, "renamed communicator reads \"%s\"", name);
  /* Longer than MPI_MAX_OBJECT_NAME - 1: truncated, not an error (7.8). */
  char longname[MPI_MAX_OBJECT_NAME + 40];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  CHECK_MPI(MPI_Comm_set_name(dup1->c, longname));
  CHECK_MPI(MPI_Comm_get_name(dup1->c, name, &len));
  EXPECT(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len && strncmp(name, longname, (size_t)len) == 0,
         "a long name reads back as %d characters", len);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  CHECK(np <= MAXN, "at most %d ranks", MAXN);
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  { /* MPI_TAG_UB */
    void* v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    EXPECT(flag && v != NULL && *(int*)v >= 32767, "MPI_TAG_UB: flag %d, value %d", flag, flag && v ? *(int*)v : -1);
  }
  Comm* world = add("MPI_COMM_WORLD");
  world->c = MPI_COMM_WORLD;
  world->n = np;
  for (int i = 0; i < np; ++i) world->m[i] = i;
  Comm* dup1 = add("dup(world)");
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup1->c));
  dup1->n = np;
  memcpy(dup1->m, world->m, sizeof world->m);
  Comm* dup2 = add("dup(dup(world))");
  CHECK_MPI(MPI_Comm_dup(dup1->c, &dup2->c));
  dup2->n = np;
  memcpy(dup2->m, world->m, sizeof world->m);
  Comm* halves = add("split halves, reversed");
  do_split(dup1, rule_halves, halves);
  Comm* parity = add("split odd/even, reversed");
  do_split(world, rule_parity, parity);
  Comm* reverse = add("split everybody, reversed");
  do_split(dup2, rule_reverse, reverse);
  Comm* undef = add("split with MPI_UNDEFINED");
  do_split(world, rule_undef, undef);
  Comm* nested = add("split of the halves by parity of the half rank");
  do_split(halves, rule_nested, nested);
  Comm* shared = add("split_type shared");
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared->c));
  shared->n = np; /* one node: everybody, in world order (key 0 everywhere) */
  memcpy(shared->m, world->m, sizeof world->m);
  Comm* shared_even = add("split_type shared, odd ranks MPI_UNDEFINED");
  CHECK_MPI(MPI_Comm_split_type(dup2->c, me % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, np - me, MPI_INFO_NULL,
                                &shared_even->c));
  if (me % 2) {
    EXPECT(shared_even->c == MPI_COMM_NULL, "split_type with MPI_UNDEFINED did not give MPI_COMM_NULL");
  } else {
    for (int w = (np - 1) / 2 * 2; w >= 0; w -= 2) shared_even->m[shared_even->n++] = w;
  }
  { /* MPI_Comm_create from groups */
    int ranks[MAXN], n = 0;
    for (int w = 0; w < np; w += 2) ranks[n++] = w;
    MPI_Group g;
    CHECK_MPI(MPI_Group_incl(world_group, n, ranks, &g));
    Comm* evens = add("create(even ranks)");
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &evens->c));
    if (me % 2) {
      EXPECT(evens->c == MPI_COMM_NULL, "MPI_Comm_create gave a non-member a communicator");
    } else {
      evens->n = n;
      memcpy(evens->m, ranks, sizeof ranks);
    }
    CHECK_MPI(MPI_Group_free(&g));
    for (int i = 0; i < np; ++i) ranks[i] = np - 1 - i;
    CHECK_MPI(MPI_Group_incl(world_group, np, ranks, &g));
    Comm* rev = add("create(reversed group)");
    CHECK_MPI(MPI_Comm_create(dup1->c, g, &rev->c));
    rev->n = np;
    memcpy(rev->m, ranks, sizeof ranks);
    int gcmp = -1;
    CHECK_MPI(MPI_Group_compare(world_group, g, &gcmp));
    EXPECT(gcmp == (np == 1 ? MPI_IDENT : MPI_SIMILAR), "MPI_Group_compare(world, reversed) = %d", gcmp);
    CHECK_MPI(MPI_Group_free(&g));
    /* create_group: the upper half in reverse order, called by its members only */
    const int lo = np / 2;
    n = 0;
    for (int w = np - 1; w >= lo; --w) ranks[n++] = w;
    CHECK_MPI(MPI_Group_incl(world_group, n, ranks, &g));
    Comm* upper = add("create_group(upper half, reversed)");
    if (me >= lo) {
      CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &upper->c));
      upper->n = n;
      memcpy(upper->m, ranks, sizeof ranks);
    }
    CHECK_MPI(MPI_Group_free(&g));
  }
  for (int i = 0; i < ncomms; ++i) check_comm(&comms[i]);
  check_all_compares();
  names(dup1, dup2->c);

  /* interleaved collectives: 4 rounds, every communicator sees every kind */
  for (int round = 0; round < 4; ++round)
    for (int i = 0; i < ncomms; ++i) coll_on(&comms[i], i, round, (round + i) % 4);
  attributes(halves->c);
  churn();
  /* the communicators still work after all that */
  for (int i = 0; i < ncomms; ++i) coll_on(&comms[i], i, 4, 1);

  for (int i = 1; i < ncomms; ++i) {
    if (comms[i].c == MPI_COMM_NULL) continue;
    CHECK_MPI(MPI_Comm_free(&comms[i].c));
    EXPECT(comms[i].c == MPI_COMM_NULL, "%s: MPI_Comm_free did not set MPI_COMM_NULL", comms[i].name);
  }
  CHECK_MPI(MPI_Group_free(&world_group));
  coll_finish("coll_comms");
  return 0;
}
