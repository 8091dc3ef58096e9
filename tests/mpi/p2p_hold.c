/* p2p_hold: leaves point-to-point messages, posted receives and blocked calls in known
 * states and holds them there so shmpi-dump can show who waits for what (3 ranks).
 *
 * Before the barrier:
 *   rank 1  sends rank 0, eagerly (small): tags 11, 12, 13 (8, 100, 1000 bytes) on
 *           MPI_COMM_WORLD and tag 14 (16 bytes) on dup (MPI_Comm_dup of world).
 *   rank 0  posts MPI_Irecv(MPI_ANY_SOURCE, tag 99) on MPI_COMM_WORLD.
 * After the barrier:
 *   rank 0  creates READY_FILE, then blocks in MPI_Recv(source 2, tag 77).
 *   rank 2  creates READY_FILE.idle and makes no MPI call until RELEASE_FILE appears.
 *   rank 1  waits for READY_FILE.idle, then sends rank 2 on MPI_COMM_WORLD (dup for 22):
 *           tag 21 (8 bytes), 22 (200 bytes), 23 (100000 bytes, MPI_Issend: a synchronous
 *           rendezvous), 24 (0 bytes), then MPI_Ssend tag 25 (64 bytes), which blocks
 *           until rank 2 receives it.
 *
 * What is deterministic while the job holds (what a test may check):
 *   - A rank drains its rings (into its private unexpected queue, or straight into a
 *     matching posted receive) whenever it runs its progress engine, i.e. inside any
 *     MPI call that waits or polls, and never outside MPI calls (no progress thread).
 *     So rank 1's messages to rank 0 may be drained during the barrier or not; but rank
 *     0's MPI_Recv(2, 77) runs the engine while it waits, so once it is blocked they
 *     are all drained and, matching neither posted receive, unexpected: rank 0 shows 2
 *     posted receives (any/99, then 2/77), 4 unexpected, nothing queued, waiting in
 *     recv from 2 tag 77.
 *   - Rank 2 is outside MPI before rank 1 sends to it, so rank 1's five records stay
 *     queued in rank 2's ring from rank 1 in send order (the rendezvous one carries only
 *     the address of the data; the synchronous ones are flagged sync); rank 2 posted 0,
 *     unexpected 0, waiting none.
 *   - Rank 1 is blocked in MPI_Ssend to 2 tag 25 (two sends unfinished: the Issend and
 *     the Ssend, both wait for rank 2).
 * Then rank 2 receives everything from rank 1 in order (checking contents), sends rank 0
 * tag 99 and tag 77; rank 0 completes both receives and receives its four unexpected
 * messages. Every rank waits at most 90 s for the files it polls.
 * Usage: p2p_hold READY_FILE RELEASE_FILE (3 ranks). Standard MPI + POSIX. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define BIG 100000

static void wait_for(const char* path) {
  int waited = 0;
  while (access(path, F_OK) != 0 && waited < 9000) {
    usleep(10000);
    ++waited;
  }
  CHECK(waited < 9000, "%s did not appear within 90 s", path);
}

static void touch(const char* path) {
  FILE* f = fopen(path, "w");
  CHECK(f != NULL && fclose(f) == 0, "cannot create %s", path);
}

/* Message bytes: byte i of the message with tag t is (t * 7 + i) & 0xff. */
static void fill(unsigned char* b, int n, int tag) {
  for (int i = 0; i < n; ++i) b[i] = (unsigned char)((tag * 7 + i) & 0xff);
}
static void expect(const unsigned char* b, int n, int tag, const MPI_Status* st, int source) {
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  CHECK(count == n && st->MPI_SOURCE == source && st->MPI_TAG == tag, "tag %d: %d bytes from %d (tag %d), expected %d from %d",
        tag, count, st->MPI_SOURCE, st->MPI_TAG, n, source);
  for (int i = 0; i < n; ++i) {
    CHECK(b[i] == (unsigned char)((tag * 7 + i) & 0xff), "tag %d: byte %d is %u", tag, i, b[i]);
  }
}

