/* The bad-input catalogue's harness (docs/errors.md). A catalogue program lists rows
 * with an X-macro and ends with BAD_INPUT_MAIN:
 *
 *   #define ROWS(X)                                                              \
 *     X(put_rank, "MPI_Put", "target_rank", "comm size", MPI_ERR_RANK, STD,     \
 *       MPI_Put(buf, 1, MPI_INT, nranks, 0, 1, MPI_INT, win))                  \
 *     ...
 *   static void setup(void) { ... }     creates the windows, buffers, ... rows use
 *   static void teardown(void) { ... }  frees them (every rank calls both)
 *   BAD_INPUT_MAIN("area title", ROWS, setup, teardown)
 *
 * A row: a unique id, the call, the argument, the bad value, the error class expected,
 * STD or IMPL, and the expression making the call (every rank evaluates it; the rows of
 * a program run in order). STD: the standard names this class for this error (or the
 * peers agree with it); IMPL: MPI-4.1 3.8 ("MPI may not be able to detect some errors")
 * leaves detection to the implementation, and shmpi promises it.
 *
 * Every rank runs under MPI_ERRORS_RETURN (on MPI_COMM_WORLD, MPI_COMM_SELF and what
 * setup() makes; set it on windows and files you create). For each row it checks:
 *   - the call returned an error of exactly the expected class;
 *   - its string is non-empty and names the call (shmpi: "MPI_Put: ..."), not checked
 *     for peers;
 *   - nothing was written out of bounds: every buffer from guarded_alloc() sits flush
 *     against a PROT_NONE page at its end with another PROT_NONE page before its
 *     canary-filled head, so a write past its end faults at once and one before it is
 *     seen in the head; and every region registered with watch() (buffers, window
 *     memory) holds exactly the bytes it held before the row.
 *
 * Peers (tests/peer/run_bad_input_peer.sh sets BAD_INPUT_PEER=mpich|openmpi): IMPL rows
 * are not made (an undetected erroneous call is undefined behaviour); STD rows must
 * return an error, of the expected class unless the row's id is listed in
 * BAD_INPUT_CLASS_DIFFERS (comma-separated; the peer script says why for each); ids in
 * BAD_INPUT_UNCHECKED are not made (the peer does not detect that error; the script says
 * why).
 *
 * `prog --markdown` prints the program's rows as a markdown table (no MPI calls made
 * besides MPI_Init/MPI_Finalize): docs/errors.md is assembled from these, and the test
 * errors_doc checks that it is. */
#ifndef SHMPI_TEST_BAD_INPUT_H
#define SHMPI_TEST_BAD_INPUT_H
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

enum { STD = 1, IMPL = 0 };

typedef struct {
  const char* id;
  const char* call;
  const char* arg;
  const char* value;
  int cls;
  const char* cls_name;
  int kind;
} bad_row;

/* ---- guarded memory ------------------------------------------------------------ */

#define BAD_CANARY 0xC5
#define BAD_MAX_REGIONS 256

typedef struct {
  unsigned char* map;   /* whole mapping: guard page, head, buffer, guard page */
  size_t map_len;
  unsigned char* head;  /* canary bytes from the first usable byte up to the buffer */
  size_t head_len;
} bad_guarded;

typedef struct {
  const void* addr;
  size_t len;
  unsigned char* copy;
} bad_watch;

static bad_guarded bad_guards[BAD_MAX_REGIONS];
static int bad_nguards;
static bad_watch bad_watches[BAD_MAX_REGIONS];
static int bad_nwatches;

/* `bytes` of memory whose last byte is followed by a PROT_NONE page and whose head is
 * preceded by canary bytes and a PROT_NONE page; the memory itself is zero. */
static inline void* guarded_alloc(size_t bytes) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const size_t body = (bytes + page - 1) / page * page;
  const size_t len = body + 2 * page;
  CHECK(bad_nguards < BAD_MAX_REGIONS, "too many guarded buffers");
  unsigned char* map = (unsigned char*)mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(map != MAP_FAILED, "mmap of %zu bytes failed", len);
  CHECK(mprotect(map + page, body, PROT_READ | PROT_WRITE) == 0, "mprotect failed");
  unsigned char* buf = map + page + body - bytes;
  bad_guarded* g = &bad_guards[bad_nguards++];
  g->map = map;
  g->map_len = len;
  g->head = map + page;
  g->head_len = (size_t)(buf - g->head);
  memset(g->head, BAD_CANARY, g->head_len);
  return buf;
}

/* Remembers the current bytes of [addr, addr + len): every row must leave them so. */
static inline void watch(const void* addr, size_t len) {
  CHECK(bad_nwatches < BAD_MAX_REGIONS, "too many watched regions");
  bad_watch* w = &bad_watches[bad_nwatches++];
  w->addr = addr;
  w->len = len;
  w->copy = (unsigned char*)malloc(len ? len : 1);
  CHECK(w->copy != NULL, "malloc failed");
  memcpy(w->copy, addr, len);
}

/* Re-reads the watched regions (after a valid call that legitimately changed them). */
static inline void rewatch(void) {
  for (int i = 0; i < bad_nwatches; ++i) memcpy(bad_watches[i].copy, bad_watches[i].addr, bad_watches[i].len);
}

