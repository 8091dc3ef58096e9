/* p2p_order: message ordering and matching under load (MPI-4.1 3.5 Semantics of
 * Point-to-Point Communication, "Order").
 *
 * Non-overtaking: "If a sender sends two messages in succession to the same destination,
 * and both match the same receive, then this operation cannot receive the second message
 * if the first one is still pending", and "if a receiver posts two receives in
 * succession, and both match the same message, then the second receive operation cannot
 * be satisfied by this message, if the first one is still pending". So:
 *
 *  1. order: every rank (the receiver itself included, by nonblocking sends) sends a
 *     sequence of 12 messages of 0 B to 1 MiB, small and large interleaved, on one
 *     (comm, tag) to a receiver (rank 0, then rank np-1). The k-th message from each
 *     sender must land in the k-th receive that can take it:
 *       a. receives posted (per source, MPI_Irecv arrays) before a barrier, sends after it
 *          (MPI_Send and MPI_Isend alternating);
 *       b. as a., with MPI_ANY_SOURCE receives: per source, the messages must come in
 *          sequence in posting order;
 *       c. sends first (MPI_Isend, and MPI_Bsend for the small ones), a barrier, then
 *          blocking MPI_Recv(MPI_ANY_SOURCE) ("late" receives: unexpected messages);
 *       d. as c., received per source (sources in reverse order) with MPI_Irecv arrays.
 *  2. storm: every rank sends 12 messages (0 B to 1 MiB, tags 1, 2, 3) to every rank, in
 *     three rounds (receives posted before the sends, after them, or racing them), and
 *     receives them with, in this posting order, (source, 1), (MPI_ANY_SOURCE, 2),
 *     (source, MPI_ANY_TAG) and (MPI_ANY_SOURCE, MPI_ANY_TAG). By the two rules above the
 *     counts chosen always leave each receive a message (no deadlock whatever the
 *     timing), the (source, 1) receives get that source's tag-1 messages in order, and
 *     within each receive class every source's messages come in sending order. A message
 *     is identified by its (source, tag, size); every message must arrive exactly once
 *     with its exact payload.
 *  3. flood: every rank MPI_Isends 2000 small messages (0..60 bytes, every 100th with
 *     another tag) to the next rank before that rank posts any receive (a barrier
 *     separates them); the receiver takes the first tag's messages in order, some by
 *     MPI_ANY_SOURCE, then the other tag's.
 *  4. queued handshakes: every rank MPI_Isends to itself, receiving nothing yet: one
 *     MPI_Issend on a tag of its own (its handshake stays open all along), then 20
 *     messages of 16000 bytes (more than an inbox ring holds: the later ones wait in
 *     shmpi's queue of sends), then synchronous and large (rendezvous) sends, which queue
 *     behind them; then receives them in order. Each must arrive exactly once, in order
 *     (in shmpi a handshake send written from that queue was once written over and over).
 *  5. last first: every rank MPI_Isends 300 messages of 40000 bytes (large enough for a
 *     rendezvous in shmpi and the peers) with tags 500..799 to the next rank, which
 *     receives them highest tag first: each must complete (3.5 progress), although the
 *     sender cannot have all 300 handshakes open at once.
 * Runs at any number of ranks (1: everything to oneself). Prints "p2p_order: OK (N checks)".
 * Usage: p2p_order */
#include "p2p_util.h"

static MPI_Comm W;
enum { EXTRA = 3 };

/* ---------- 1. non-overtaking from each sender ---------- */
enum { M = 12, T_ORD = 5 };
static const size_t seq_size[M] = {0, 1u << 20, 1, 65539, 7, (1u << 20) - 1, 0, 4096, 200000, 3, 1u << 20, 17};
static const size_t seq_max = 1u << 20;
enum { C_POSTED, C_POSTED_ANY, C_LATE_ANY, C_LATE_SPECIFIC, NCASES };
static const char* const case_name[NCASES] = {"receives posted first, per source",
                                              "receives posted first, MPI_ANY_SOURCE",
                                              "late blocking MPI_Recv(MPI_ANY_SOURCE)", "late MPI_Irecv per source"};
