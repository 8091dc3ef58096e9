/* p2p_probe: MPI_Probe / MPI_Iprobe and the matched probes MPI_Mprobe / MPI_Improbe with
 * MPI_Mrecv / MPI_Imrecv (MPI-4.1 3.8.1, 3.8.2, 3.8.3).
 *
 *  - nothing to match: MPI_Iprobe on a tag nobody sends (specific source, MPI_ANY_SOURCE)
 *    and MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) on a communicator nobody uses give
 *    flag = false, and so does MPI_Improbe;
 *  - probe does not receive: messages of 0, 5 bytes and 1 MiB (tags 10, 11, 12) from the
 *    previous rank on a ring are probed out of order (MPI_Probe twice on the same message
 *    gives the same status; MPI_Probe(source, MPI_ANY_TAG) the first one sent; MPI_Iprobe
 *    polled until true), with status source, tag, MPI_Get_count and MPI_Get_elements in
 *    the sent type (the 1 MiB one is MPI_INTs; for 5 bytes and a 2-byte type: count
 *    MPI_UNDEFINED, elements 5); then received into buffers sized from the probe;
 *    afterwards MPI_Iprobe finds nothing. (Types always match the sender's, 3.3.1);
 *  - a probe on one communicator does not see a message on another (same tag, source);
 *  - matched probe removes the message from matching (3.8.2): of two tag-20 messages A
 *    (1000 B) and B (1 MiB) and a tag-21 message C (0 B), MPI_Mprobe takes A, after which
 *    MPI_Probe(tag 20) sees B; MPI_Improbe takes B; MPI_Iprobe(tag 20) (source and
 *    MPI_ANY_SOURCE) then finds nothing, MPI_Mprobe(MPI_ANY_TAG) gives C. They are then
 *    received in the order C (MPI_Mrecv), B (MPI_Imrecv, as MPI_INTs), A (MPI_Mrecv) with
 *    exact payloads; each message handle becomes MPI_MESSAGE_NULL;
 *  - MPI_PROC_NULL: MPI_Probe and MPI_Iprobe (flag true) return source MPI_PROC_NULL, tag
 *    MPI_ANY_TAG, count 0; MPI_Mprobe / MPI_Improbe return MPI_MESSAGE_NO_PROC, and
 *    MPI_Mrecv / MPI_Imrecv of it give that status without touching the buffer;
 *  - wildcards: rank 0 takes one message from every rank (itself included) with
 *    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG) + MPI_Recv of exactly the probed source, tag
 *    and size, then with MPI_Mprobe + MPI_Mrecv, then MPI_Improbe + MPI_Imrecv.
 * Runs at any number of ranks (1: from oneself). Prints "p2p_probe: OK (N checks)".
 * Usage: p2p_probe */
#include "p2p_util.h"

static MPI_Comm W;
enum { T_NONE = 999, EXTRA = 3 };

static void t_nothing(void) {
  MPI_Comm fresh;
  CHECK_MPI(MPI_Comm_dup(W, &fresh));
  const int prev = (me + np - 1) % np;
  for (int i = 0; i < 50; ++i) {
    int flag = -1;
    MPI_Status st;
    MPI_Message msg = MPI_MESSAGE_NULL;
    SETCTX("MPI_Iprobe(prev, tag nobody sends)");
    OK(MPI_Iprobe(prev, T_NONE, W, &flag, &st));
    EXPECT(flag == 0, "flag %d", flag);
    SETCTX("MPI_Iprobe(MPI_ANY_SOURCE, tag nobody sends)");
    OK(MPI_Iprobe(MPI_ANY_SOURCE, T_NONE, W, &flag, &st));
    EXPECT(flag == 0, "flag %d", flag);
    SETCTX("MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) on an unused communicator");
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, fresh, &flag, &st));
    EXPECT(flag == 0, "flag %d", flag);
    SETCTX("MPI_Improbe(MPI_ANY_SOURCE, tag nobody sends)");
    flag = -1;
    OK(MPI_Improbe(MPI_ANY_SOURCE, T_NONE, W, &flag, &msg, &st));
    EXPECT(flag == 0, "flag %d", flag);
  }
  CHECK_MPI(MPI_Comm_free(&fresh));
}

