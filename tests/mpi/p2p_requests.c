/* p2p_requests: nonblocking point-to-point requests (MPI-4.1 3.7, 3.8.4, 3.9).
 *
 * Pairs (0,1), (2,3), ...: the lower rank drives, the upper one sends data messages only
 * when the driver tells it to (a command message), so whether a receive can have
 * completed is known at every step and the checks are race-free. A rank without a
 * partner (1 rank, or the last of an odd number) plays both roles, sending to itself.
 *
 *  - completion calls on MPI_Irecv requests (3.7.5): with nothing sent, MPI_Test gives
 *    flag false, MPI_Testany flag false and index MPI_UNDEFINED, MPI_Testsome outcount
 *    0, MPI_Testall flag false, leaving the requests active; then MPI_Waitany returns
 *    exactly the one index whose message was sent, MPI_Waitsome / MPI_Testsome only the
 *    indices sent, each once, with their statuses (source, tag, count); completed
 *    requests become MPI_REQUEST_NULL; on arrays of null requests MPI_Waitany /
 *    MPI_Testany give MPI_UNDEFINED (Testany with flag true), MPI_Waitsome /
 *    MPI_Testsome outcount MPI_UNDEFINED, MPI_Waitall / MPI_Testall and MPI_Wait /
 *    MPI_Test empty statuses (source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0); MPI_Waitall
 *    and MPI_Testall with statuses and with MPI_STATUSES_IGNORE; MPI_Testall is false
 *    while one request is still incomplete and frees nothing then (MPI_Request_get_status
 *    sees the completed one without freeing it);
 *  - MPI_Issend (3.4, 3.7.2): its request does not complete (MPI_Test and
 *    MPI_Request_get_status flag false, 20 times over 40 ms) while the receiver has not
 *    posted a receive, the receiver posting only after a second message tells it to;
 *    then it completes; 0 bytes and 1 MiB;
 *  - MPI_Cancel (3.8.4): of a posted MPI_Irecv that nothing matches (specific source and
 *    MPI_ANY_SOURCE): MPI_Wait / MPI_Test complete it and MPI_Test_cancelled is true; a
 *    message sent afterwards with that tag goes to a new receive. Of a receive that has
 *    already completed (seen by MPI_Request_get_status): MPI_Test_cancelled is false and
 *    the data is there;
 *  - MPI_Request_free of an active MPI_Isend request (3.7.3): the message still arrives
 *    (0 bytes, 328 bytes, 1 MiB + 5), intact;
 *  - persistent requests (3.9) around the ring (next rank / previous rank): MPI_Send_init
 *    + MPI_Recv_init started 1000 times (MPI_Start and MPI_Startall alternating, a small
 *    and a 128 KiB message each time, new payload every time), MPI_Ssend_init,
 *    MPI_Bsend_init (buffer attached) and MPI_Rsend_init (started only once the
 *    receiver's persistent receive is started and it said so) 200 times each; an inactive
 *    persistent request gives an empty status to MPI_Test and MPI_Wait; MPI_Request_free
 *    sets it to MPI_REQUEST_NULL;
 *  - large-count calls (MPI_VERSION >= 4): MPI_Send_c, MPI_Recv_c, MPI_Isend_c,
 *    MPI_Irecv_c, MPI_Sendrecv_c with MPI_Get_count_c.
 * Runs at any number of ranks. Prints "p2p_requests: OK (N checks)".
 *
 * Peer toggles (set by tests/peer/run_p2p_peer.sh), each avoiding one peer bug:
 *   P2P_REQUESTS_BSEND_INIT_SMALL_ONLY  Open MPI 4.1.4: a persistent buffered send of
 *       1 KiB or more delivers the first start's data again (or garbage) on every later
 *       MPI_Start; the 128 KiB message of the MPI_Bsend_init round then uses
 *       MPI_Send_init (the 64-byte one stays buffered).
 *   P2P_REQUESTS_FREED_SELF_SENDS_ONE_AT_A_TIME  MPICH 4.0.2: with two freed MPI_Isend
 *       requests to oneself pending, MPI_Recv of the first hangs (one at a time works);
 *       a rank alone then receives each such message before it sends the next.
 * Usage: p2p_requests */
