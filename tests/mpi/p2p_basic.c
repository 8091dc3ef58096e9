/* p2p_basic: blocking point-to-point (MPI-4.1 chapter 3) with exact payloads.
 *
 * Every message's bytes depend on (sender, receiver, message id, iteration, byte index)
 * (p2p_util.h), every receive buffer sits between canaries and is pre-filled, and after
 * each receive the data, the untouched rest of the buffer and the canaries are compared
 * byte for byte; send buffers must come back unchanged.
 *
 *  - self: Isend+Irecv, Irecv+Isend, Sendrecv, Irecv+Send, Irecv+Rsend, Issend+Recv and
 *    Bsend+Recv to one's own rank, at every size (runs at 1 rank too);
 *  - MPI_PROC_NULL as destination and source of every blocking and nonblocking call,
 *    Sendrecv and Sendrecv_replace: status source MPI_PROC_NULL, tag MPI_ANY_TAG, count
 *    0, buffer untouched (3.11 Null MPI Processes);
 *  - ping-pong between pairs (0,1), (2,3), ... with MPI_Send, MPI_Ssend, MPI_Rsend (only
 *    once the receiver said its MPI_Irecv is posted, 3.4) and MPI_Bsend (buffer attached
 *    with MPI_Pack_size + MPI_BSEND_OVERHEAD, 3.6; the send buffer is overwritten as soon
 *    as MPI_Bsend returns; MPI_Buffer_detach returns the attached address and size), at
 *    0, 1, 7, 4 KiB, 64 KiB+3, 1 MiB+5 and 4 MiB, into buffers 5 bytes larger;
 *  - MPI_Sendrecv around the ring at every size (a simultaneous exchange at 2 ranks, which
 *    must not deadlock, 3.10 Send-Receive) and MPI_Sendrecv_replace shifting buffers
 *    around the ring, also with a vector type whose holes must stay untouched;
 *  - MPI_ANY_SOURCE / MPI_ANY_TAG receives at rank 0 with status checks (each sender seen
 *    once, tag and count its own), (ANY_SOURCE, tag) and (source, ANY_TAG);
 *  - MPI_Get_count / MPI_Get_elements (and the _c variants, MPI_VERSION >= 4): fewer
 *    elements than the buffer holds, MPI_UNDEFINED for a partial derived element while
 *    MPI_Get_elements counts the basic elements (3.2.5; 5.1 "Use of General Datatypes in
 *    Communication"), zero-length messages;
 *  - derived datatypes on both sides: vector -> contiguous ints, contiguous -> vector
 *    (holes untouched), vector -> indexed with decreasing displacements, a struct with
 *    holes (char, double, 3 ints, padded to 32 bytes) to itself and to and from a packed
 *    21-byte layout, and a large (800 KB) vector <-> contiguous; only the type signatures
 *    match (3.3.1);
 *  - communicators: the same tag and source on MPI_COMM_WORLD, a dup, a split (reversed
 *    order) and MPI_COMM_SELF must not cross-match (3.2.3 / 3.5), with an ANY_SOURCE
 *    ANY_TAG receive on a second dup posted before anything is sent.
 * Runs at any number of ranks (ping-pong needs 2). Prints "p2p_basic: OK (N checks)".
 *
 * Peer toggle (set by tests/peer/run_p2p_peer.sh), avoiding one peer bug:
 *   P2P_BASIC_IRECV_PROC_NULL_STATUS_ZERO  MPICH 4.0.2: a nonblocking receive from
 *       MPI_PROC_NULL completes with status source 0 and tag 0 (3.11 says MPI_PROC_NULL
 *       and MPI_ANY_TAG); only its count (0) is checked then.
 * Usage: p2p_basic */
#include <stddef.h>

#include "p2p_util.h"

enum { T_SELF = 10, T_PP = 20, T_TOKEN = 30, T_SR = 40, T_REPL = 41, T_ANY = 200, T_DT = 50, T_COMM = 7 };
static const size_t sizes[] = {0, 1, 7, 4096, 65536 + 3, (1u << 20) + 5, 4u << 20};
enum { NSIZES = sizeof sizes / sizeof sizes[0], EXTRA = 5, PP_ITERS = 2 };
static const size_t max_size = 4u << 20;
static MPI_Comm W; /* MPI_COMM_WORLD */

