/* Shared by bad_input_coll.c and bad_input_reduce.c: a collective row is written once
 * and made in each of the call's six forms (MPI-4.1 6.12, 6.13):
 *
 *   F6(X, id, Bcast, Ibcast, "argument", "bad value", class, STD|IMPL, ARGS, args...)
 *
 * makes rows id, id_c, iid, iid_c, id_init, id_init_c (the MPI-4 ones only where
 * MPI_VERSION >= 4) calling MPI_Bcast(ARGS(, args)),
 * MPI_Bcast_c(ARGS(_c, args)), MPI_Ibcast(..., &req), ..., MPI_Bcast_init_c(...,
 * MPI_INFO_NULL, &req). ARGS is PLAIN or a v-form macro that appends `_c` to the names
 * of count and displacement arrays, so `one` becomes `one_c` (MPI_Count) in the _c forms.
 * FREQ and FINFO make the rows of the request and info arguments (I- and _init forms).
 *
 * A collective row passes the same bad argument at every rank: the error is then local
 * everywhere and no rank waits for one that returned early. Arguments only the root
 * reads are tested on MPI_COMM_SELF, where the one rank is the root. */
#ifndef SHMPI_TEST_BAD_INPUT_COLL_H
#define SHMPI_TEST_BAD_INPUT_COLL_H
#include "bad_input.h"
#include "bad_input_mpi4.h"

#define BAD_MAX_RANKS 64

static int nranks;
static int *sbuf, *rbuf;
static MPI_Request req;
static MPI_Info freed_info;
static MPI_Datatype uncommitted;
/* Counts and displacements, int and _c (MPI_Count / MPI_Aint) forms; not every
 * program uses every one. */
#define MAYBE_UNUSED __attribute__((unused))
MAYBE_UNUSED static int one[BAD_MAX_RANKS], disp[BAD_MAX_RANKS], neg[BAD_MAX_RANKS], bdisp[BAD_MAX_RANKS];
MAYBE_UNUSED static MPI_Count one_c[BAD_MAX_RANKS], neg_c[BAD_MAX_RANKS];
MAYBE_UNUSED static int neg1[1] = {-1};  /* MPI_COMM_SELF's */
MAYBE_UNUSED static MPI_Count neg1_c[1] = {-1};
MAYBE_UNUSED static MPI_Aint disp_c[BAD_MAX_RANKS], bdisp_c[BAD_MAX_RANKS];
MAYBE_UNUSED static const int* nil;
MAYBE_UNUSED static const MPI_Count* nil_c;
MAYBE_UNUSED static const int* nild;  /* NULL displacements */
MAYBE_UNUSED static const MPI_Aint* nild_c;
MAYBE_UNUSED static MPI_Datatype ints[BAD_MAX_RANKS], nulltypes[BAD_MAX_RANKS];
MAYBE_UNUSED static const MPI_Datatype* niltypes;

/* Guarded, watched buffers (4 ints per rank) and the arrays above. */
static void coll_setup(void) {
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  CHECK(nranks <= BAD_MAX_RANKS, "at most %d ranks", BAD_MAX_RANKS);
  const size_t bytes = (size_t)nranks * 4 * sizeof(int);
  sbuf = (int*)guarded_alloc(bytes);
  rbuf = (int*)guarded_alloc(bytes);
  for (int i = 0; i < nranks * 4; ++i) sbuf[i] = rbuf[i] = 1000 + i;
  watch(sbuf, bytes);
  watch(rbuf, bytes);
  for (int i = 0; i < nranks; ++i) {
    one[i] = 1;
    one_c[i] = 1;
    disp[i] = i;
    disp_c[i] = i;
    neg[i] = i == nranks - 1 ? -1 : 1;
    neg_c[i] = neg[i];
    bdisp[i] = i * (int)sizeof(int);
    bdisp_c[i] = bdisp[i];
    ints[i] = MPI_INT;
    nulltypes[i] = MPI_DATATYPE_NULL;
  }
  {  /* a handle that was valid once */
    MPI_Info tmp;
    CHECK_MPI(MPI_Info_create(&tmp));
    freed_info = tmp;
    CHECK_MPI(MPI_Info_free(&tmp));
  }
  CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &uncommitted));
}

static void coll_teardown(void) { CHECK_MPI(MPI_Type_free(&uncommitted)); }

#define PLAIN(s, ...) __VA_ARGS__


/* The extra level lets a row's argument, value, class and kind come from one macro
 * (COMM, ROOT, ... in the programs): arguments are expanded before F6_ splits them. */
#define XR(X, ...) X(__VA_ARGS__)
#define F6(X, id, Fn, IFn, ...) F6_(X, id, Fn, IFn, __VA_ARGS__)
#define F6_(X, id, Fn, IFn, arg, val, cls, kind, M, ...)                                             \
  X(id, "MPI_" #Fn, arg, val, cls, kind, MPI_##Fn(M(, __VA_ARGS__)))                                  \
  MPI4(X(id##_c, "MPI_" #Fn "_c", arg, val, cls, kind, MPI_##Fn##_c(M(_c, __VA_ARGS__))))              \
  X(i##id, "MPI_" #IFn, arg, val, cls, kind, MPI_##IFn(M(, __VA_ARGS__), &req))                        \
  MPI4(X(i##id##_c, "MPI_" #IFn "_c", arg, val, cls, kind, MPI_##IFn##_c(M(_c, __VA_ARGS__), &req)))   \
  MPI4(X(id##_init, "MPI_" #Fn "_init", arg, val, cls, kind, MPI_##Fn##_init(M(, __VA_ARGS__), MPI_INFO_NULL, &req))) \
  MPI4(X(id##_init_c, "MPI_" #Fn "_init_c", arg, val, cls, kind, MPI_##Fn##_init_c(M(_c, __VA_ARGS__), MPI_INFO_NULL, &req)))

/* request = NULL in the four forms that take one (MPI-4.1 does not name the class). */
#define FREQ(X, id, Fn, IFn, M, ...)                                                                   \
  X(i##id##_req, "MPI_" #IFn, "request", "NULL", MPI_ERR_ARG, IMPL, MPI_##IFn(M(, __VA_ARGS__), NULL)) \
  MPI4(X(i##id##_c_req, "MPI_" #IFn "_c", "request", "NULL", MPI_ERR_ARG, IMPL,                        \
         MPI_##IFn##_c(M(_c, __VA_ARGS__), NULL)))                                                     \
  MPI4(X(id##_init_req, "MPI_" #Fn "_init", "request", "NULL", MPI_ERR_ARG, IMPL,                      \
         MPI_##Fn##_init(M(, __VA_ARGS__), MPI_INFO_NULL, NULL)))                                      \
  MPI4(X(id##_init_c_req, "MPI_" #Fn "_init_c", "request", "NULL", MPI_ERR_ARG, IMPL,                  \
         MPI_##Fn##_init_c(M(_c, __VA_ARGS__), MPI_INFO_NULL, NULL)))

/* info = a freed info object in the persistent forms. */
#define FINFO(X, id, Fn, M, ...)                                                                       \
  MPI4(X(id##_init_info, "MPI_" #Fn "_init", "info", "a freed info", MPI_ERR_INFO, IMPL,              \
         MPI_##Fn##_init(M(, __VA_ARGS__), freed_info, &req)))                                         \
  MPI4(X(id##_init_c_info, "MPI_" #Fn "_init_c", "info", "a freed info", MPI_ERR_INFO, IMPL,          \
         MPI_##Fn##_init_c(M(_c, __VA_ARGS__), freed_info, &req)))

#endif