static int bsend_ok(size_t n) { return n <= 70000; }

static void order_case(int R, int c) {
  const int late = c == C_LATE_ANY || c == C_LATE_SPECIFIC;
  const int round = R * NCASES + c;
  /* sender side */
  unsigned char* sb[M];
  MPI_Request srq[M];
  char* bbuf = NULL;
  int bsize = 0;
  if (c == C_LATE_ANY) {
    for (int k = 0; k < M; ++k)
      if (bsend_ok(seq_size[k])) {
        int p = 0;
        OK(MPI_Pack_size((int)seq_size[k], MPI_BYTE, W, &p));
        bsize += p + MPI_BSEND_OVERHEAD;
      }
    bbuf = malloc((size_t)bsize);
    CHECK(bbuf != NULL, "malloc");
    OK(MPI_Buffer_attach(bbuf, bsize));
  }
  for (int k = 0; k < M; ++k) {
    sb[k] = galloc(seq_size[k]);
    fill_msg(sb[k], seq_size[k], msg_seed(me, R, k, round));
  }
  /* receiver side */
  const int nr = me == R ? np * M : 0;
  unsigned char** rb = calloc((size_t)nr + 1, sizeof *rb);
  MPI_Request* rrq = calloc((size_t)nr + 1, sizeof *rrq);
  MPI_Status* rst = calloc((size_t)nr + 1, sizeof *rst);
  int* src_of = calloc((size_t)nr + 1, sizeof *src_of); /* specific receives: the source */
  CHECK(rb && rrq && rst && src_of, "calloc");
  const int specific = c == C_POSTED || c == C_LATE_SPECIFIC;
  /* receive i: source s = i / M (reverse order when late), k = i % M */
  for (int i = 0; i < nr; ++i) {
    const int s = c == C_LATE_SPECIFIC ? np - 1 - i / M : i / M;
    src_of[i] = s;
    rb[i] = galloc((specific ? seq_size[i % M] : seq_max) + EXTRA);
  }
  SETCTX("order to rank %d, %s", R, case_name[c]);
  if (!late && me == R)
    for (int i = 0; i < nr; ++i)
      OK(MPI_Irecv(rb[i], (int)(gsize(rb[i])), MPI_BYTE, specific ? src_of[i] : MPI_ANY_SOURCE, T_ORD, W, &rrq[i]));
  if (!late) OK(MPI_Barrier(W));
  for (int k = 0; k < M; ++k) {
    const int n = (int)seq_size[k];
    srq[k] = MPI_REQUEST_NULL;
    if (!late && me != R && k % 2 == 0)
      OK(MPI_Send(sb[k], n, MPI_BYTE, R, T_ORD, W));
    else if (c == C_LATE_ANY && bsend_ok(seq_size[k]) && k % 3 != 0)
      OK(MPI_Bsend(sb[k], n, MPI_BYTE, R, T_ORD, W));
    else
      OK(MPI_Isend(sb[k], n, MPI_BYTE, R, T_ORD, W, &srq[k]));
  }
  if (late) OK(MPI_Barrier(W));
  if (me == R) {
    if (c == C_LATE_SPECIFIC)
      for (int i = 0; i < nr; ++i)
        OK(MPI_Irecv(rb[i], (int)gsize(rb[i]), MPI_BYTE, src_of[i], T_ORD, W, &rrq[i]));
    if (c == C_LATE_ANY) {
      for (int i = 0; i < nr; ++i) OK(MPI_Recv(rb[i], (int)gsize(rb[i]), MPI_BYTE, MPI_ANY_SOURCE, T_ORD, W, &rst[i]));
    } else {
      OK(MPI_Waitall(nr, rrq, rst));
    }
    int next_k[64] = {0};
    CHECK(np <= 64, "at most 64 ranks");
    for (int i = 0; i < nr; ++i) {
      const int s = rst[i].MPI_SOURCE;
      EXPECT(s >= 0 && s < np, "receive %d: status source %d", i, s);
      if (specific) EXPECT(s == src_of[i], "receive %d: status source %d, posted for %d", i, s, src_of[i]);
      const int k = next_k[s]++;
      EXPECT(k < M, "receive %d: message %d from %d (only %d sent)", i, k, s, M);
      char what[160];
      snprintf(what, sizeof what, "receive %d (the %d-th from rank %d, %zu bytes)", i, k, s, seq_size[k]);
      expect_status(&rst[i], s, T_ORD, MPI_BYTE, (int)seq_size[k], what);
      expect_msg(rb[i], seq_size[k], msg_seed(s, R, k, round), what);
      expect_fill(rb[i], seq_size[k], gsize(rb[i]), what);
      gcheck(rb[i], what);
    }
  }
  OK(MPI_Waitall(M, srq, STATUSES_IGNORE));
  for (int k = 0; k < M; ++k) {
    expect_msg(sb[k], seq_size[k], msg_seed(me, R, k, round), "send buffer");
    gfree(sb[k]);
  }
  if (bbuf != NULL) {
    void* addr = NULL;
    int size = 0;
    OK(MPI_Buffer_detach(&addr, &size));
    EXPECT(addr == bbuf && size == bsize, "MPI_Buffer_detach gave %p %d, attached %p %d", addr, size, (void*)bbuf,
           bsize);
    free(bbuf);
  }
  for (int i = 0; i < nr; ++i) gfree(rb[i]);
  free(rb);
  free(rrq);
  free(rst);
  free(src_of);
  OK(MPI_Barrier(W));
}