static void t_probe(void) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  static const size_t size[3] = {0, 5, 1u << 20};
  const MPI_Datatype type[3] = {MPI_BYTE, MPI_BYTE, MPI_INT};
  static const size_t unit[3] = {1, 1, 4};
  MPI_Datatype pair; /* two bytes: 5 bytes are 2.5 of them */
  CHECK_MPI(MPI_Type_contiguous(2, MPI_BYTE, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  unsigned char* sb[3];
  MPI_Request rq[3];
  for (int k = 0; k < 3; ++k) {
    sb[k] = galloc(size[k]);
    fill_msg(sb[k], size[k], msg_seed(me, next, k, 1));
    /* the 1 MiB message is sent (and received) as MPI_INTs, the others as bytes */
    OK(MPI_Isend(sb[k], (int)(size[k] / unit[k]), type[k], next, 10 + k, W, &rq[k]));
  }
  MPI_Status st, st2;
  int n = -1;
  SETCTX("MPI_Probe 1 MiB");
  poison_status(&st);
  OK(MPI_Probe(prev, 12, W, &st));
  expect_status(&st, prev, 12, MPI_INT, (int)size[2] / 4, ctx);
  OK(MPI_Get_elements(&st, MPI_INT, &n));
  EXPECT(n == (int)size[2] / 4, "MPI_Get_elements(MPI_INT) %d", n);
  SETCTX("MPI_Probe 1 MiB again");
  poison_status(&st2);
  OK(MPI_Probe(prev, 12, W, &st2));
  expect_status(&st2, prev, 12, MPI_INT, (int)size[2] / 4, ctx);
  SETCTX("MPI_Probe(source, MPI_ANY_TAG) sees the first message, 0 bytes");
  OK(MPI_Probe(prev, MPI_ANY_TAG, W, &st));
  expect_status(&st, prev, 10, MPI_BYTE, 0, ctx);
  SETCTX("MPI_Probe 5 bytes");
  OK(MPI_Probe(prev, 11, W, &st));
  expect_status(&st, prev, 11, MPI_BYTE, 5, ctx);
  OK(MPI_Get_count(&st, pair, &n));
  EXPECT(n == MPI_UNDEFINED, "MPI_Get_count(contiguous(2, MPI_BYTE)) of 5 bytes %d, want MPI_UNDEFINED", n);
  OK(MPI_Get_elements(&st, pair, &n));
  EXPECT(n == 5, "MPI_Get_elements(contiguous(2, MPI_BYTE)) of 5 bytes %d, want 5", n);
  CHECK_MPI(MPI_Type_free(&pair));
  SETCTX("MPI_Iprobe 0 bytes");
  int flag = 0;
  while (!flag) CHECK_MPI(MPI_Iprobe(prev, 10, W, &flag, &st));
  expect_status(&st, prev, 10, MPI_BYTE, 0, ctx);
  /* receive in the order 12, 11, 10 into buffers of the probed size */
  for (int k = 2; k >= 0; --k) {
    SETCTX("MPI_Recv after MPI_Probe, %zu bytes", size[k]);
    OK(MPI_Probe(prev, 10 + k, W, &st));
    OK(MPI_Get_count(&st, type[k], &n));
    EXPECT(n == (int)(size[k] / unit[k]), "probed %d elements", n);
    unsigned char* rb = galloc((size_t)n * unit[k]);
    OK(MPI_Recv(rb, n, type[k], st.MPI_SOURCE, st.MPI_TAG, W, &st2));
    expect_status(&st2, prev, 10 + k, type[k], (int)(size[k] / unit[k]), ctx);
    expect_msg(rb, size[k], msg_seed(prev, me, k, 1), ctx);
    gcheck(rb, ctx);
    gfree(rb);
  }
  OK(MPI_Waitall(3, rq, STATUSES_IGNORE));
  SETCTX("MPI_Iprobe after the messages were received");
  for (int k = 0; k < 3; ++k) {
    OK(MPI_Iprobe(prev, 10 + k, W, &flag, &st));
    EXPECT(!flag, "tag %d still seen", 10 + k);
    gfree(sb[k]);
  }
  OK(MPI_Barrier(W)); /* nobody's prev sends tag 10..12 again before everyone checked */

  /* another communicator */
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(W, &dup));
  unsigned char* s1 = galloc(100);
  fill_msg(s1, 100, msg_seed(me, next, 5, 1));
  OK(MPI_Isend(s1, 100, MPI_BYTE, next, 30, dup, &rq[0]));
  SETCTX("MPI_Probe on a dup; MPI_Iprobe on MPI_COMM_WORLD");
  OK(MPI_Probe(prev, 30, dup, &st));
  expect_status(&st, prev, 30, MPI_BYTE, 100, ctx);
  OK(MPI_Iprobe(prev, 30, W, &flag, &st));
  EXPECT(!flag, "MPI_Iprobe on MPI_COMM_WORLD saw the dup's message");
  OK(MPI_Iprobe(MPI_ANY_SOURCE, 30, W, &flag, &st));
  EXPECT(!flag, "MPI_Iprobe(MPI_ANY_SOURCE, 30) on MPI_COMM_WORLD saw the dup's message (source %d)", st.MPI_SOURCE);
  unsigned char* r1 = galloc(100);
  OK(MPI_Recv(r1, 100, MPI_BYTE, prev, 30, dup, &st));
  expect_msg(r1, 100, msg_seed(prev, me, 5, 1), ctx);
  OK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
  gfree(s1);
  gfree(r1);
  CHECK_MPI(MPI_Comm_free(&dup));
}

