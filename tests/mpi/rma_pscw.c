/* rma_pscw: general active target synchronization (MPI-4.1 13.5.2): MPI_Win_post /
 * MPI_Win_start / MPI_Win_complete / MPI_Win_wait and MPI_Win_test, with groups built
 * by MPI_Group_incl, MPI_Group_excl and MPI_Group_range_incl from the window's group.
 * Patterns: a ring (each rank exposes its window to its left neighbour and accesses its
 * right one) over many epochs, so a stale or skipped generation shows up as a wrong
 * value; all-to-one (MPI_Put to distinct slots plus concurrent MPI_Accumulate on one
 * counter); one-to-all (MPI_Put and MPI_Get in the same epoch); even ranks accessing
 * odd ranks; all-to-all; empty access and exposure groups; MPI_Win_test polled until it
 * returns true (13.5.2: once true it is not called again); and PSCW epochs alternating
 * with fence epochs on the same window, separated by MPI_MODE_NOPRECEDE /
 * MPI_MODE_NOSUCCEED fences (a fence epoch must be closed before PSCW starts).
 * After every epoch every target checks every slot of its window: the slots of its
 * origins hold this epoch's values, all others the marker they were reset to.
 * Runs on MPI_Win_allocate, MPI_Win_allocate_shared and MPI_Win_create windows
 * (RMA_NO_CREATE_FLAVOR=1 skips the last). Peer toggle: RMA_PSCW_BARRIER_BETWEEN_PATTERNS
 * (MPICH 4.0.2, see separate()).
 * Usage: rma_pscw [EPOCHS]   (ring epochs on the MPI_Win_allocate window, default 100;
 *                             10 on the others) */
#include <string.h>

#include "check.h"

static int rank, nranks, epochs = 100;
enum { MARKER = -1 };

/* Window layout, in ints: slot[o] for origin o's MPI_Put, then an accumulate
 * counter, then a value the owner sets once (read with MPI_Get). */
static int nslots;
static int counter_slot(void) { return nranks; }
static int id_slot(void) { return nranks + 1; }
static int val(int origin, int gen) { return origin * 100000 + gen; }
static int id_of(int r) { return 7 * r + 3; }

typedef struct {
  MPI_Win win;
  int* mem;
  const char* name;
  MPI_Group world; /* the window's group */
} Win;

static void reset(Win* w) {
  for (int i = 0; i < nslots; ++i) w->mem[i] = MARKER;
  w->mem[counter_slot()] = 0;
  w->mem[id_slot()] = id_of(rank);
}

/* Every slot must hold the marker except those of the listed origins, which hold
 * val(origin, gen); the counter must be `counter`. */
static void check_slots(const Win* w, const char* what, int gen, const int* origins, int norigins, int counter) {
  for (int i = 0; i < nranks; ++i) {
    int want = MARKER;
    for (int k = 0; k < norigins; ++k)
      if (origins[k] == i) want = val(i, gen);
    CHECK(w->mem[i] == want, "%s window, %s, epoch %d: slot %d is %d, expected %d", w->name, what, gen, i, w->mem[i],
          want);
  }
  CHECK(w->mem[counter_slot()] == counter, "%s window, %s, epoch %d: counter %d, expected %d", w->name, what, gen,
        w->mem[counter_slot()], counter);
  CHECK(w->mem[id_slot()] == id_of(rank), "%s window, %s: id slot changed to %d", w->name, what, w->mem[id_slot()]);
  for (int i = id_slot() + 1; i < nslots; ++i)
    CHECK(w->mem[i] == MARKER, "%s window, %s, epoch %d: spare slot %d is %d", w->name, what, gen, i, w->mem[i]);
}

static MPI_Group incl(const Win* w, int n, const int* ranks) {
  MPI_Group g;
  CHECK_MPI(MPI_Group_incl(w->world, n, ranks, &g));
  return g;
}

/* Waits for the exposure epoch to end, with MPI_Win_wait or by polling MPI_Win_test
 * (which must turn true within 20 s). */
