/* p2p_errors: erroneous point-to-point calls under MPI_ERRORS_RETURN (MPI-4.1 9.3 Error
 * Handling, 9.4 Error Codes and Classes). Each call must return (not hang, not abort) an
 * error whose class (MPI_Error_class) is the one the standard names, with a non-empty
 * MPI_Error_string, and the job must still work: a correct exchange around the ring (a
 * checked MPI_Sendrecv) follows every case. MPI_COMM_WORLD and MPI_COMM_SELF (where
 * MPI-4.1 raises errors that have no valid communicator, e.g. MPI_COMM_NULL) both get
 * MPI_ERRORS_RETURN.
 *
 * Argument errors (every rank, on its own; tags of erroneous sends are never received,
 * so a wrongly sent message could not disturb the rest):
 *   MPI_ERR_RANK   destination/source np, -5, MPI_ANY_SOURCE as a destination
 *                  (MPI_Send, MPI_Ssend, MPI_Isend, MPI_Recv, MPI_Irecv, MPI_Sendrecv,
 *                  MPI_Probe, MPI_Iprobe);
 *   MPI_ERR_TAG    negative tags, MPI_ANY_TAG as a send tag, tag MPI_TAG_UB + 1 on sends
 *                  (when the MPI_TAG_UB attribute is below INT_MAX; 3.2.3), -5 on receives;
 *   MPI_ERR_COUNT  count -1 on sends and receives;
 *   MPI_ERR_TYPE   MPI_DATATYPE_NULL, and a derived datatype never committed (5.1 "Commit
 *                  and Free": only committed types may be used in communication);
 *   MPI_ERR_COMM   MPI_COMM_NULL;
 *   NULL request pointer in MPI_Isend / MPI_Irecv: the standard names no class for it;
 *                  MPI_ERR_ARG (MPICH) and MPI_ERR_REQUEST (Open MPI) are both accepted;
 *   MPI_ERR_BUFFER MPI_Bsend with no buffer attached, and with an attached buffer too
 *                  small for the message (3.6: "an error will occur"); a fitting MPI_Bsend
 *                  afterwards works.
 * Truncation (3.2.4: a message longer than the receive buffer is an overflow error, class
 * MPI_ERR_TRUNCATE), each rank receiving from the previous rank on the ring: 20 ints
 * into a 10-int MPI_Recv; 1 MiB into a 256 KiB MPI_Recv; MPI_Irecv + MPI_Wait (the call
 * returns MPI_ERR_TRUNCATE); MPI_Waitany; MPI_Waitall with one good and one truncated
 * receive (MPI_ERR_IN_STATUS, 3.7.5: the truncated one's status MPI_ERROR has class
 * MPI_ERR_TRUNCATE, the good one's MPI_SUCCESS, or MPI_ERR_PENDING and still active).
 * The bytes after the receive buffer must be untouched (canaries). shmpi also promises
 * that the part of the message that fits is delivered (beyond 3.2.4, which only names the
 * error; MPICH 4.0.2 writes nothing for a small truncated message). The sender's
 * completion returns MPI_SUCCESS or MPI_ERR_TRUNCATE (the standard does not say whether
 * the sender sees the error).
 *
 * Environment (set by tests/peer/run_p2p_peer.sh):
 *   P2P_ERRORS_PEER=1 skips shmpi's promises beyond the standard (the delivered prefix).
 *   Peer deviations from the standard:
 *   P2P_ERRORS_PROBE_COMM_NULL_FATAL  Open MPI 4.1.4: MPI_Probe(MPI_COMM_NULL) raises the
 *       error on MPI_COMM_NULL, whose handler is MPI_ERRORS_ARE_FATAL, instead of on
 *       MPI_COMM_WORLD (MPI-3.1 8.3) / MPI_COMM_SELF (MPI-4.1 9.3): the job dies. That
 *       call is left out.
 *   P2P_ERRORS_BSEND_SMALL_UNCHECKED  Open MPI 4.1.4: MPI_Bsend of a small message (100
 *       ints with no buffer attached, 1000 ints with room for 100) succeeds and sends it
 *       (3.6: an error occurs when there is not enough buffer space); it fails with
 *       MPI_ERR_BUFFER only for large ones. Both cases then send 300000 ints.
 *   P2P_ERRORS_BSEND_ERROR_BREAKS_CHANNEL  Open MPI 4.1.4: after an MPI_Bsend failed with
 *       MPI_ERR_BUFFER, no later message from that rank to that destination on that
 *       communicator is delivered (the next MPI_Sendrecv hangs). The failing MPI_Bsends
 *       then use a duplicate of MPI_COMM_WORLD used for nothing else.
 *   P2P_ERRORS_TRUNCATE_LARGE_OVERRUNS  Open MPI 4.1.4: a truncated 1 MiB message is
 *       written past the end of the 256 KiB receive buffer (memory corruption); the
 *       large truncation cases are left out (the 20-into-10-int ones still run).
 *
 * Runs at any number of ranks (meant for 2 and 4). Prints "p2p_errors: OK (N checks)".
 * Usage: p2p_errors */