#include <unistd.h>

#include "p2p_util.h"

static MPI_Comm W;
static int pa, pb; /* this rank's pair: driver pa, sender pb (pa == pb == me: alone) */
enum { EXTRA = 3, T_CMD = 1, T_GO = 2 };
enum { OP_STOP, OP_SEND, OP_ISSEND, OP_FREE_SEND };

/* data message with tag t, from pb to pa: tags ending in 0 are 0 bytes, in 3 or 8 1 MiB+ */
static size_t dsize(int t) {
  if (t % 10 == 0) return 0;
  if (t % 5 == 3) return (1u << 20) + (size_t)(t % 7);
  return (size_t)(t * 37) % 3000 + 1;
}
static uint32_t dseed(int t) { return msg_seed(pb, pa, t, 0); }

/* Messages a rank alone sends to itself (OP_SEND), completed by end_alone(). */
static MPI_Request alone_rq[64];
static unsigned char* alone_buf[64];
static int alone_n;

static unsigned char* data_buf(int t) {
  unsigned char* b = galloc(dsize(t));
  fill_msg(b, dsize(t), dseed(t));
  return b;
}

/* The sender's side of the Issend check (3.4: a synchronous send completes only once a
 * matching receive has started): nothing is posted at pa until pb says "go". */
static void issend_check(int t) {
  unsigned char* b = data_buf(t);
  MPI_Request r;
  OK(MPI_Issend(b, (int)dsize(t), MPI_BYTE, pa, t, W, &r));
  for (int i = 0; i < 20; ++i) {
    int flag = -1;
    MPI_Status st;
    OK(MPI_Request_get_status(r, &flag, &st));
    EXPECT(!flag, "MPI_Request_get_status: MPI_Issend of %zu bytes complete before any receive was posted", dsize(t));
    OK(MPI_Test(&r, &flag, &st));
    EXPECT(!flag, "MPI_Test: MPI_Issend of %zu bytes complete before any receive was posted", dsize(t));
    EXPECT(r != MPI_REQUEST_NULL, "MPI_Test freed an incomplete request");
    usleep(2000);
  }
  if (pa == pb) { /* alone: post the receive now */
    unsigned char* rb = galloc(dsize(t) + EXTRA);
    MPI_Status st;
    OK(MPI_Recv(rb, (int)dsize(t) + EXTRA, MPI_BYTE, me, t, W, &st));
    expect_status(&st, me, t, MPI_BYTE, (int)dsize(t), ctx);
    expect_msg(rb, dsize(t), dseed(t), ctx);
    gcheck(rb, ctx);
    gfree(rb);
  } else {
    int go = 0;
    OK(MPI_Send(&go, 1, MPI_INT, pa, T_GO, W));
  }
  OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  EXPECT(r == MPI_REQUEST_NULL, "MPI_Wait did not free the request");
  gfree(b);
}

/* Isend + MPI_Request_free; the buffers are released at the end (the sender cannot know
 * when the send completed, 3.7.3). */
