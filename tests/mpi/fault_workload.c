/* fault_workload: a mixed MPI workload whose every result is checked exactly, for fault
 * injection (tests/scripts/fault_inject.sh kills a random rank of it) and the soak test
 * (tests/soak/soak.sh runs it for minutes and watches memory).
 *
 * Each iteration k (1, 2, ...) on n ranks runs, in this order:
 *   fence        MPI_Win_allocate: MPI_Put of k*1000+r into the right neighbour's slot r,
 *                MPI_Accumulate(SUM, k+r) into a running total on rank 0;
 *   excl-lock    MPI_Win_create on malloc'ed memory, target k%n: under MPI_LOCK_EXCLUSIVE
 *                an MPI_Accumulate(SUM) and a Get + flush + Put increment (only mutual
 *                exclusion makes the increments add up);
 *   shared-lock  same window, target (k+1)%n: under MPI_LOCK_SHARED MPI_Get_accumulate
 *                (SUM 1) as a ticket (the tickets must be n distinct values) and
 *                MPI_Accumulate(SUM, r+1);
 *   lock-all     MPI_Win_allocate_shared, target (k+2)%n: under MPI_Win_lock_all an
 *                MPI_Fetch_and_op ticket and an MPI_Compare_and_swap retry loop adding
 *                r+1, each followed by MPI_Win_flush;
 *   big-acc      MPI_Win_allocate of ACC_KIB KiB, target (k+3)%n: under MPI_LOCK_SHARED
 *                one MPI_Accumulate(SUM) of the whole window from every rank at once
 *                (a kill lands mid-accumulate with some probability);
 *   check-rma    every target of this iteration reads its own window (under a lock on
 *                itself) and compares with the closed form of all iterations so far;
 *   bcast, allreduce, scatterv, reduce-noncomm (2x2 matrix product, rank order),
 *   barrier,
 *   sendrecv     ring MPI_Sendrecv,
 *   isend-irecv  MPI_Isend/MPI_Irecv to both neighbours (one 128 KiB message) with an
 *                MPI_Iallreduce in flight, one MPI_Waitall,
 *   ssend        MPI_Ssend between even/odd pairs, both directions.
 * A mismatch prints "FAIL ..." and aborts with status 3.
 *
 * Output: every rank prints "fault_workload: rank R pid P" at start (a harness picks a
 * victim from these); rank 0 prints "fault_workload: iteration K at T s, exact so far"
 * every 30 s and at the end "fault_workload: done: N ranks, K iterations, C checks, all
 * exact, T s".
 *
 * Usage: fault_workload LIMIT [PHASE_DIR [ACC_KIB]]
 *   LIMIT     an iteration count (e.g. 200) or a duration in seconds with an "s" (e.g.
 *             "600s": rank 0 decides at the top of each iteration and tells the others);
 *   PHASE_DIR if not "-", every rank keeps the name of the phase it is in, as a
 *             NUL-terminated string, in PHASE_DIR/phase.R (a shared file mapping, so a
 *             harness can read the phase a killed rank was in);
 *   ACC_KIB   size of the big-acc window per rank (default 4096, a multiple of 16).
 * Standard MPI (the same source runs on MPICH and Open MPI) plus POSIX. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int rank, nranks;
static long long nchecks;
static char* phase_page; /* NULL: not recorded */

static void set_phase(const char* name) {
  if (phase_page) {
    /* Readers may see a torn name while it changes; the trailing NUL stays in place. */
    strncpy(phase_page, name, 63);
  }
}

static void open_phase_file(const char* dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/phase.%d", dir, rank);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0, "cannot create %s", path);
  CHECK(ftruncate(fd, 4096) == 0, "ftruncate %s", path);
  void* p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(p != MAP_FAILED, "mmap %s", path);
  close(fd);
  phase_page = p;
  memset(phase_page, 0, 64);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define EXPECT(cond, ...)                                                                 \
  do {                                                                                    \
    ++nchecks;                                                                            \
    CHECK(cond, __VA_ARGS__);                                                             \
  } while (0)

/* The non-commutative op: 2x2 matrices of uint64 (wrapping), inout = in x inout. */
typedef struct {
  uint64_t a, b, c, d;
} Mat;

static Mat mat_mul(Mat x, Mat y) {
  Mat z = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  return z;
}

static void mat_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  Mat* x = in;
  Mat* y = inout;
  for (int i = 0; i < *len; ++i) y[i] = mat_mul(x[i], y[i]);
}