static void end_exposure(const Win* w, int poll, const char* what, int gen) {
  if (!poll) {
    CHECK_MPI(MPI_Win_wait(w->win));
    return;
  }
  int flag = 0;
  long polls = 0;
  const double t0 = MPI_Wtime();
  while (!flag) {
    CHECK_MPI(MPI_Win_test(w->win, &flag));
    ++polls;
    if (!flag && polls % 1024 == 0)
      CHECK(MPI_Wtime() - t0 < 20.0, "%s window, %s, epoch %d: MPI_Win_test still false after %ld polls in 20 s",
            w->name, what, gen, polls);
  }
}

/* Ring: expose to the left neighbour, access the right one. */
static void ring(Win* w, int epochs) {
  const int left = (rank - 1 + nranks) % nranks, right = (rank + 1) % nranks;
  MPI_Group to_left = incl(w, 1, &left), to_right = incl(w, 1, &right);
  for (int gen = 0; gen < epochs; ++gen) {
    reset(w);
    const int v = val(rank, gen);
    CHECK_MPI(MPI_Win_post(to_left, 0, w->win));
    CHECK_MPI(MPI_Win_start(to_right, 0, w->win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, rank, 1, MPI_INT, w->win));
    CHECK_MPI(MPI_Win_complete(w->win));
    end_exposure(w, gen % 2, "ring", gen); /* odd epochs poll MPI_Win_test */
    check_slots(w, "ring", gen, &left, 1, 0);
  }
  CHECK_MPI(MPI_Group_free(&to_left));
  CHECK_MPI(MPI_Group_free(&to_right));
}

/* All-to-one: every other rank puts into rank 0's slot and adds to its counter. */
static void all_to_one(Win* w, int gen) {
  reset(w);
  const int root = 0;
  MPI_Group others, root_group = incl(w, 1, &root);
  CHECK_MPI(MPI_Group_excl(w->world, 1, &root, &others));
  if (rank == root) {
    CHECK_MPI(MPI_Win_post(others, 0, w->win));
    end_exposure(w, gen % 2, "all-to-one", gen);
    int origins[64], n = 0, sum = 0;
    for (int r = 1; r < nranks; ++r) {
      origins[n++] = r;
      sum += r + 1;
    }
    check_slots(w, "all-to-one", gen, origins, n, sum);
  } else {
    const int v = val(rank, gen), add = rank + 1;
    CHECK_MPI(MPI_Win_start(root_group, 0, w->win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, root, rank, 1, MPI_INT, w->win));
    CHECK_MPI(MPI_Accumulate(&add, 1, MPI_INT, root, counter_slot(), 1, MPI_INT, MPI_SUM, w->win));
    CHECK_MPI(MPI_Win_complete(w->win));
    check_slots(w, "all-to-one (not a target)", gen, NULL, 0, 0);
  }
  CHECK_MPI(MPI_Group_free(&others));
  CHECK_MPI(MPI_Group_free(&root_group));
}

/* One-to-all: the last rank puts into every other rank and reads each one's id. */
static void one_to_all(Win* w, int gen) {
  reset(w);
  const int root = nranks - 1;
  MPI_Group root_group = incl(w, 1, &root);
  if (rank == root) {
    MPI_Group targets;
    if (nranks > 1) {
      int range[1][3] = {{0, nranks - 2, 1}};
      CHECK_MPI(MPI_Group_range_incl(w->world, 1, range, &targets));
    } else {
      targets = MPI_GROUP_EMPTY;
    }
    int ids[64];
    const int v = val(rank, gen);
    CHECK_MPI(MPI_Win_start(targets, 0, w->win));
    for (int r = 0; r < nranks - 1; ++r) {
      ids[r] = -5;
      CHECK_MPI(MPI_Put(&v, 1, MPI_INT, r, rank, 1, MPI_INT, w->win));
      CHECK_MPI(MPI_Get(&ids[r], 1, MPI_INT, r, id_slot(), 1, MPI_INT, w->win));
    }
    CHECK_MPI(MPI_Win_complete(w->win));
    for (int r = 0; r < nranks - 1; ++r)
      CHECK(ids[r] == id_of(r), "%s window, one-to-all epoch %d: MPI_Get of rank %d's id gave %d, expected %d", w->name,
            gen, r, ids[r], id_of(r));
    if (targets != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&targets));
    check_slots(w, "one-to-all (not a target)", gen, NULL, 0, 0);
  } else {
    CHECK_MPI(MPI_Win_post(root_group, 0, w->win));
    end_exposure(w, gen % 2, "one-to-all", gen);
    check_slots(w, "one-to-all", gen, &root, 1, 0);
  }
  CHECK_MPI(MPI_Group_free(&root_group));
}