static unsigned char* freed_buf[8];
static int nfreed;
static void free_send(int t) {
  unsigned char* b = data_buf(t);
  MPI_Request r;
  OK(MPI_Isend(b, (int)dsize(t), MPI_BYTE, pa, t, W, &r));
  OK(MPI_Request_free(&r));
  EXPECT(r == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
  CHECK(nfreed < 8, "test bug");
  freed_buf[nfreed++] = b;
}

/* Driver: have pb do op with tag t. */
static void command(int op, int t) {
  if (pa != pb) {
    const int cmd[2] = {op, t};
    OK(MPI_Send(cmd, 2, MPI_INT, pb, T_CMD, W));
    return;
  }
  if (op == OP_SEND) {
    CHECK(alone_n < 64, "test bug");
    alone_buf[alone_n] = data_buf(t);
    OK(MPI_Isend(alone_buf[alone_n], (int)dsize(t), MPI_BYTE, me, t, W, &alone_rq[alone_n]));
    ++alone_n;
  } else if (op == OP_ISSEND) {
    issend_check(t);
  } else if (op == OP_FREE_SEND) {
    free_send(t);
  }
}

static void serve(void) {
  for (;;) {
    int cmd[2];
    OK(MPI_Recv(cmd, 2, MPI_INT, pa, T_CMD, W, MPI_STATUS_IGNORE));
    SETCTX("sender side of op %d tag %d", cmd[0], cmd[1]);
    if (cmd[0] == OP_STOP) return;
    if (cmd[0] == OP_SEND) {
      unsigned char* b = data_buf(cmd[1]);
      OK(MPI_Send(b, (int)dsize(cmd[1]), MPI_BYTE, pa, cmd[1], W));
      expect_msg(b, dsize(cmd[1]), dseed(cmd[1]), "send buffer");
      gfree(b);
    } else if (cmd[0] == OP_ISSEND) {
      issend_check(cmd[1]);
    } else {
      free_send(cmd[1]);
    }
  }
}

static void end_alone(void) {
  OK(MPI_Waitall(alone_n, alone_rq, STATUSES_IGNORE));
  for (int i = 0; i < alone_n; ++i) gfree(alone_buf[i]);
  alone_n = 0;
}

/* MPI-4.1 3.7.3: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0, not cancelled. */
static void expect_empty(const MPI_Status* st, const char* what) {
  int n = -1, c = -1;
  EXPECT(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG, "%s: empty status has source %d tag %d", what,
         st->MPI_SOURCE, st->MPI_TAG);
  OK(MPI_Get_count(st, MPI_BYTE, &n));
  EXPECT(n == 0, "%s: empty status has count %d", what, n);
  OK(MPI_Test_cancelled(st, &c));
  EXPECT(!c, "%s: empty status is cancelled", what);
}

/* A receive of data message t from pb, and its check. */
typedef struct {
  unsigned char* buf;
  int tag;
} Rx;
static void post(Rx* x, MPI_Request* r, int t) {
  x->tag = t;
  x->buf = galloc(dsize(t) + EXTRA);
  OK(MPI_Irecv(x->buf, (int)dsize(t) + EXTRA, MPI_BYTE, pb, t, W, r));
}
static void verify(Rx* x, const MPI_Status* st, const char* what) {
  const int t = x->tag;
  expect_status(st, pb, t, MPI_BYTE, (int)dsize(t), what);
  expect_msg(x->buf, dsize(t), dseed(t), what);
  expect_fill(x->buf, dsize(t), dsize(t) + EXTRA, what);
  gcheck(x->buf, what);
  gfree(x->buf);
  x->buf = NULL;
}

static void t_completion(void) {
  enum { N = 5 };
  Rx x[N];
  MPI_Request r[N];
  MPI_Status st[N], s1;
  int flag = -1, index = -1, outcount = -1, idx[N];
  for (int i = 0; i < 4; ++i) post(&x[i], &r[i], 100 + i);
  r[4] = MPI_REQUEST_NULL; /* null handles in the arrays are ignored */
  SETCTX("completion calls before anything was sent");
  OK(MPI_Test(&r[1], &flag, &s1));
  EXPECT(!flag && r[1] != MPI_REQUEST_NULL, "MPI_Test: flag %d", flag);
  OK(MPI_Testany(N, r, &index, &flag, &s1));
  EXPECT(!flag && index == MPI_UNDEFINED, "MPI_Testany: flag %d index %d", flag, index);
  OK(MPI_Testsome(N, r, &outcount, idx, st));
  EXPECT(outcount == 0, "MPI_Testsome: outcount %d", outcount);
  OK(MPI_Testall(N, r, &flag, st));
  EXPECT(!flag, "MPI_Testall: flag %d", flag);
  for (int i = 0; i < 4; ++i) EXPECT(r[i] != MPI_REQUEST_NULL, "request %d freed", i);

  SETCTX("MPI_Waitany with only index 2 sent");
  command(OP_SEND, 102);
  poison_status(&s1);
  OK(MPI_Waitany(N, r, &index, &s1));
  EXPECT(index == 2, "index %d", index);
  EXPECT(r[2] == MPI_REQUEST_NULL, "completed request not freed");
  verify(&x[2], &s1, ctx);

  SETCTX("MPI_Waitsome/MPI_Testsome with indices 0 and 3 sent");
  command(OP_SEND, 103);
  command(OP_SEND, 100);
  int got = 0, seen[N] = {0};
  while (got < 2) {
    for (int i = 0; i < N; ++i) poison_status(&st[i]);
    if (got == 0)
      OK(MPI_Waitsome(N, r, &outcount, idx, st));
    else
      OK(MPI_Testsome(N, r, &outcount, idx, st));
    EXPECT(outcount >= 0 && outcount <= 2 - got, "outcount %d with %d of 2 done", outcount, got);
    if (got == 0) EXPECT(outcount >= 1, "MPI_Waitsome returned outcount 0");
    for (int j = 0; j < outcount; ++j) {
      EXPECT((idx[j] == 0 || idx[j] == 3) && !seen[idx[j]], "index %d (not sent, or twice)", idx[j]);
      seen[idx[j]] = 1;
      EXPECT(r[idx[j]] == MPI_REQUEST_NULL, "completed request %d not freed", idx[j]);
      verify(&x[idx[j]], &st[j], ctx);
    }
    got += outcount;
  }
  SETCTX("MPI_Testany with only index 1 active, not sent");
  OK(MPI_Testany(N, r, &index, &flag, &s1));
  EXPECT(!flag && index == MPI_UNDEFINED, "MPI_Testany: flag %d index %d", flag, index);
  command(OP_SEND, 101);
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Testany(N, r, &index, &flag, &s1));
  EXPECT(index == 1, "MPI_Testany index %d", index);
  verify(&x[1], &s1, ctx);

  SETCTX("completion calls on null requests only");
  poison_status(&s1);
  OK(MPI_Waitany(N, r, &index, &s1));
  EXPECT(index == MPI_UNDEFINED, "MPI_Waitany index %d", index);
  expect_empty(&s1, "MPI_Waitany");
  flag = 0;
  poison_status(&s1);
  OK(MPI_Testany(N, r, &index, &flag, &s1));
  EXPECT(flag && index == MPI_UNDEFINED, "MPI_Testany flag %d index %d", flag, index);
  expect_empty(&s1, "MPI_Testany");
  OK(MPI_Waitsome(N, r, &outcount, idx, st));
  EXPECT(outcount == MPI_UNDEFINED, "MPI_Waitsome outcount %d", outcount);
  OK(MPI_Testsome(N, r, &outcount, idx, st));
  EXPECT(outcount == MPI_UNDEFINED, "MPI_Testsome outcount %d", outcount);
  for (int i = 0; i < N; ++i) poison_status(&st[i]);
  OK(MPI_Waitall(N, r, st));
  for (int i = 0; i < N; ++i) expect_empty(&st[i], "MPI_Waitall");
  for (int i = 0; i < N; ++i) poison_status(&st[i]);
  flag = 0;
  OK(MPI_Testall(N, r, &flag, st));
  EXPECT(flag, "MPI_Testall flag false");
  for (int i = 0; i < N; ++i) expect_empty(&st[i], "MPI_Testall");
  poison_status(&s1);
  OK(MPI_Wait(&r[0], &s1));
  expect_empty(&s1, "MPI_Wait");
  poison_status(&s1);
  flag = 0;
  OK(MPI_Test(&r[0], &flag, &s1));
  EXPECT(flag, "MPI_Test flag false");
  expect_empty(&s1, "MPI_Test");

  SETCTX("MPI_Waitall with statuses, sent in reverse order");
  enum { NA = 6 };
  Rx y[NA];
  MPI_Request q[NA];
  MPI_Status sq[NA];
  for (int i = 0; i < NA; ++i) post(&y[i], &q[i], 110 + i);
  for (int i = NA - 1; i >= 0; --i) command(OP_SEND, 110 + i);
  OK(MPI_Waitall(NA, q, sq));
  for (int i = 0; i < NA; ++i) {
    EXPECT(q[i] == MPI_REQUEST_NULL, "request %d not freed", i);
    verify(&y[i], &sq[i], ctx);
  }
  SETCTX("MPI_Testall with MPI_STATUSES_IGNORE");
  for (int i = 0; i < NA; ++i) post(&y[i], &q[i], 120 + i);
  for (int i = 0; i < NA; ++i) command(OP_SEND, 120 + i);
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Testall(NA, q, &flag, STATUSES_IGNORE));
  for (int i = 0; i < NA; ++i) {
    /* the status was ignored: check the data only */
    const int t = y[i].tag;
    EXPECT(q[i] == MPI_REQUEST_NULL, "request %d not freed", i);
    expect_msg(y[i].buf, dsize(t), dseed(t), ctx);
    expect_fill(y[i].buf, dsize(t), dsize(t) + EXTRA, ctx);
    gcheck(y[i].buf, ctx);
    gfree(y[i].buf);
  }
  SETCTX("MPI_Waitall with MPI_STATUSES_IGNORE");
  for (int i = 0; i < 2; ++i) post(&y[i], &q[i], 130 + i);
  command(OP_SEND, 131);
  command(OP_SEND, 130);
  OK(MPI_Waitall(2, q, STATUSES_IGNORE));
  for (int i = 0; i < 2; ++i) {
    expect_msg(y[i].buf, dsize(130 + i), dseed(130 + i), ctx);
    gfree(y[i].buf);
  }
  SETCTX("MPI_Testall while one of two is incomplete");
  post(&y[0], &q[0], 140);
  post(&y[1], &q[1], 141);
  command(OP_SEND, 140);
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Request_get_status(q[0], &flag, &s1));
  EXPECT(q[0] != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
  expect_status(&s1, pb, 140, MPI_BYTE, (int)dsize(140), "MPI_Request_get_status of the completed one");
  flag = -1;
  OK(MPI_Testall(2, q, &flag, sq));
  EXPECT(!flag, "MPI_Testall true with tag 141 not sent");
  EXPECT(q[0] != MPI_REQUEST_NULL && q[1] != MPI_REQUEST_NULL, "MPI_Testall (false) freed a request");
  command(OP_SEND, 141);
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Testall(2, q, &flag, sq));
  EXPECT(q[0] == MPI_REQUEST_NULL && q[1] == MPI_REQUEST_NULL, "MPI_Testall (true) left a request");
  verify(&y[0], &sq[0], ctx);
  verify(&y[1], &sq[1], ctx);
}