#include <limits.h>

#include "p2p_util.h"

static MPI_Comm W;
static int next, prev;
static int g_peer; /* P2P_ERRORS_PEER, see the header */
static int alive_round;

/* rc must be an error of class cls (or of one of two classes, when cls2 >= 0). */
static void expect_class2(int rc, int cls, int cls2, const char* call) {
  EXPECT(rc != MPI_SUCCESS, "%s succeeded, want an error of class %d", call, cls);
  const int c = class_of(rc);
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  OK(MPI_Error_string(rc, text, &len));
  EXPECT(c == cls || (cls2 >= 0 && c == cls2), "%s: error class %d (%s), want %d%s", call, c, text, cls,
         cls2 >= 0 ? " or the alternative" : "");
  EXPECT(len > 0 && text[0] != '\0', "%s: empty MPI_Error_string", call);
}
static void expect_class(int rc, int cls, const char* call) { expect_class2(rc, cls, -1, call); }
#define ERR(cls, call) expect_class((call), (cls), #call)

/* A correct exchange around the ring: communication still works. */
static void alive(void) {
  char save[sizeof ctx];
  memcpy(save, ctx, sizeof ctx);
  SETCTX("correct MPI_Sendrecv after: %.200s", save);
  enum { N = 1000 };
  unsigned char* sb = galloc(N);
  unsigned char* rb = galloc(N);
  fill_msg(sb, N, msg_seed(me, next, 0, alive_round));
  MPI_Status st;
  OK(MPI_Sendrecv(sb, N, MPI_BYTE, next, 1, rb, N, MPI_BYTE, prev, 1, W, &st));
  expect_status(&st, prev, 1, MPI_BYTE, N, ctx);
  expect_msg(rb, N, msg_seed(prev, me, 0, alive_round), ctx);
  gcheck(rb, ctx);
  gfree(sb);
  gfree(rb);
  ++alive_round;
}

enum { T_NEVER = 77 }; /* no correct call uses this tag */