/* ---------- self ---------- */
static void t_self(void) {
  for (int z = 0; z < NSIZES; ++z) {
    const size_t n = sizes[z];
    unsigned char* sb = galloc(n);
    unsigned char* rb = galloc(n + EXTRA);
    MPI_Request rq[2];
    MPI_Status st[2];
    for (int way = 0; way < 7; ++way) {
      static const char* const names[] = {"Isend then Irecv", "Irecv then Isend", "Sendrecv", "Irecv then Send",
                                          "Irecv then Rsend", "Issend then Recv", "Bsend then Recv"};
      SETCTX("self, %s, %zu bytes", names[way], n);
      const uint32_t s = msg_seed(me, me, z * 10 + way, 0);
      fill_msg(sb, n, s);
      grefill(rb);
      poison_status(&st[0]);
      poison_status(&st[1]);
      const int cnt = (int)n, cap = (int)(n + EXTRA);
      MPI_Status* rst = &st[1];
      switch (way) {
        case 0:
          OK(MPI_Isend(sb, cnt, MPI_BYTE, me, T_SELF, W, &rq[0]));
          OK(MPI_Irecv(rb, cap, MPI_BYTE, me, T_SELF, W, &rq[1]));
          OK(MPI_Waitall(2, rq, st));
          break;
        case 1:
          OK(MPI_Irecv(rb, cap, MPI_BYTE, me, T_SELF, W, &rq[1]));
          OK(MPI_Isend(sb, cnt, MPI_BYTE, me, T_SELF, W, &rq[0]));
          OK(MPI_Waitall(2, rq, st));
          break;
        case 2:
          OK(MPI_Sendrecv(sb, cnt, MPI_BYTE, me, T_SELF, rb, cap, MPI_BYTE, me, T_SELF, W, rst));
          break;
        case 3:
          OK(MPI_Irecv(rb, cap, MPI_BYTE, me, T_SELF, W, &rq[1]));
          OK(MPI_Send(sb, cnt, MPI_BYTE, me, T_SELF, W));
          OK(MPI_Wait(&rq[1], rst));
          break;
        case 4:
          OK(MPI_Irecv(rb, cap, MPI_BYTE, me, T_SELF, W, &rq[1]));
          OK(MPI_Rsend(sb, cnt, MPI_BYTE, me, T_SELF, W));
          OK(MPI_Wait(&rq[1], rst));
          break;
        case 5:
          OK(MPI_Issend(sb, cnt, MPI_BYTE, me, T_SELF, W, &rq[0]));
          OK(MPI_Recv(rb, cap, MPI_BYTE, me, T_SELF, W, rst));
          OK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
          break;
        default: {
          int psize = 0;
          OK(MPI_Pack_size(cnt, MPI_BYTE, W, &psize));
          const int bsize = psize + MPI_BSEND_OVERHEAD;
          char* bbuf = malloc((size_t)bsize);
          CHECK(bbuf != NULL, "malloc");
          OK(MPI_Buffer_attach(bbuf, bsize));
          OK(MPI_Bsend(sb, cnt, MPI_BYTE, me, T_SELF, W));
          fill_msg(sb, n, s ^ 1u); /* the message was copied out: reusing the buffer is fine */
          OK(MPI_Recv(rb, cap, MPI_BYTE, me, T_SELF, W, rst));
          void* addr = NULL;
          int size = -1;
          OK(MPI_Buffer_detach(&addr, &size));
          EXPECT(addr == bbuf && size == bsize, "MPI_Buffer_detach gave %p %d, attached %p %d", addr, size,
                 (void*)bbuf, bsize);
          free(bbuf);
          fill_msg(sb, n, s);
          break;
        }
      }
      expect_status(rst, me, T_SELF, MPI_BYTE, cnt, ctx);
      expect_msg(rb, n, s, ctx);
      expect_fill(rb, n, n + EXTRA, ctx);
      gcheck(rb, ctx);
      expect_msg(sb, n, s, "send buffer after the send");
      gcheck(sb, "send buffer");
    }
    gfree(sb);
    gfree(rb);
  }
}

/* ---------- MPI_PROC_NULL ---------- */
static int t_irecv_proc_null_zero; /* P2P_BASIC_IRECV_PROC_NULL_STATUS_ZERO, see the header */

static void expect_irecv_proc_null_status(const MPI_Status* st) {
  if (!t_irecv_proc_null_zero) {
    expect_proc_null_status(st, MPI_BYTE, ctx);
    return;
  }
  int n = -1;
  OK(MPI_Get_count(st, MPI_BYTE, &n));
  EXPECT(n == 0, "%s: MPI_Get_count %d, want 0", ctx, n);
}

