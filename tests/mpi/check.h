/* Assertions for the multi-rank test programs. These programs use only standard MPI
 * (plus POSIX where noted), so the same source passes against shmpi, MPICH and Open MPI.
 * A failed check prints what was expected and aborts the job with status 3. */
#ifndef SHMPI_TEST_CHECK_H
#define SHMPI_TEST_CHECK_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                    \
  do {                                                                      \
    if (!(cond)) {                                                          \
      int check_rank_ = -1;                                                 \
      int check_init_ = 0;                                                  \
      MPI_Initialized(&check_init_);                                        \
      if (check_init_) MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);         \
      fprintf(stderr, "FAIL %s:%d rank %d: %s: ", __FILE__, __LINE__,       \
              check_rank_, #cond);                                          \
      fprintf(stderr, __VA_ARGS__);                                         \
      fprintf(stderr, "\n");                                                \
      fflush(stderr);                                                       \
      if (check_init_) MPI_Abort(MPI_COMM_WORLD, 3);                        \
      exit(3);                                                              \
    }                                                                       \
  } while (0)

#define CHECK_MPI(call)                                                     \
  do {                                                                      \
    int check_rc_ = (call);                                                 \
    CHECK(check_rc_ == MPI_SUCCESS, "%s returned %d", #call, check_rc_);    \
  } while (0)

#endif