static Mat mat_of(int r, long k) {
  Mat m = {(uint64_t)(r + 2), (uint64_t)(k + r), (uint64_t)(3 * r + 1), (uint64_t)(k % 5 + 1)};
  return m;
}

/* Windows and buffers, all allocated once so memory stays flat over a long run. */
enum { kScatterMax = 3, kBcastLen = 256, kRingLen = 64, kSmallLen = 1024, kBigMsgLen = 32768 };

typedef struct {
  MPI_Win fence, lock, shared, big;
  int64_t *fence_base, *lock_base, *shared_base, *big_base;
  int64_t* big_origin;
  long big_len;
  /* Expected running values per target, kept by every rank for every target. */
  int64_t* lock_hits;   /* iterations that targeted rank t in excl-lock */
  int64_t* shared_hits; /* ... in shared-lock */
  int64_t* all_hits;    /* ... in lock-all */
  int64_t* big_hits;    /* ... in big-acc */
  int* send_small;
  int* recv_small;
  int* send_big;
  int* recv_big;
} State;

static int64_t tri(int n) { return (int64_t)n * (n + 1) / 2; } /* 1 + 2 + ... + n */

static void rma_phases(State* s, long k) {
  const int n = nranks, r = rank;
  const int right = (r + 1) % n;

  set_phase("fence");
  CHECK_MPI(MPI_Win_fence(0, s->fence));
  int64_t mine = k * 1000 + r, add = k + r;
  CHECK_MPI(MPI_Put(&mine, 1, MPI_INT64_T, right, r, 1, MPI_INT64_T, s->fence));
  CHECK_MPI(MPI_Accumulate(&add, 1, MPI_INT64_T, 0, n, 1, MPI_INT64_T, MPI_SUM, s->fence));
  CHECK_MPI(MPI_Win_fence(0, s->fence));
  const int left = (r + n - 1) % n;
  EXPECT(s->fence_base[left] == k * 1000 + left, "iteration %ld fence: slot %d is %lld", k, left,
         (long long)s->fence_base[left]);
  if (r == 0) {
    /* sum over j <= k of sum over ranks (j + rank) */
    const int64_t want = (int64_t)n * tri((int)k) + k * ((int64_t)n * (n - 1) / 2);
    EXPECT(s->fence_base[n] == want, "iteration %ld fence: total %lld, want %lld", k,
           (long long)s->fence_base[n], (long long)want);
  }

  set_phase("excl-lock");
  const int t1 = (int)(k % n);
  int64_t v = (int64_t)(r + 1) * k, got = -1;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t1, 0, s->lock));
  CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT64_T, t1, 0, 1, MPI_INT64_T, MPI_SUM, s->lock));
  CHECK_MPI(MPI_Get(&got, 1, MPI_INT64_T, t1, 1, 1, MPI_INT64_T, s->lock));
  CHECK_MPI(MPI_Win_flush(t1, s->lock));
  const int64_t inc = got + 1;
  CHECK_MPI(MPI_Put(&inc, 1, MPI_INT64_T, t1, 1, 1, MPI_INT64_T, s->lock));
  CHECK_MPI(MPI_Win_unlock(t1, s->lock));
  s->lock_hits[t1] += k;

  set_phase("shared-lock");
  const int t2 = (int)((k + 1) % n);
  const int64_t one = 1, base2 = (int64_t)n * s->shared_hits[t2];
  int64_t ticket = -1, w = r + 1;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t2, 0, s->lock));
  CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_INT64_T, &ticket, 1, MPI_INT64_T, t2, 2, 1, MPI_INT64_T, MPI_SUM,
                               s->lock));
  CHECK_MPI(MPI_Accumulate(&w, 1, MPI_INT64_T, t2, 3, 1, MPI_INT64_T, MPI_SUM, s->lock));
  CHECK_MPI(MPI_Win_unlock(t2, s->lock));
  s->shared_hits[t2] += 1;
  EXPECT(ticket >= base2 && ticket < base2 + n, "iteration %ld shared-lock: ticket %lld outside [%lld, %lld)", k,
         (long long)ticket, (long long)base2, (long long)(base2 + n));
  long long bits = 1LL << (ticket - base2), all_bits = 0;
  CHECK_MPI(MPI_Allreduce(&bits, &all_bits, 1, MPI_LONG_LONG, MPI_BOR, MPI_COMM_WORLD));
  EXPECT(all_bits == (1LL << n) - 1, "iteration %ld shared-lock: tickets %llx are not distinct", k,
         (unsigned long long)all_bits);

  set_phase("lock-all");
  const int t3 = (int)((k + 2) % n);
  const int64_t base3 = (int64_t)n * s->all_hits[t3];
  int64_t t3_ticket = -1, cur = -1, next, old = -1;
  const int64_t zero = 0;
  CHECK_MPI(MPI_Win_lock_all(0, s->shared));
  CHECK_MPI(MPI_Fetch_and_op(&one, &t3_ticket, MPI_INT64_T, t3, 0, MPI_SUM, s->shared));
  CHECK_MPI(MPI_Win_flush(t3, s->shared));
  CHECK_MPI(MPI_Fetch_and_op(&zero, &cur, MPI_INT64_T, t3, 1, MPI_NO_OP, s->shared));
  CHECK_MPI(MPI_Win_flush(t3, s->shared));
  for (int tries = 0;; ++tries) {
    next = cur + r + 1;
    CHECK_MPI(MPI_Compare_and_swap(&next, &cur, &old, MPI_INT64_T, t3, 1, s->shared));
    CHECK_MPI(MPI_Win_flush(t3, s->shared));
    if (old == cur) break;
    CHECK(tries < 1000000, "iteration %ld lock-all: compare-and-swap never succeeded", k);
    cur = old;
  }
  CHECK_MPI(MPI_Win_unlock_all(s->shared));
  s->all_hits[t3] += 1;
  EXPECT(t3_ticket >= base3 && t3_ticket < base3 + n, "iteration %ld lock-all: ticket %lld outside [%lld, %lld)",
         k, (long long)t3_ticket, (long long)base3, (long long)(base3 + n));
  bits = 1LL << (t3_ticket - base3);
  CHECK_MPI(MPI_Allreduce(&bits, &all_bits, 1, MPI_LONG_LONG, MPI_BOR, MPI_COMM_WORLD));
  EXPECT(all_bits == (1LL << n) - 1, "iteration %ld lock-all: tickets %llx are not distinct", k,
         (unsigned long long)all_bits);

  set_phase("big-acc");
  const int t4 = (int)((k + 3) % n);
  for (long i = 0; i < s->big_len; ++i) s->big_origin[i] = (int64_t)(r + 1) * (i % 7 + 1);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t4, 0, s->big));
  CHECK_MPI(MPI_Accumulate(s->big_origin, (int)s->big_len, MPI_INT64_T, t4, 0, (int)s->big_len, MPI_INT64_T,
                           MPI_SUM, s->big));
  CHECK_MPI(MPI_Win_unlock(t4, s->big));
  s->big_hits[t4] += 1;

  /* Every access above completed at its target when its unlock returned; after the
   * barrier each target reads its own window under a lock on itself. */
  set_phase("check-rma");
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (r == t1 || r == t2) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0, s->lock));
    const int64_t* b = s->lock_base;
    EXPECT(b[0] == tri(n) * s->lock_hits[r], "iteration %ld excl-lock: sum %lld, want %lld", k, (long long)b[0],
           (long long)(tri(n) * s->lock_hits[r]));
    /* lock_hits holds the sum of the iteration numbers; count the iterations instead */
    EXPECT(b[2] == (int64_t)n * s->shared_hits[r], "iteration %ld shared-lock: tickets %lld, want %lld", k,
           (long long)b[2], (long long)((int64_t)n * s->shared_hits[r]));
    EXPECT(b[3] == tri(n) * s->shared_hits[r], "iteration %ld shared-lock: sum %lld, want %lld", k,
           (long long)b[3], (long long)(tri(n) * s->shared_hits[r]));
    CHECK_MPI(MPI_Win_unlock(r, s->lock));
  }
  if (r == t3) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, r, 0, s->shared));
    const int64_t* b = s->shared_base;
    EXPECT(b[0] == (int64_t)n * s->all_hits[r], "iteration %ld lock-all: tickets %lld, want %lld", k,
           (long long)b[0], (long long)((int64_t)n * s->all_hits[r]));
    EXPECT(b[1] == tri(n) * s->all_hits[r], "iteration %ld lock-all: CAS sum %lld, want %lld", k,
           (long long)b[1], (long long)(tri(n) * s->all_hits[r]));
    CHECK_MPI(MPI_Win_unlock(r, s->shared));
  }
  if (r == t4) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, r, 0, s->big));
    long bad = -1;
    for (long i = 0; i < s->big_len && bad < 0; ++i)
      if (s->big_base[i] != tri(n) * (i % 7 + 1) * s->big_hits[r]) bad = i;
    CHECK_MPI(MPI_Win_unlock(r, s->big));
    EXPECT(bad < 0, "iteration %ld big-acc: element %ld of %ld is %lld, want %lld", k, bad, s->big_len,
           (long long)s->big_base[bad], (long long)(tri(n) * (bad % 7 + 1) * s->big_hits[r]));
  }
}