static void t_proc_null(void) {
  unsigned char* sb = galloc(64);
  unsigned char* rb = galloc(64);
  fill_msg(sb, 64, 1234);
  MPI_Status st;
  MPI_Request rq;
  int psize = 0;
  OK(MPI_Pack_size(64, MPI_BYTE, W, &psize));
  const int bsize = psize + MPI_BSEND_OVERHEAD;
  char* bbuf = malloc((size_t)bsize);
  CHECK(bbuf != NULL, "malloc");
  OK(MPI_Buffer_attach(bbuf, bsize));
  SETCTX("MPI_PROC_NULL sends");
  OK(MPI_Send(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W));
  OK(MPI_Ssend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W));
  OK(MPI_Rsend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W));
  OK(MPI_Bsend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W));
  for (int k = 0; k < 4; ++k) {
    rq = MPI_REQUEST_NULL;
    if (k == 0) OK(MPI_Isend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W, &rq));
    if (k == 1) OK(MPI_Issend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W, &rq));
    if (k == 2) OK(MPI_Irsend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W, &rq));
    if (k == 3) OK(MPI_Ibsend(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W, &rq));
    EXPECT(rq != MPI_REQUEST_NULL, "nonblocking send %d to MPI_PROC_NULL gave MPI_REQUEST_NULL", k);
    OK(MPI_Wait(&rq, &st));
    EXPECT(rq == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
  }
  expect_msg(sb, 64, 1234, "send buffer");
  void* addr = NULL;
  int size = -1;
  OK(MPI_Buffer_detach(&addr, &size));
  EXPECT(addr == bbuf && size == bsize, "MPI_Buffer_detach gave %p %d, attached %p %d", addr, size, (void*)bbuf,
         bsize);
  free(bbuf);

  SETCTX("MPI_Recv from MPI_PROC_NULL");
  poison_status(&st);
  OK(MPI_Recv(rb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W, &st));
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  SETCTX("MPI_Recv from MPI_PROC_NULL, MPI_ANY_TAG, MPI_INT");
  poison_status(&st);
  OK(MPI_Recv(rb, 16, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, W, &st));
  expect_proc_null_status(&st, MPI_INT, ctx);
  int e = -1;
  OK(MPI_Get_elements(&st, MPI_INT, &e));
  EXPECT(e == 0, "MPI_Get_elements %d", e);
  SETCTX("MPI_Irecv from MPI_PROC_NULL + MPI_Wait");
  poison_status(&st);
  OK(MPI_Irecv(rb, 64, MPI_BYTE, MPI_PROC_NULL, 3, W, &rq));
  OK(MPI_Wait(&rq, &st));
  expect_irecv_proc_null_status(&st);
  SETCTX("MPI_Irecv from MPI_PROC_NULL + MPI_Test");
  poison_status(&st);
  int flag = 0;
  OK(MPI_Irecv(rb, 64, MPI_BYTE, MPI_PROC_NULL, 3, W, &rq));
  for (int i = 0; i < 1000000 && !flag; ++i) CHECK_MPI(MPI_Test(&rq, &flag, &st));
  EXPECT(flag, "MPI_Test never completed a receive from MPI_PROC_NULL");
  expect_irecv_proc_null_status(&st);
  SETCTX("MPI_Sendrecv with MPI_PROC_NULL both ways");
  poison_status(&st);
  OK(MPI_Sendrecv(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, rb, 64, MPI_BYTE, MPI_PROC_NULL, 1, W, &st));
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  expect_fill(rb, 0, 64, ctx);
  gcheck(rb, ctx);
  SETCTX("MPI_Sendrecv_replace with MPI_PROC_NULL");
  poison_status(&st);
  OK(MPI_Sendrecv_replace(sb, 64, MPI_BYTE, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1, W, &st));
  expect_proc_null_status(&st, MPI_BYTE, ctx);
  expect_msg(sb, 64, 1234, ctx);
  gcheck(sb, ctx);
  gfree(sb);
  gfree(rb);
}

/* ---------- ping-pong between pairs ---------- */
enum { M_SEND, M_SSEND, M_RSEND, M_BSEND, NMODES };
static const char* const mode_name[NMODES] = {"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend"};

static void t_pingpong(void) {
  const int partner = (me ^ 1) < np ? (me ^ 1) : -1;
  if (partner < 0) return;
  const int low = me < partner ? me : partner, high = me < partner ? partner : me;
  int psize = 0;
  OK(MPI_Pack_size((int)max_size, MPI_BYTE, W, &psize));
  /* Room for two messages: the previous one may still occupy the buffer when the next
   * MPI_Bsend starts (3.6.1 leaves it to the implementation when the space is freed). */
  const int bsize = 2 * (psize + MPI_BSEND_OVERHEAD);
  char* bbuf = malloc((size_t)bsize);
  CHECK(bbuf != NULL, "malloc");
  OK(MPI_Buffer_attach(bbuf, bsize));
  int token = 0;
  for (int mode = 0; mode < NMODES; ++mode)
    for (int z = 0; z < NSIZES; ++z) {
      const size_t n = sizes[z];
      unsigned char* sb = galloc(n);
      unsigned char* rb = galloc(n + EXTRA);
      for (int it = 0; it < PP_ITERS; ++it)
        for (int dir = 0; dir < 2; ++dir) {
          const int sender = dir == 0 ? low : high, receiver = dir == 0 ? high : low;
          const int id = mode * 100 + z;
          const int tag = T_PP + mode;
          SETCTX("ping-pong %s %zu bytes, %d -> %d, iteration %d", mode_name[mode], n, sender, receiver, it);
          if (me == receiver) {
            MPI_Status st;
            poison_status(&st);
            grefill(rb);
            if (mode == M_RSEND) {
              MPI_Request rq;
              OK(MPI_Irecv(rb, (int)(n + EXTRA), MPI_BYTE, sender, tag, W, &rq));
              OK(MPI_Send(&token, 1, MPI_INT, sender, T_TOKEN, W)); /* "my receive is posted" */
              OK(MPI_Wait(&rq, &st));
            } else {
              OK(MPI_Recv(rb, (int)(n + EXTRA), MPI_BYTE, sender, tag, W, &st));
            }
            expect_status(&st, sender, tag, MPI_BYTE, (int)n, ctx);
            expect_msg(rb, n, msg_seed(sender, receiver, id, it), ctx);
            expect_fill(rb, n, n + EXTRA, ctx);
            gcheck(rb, ctx);
          } else {
            const uint32_t s = msg_seed(sender, receiver, id, it);
            fill_msg(sb, n, s);
            switch (mode) {
              case M_SEND: OK(MPI_Send(sb, (int)n, MPI_BYTE, receiver, tag, W)); break;
              case M_SSEND: OK(MPI_Ssend(sb, (int)n, MPI_BYTE, receiver, tag, W)); break;
              case M_RSEND:
                OK(MPI_Recv(&token, 1, MPI_INT, receiver, T_TOKEN, W, MPI_STATUS_IGNORE));
                OK(MPI_Rsend(sb, (int)n, MPI_BYTE, receiver, tag, W));
                break;
              default:
                OK(MPI_Bsend(sb, (int)n, MPI_BYTE, receiver, tag, W));
                break;
            }
            if (mode == M_BSEND) {
              fill_msg(sb, n, ~s); /* MPI_Bsend copied the message: the buffer is ours again */
            } else {
              expect_msg(sb, n, s, "send buffer after the send");
            }
            gcheck(sb, "send buffer");
          }
        }
      gfree(sb);
      gfree(rb);
    }
  SETCTX("MPI_Buffer_detach after ping-pong");
  void* addr = NULL;
  int size = -1;
  OK(MPI_Buffer_detach(&addr, &size));
  EXPECT(addr == bbuf && size == bsize, "MPI_Buffer_detach gave %p %d, attached %p %d", addr, size, (void*)bbuf,
         bsize);
  free(bbuf);
}

