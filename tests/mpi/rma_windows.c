/* rma_windows: every window flavour with its attributes and exact data through it
 * (MPI-4.1 13.2): MPI_Win_allocate, MPI_Win_allocate_shared (contiguous by default,
 * including ranks of size 0, and with alloc_shared_noncontig), MPI_Win_create on heap,
 * stack, static and MPI_Alloc_mem memory, MPI_Win_create_dynamic with attach/detach;
 * for each: MPI_WIN_BASE/SIZE/DISP_UNIT/CREATE_FLAVOR/MODEL (13.2.6), MPI_Win_get_group
 * (MPI_IDENT to the communicator's group), the default name "" and set/get name (7.8),
 * the default error handler MPI_ERRORS_ARE_FATAL (13.6.1), window info (13.2.7), and
 * MPI_Win_free setting MPI_WIN_NULL. Also user window error handlers, MPI_Win_call_errhandler,
 * and the large-count (_c) calls where MPI_VERSION >= 4 (not Open MPI 4.1).
 * Addresses for dynamic windows are exchanged through a helper window (no Send/Recv).
 *
 * Info hints may be ignored (13.2.7), so everywhere a reported hint must only hold a
 * value the hint may have, and MPI_Win_set_info must not change hints it does not name;
 * with RMA_STRICT=1 (shmpi) the hints given at creation must be reported back exactly,
 * and the defaults "rar,raw,war,waw" / "same_op_no_op" must be reported. RMA_STRICT
 * also asks for MPI_WIN_UNIFIED on every window (the standard allows MPI_WIN_SEPARATE),
 * a shared MPI_Win_allocate_shared segment at the position of each size-0 rank too, and
 * that after every window is freed no shmpi file of this job is left in /dev/shm.
 *
 * Peer deviations (set by tests/peer/run_rma_peer.sh):
 *   RMA_WINDOWS_DEFAULT_NAME_SET  Open MPI 4.1 (osc pt2pt) names new windows
 *                                 "pt2pt window N"; 7.8 says MPI_Win_get_name returns
 *                                 "an empty string if no such name exists".
 *   RMA_WINDOWS_ALLOCATE_SIZES_16 MPICH 4.0.2: MPI_Win_allocate with per-rank sizes that
 *                                 are not multiples of 16 bytes (16, 24, 32, 40 at 4 ranks)
 *                                 returns a baseptr 8 bytes past MPI_WIN_BASE, and Puts
 *                                 land at MPI_WIN_BASE, i.e. in the previous rank's
 *                                 memory. The toggle doubles the sizes (all multiples of 16).
 *   RMA_WINDOWS_NONCONTIG_SIZE_ROUNDED  Open MPI 4.1 (osc sm): with alloc_shared_noncontig,
 *                                 MPI_Win_shared_query reports each segment's size rounded
 *                                 up to the page size (4096 for 16 bytes), not the size the
 *                                 rank gave (its MPI_WIN_SIZE); the toggle accepts >=.
 *   RMA_NO_CREATE_FLAVOR          skip the MPI_Win_create and dynamic windows.
 * Usage: rma_windows */
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, nranks, strict, mpi41;
static int t_default_name, t_allocate_16, t_noncontig_rounded, t_no_create;
static int left_rank, right_rank;

/* ---- helper window: an allgather of two MPI_Aint through RMA ---- */
static MPI_Win xwin = MPI_WIN_NULL;
static MPI_Aint* xslots;

/* all[k * nranks + r] = rank r's mine[k], for k < 2. */
static void allgather_aint2(const MPI_Aint mine[2], MPI_Aint* all) {
  CHECK_MPI(MPI_Win_fence(0, xwin));
  for (int r = 0; r < nranks; ++r)
    for (int k = 0; k < 2; ++k) CHECK_MPI(MPI_Put(&mine[k], 1, MPI_AINT, r, k * nranks + rank, 1, MPI_AINT, xwin));
  CHECK_MPI(MPI_Win_fence(0, xwin));
  memcpy(all, xslots, 2 * (size_t)nranks * sizeof(MPI_Aint));
}

/* ---- /dev/shm bookkeeping (RMA_STRICT) ---- */
enum { MAX_SHM = 512 };
static char shm_prefix[256] = "shmpi-";
static char shm_before[MAX_SHM][256];
static int shm_before_n = -1;

/* This job's prefix "shmpi-<uid>-<job>-" from the segment this process has mapped;
 * without one, every shmpi file counts. */
static void find_job_prefix(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return;
  char line[1024];
  while (fgets(line, sizeof line, maps)) {
    char* p = strstr(line, "/dev/shm/shmpi-");
    if (!p) continue;
    p += strlen("/dev/shm/");
    p[strcspn(p, " \n")] = '\0';
    char* dash = strrchr(p, '-');
    if (dash && (size_t)(dash - p + 1) < sizeof shm_prefix) {
      memcpy(shm_prefix, p, (size_t)(dash - p + 1));
      shm_prefix[dash - p + 1] = '\0';
    }
    break;
  }
  fclose(maps);
}