/* ---------- 2. all-to-all storm ---------- */
enum { K = 12 };
/* message k from any source: its tag and size; (tag, size) identifies k */
static const int st_tag[K] = {1, 2, 3, 1, 3, 2, 1, 3, 3, 2, 1, 3};
static const size_t st_size[K] = {1u << 20, 0, 5, 17, 4096, 70000, 300000, 1, 65539, 33, 0, 999};
static const size_t st_wild_cap = 70000 + EXTRA; /* every message of tags 2 and 3 fits */
/* per source: 4 (source, 1); per rank: 2 np (ANY, 2); per source: 3 (source, ANY); rest (ANY, ANY) */
enum { A_PER = 4, B_PER = 2, C_PER = 3 };
enum { R_SRC_TAG, R_ANY_SRC, R_SRC_ANY_TAG, R_ANY_ANY };
static const char* const class_name[4] = {"(source, 1)", "(MPI_ANY_SOURCE, 2)", "(source, MPI_ANY_TAG)",
                                          "(MPI_ANY_SOURCE, MPI_ANY_TAG)"};

static int identify(int tag, size_t n) {
  for (int k = 0; k < K; ++k)
    if (st_tag[k] == tag && st_size[k] == n) return k;
  return -1;
}

static void storm(int round) {
  static const char* const rname[3] = {"receives before sends", "sends before receives", "receives racing sends"};
  SETCTX("storm, %s", rname[round]);
  const int nmsg = np * K;
  unsigned char** sb = calloc((size_t)nmsg, sizeof *sb);
  MPI_Request* srq = calloc((size_t)nmsg, sizeof *srq);
  unsigned char** rb = calloc((size_t)nmsg, sizeof *rb);
  MPI_Request* rrq = calloc((size_t)nmsg, sizeof *rrq);
  MPI_Status* rst = calloc((size_t)nmsg, sizeof *rst);
  int* cls = calloc((size_t)nmsg, sizeof *cls);
  int* rsrc = calloc((size_t)nmsg, sizeof *rsrc);
  char* seen = calloc((size_t)nmsg, 1);
  CHECK(sb && srq && rb && rrq && rst && cls && rsrc && seen, "calloc");
  for (int d = 0; d < np; ++d)
    for (int k = 0; k < K; ++k) {
      sb[d * K + k] = galloc(st_size[k]);
      fill_msg(sb[d * K + k], st_size[k], msg_seed(me, d, k, 1000 + round));
    }
  /* the receives, in posting order */
  int nr = 0;
  for (int s = 0; s < np; ++s) /* (source, 1): that source's tag-1 messages, in order */
    for (int j = 0, k = 0; k < K; ++k)
      if (st_tag[k] == 1 && j++ < A_PER) {
        cls[nr] = R_SRC_TAG, rsrc[nr] = s;
        rb[nr++] = galloc(st_size[k] + EXTRA);
      }
  for (int i = 0; i < B_PER * np; ++i) cls[nr] = R_ANY_SRC, rsrc[nr] = MPI_ANY_SOURCE, rb[nr++] = galloc(st_wild_cap);
  for (int s = 0; s < np; ++s)
    for (int i = 0; i < C_PER; ++i) cls[nr] = R_SRC_ANY_TAG, rsrc[nr] = s, rb[nr++] = galloc(st_wild_cap);
  while (nr < nmsg) cls[nr] = R_ANY_ANY, rsrc[nr] = MPI_ANY_SOURCE, rb[nr++] = galloc(st_wild_cap);
  static const int rtag[4] = {1, 2, MPI_ANY_TAG, MPI_ANY_TAG};

  if (round == 1) {
    for (int i = 0; i < nmsg; ++i)
      OK(MPI_Isend(sb[i], (int)st_size[i % K], MPI_BYTE, i / K, st_tag[i % K], W, &srq[i]));
    OK(MPI_Barrier(W));
  }
  for (int i = 0; i < nr; ++i) OK(MPI_Irecv(rb[i], (int)gsize(rb[i]), MPI_BYTE, rsrc[i], rtag[cls[i]], W, &rrq[i]));
  if (round == 0) OK(MPI_Barrier(W));
  if (round != 1)
    for (int d0 = 0; d0 < np; ++d0) {
      const int d = (d0 + me) % np; /* each rank starts with a different destination */
      for (int k = 0; k < K; ++k)
        OK(MPI_Isend(sb[d * K + k], (int)st_size[k], MPI_BYTE, d, st_tag[k], W, &srq[d * K + k]));
    }
  OK(MPI_Waitall(nr, rrq, rst));
  OK(MPI_Waitall(nmsg, srq, STATUSES_IGNORE));

  int last[4][64];
  int a_next[64];
  CHECK(np <= 64, "at most 64 ranks");
  for (int c = 0; c < 4; ++c)
    for (int s = 0; s < np; ++s) last[c][s] = -1;
  for (int s = 0; s < np; ++s) a_next[s] = 0;
  for (int i = 0; i < nr; ++i) {
    const int s = rst[i].MPI_SOURCE, tag = rst[i].MPI_TAG;
    int n = -1;
    OK(MPI_Get_count(&rst[i], MPI_BYTE, &n));
    char what[200];
    snprintf(what, sizeof what, "receive %d %s got source %d tag %d, %d bytes", i, class_name[cls[i]], s, tag, n);
    EXPECT(s >= 0 && s < np, "%s: bad source", what);
    EXPECT(rsrc[i] == MPI_ANY_SOURCE || s == rsrc[i], "%s: posted for source %d", what, rsrc[i]);
    EXPECT(rtag[cls[i]] == MPI_ANY_TAG || tag == rtag[cls[i]], "%s: posted for tag %d", what, rtag[cls[i]]);
    const int k = identify(tag, (size_t)n);
    EXPECT(k >= 0, "%s: no such message was sent", what);
    EXPECT(!seen[s * K + k], "%s: message %d from %d received twice", what, k, s);
    seen[s * K + k] = 1;
    if (cls[i] == R_SRC_TAG) {
      /* the j-th (s, 1) receive gets the j-th tag-1 message of s */
      int j = 0, want = -1;
      for (int kk = 0; kk < K; ++kk)
        if (st_tag[kk] == 1 && j++ == a_next[s]) {
          want = kk;
          break;
        }
      a_next[s]++;
      EXPECT(k == want, "%s: message %d, want %d (the tag-1 messages of a source in order)", what, k, want);
    }
    EXPECT(k > last[cls[i]][s], "%s: message %d of source %d after its message %d in the same receive class", what, k,
           s, last[cls[i]][s]);
    last[cls[i]][s] = k;
    expect_msg(rb[i], (size_t)n, msg_seed(s, me, k, 1000 + round), what);
    expect_fill(rb[i], (size_t)n, gsize(rb[i]), what);
    gcheck(rb[i], what);
  }
  for (int i = 0; i < nmsg; ++i) EXPECT(seen[i], "message %d from rank %d never received", i % K, i / K);
  for (int i = 0; i < nmsg; ++i) {
    expect_msg(sb[i], st_size[i % K], msg_seed(me, i / K, i % K, 1000 + round), "send buffer");
    gfree(sb[i]);
    gfree(rb[i]);
  }
  free(sb), free(srq), free(rb), free(rrq), free(rst), free(cls), free(rsrc), free(seen);
  OK(MPI_Barrier(W));
}

