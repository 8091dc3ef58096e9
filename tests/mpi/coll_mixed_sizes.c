/* Collectives in which some contributions are large and others small, each followed by
 * point-to-point traffic that blocks: correct programs (no rank waits for a later
 * collective of another), which deadlock if a rank that exposed its large data waits
 * for a member that never reads it, or for a member that read only small data and
 * returned without saying it was done (a library that batches its "done" signals must
 * still send them at once when someone exposed memory in the call). Every result is
 * checked exactly. Prints "coll_mixed_sizes: OK (N checks)" on rank 0. Standard MPI only: also run against MPICH and Open MPI
 * (tests/peer/run_coll_peer.sh).
 *
 * Per round, for each case below, the "exposer" E (a rank with a large contribution) and
 * the "small" rank S (one that handles small data only, and in the gatherv case does not
 * read E's data at all) then do: E sends S a token, S receives it and sends it back, E
 * receives it. With 1 or 2 ranks the cases that need a third rank are skipped.
 *   gatherv   root 0 gathers into a strided receive type (no contiguous block to write
 *             into directly); rank 1 sends 100000 ints, every other rank 1 int.
 *             E = 1, S = 2: S never reads E's data (only the root does).
 *   scatterv  root 0 sends 100000 ints to the last rank and 1 int to each other rank.
 *             E = 0, S = 1.
 *   bcast     of 100000 ints from root 0 (E = 0, S = the last rank), with 40 bcasts of
 *             one int before it, so the large call lands anywhere in a batch.
 *   alltoallv rank 0 sends 100000 ints to rank 1, every other pair 1 int. E = 0, S = the
 *             last rank.
 * And a progress case (MPI-4.1 2.9 Progress: a blocking call makes progress on the
 * rank's pending communication): rank 0 starts an MPI_Isend of 1 Mi ints to the last
 * rank, which receives it before it enters an MPI_Alltoall of 256 Ki ints per block;
 * rank 0 waits for the send only after its Alltoall. The send must progress while rank 0
 * is in the Alltoall (a library whose alltoall waits without running its point-to-point
 * engine hangs here, as a shmpi build did at 2 ranks).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kBig = 100000, kRounds = 40 };

static int me, n;
static long checks;  /* values compared */
#define EXPECT(cond, ...) \
  do {                    \
    ++checks;             \
    CHECK(cond, __VA_ARGS__); \
  } while (0)

/* E sends a token to S and gets it back: blocks both until the other is out of the
 * collective. */
static void handshake(int e, int s, int round) {
  if (e == s) return;
  int token = round * 1000 + e;
  if (me == e) {
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, s, 7, MPI_COMM_WORLD));
    int back = -1;
    CHECK_MPI(MPI_Recv(&back, 1, MPI_INT, s, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(back == token + 1, "round %d: token %d came back as %d", round, token, back);
  } else if (me == s) {
    int got = -1;
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, e, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT(got == token, "round %d: token %d, expected %d", round, got, token);
    ++got;
    CHECK_MPI(MPI_Send(&got, 1, MPI_INT, e, 8, MPI_COMM_WORLD));
  }
}

static int value(int from, int to, int i, int round) { return (from * 7919 + to * 104729 + i * 31 + round) & 0x3fffffff; }

static void gatherv(int round, int* big, int* recv) {
  /* Root receives rank r's block at stride 2 (every other int), so the block of rank 1
   * is not contiguous at the root. */
  const int count = me == 1 ? kBig : 1;
  for (int i = 0; i < count; ++i) big[i] = value(me, 0, i, round);
  int* counts = malloc(sizeof(int) * (size_t)n);
  int* displs = malloc(sizeof(int) * (size_t)n);
  int off = 0;
  for (int r = 0; r < n; ++r) {
    counts[r] = r == 1 ? kBig : 1;
    displs[r] = off;
    off += counts[r];
  }
  MPI_Datatype strided, every_other;
  CHECK_MPI(MPI_Type_vector(1, 1, 2, MPI_INT, &strided));
  CHECK_MPI(MPI_Type_create_resized(strided, 0, 2 * (MPI_Aint)sizeof(int), &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  if (me == 0) memset(recv, 0xff, sizeof(int) * 2 * (size_t)off);
  CHECK_MPI(MPI_Gatherv(big, count, MPI_INT, recv, counts, displs, every_other, 0, MPI_COMM_WORLD));
  if (me == 0) {
    for (int r = 0; r < n; ++r) {
      for (int i = 0; i < counts[r]; ++i) {
        const int got = recv[2 * (displs[r] + i)];
        EXPECT(got == value(r, 0, i, round), "gatherv round %d: element %d of rank %d is %d", round, i, r, got);
        EXPECT(recv[2 * (displs[r] + i) + 1] == -1, "gatherv round %d: a hole of rank %d's block was written", round, r);
      }
    }
  }
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Type_free(&strided));
  free(counts);
  free(displs);
  handshake(1, n > 2 ? 2 : 1, round);
}

static void scatterv(int round, int* big, int* recv) {
  int* counts = malloc(sizeof(int) * (size_t)n);
  int* displs = malloc(sizeof(int) * (size_t)n);
  int off = 0;
  for (int r = 0; r < n; ++r) {
    counts[r] = r == n - 1 ? kBig : 1;
    displs[r] = off;
    off += counts[r];
  }
  if (me == 0) {
    for (int r = 0; r < n; ++r) {
      for (int i = 0; i < counts[r]; ++i) big[displs[r] + i] = value(0, r, i, round);
    }
  }
  CHECK_MPI(MPI_Scatterv(big, counts, displs, MPI_INT, recv, counts[me], MPI_INT, 0, MPI_COMM_WORLD));
  for (int i = 0; i < counts[me]; ++i) {
    EXPECT(recv[i] == value(0, me, i, round), "scatterv round %d: element %d is %d", round, i, recv[i]);
  }
  free(counts);
  free(displs);
  handshake(0, n > 2 ? 1 : 0, round);
}

static void bcast(int round, int* big) {
  for (int k = 0; k < 40; ++k) {
    int v = me == 0 ? value(0, k, round, round) : -1;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD));
    EXPECT(v == value(0, k, round, round), "bcast round %d, small call %d: %d", round, k, v);
  }
  for (int i = 0; i < kBig; ++i) big[i] = me == 0 ? value(0, 1, i, round) : -1;
  CHECK_MPI(MPI_Bcast(big, kBig, MPI_INT, 0, MPI_COMM_WORLD));
  for (int i = 0; i < kBig; ++i) EXPECT(big[i] == value(0, 1, i, round), "bcast round %d: element %d is %d", round, i, big[i]);
  handshake(0, n - 1, round);
}