static void t_matched(void) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  static const size_t size[3] = {1000, 1u << 20, 0}; /* A, B (tag 20), C (tag 21) */
  static const int tag[3] = {20, 20, 21};
  unsigned char* sb[3];
  MPI_Request rq[3];
  for (int k = 0; k < 3; ++k) {
    sb[k] = galloc(size[k]);
    fill_msg(sb[k], size[k], msg_seed(me, next, 20 + k, 2));
    /* B is sent and received as MPI_INTs */
    const int count = k == 1 ? (int)size[k] / 4 : (int)size[k];
    OK(MPI_Isend(sb[k], count, k == 1 ? MPI_INT : MPI_BYTE, next, tag[k], W, &rq[k]));
  }
  MPI_Message ma = MPI_MESSAGE_NULL, mb = MPI_MESSAGE_NULL, mc = MPI_MESSAGE_NULL;
  MPI_Status st;
  int flag = 0;
  SETCTX("MPI_Mprobe(prev, 20): message A");
  poison_status(&st);
  OK(MPI_Mprobe(prev, 20, W, &ma, &st));
  EXPECT(ma != MPI_MESSAGE_NULL && ma != MPI_MESSAGE_NO_PROC, "bad message handle");
  expect_status(&st, prev, 20, MPI_BYTE, (int)size[0], ctx);
  SETCTX("MPI_Probe(prev, 20) after MPI_Mprobe took A: sees B");
  OK(MPI_Probe(prev, 20, W, &st));
  expect_status(&st, prev, 20, MPI_INT, (int)size[1] / 4, ctx);
  SETCTX("MPI_Improbe(prev, 20): message B");
  while (!flag) CHECK_MPI(MPI_Improbe(prev, 20, W, &flag, &mb, &st));
  EXPECT(mb != MPI_MESSAGE_NULL && mb != MPI_MESSAGE_NO_PROC && mb != ma, "bad message handle");
  expect_status(&st, prev, 20, MPI_INT, (int)size[1] / 4, ctx);
  SETCTX("MPI_Iprobe(tag 20) once A and B are matched");
  OK(MPI_Iprobe(prev, 20, W, &flag, &st));
  EXPECT(!flag, "a matched message is still seen by MPI_Iprobe(prev, 20)");
  OK(MPI_Iprobe(MPI_ANY_SOURCE, 20, W, &flag, &st));
  EXPECT(!flag, "a matched message is still seen by MPI_Iprobe(MPI_ANY_SOURCE, 20)");
  flag = -1;
  MPI_Message mx = MPI_MESSAGE_NULL;
  OK(MPI_Improbe(prev, 20, W, &flag, &mx, &st));
  EXPECT(!flag, "a matched message is matched again by MPI_Improbe(prev, 20)");
  SETCTX("MPI_Mprobe(prev, MPI_ANY_TAG): message C");
  OK(MPI_Mprobe(prev, MPI_ANY_TAG, W, &mc, &st));
  expect_status(&st, prev, 21, MPI_BYTE, 0, ctx);

  SETCTX("MPI_Mrecv of C (0 bytes)");
  unsigned char* rc = galloc(8);
  poison_status(&st);
  OK(MPI_Mrecv(rc, 8, MPI_BYTE, &mc, &st));
  EXPECT(mc == MPI_MESSAGE_NULL, "MPI_Mrecv did not set the handle to MPI_MESSAGE_NULL");
  expect_status(&st, prev, 21, MPI_BYTE, 0, ctx);
  expect_fill(rc, 0, 8, ctx);
  gcheck(rc, ctx);
  SETCTX("MPI_Imrecv of B (1 MiB as MPI_INT)");
  unsigned char* rbb = galloc(size[1] + 16);
  MPI_Request r;
  OK(MPI_Imrecv(rbb, (int)(size[1] + 16) / 4, MPI_INT, &mb, &r));
  EXPECT(mb == MPI_MESSAGE_NULL, "MPI_Imrecv did not set the handle to MPI_MESSAGE_NULL");
  poison_status(&st);
  OK(MPI_Wait(&r, &st));
  expect_status(&st, prev, 20, MPI_INT, (int)size[1] / 4, ctx);
  expect_msg(rbb, size[1], msg_seed(prev, me, 21, 2), ctx);
  expect_fill(rbb, size[1], size[1] + 16, ctx);
  gcheck(rbb, ctx);
  SETCTX("MPI_Mrecv of A (1000 bytes)");
  unsigned char* ra = galloc(size[0] + EXTRA);
  poison_status(&st);
  OK(MPI_Mrecv(ra, (int)size[0] + EXTRA, MPI_BYTE, &ma, &st));
  EXPECT(ma == MPI_MESSAGE_NULL, "MPI_Mrecv did not set the handle to MPI_MESSAGE_NULL");
  expect_status(&st, prev, 20, MPI_BYTE, (int)size[0], ctx);
  expect_msg(ra, size[0], msg_seed(prev, me, 20, 2), ctx);
  expect_fill(ra, size[0], size[0] + EXTRA, ctx);
  gcheck(ra, ctx);
  OK(MPI_Waitall(3, rq, STATUSES_IGNORE));
  for (int k = 0; k < 3; ++k) gfree(sb[k]);
  gfree(ra), gfree(rbb), gfree(rc);
  OK(MPI_Barrier(W));
}