/* ---------- 3. unexpected-message flood ---------- */
enum { FLOOD = 2000, T_FLOOD = 9, T_FLOOD_OTHER = 10 };
static size_t flood_size(int k) { return (size_t)(k % 61); }
static int flood_tag(int k) { return k % 100 == 50 ? T_FLOOD_OTHER : T_FLOOD; }

static void flood(void) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  unsigned char* sb = malloc((size_t)FLOOD * 64);
  MPI_Request* rq = malloc(FLOOD * sizeof *rq);
  CHECK(sb && rq, "malloc");
  for (int k = 0; k < FLOOD; ++k) {
    fill_msg(sb + (size_t)k * 64, flood_size(k), msg_seed(me, next, k, 2000));
    OK(MPI_Isend(sb + (size_t)k * 64, (int)flood_size(k), MPI_BYTE, next, flood_tag(k), W, &rq[k]));
  }
  OK(MPI_Barrier(W)); /* every flood is under way before anyone receives */
  unsigned char* rb = galloc(64);
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 0; k < FLOOD; ++k) {
      if (flood_tag(k) != (pass == 0 ? T_FLOOD : T_FLOOD_OTHER)) continue;
      SETCTX("flood: message %d from rank %d (tag %d)", k, prev, flood_tag(k));
      MPI_Status st;
      grefill(rb);
      /* only prev sends to this rank here, so MPI_ANY_SOURCE must give prev's next message */
      OK(MPI_Recv(rb, 64, MPI_BYTE, k % 7 == 3 ? MPI_ANY_SOURCE : prev, flood_tag(k), W, &st));
      expect_status(&st, prev, flood_tag(k), MPI_BYTE, (int)flood_size(k), ctx);
      expect_msg(rb, flood_size(k), msg_seed(prev, me, k, 2000), ctx);
      expect_fill(rb, flood_size(k), 64, ctx);
    }
  gcheck(rb, "flood receive buffer");
  gfree(rb);
  OK(MPI_Waitall(FLOOD, rq, STATUSES_IGNORE));
  free(sb);
  free(rq);
}