static void t_arguments(void) {
  int buf[16] = {0};
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Status st;
  int flag = 0;

  SETCTX("invalid ranks");
  ERR(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, np, T_NEVER, W));
  ERR(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, -5, T_NEVER, W));
  ERR(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, T_NEVER, W));
  ERR(MPI_ERR_RANK, MPI_Ssend(buf, 1, MPI_INT, np + 3, T_NEVER, W));
  ERR(MPI_ERR_RANK, MPI_Isend(buf, 1, MPI_INT, np, T_NEVER, W, &r));
  ERR(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, np, T_NEVER, W, &st));
  ERR(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, -5, T_NEVER, W, &st));
  ERR(MPI_ERR_RANK, MPI_Irecv(buf, 1, MPI_INT, np, T_NEVER, W, &r));
  ERR(MPI_ERR_RANK, MPI_Sendrecv(buf, 1, MPI_INT, np, T_NEVER, buf + 1, 1, MPI_INT, prev, T_NEVER, W, &st));
  ERR(MPI_ERR_RANK, MPI_Probe(np, T_NEVER, W, &st));
  ERR(MPI_ERR_RANK, MPI_Iprobe(np, T_NEVER, W, &flag, &st));
  alive();

  SETCTX("invalid tags");
  int* ub = NULL;
  OK(MPI_Comm_get_attr(W, MPI_TAG_UB, &ub, &flag));
  EXPECT(flag && ub != NULL && *ub >= 32767, "MPI_TAG_UB attribute missing or below 32767 (3.2.3)");
  ERR(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, next, -3, W));
  ERR(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, next, MPI_ANY_TAG, W));
  ERR(MPI_ERR_TAG, MPI_Isend(buf, 1, MPI_INT, next, -3, W, &r));
  ERR(MPI_ERR_TAG, MPI_Ssend(buf, 1, MPI_INT, next, MPI_ANY_TAG, W));
  if (*ub < INT_MAX) {
    ERR(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, next, *ub + 1, W));
    ERR(MPI_ERR_TAG, MPI_Isend(buf, 1, MPI_INT, next, *ub + 1, W, &r));
  }
  ERR(MPI_ERR_TAG, MPI_Recv(buf, 1, MPI_INT, prev, -5, W, &st));
  ERR(MPI_ERR_TAG, MPI_Irecv(buf, 1, MPI_INT, prev, -5, W, &r));
  alive();

  SETCTX("negative counts");
  ERR(MPI_ERR_COUNT, MPI_Send(buf, -1, MPI_INT, next, T_NEVER, W));
  ERR(MPI_ERR_COUNT, MPI_Isend(buf, -1, MPI_INT, next, T_NEVER, W, &r));
  ERR(MPI_ERR_COUNT, MPI_Recv(buf, -1, MPI_INT, prev, T_NEVER, W, &st));
  ERR(MPI_ERR_COUNT, MPI_Irecv(buf, -1, MPI_INT, prev, T_NEVER, W, &r));
  alive();

  SETCTX("MPI_DATATYPE_NULL");
  ERR(MPI_ERR_TYPE, MPI_Send(buf, 1, MPI_DATATYPE_NULL, next, T_NEVER, W));
  ERR(MPI_ERR_TYPE, MPI_Isend(buf, 1, MPI_DATATYPE_NULL, next, T_NEVER, W, &r));
  ERR(MPI_ERR_TYPE, MPI_Recv(buf, 1, MPI_DATATYPE_NULL, prev, T_NEVER, W, &st));
  ERR(MPI_ERR_TYPE, MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, prev, T_NEVER, W, &r));
  alive();
  SETCTX("uncommitted datatype");
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
  ERR(MPI_ERR_TYPE, MPI_Send(buf, 1, vec, next, T_NEVER, W));
  ERR(MPI_ERR_TYPE, MPI_Isend(buf, 1, vec, next, T_NEVER, W, &r));
  ERR(MPI_ERR_TYPE, MPI_Recv(buf, 1, vec, prev, T_NEVER, W, &st));
  ERR(MPI_ERR_TYPE, MPI_Irecv(buf, 1, vec, prev, T_NEVER, W, &r));
  CHECK_MPI(MPI_Type_free(&vec));
  alive();

  SETCTX("MPI_COMM_NULL");
  ERR(MPI_ERR_COMM, MPI_Send(buf, 1, MPI_INT, 0, T_NEVER, MPI_COMM_NULL));
  ERR(MPI_ERR_COMM, MPI_Isend(buf, 1, MPI_INT, 0, T_NEVER, MPI_COMM_NULL, &r));
  ERR(MPI_ERR_COMM, MPI_Recv(buf, 1, MPI_INT, 0, T_NEVER, MPI_COMM_NULL, &st));
  ERR(MPI_ERR_COMM, MPI_Irecv(buf, 1, MPI_INT, 0, T_NEVER, MPI_COMM_NULL, &r));
  if (!env("P2P_ERRORS_PROBE_COMM_NULL_FATAL")) ERR(MPI_ERR_COMM, MPI_Probe(0, T_NEVER, MPI_COMM_NULL, &st));
  alive();

  SETCTX("NULL request pointer");
  /* No class is named by the standard: MPICH says MPI_ERR_ARG, Open MPI MPI_ERR_REQUEST. */
  expect_class2(MPI_Isend(buf, 1, MPI_INT, me, T_NEVER, W, NULL), MPI_ERR_ARG, MPI_ERR_REQUEST,
                "MPI_Isend(request NULL)");
  expect_class2(MPI_Irecv(buf, 1, MPI_INT, me, T_NEVER + 1, W, NULL), MPI_ERR_ARG, MPI_ERR_REQUEST,
                "MPI_Irecv(request NULL)");
  alive();
}