static void t_proc_null(void) {
  unsigned char* rb = galloc(32);
  MPI_Status st;
  MPI_Message m = MPI_MESSAGE_NULL;
  MPI_Request r;
  int flag = 0;
  SETCTX("MPI_Probe(MPI_PROC_NULL)");
  poison_status(&st);
  OK(MPI_Probe(MPI_PROC_NULL, 3, W, &st));
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  SETCTX("MPI_Iprobe(MPI_PROC_NULL)");
  poison_status(&st);
  OK(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, W, &flag, &st));
  EXPECT(flag, "flag false");
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  SETCTX("MPI_Mprobe(MPI_PROC_NULL) + MPI_Mrecv");
  poison_status(&st);
  OK(MPI_Mprobe(MPI_PROC_NULL, 3, W, &m, &st));
  EXPECT(m == MPI_MESSAGE_NO_PROC, "message handle is not MPI_MESSAGE_NO_PROC");
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  poison_status(&st);
  OK(MPI_Mrecv(rb, 32, MPI_BYTE, &m, &st));
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  expect_fill(rb, 0, 32, ctx);
  SETCTX("MPI_Improbe(MPI_PROC_NULL) + MPI_Imrecv");
  flag = 0;
  m = MPI_MESSAGE_NULL;
  poison_status(&st);
  OK(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, W, &flag, &m, &st));
  EXPECT(flag, "flag false");
  EXPECT(m == MPI_MESSAGE_NO_PROC, "message handle is not MPI_MESSAGE_NO_PROC");
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  OK(MPI_Imrecv(rb, 8, MPI_INT, &m, &r));
  poison_status(&st);
  OK(MPI_Wait(&r, &st));
  expect_proc_null_status(&st, MPI_INT, ctx);
  expect_fill(rb, 0, 32, ctx);
  gcheck(rb, ctx);
  gfree(rb);
}