/* The excl-lock increment counter (element 1) counts iterations, which lock_hits (a sum
 * of iteration numbers) cannot tell; kept separately. */
static int64_t* lock_count;

static void check_lock_count(State* s, long k) {
  const int t1 = (int)(k % nranks);
  lock_count[t1] += 1;
  if (rank != t1) return;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, s->lock));
  const int64_t c = s->lock_base[1];
  CHECK_MPI(MPI_Win_unlock(rank, s->lock));
  EXPECT(c == (int64_t)nranks * lock_count[t1], "iteration %ld excl-lock: %lld increments, want %lld", k,
         (long long)c, (long long)((int64_t)nranks * lock_count[t1]));
}

static void coll_phases(State* s, long k, MPI_Op matop, MPI_Datatype mattype) {
  const int n = nranks, r = rank;

  set_phase("bcast");
  int bc[kBcastLen];
  const int broot = (int)(k % n);
  for (int i = 0; i < kBcastLen; ++i) bc[i] = r == broot ? (int)(k * 7 + i * 3 + broot) : -1;
  CHECK_MPI(MPI_Bcast(bc, kBcastLen, MPI_INT, broot, MPI_COMM_WORLD));
  for (int i = 0; i < kBcastLen; ++i)
    EXPECT(bc[i] == (int)(k * 7 + i * 3 + broot), "iteration %ld bcast: [%d] = %d", k, i, bc[i]);

  set_phase("allreduce");
  int64_t ar[4], ars[4];
  for (int i = 0; i < 4; ++i) ar[i] = (int64_t)r * k + i;
  CHECK_MPI(MPI_Allreduce(ar, ars, 4, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < 4; ++i)
    EXPECT(ars[i] == k * ((int64_t)n * (n - 1) / 2) + (int64_t)n * i, "iteration %ld allreduce: [%d] = %lld", k,
           i, (long long)ars[i]);

  set_phase("scatterv");
  const int sroot = (int)((k + 1) % n);
  int counts[64], displs[64], sv[64 * kScatterMax], rv[kScatterMax];
  for (int i = 0, d = 0; i < n; ++i) {
    counts[i] = i % kScatterMax + 1;
    displs[i] = d;
    for (int j = 0; j < counts[i]; ++j) sv[d + j] = (int)(1000 * i + j + k);
    d += counts[i];
  }
  CHECK_MPI(MPI_Scatterv(sv, counts, displs, MPI_INT, rv, counts[r], MPI_INT, sroot, MPI_COMM_WORLD));
  for (int j = 0; j < counts[r]; ++j)
    EXPECT(rv[j] == (int)(1000 * r + j + k), "iteration %ld scatterv: [%d] = %d", k, j, rv[j]);

  set_phase("reduce-noncomm");
  const int rroot = (int)((k + 2) % n);
  Mat mine = mat_of(r, k), prod = {0, 0, 0, 0};
  CHECK_MPI(MPI_Reduce(&mine, &prod, 1, mattype, matop, rroot, MPI_COMM_WORLD));
  if (r == rroot) {
    Mat want = mat_of(0, k);
    for (int i = 1; i < n; ++i) want = mat_mul(want, mat_of(i, k));
    EXPECT(memcmp(&want, &prod, sizeof want) == 0, "iteration %ld reduce-noncomm: not the rank-order product", k);
  }

  set_phase("barrier");
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  (void)s;
}

static void p2p_phases(State* s, long k) {
  const int n = nranks, r = rank;
  const int right = (r + 1) % n, left = (r + n - 1) % n;

  set_phase("sendrecv");
  int out[kRingLen], in[kRingLen];
  for (int i = 0; i < kRingLen; ++i) out[i] = (int)(k * r + i);
  CHECK_MPI(MPI_Sendrecv(out, kRingLen, MPI_INT, right, (int)(k % 100), in, kRingLen, MPI_INT, left,
                         (int)(k % 100), MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int i = 0; i < kRingLen; ++i)
    EXPECT(in[i] == (int)(k * left + i), "iteration %ld sendrecv: [%d] = %d", k, i, in[i]);

  set_phase("isend-irecv");
  MPI_Request req[5];
  int64_t mx = r + k, mxr = -1;
  for (int i = 0; i < kSmallLen; ++i) s->send_small[i] = (int)(k + 3 * r + i);
  for (int i = 0; i < kBigMsgLen; ++i) s->send_big[i] = (int)(k * 5 + r + i);
  CHECK_MPI(MPI_Iallreduce(&mx, &mxr, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD, &req[0]));
  CHECK_MPI(MPI_Irecv(s->recv_small, kSmallLen, MPI_INT, right, 11, MPI_COMM_WORLD, &req[1]));
  CHECK_MPI(MPI_Irecv(s->recv_big, kBigMsgLen, MPI_INT, left, 12, MPI_COMM_WORLD, &req[2]));
  CHECK_MPI(MPI_Isend(s->send_small, kSmallLen, MPI_INT, left, 11, MPI_COMM_WORLD, &req[3]));
  CHECK_MPI(MPI_Isend(s->send_big, kBigMsgLen, MPI_INT, right, 12, MPI_COMM_WORLD, &req[4]));
  MPI_Status st[5]; /* not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's (MPI_Status*)1 */
  CHECK_MPI(MPI_Waitall(5, req, st));
  EXPECT(mxr == n - 1 + k, "iteration %ld iallreduce: max %lld", k, (long long)mxr);
  for (int i = 0; i < kSmallLen; ++i)
    EXPECT(s->recv_small[i] == (int)(k + 3 * right + i), "iteration %ld irecv small: [%d] = %d", k, i,
           s->recv_small[i]);
  for (int i = 0; i < kBigMsgLen; ++i)
    EXPECT(s->recv_big[i] == (int)(k * 5 + left + i), "iteration %ld irecv big: [%d] = %d", k, i, s->recv_big[i]);

  set_phase("ssend");
  /* Pairs (0,1), (2,3), ...: the even rank sends first, then the odd one. */
  const int partner = r % 2 == 0 ? r + 1 : r - 1;
  if (partner < n) {
    int a = (int)(k * 10 + r), b = -1;
    if (r % 2 == 0) {
      CHECK_MPI(MPI_Ssend(&a, 1, MPI_INT, partner, 21, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, partner, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
      CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, partner, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Ssend(&a, 1, MPI_INT, partner, 22, MPI_COMM_WORLD));
    }
    EXPECT(b == (int)(k * 10 + partner), "iteration %ld ssend: got %d", k, b);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  CHECK(argc >= 2, "usage: fault_workload ITERATIONS|SECONDSs [PHASE_DIR|- [ACC_KIB]]");
  CHECK(nranks <= 62, "at most 62 ranks (tickets are checked as bits of a 64-bit word)");
  const size_t lim_len = strlen(argv[1]);
  const int by_time = lim_len > 0 && argv[1][lim_len - 1] == 's';
  const double limit = atof(argv[1]);
  CHECK(limit > 0, "bad limit %s", argv[1]);
  if (argc >= 3 && strcmp(argv[2], "-") != 0) open_phase_file(argv[2]);
  const long acc_kib = argc >= 4 ? atol(argv[3]) : 4096;
  CHECK(acc_kib >= 16 && acc_kib % 16 == 0 && acc_kib <= 1 << 20, "ACC_KIB %ld: a multiple of 16", acc_kib);
  set_phase("init");
  printf("fault_workload: rank %d pid %d\n", rank, (int)getpid());
  fflush(stdout);
  set_phase("setup");

  State s;
  memset(&s, 0, sizeof s);
  const MPI_Aint fence_bytes = (MPI_Aint)((nranks + 2 + 1) / 2 * 2) * 8; /* n+1 slots, 16-byte multiple */
  CHECK_MPI(MPI_Win_allocate(fence_bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &s.fence_base, &s.fence));
  memset(s.fence_base, 0, (size_t)fence_bytes);
  s.lock_base = calloc(4, sizeof(int64_t));
  CHECK(s.lock_base != NULL, "malloc");
  CHECK_MPI(MPI_Win_create(s.lock_base, 4 * sizeof(int64_t), 8, MPI_INFO_NULL, MPI_COMM_WORLD, &s.lock));
  CHECK_MPI(MPI_Win_allocate_shared(2 * sizeof(int64_t), 8, MPI_INFO_NULL, MPI_COMM_WORLD, &s.shared_base, &s.shared));
  s.shared_base[0] = s.shared_base[1] = 0;
  s.big_len = acc_kib * 1024 / 8;
  CHECK_MPI(MPI_Win_allocate(acc_kib * 1024, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &s.big_base, &s.big));
  memset(s.big_base, 0, (size_t)acc_kib * 1024);
  s.big_origin = malloc((size_t)acc_kib * 1024);
  s.lock_hits = calloc((size_t)nranks, sizeof(int64_t));
  s.shared_hits = calloc((size_t)nranks, sizeof(int64_t));
  s.all_hits = calloc((size_t)nranks, sizeof(int64_t));
  s.big_hits = calloc((size_t)nranks, sizeof(int64_t));
  lock_count = calloc((size_t)nranks, sizeof(int64_t));
  s.send_small = malloc(kSmallLen * sizeof(int));
  s.recv_small = malloc(kSmallLen * sizeof(int));
  s.send_big = malloc(kBigMsgLen * sizeof(int));
  s.recv_big = malloc(kBigMsgLen * sizeof(int));
  CHECK(s.big_origin && s.lock_hits && s.shared_hits && s.all_hits && s.big_hits && lock_count && s.send_small &&
            s.recv_small && s.send_big && s.recv_big,
        "malloc");
  MPI_Datatype mattype;
  MPI_Op matop;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_UINT64_T, &mattype));
  CHECK_MPI(MPI_Type_commit(&mattype));
  CHECK_MPI(MPI_Op_create(mat_op, 0, &matop));
  /* Every window is initialised before anyone accesses it. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  const double t0 = now_s();
  double next_report = t0 + 30;
  long k = 0;
  for (;;) {
    set_phase("loop-bcast");
    long ctl[2] = {0, k + 1};
    if (rank == 0) {
      const double t = now_s();
      ctl[0] = by_time ? t - t0 < limit : k < (long)limit;
      if (t >= next_report && ctl[0]) {
        printf("fault_workload: iteration %ld at %.0f s, exact so far (%lld checks on rank 0)\n", k + 1, t - t0,
               nchecks);
        fflush(stdout);
        next_report += 30;
      }
    }
    CHECK_MPI(MPI_Bcast(ctl, 2, MPI_LONG, 0, MPI_COMM_WORLD));
    EXPECT(ctl[1] == k + 1, "loop control: iteration %ld, want %ld", ctl[1], k + 1);
    if (!ctl[0]) break;
    ++k;
    rma_phases(&s, k);
    check_lock_count(&s, k);
    coll_phases(&s, k, matop, mattype);
    p2p_phases(&s, k);
  }

  set_phase("finalize");
  long long total = 0;
  CHECK_MPI(MPI_Reduce(&nchecks, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Op_free(&matop));
  CHECK_MPI(MPI_Type_free(&mattype));
  CHECK_MPI(MPI_Win_free(&s.fence));
  CHECK_MPI(MPI_Win_free(&s.lock));
  CHECK_MPI(MPI_Win_free(&s.shared));
  CHECK_MPI(MPI_Win_free(&s.big));
  if (rank == 0) {
    printf("fault_workload: done: %d ranks, %ld iterations, %lld checks, all exact, %.1f s\n", nranks, k, total,
           now_s() - t0);
    fflush(stdout);
  }
  free(s.lock_base);
  free(s.big_origin);
  free(s.lock_hits);
  free(s.shared_hits);
  free(s.all_hits);
  free(s.big_hits);
  free(lock_count);
  free(s.send_small);
  free(s.recv_small);
  free(s.send_big);
  free(s.recv_big);
  MPI_Finalize();
  return 0;
}
