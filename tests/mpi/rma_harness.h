/* The harness the rma_*.c tests share: window flavours and synchronization modes.
 * Standard MPI C, included by each test (it defines the per-test statics `me` and
 * `nranks` and the static window memory, so include it once per program, after check.h). */
#ifndef SHMPI_TESTS_RMA_HARNESS_H
#define SHMPI_TESTS_RMA_HARNESS_H

#include <stdint.h>
#include <string.h>

#include "check.h"

enum { FL_ALLOCATE, FL_SHARED, FL_CREATE_HEAP, FL_CREATE_STATIC, FL_DYNAMIC, NFLAVOURS };
static const char* const flavour_name[NFLAVOURS] = {"allocate", "shared", "create_heap", "create_static", "dynamic"};
enum { SY_FENCE, SY_LOCK_ALL, SY_LOCK_SHARED, SY_LOCK_EXCLUSIVE, SY_PSCW, NSYNCS };
static const char* const sync_name[NSYNCS] = {"fence", "lock_all", "lock_shared", "lock_exclusive", "pscw"};

static int me, nranks;

typedef struct {
  MPI_Win win;
  int flavour;
  char* base; /* this rank's window memory */
  MPI_Aint size;
  int disp_unit;  /* 1 for dynamic windows */
  MPI_Aint* addr; /* dynamic: every rank's attached region as MPI_Get_address gave it */
  void* heap;
  void* decoy; /* dynamic: a second attached region nobody accesses */
} rwin;

#define STATIC_BYTES (256 * 1024)
static _Alignas(64) char static_mem[STATIC_BYTES];

/* "all" -> -1, else the index of arg in names. */
static inline int parse_choice(const char* arg, const char* const* names, int n, const char* what) {
  if (strcmp(arg, "all") == 0) return -1;
  for (int i = 0; i < n; ++i)
    if (strcmp(arg, names[i]) == 0) return i;
  CHECK(0, "unknown %s '%s'", what, arg);
  return -1;
}

/* The size to ask MPI_Win_allocate for. RMA_PAD_ALLOCATE_TO_16 rounds it up to a
 * multiple of 16: MPICH 4.0.2 (ch4:ucx) puts data at the wrong place in windows from
 * MPI_Win_allocate whose size is not (e.g. 24 bytes); its peer run sets this. */
static inline MPI_Aint allocate_size(MPI_Aint size) {
  return getenv("RMA_PAD_ALLOCATE_TO_16") != NULL ? (size + 15) / 16 * 16 : size;
}

/* Dynamic windows: every rank learns every rank's base address. No collectives: each
 * rank puts its address into slot `me` of every rank's small allocated window. */
static inline void exchange_addresses(rwin* w) {
  MPI_Aint* table = NULL;
  MPI_Win aw;
  CHECK_MPI(MPI_Win_allocate(allocate_size((MPI_Aint)nranks * (MPI_Aint)sizeof(MPI_Aint)), (int)sizeof(MPI_Aint),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &table, &aw));
  MPI_Aint mine;
  CHECK_MPI(MPI_Get_address(w->base, &mine));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, aw));
  for (int r = 0; r < nranks; ++r)
    CHECK_MPI(MPI_Put(&mine, 1, MPI_AINT, r, me, 1, MPI_AINT, aw));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, aw));
  w->addr = malloc((size_t)nranks * sizeof(MPI_Aint));
  CHECK(w->addr != NULL, "malloc");
  memcpy(w->addr, table, (size_t)nranks * sizeof(MPI_Aint));
  CHECK(w->addr[me] == mine, "own address came back as %ld, not %ld", (long)w->addr[me], (long)mine);
  CHECK_MPI(MPI_Win_free(&aw));
}

static inline void win_open(rwin* w, int flavour, MPI_Aint size, int disp_unit, MPI_Info info) {
  memset(w, 0, sizeof *w);
  w->flavour = flavour;
  w->size = size;
  w->disp_unit = flavour == FL_DYNAMIC ? 1 : disp_unit;
  switch (flavour) {
    case FL_ALLOCATE:
      CHECK_MPI(MPI_Win_allocate(allocate_size(size), disp_unit, info, MPI_COMM_WORLD, &w->base, &w->win));
      break;
    case FL_SHARED: CHECK_MPI(MPI_Win_allocate_shared(size, disp_unit, info, MPI_COMM_WORLD, &w->base, &w->win)); break;
    case FL_CREATE_HEAP:
      w->heap = w->base = malloc((size_t)size);
      CHECK(w->base != NULL, "malloc");
      CHECK_MPI(MPI_Win_create(w->base, size, disp_unit, info, MPI_COMM_WORLD, &w->win));
      break;
    case FL_CREATE_STATIC:
      CHECK(size <= STATIC_BYTES, "window of %ld bytes exceeds the static array", (long)size);
      w->base = static_mem;
      CHECK_MPI(MPI_Win_create(w->base, size, disp_unit, info, MPI_COMM_WORLD, &w->win));
      break;
    case FL_DYNAMIC: /* two regions attached: the implementation must find the right one */
      w->heap = w->base = malloc((size_t)size);
      w->decoy = malloc(4096);
      CHECK(w->base != NULL && w->decoy != NULL, "malloc");
      CHECK_MPI(MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &w->win));
      CHECK_MPI(MPI_Win_attach(w->win, w->decoy, 4096));
      CHECK_MPI(MPI_Win_attach(w->win, w->base, size));
      exchange_addresses(w);
      break;
  }
}