static size_t wsize(int r, int round) { return (size_t)(r * 1237 + round * 100001) % 150000; }

static void t_wildcards(void) {
  for (int round = 0; round < 3; ++round) {
    static const char* const how[3] = {"MPI_Probe(ANY, ANY) + MPI_Recv", "MPI_Mprobe(ANY, ANY) + MPI_Mrecv",
                                       "MPI_Improbe(ANY, ANY) + MPI_Imrecv"};
    const size_t n = wsize(me, round);
    unsigned char* sb = galloc(n);
    fill_msg(sb, n, msg_seed(me, 0, 40, round));
    MPI_Request sr;
    OK(MPI_Isend(sb, (int)n, MPI_BYTE, 0, 60 + me, W, &sr));
    if (me == 0) {
      char* seen = calloc((size_t)np, 1);
      CHECK(seen != NULL, "calloc");
      for (int i = 0; i < np; ++i) {
        SETCTX("rank 0: %s, message %d", how[round], i);
        MPI_Status st, st2;
        MPI_Message m = MPI_MESSAGE_NULL;
        MPI_Request r;
        int flag = 0, cnt = -1;
        poison_status(&st);
        if (round == 0) OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &st));
        if (round == 1) OK(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &m, &st));
        if (round == 2)
          while (!flag) CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &flag, &m, &st));
        const int s = st.MPI_SOURCE;
        EXPECT(s >= 0 && s < np && !seen[s], "source %d (out of range or seen before)", s);
        seen[s] = 1;
        expect_status(&st, s, 60 + s, MPI_BYTE, (int)wsize(s, round), ctx);
        OK(MPI_Get_count(&st, MPI_BYTE, &cnt));
        unsigned char* rb = galloc((size_t)cnt);
        poison_status(&st2);
        if (round == 0) OK(MPI_Recv(rb, cnt, MPI_BYTE, s, st.MPI_TAG, W, &st2));
        if (round == 1) OK(MPI_Mrecv(rb, cnt, MPI_BYTE, &m, &st2));
        if (round == 2) {
          OK(MPI_Imrecv(rb, cnt, MPI_BYTE, &m, &r));
          OK(MPI_Wait(&r, &st2));
        }
        expect_status(&st2, s, 60 + s, MPI_BYTE, cnt, ctx);
        expect_msg(rb, (size_t)cnt, msg_seed(s, 0, 40, round), ctx);
        gcheck(rb, ctx);
        gfree(rb);
      }
      free(seen);
    }
    OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    gfree(sb);
    OK(MPI_Barrier(W));
  }
}

int main(int argc, char** argv) {
  p2p_init(&argc, &argv);
  W = MPI_COMM_WORLD;
  t_nothing();
  OK(MPI_Barrier(W));
  t_probe();
  t_matched();
  t_proc_null();
  t_wildcards();
  t_nothing(); /* still nothing left over */
  p2p_finish("p2p_probe");
  return 0;
}