/* ---------- Sendrecv and Sendrecv_replace around the ring ---------- */
static void t_sendrecv(void) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  for (int z = 0; z < NSIZES; ++z) {
    const size_t n = sizes[z];
    SETCTX("MPI_Sendrecv ring %zu bytes", n);
    unsigned char* sb = galloc(n);
    unsigned char* rb = galloc(n + EXTRA);
    const uint32_t s = msg_seed(me, next, 300 + z, 0);
    fill_msg(sb, n, s);
    MPI_Status st;
    poison_status(&st);
    OK(MPI_Sendrecv(sb, (int)n, MPI_BYTE, next, T_SR, rb, (int)(n + EXTRA), MPI_BYTE, prev, T_SR, W, &st));
    expect_status(&st, prev, T_SR, MPI_BYTE, (int)n, ctx);
    expect_msg(rb, n, msg_seed(prev, me, 300 + z, 0), ctx);
    expect_fill(rb, n, n + EXTRA, ctx);
    gcheck(rb, ctx);
    expect_msg(sb, n, s, "send buffer");
    gfree(sb);
    gfree(rb);
  }
  /* Sendrecv_replace: a buffer travels around the ring; after k steps rank r holds the
   * one rank r-k started with. */
  static const size_t rsizes[] = {0, 7, 65536 + 3, (1u << 20) + 5};
  for (int z = 0; z < 4; ++z) {
    const size_t n = rsizes[z];
    const int steps = n > 100000 ? 2 : np + 1;
    unsigned char* b = galloc(n);
    fill_msg(b, n, msg_seed(me, 0, 400 + z, 0));
    for (int k = 1; k <= steps; ++k) {
      SETCTX("MPI_Sendrecv_replace ring %zu bytes, step %d", n, k);
      MPI_Status st;
      poison_status(&st);
      OK(MPI_Sendrecv_replace(b, (int)n, MPI_BYTE, next, T_REPL, prev, T_REPL, W, &st));
      const int origin = ((me - k) % np + np) % np;
      expect_status(&st, prev, T_REPL, MPI_BYTE, (int)n, ctx);
      expect_msg(b, n, msg_seed(origin, 0, 400 + z, 0), ctx);
      gcheck(b, ctx);
    }
    gfree(b);
  }
}

/* ---------- wildcard receives at rank 0 ---------- */
static size_t any_size(int r, int k) { return (size_t)(3 + 41 * r + 1000 * k); }

