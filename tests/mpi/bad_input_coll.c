/* Bad-input catalogue: the data-moving collectives (MPI-4.1 6.3-6.8) and MPI_Barrier
 * (6.3), each in its blocking, _c, nonblocking (6.12) and persistent (6.13) form;
 * bad_input_coll.h says how one F6 line becomes those six rows.
 *
 * Classes (MPI-4.1 9.4, Table 9.1): MPI_ERR_COMM (invalid communicator), MPI_ERR_ROOT
 * (invalid root), MPI_ERR_COUNT (invalid count), MPI_ERR_TYPE (invalid datatype, also
 * an uncommitted one: 5.1.9 requires committed types in communication), MPI_ERR_BUFFER
 * (invalid buffer pointer: MPI_IN_PLACE where the call does not accept it), MPI_ERR_ARG
 * (NULL arrays and requests), MPI_ERR_INFO (invalid info). */
#include "bad_input_coll.h"

#define CW MPI_COMM_WORLD
#define CS MPI_COMM_SELF
#define CN MPI_COMM_NULL
#define DN MPI_DATATYPE_NULL
#define IP MPI_IN_PLACE

/* v-forms: count and displacement arrays take the form's suffix. */
#define SCATTERV(s, sb, sc, d, st, rb, rc, rt, root, comm) sb, sc##s, d##s, st, rb, rc, rt, root, comm
#define GATHERV(s, sb, sc, st, rb, rc, d, rt, root, comm) sb, sc, st, rb, rc##s, d##s, rt, root, comm
#define ALLGATHERV(s, sb, sc, st, rb, rc, d, rt, comm) sb, sc, st, rb, rc##s, d##s, rt, comm
#define ALLTOALLV(s, sb, sc, sd, st, rb, rc, rd, rt, comm) sb, sc##s, sd##s, st, rb, rc##s, rd##s, rt, comm

#define COMM "comm", "`MPI_COMM_NULL`", MPI_ERR_COMM, STD
#define ROOT "root", "comm size", MPI_ERR_ROOT, STD
#define NEGATIVE(arg) arg, "-1", MPI_ERR_COUNT, STD
#define NEG_ENTRY(arg) arg, "an entry -1", MPI_ERR_COUNT, STD
#define TYPE_NULL(arg) arg, "`MPI_DATATYPE_NULL`", MPI_ERR_TYPE, STD
#define UNCOMMITTED(arg) arg, "not committed", MPI_ERR_TYPE, STD
#define IN_PLACE(arg) arg, "`MPI_IN_PLACE`", MPI_ERR_BUFFER, IMPL
#define ARRAY_NULL(arg) arg, "NULL", MPI_ERR_ARG, IMPL
#define AT_ROOT(arg, what) arg, what " (at the root: on `MPI_COMM_SELF`)"

static void setup(void) { coll_setup(); }
static void teardown(void) { coll_teardown(); }