/* ---------- 4. handshakes queued behind a full ring ---------- */
enum { QH_FILL = 20, QH = QH_FILL + 12, QH_MAX = 100000, T_QH = 900, T_QH_OPEN = 901 };
static size_t qh_size(int k) {
  static const size_t tail[3] = {8, 40000, QH_MAX};
  return k < QH_FILL ? 16000 : k % 4 == 3 ? 0 : tail[k % 3];
}
static int qh_sync(int k) { return k >= QH_FILL && k % 2 == 0; }

static void queued_handshakes(void) {
  unsigned char* sb = malloc((size_t)QH * QH_MAX + 8);
  MPI_Request* rq = malloc((QH + 1) * sizeof *rq);
  CHECK(sb && rq, "malloc");
  unsigned char* open_b = sb + (size_t)QH * QH_MAX;
  fill_msg(open_b, 8, msg_seed(me, me, QH, 4000));
  /* no receive runs before all are started, so nothing drains the ring in between */
  OK(MPI_Issend(open_b, 8, MPI_BYTE, me, T_QH_OPEN, W, &rq[QH]));
  for (int k = 0; k < QH; ++k) {
    unsigned char* b = sb + (size_t)k * QH_MAX;
    fill_msg(b, qh_size(k), msg_seed(me, me, k, 4000));
    if (qh_sync(k))
      OK(MPI_Issend(b, (int)qh_size(k), MPI_BYTE, me, T_QH, W, &rq[k]));
    else
      OK(MPI_Isend(b, (int)qh_size(k), MPI_BYTE, me, T_QH, W, &rq[k]));
  }
  unsigned char* rb = galloc(QH_MAX + EXTRA);
  for (int k = 0; k < QH; ++k) {
    SETCTX("queued handshakes: message %d of %d to itself (%zu bytes%s)", k, QH, qh_size(k),
           qh_sync(k) ? ", synchronous" : "");
    MPI_Status st;
    grefill(rb);
    OK(MPI_Recv(rb, QH_MAX + EXTRA, MPI_BYTE, me, T_QH, W, &st));
    expect_status(&st, me, T_QH, MPI_BYTE, (int)qh_size(k), ctx);
    expect_msg(rb, qh_size(k), msg_seed(me, me, k, 4000), ctx);
    expect_fill(rb, qh_size(k), QH_MAX + EXTRA, ctx);
  }
  SETCTX("queued handshakes: the synchronous send left open");
  MPI_Status st;
  grefill(rb);
  OK(MPI_Recv(rb, QH_MAX + EXTRA, MPI_BYTE, me, T_QH_OPEN, W, &st));
  expect_status(&st, me, T_QH_OPEN, MPI_BYTE, 8, ctx);
  expect_msg(rb, 8, msg_seed(me, me, QH, 4000), ctx);
  OK(MPI_Waitall(QH + 1, rq, STATUSES_IGNORE));
  int flag = 1;
  OK(MPI_Iprobe(me, MPI_ANY_TAG, W, &flag, MPI_STATUS_IGNORE));
  EXPECT(!flag, "a message to itself is left after all %d were received (one arrived twice)", QH + 1);
  gcheck(rb, "queued-handshakes receive buffer");
  gfree(rb);
  free(sb);
  free(rq);
}