int main(int argc, char** argv) {
  CHECK(argc == 3, "usage: p2p_hold READY_FILE RELEASE_FILE");
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 3, "needs 3 ranks, got %d", size);
  char idle[4096];
  CHECK(snprintf(idle, sizeof idle, "%s.idle", argv[1]) < (int)sizeof idle, "path too long");

  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  static unsigned char buf[8][BIG];
  MPI_Status st;

  /* Rank 0's expected traffic: (tag, bytes, communicator). */
  const int tags0[4] = {11, 12, 13, 14}, sizes0[4] = {8, 100, 1000, 16};
  /* Rank 2's: tags 21..25. */
  const int tags2[5] = {21, 22, 23, 24, 25}, sizes2[5] = {8, 200, BIG, 0, 64};

  MPI_Request any99 = MPI_REQUEST_NULL;
  if (rank == 1) {
    for (int i = 0; i < 4; ++i) {
      fill(buf[i], sizes0[i], tags0[i]);
      CHECK_MPI(MPI_Send(buf[i], sizes0[i], MPI_BYTE, 0, tags0[i], i == 3 ? dup : MPI_COMM_WORLD));
    }
  } else if (rank == 0) {
    CHECK_MPI(MPI_Irecv(buf[7], 16, MPI_BYTE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &any99));
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  if (rank == 0) {
    touch(argv[1]);
    CHECK_MPI(MPI_Recv(buf[6], 16, MPI_BYTE, 2, 77, MPI_COMM_WORLD, &st));
    expect(buf[6], 4, 77, &st, 2);
    CHECK_MPI(MPI_Wait(&any99, &st));
    expect(buf[7], 2, 99, &st, 2);
    for (int i = 0; i < 4; ++i) {
      memset(buf[i], 0, sizeof buf[i]);
      CHECK_MPI(MPI_Recv(buf[i], BIG, MPI_BYTE, 1, tags0[i], i == 3 ? dup : MPI_COMM_WORLD, &st));
      expect(buf[i], sizes0[i], tags0[i], &st, 1);
    }
  } else if (rank == 2) {
    touch(idle);
    wait_for(argv[2]);
    for (int i = 0; i < 5; ++i) {
      memset(buf[i], 0, sizeof buf[i]);
      CHECK_MPI(MPI_Recv(buf[i], BIG, MPI_BYTE, 1, tags2[i], i == 1 ? dup : MPI_COMM_WORLD, &st));
      expect(buf[i], sizes2[i], tags2[i], &st, 1);
    }
    fill(buf[6], 2, 99);
    CHECK_MPI(MPI_Send(buf[6], 2, MPI_BYTE, 0, 99, MPI_COMM_WORLD));
    fill(buf[6], 4, 77);
    CHECK_MPI(MPI_Send(buf[6], 4, MPI_BYTE, 0, 77, MPI_COMM_WORLD));
  } else {
    wait_for(idle);
    MPI_Request big;
    for (int i = 0; i < 5; ++i) fill(buf[i], sizes2[i], tags2[i]);
    CHECK_MPI(MPI_Send(buf[0], sizes2[0], MPI_BYTE, 2, tags2[0], MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(buf[1], sizes2[1], MPI_BYTE, 2, tags2[1], dup));
    CHECK_MPI(MPI_Issend(buf[2], sizes2[2], MPI_BYTE, 2, tags2[2], MPI_COMM_WORLD, &big));
    CHECK_MPI(MPI_Send(buf[3], sizes2[3], MPI_BYTE, 2, tags2[3], MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ssend(buf[4], sizes2[4], MPI_BYTE, 2, tags2[4], MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&big, MPI_STATUS_IGNORE));
  }

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Comm_free(&dup));
  MPI_Finalize();
  return 0;
}