static int list_shm(char out[][256]) {
  int n = 0;
  DIR* d = opendir("/dev/shm");
  if (!d) return 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL && n < MAX_SHM) {
    if (strncmp(e->d_name, shm_prefix, strlen(shm_prefix)) == 0) {
      snprintf(out[n], 256, "%s", e->d_name);
      ++n;
    }
  }
  closedir(d);
  return n;
}

/* A file of this job that was not there before any window existed, or NULL. */
static const char* leaked_shm(void) {
  static char now[MAX_SHM][256];
  const int n = list_shm(now);
  for (int i = 0; i < n; ++i) {
    int seen = 0;
    for (int j = 0; j < shm_before_n && !seen; ++j) seen = strcmp(now[i], shm_before[j]) == 0;
    if (!seen) return now[i];
  }
  return NULL;
}

/* ---- checks shared by all flavours ---- */
static int check_attrs(MPI_Win w, const char* what, void* base, MPI_Aint size, int disp_unit, int flavor) {
  int flag = 0;
  void* b = (void*)&flag; /* anything but the expected value */
  CHECK_MPI(MPI_Win_get_attr(w, MPI_WIN_BASE, &b, &flag));
  CHECK(flag, "%s: MPI_WIN_BASE not set", what);
  CHECK(b == base, "%s: MPI_WIN_BASE %p, expected %p", what, b, base);
  MPI_Aint* sz = NULL;
  flag = 0;
  CHECK_MPI(MPI_Win_get_attr(w, MPI_WIN_SIZE, &sz, &flag));
  CHECK(flag && sz != NULL, "%s: MPI_WIN_SIZE not set", what);
  CHECK(*sz == size, "%s: MPI_WIN_SIZE %ld, expected %ld", what, (long)*sz, (long)size);
  int* du = NULL;
  flag = 0;
  CHECK_MPI(MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &du, &flag));
  CHECK(flag && du != NULL, "%s: MPI_WIN_DISP_UNIT not set", what);
  CHECK(*du == disp_unit, "%s: MPI_WIN_DISP_UNIT %d, expected %d", what, *du, disp_unit);
  int* fl = NULL;
  flag = 0;
  CHECK_MPI(MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
  CHECK(flag && fl != NULL, "%s: MPI_WIN_CREATE_FLAVOR not set", what);
  CHECK(*fl == flavor, "%s: MPI_WIN_CREATE_FLAVOR %d, expected %d", what, *fl, flavor);
  int* model = NULL;
  flag = 0;
  CHECK_MPI(MPI_Win_get_attr(w, MPI_WIN_MODEL, &model, &flag));
  CHECK(flag && model != NULL, "%s: MPI_WIN_MODEL not set", what);
  CHECK(*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE, "%s: MPI_WIN_MODEL %d is neither model", what, *model);
  if (strict) CHECK(*model == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL is not MPI_WIN_UNIFIED", what);
  return *model;
}

static void check_group(MPI_Win w, const char* what) {
  MPI_Group wg, cg;
  int result = -1;
  CHECK_MPI(MPI_Win_get_group(w, &wg));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &cg));
  CHECK_MPI(MPI_Group_compare(wg, cg, &result));
  CHECK(result == MPI_IDENT, "%s: MPI_Group_compare(window group, world group) = %d, expected MPI_IDENT", what, result);
  int gsize = -1, grank = -1;
  CHECK_MPI(MPI_Group_size(wg, &gsize));
  CHECK_MPI(MPI_Group_rank(wg, &grank));
  CHECK(gsize == nranks && grank == rank, "%s: window group size %d rank %d", what, gsize, grank);
  CHECK_MPI(MPI_Group_free(&wg));
  CHECK_MPI(MPI_Group_free(&cg));
  CHECK(wg == MPI_GROUP_NULL, "MPI_Group_free did not set MPI_GROUP_NULL");
}

static void check_name(MPI_Win w, const char* what, int default_may_be_set) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  memset(name, 'x', sizeof name);
  CHECK_MPI(MPI_Win_get_name(w, name, &len));
  if (!default_may_be_set)
    CHECK(len == 0 && name[0] == '\0', "%s: default window name \"%.*s\" (length %d), expected \"\"", what,
          MPI_MAX_OBJECT_NAME - 1, name, len);
  char want[MPI_MAX_OBJECT_NAME];
  snprintf(want, sizeof want, "rma_windows %s", what);
  CHECK_MPI(MPI_Win_set_name(w, want));
  CHECK_MPI(MPI_Win_get_name(w, name, &len));
  CHECK(len == (int)strlen(want) && strcmp(name, want) == 0, "%s: MPI_Win_get_name gave \"%s\" (%d)", what, name, len);
  /* Longer than MPI_MAX_OBJECT_NAME - 1: truncated (7.8). */
  char longname[MPI_MAX_OBJECT_NAME + 40];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  CHECK_MPI(MPI_Win_set_name(w, longname));
  CHECK_MPI(MPI_Win_get_name(w, name, &len));
  CHECK(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len && strncmp(name, longname, (size_t)len) == 0,
        "%s: a long name came back with length %d", what, len);
  CHECK_MPI(MPI_Win_set_name(w, want));
}