/* Many large messages in flight to one rank, received last first: each send has been
 * started, so each receive must complete whatever the receiver asks for first
 * (MPI-4.1 3.5 progress), even though an implementation cannot hand every one of them
 * to the receiver at once (rendezvous handshakes hold a resource per message). */
enum { LIFO = 300, LIFO_BYTES = 40000, T_LIFO = 500 };

static void last_first(void) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  unsigned char* sb = malloc((size_t)LIFO * LIFO_BYTES);
  MPI_Request* rq = malloc(LIFO * sizeof *rq);
  CHECK(sb && rq, "malloc");
  for (int k = 0; k < LIFO; ++k) {
    fill_msg(sb + (size_t)k * LIFO_BYTES, LIFO_BYTES, msg_seed(me, next, k, 3000));
    OK(MPI_Isend(sb + (size_t)k * LIFO_BYTES, LIFO_BYTES, MPI_BYTE, next, T_LIFO + k, W, &rq[k]));
  }
  unsigned char* rb = galloc(LIFO_BYTES);
  for (int k = LIFO - 1; k >= 0; --k) {
    SETCTX("last first: message %d of %d from rank %d", k, LIFO, prev);
    MPI_Status st;
    grefill(rb);
    OK(MPI_Recv(rb, LIFO_BYTES, MPI_BYTE, prev, T_LIFO + k, W, &st));
    expect_status(&st, prev, T_LIFO + k, MPI_BYTE, LIFO_BYTES, ctx);
    expect_msg(rb, LIFO_BYTES, msg_seed(prev, me, k, 3000), ctx);
  }
  gcheck(rb, "last-first receive buffer");
  gfree(rb);
  OK(MPI_Waitall(LIFO, rq, STATUSES_IGNORE));
  free(sb);
  free(rq);
}

int main(int argc, char** argv) {
  p2p_init(&argc, &argv);
  W = MPI_COMM_WORLD;
  for (int r = 0; r < (np > 1 ? 2 : 1); ++r)
    for (int c = 0; c < NCASES; ++c) order_case(r == 0 ? 0 : np - 1, c);
  for (int round = 0; round < 3; ++round) storm(round);
  flood();
  queued_handshakes();
  last_first();
  p2p_finish("p2p_order");
  return 0;
}
