/* MPI_Scatterv and MPI_Gatherv (and their _c and nonblocking forms) with one count for
 * every rank, placed at non-monotone displacements with gaps: the v-calls whose pieces
 * are all of one size, which a library may move as it moves a regular scatter or gather
 * (shmpi's lean path, docs/collectives.md "The lean path of small calls": the root's
 * pieces by address), so each piece must still come from or land at its own
 * displacement (MPI-4.1 6.6 and 6.5: the j-th block is at displs[j] extents). coll_basic
 * gives ranks different counts; this program gives them the same one.
 * Per root (every rank), count (1, 3, 6, 200 and 9000 elements: inline in a descriptor,
 * staged, and larger than a staged piece), datatype (MPI_INT; MPI_DOUBLE; a contiguous
 * derived type of 3 ints; MPI_INT resized to extent 8, not contiguous), form (blocking,
 * _c, nonblocking) and in place or not: every received element, every gap and every
 * untouched byte of the root's buffer is checked exactly, and the root's send buffer
 * must be unchanged. Values change every round (the same call repeated cannot pass by
 * leaving the last round's data). Prints "coll_uniform_v: OK (N checks)" on rank 0.
 * Standard MPI only: also run against MPICH and Open MPI (tests/peer/run_coll_peer.sh). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"

enum { kRounds = 2, kForms = 3, kTypes = 4 };
static const long kCounts[] = {1, 3, 6, 200, 9000};

/* An element is `ints` ints every `stride` ints (the resized type: 1 int in 2). */
typedef struct {
  MPI_Datatype type;
  int ints, stride;
  const char* name;
} Type;
static Type types[kTypes];

static void make_types(void) {
  types[0] = (Type){MPI_INT, 1, 1, "MPI_INT"};
  types[1] = (Type){MPI_DOUBLE, 2, 2, "MPI_DOUBLE"};
  MPI_Datatype three, sparse;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
  CHECK_MPI(MPI_Type_commit(&three));
  types[2] = (Type){three, 3, 3, "contiguous(3, MPI_INT)"};
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &sparse));
  CHECK_MPI(MPI_Type_commit(&sparse));
  types[3] = (Type){sparse, 1, 2, "resized(MPI_INT, 0, 8)"};
}

/* The value of int k of element e of root-or-sender `src`'s block for `dst`. A double's
 * two ints are written as ints too (the calls move bytes; no arithmetic). */
static int val(int call, int src, int dst, long e, int k, int round) { return vf(call, src, dst, e * 4 + k, round); }

/* Writes block (src -> dst) of `count` elements of t at `at`. */
static void fill(int* at, const Type* t, long count, int call, int src, int dst, int round) {
  for (long e = 0; e < count; ++e)
    for (int k = 0; k < t->ints; ++k) at[e * t->stride + k] = val(call, src, dst, e, k, round);
}
/* Checks block (src -> dst) at `at`, and that the holes of a sparse type are untouched. */
static void verify(const int* at, const Type* t, long count, int call, int src, int dst, int round, const char* what) {
  for (long e = 0; e < count; ++e) {
    for (int k = 0; k < t->ints; ++k)
      EXPECT(at[e * t->stride + k] == val(call, src, dst, e, k, round), "%s %s count %ld: block %d->%d element %ld int %d",
             what, t->name, count, src, dst, e, k);
    for (int k = t->ints; k < t->stride; ++k)
      EXPECT(at[e * t->stride + k] == SENT, "%s %s: hole of element %ld of block %d->%d written", what, t->name, e, src, dst);
  }
}

static void wait_or_check(int rc, MPI_Request* req) {
  CHECK_MPI(rc);
  if (*req != MPI_REQUEST_NULL) CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
}

/* One scatterv or gatherv: `gather` selects the call. The root's buffer holds np blocks
 * of `count` elements at displs[] (elements) in a buffer of `total` elements. */