static void check_default_errhandler(MPI_Win w, const char* what) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Win_get_errhandler(w, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL, "%s: a new window's error handler is not MPI_ERRORS_ARE_FATAL", what);
  CHECK_MPI(MPI_Errhandler_free(&eh));
}

/* The value of key in info, or NULL if absent. */
static const char* info_value(MPI_Info info, const char* key, char* buf, int buflen) {
  int flag = 0;
#if MPI_VERSION >= 4
  int len = buflen;
  CHECK_MPI(MPI_Info_get_string(info, key, &len, buf, &flag));
  CHECK(!flag || len <= buflen, "info value of %s longer than %d", key, buflen);
#else
  CHECK_MPI(MPI_Info_get(info, key, buflen - 1, buf, &flag));
#endif
  return flag ? buf : NULL;
}

/* Same comma-separated tokens, in any order. */
static int same_tokens(const char* a, const char* b) {
  char x[256], y[256];
  snprintf(x, sizeof x, "%s", a);
  snprintf(y, sizeof y, "%s", b);
  int nx = 0, ny = 0;
  for (char* s = strtok(x, ","); s; s = strtok(NULL, ",")) {
    ++nx;
    if (!strstr(b, s)) return 0;
  }
  for (char* s = strtok(y, ","); s; s = strtok(NULL, ",")) ++ny;
  return nx == ny;
}

static const char* DEFAULT_ORDERING = "rar,raw,war,waw";

/* Window created without hints: reported accumulate hints hold their defaults. */
static void check_default_info(MPI_Win w, const char* what) {
  MPI_Info info = MPI_INFO_NULL;
  char v[256];
  CHECK_MPI(MPI_Win_get_info(w, &info));
  CHECK(info != MPI_INFO_NULL, "%s: MPI_Win_get_info returned MPI_INFO_NULL", what);
  const char* ord = info_value(info, "accumulate_ordering", v, sizeof v);
  if (ord) CHECK(same_tokens(ord, DEFAULT_ORDERING), "%s: default accumulate_ordering \"%s\"", what, ord);
  if (strict) CHECK(ord && strcmp(ord, DEFAULT_ORDERING) == 0, "%s: accumulate_ordering not reported as default", what);
  const char* ops = info_value(info, "accumulate_ops", v, sizeof v);
  if (ops) CHECK(strcmp(ops, "same_op_no_op") == 0, "%s: default accumulate_ops \"%s\"", what, ops);
  if (strict) CHECK(ops != NULL, "%s: accumulate_ops not reported", what);
  int nkeys = -1;
  CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys >= 0, "%s: %d info keys", what, nkeys);
  for (int i = 0; i < nkeys; ++i) {
    char key[MPI_MAX_INFO_KEY + 1];
    CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    CHECK(key[0] != '\0', "%s: info key %d is empty", what, i);
  }
  CHECK_MPI(MPI_Info_free(&info));
  CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
}

/* Each rank writes value(rank, i) into its right neighbour's window (whole window, the
 * last element by itself at its scaled displacement), checks what its left neighbour
 * wrote, and reads back what it wrote with MPI_Get. Fence synchronization. */
static double value(int r, int i) { return r * 1000.0 + i + 0.25; }

static void fence_put_get(MPI_Win w, const char* what, const double* mine, int my_n, int right_n, int du) {
  double src[256], back[256];
  CHECK(right_n <= 256 && my_n <= 256, "window too large for the test buffers");
  for (int i = 0; i < right_n; ++i) {
    src[i] = value(rank, i);
    back[i] = -1.0;
  }
  const MPI_Aint per = (MPI_Aint)sizeof(double) / du; /* displacement units per double */
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w));
  if (right_n > 0) {
    if (right_n > 1) CHECK_MPI(MPI_Put(src, right_n - 1, MPI_DOUBLE, right_rank, 0, right_n - 1, MPI_DOUBLE, w));
    CHECK_MPI(MPI_Put(src + right_n - 1, 1, MPI_DOUBLE, right_rank, (right_n - 1) * per, 1, MPI_DOUBLE, w));
  }
  CHECK_MPI(MPI_Win_fence(0, w));
  for (int i = 0; i < my_n; ++i)
    CHECK(mine[i] == value(left_rank, i), "%s: element %d is %g after the fence, expected %g from rank %d", what, i,
          mine[i], value(left_rank, i), left_rank);
  if (right_n > 0) CHECK_MPI(MPI_Get(back, right_n, MPI_DOUBLE, right_rank, 0, right_n, MPI_DOUBLE, w));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));
  for (int i = 0; i < right_n; ++i)
    CHECK(back[i] == value(rank, i), "%s: MPI_Get of element %d from rank %d gave %g, expected %g", what, i, right_rank,
          back[i], value(rank, i));
}

