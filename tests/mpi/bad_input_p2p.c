/* Bad-input catalogue: point-to-point (docs/errors.md). Every send, receive and probe
 * form, the persistent initializers, matched probes/receives, the attached buffer, and
 * the _c variants (MPI-4; not in Open MPI 4.1, so built only where MPI_VERSION >= 4).
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1 "Error classes"): MPI_ERR_COMM
 * (invalid communicator), MPI_ERR_COUNT (invalid count), MPI_ERR_TYPE (invalid datatype;
 * an uncommitted type is invalid for communication, 5.1.9), MPI_ERR_RANK (a destination
 * or source that is not a rank of the communicator, nor MPI_PROC_NULL / MPI_ANY_SOURCE
 * for receives, 3.2.3), MPI_ERR_TAG (tags are 0..MPI_TAG_UB; MPI_ANY_TAG only for
 * receives, 3.2.3), MPI_ERR_BUFFER (invalid buffer pointer: NULL, i.e. MPI_BOTTOM, with
 * a datatype whose data do not lie at absolute addresses; a buffered send without room,
 * 3.6.1). Freed handles and most NULL output pointers: shmpi's own promise (3.8 leaves
 * detection open; MPICH and Open MPI answer a NULL request with different classes);
 * NULL pointers both peers answer with MPI_ERR_ARG too are STD. shmpi also refuses a
 * count whose bytes overflow MPI_Count (MPI_ERR_COUNT) and an MPI_Sendrecv_replace whose
 * copy of the message no memory can hold (MPI_ERR_NO_MEM), with an 8 GiB datatype. */
#include <limits.h>

#include "bad_input.h"

static int *sbuf, *rbuf, nranks, other, flag, bsize;
static MPI_Datatype untype, deadtype, hugetype;
static MPI_Comm deadcomm;
static MPI_Request req;
static MPI_Message msg;
static MPI_Status st;
static void* bptr;

static void setup(void) {
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  other = (rank + 1) % nranks;
  sbuf = (int*)guarded_alloc(16 * sizeof(int));
  rbuf = (int*)guarded_alloc(16 * sizeof(int));
  for (int i = 0; i < 16; ++i) sbuf[i] = i;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &untype)); /* never committed */
  CHECK_MPI(MPI_Type_contiguous(1 << 30, MPI_DOUBLE, &hugetype)); /* 8 GiB: INT_MAX of them overflow MPI_Count */
  CHECK_MPI(MPI_Type_commit(&hugetype));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &deadtype));
  MPI_Datatype t = deadtype;
  CHECK_MPI(MPI_Type_free(&t)); /* deadtype keeps the freed handle */
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &deadcomm));
  MPI_Comm c = deadcomm;
  CHECK_MPI(MPI_Comm_free(&c));
  req = MPI_REQUEST_NULL;
  msg = MPI_MESSAGE_NULL;
  watch(sbuf, 16 * sizeof(int));
  watch(rbuf, 16 * sizeof(int));
  watch(&req, sizeof req);
  watch(&msg, sizeof msg);
  watch(&flag, sizeof flag);
  watch(&st, sizeof st);
}

static void teardown(void) {
  CHECK_MPI(MPI_Type_free(&untype));
  CHECK_MPI(MPI_Type_free(&hugetype));
}