static void t_wildcards(void) {
  /* Round A: one message from every rank (rank 0 included, by MPI_Isend), tag 200 + r,
   * received with MPI_ANY_SOURCE, MPI_ANY_TAG. */
  const size_t cap = any_size(np, 2);
  unsigned char* sb[2] = {galloc(any_size(me, 0)), galloc(any_size(me, 1))};
  MPI_Request rq[2];
  fill_msg(sb[0], any_size(me, 0), msg_seed(me, 0, 500, 0));
  OK(MPI_Isend(sb[0], (int)any_size(me, 0), MPI_BYTE, 0, T_ANY + me, W, &rq[0]));
  unsigned char* rb = galloc(cap);
  int* seen = calloc((size_t)np, sizeof *seen);
  CHECK(seen != NULL, "calloc");
  if (me == 0)
    for (int i = 0; i < np; ++i) {
      SETCTX("MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG) #%d at rank 0", i);
      MPI_Status st;
      poison_status(&st);
      grefill(rb);
      OK(MPI_Recv(rb, (int)cap, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, W, &st));
      const int s = st.MPI_SOURCE;
      EXPECT(s >= 0 && s < np, "status source %d", s);
      EXPECT(!seen[s], "source %d seen twice", s);
      seen[s] = 1;
      expect_status(&st, s, T_ANY + s, MPI_BYTE, (int)any_size(s, 0), ctx);
      expect_msg(rb, any_size(s, 0), msg_seed(s, 0, 500, 0), ctx);
      expect_fill(rb, any_size(s, 0), cap, ctx);
      gcheck(rb, ctx);
    }
  OK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
  OK(MPI_Barrier(W));
  /* Round B: each rank sends tag 300 then tag 301. Rank 0 takes every tag-301 message
   * with (MPI_ANY_SOURCE, 301), then the tag-300 ones with (source, MPI_ANY_TAG). */
  for (int k = 0; k < 2; ++k) {
    fill_msg(sb[k], any_size(me, k), msg_seed(me, 0, 600 + k, 0));
    OK(MPI_Isend(sb[k], (int)any_size(me, k), MPI_BYTE, 0, 300 + k, W, &rq[k]));
  }
  if (me == 0) {
    memset(seen, 0, (size_t)np * sizeof *seen);
    for (int i = 0; i < np; ++i) {
      SETCTX("MPI_Recv(MPI_ANY_SOURCE, 301) #%d at rank 0", i);
      MPI_Status st;
      poison_status(&st);
      grefill(rb);
      OK(MPI_Recv(rb, (int)cap, MPI_BYTE, MPI_ANY_SOURCE, 301, W, &st));
      const int s = st.MPI_SOURCE;
      EXPECT(s >= 0 && s < np && !seen[s], "status source %d (out of range or seen twice)", s);
      seen[s] = 1;
      expect_status(&st, s, 301, MPI_BYTE, (int)any_size(s, 1), ctx);
      expect_msg(rb, any_size(s, 1), msg_seed(s, 0, 601, 0), ctx);
      gcheck(rb, ctx);
    }
    for (int s = np - 1; s >= 0; --s) {
      SETCTX("MPI_Recv(%d, MPI_ANY_TAG) at rank 0", s);
      MPI_Status st;
      poison_status(&st);
      grefill(rb);
      OK(MPI_Recv(rb, (int)cap, MPI_BYTE, s, MPI_ANY_TAG, W, &st));
      expect_status(&st, s, 300, MPI_BYTE, (int)any_size(s, 0), ctx);
      expect_msg(rb, any_size(s, 0), msg_seed(s, 0, 600, 0), ctx);
      expect_fill(rb, any_size(s, 0), cap, ctx);
      gcheck(rb, ctx);
    }
  }
  OK(MPI_Waitall(2, rq, STATUSES_IGNORE));
  gfree(sb[0]);
  gfree(sb[1]);
  gfree(rb);
  free(seen);
}

/* ---------- datatype layouts: where each basic element of count elements lies ---------- */
typedef struct {
  const char* name;
  MPI_Datatype type;
  int count;       /* elements of type passed to MPI */
  int per;         /* basic elements per type element */
  size_t n;        /* basic elements in total */
  size_t* off;     /* byte offset of each */
  unsigned char* unit; /* its size: 1 char, 4 int, 8 double */
  size_t span;     /* bytes of buffer the elements reach */
} Lay;

/* One element's map (offsets, units) of extent `ext`, repeated count times. */
static void lay_make(Lay* L, const char* name, MPI_Datatype t, int count, int per, const size_t* off1,
                     const unsigned char* unit1, size_t ext) {
  L->name = name;
  L->type = t;
  L->count = count;
  L->per = per;
  L->n = (size_t)count * (size_t)per;
  L->off = malloc((L->n + 1) * sizeof *L->off);
  L->unit = malloc(L->n + 1);
  CHECK(L->off != NULL && L->unit != NULL, "malloc");
  L->span = 0;
  int tsize = 0;
  for (int k = 0; k < per; ++k) tsize += unit1[k];
  for (size_t e = 0, j = 0; e < (size_t)count; ++e)
    for (int k = 0; k < per; ++k, ++j) {
      L->off[j] = e * ext + off1[k];
      L->unit[j] = unit1[k];
      if (L->off[j] + L->unit[j] > L->span) L->span = L->off[j] + L->unit[j];
    }
  if (t != MPI_INT && t != MPI_CHAR) CHECK_MPI(MPI_Type_commit(&L->type));
  int size = -1;
  MPI_Aint lb = -1, extent = -1;
  CHECK_MPI(MPI_Type_size(L->type, &size));
  CHECK_MPI(MPI_Type_get_extent(L->type, &lb, &extent));
  CHECK(size == tsize && lb == 0 && (size_t)extent == ext, "layout %s: size %d lb %ld extent %ld, model %d 0 %zu",
        name, size, (long)lb, (long)extent, tsize, ext);
}

static void lay_free(Lay* L) {
  if (L->type != MPI_INT && L->type != MPI_CHAR) CHECK_MPI(MPI_Type_free(&L->type));
  free(L->off);
  free(L->unit);
}