static void free_window(MPI_Win* w, const char* what) {
  CHECK_MPI(MPI_Win_free(w));
  CHECK(*w == MPI_WIN_NULL, "%s: MPI_Win_free did not set MPI_WIN_NULL", what);
}

/* r + 2 doubles: sizes differ per rank and are not all multiples of 16 bytes. */
static int elems_allocate(int r) { return t_allocate_16 ? 2 * (r + 2) : r + 2; }

static void test_allocate(void) {
  const char* what = "MPI_Win_allocate";
  double* base = NULL;
  MPI_Win w;
  const int n = elems_allocate(rank);
  CHECK_MPI(MPI_Win_allocate(n * (MPI_Aint)sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
  CHECK(base != NULL, "%s: null base for %d bytes", what, n * (int)sizeof(double));
  for (int i = 0; i < n; ++i) base[i] = -2.0;
  check_attrs(w, what, base, n * (MPI_Aint)sizeof(double), sizeof(double), MPI_WIN_FLAVOR_ALLOCATE);
  check_group(w, what);
  check_name(w, what, 0);
  check_default_errhandler(w, what);
  check_default_info(w, what);
  fence_put_get(w, what, base, n, elems_allocate(right_rank), sizeof(double));
  free_window(&w, what);
}

/* Contiguous shared windows: size 0 at rank 0 and at every rank r with r % 3 == 2. */
static int elems_shared(int r) { return (r == 0 || r % 3 == 2) ? 0 : r + 1; }

static void store_sync_begin(MPI_Win w) { CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, w)); }

/* Load/store on shared windows in the unified model: the MPI_Win_sync, barrier,
 * MPI_Win_sync idiom of the examples in 13.7. */
static void store_sync_publish(MPI_Win w) {
  CHECK_MPI(MPI_Win_sync(w));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(w));
}