static inline void win_close(rwin* w) {
  /* Nobody may still access the memory when it is detached: a barrier first. */
  if (w->flavour == FL_DYNAMIC) {
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_detach(w->win, w->base));
    CHECK_MPI(MPI_Win_detach(w->win, w->decoy));
  }
  CHECK_MPI(MPI_Win_free(&w->win));
  CHECK(w->win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
  free(w->heap);
  free(w->decoy);
  free(w->addr);
}

/* target_disp addressing byte `off` of `target`'s window memory. */
static inline MPI_Aint tdisp(const rwin* w, int target, MPI_Aint off) {
  if (w->flavour == FL_DYNAMIC) return MPI_Aint_add(w->addr[target], off);
  CHECK(off % w->disp_unit == 0, "offset %ld is not a multiple of disp_unit %d", (long)off, w->disp_unit);
  return off / w->disp_unit;
}

/* Local loads and stores of this rank's own window memory happen inside an exclusive
 * lock of itself (MPI-4.1 13.7: valid under the separate and the unified model). */
static inline void local_begin(const rwin* w) { CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w->win)); }
static inline void local_end(const rwin* w) { CHECK_MPI(MPI_Win_unlock(me, w->win)); }

/* One phase of RMA: this rank accesses `targets`, `origins` access this rank.
 * sync_begin opens it, sync_mid completes everything issued so far (results usable
 * after it; other ranks get their turn under exclusive locks), sync_end closes it.
 * Fence is collective: every rank calls these the same number of times. */
typedef struct {
  int sync, nt, no, calls;
  int* t;
  MPI_Group tg, og;
} syncer;

static inline void sync_setup(syncer* s, int sync, int nt, const int* targets, int no, const int* origins) {
  memset(s, 0, sizeof *s);
  s->sync = sync;
  s->nt = nt;
  s->no = no;
  s->t = malloc((size_t)(nt > 0 ? nt : 1) * sizeof(int));
  CHECK(s->t != NULL, "malloc");
  memcpy(s->t, targets, (size_t)nt * sizeof(int));
  s->tg = s->og = MPI_GROUP_EMPTY;
  if (sync == SY_PSCW) {
    MPI_Group world;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    if (nt > 0) CHECK_MPI(MPI_Group_incl(world, nt, targets, &s->tg));
    if (no > 0) CHECK_MPI(MPI_Group_incl(world, no, origins, &s->og));
    CHECK_MPI(MPI_Group_free(&world));
  }
}

static inline void sync_free(syncer* s) {
  if (s->tg != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&s->tg));
  if (s->og != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&s->og));
  free(s->t);
}

static inline void open_epochs(const rwin* w, syncer* s) {
  switch (s->sync) {
    case SY_LOCK_SHARED:
    case SY_LOCK_EXCLUSIVE: /* ascending target order: no cycles between exclusive locks */
      for (int i = 0; i < s->nt; ++i)
        CHECK_MPI(MPI_Win_lock(s->sync == SY_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, s->t[i], 0, w->win));
      break;
    case SY_PSCW: /* post before start: a rank can be origin and target */
      if (s->no > 0) CHECK_MPI(MPI_Win_post(s->og, 0, w->win));
      if (s->nt > 0) CHECK_MPI(MPI_Win_start(s->tg, 0, w->win));
      break;
  }
}

static inline void close_epochs(const rwin* w, syncer* s) {
  switch (s->sync) {
    case SY_LOCK_SHARED:
    case SY_LOCK_EXCLUSIVE:
      for (int i = 0; i < s->nt; ++i)
        CHECK_MPI(MPI_Win_unlock(s->t[i], w->win));
      break;
    case SY_PSCW:
      if (s->nt > 0) CHECK_MPI(MPI_Win_complete(w->win));
      if (s->no > 0) CHECK_MPI(MPI_Win_wait(w->win));
      break;
  }
}

static inline void sync_begin(const rwin* w, syncer* s) {
  if (s->sync == SY_FENCE)
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
  else if (s->sync == SY_LOCK_ALL)
    CHECK_MPI(MPI_Win_lock_all(0, w->win));
  else
    open_epochs(w, s);
}

static inline void sync_mid(const rwin* w, syncer* s) {
  ++s->calls;
  if (s->sync == SY_FENCE) {
    CHECK_MPI(MPI_Win_fence(0, w->win));
  } else if (s->sync == SY_LOCK_ALL) {
    if (s->calls % 2) {
      CHECK_MPI(MPI_Win_flush_all(w->win));
    } else {
      for (int i = 0; i < s->nt; ++i)
        CHECK_MPI(MPI_Win_flush(s->t[i], w->win));
    }
  } else {
    close_epochs(w, s);
    open_epochs(w, s);
  }
}

static inline void sync_end(const rwin* w, syncer* s) {
  if (s->sync == SY_FENCE)
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
  else if (s->sync == SY_LOCK_ALL)
    CHECK_MPI(MPI_Win_unlock_all(w->win));
  else
    close_epochs(w, s);
}

static inline int passive(int sync) {
  return sync == SY_LOCK_ALL || sync == SY_LOCK_SHARED || sync == SY_LOCK_EXCLUSIVE;
}

#endif
