/* MPI4(rows): rows of MPI-4 calls (the _c forms, persistent collectives), made only where
 * the library is MPI-4 (Open MPI 4.1 is MPI-3.1); against shmpi, and so in
 * docs/errors.md, always. */
#ifndef SHMPI_TEST_BAD_INPUT_MPI4_H
#define SHMPI_TEST_BAD_INPUT_MPI4_H
#include <mpi.h>
#if MPI_VERSION >= 4
#define MPI4(...) __VA_ARGS__
#else
#define MPI4(...)
#endif
#endif