static void test_allocate_shared(int noncontig) {
  const char* what = noncontig ? "MPI_Win_allocate_shared noncontig" : "MPI_Win_allocate_shared";
  double* base = NULL;
  MPI_Win w;
  MPI_Info info = MPI_INFO_NULL;
  if (noncontig) {
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
  }
  const int n = elems_shared(rank);
#if MPI_VERSION >= 4
  if (noncontig) /* the large-count variant (MPI-4.0) */
    CHECK_MPI(MPI_Win_allocate_shared_c(n * (MPI_Aint)sizeof(double), (MPI_Aint)sizeof(double), info, MPI_COMM_WORLD,
                                        &base, &w));
  else
#endif
    CHECK_MPI(MPI_Win_allocate_shared(n * (MPI_Aint)sizeof(double), sizeof(double), info, MPI_COMM_WORLD, &base, &w));
  if (info != MPI_INFO_NULL) CHECK_MPI(MPI_Info_free(&info));
  const int model = check_attrs(w, what, base, n * (MPI_Aint)sizeof(double), sizeof(double), MPI_WIN_FLAVOR_SHARED);
  check_group(w, what);
  check_name(w, what, 0);
  check_default_errhandler(w, what);
  if (!noncontig) check_default_info(w, what);

  /* Every rank's segment through MPI_Win_shared_query. */
  double* seg[64];
  MPI_Aint seg_size[64];
  CHECK(nranks <= 64, "too many ranks");
  int first_nonzero = -1;
  for (int r = 0; r < nranks; ++r) {
    MPI_Aint qsize = -1;
    int qdu = -1;
    seg[r] = NULL;
    CHECK_MPI(MPI_Win_shared_query(w, r, &qsize, &qdu, &seg[r]));
    const MPI_Aint want = elems_shared(r) * (MPI_Aint)sizeof(double);
    CHECK(qsize == want || (noncontig && t_noncontig_rounded && qsize >= want),
          "%s: rank %d's segment size %ld, expected %ld", what, r, (long)qsize, (long)want);
    CHECK(qdu == (int)sizeof(double), "%s: rank %d's disp_unit %d", what, r, qdu);
    if (qsize > 0) CHECK(seg[r] != NULL, "%s: rank %d's segment has size %ld and a null pointer", what, r, (long)qsize);
    if (r == rank && n > 0) CHECK(seg[r] == base, "%s: own segment %p, base %p", what, (void*)seg[r], (void*)base);
    seg_size[r] = qsize;
    if (qsize > 0 && first_nonzero < 0) first_nonzero = r;
#if MPI_VERSION >= 4
    MPI_Aint csize = -1, cdu = -1;
    double* cp = NULL;
    CHECK_MPI(MPI_Win_shared_query_c(w, r, &csize, &cdu, &cp));
    CHECK(csize == qsize && cdu == qdu && cp == seg[r], "%s: MPI_Win_shared_query_c(%d) gave %ld %ld %p, not %ld %d %p",
          what, r, (long)csize, (long)cdu, (void*)cp, (long)qsize, qdu, (void*)seg[r]);
#endif
  }
  if (!noncontig) {
    /* 13.2.3: "the first address in the memory segment of process i is consecutive
     * with the last address in the memory segment of process i-1". */
    int prev = -1;
    for (int r = 0; r < nranks; ++r) {
      if (elems_shared(r) == 0) continue;
      if (prev >= 0)
        CHECK(seg[r] == seg[prev] + elems_shared(prev), "%s: rank %d's segment %p does not follow rank %d's (%p + %d)",
              what, r, (void*)seg[r], prev, (void*)seg[prev], elems_shared(prev));
      prev = r;
    }
    if (strict)
      for (int r = 1; r < nranks; ++r)
        CHECK(seg[r] == seg[r - 1] + elems_shared(r - 1), "%s: rank %d's segment %p is not at rank %d's end", what, r,
              (void*)seg[r], r - 1);
  }
  /* MPI_PROC_NULL: the lowest rank with size > 0. */
  if (first_nonzero >= 0) {
    MPI_Aint qsize = -1;
    int qdu = -1;
    double* p = NULL;
    CHECK_MPI(MPI_Win_shared_query(w, MPI_PROC_NULL, &qsize, &qdu, &p));
    CHECK(p == seg[first_nonzero] && qsize == seg_size[first_nonzero] && qdu == (int)sizeof(double),
          "%s: MPI_Win_shared_query(MPI_PROC_NULL) gave %p size %ld, expected rank %d's %p", what, (void*)p,
          (long)qsize, first_nonzero, (void*)seg[first_nonzero]);
  }

  /* Load/store through the queried pointers (unified model only: 13.2.3 leaves the
   * separate model undefined): contiguous, each rank fills its own segment; noncontig,
   * each rank fills its right neighbour's. Then everyone reads every segment both by
   * load and by MPI_Get. */
  if (model == MPI_WIN_UNIFIED) {
    store_sync_begin(w);
    const int filler_of_right = noncontig;
    const int target = filler_of_right ? right_rank : rank;
    for (int i = 0; i < elems_shared(target); ++i) seg[target][i] = value(rank, i);
    store_sync_publish(w);
    for (int r = 0; r < nranks; ++r) {
      const int writer = filler_of_right ? (r - 1 + nranks) % nranks : r;
      double got[256];
      const int rn = elems_shared(r);
      for (int i = 0; i < rn; ++i) {
        CHECK(seg[r][i] == value(writer, i), "%s: load of rank %d's element %d gave %g, expected %g", what, r, i,
              seg[r][i], value(writer, i));
        got[i] = -1.0;
      }
      if (rn > 0) {
        CHECK_MPI(MPI_Get(got, rn, MPI_DOUBLE, r, 0, rn, MPI_DOUBLE, w));
        CHECK_MPI(MPI_Win_flush(r, w));
        for (int i = 0; i < rn; ++i)
          CHECK(got[i] == value(writer, i), "%s: MPI_Get of rank %d's element %d gave %g, expected %g", what, r, i,
                got[i], value(writer, i));
      }
    }
    CHECK_MPI(MPI_Win_unlock_all(w));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  }
  fence_put_get(w, what, base, n, elems_shared(right_rank), sizeof(double));
  free_window(&w, what);
}

/* MPI_Win_create: each rank exposes memory of another kind, with its own disp_unit:
 * rank r uses kind (r + shift) % 4. Two windows (shift 0 and 2) cover every kind at
 * any number of ranks from 2. */
enum { CREATE_N = 12 };
static const char* const kind_name[4] = {"heap", "stack", "static memory", "MPI_Alloc_mem memory"};
static const int kind_du[4] = {1, 4, 8, 8};
static double static_mem[CREATE_N];