static void one(int gather, int root, long count, const Type* t, int form, int inplace, int round) {
  const int call = gather ? 2 : 1;
  int* counts = ialloc();
  int* displs = ialloc();
  for (int r = 0; r < np; ++r) counts[r] = (int)count;
  const long total = place_displs(counts, round + root + (int)count, displs);
  const long block_ints = count * t->stride;
  int* big = ints(total * t->stride);  /* root's send (scatterv) or receive (gatherv) buffer */
  int* mine = ints(block_ints);        /* everyone's receive (scatterv) or send (gatherv) block */
  if (gather) {
    fill(me == root && inplace ? big + (long)displs[me] * t->stride : mine, t, count, call, me, root, round);
  } else if (me == root) {
    for (int r = 0; r < np; ++r) fill(big + (long)displs[r] * t->stride, t, count, call, root, r, round);
  }
  int* before = NULL;
  if (me == root) {
    before = ints(total * t->stride);
    memcpy(before, big, (size_t)(total * t->stride) * sizeof(int));
  }
  const int ip = me == root && inplace;
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  if (!gather) {
    void* rbuf = ip ? MPI_IN_PLACE : (void*)mine;
    if (form == 0) rc = MPI_Scatterv(big, counts, displs, t->type, rbuf, (int)count, t->type, root, MPI_COMM_WORLD);
#if MPI_VERSION >= 4
    if (form == 1) {
      MPI_Count* cc = to_count(counts);
      MPI_Aint* dd = to_aint(displs);
      rc = MPI_Scatterv_c(big, cc, dd, t->type, rbuf, count, t->type, root, MPI_COMM_WORLD);
      free(cc), free(dd);
    }
#else
    if (form == 1) rc = MPI_Scatterv(big, counts, displs, t->type, rbuf, (int)count, t->type, root, MPI_COMM_WORLD);
#endif
    if (form == 2) rc = MPI_Iscatterv(big, counts, displs, t->type, rbuf, (int)count, t->type, root, MPI_COMM_WORLD, &req);
  } else {
    const void* sbuf = ip ? MPI_IN_PLACE : (const void*)mine;
    if (form == 0) rc = MPI_Gatherv(sbuf, (int)count, t->type, big, counts, displs, t->type, root, MPI_COMM_WORLD);
#if MPI_VERSION >= 4
    if (form == 1) {
      MPI_Count* cc = to_count(counts);
      MPI_Aint* dd = to_aint(displs);
      rc = MPI_Gatherv_c(sbuf, count, t->type, big, cc, dd, t->type, root, MPI_COMM_WORLD);
      free(cc), free(dd);
    }
#else
    if (form == 1) rc = MPI_Gatherv(sbuf, (int)count, t->type, big, counts, displs, t->type, root, MPI_COMM_WORLD);
#endif
    if (form == 2) rc = MPI_Igatherv(sbuf, (int)count, t->type, big, counts, displs, t->type, root, MPI_COMM_WORLD, &req);
  }
  wait_or_check(rc, &req);
  const char* what = gather ? "gatherv" : "scatterv";
  if (!gather) {
    if (me == root) EXPECT(memcmp(before, big, (size_t)(total * t->stride) * sizeof(int)) == 0, "scatterv: root's send buffer changed");
    if (!ip) verify(mine, t, count, call, root, me, round, what);
  } else if (me == root) {
    /* Every block at its displacement; everything between them as it was. */
    char* covered = calloc((size_t)(total * t->stride), 1);
    CHECK(covered != NULL, "calloc");
    for (int r = 0; r < np; ++r) {
      verify(big + (long)displs[r] * t->stride, t, count, call, r, root, round, what);
      memset(covered + (long)displs[r] * t->stride, 1, (size_t)block_ints);
    }
    for (long i = 0; i < total * t->stride; ++i)
      if (!covered[i]) EXPECT(big[i] == before[i], "gatherv %s count %ld: gap int %ld written", t->name, count, i);
    free(covered);
  }
  free(before), free(big), free(mine), free(counts), free(displs);
}

int main(int argc, char** argv) {
  coll_init(&argc, &argv);
  make_types();
  for (int round = 0; round < kRounds; ++round)
    for (int gather = 0; gather < 2; ++gather)
      for (int root = 0; root < np; ++root)
        for (size_t c = 0; c < sizeof kCounts / sizeof kCounts[0]; ++c)
          for (int t = 0; t < kTypes; ++t)
            for (int form = 0; form < kForms; ++form)
              for (int inplace = 0; inplace < 2; ++inplace) one(gather, root, kCounts[c], &types[t], form, inplace, round);
  CHECK_MPI(MPI_Type_free(&types[2].type));
  CHECK_MPI(MPI_Type_free(&types[3].type));
  coll_finish("coll_uniform_v");
  return 0;
}