static void lay_int(Lay* L, int count) {
  const size_t o[1] = {0};
  const unsigned char u[1] = {4};
  lay_make(L, "int", MPI_INT, count, 1, o, u, 4);
}
static void lay_vector(Lay* L, const char* name, int count, int nblk, int bl, int stride) {
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_vector(nblk, bl, stride, MPI_INT, &t));
  size_t* o = malloc((size_t)nblk * (size_t)bl * sizeof *o);
  unsigned char* u = malloc((size_t)nblk * (size_t)bl);
  CHECK(o != NULL && u != NULL, "malloc");
  for (int b = 0, j = 0; b < nblk; ++b)
    for (int k = 0; k < bl; ++k, ++j) {
      o[j] = (size_t)(b * stride + k) * 4;
      u[j] = 4;
    }
  lay_make(L, name, t, count, nblk * bl, o, u, (size_t)((nblk - 1) * stride + bl) * 4);
  free(o);
  free(u);
}
static void lay_contig(Lay* L, const char* name, int count, int n) {
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(n, MPI_INT, &t));
  size_t o[16];
  unsigned char u[16];
  for (int k = 0; k < n; ++k) {
    o[k] = (size_t)k * 4;
    u[k] = 4;
  }
  lay_make(L, name, t, count, n, o, u, (size_t)n * 4);
}
/* Blocks of ints at decreasing displacements: {3 at 9, 2 at 5, 4 at 0} (extent 12 ints). */
static void lay_indexed(Lay* L, int count) {
  static const int bl[3] = {3, 2, 4}, d[3] = {9, 5, 0};
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
  size_t o[9];
  unsigned char u[9];
  for (int b = 0, j = 0; b < 3; ++b)
    for (int k = 0; k < bl[b]; ++k, ++j) {
      o[j] = (size_t)(d[b] + k) * 4;
      u[j] = 4;
    }
  lay_make(L, "indexed{3@9,2@5,4@0}", t, count, 9, o, u, 48);
}

/* A struct with holes: 7 bytes after c, 4 after i[2]. */
typedef struct {
  char c;
  double d;
  int i[3];
} S;
static const size_t s_off[5] = {offsetof(S, c), offsetof(S, d), offsetof(S, i), offsetof(S, i) + 4, offsetof(S, i) + 8};
static const unsigned char s_unit[5] = {1, 8, 4, 4, 4};

static MPI_Datatype struct_type(const size_t* off, size_t ext) {
  const int bl[3] = {1, 1, 3};
  const MPI_Aint d[3] = {(MPI_Aint)off[0], (MPI_Aint)off[1], (MPI_Aint)off[2]};
  const MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
  MPI_Datatype t, r;
  CHECK_MPI(MPI_Type_create_struct(3, bl, d, ty, &t));
  CHECK_MPI(MPI_Type_create_resized(t, 0, (MPI_Aint)ext, &r));
  CHECK_MPI(MPI_Type_free(&t));
  return r;
}
static void lay_struct(Lay* L, int count) {
  lay_make(L, "struct{char,double,3 int} padded to 32", struct_type(s_off, sizeof(S)), count, 5, s_off, s_unit,
           sizeof(S));
}
static void lay_packed(Lay* L, int count) {
  static const size_t o[5] = {0, 1, 9, 13, 17};
  lay_make(L, "packed {char@0,double@1,3 int@9}, extent 21", struct_type(o, 21), count, 5, o, s_unit, 21);
}
/* Two structs, then a char and a double: a partial third struct. Built from basic types
 * (a resized struct inside would set the extent by its sticky ub marker: MPI-4.1 5.1,
 * "Lower-Bound and Upper-Bound Markers"). */
static void lay_struct_partial(Lay* L) {
  int bl[8];
  MPI_Aint d[8];
  MPI_Datatype ty[8];
  size_t o[12];
  unsigned char u[12];
  for (int e = 0, j = 0, b = 0; e < 3; ++e)
    for (int k = 0; k < (e < 2 ? 5 : 2); ++k, ++j) {
      o[j] = (size_t)e * sizeof(S) + s_off[k];
      u[j] = s_unit[k];
      if (k < 3) {
        bl[b] = k == 2 ? 3 : 1;
        d[b] = (MPI_Aint)o[j];
        ty[b] = k == 0 ? MPI_CHAR : k == 1 ? MPI_DOUBLE : MPI_INT;
        ++b;
      }
    }
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_create_struct(8, bl, d, ty, &t));
  lay_make(L, "struct{2 x (char,double,3 int), char, double}", t, 1, 12, o, u, 2 * sizeof(S) + 16);
}

/* Writes basic element j of message s at p (valid chars, doubles and ints). */
static void put_elem(unsigned char* p, unsigned unit, uint32_t s, size_t j) {
  const uint32_t h = mix32(s ^ (uint32_t)j * 0x9E3779B1u);
  if (unit == 1) {
    const char c = (char)(0x20 + h % 90);
    memcpy(p, &c, 1);
  } else if (unit == 4) {
    const int v = (int)h;
    memcpy(p, &v, 4);
  } else {
    const double v = (double)(int)h + 0.25;
    memcpy(p, &v, 8);
  }
}

/* The first nsent basic elements of message s, at L's offsets, the rest fill. */
static unsigned char* image(const Lay* L, size_t nsent, uint32_t s) {
  unsigned char* img = malloc(L->span + 1);
  CHECK(img != NULL, "malloc");
  for (size_t i = 0; i < L->span; ++i) img[i] = fill_byte(i);
  for (size_t j = 0; j < nsent; ++j) put_elem(img + L->off[j], L->unit[j], s, j);
  return img;
}

