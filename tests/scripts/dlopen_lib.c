/* dlopen_lib LIBRARY: opens LIBRARY (this build's libshmpi) with dlopen, as mpi4py opens its
 * MPI, and runs 1000 MPI_Reduce calls with a non-commutative user op on a derived datatype
 * over a duplicated communicator: the three per-thread handle caches of the library
 * (types::lookup_other, borrow_op, comm::lookup), read through its initial-exec TLS
 * (libclient/meson.build), in a copy loaded after the program started. Rank 0 checks every
 * result against the rank-order composition; exit status 0 if all were right. Not linked
 * against libshmpi (only its mpi.h), so not a peer test: it loads this build's library. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

/* (a1, b1) o (a2, b2) = (a1*a2, a1*b2 + b1): affine maps x -> a*x + b, composed in order. */
static void compose(void* in, void* inout, int* len, MPI_Datatype* dt) {
  (void)dt;
  const double* a = in;
  double* b = inout;
  for (int i = 0; i < *len; ++i) {
    const double a1 = a[2 * i], b1 = a[2 * i + 1];
    b[2 * i + 1] = a1 * b[2 * i + 1] + b1;
    b[2 * i] = a1 * b[2 * i];
  }
}

#define SYM(n)                                                  \
  __typeof__(&n) p_##n = (__typeof__(&n))dlsym(lib, #n);        \
  if (p_##n == NULL) {                                          \
    fprintf(stderr, "dlopen_lib: %s not found\n", #n);          \
    return 1;                                                   \
  }

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dlopen_lib LIBRARY\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (lib == NULL) {
    fprintf(stderr, "dlopen_lib: dlopen: %s\n", dlerror());
    return 1;
  }
  SYM(MPI_Init) SYM(MPI_Finalize) SYM(MPI_Comm_rank) SYM(MPI_Comm_size) SYM(MPI_Comm_dup) SYM(MPI_Comm_free)
  SYM(MPI_Type_contiguous) SYM(MPI_Type_commit) SYM(MPI_Type_free) SYM(MPI_Op_create) SYM(MPI_Op_free)
  SYM(MPI_Reduce)
  p_MPI_Init(&argc, &argv);
  int me, n;
  p_MPI_Comm_rank(MPI_COMM_WORLD, &me);
  p_MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm comm;
  p_MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Datatype pair;
  p_MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  p_MPI_Type_commit(&pair);
  MPI_Op op;
  p_MPI_Op_create(compose, 0, &op);
  int wrong = 0;
  for (int it = 0; it < 1000; ++it) {
    /* Rank r's map: a = 2 on rank it % n (1 elsewhere), b = r + it: exact in doubles. */
    const double x[2] = {me == it % n ? 2.0 : 1.0, (double)(me + it)};
    double r[2] = {-1.0, -1.0};
    if (p_MPI_Reduce(x, r, 1, pair, op, 0, comm) != MPI_SUCCESS) ++wrong;
    if (me != 0) continue;
    double a = n - 1 == it % n ? 2.0 : 1.0, b = (double)(n - 1 + it); /* x(n-1) */
    for (int k = n - 2; k >= 0; --k) {                                 /* x(k) o acc */
      const double ak = k == it % n ? 2.0 : 1.0;
      b = ak * b + (double)(k + it);
      a = ak * a;
    }
    if (r[0] != a || r[1] != b) {
      if (wrong++ < 5) fprintf(stderr, "dlopen_lib: call %d: (%g, %g), expected (%g, %g)\n", it, r[0], r[1], a, b);
    }
  }
  p_MPI_Op_free(&op);
  p_MPI_Type_free(&pair);
  p_MPI_Comm_free(&comm);
  if (me == 0) printf("dlopen_lib: %d ranks, 1000 reductions, %d wrong\n", n, wrong);
  p_MPI_Finalize();
  return wrong != 0;
}