static void t_bsend(void) {
  enum { SMALL = 100, BIG = 1000, HUGE = 300000 };
  static int data[HUGE];
  for (int i = 0; i < HUGE; ++i) data[i] = i * 7 + me;
  /* P2P_ERRORS_BSEND_SMALL_UNCHECKED: see the header */
  const int small_unchecked = env("P2P_ERRORS_BSEND_SMALL_UNCHECKED");
  const int n_unattached = small_unchecked ? HUGE : SMALL, n_over = small_unchecked ? HUGE : BIG;
  /* P2P_ERRORS_BSEND_ERROR_BREAKS_CHANNEL: the failing calls use a communicator of their own */
  MPI_Comm bc = W;
  if (env("P2P_ERRORS_BSEND_ERROR_BREAKS_CHANNEL")) CHECK_MPI(MPI_Comm_dup(W, &bc));
  SETCTX("MPI_Bsend of %d ints with no buffer attached", n_unattached);
  ERR(MPI_ERR_BUFFER, MPI_Bsend(data, n_unattached, MPI_INT, next, T_NEVER, bc));
  alive();
  SETCTX("MPI_Bsend of %d ints, larger than the attached buffer", n_over);
  int psize = 0;
  OK(MPI_Pack_size(SMALL, MPI_INT, W, &psize));
  const int bsize = psize + MPI_BSEND_OVERHEAD;
  char* bbuf = malloc((size_t)bsize);
  CHECK(bbuf != NULL, "malloc");
  OK(MPI_Buffer_attach(bbuf, bsize));
  ERR(MPI_ERR_BUFFER, MPI_Bsend(data, n_over, MPI_INT, next, T_NEVER, bc));
  alive();
  SETCTX("MPI_Bsend that fits, after the errors");
  int got[SMALL + 1];
  MPI_Request r;
  MPI_Status st;
  got[SMALL] = -12345;
  OK(MPI_Irecv(got, SMALL + 1, MPI_INT, prev, 5, W, &r));
  OK(MPI_Bsend(data, SMALL, MPI_INT, next, 5, W));
  OK(MPI_Wait(&r, &st));
  expect_status(&st, prev, 5, MPI_INT, SMALL, ctx);
  for (int i = 0; i < SMALL; ++i) EXPECT(got[i] == i * 7 + prev, "int %d is %d, want %d", i, got[i], i * 7 + prev);
  EXPECT(got[SMALL] == -12345, "the int after the message was written");
  void* addr = NULL;
  int size = 0;
  OK(MPI_Buffer_detach(&addr, &size));
  EXPECT(addr == bbuf && size == bsize, "MPI_Buffer_detach gave %p %d, attached %p %d", addr, size, (void*)bbuf,
         bsize);
  free(bbuf);
  alive();
  if (bc != W) CHECK_MPI(MPI_Comm_free(&bc));
}

/* The sender's side of a truncated message: MPI_SUCCESS or MPI_ERR_TRUNCATE. */
static void sender_done(MPI_Request* r) {
  const int rc = MPI_Wait(r, MPI_STATUS_IGNORE);
  EXPECT(rc == MPI_SUCCESS || class_of(rc) == MPI_ERR_TRUNCATE, "sender's MPI_Wait returned class %d",
         class_of(rc));
}

/* A message of n ints (int i of the message from s is s * 1000003 + i). */
static int* ints(int s, int n) {
  int* a = malloc((size_t)n * sizeof *a + 1);
  CHECK(a != NULL, "malloc");
  for (int i = 0; i < n; ++i) a[i] = s * 1000003 + i;
  return a;
}
static void expect_prefix(const unsigned char* rb, int n, int s) {
  for (int i = 0; i < n; ++i) {
    int v;
    memcpy(&v, rb + (size_t)i * 4, 4);
    EXPECT(v == s * 1000003 + i, "int %d of the delivered prefix is %d, want %d", i, v, s * 1000003 + i);
  }
}