static void t_issend(void) {
  static const int tags[2] = {150, 153}; /* 0 bytes, 1 MiB + 6 */
  for (int i = 0; i < 2; ++i) {
    const int t = tags[i];
    SETCTX("MPI_Issend of %zu bytes before the receive is posted", dsize(t));
    command(OP_ISSEND, t);
    if (pa == pb) continue; /* done by issend_check */
    int go = -1;
    OK(MPI_Recv(&go, 1, MPI_INT, pb, T_GO, W, MPI_STATUS_IGNORE));
    Rx x;
    MPI_Request r;
    MPI_Status st;
    post(&x, &r, t);
    OK(MPI_Wait(&r, &st));
    verify(&x, &st, ctx);
  }
}

static void t_cancel(void) {
  MPI_Request r;
  MPI_Status st;
  int c = -1, flag = 0;
  unsigned char* b = galloc(64);
  SETCTX("MPI_Cancel of an MPI_Irecv that nothing matches, MPI_Wait");
  OK(MPI_Irecv(b, 64, MPI_BYTE, pb, 160, W, &r));
  OK(MPI_Cancel(&r));
  OK(MPI_Wait(&r, &st));
  EXPECT(r == MPI_REQUEST_NULL, "request not freed");
  OK(MPI_Test_cancelled(&st, &c));
  EXPECT(c, "MPI_Test_cancelled false");
  expect_fill(b, 0, 64, ctx);
  SETCTX("MPI_Cancel of an MPI_Irecv(MPI_ANY_SOURCE), MPI_Test");
  OK(MPI_Irecv(b, 64, MPI_BYTE, MPI_ANY_SOURCE, 161, W, &r));
  OK(MPI_Cancel(&r));
  while (!flag) CHECK_MPI(MPI_Test(&r, &flag, &st));
  c = -1;
  OK(MPI_Test_cancelled(&st, &c));
  EXPECT(c, "MPI_Test_cancelled false");
  expect_fill(b, 0, 64, ctx);
  gcheck(b, ctx);
  gfree(b);
  SETCTX("a message with a cancelled receive's tag goes to the next receive");
  Rx x;
  post(&x, &r, 160);
  command(OP_SEND, 160);
  OK(MPI_Wait(&r, &st));
  verify(&x, &st, ctx);

  SETCTX("MPI_Cancel of a completed receive");
  post(&x, &r, 162);
  command(OP_SEND, 162);
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
  OK(MPI_Cancel(&r));
  poison_status(&st);
  OK(MPI_Wait(&r, &st));
  c = -1;
  OK(MPI_Test_cancelled(&st, &c));
  EXPECT(!c, "MPI_Test_cancelled true for a receive that had completed");
  verify(&x, &st, ctx);
}