static void bad_check_memory(const char* id) {
  for (int i = 0; i < bad_nguards; ++i)
    for (size_t k = 0; k < bad_guards[i].head_len; ++k)
      CHECK(bad_guards[i].head[k] == BAD_CANARY, "row %s: guarded buffer %d: byte %zu before it overwritten", id, i,
            bad_guards[i].head_len - k);
  for (int i = 0; i < bad_nwatches; ++i)
    if (memcmp(bad_watches[i].copy, bad_watches[i].addr, bad_watches[i].len) != 0) {
      size_t k = 0;
      while (((const unsigned char*)bad_watches[i].addr)[k] == bad_watches[i].copy[k]) ++k;
      CHECK(0, "row %s: watched region %d changed at byte %zu", id, i, k);
    }
}

static void bad_release_memory(void) {
  for (int i = 0; i < bad_nguards; ++i) munmap(bad_guards[i].map, bad_guards[i].map_len);
  for (int i = 0; i < bad_nwatches; ++i) free(bad_watches[i].copy);
  bad_nguards = bad_nwatches = 0;
}

/* ---- running the rows ----------------------------------------------------------- */

static int bad_listed(const char* env, const char* id) {
  const char* list = getenv(env);
  const size_t n = strlen(id);
  while (list && *list) {
    const char* end = strchr(list, ',');
    const size_t len = end ? (size_t)(end - list) : strlen(list);
    if (len == n && strncmp(list, id, n) == 0) return 1;
    list = end ? end + 1 : NULL;
  }
  return 0;
}

/* Checks one row's return code; returns 1 if it ran. */
static int bad_check_row(const bad_row* r, int rc, int peer) {
  int cls = -1, len = 0;
  char text[MPI_MAX_ERROR_STRING];
  CHECK(rc != MPI_SUCCESS, "row %s: %s with %s = %s succeeded, expected %s", r->id, r->call, r->arg, r->value,
        r->cls_name);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  if (!(peer && bad_listed("BAD_INPUT_CLASS_DIFFERS", r->id)))
    CHECK(cls == r->cls, "row %s: %s with %s = %s: error class %d, expected %s (%d)", r->id, r->call, r->arg, r->value,
          cls, r->cls_name, r->cls);
  text[0] = '\0';
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(len > 0 && (int)strlen(text) == len, "row %s: error string length %d", r->id, len);
  if (!peer) CHECK(strstr(text, r->call) != NULL, "row %s: error string \"%s\" does not name %s", r->id, text, r->call);
  bad_check_memory(r->id);
  return 1;
}

static void bad_print_markdown(const char* title, const bad_row* rows, int n) {
  printf("## %s\n\n", title);
  printf("| id | call | argument | bad value | error class | |\n");
  printf("| --- | --- | --- | --- | --- | --- |\n");
  for (int i = 0; i < n; ++i)
    printf("| `%s` | `%s` | `%s` | %s | `%s` | %s |\n", rows[i].id, rows[i].call, rows[i].arg, rows[i].value,
           rows[i].cls_name, rows[i].kind == STD ? "standard" : "shmpi");
  printf("\n");
}

#define BAD_ROW_META(id, call, arg, value, cls, kind, expr) {#id, call, arg, value, cls, #cls, kind},
#define BAD_ROW_RUN(id, call, arg, value, cls, kind, expr) \
  if (i == k++) return (expr);

/* Runs the program's rows at every rank (or prints them with --markdown). */
#define BAD_INPUT_MAIN(title, ROWS, setup, teardown)                                                  \
  static const bad_row bad_rows[] = {ROWS(BAD_ROW_META)};                                           \
  static int bad_run_row(int i) {                                                                   \
    int k = 0;                                                                                      \
    ROWS(BAD_ROW_RUN)                                                                               \
    return MPI_SUCCESS;                                                                             \
  }                                                                                                 \
  int main(int argc, char** argv) {                                                                 \
    const int n = (int)(sizeof bad_rows / sizeof bad_rows[0]);                                      \
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0) {                                           \
      bad_print_markdown(title, bad_rows, n);                                                       \
      return 0;                                                                                     \
    }                                                                                               \
    for (int i = 0; i < n; ++i)                                                                     \
      for (int j = 0; j < i; ++j)                                                                   \
        CHECK(strcmp(bad_rows[i].id, bad_rows[j].id) != 0, "row id %s used twice", bad_rows[i].id); \
    const int peer = getenv("BAD_INPUT_PEER") != NULL;                                              \
    CHECK_MPI(MPI_Init(&argc, &argv));                                                              \
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));                          \
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));                           \
    int rank = 0, ran = 0;                                                                          \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);                                                           \
    setup();                                                                                        \
    bad_check_memory("setup");                                                                      \
    for (int i = 0; i < n; ++i) {                                                                   \
      if (peer && (bad_rows[i].kind == IMPL || bad_listed("BAD_INPUT_UNCHECKED", bad_rows[i].id)))  \
        continue;                                                                                   \
      ran += bad_check_row(&bad_rows[i], bad_run_row(i), peer);                                     \
    }                                                                                               \
    teardown();                                                                                     \
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));                                                         \
    bad_release_memory();                                                                           \
    if (rank == 0) printf("ok: %s: %d of %d rows checked\n", title, ran, n);                        \
    MPI_Finalize();                                                                                 \
    return 0;                                                                                       \
  }

#endif