/* Even ranks access every odd rank; odd ranks expose to every even rank. */
static void evens_to_odds(Win* w, int gen) {
  reset(w);
  int evens[1][3] = {{0, (nranks - 1) / 2 * 2, 2}};
  MPI_Group even_group, odd_group;
  CHECK_MPI(MPI_Group_range_incl(w->world, 1, evens, &even_group));
  int even_list[64], ne = 0;
  for (int r = 0; r < nranks; r += 2) even_list[ne++] = r;
  CHECK_MPI(MPI_Group_excl(w->world, ne, even_list, &odd_group));
  int gsize = -1;
  CHECK_MPI(MPI_Group_size(odd_group, &gsize));
  CHECK(gsize == nranks / 2, "odd group has %d ranks, expected %d", gsize, nranks / 2);
  if (rank % 2 == 0) {
    const int v = val(rank, gen);
    CHECK_MPI(MPI_Win_start(odd_group, 0, w->win));
    for (int r = 1; r < nranks; r += 2) CHECK_MPI(MPI_Put(&v, 1, MPI_INT, r, rank, 1, MPI_INT, w->win));
    CHECK_MPI(MPI_Win_complete(w->win));
    check_slots(w, "evens to odds (even)", gen, NULL, 0, 0);
  } else {
    CHECK_MPI(MPI_Win_post(even_group, 0, w->win));
    end_exposure(w, gen % 2, "evens to odds", gen);
    int origins[64], n = 0;
    for (int r = 0; r < nranks; r += 2) origins[n++] = r;
    check_slots(w, "evens to odds (odd)", gen, origins, n, 0);
  }
  CHECK_MPI(MPI_Group_free(&even_group));
  if (odd_group != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&odd_group));
}

/* All-to-all: everyone exposes to and accesses everyone else (MPI_Group_excl of self). */
static void all_to_all(Win* w, int gen) {
  reset(w);
  MPI_Group others;
  CHECK_MPI(MPI_Group_excl(w->world, 1, &rank, &others));
  const int v = val(rank, gen), add = 1;
  CHECK_MPI(MPI_Win_post(others, 0, w->win));
  CHECK_MPI(MPI_Win_start(others, 0, w->win));
  for (int r = 0; r < nranks; ++r) {
    if (r == rank) continue;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, r, rank, 1, MPI_INT, w->win));
    CHECK_MPI(MPI_Accumulate(&add, 1, MPI_INT, r, counter_slot(), 1, MPI_INT, MPI_SUM, w->win));
  }
  CHECK_MPI(MPI_Win_complete(w->win));
  end_exposure(w, gen % 2, "all-to-all", gen);
  int origins[64], n = 0;
  for (int r = 0; r < nranks; ++r)
    if (r != rank) origins[n++] = r;
  check_slots(w, "all-to-all", gen, origins, n, nranks - 1);
  CHECK_MPI(MPI_Group_free(&others));
}

/* Empty groups: an access epoch to nobody and an exposure epoch to nobody. */
static void empty_groups(Win* w, int gen) {
  reset(w);
  CHECK_MPI(MPI_Win_start(MPI_GROUP_EMPTY, 0, w->win));
  CHECK_MPI(MPI_Win_complete(w->win));
  CHECK_MPI(MPI_Win_post(MPI_GROUP_EMPTY, 0, w->win));
  end_exposure(w, gen % 2, "empty groups", gen);
  check_slots(w, "empty groups", gen, NULL, 0, 0);
  /* An empty group built by MPI_Group_incl works the same. */
  MPI_Group none = incl(w, 0, NULL);
  int size = -1;
  CHECK_MPI(MPI_Group_size(none, &size));
  CHECK(size == 0, "MPI_Group_incl of 0 ranks has size %d", size);
  CHECK_MPI(MPI_Win_post(none, 0, w->win));
  CHECK_MPI(MPI_Win_start(none, 0, w->win));
  CHECK_MPI(MPI_Win_complete(w->win));
  CHECK_MPI(MPI_Win_wait(w->win));
  if (none != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&none));
}