/* A blocking send F(buf, count, type, dest, tag, comm). */
#define SEND_ROWS(X, P, F)                                                                                        \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, F(sbuf, 1, MPI_INT, other, 0, MPI_COMM_NULL))     \
  X(P##_comm_freed, #F, "comm", "freed communicator", MPI_ERR_COMM, IMPL, F(sbuf, 1, MPI_INT, other, 0, deadcomm)) \
  X(P##_count, #F, "count", "-1", MPI_ERR_COUNT, STD, F(sbuf, -1, MPI_INT, other, 0, MPI_COMM_WORLD))           \
  X(P##_count_overflow, #F, "count", "INT_MAX of an 8 GiB type (2^64 bytes)", MPI_ERR_COUNT, IMPL,               \
    F(sbuf, INT_MAX, hugetype, other, 0, MPI_COMM_WORLD))                                                          \
  X(P##_buf, #F, "buf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, STD, F(NULL, 1, MPI_INT, other, 0, MPI_COMM_WORLD)) \
  X(P##_type, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                                            \
    F(sbuf, 1, MPI_DATATYPE_NULL, other, 0, MPI_COMM_WORLD))                                                       \
  X(P##_type_freed, #F, "datatype", "freed datatype", MPI_ERR_TYPE, IMPL, F(sbuf, 1, deadtype, other, 0, MPI_COMM_WORLD)) \
  X(P##_uncommitted, #F, "datatype", "uncommitted", MPI_ERR_TYPE, STD, F(sbuf, 1, untype, other, 0, MPI_COMM_WORLD)) \
  X(P##_dest, #F, "dest", "comm size", MPI_ERR_RANK, STD, F(sbuf, 1, MPI_INT, nranks, 0, MPI_COMM_WORLD))         \
  X(P##_dest_neg, #F, "dest", "-5", MPI_ERR_RANK, STD, F(sbuf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD))              \
  X(P##_dest_any, #F, "dest", "MPI_ANY_SOURCE", MPI_ERR_RANK, STD, F(sbuf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD)) \
  X(P##_tag, #F, "tag", "-5", MPI_ERR_TAG, STD, F(sbuf, 1, MPI_INT, other, -5, MPI_COMM_WORLD))                  \
  X(P##_tag_any, #F, "tag", "MPI_ANY_TAG", MPI_ERR_TAG, STD, F(sbuf, 1, MPI_INT, other, MPI_ANY_TAG, MPI_COMM_WORLD))

/* A nonblocking send or persistent initializer F(buf, count, type, dest, tag, comm, request). */
#define ISEND_ROWS(X, P, F)                                                                                             \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, F(sbuf, 1, MPI_INT, other, 0, MPI_COMM_NULL, &req))     \
  X(P##_comm_freed, #F, "comm", "freed communicator", MPI_ERR_COMM, IMPL, F(sbuf, 1, MPI_INT, other, 0, deadcomm, &req)) \
  X(P##_count, #F, "count", "-1", MPI_ERR_COUNT, STD, F(sbuf, -1, MPI_INT, other, 0, MPI_COMM_WORLD, &req))           \
  X(P##_count_overflow, #F, "count", "INT_MAX of an 8 GiB type (2^64 bytes)", MPI_ERR_COUNT, IMPL,                     \
    F(sbuf, INT_MAX, hugetype, other, 0, MPI_COMM_WORLD, &req))                                                          \
  X(P##_buf, #F, "buf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, STD,                                            \
    F(NULL, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &req))                                                                 \
  X(P##_type, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                                                  \
    F(sbuf, 1, MPI_DATATYPE_NULL, other, 0, MPI_COMM_WORLD, &req))                                                       \
  X(P##_type_freed, #F, "datatype", "freed datatype", MPI_ERR_TYPE, IMPL,                                               \
    F(sbuf, 1, deadtype, other, 0, MPI_COMM_WORLD, &req))                                                                \
  X(P##_uncommitted, #F, "datatype", "uncommitted", MPI_ERR_TYPE, STD, F(sbuf, 1, untype, other, 0, MPI_COMM_WORLD, &req)) \
  X(P##_dest, #F, "dest", "comm size", MPI_ERR_RANK, STD, F(sbuf, 1, MPI_INT, nranks, 0, MPI_COMM_WORLD, &req))         \
  X(P##_dest_neg, #F, "dest", "-5", MPI_ERR_RANK, STD, F(sbuf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &req))              \
  X(P##_dest_any, #F, "dest", "MPI_ANY_SOURCE", MPI_ERR_RANK, STD,                                                     \
    F(sbuf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req))                                                        \
  X(P##_tag, #F, "tag", "-5", MPI_ERR_TAG, STD, F(sbuf, 1, MPI_INT, other, -5, MPI_COMM_WORLD, &req))                  \
  X(P##_tag_any, #F, "tag", "MPI_ANY_TAG", MPI_ERR_TAG, STD, F(sbuf, 1, MPI_INT, other, MPI_ANY_TAG, MPI_COMM_WORLD, &req)) \
  X(P##_request, #F, "request", "NULL", MPI_ERR_ARG, IMPL, F(sbuf, 1, MPI_INT, other, 0, MPI_COMM_WORLD, NULL))

/* Receive-side checks of F(buf, count, type, source, tag, comm, LAST) (LAST: status or request). */
#define RECV_ROWS(X, P, F, LAST)                                                                                      \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, F(rbuf, 1, MPI_INT, other, 0, MPI_COMM_NULL, LAST))     \
  X(P##_comm_freed, #F, "comm", "freed communicator", MPI_ERR_COMM, IMPL, F(rbuf, 1, MPI_INT, other, 0, deadcomm, LAST)) \
  X(P##_count, #F, "count", "-1", MPI_ERR_COUNT, STD, F(rbuf, -1, MPI_INT, other, 0, MPI_COMM_WORLD, LAST))           \
  X(P##_count_overflow, #F, "count", "INT_MAX of an 8 GiB type (2^64 bytes)", MPI_ERR_COUNT, IMPL,                     \
    F(rbuf, INT_MAX, hugetype, other, 0, MPI_COMM_WORLD, LAST))                                                          \
  X(P##_buf, #F, "buf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, STD,                                            \
    F(NULL, 1, MPI_INT, other, 0, MPI_COMM_WORLD, LAST))                                                                 \
  X(P##_type, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                                                  \
    F(rbuf, 1, MPI_DATATYPE_NULL, other, 0, MPI_COMM_WORLD, LAST))                                                       \
  X(P##_type_freed, #F, "datatype", "freed datatype", MPI_ERR_TYPE, IMPL,                                               \
    F(rbuf, 1, deadtype, other, 0, MPI_COMM_WORLD, LAST))                                                                \
  X(P##_uncommitted, #F, "datatype", "uncommitted", MPI_ERR_TYPE, STD, F(rbuf, 1, untype, other, 0, MPI_COMM_WORLD, LAST)) \
  X(P##_source, #F, "source", "comm size", MPI_ERR_RANK, STD, F(rbuf, 1, MPI_INT, nranks, 0, MPI_COMM_WORLD, LAST))     \
  X(P##_source_neg, #F, "source", "-5", MPI_ERR_RANK, STD, F(rbuf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, LAST))          \
  X(P##_tag, #F, "tag", "-5", MPI_ERR_TAG, STD, F(rbuf, 1, MPI_INT, other, -5, MPI_COMM_WORLD, LAST))

/* F(source, tag, comm, ...REST): the probes. */
#define PROBE_ROWS(X, P, F, ...)                                                                                 \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, F(other, 0, MPI_COMM_NULL, __VA_ARGS__))           \
  X(P##_comm_freed, #F, "comm", "freed communicator", MPI_ERR_COMM, IMPL, F(other, 0, deadcomm, __VA_ARGS__))    \
  X(P##_source, #F, "source", "comm size", MPI_ERR_RANK, STD, F(nranks, 0, MPI_COMM_WORLD, __VA_ARGS__))         \
  X(P##_source_neg, #F, "source", "-5", MPI_ERR_RANK, STD, F(-5, 0, MPI_COMM_WORLD, __VA_ARGS__))               \
  X(P##_tag, #F, "tag", "-5", MPI_ERR_TAG, STD, F(other, -5, MPI_COMM_WORLD, __VA_ARGS__))

/* F(buf, count, type, message, LAST): matched receives; *message is MPI_MESSAGE_NULL here,
 * so the buffer checks must come first to be seen (as they do in shmpi). */
#define MRECV_ROWS(X, P, F, LAST)                                                                            \
  X(P##_count, #F, "count", "-1", MPI_ERR_COUNT, IMPL, F(rbuf, -1, MPI_INT, &msg, LAST))                     \
  X(P##_type, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, IMPL, F(rbuf, 1, MPI_DATATYPE_NULL, &msg, LAST)) \
  X(P##_uncommitted, #F, "datatype", "uncommitted", MPI_ERR_TYPE, IMPL, F(rbuf, 1, untype, &msg, LAST))       \
  X(P##_buf, #F, "buf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, IMPL, F(NULL, 1, MPI_INT, &msg, LAST))   \
  X(P##_message, #F, "message", "NULL", MPI_ERR_ARG, IMPL, F(rbuf, 1, MPI_INT, NULL, LAST))                    \
  X(P##_message_null, #F, "*message", "MPI_MESSAGE_NULL", MPI_ERR_REQUEST, STD, F(rbuf, 1, MPI_INT, &msg, LAST))

/* F(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status) */
#define SR(F, sc, stype, dest, stag, rc, rtype, src, rtag, comm) \
  F(sbuf, sc, stype, dest, stag, rbuf, rc, rtype, src, rtag, comm, &st)
#define SENDRECV_ROWS(X, P, F)                                                                                          \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, SR(F, 1, MPI_INT, other, 0, 1, MPI_INT, other, 0, MPI_COMM_NULL)) \
  X(P##_sendcount, #F, "sendcount", "-1", MPI_ERR_COUNT, STD,                                                          \
    SR(F, -1, MPI_INT, other, 0, 1, MPI_INT, other, 0, MPI_COMM_WORLD))                                                 \
  X(P##_sendtype, #F, "sendtype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                                              \
    SR(F, 1, MPI_DATATYPE_NULL, other, 0, 1, MPI_INT, other, 0, MPI_COMM_WORLD))                                        \
  X(P##_sendtype_uncommitted, #F, "sendtype", "uncommitted", MPI_ERR_TYPE, STD,                                        \
    SR(F, 1, untype, other, 0, 1, MPI_INT, other, 0, MPI_COMM_WORLD))                                                   \
  X(P##_dest, #F, "dest", "comm size", MPI_ERR_RANK, STD, SR(F, 1, MPI_INT, nranks, 0, 1, MPI_INT, other, 0, MPI_COMM_WORLD)) \
  X(P##_sendtag, #F, "sendtag", "-5", MPI_ERR_TAG, STD, SR(F, 1, MPI_INT, other, -5, 1, MPI_INT, other, 0, MPI_COMM_WORLD)) \
  X(P##_recvcount, #F, "recvcount", "-1", MPI_ERR_COUNT, STD,                                                          \
    SR(F, 1, MPI_INT, other, 0, -1, MPI_INT, other, 0, MPI_COMM_WORLD))                                                 \
  X(P##_recvtype, #F, "recvtype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                                              \
    SR(F, 1, MPI_INT, other, 0, 1, MPI_DATATYPE_NULL, other, 0, MPI_COMM_WORLD))                                        \
  X(P##_recvtype_uncommitted, #F, "recvtype", "uncommitted", MPI_ERR_TYPE, STD,                                        \
    SR(F, 1, MPI_INT, other, 0, 1, untype, other, 0, MPI_COMM_WORLD))                                                   \
  X(P##_source, #F, "source", "comm size", MPI_ERR_RANK, STD,                                                          \
    SR(F, 1, MPI_INT, other, 0, 1, MPI_INT, nranks, 0, MPI_COMM_WORLD))                                                 \
  X(P##_recvtag, #F, "recvtag", "-5", MPI_ERR_TAG, STD, SR(F, 1, MPI_INT, other, 0, 1, MPI_INT, other, -5, MPI_COMM_WORLD))  \
  X(P##_sendbuf, #F, "sendbuf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, STD,                                     \
    F(NULL, 1, MPI_INT, other, 0, rbuf, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &st))                                    \
  X(P##_recvbuf, #F, "recvbuf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, STD,                                     \
    F(sbuf, 1, MPI_INT, other, 0, NULL, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &st))

/* F(buf, count, type, dest, sendtag, source, recvtag, comm, status) */
#define SRR(F, c, t, dest, stag, src, rtag, comm) F(rbuf, c, t, dest, stag, src, rtag, comm, &st)
#define SENDRECV_REPLACE_ROWS(X, P, F)                                                                                  \
  X(P##_comm, #F, "comm", "MPI_COMM_NULL", MPI_ERR_COMM, STD, SRR(F, 1, MPI_INT, other, 0, other, 0, MPI_COMM_NULL))   \
  X(P##_count, #F, "count", "-1", MPI_ERR_COUNT, STD, SRR(F, -1, MPI_INT, other, 0, other, 0, MPI_COMM_WORLD))         \
  X(P##_count_nomem, #F, "count", "2^28 of an 8 GiB type (2^61 bytes to copy)", MPI_ERR_NO_MEM, IMPL,                  \
    SRR(F, 1 << 28, hugetype, other, 0, other, 0, MPI_COMM_WORLD))                                                      \
  X(P##_type, #F, "datatype", "MPI_DATATYPE_NULL", MPI_ERR_TYPE, STD,                                                  \
    SRR(F, 1, MPI_DATATYPE_NULL, other, 0, other, 0, MPI_COMM_WORLD))                                                   \
  X(P##_uncommitted, #F, "datatype", "uncommitted", MPI_ERR_TYPE, STD, SRR(F, 1, untype, other, 0, other, 0, MPI_COMM_WORLD)) \
  X(P##_dest, #F, "dest", "comm size", MPI_ERR_RANK, STD, SRR(F, 1, MPI_INT, nranks, 0, other, 0, MPI_COMM_WORLD))     \
  X(P##_source, #F, "source", "comm size", MPI_ERR_RANK, STD, SRR(F, 1, MPI_INT, other, 0, nranks, 0, MPI_COMM_WORLD)) \
  X(P##_sendtag, #F, "sendtag", "-5", MPI_ERR_TAG, STD, SRR(F, 1, MPI_INT, other, -5, other, 0, MPI_COMM_WORLD))       \
  X(P##_recvtag, #F, "recvtag", "-5", MPI_ERR_TAG, STD, SRR(F, 1, MPI_INT, other, 0, other, -5, MPI_COMM_WORLD))  \
  X(P##_buf, #F, "buf", "NULL (count 1 of MPI_INT)", MPI_ERR_BUFFER, STD,                                             \
    F(NULL, 1, MPI_INT, other, 0, other, 0, MPI_COMM_WORLD, &st))

/* The buffered sends with nothing attached: no room for the message. */
#define NOBUF_ROWS(X)                                                                                           \
  X(bsend_nobuf, "MPI_Bsend", "buf", "no buffer attached", MPI_ERR_BUFFER, STD,                                 \
    MPI_Bsend(sbuf, 4, MPI_INT, other, 0, MPI_COMM_WORLD))                                                      \
  X(ibsend_nobuf, "MPI_Ibsend", "buf", "no buffer attached", MPI_ERR_BUFFER, STD,                              \
    MPI_Ibsend(sbuf, 4, MPI_INT, other, 0, MPI_COMM_WORLD, &req))

#define BUFFER_ROWS(X)                                                                                             \
  X(buffer_attach_null, "MPI_Buffer_attach", "buffer", "NULL", MPI_ERR_BUFFER, IMPL, MPI_Buffer_attach(NULL, 1024)) \
  X(buffer_attach_size, "MPI_Buffer_attach", "size", "-1", MPI_ERR_COUNT, IMPL, MPI_Buffer_attach(rbuf, -1))      \
  X(buffer_detach_none, "MPI_Buffer_detach", "(state)", "no buffer attached", MPI_ERR_BUFFER, IMPL,              \
    MPI_Buffer_detach(&bptr, &bsize))                                                                              \
  X(buffer_detach_addr, "MPI_Buffer_detach", "buffer_addr", "NULL", MPI_ERR_ARG, STD, MPI_Buffer_detach(NULL, &bsize)) \
  X(buffer_detach_size, "MPI_Buffer_detach", "size", "NULL", MPI_ERR_ARG, STD, MPI_Buffer_detach(&bptr, NULL))

#if MPI_VERSION >= 4
static MPI_Count bsize_c;
#define ROWS_C(X)                                                                                                  \
  SEND_ROWS(X, send_c, MPI_Send_c)                                                                                 \
  SEND_ROWS(X, ssend_c, MPI_Ssend_c)                                                                               \
  SEND_ROWS(X, rsend_c, MPI_Rsend_c)                                                                               \
  SEND_ROWS(X, bsend_c, MPI_Bsend_c)                                                                               \
  ISEND_ROWS(X, isend_c, MPI_Isend_c)                                                                              \
  ISEND_ROWS(X, issend_c, MPI_Issend_c)                                                                            \
  ISEND_ROWS(X, irsend_c, MPI_Irsend_c)                                                                            \
  ISEND_ROWS(X, ibsend_c, MPI_Ibsend_c)                                                                            \
  ISEND_ROWS(X, send_init_c, MPI_Send_init_c)                                                                      \
  ISEND_ROWS(X, ssend_init_c, MPI_Ssend_init_c)                                                                    \
  ISEND_ROWS(X, rsend_init_c, MPI_Rsend_init_c)                                                                    \
  ISEND_ROWS(X, bsend_init_c, MPI_Bsend_init_c)                                                                    \
  RECV_ROWS(X, recv_c, MPI_Recv_c, &st)                                                                            \
  RECV_ROWS(X, irecv_c, MPI_Irecv_c, &req)                                                                         \
  X(irecv_c_request, "MPI_Irecv_c", "request", "NULL", MPI_ERR_ARG, IMPL,                                          \
    MPI_Irecv_c(rbuf, 1, MPI_INT, other, 0, MPI_COMM_WORLD, NULL))                                                 \
  RECV_ROWS(X, recv_init_c, MPI_Recv_init_c, &req)                                                                 \
  X(recv_init_c_request, "MPI_Recv_init_c", "request", "NULL", MPI_ERR_ARG, IMPL,                                  \
    MPI_Recv_init_c(rbuf, 1, MPI_INT, other, 0, MPI_COMM_WORLD, NULL))                                             \
  SENDRECV_ROWS(X, sendrecv_c, MPI_Sendrecv_c)                                                                     \
  SENDRECV_REPLACE_ROWS(X, sendrecv_replace_c, MPI_Sendrecv_replace_c)                                             \
  MRECV_ROWS(X, mrecv_c, MPI_Mrecv_c, &st)                                                                         \
  MRECV_ROWS(X, imrecv_c, MPI_Imrecv_c, &req)                                                                      \
  X(imrecv_c_request, "MPI_Imrecv_c", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Imrecv_c(rbuf, 1, MPI_INT, &msg, NULL)) \
  X(buffer_attach_c_null, "MPI_Buffer_attach_c", "buffer", "NULL", MPI_ERR_BUFFER, IMPL, MPI_Buffer_attach_c(NULL, 1024)) \
  X(buffer_attach_c_size, "MPI_Buffer_attach_c", "size", "-1", MPI_ERR_COUNT, IMPL, MPI_Buffer_attach_c(rbuf, -1))  \
  X(buffer_detach_c_none, "MPI_Buffer_detach_c", "(state)", "no buffer attached", MPI_ERR_BUFFER, IMPL,           \
    MPI_Buffer_detach_c(&bptr, &bsize_c))                                                                           \
  X(buffer_detach_c_addr, "MPI_Buffer_detach_c", "buffer_addr", "NULL", MPI_ERR_ARG, STD,                         \
    MPI_Buffer_detach_c(NULL, &bsize_c))                                                                            \
  X(buffer_detach_c_size, "MPI_Buffer_detach_c", "size", "NULL", MPI_ERR_ARG, STD, MPI_Buffer_detach_c(&bptr, NULL))
#else
#define ROWS_C(X)
#endif

#define ROWS(X)                                                                                                    \
  SEND_ROWS(X, send, MPI_Send)                                                                                     \
  SEND_ROWS(X, ssend, MPI_Ssend)                                                                                   \
  SEND_ROWS(X, rsend, MPI_Rsend)                                                                                   \
  SEND_ROWS(X, bsend, MPI_Bsend)                                                                                   \
  ISEND_ROWS(X, isend, MPI_Isend)                                                                                  \
  ISEND_ROWS(X, issend, MPI_Issend)                                                                                \
  ISEND_ROWS(X, irsend, MPI_Irsend)                                                                                \
  ISEND_ROWS(X, ibsend, MPI_Ibsend)                                                                                \
  ISEND_ROWS(X, send_init, MPI_Send_init)                                                                          \
  ISEND_ROWS(X, ssend_init, MPI_Ssend_init)                                                                        \
  ISEND_ROWS(X, rsend_init, MPI_Rsend_init)                                                                        \
  ISEND_ROWS(X, bsend_init, MPI_Bsend_init)                                                                        \
  RECV_ROWS(X, recv, MPI_Recv, &st)                                                                                \
  RECV_ROWS(X, irecv, MPI_Irecv, &req)                                                                             \
  X(irecv_request, "MPI_Irecv", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Irecv(rbuf, 1, MPI_INT, other, 0, MPI_COMM_WORLD, NULL)) \
  RECV_ROWS(X, recv_init, MPI_Recv_init, &req)                                                                     \
  X(recv_init_request, "MPI_Recv_init", "request", "NULL", MPI_ERR_ARG, IMPL,                                      \
    MPI_Recv_init(rbuf, 1, MPI_INT, other, 0, MPI_COMM_WORLD, NULL))                                               \
  SENDRECV_ROWS(X, sendrecv, MPI_Sendrecv)                                                                         \
  SENDRECV_REPLACE_ROWS(X, sendrecv_replace, MPI_Sendrecv_replace)                                                 \
  PROBE_ROWS(X, probe, MPI_Probe, &st)                                                                             \
  PROBE_ROWS(X, iprobe, MPI_Iprobe, &flag, &st)                                                                    \
  X(iprobe_flag, "MPI_Iprobe", "flag", "NULL", MPI_ERR_ARG, IMPL, MPI_Iprobe(other, 0, MPI_COMM_WORLD, NULL, &st)) \
  PROBE_ROWS(X, mprobe, MPI_Mprobe, &msg, &st)                                                                     \
  X(mprobe_message, "MPI_Mprobe", "message", "NULL", MPI_ERR_ARG, IMPL, MPI_Mprobe(other, 0, MPI_COMM_WORLD, NULL, &st)) \
  PROBE_ROWS(X, improbe, MPI_Improbe, &flag, &msg, &st)                                                            \
  X(improbe_flag, "MPI_Improbe", "flag", "NULL", MPI_ERR_ARG, IMPL, MPI_Improbe(other, 0, MPI_COMM_WORLD, NULL, &msg, &st)) \
  X(improbe_message, "MPI_Improbe", "message", "NULL", MPI_ERR_ARG, IMPL,                                          \
    MPI_Improbe(other, 0, MPI_COMM_WORLD, &flag, NULL, &st))                                                       \
  MRECV_ROWS(X, mrecv, MPI_Mrecv, &st)                                                                             \
  MRECV_ROWS(X, imrecv, MPI_Imrecv, &req)                                                                          \
  X(imrecv_request, "MPI_Imrecv", "request", "NULL", MPI_ERR_ARG, IMPL, MPI_Imrecv(rbuf, 1, MPI_INT, &msg, NULL))   \
  NOBUF_ROWS(X)                                                                                                    \
  BUFFER_ROWS(X)                                                                                                   \
  ROWS_C(X)

BAD_INPUT_MAIN("Point-to-point communication", ROWS, setup, teardown)