static void expect_image(const unsigned char* got, const unsigned char* want, size_t n, const char* what) {
  ++nchecks;
  if (memcmp(got, want, n) == 0) return;
  size_t i = 0;
  while (got[i] == want[i]) ++i;
  EXPECT(0, "%s: byte %zu of %zu is 0x%02x, want 0x%02x", what, i, n, got[i], want[i]);
}

/* Sends all of S to the next rank, receives into R from the previous one (ring; self at
 * 1 rank). R may hold more than S sends; the signatures must match as far as S goes. */
static void exchange(const Lay* S, const Lay* R, int id) {
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  SETCTX("datatypes: %d x %s -> %d x %s", S->count, S->name, R->count, R->name);
  CHECK(S->n <= R->n, "test bug: receive too small");
  for (size_t j = 0; j < S->n; ++j) CHECK(S->unit[j] == R->unit[j], "test bug: signatures differ at %zu", j);
  const uint32_t sseed = msg_seed(me, next, id, 0), rseed = msg_seed(prev, me, id, 0);
  unsigned char* simg = image(S, S->n, sseed);
  unsigned char* sb = galloc(S->span);
  memcpy(sb, simg, S->span);
  unsigned char* rb = galloc(R->span);
  MPI_Request rq[2];
  MPI_Status st[2];
  poison_status(&st[1]);
  OK(MPI_Irecv(rb, R->count, R->type, prev, T_DT, W, &rq[1]));
  OK(MPI_Isend(sb, S->count, S->type, next, T_DT, W, &rq[0]));
  OK(MPI_Waitall(2, rq, st));
  const int whole = (int)(S->n % (size_t)R->per == 0);
  const int want_count = whole ? (int)(S->n / (size_t)R->per) : MPI_UNDEFINED;
  expect_status(&st[1], prev, T_DT, R->type, want_count, ctx);
  int e = -1;
  OK(MPI_Get_elements(&st[1], R->type, &e));
  EXPECT(e == (int)S->n, "MPI_Get_elements %d, want %zu", e, S->n);
#if MPI_VERSION >= 4
  MPI_Count cc = -1, ce = -1;
  OK(MPI_Get_count_c(&st[1], R->type, &cc));
  OK(MPI_Get_elements_c(&st[1], R->type, &ce));
  EXPECT(cc == want_count && ce == (MPI_Count)S->n, "MPI_Get_count_c %lld MPI_Get_elements_c %lld, want %d %zu",
         (long long)cc, (long long)ce, want_count, S->n);
#endif
  unsigned char* rimg = image(R, S->n, rseed);
  expect_image(rb, rimg, R->span, ctx);
  gcheck(rb, ctx);
  expect_image(sb, simg, S->span, "send buffer after the send");
  free(simg);
  free(rimg);
  gfree(sb);
  gfree(rb);
}

static void t_datatypes(void) {
  enum { INT5, INT10, INT0, INT4, INT7, C3X4, C3X0, C3X2, VEC, INT48, IDX6, C4X12, IDX4, VEC3, S10, S11, P10, SPART, S3,
         BIGVEC, INT200K, NLAY };
  Lay L[NLAY];
  lay_int(&L[INT5], 5), lay_int(&L[INT10], 10), lay_int(&L[INT0], 0), lay_int(&L[INT4], 4), lay_int(&L[INT7], 7);
  lay_contig(&L[C3X4], "contiguous(3,int)", 4, 3);
  lay_contig(&L[C3X0], "contiguous(3,int)", 0, 3);
  lay_contig(&L[C3X2], "contiguous(3,int)", 2, 3);
  lay_vector(&L[VEC], "vector(8,3,5,int)", 2, 8, 3, 5);
  lay_int(&L[INT48], 48);
  lay_indexed(&L[IDX6], 6);
  lay_contig(&L[C4X12], "contiguous(4,int)", 12, 4);
  lay_indexed(&L[IDX4], 4);
  lay_vector(&L[VEC3], "vector(4,3,4,int)", 3, 4, 3, 4);
  lay_struct(&L[S10], 10), lay_struct(&L[S11], 11), lay_struct(&L[S3], 3);
  lay_packed(&L[P10], 10);
  lay_struct_partial(&L[SPART]);
  lay_vector(&L[BIGVEC], "vector(40000,5,7,int)", 1, 40000, 5, 7); /* 800 KB of data */
  lay_int(&L[INT200K], 200000);
  static const int pairs[][2] = {
      /* counts: fewer ints than the buffer; zero ints; a partial contiguous(3) element (7 ints) */
      {INT5, INT10}, {INT0, INT4}, {INT7, C3X4}, {C3X0, C3X2},
      /* vector <-> contiguous ints, vector -> indexed (a partial element), contiguous -> vector,
       * indexed -> vector */
      {VEC, INT48}, {INT48, VEC}, {VEC, IDX6}, {C4X12, VEC}, {IDX4, VEC3},
      /* the struct with holes to itself (room for one more), to and from the packed layout,
       * a partial struct */
      {S10, S11}, {S10, P10}, {P10, S10}, {SPART, S3},
      /* large */
      {BIGVEC, INT200K}, {INT200K, BIGVEC}};
  int id = 700;
  for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; ++k) exchange(&L[pairs[k][0]], &L[pairs[k][1]], id++);
  for (int k = 0; k < NLAY; ++k) lay_free(&L[k]);

  Lay a;
  /* Sendrecv_replace with a vector: the holes must stay as they were. */
  const int next = (me + 1) % np, prev = (me + np - 1) % np;
  lay_vector(&a, "vector(100,3,5,int)", 2, 100, 3, 5);
  unsigned char* buf = galloc(a.span);
  unsigned char* img = image(&a, a.n, msg_seed(me, 0, id, 0));
  memcpy(buf, img, a.span);
  free(img);
  for (int k = 1; k <= 2; ++k) {
    SETCTX("MPI_Sendrecv_replace with %s, step %d", a.name, k);
    MPI_Status st;
    poison_status(&st);
    OK(MPI_Sendrecv_replace(buf, a.count, a.type, next, T_REPL, prev, T_REPL, W, &st));
    expect_status(&st, prev, T_REPL, a.type, a.count, ctx);
    img = image(&a, a.n, msg_seed(((me - k) % np + np) % np, 0, id, 0));
    expect_image(buf, img, a.span, ctx);
    gcheck(buf, ctx);
    free(img);
  }
  gfree(buf);
  lay_free(&a);
}