static void test_create(int shift, double* stack_mem) {
  const int kind = (rank + shift) % 4, right_kind = (right_rank + shift) % 4;
  char what[96];
  snprintf(what, sizeof what, "MPI_Win_create on %s", kind_name[kind]);
  double* mem = NULL;
  if (kind == 0) mem = malloc(CREATE_N * sizeof(double));
  if (kind == 1) mem = stack_mem;
  if (kind == 2) mem = static_mem;
  if (kind == 3) CHECK_MPI(MPI_Alloc_mem(CREATE_N * (MPI_Aint)sizeof(double), MPI_INFO_NULL, &mem));
  CHECK(mem != NULL, "%s: no memory", what);
  for (int i = 0; i < CREATE_N; ++i) mem[i] = -3.0;
  MPI_Win w;
  CHECK_MPI(MPI_Win_create(mem, CREATE_N * (MPI_Aint)sizeof(double), kind_du[kind], MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  check_attrs(w, what, mem, CREATE_N * (MPI_Aint)sizeof(double), kind_du[kind], MPI_WIN_FLAVOR_CREATE);
  check_group(w, what);
  check_name(w, what, t_default_name);
  check_default_errhandler(w, what);
  check_default_info(w, what);
  fence_put_get(w, what, mem, CREATE_N, CREATE_N, kind_du[right_kind]);
  free_window(&w, what);
  if (kind == 0) free(mem);
  if (kind == 3) CHECK_MPI(MPI_Free_mem(mem));
}

static void test_create_all(void) {
  double stack_mem[CREATE_N]; /* lives as long as both windows */
  test_create(0, stack_mem);
  test_create(2, stack_mem);
}

/* Dynamic window: two regions attached, addresses exchanged, the right neighbour
 * writes both with passive-target RMA; one region is swapped for a new one. */
static void dyn_round(MPI_Win w, const char* what, int* regions[2], int sizes[2], int round) {
  MPI_Aint mine[2], theirs[2][64]; /* theirs[k][r]: rank r's region k */
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < sizes[k]; ++i) regions[k][i] = -1;
    CHECK_MPI(MPI_Get_address(regions[k], &mine[k]));
  }
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w)); /* the stores reach the public copy */
  CHECK_MPI(MPI_Win_unlock(rank, w));
  MPI_Aint all[2 * 64];
  allgather_aint2(mine, all);
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < nranks; ++r) theirs[k][r] = all[k * nranks + r];
  /* sizes are the same on every rank */
  int src[64], back[64];
  CHECK_MPI(MPI_Win_lock_all(0, w));
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < sizes[k]; ++i) src[i] = rank * 100000 + round * 1000 + k * 100 + i;
    CHECK_MPI(MPI_Put(src, sizes[k], MPI_INT, right_rank, theirs[k][right_rank], sizes[k], MPI_INT, w));
    CHECK_MPI(MPI_Win_flush(right_rank, w));
    memset(back, 0, sizeof back);
    /* the last element alone, addressed by its absolute address */
    CHECK_MPI(MPI_Get(back, 1, MPI_INT, right_rank, theirs[k][right_rank] + (MPI_Aint)((sizes[k] - 1) * sizeof(int)), 1,
                      MPI_INT, w));
    CHECK_MPI(MPI_Win_flush(right_rank, w));
    CHECK(back[0] == src[sizes[k] - 1], "%s round %d: MPI_Get of the last element of region %d gave %d, expected %d",
          what, round, k, back[0], src[sizes[k] - 1]);
  }
  CHECK_MPI(MPI_Win_unlock_all(w));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w)); /* sync own public and private copies */
  CHECK_MPI(MPI_Win_unlock(rank, w));
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < sizes[k]; ++i) {
      const int want = left_rank * 100000 + round * 1000 + k * 100 + i;
      CHECK(regions[k][i] == want, "%s round %d: region %d element %d is %d, expected %d", what, round, k, i,
            regions[k][i], want);
    }
}