static void alltoallv(int round, int* big, int* recv) {
  int* scounts = malloc(sizeof(int) * (size_t)n);
  int* sdispls = malloc(sizeof(int) * (size_t)n);
  int* rcounts = malloc(sizeof(int) * (size_t)n);
  int* rdispls = malloc(sizeof(int) * (size_t)n);
  int soff = 0, roff = 0;
  for (int r = 0; r < n; ++r) {
    scounts[r] = me == 0 && r == 1 ? kBig : 1;
    rcounts[r] = r == 0 && me == 1 ? kBig : 1;
    sdispls[r] = soff;
    rdispls[r] = roff;
    soff += scounts[r];
    roff += rcounts[r];
  }
  for (int r = 0; r < n; ++r) {
    for (int i = 0; i < scounts[r]; ++i) big[sdispls[r] + i] = value(me, r, i, round);
  }
  CHECK_MPI(MPI_Alltoallv(big, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD));
  for (int r = 0; r < n; ++r) {
    for (int i = 0; i < rcounts[r]; ++i) {
      EXPECT(recv[rdispls[r] + i] == value(r, me, i, round), "alltoallv round %d: element %d from %d is %d", round, i, r,
            recv[rdispls[r] + i]);
    }
  }
  free(scounts);
  free(sdispls);
  free(rcounts);
  free(rdispls);
  handshake(0, n - 1, round);
}

static void alltoall_progress(int round) {
  enum { kMsg = 1 << 20, kBlock = 1 << 18 };
  int* msg = malloc(sizeof(int) * (size_t)kMsg);
  int* s = malloc(sizeof(int) * (size_t)kBlock * (size_t)n);
  int* r = malloc(sizeof(int) * (size_t)kBlock * (size_t)n);
  CHECK(msg != NULL && s != NULL && r != NULL, "out of memory");
  for (long i = 0; i < (long)kBlock * n; ++i) s[i] = value(me, (int)(i / kBlock), (int)(i % kBlock), round);
  MPI_Request q = MPI_REQUEST_NULL;
  if (me == 0) {
    for (int i = 0; i < kMsg; ++i) msg[i] = value(0, n - 1, i, round + 7);
    CHECK_MPI(MPI_Isend(msg, kMsg, MPI_INT, n - 1, 9, MPI_COMM_WORLD, &q));
  } else if (me == n - 1) {
    CHECK_MPI(MPI_Recv(msg, kMsg, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < kMsg; i += 4099) EXPECT(msg[i] == value(0, n - 1, i, round + 7), "round %d: message int %d is %d", round, i, msg[i]);
  }
  CHECK_MPI(MPI_Alltoall(s, kBlock, MPI_INT, r, kBlock, MPI_INT, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < kBlock; i += 1021)
      EXPECT(r[(long)j * kBlock + i] == value(j, me, i, round), "round %d: alltoall int %d from rank %d is %d", round, i,
             j, r[(long)j * kBlock + i]);
  free(msg), free(s), free(r);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int* big = malloc(sizeof(int) * ((size_t)kBig + (size_t)n) * 2);
  int* recv = malloc(sizeof(int) * ((size_t)kBig + (size_t)n) * 2);
  CHECK(big != NULL && recv != NULL, "out of memory");
  for (int round = 0; round < kRounds; ++round) {
    if (n > 1) gatherv(round, big, recv);
    scatterv(round, big, recv);
    bcast(round, big);
    if (n > 1) alltoallv(round, big, recv);
    if (n > 1 && round % 8 == 0) alltoall_progress(round);
  }
  free(big);
  free(recv);
  MPI_Barrier(MPI_COMM_WORLD);
  long all = 0;
  CHECK_MPI(MPI_Reduce(&checks, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (me == 0) printf("coll_mixed_sizes: OK (%ld checks)\n", all);
  MPI_Finalize();
  return 0;
}