static void t_request_free(void) {
  static const int tags[3] = {170, 173, 171}; /* 0 bytes, 1 MiB + 5, 328 bytes */
  /* P2P_REQUESTS_FREED_SELF_SENDS_ONE_AT_A_TIME: see the header */
  const int one_at_a_time = pa == pb && env("P2P_REQUESTS_FREED_SELF_SENDS_ONE_AT_A_TIME");
  if (!one_at_a_time)
    for (int i = 0; i < 3; ++i) command(OP_FREE_SEND, tags[i]);
  for (int i = 0; i < 3; ++i) {
    if (one_at_a_time) command(OP_FREE_SEND, tags[i]);
    SETCTX("message of a freed MPI_Isend request, %zu bytes", dsize(tags[i]));
    Rx x;
    x.tag = tags[i];
    x.buf = galloc(dsize(tags[i]) + EXTRA);
    MPI_Status st;
    OK(MPI_Recv(x.buf, (int)dsize(tags[i]) + EXTRA, MPI_BYTE, pb, tags[i], W, &st));
    verify(&x, &st, ctx);
  }
}

/* ---------- persistent requests around the ring ---------- */
enum { P_SEND, P_SSEND, P_BSEND, P_RSEND, NP_MODES };
static const char* const pmode[NP_MODES] = {"MPI_Send_init", "MPI_Ssend_init", "MPI_Bsend_init", "MPI_Rsend_init"};
static const int piters[NP_MODES] = {1000, 200, 200, 200};
static const size_t psize[2] = {64, 128 * 1024};