static void test_dynamic(void) {
  const char* what = "MPI_Win_create_dynamic";
  MPI_Win w;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  check_attrs(w, what, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  check_group(w, what);
  check_name(w, what, t_default_name);
  check_default_errhandler(w, what);
  check_default_info(w, what);
  static int static_region[8];
  int* heap_a = malloc(16 * sizeof(int));
  int* heap_b = malloc(24 * sizeof(int));
  CHECK(heap_a && heap_b, "malloc");
  int* regions[2] = {heap_a, static_region};
  int sizes[2] = {16, 8};
  CHECK_MPI(MPI_Win_attach(w, heap_a, 16 * sizeof(int)));
  CHECK_MPI(MPI_Win_attach(w, static_region, sizeof static_region));
  dyn_round(w, what, regions, sizes, 0);
  /* Swap the heap region for another one. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_detach(w, heap_a));
  CHECK_MPI(MPI_Win_attach(w, heap_b, 24 * sizeof(int)));
  regions[0] = heap_b;
  sizes[0] = 24;
  dyn_round(w, what, regions, sizes, 1);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  /* The attributes do not change with attached memory. */
  check_attrs(w, what, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  CHECK_MPI(MPI_Win_detach(w, heap_b));
  CHECK_MPI(MPI_Win_detach(w, static_region));
  free_window(&w, what);
  free(heap_a);
  free(heap_b);
}

static void test_errhandlers(MPI_Win w);

/* Info: hints given at creation, MPI_Win_set_info leaving other hints alone. Then the
 * same window serves the error handler tests. */
static void test_info(void) {
  const char* what = "info";
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "none"));
  CHECK_MPI(MPI_Info_set(info, "accumulate_ops", "same_op"));
  int* base = NULL;
  MPI_Win w;
  CHECK_MPI(MPI_Win_allocate(4 * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &base, &w));
  CHECK_MPI(MPI_Info_free(&info));
  MPI_Info used = MPI_INFO_NULL;
  char v1[256], v2[256];
  CHECK_MPI(MPI_Win_get_info(w, &used));
  const char* ord = info_value(used, "accumulate_ordering", v1, sizeof v1);
  const char* ops = info_value(used, "accumulate_ops", v2, sizeof v2);
  /* A hint is either used (reported as given) or ignored (reported as its default,
   * which is at least as strong here). */
  if (ord)
    CHECK(strcmp(ord, "none") == 0 || same_tokens(ord, DEFAULT_ORDERING), "%s: accumulate_ordering \"%s\"", what, ord);
  if (ops)
    CHECK(strcmp(ops, "same_op") == 0 || strcmp(ops, "same_op_no_op") == 0, "%s: accumulate_ops \"%s\"", what, ops);
  if (strict) {
    CHECK(ord && strcmp(ord, "none") == 0, "%s: accumulate_ordering=none given at creation, reported \"%s\"", what,
          ord ? ord : "(absent)");
    CHECK(ops && strcmp(ops, "same_op") == 0, "%s: accumulate_ops=same_op given at creation, reported \"%s\"", what,
          ops ? ops : "(absent)");
  }
  char ord_before[256] = "";
  const int had_ord = ord != NULL;
  if (ord) snprintf(ord_before, sizeof ord_before, "%s", ord);
  CHECK_MPI(MPI_Info_free(&used));

  /* 13.2.7: set_info "has no effect on previously set or defaulted hints that are not
   * specified by info". */
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "accumulate_ops", "same_op_no_op"));
  CHECK_MPI(MPI_Win_set_info(w, info));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Win_get_info(w, &used));
  ord = info_value(used, "accumulate_ordering", v1, sizeof v1);
  ops = info_value(used, "accumulate_ops", v2, sizeof v2);
  CHECK((ord != NULL) == had_ord && (!ord || strcmp(ord, ord_before) == 0),
        "%s: MPI_Win_set_info(accumulate_ops) changed accumulate_ordering from \"%s\" to \"%s\"", what,
        had_ord ? ord_before : "(absent)", ord ? ord : "(absent)");
  if (ops)
    CHECK(strcmp(ops, "same_op") == 0 || strcmp(ops, "same_op_no_op") == 0, "%s: accumulate_ops \"%s\" after set_info",
          what, ops);
  CHECK_MPI(MPI_Info_free(&used));
  /* An empty info changes nothing either. */
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Win_set_info(w, info));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Win_get_info(w, &used));
  ord = info_value(used, "accumulate_ordering", v1, sizeof v1);
  CHECK((ord != NULL) == had_ord && (!ord || strcmp(ord, ord_before) == 0),
        "%s: MPI_Win_set_info(empty) changed accumulate_ordering", what);
  CHECK_MPI(MPI_Info_free(&used));
  test_errhandlers(w);
  free_window(&w, what);
}

/* ---- user error handlers on windows ---- */
static int eh_calls;
static int eh_code;
static MPI_Win eh_win;

static void win_handler(MPI_Win* win, int* code, ...) {
  ++eh_calls;
  eh_code = *code;
  eh_win = *win;
}

static void test_errhandlers(MPI_Win w) {
  const char* what = "error handlers";
  MPI_Errhandler mine, got = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Win_create_errhandler(win_handler, &mine));
  CHECK_MPI(MPI_Win_set_errhandler(w, mine));
  CHECK_MPI(MPI_Win_get_errhandler(w, &got));
  CHECK(got == mine, "%s: MPI_Win_get_errhandler did not return the handler just set", what);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK_MPI(MPI_Errhandler_free(&mine)); /* still attached: stays usable */
  CHECK(mine == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set MPI_ERRHANDLER_NULL");

  /* MPI_Win_call_errhandler invokes it with the window and the code, returns success. */
  CHECK_MPI(MPI_Win_call_errhandler(w, MPI_ERR_OTHER));
  CHECK(eh_calls == 1 && eh_code == MPI_ERR_OTHER && eh_win == w, "%s: call_errhandler: calls %d code %d", what,
        eh_calls, eh_code);

  /* A real error on the window: the handler gets the code the call returns. */
  int v = 1;
  CHECK_MPI(MPI_Win_lock_all(0, w));
  const int rc = MPI_Put(&v, 1, MPI_INT, nranks + 3, 0, 1, MPI_INT, w);
  CHECK(rc != MPI_SUCCESS, "%s: MPI_Put to rank %d succeeded", what, nranks + 3);
  CHECK(eh_calls == 2, "%s: the handler was called %d times, expected 2", what, eh_calls);
  CHECK(eh_code == rc && eh_win == w, "%s: handler got code %d, the call returned %d", what, eh_code, rc);
  int cls = -1;
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RANK, "%s: class %d, expected MPI_ERR_RANK", what, cls);
  CHECK_MPI(MPI_Win_unlock_all(w));

  /* Back to predefined handlers. */
  CHECK_MPI(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Win_get_errhandler(w, &got));
  CHECK(got == MPI_ERRORS_RETURN, "%s: MPI_ERRORS_RETURN not returned by get_errhandler", what);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK_MPI(MPI_Win_call_errhandler(w, MPI_ERR_OTHER));
  CHECK(eh_calls == 2, "%s: the user handler ran after MPI_ERRORS_RETURN was set", what);
}

