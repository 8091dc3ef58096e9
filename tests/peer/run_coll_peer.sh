#!/usr/bin/env bash
# Builds the collective test programs (tests/mpi/coll_*.c) with Debian's MPICH or Open MPI
# and runs each at 1, 2, 3, 4 and 8 ranks with the same assertions as the shmpi suite,
# except the per-peer toggles below: each skips or widens exactly one check that the peer
# gets wrong (the programs' headers say why). A run passes when it exits 0 and rank 0
# printed "<program>: OK (N checks)".
# Usage: run_coll_peer.sh mpich|openmpi TESTS_MPI_DIR
peer=$1 src=$2
source "$(dirname "$0")/peer_lib.sh"
progs=(coll_basic coll_reduce coll_determinism coll_comms coll_errors coll_numa coll_mixed_sizes coll_run_ahead coll_uniform_v)
for p in "${progs[@]}"; do peer_build "$p" -lm; done
# Only this script's toggles, none inherited from the caller's environment.
for v in $(compgen -e | grep '^COLL_'); do unset "$v"; done
if [ "$peer" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  # Open MPI 4.1.4 deviations, each toggle skipping or widening only what it names:
  # coll/self scales MPI_Alltoallw's byte displacements by the extent on 1 rank;
  # MAX/MIN compare MPI_UNSIGNED_LONG as signed; op/avx saturates 8-bit sums;
  # negative Allgatherv recvcounts and truncating Bcasts go unchecked (crash, hang or
  # overflow); Allreduce/Alltoall with recvbuf = MPI_IN_PLACE skip the error handler;
  # different counts in a reduction go unchecked.
  export COLL_BASIC_ALLTOALLW_SELF_DISPLS_SCALED=1
  export COLL_REDUCE_ULONG_MAXMIN_SIGNED=1 COLL_REDUCE_UCHAR_SUM_SATURATES=1
  export COLL_ERRORS_ALLGATHERV_COUNTS_UNCHECKED=1 COLL_ERRORS_TRUNCATE_UNCHECKED=1 COLL_ERRORS_INPLACE_NO_HANDLER=1
  export COLL_ERRORS_REDUCTION_MISMATCH_UNCHECKED=1
else
  # MPICH 4.0.2 deviations: Allgatherv ignores displs[0] on 1 rank; MAX/MIN compare every
  # unsigned type as signed; Reduce_scatter_block with a non-commutative op on a
  # power-of-two communicator overruns its temporary buffers for a type whose extent
  # exceeds its true extent; a large in-place Reduce_scatter trips its own memcpy-overlap
  # check at 3 ranks; negative counts in the reductions go unchecked (crash); a
  # truncating Bcast reports MPI_ERR_OTHER on some ranks and hangs at 8 ranks when large;
  # different counts in a reduction go unchecked.
  export COLL_BASIC_ALLGATHERV_SELF_DISPLS_IGNORED=1
  export COLL_REDUCE_UNSIGNED_MAXMIN_SIGNED=1 COLL_REDUCE_RSB_RESIZED_OVERFLOW=1 COLL_REDUCE_RS_INPLACE_LARGE_OVERLAP=1
  export COLL_ERRORS_REDUCTION_COUNT_UNCHECKED=1 COLL_ERRORS_TRUNCATE_AS_OTHER=1 COLL_ERRORS_TRUNCATE_LARGE_HANGS=1
  export COLL_ERRORS_REDUCTION_MISMATCH_UNCHECKED=1
  # MPI_Reduce with MPI_IN_PLACE at a root other than 0 segfaults from 1000 ints on.
  export COLL_NUMA_REDUCE_INPLACE_ROOT_CRASHES=1
fi
peer_run_all collective "1 2 3 4 8" "${progs[@]}"