/* ---------- communicators: same tag and source, different contexts ---------- */
static void t_comms(void) {
  enum { NC = 5 };
  MPI_Comm c[NC];
  static const char* const cname[NC] = {"second dup (ANY_SOURCE, ANY_TAG)", "MPI_COMM_SELF", "split", "dup",
                                        "MPI_COMM_WORLD"};
  static const size_t csize[NC] = {77, 333, 1, 70001, 13};
  CHECK_MPI(MPI_Comm_dup(W, &c[0]));
  c[1] = MPI_COMM_SELF;
  CHECK_MPI(MPI_Comm_split(W, me % 2, -me, &c[2]));
  CHECK_MPI(MPI_Comm_dup(W, &c[3]));
  c[4] = W;
  int rank[NC], size[NC];
  unsigned char *sb[NC], *rb[NC];
  MPI_Request rq[2 * NC];
  MPI_Status st[2 * NC];
  for (int k = 0; k < NC; ++k) {
    CHECK_MPI(MPI_Comm_rank(c[k], &rank[k]));
    CHECK_MPI(MPI_Comm_size(c[k], &size[k]));
    sb[k] = galloc(csize[k]);
    rb[k] = galloc(100000);
    fill_msg(sb[k], csize[k], msg_seed(rank[k], (rank[k] + 1) % size[k], 800 + k, 0));
  }
  /* Receives first (second dup with wildcards first of all), sends in the reverse order. */
  for (int k = 0; k < NC; ++k) {
    const int prev = (rank[k] + size[k] - 1) % size[k];
    OK(MPI_Irecv(rb[k], 100000, MPI_BYTE, k == 0 ? MPI_ANY_SOURCE : prev, k == 0 ? MPI_ANY_TAG : T_COMM, c[k], &rq[k]));
  }
  OK(MPI_Barrier(W));
  for (int k = NC - 1; k >= 0; --k)
    OK(MPI_Isend(sb[k], (int)csize[k], MPI_BYTE, (rank[k] + 1) % size[k], T_COMM, c[k], &rq[NC + k]));
  SETCTX("same tag on several communicators");
  OK(MPI_Waitall(2 * NC, rq, st));
  for (int k = 0; k < NC; ++k) {
    const int prev = (rank[k] + size[k] - 1) % size[k];
    SETCTX("same tag on several communicators: receive on %s", cname[k]);
    expect_status(&st[k], prev, T_COMM, MPI_BYTE, (int)csize[k], ctx);
    expect_msg(rb[k], csize[k], msg_seed(prev, rank[k], 800 + k, 0), ctx);
    expect_fill(rb[k], csize[k], 100000, ctx);
    gcheck(rb[k], ctx);
    gfree(sb[k]);
    gfree(rb[k]);
  }
  CHECK_MPI(MPI_Comm_free(&c[0]));
  CHECK_MPI(MPI_Comm_free(&c[2]));
  CHECK_MPI(MPI_Comm_free(&c[3]));
}

int main(int argc, char** argv) {
  p2p_init(&argc, &argv);
  W = MPI_COMM_WORLD;
  t_irecv_proc_null_zero = env("P2P_BASIC_IRECV_PROC_NULL_STATUS_ZERO");
  t_self();
  t_proc_null();
  OK(MPI_Barrier(W));
  t_pingpong();
  OK(MPI_Barrier(W));
  t_sendrecv();
  OK(MPI_Barrier(W));
  t_wildcards();
  OK(MPI_Barrier(W));
  t_datatypes();
  OK(MPI_Barrier(W));
  t_comms();
  p2p_finish("p2p_basic");
  return 0;
}