#if MPI_VERSION >= 4
/* Large-count variants (MPI-4.0). */
static void test_large_count(void) {
  const char* what = "MPI_Win_allocate_c";
  double* base = NULL;
  MPI_Win w;
  CHECK_MPI(MPI_Win_allocate_c(6 * (MPI_Aint)sizeof(double), (MPI_Aint)sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &base, &w));
  check_attrs(w, what, base, 6 * (MPI_Aint)sizeof(double), sizeof(double), MPI_WIN_FLAVOR_ALLOCATE);
  for (int i = 0; i < 6; ++i) base[i] = 0.0;
  double src[6], back[6];
  for (int i = 0; i < 6; ++i) {
    src[i] = value(rank, i);
    back[i] = -1.0;
  }
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w));
  CHECK_MPI(MPI_Put_c(src, (MPI_Count)6, MPI_DOUBLE, right_rank, 0, (MPI_Count)6, MPI_DOUBLE, w));
  CHECK_MPI(MPI_Win_fence(0, w));
  for (int i = 0; i < 6; ++i) CHECK(base[i] == value(left_rank, i), "%s: MPI_Put_c element %d is %g", what, i, base[i]);
  CHECK_MPI(MPI_Get_c(back, (MPI_Count)6, MPI_DOUBLE, right_rank, 0, (MPI_Count)6, MPI_DOUBLE, w));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));
  for (int i = 0; i < 6; ++i) CHECK(back[i] == value(rank, i), "%s: MPI_Get_c element %d is %g", what, i, back[i]);
  free_window(&w, what);

  if (!t_no_create) {
    what = "MPI_Win_create_c";
    double mem[5];
    for (int i = 0; i < 5; ++i) mem[i] = 0.0;
    CHECK_MPI(MPI_Win_create_c(mem, 5 * (MPI_Aint)sizeof(double), (MPI_Aint)4, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    check_attrs(w, what, mem, 5 * (MPI_Aint)sizeof(double), 4, MPI_WIN_FLAVOR_CREATE);
    fence_put_get(w, what, mem, 5, 5, 4);
    free_window(&w, what);
  }
}
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  CHECK(nranks <= 64, "at most 64 ranks");
  strict = getenv("RMA_STRICT") != NULL;
  t_default_name = getenv("RMA_WINDOWS_DEFAULT_NAME_SET") != NULL;
  t_allocate_16 = getenv("RMA_WINDOWS_ALLOCATE_SIZES_16") != NULL;
  t_noncontig_rounded = getenv("RMA_WINDOWS_NONCONTIG_SIZE_ROUNDED") != NULL;
  t_no_create = getenv("RMA_NO_CREATE_FLAVOR") != NULL;
  int version = 0, subversion = 0;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  mpi41 = version > 4 || (version == 4 && subversion >= 1);
  left_rank = (rank - 1 + nranks) % nranks;
  right_rank = (rank + 1) % nranks;
  /* Window errors go to MPI_ERRORS_ARE_FATAL (the windows' default); the world
   * communicator returns, which must not leak into new windows (9.3). */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

  if (strict && rank == 0) {
    find_job_prefix();
    shm_before_n = list_shm(shm_before);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* 2 * nranks slots: a multiple of 16 bytes (see RMA_WINDOWS_ALLOCATE_SIZES_16). */
  CHECK_MPI(MPI_Win_allocate(2 * nranks * (MPI_Aint)sizeof(MPI_Aint), sizeof(MPI_Aint), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &xslots, &xwin));

  test_allocate();
  test_allocate_shared(0);
  test_allocate_shared(1);
  if (!t_no_create) {
    test_create_all();
    test_dynamic();
  }
  test_info();
#if MPI_VERSION >= 4
  test_large_count();
#endif
  if (mpi41) {
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Win_get_name(MPI_WIN_NULL, name, &len));
    CHECK(strcmp(name, "MPI_WIN_NULL") == 0 && len == (int)strlen("MPI_WIN_NULL"),
          "MPI_Win_get_name(MPI_WIN_NULL) gave \"%s\" (%d)", name, len);
  }
  free_window(&xwin, "helper window");

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (strict && rank == 0) {
    /* Give a broker that unlinks after MPI_Win_free returns a moment. */
    const char* left = leaked_shm();
    for (int i = 0; left && i < 40; ++i) {
      usleep(50000);
      left = leaked_shm();
    }
    CHECK(left == NULL, "%s left in /dev/shm after every window was freed", left);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