static void t_persistent(void) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  unsigned char *sb[2], *rb[2];
  for (int k = 0; k < 2; ++k) {
    sb[k] = galloc(psize[k]);
    rb[k] = galloc(psize[k] + EXTRA);
  }
  int bsize = 0;
  for (int k = 0; k < 2; ++k) {
    int p = 0;
    OK(MPI_Pack_size((int)psize[k], MPI_BYTE, W, &p));
    /* A rank may run up to np - 1 rounds ahead of the next one around the ring, so that
     * many of its buffered messages may still wait to be received. */
    bsize += (np + 2) * (p + MPI_BSEND_OVERHEAD);
  }
  const int bsend_init_small_only = env("P2P_REQUESTS_BSEND_INIT_SMALL_ONLY"); /* see the header */
  char* bbuf = malloc((size_t)bsize);
  CHECK(bbuf != NULL, "malloc");
  OK(MPI_Buffer_attach(bbuf, bsize));
  for (int mode = 0; mode < NP_MODES; ++mode) {
    MPI_Request rq[4]; /* receives 0, 1; sends 2, 3 */
    const int tag = 60 + mode;
    for (int k = 0; k < 2; ++k) {
      OK(MPI_Recv_init(rb[k], (int)psize[k] + EXTRA, MPI_BYTE, prev, tag + 10 * k, W, &rq[k]));
      const int n = (int)psize[k], t = tag + 10 * k;
      if (mode == P_SEND) OK(MPI_Send_init(sb[k], n, MPI_BYTE, next, t, W, &rq[2 + k]));
      if (mode == P_SSEND) OK(MPI_Ssend_init(sb[k], n, MPI_BYTE, next, t, W, &rq[2 + k]));
      if (mode == P_BSEND && k == 1 && bsend_init_small_only)
        OK(MPI_Send_init(sb[k], n, MPI_BYTE, next, t, W, &rq[2 + k]));
      else if (mode == P_BSEND)
        OK(MPI_Bsend_init(sb[k], n, MPI_BYTE, next, t, W, &rq[2 + k]));
      if (mode == P_RSEND) OK(MPI_Rsend_init(sb[k], n, MPI_BYTE, next, t, W, &rq[2 + k]));
    }
    for (int it = 0; it < piters[mode]; ++it) {
      SETCTX("%s, start %d", pmode[mode], it);
      for (int k = 0; k < 2; ++k) {
        fill_msg(sb[k], psize[k], msg_seed(me, next, mode * 2 + k, it));
        grefill(rb[k]);
      }
      if (mode == P_RSEND) {
        /* receives started, then "ready" to prev; next's are started once it said so */
        OK(MPI_Startall(2, rq));
        int tok = 0, tok2 = 0;
        OK(MPI_Sendrecv(&tok, 1, MPI_INT, prev, 59, &tok2, 1, MPI_INT, next, 59, W, MPI_STATUS_IGNORE));
        OK(MPI_Startall(2, rq + 2));
      } else if (it % 2 == 0) {
        OK(MPI_Startall(4, rq));
      } else {
        for (int k = 3; k >= 0; --k) OK(MPI_Start(&rq[k]));
      }
      MPI_Status st[4];
      OK(MPI_Waitall(4, rq, st));
      for (int k = 0; k < 4; ++k) EXPECT(rq[k] != MPI_REQUEST_NULL, "persistent request %d freed by MPI_Waitall", k);
      for (int k = 0; k < 2; ++k) {
        expect_status(&st[k], prev, tag + 10 * k, MPI_BYTE, (int)psize[k], ctx);
        expect_msg(rb[k], psize[k], msg_seed(prev, me, mode * 2 + k, it), ctx);
        expect_fill(rb[k], psize[k], psize[k] + EXTRA, ctx);
        gcheck(rb[k], ctx);
        expect_msg(sb[k], psize[k], msg_seed(me, next, mode * 2 + k, it), "send buffer");
      }
    }
    SETCTX("%s, inactive", pmode[mode]);
    for (int k = 0; k < 4; ++k) {
      MPI_Status st;
      int flag = 0;
      poison_status(&st);
      OK(MPI_Test(&rq[k], &flag, &st));
      EXPECT(flag && rq[k] != MPI_REQUEST_NULL, "MPI_Test of inactive request %d: flag %d", k, flag);
      expect_empty(&st, "MPI_Test of an inactive persistent request");
      poison_status(&st);
      OK(MPI_Wait(&rq[k], &st));
      expect_empty(&st, "MPI_Wait of an inactive persistent request");
      OK(MPI_Request_free(&rq[k]));
      EXPECT(rq[k] == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
    OK(MPI_Barrier(W));
  }
  void* addr = NULL;
  int size = 0;
  OK(MPI_Buffer_detach(&addr, &size));
  EXPECT(addr == bbuf && size == bsize, "MPI_Buffer_detach gave %p %d, attached %p %d", addr, size, (void*)bbuf,
         bsize);
  free(bbuf);
  for (int k = 0; k < 2; ++k) {
    gfree(sb[k]);
    gfree(rb[k]);
  }
}

/* ---------- large-count calls ---------- */
static void t_large_count(void) {
#if MPI_VERSION >= 4
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  const MPI_Count n = 100003;
  unsigned char* sb = galloc((size_t)n);
  unsigned char* rb = galloc((size_t)n + EXTRA);
  MPI_Request r[2];
  MPI_Status st;
  MPI_Count cnt = -1;
  for (int way = 0; way < 3; ++way) {
    static const char* const names[3] = {"MPI_Irecv_c + MPI_Send_c", "MPI_Isend_c + MPI_Recv_c", "MPI_Sendrecv_c"};
    SETCTX("%s around the ring", names[way]);
    fill_msg(sb, (size_t)n, msg_seed(me, next, 90 + way, 0));
    grefill(rb);
    poison_status(&st);
    if (way == 0) {
      OK(MPI_Irecv_c(rb, n + EXTRA, MPI_BYTE, prev, 90, W, &r[0]));
      OK(MPI_Barrier(W)); /* every receive is posted: the blocking sends can complete */
      OK(MPI_Send_c(sb, n, MPI_BYTE, next, 90, W));
      OK(MPI_Wait(&r[0], &st));
    } else if (way == 1) {
      OK(MPI_Isend_c(sb, n, MPI_BYTE, next, 91, W, &r[1]));
      OK(MPI_Recv_c(rb, n + EXTRA, MPI_BYTE, prev, 91, W, &st));
      OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    } else {
      OK(MPI_Sendrecv_c(sb, n, MPI_BYTE, next, 92, rb, n + EXTRA, MPI_BYTE, prev, 92, W, &st));
    }
    expect_status(&st, prev, 90 + way, MPI_BYTE, (int)n, ctx);
    OK(MPI_Get_count_c(&st, MPI_BYTE, &cnt));
    EXPECT(cnt == n, "MPI_Get_count_c %lld", (long long)cnt);
    expect_msg(rb, (size_t)n, msg_seed(prev, me, 90 + way, 0), ctx);
    expect_fill(rb, (size_t)n, (size_t)n + EXTRA, ctx);
    gcheck(rb, ctx);
  }
  gfree(sb);
  gfree(rb);
#endif
}

int main(int argc, char** argv) {
  p2p_init(&argc, &argv);
  W = MPI_COMM_WORLD;
  const int partner = (me ^ 1) < np ? (me ^ 1) : me;
  pa = me < partner ? me : partner;
  pb = me < partner ? partner : me;
  if (me == pb && pa != pb) {
    serve();
  } else {
    t_completion();
    t_issend();
    t_cancel();
    t_request_free();
    if (pa != pb) {
      const int cmd[2] = {OP_STOP, 0};
      OK(MPI_Send(cmd, 2, MPI_INT, pb, T_CMD, W));
    }
    end_alone();
  }
  OK(MPI_Barrier(W));
  for (int i = 0; i < nfreed; ++i) gfree(freed_buf[i]); /* every message was received */
  t_persistent();
  t_large_count();
  p2p_finish("p2p_requests");
  return 0;
}
