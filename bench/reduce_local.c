/* reduce_local: MPI_Reduce_local throughput for one (op, type, size). Standard MPI only,
 * so the same source builds against shmpi, Open MPI and MPICH.
 *
 *   reduce_local ITERATIONS WARMUP REPETITIONS OP TYPE BYTES
 *     OP: sum|max   TYPE: double|float|int32|int64   BYTES: buffer size
 *
 * Buffers are touched before timing (first-touch page faults are not the kernel's cost);
 * the input changes between iterations. Prints, per call, microseconds:
 *   RESULT bench=reduce_local_<op>_<type>_<bytes> ranks=1 min_us=<x> median_us=<y> iters=<i>
 */
#include "bench_util.h"

#include <mpi.h>
#include <stdint.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int ok = argc == 7;
  const long iters = parse_arg(argc, argv, 1, 100, 1, 100000000L, &ok);
  const long warmup = parse_arg(argc, argv, 2, 10, 0, 100000000L, &ok);
  const int reps = (int)parse_arg(argc, argv, 3, 5, 1, MAX_REPS, &ok);
  const long bytes = parse_arg(argc, argv, 6, 4096, 64, 1L << 30, &ok);
  MPI_Op op = MPI_OP_NULL;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int size = 0;
  if (ok) {
    if (strcmp(argv[4], "sum") == 0) op = MPI_SUM;
    if (strcmp(argv[4], "max") == 0) op = MPI_MAX;
    if (strcmp(argv[5], "double") == 0) type = MPI_DOUBLE, size = 8;
    if (strcmp(argv[5], "float") == 0) type = MPI_FLOAT, size = 4;
    if (strcmp(argv[5], "int32") == 0) type = MPI_INT32_T, size = 4;
    if (strcmp(argv[5], "int64") == 0) type = MPI_INT64_T, size = 8;
  }
  if (!ok || op == MPI_OP_NULL || type == MPI_DATATYPE_NULL) {
    fprintf(stderr, "usage: reduce_local ITERATIONS WARMUP REPETITIONS sum|max double|float|int32|int64 BYTES\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int count = (int)(bytes / size);
  unsigned char* in = malloc((size_t)bytes);
  unsigned char* inout = malloc((size_t)bytes);
  if (in == NULL || inout == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  /* Small values in every type: sums stay finite/exact enough for any run length. */
  for (long i = 0; i < bytes; ++i) in[i] = (unsigned char)(i % 7), inout[i] = (unsigned char)(i % 5);
  for (long i = 0; i < warmup; ++i) MPI_Reduce_local(in, inout, count, type, op);
  double us[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) {
      in[(size_t)(i % bytes)] ^= 1; /* the data changes between calls */
      MPI_Reduce_local(in, inout, count, type, op);
    }
    us[r] = 1e6 * (MPI_Wtime() - t0) / (double)iters;
  }
  char name[96];
  snprintf(name, sizeof name, "reduce_local_%s_%s_%ld", argv[4], argv[5], bytes);
  print_result(name, 1, us, reps, iters);
  free(in);
  free(inout);
  MPI_Finalize();
  return 0;
}