static void t_truncate(void) {
  static const int sent[2] = {20, 1 << 18}, cap[2] = {10, 1 << 16}; /* 80 B into 40, 1 MiB into 256 KiB */
  /* P2P_ERRORS_TRUNCATE_LARGE_OVERRUNS: see the header */
  const int nz = env("P2P_ERRORS_TRUNCATE_LARGE_OVERRUNS") ? 1 : 2;
  for (int z = 0; z < nz; ++z) {
    int* sb = ints(me, sent[z]);
    for (int way = 0; way < 4; ++way) {
      static const char* const how[4] = {"MPI_Recv", "MPI_Irecv + MPI_Wait", "MPI_Irecv + MPI_Waitany",
                                         "MPI_Irecv + MPI_Waitall with a good receive"};
      SETCTX("truncation: %d ints into %d, %s", sent[z], cap[z], how[way]);
      const int tag = 10 + way;
      unsigned char* rb = galloc((size_t)cap[z] * 4);
      MPI_Request sr, rr[2];
      MPI_Status st[2];
      OK(MPI_Isend(sb, sent[z], MPI_INT, next, tag, W, &sr));
      int rc = MPI_SUCCESS;
      if (way == 0) {
        rc = MPI_Recv(rb, cap[z], MPI_INT, prev, tag, W, &st[0]);
        expect_class(rc, MPI_ERR_TRUNCATE, "MPI_Recv");
      } else if (way == 1) {
        OK(MPI_Irecv(rb, cap[z], MPI_INT, prev, tag, W, &rr[0]));
        rc = MPI_Wait(&rr[0], &st[0]);
        expect_class(rc, MPI_ERR_TRUNCATE, "MPI_Wait");
        EXPECT(rr[0] == MPI_REQUEST_NULL, "the failed request was not freed");
      } else if (way == 2) {
        int index = -1;
        rr[0] = MPI_REQUEST_NULL;
        OK(MPI_Irecv(rb, cap[z], MPI_INT, prev, tag, W, &rr[1]));
        rc = MPI_Waitany(2, rr, &index, &st[0]);
        expect_class(rc, MPI_ERR_TRUNCATE, "MPI_Waitany");
        EXPECT(index == 1, "MPI_Waitany index %d", index);
      } else {
        /* the good receive: the same message size, sent first with another tag */
        int* gsb = ints(me + 100, 64);
        unsigned char* grb = galloc(64 * 4);
        MPI_Request gsr;
        OK(MPI_Isend(gsb, 64, MPI_INT, next, 30, W, &gsr));
        OK(MPI_Irecv(grb, 64, MPI_INT, prev, 30, W, &rr[0]));
        OK(MPI_Irecv(rb, cap[z], MPI_INT, prev, tag, W, &rr[1]));
        st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
        rc = MPI_Waitall(2, rr, st);
        expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Waitall");
        expect_class(st[1].MPI_ERROR, MPI_ERR_TRUNCATE, "MPI_Waitall: MPI_ERROR of the truncated receive");
        EXPECT(st[0].MPI_ERROR == MPI_SUCCESS || st[0].MPI_ERROR == MPI_ERR_PENDING,
               "MPI_Waitall: MPI_ERROR of the good receive is %d (class %d)", st[0].MPI_ERROR,
               st[0].MPI_ERROR == -1 ? -1 : class_of(st[0].MPI_ERROR));
        if (st[0].MPI_ERROR == MPI_ERR_PENDING) {
          EXPECT(rr[0] != MPI_REQUEST_NULL, "a pending request was freed");
          OK(MPI_Wait(&rr[0], &st[0]));
        }
        expect_status(&st[0], prev, 30, MPI_INT, 64, "the good receive");
        expect_prefix(grb, 64, prev + 100);
        gcheck(grb, "the good receive");
        OK(MPI_Wait(&gsr, MPI_STATUS_IGNORE));
        free(gsb);
        gfree(grb);
      }
      if (!g_peer) expect_prefix(rb, cap[z], prev);
      gcheck(rb, ctx);
      sender_done(&sr);
      gfree(rb);
      alive();
    }
    free(sb);
  }
}

int main(int argc, char** argv) {
  p2p_init(&argc, &argv);
  W = MPI_COMM_WORLD;
  g_peer = env("P2P_ERRORS_PEER");
  next = (me + 1) % np;
  prev = (me + np - 1) % np;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  alive();
  t_arguments();
  t_bsend();
  t_truncate();
  p2p_finish("p2p_errors");
  return 0;
}