#define ROWS(X)                                                                                                        \
  XR(X, barrier_comm, "MPI_Barrier", COMM, MPI_Barrier(CN))                                                               \
  XR(X, ibarrier_comm, "MPI_Ibarrier", COMM, MPI_Ibarrier(CN, &req))                                                      \
  MPI4(XR(X, barrier_init_comm, "MPI_Barrier_init", COMM, MPI_Barrier_init(CN, MPI_INFO_NULL, &req))) \
  X(ibarrier_req, "MPI_Ibarrier", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Ibarrier(CW, NULL))                       \
  MPI4(X(barrier_init_req, "MPI_Barrier_init", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Barrier_init(CW, MPI_INFO_NULL, NULL))) \
  MPI4(X(barrier_init_info, "MPI_Barrier_init", "info", "a freed info", MPI_ERR_INFO, IMPL, MPI_Barrier_init(CW, freed_info, &req))) \
  /* MPI_Bcast */                                                                                                      \
  F6(X, bcast_comm, Bcast, Ibcast, COMM, PLAIN, rbuf, 1, MPI_INT, 0, CN)                                              \
  F6(X, bcast_root, Bcast, Ibcast, ROOT, PLAIN, rbuf, 1, MPI_INT, nranks, CW)                                         \
  F6(X, bcast_count, Bcast, Ibcast, NEGATIVE("count"), PLAIN, rbuf, -1, MPI_INT, 0, CW)                               \
  F6(X, bcast_type, Bcast, Ibcast, TYPE_NULL("datatype"), PLAIN, rbuf, 1, DN, 0, CW)                                  \
  F6(X, bcast_uncommitted, Bcast, Ibcast, UNCOMMITTED("datatype"), PLAIN, rbuf, 1, uncommitted, 0, CW)                \
  F6(X, bcast_inplace, Bcast, Ibcast, IN_PLACE("buffer"), PLAIN, IP, 1, MPI_INT, 0, CW)                               \
  F6(X, bcast_buf_null, Bcast, Ibcast, "buffer", "NULL (count 1)", MPI_ERR_BUFFER, IMPL, PLAIN, NULL, 1, MPI_INT, 0, CW) \
  FREQ(X, bcast, Bcast, Ibcast, PLAIN, rbuf, 1, MPI_INT, 0, CW)                                                       \
  FINFO(X, bcast, Bcast, PLAIN, rbuf, 1, MPI_INT, 0, CW)                                                              \
  /* MPI_Scatter */                                                                                                    \
  F6(X, scatter_comm, Scatter, Iscatter, COMM, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CN)                      \
  F6(X, scatter_root, Scatter, Iscatter, ROOT, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, nranks, CW)                 \
  F6(X, scatter_rcount, Scatter, Iscatter, NEGATIVE("recvcount"), PLAIN, sbuf, 1, MPI_INT, rbuf, -1, MPI_INT, 0, CW)  \
  F6(X, scatter_rtype, Scatter, Iscatter, TYPE_NULL("recvtype"), PLAIN, sbuf, 1, MPI_INT, rbuf, 1, DN, 0, CW)         \
  F6(X, scatter_scount, Scatter, Iscatter, AT_ROOT("sendcount", "-1"), MPI_ERR_COUNT, STD,                             \
     PLAIN, sbuf, -1, MPI_INT, rbuf, 1, MPI_INT, 0, CS)                                                               \
  F6(X, scatter_stype, Scatter, Iscatter, AT_ROOT("sendtype", "`MPI_DATATYPE_NULL`"), MPI_ERR_TYPE, STD,               \
     PLAIN, sbuf, 1, DN, rbuf, 1, MPI_INT, 0, CS)                                                                     \
  F6(X, scatter_sinplace, Scatter, Iscatter, AT_ROOT("sendbuf", "`MPI_IN_PLACE`"), MPI_ERR_BUFFER, IMPL,               \
     PLAIN, IP, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CS)                                                                  \
  FREQ(X, scatter, Scatter, Iscatter, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CW)                               \
  FINFO(X, scatter, Scatter, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CW)                                        \
  /* MPI_Scatterv */                                                                                                   \
  F6(X, scatterv_comm, Scatterv, Iscatterv, COMM, SCATTERV, sbuf, one, disp, MPI_INT, rbuf, 1, MPI_INT, 0, CN)        \
  F6(X, scatterv_root, Scatterv, Iscatterv, ROOT, SCATTERV, sbuf, one, disp, MPI_INT, rbuf, 1, MPI_INT, nranks, CW)   \
  F6(X, scatterv_rcount, Scatterv, Iscatterv, NEGATIVE("recvcount"), SCATTERV, sbuf, one, disp, MPI_INT, rbuf, -1,    \
     MPI_INT, 0, CW)                                                                                                  \
  F6(X, scatterv_rtype, Scatterv, Iscatterv, TYPE_NULL("recvtype"), SCATTERV, sbuf, one, disp, MPI_INT, rbuf, 1, DN,  \
     0, CW)                                                                                                           \
  F6(X, scatterv_scounts, Scatterv, Iscatterv, AT_ROOT("sendcounts", "an entry -1"), MPI_ERR_COUNT, STD,               \
     SCATTERV, sbuf, neg1, disp, MPI_INT, rbuf, 1, MPI_INT, 0, CS)                                                    \
  F6(X, scatterv_stype, Scatterv, Iscatterv, AT_ROOT("sendtype", "`MPI_DATATYPE_NULL`"), MPI_ERR_TYPE, STD,            \
     SCATTERV, sbuf, one, disp, DN, rbuf, 1, MPI_INT, 0, CS)                                                          \
  F6(X, scatterv_scounts_null, Scatterv, Iscatterv, AT_ROOT("sendcounts", "NULL"), MPI_ERR_ARG, IMPL,                  \
     SCATTERV, sbuf, nil, disp, MPI_INT, rbuf, 1, MPI_INT, 0, CS)                                                     \
  F6(X, scatterv_displs_null, Scatterv, Iscatterv, AT_ROOT("displs", "NULL"), MPI_ERR_ARG, IMPL,                       \
     SCATTERV, sbuf, one, nild, MPI_INT, rbuf, 1, MPI_INT, 0, CS)                                                     \
  FREQ(X, scatterv, Scatterv, Iscatterv, SCATTERV, sbuf, one, disp, MPI_INT, rbuf, 1, MPI_INT, 0, CW)                 \
  FINFO(X, scatterv, Scatterv, SCATTERV, sbuf, one, disp, MPI_INT, rbuf, 1, MPI_INT, 0, CW)                           \
  /* MPI_Gather */                                                                                                     \
  F6(X, gather_comm, Gather, Igather, COMM, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CN)                         \
  F6(X, gather_root, Gather, Igather, ROOT, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, nranks, CW)                    \
  F6(X, gather_scount, Gather, Igather, NEGATIVE("sendcount"), PLAIN, sbuf, -1, MPI_INT, rbuf, 1, MPI_INT, 0, CW)     \
  F6(X, gather_stype, Gather, Igather, TYPE_NULL("sendtype"), PLAIN, sbuf, 1, DN, rbuf, 1, MPI_INT, 0, CW)            \
  F6(X, gather_rcount, Gather, Igather, AT_ROOT("recvcount", "-1"), MPI_ERR_COUNT, STD,                                \
     PLAIN, sbuf, 1, MPI_INT, rbuf, -1, MPI_INT, 0, CS)                                                               \
  F6(X, gather_rtype, Gather, Igather, AT_ROOT("recvtype", "`MPI_DATATYPE_NULL`"), MPI_ERR_TYPE, STD,                  \
     PLAIN, sbuf, 1, MPI_INT, rbuf, 1, DN, 0, CS)                                                                     \
  F6(X, gather_rinplace, Gather, Igather, AT_ROOT("recvbuf", "`MPI_IN_PLACE`"), MPI_ERR_BUFFER, IMPL,                  \
     PLAIN, sbuf, 1, MPI_INT, IP, 1, MPI_INT, 0, CS)                                                                  \
  FREQ(X, gather, Gather, Igather, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CW)                                  \
  FINFO(X, gather, Gather, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, CW)                                          \
  /* MPI_Gatherv */                                                                                                    \
  F6(X, gatherv_comm, Gatherv, Igatherv, COMM, GATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, 0, CN)            \
  F6(X, gatherv_root, Gatherv, Igatherv, ROOT, GATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, nranks, CW)       \
  F6(X, gatherv_scount, Gatherv, Igatherv, NEGATIVE("sendcount"), GATHERV, sbuf, -1, MPI_INT, rbuf, one, disp,        \
     MPI_INT, 0, CW)                                                                                                  \
  F6(X, gatherv_stype, Gatherv, Igatherv, TYPE_NULL("sendtype"), GATHERV, sbuf, 1, DN, rbuf, one, disp, MPI_INT, 0,   \
     CW)                                                                                                              \
  F6(X, gatherv_rcounts, Gatherv, Igatherv, AT_ROOT("recvcounts", "an entry -1"), MPI_ERR_COUNT, STD,                  \
     GATHERV, sbuf, 1, MPI_INT, rbuf, neg1, disp, MPI_INT, 0, CS)                                                     \
  F6(X, gatherv_rtype, Gatherv, Igatherv, AT_ROOT("recvtype", "`MPI_DATATYPE_NULL`"), MPI_ERR_TYPE, STD,               \
     GATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, DN, 0, CS)                                                           \
  F6(X, gatherv_rcounts_null, Gatherv, Igatherv, AT_ROOT("recvcounts", "NULL"), MPI_ERR_ARG, IMPL,                     \
     GATHERV, sbuf, 1, MPI_INT, rbuf, nil, disp, MPI_INT, 0, CS)                                                      \
  F6(X, gatherv_displs_null, Gatherv, Igatherv, AT_ROOT("displs", "NULL"), MPI_ERR_ARG, IMPL,                          \
     GATHERV, sbuf, 1, MPI_INT, rbuf, one, nild, MPI_INT, 0, CS)                                                      \
  FREQ(X, gatherv, Gatherv, Igatherv, GATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, 0, CW)                     \
  FINFO(X, gatherv, Gatherv, GATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, 0, CW)                              \
  /* MPI_Allgather */                                                                                                  \
  F6(X, allgather_comm, Allgather, Iallgather, COMM, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, CN)                   \
  F6(X, allgather_scount, Allgather, Iallgather, NEGATIVE("sendcount"), PLAIN, sbuf, -1, MPI_INT, rbuf, 1, MPI_INT, CW) \
  F6(X, allgather_stype, Allgather, Iallgather, TYPE_NULL("sendtype"), PLAIN, sbuf, 1, DN, rbuf, 1, MPI_INT, CW)      \
  F6(X, allgather_rcount, Allgather, Iallgather, NEGATIVE("recvcount"), PLAIN, sbuf, 1, MPI_INT, rbuf, -1, MPI_INT, CW) \
  F6(X, allgather_rtype, Allgather, Iallgather, TYPE_NULL("recvtype"), PLAIN, sbuf, 1, MPI_INT, rbuf, 1, DN, CW)      \
  F6(X, allgather_runcommitted, Allgather, Iallgather, UNCOMMITTED("recvtype"), PLAIN, sbuf, 1, MPI_INT, rbuf, 1,     \
     uncommitted, CW)                                                                                                 \
  F6(X, allgather_rinplace, Allgather, Iallgather, IN_PLACE("recvbuf"), PLAIN, sbuf, 1, MPI_INT, IP, 1, MPI_INT, CW)  \
  F6(X, allgather_sbuf_null, Allgather, Iallgather, "sendbuf", "NULL (count 1)", MPI_ERR_BUFFER, IMPL, PLAIN, NULL, 1,  \
     MPI_INT, rbuf, 1, MPI_INT, CW)                                                                                   \
  F6(X, allgather_rbuf_null, Allgather, Iallgather, "recvbuf", "NULL (count 1)", MPI_ERR_BUFFER, IMPL, PLAIN, sbuf, 1,  \
     MPI_INT, NULL, 1, MPI_INT, CW)                                                                                   \
  FREQ(X, allgather, Allgather, Iallgather, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, CW)                            \
  FINFO(X, allgather, Allgather, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, CW)                                       \
  /* MPI_Allgatherv */                                                                                                 \
  F6(X, allgatherv_comm, Allgatherv, Iallgatherv, COMM, ALLGATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, CN)   \
  F6(X, allgatherv_scount, Allgatherv, Iallgatherv, NEGATIVE("sendcount"), ALLGATHERV, sbuf, -1, MPI_INT, rbuf, one,  \
     disp, MPI_INT, CW)                                                                                               \
  F6(X, allgatherv_stype, Allgatherv, Iallgatherv, TYPE_NULL("sendtype"), ALLGATHERV, sbuf, 1, DN, rbuf, one, disp,   \
     MPI_INT, CW)                                                                                                     \
  F6(X, allgatherv_rcounts, Allgatherv, Iallgatherv, NEG_ENTRY("recvcounts"), ALLGATHERV, sbuf, 1, MPI_INT, rbuf,     \
     neg, disp, MPI_INT, CW)                                                                                          \
  F6(X, allgatherv_rtype, Allgatherv, Iallgatherv, TYPE_NULL("recvtype"), ALLGATHERV, sbuf, 1, MPI_INT, rbuf, one,    \
     disp, DN, CW)                                                                                                    \
  F6(X, allgatherv_rcounts_null, Allgatherv, Iallgatherv, ARRAY_NULL("recvcounts"), ALLGATHERV, sbuf, 1, MPI_INT,     \
     rbuf, nil, disp, MPI_INT, CW)                                                                                    \
  F6(X, allgatherv_displs_null, Allgatherv, Iallgatherv, ARRAY_NULL("displs"), ALLGATHERV, sbuf, 1, MPI_INT, rbuf,    \
     one, nild, MPI_INT, CW)                                                                                          \
  FREQ(X, allgatherv, Allgatherv, Iallgatherv, ALLGATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, CW)            \
  FINFO(X, allgatherv, Allgatherv, ALLGATHERV, sbuf, 1, MPI_INT, rbuf, one, disp, MPI_INT, CW)                        \
  /* MPI_Alltoall */                                                                                                   \
  F6(X, alltoall_comm, Alltoall, Ialltoall, COMM, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, CN)                      \
  F6(X, alltoall_scount, Alltoall, Ialltoall, NEGATIVE("sendcount"), PLAIN, sbuf, -1, MPI_INT, rbuf, 1, MPI_INT, CW)  \
  F6(X, alltoall_stype, Alltoall, Ialltoall, TYPE_NULL("sendtype"), PLAIN, sbuf, 1, DN, rbuf, 1, MPI_INT, CW)         \
  F6(X, alltoall_rcount, Alltoall, Ialltoall, NEGATIVE("recvcount"), PLAIN, sbuf, 1, MPI_INT, rbuf, -1, MPI_INT, CW)  \
  F6(X, alltoall_rtype, Alltoall, Ialltoall, TYPE_NULL("recvtype"), PLAIN, sbuf, 1, MPI_INT, rbuf, 1, DN, CW)         \
  F6(X, alltoall_rinplace, Alltoall, Ialltoall, IN_PLACE("recvbuf"), PLAIN, sbuf, 1, MPI_INT, IP, 1, MPI_INT, CW)     \
  FREQ(X, alltoall, Alltoall, Ialltoall, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, CW)                               \
  FINFO(X, alltoall, Alltoall, PLAIN, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, CW)                                         \
  /* MPI_Alltoallv */                                                                                                  \
  F6(X, alltoallv_comm, Alltoallv, Ialltoallv, COMM, ALLTOALLV, sbuf, one, disp, MPI_INT, rbuf, one, disp, MPI_INT, CN) \
  F6(X, alltoallv_scounts, Alltoallv, Ialltoallv, NEG_ENTRY("sendcounts"), ALLTOALLV, sbuf, neg, disp, MPI_INT, rbuf, \
     one, disp, MPI_INT, CW)                                                                                          \
  F6(X, alltoallv_stype, Alltoallv, Ialltoallv, TYPE_NULL("sendtype"), ALLTOALLV, sbuf, one, disp, DN, rbuf, one,     \
     disp, MPI_INT, CW)                                                                                               \
  F6(X, alltoallv_rcounts, Alltoallv, Ialltoallv, NEG_ENTRY("recvcounts"), ALLTOALLV, sbuf, one, disp, MPI_INT, rbuf, \
     neg, disp, MPI_INT, CW)                                                                                          \
  F6(X, alltoallv_rtype, Alltoallv, Ialltoallv, TYPE_NULL("recvtype"), ALLTOALLV, sbuf, one, disp, MPI_INT, rbuf,     \
     one, disp, DN, CW)                                                                                               \
  F6(X, alltoallv_scounts_null, Alltoallv, Ialltoallv, ARRAY_NULL("sendcounts"), ALLTOALLV, sbuf, nil, disp, MPI_INT, \
     rbuf, one, disp, MPI_INT, CW)                                                                                    \
  F6(X, alltoallv_rdispls_null, Alltoallv, Ialltoallv, ARRAY_NULL("rdispls"), ALLTOALLV, sbuf, one, disp, MPI_INT,    \
     rbuf, one, nild, MPI_INT, CW)                                                                                    \
  FREQ(X, alltoallv, Alltoallv, Ialltoallv, ALLTOALLV, sbuf, one, disp, MPI_INT, rbuf, one, disp, MPI_INT, CW)        \
  FINFO(X, alltoallv, Alltoallv, ALLTOALLV, sbuf, one, disp, MPI_INT, rbuf, one, disp, MPI_INT, CW)                   \
  /* MPI_Alltoallw (byte displacements, a datatype per rank) */                                                        \
  F6(X, alltoallw_comm, Alltoallw, Ialltoallw, COMM, ALLTOALLV, sbuf, one, bdisp, ints, rbuf, one, bdisp, ints, CN)   \
  F6(X, alltoallw_scounts, Alltoallw, Ialltoallw, NEG_ENTRY("sendcounts"), ALLTOALLV, sbuf, neg, bdisp, ints, rbuf,   \
     one, bdisp, ints, CW)                                                                                            \
  F6(X, alltoallw_stypes, Alltoallw, Ialltoallw, TYPE_NULL("sendtypes entries"), ALLTOALLV, sbuf, one, bdisp,         \
     nulltypes, rbuf, one, bdisp, ints, CW)                                                                           \
  F6(X, alltoallw_rcounts, Alltoallw, Ialltoallw, NEG_ENTRY("recvcounts"), ALLTOALLV, sbuf, one, bdisp, ints, rbuf,   \
     neg, bdisp, ints, CW)                                                                                            \
  F6(X, alltoallw_rtypes, Alltoallw, Ialltoallw, TYPE_NULL("recvtypes entries"), ALLTOALLV, sbuf, one, bdisp, ints,   \
     rbuf, one, bdisp, nulltypes, CW)                                                                                 \
  F6(X, alltoallw_rtypes_null, Alltoallw, Ialltoallw, ARRAY_NULL("recvtypes"), ALLTOALLV, sbuf, one, bdisp, ints,     \
     rbuf, one, bdisp, niltypes, CW)                                                                                  \
  FREQ(X, alltoallw, Alltoallw, Ialltoallw, ALLTOALLV, sbuf, one, bdisp, ints, rbuf, one, bdisp, ints, CW)            \
  FINFO(X, alltoallw, Alltoallw, ALLTOALLV, sbuf, one, bdisp, ints, rbuf, one, bdisp, ints, CW)

BAD_INPUT_MAIN("Collectives: barrier and data movement", ROWS, setup, teardown)