/* A fence epoch on the same window: every rank puts into its right neighbour. */
static void fence_epoch(Win* w, int gen) {
  reset(w);
  const int right = (rank + 1) % nranks, left = (rank - 1 + nranks) % nranks;
  const int v = val(rank, gen);
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
  CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, rank, 1, MPI_INT, w->win));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
  check_slots(w, "fence epoch", gen, &left, 1, 0);
}

/* RMA_PSCW_BARRIER_BETWEEN_PATTERNS: MPICH 4.0.2's MPI_Win_start waits until the
 * number of posts received equals the size of its group, then zeroes the count
 * (ch4 MPIDIG_mpi_win_start: "PROGRESS_WHILE(group->size != pw.count)"), so a post
 * for a later epoch that arrives before an MPI_Win_start with a different group hangs
 * it or is lost. 13.5.2 matches posts and starts like sends and receives, so that is
 * a bug; the barrier keeps every rank from posting for the next pattern early. */
static int barrier_between_patterns;
static void separate(void) {
  if (barrier_between_patterns) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* full: the ring runs EPOCHS epochs, every other pattern twice (once ended by
 * MPI_Win_wait, once by polling MPI_Win_test) and four PSCW/fence alternations. Else
 * (to keep the run short) 10 ring epochs, each pattern once with MPI_Win_wait or
 * MPI_Win_test as `parity` says, and two alternations. */
static void run(Win* w, int full, int parity) {
  CHECK_MPI(MPI_Win_get_group(w->win, &w->world));
  reset(w);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  ring(w, full ? epochs : 10);
  separate();
  for (int gen = full ? 0 : parity; gen < (full ? 2 : parity + 1); ++gen) {
    all_to_one(w, gen);
    separate();
    one_to_all(w, gen);
    separate();
    evens_to_odds(w, gen);
    separate();
    all_to_all(w, gen);
    separate();
    empty_groups(w, gen);
    separate();
  }
  /* PSCW and fence epochs alternating. */
  for (int gen = 0; gen < (full ? 4 : 2); ++gen) {
    fence_epoch(w, 2 * gen);
    if (gen % 2)
      all_to_all(w, 2 * gen + 1);
    else
      evens_to_odds(w, 2 * gen + 1);
  }
  CHECK_MPI(MPI_Group_free(&w->world));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  CHECK(nranks <= 64, "at most 64 ranks");
  if (argc > 1) epochs = atoi(argv[1]);
  barrier_between_patterns = getenv("RMA_PSCW_BARRIER_BETWEEN_PATTERNS") != NULL;
  CHECK(epochs > 0, "EPOCHS must be positive");
  /* Rounded up to 16 bytes: MPICH 4.0.2 misplaces MPI_Win_allocate segments whose
   * size is not a multiple of 16 (rma_windows.c, RMA_WINDOWS_ALLOCATE_SIZES_16). The
   * spare slots must keep their marker too. */
  nslots = (nranks + 2 + 3) / 4 * 4;
  const MPI_Aint bytes = nslots * (MPI_Aint)sizeof(int);

  Win w = {MPI_WIN_NULL, NULL, "MPI_Win_allocate", MPI_GROUP_NULL};
  CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w.mem, &w.win));
  run(&w, 1, 0);
  CHECK_MPI(MPI_Win_free(&w.win));

  w.name = "MPI_Win_allocate_shared";
  CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w.mem, &w.win));
  run(&w, 0, 1);
  CHECK_MPI(MPI_Win_free(&w.win));

  if (getenv("RMA_NO_CREATE_FLAVOR") == NULL) {
    int* mem = malloc((size_t)bytes);
    CHECK(mem != NULL, "malloc");
    w.name = "MPI_Win_create";
    w.mem = mem;
    CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w.win));
    run(&w, 0, 0);
    CHECK_MPI(MPI_Win_free(&w.win));
    free(mem);
  }
  CHECK_MPI(MPI_Finalize());
  return 0;
}
