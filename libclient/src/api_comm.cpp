// MPI_Comm_rank, MPI_Comm_size, MPI_Barrier.
#include "api.hpp"
#include "barrier.hpp"

using namespace shmpi::client;


extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_rank", rc);
  if (c == nullptr) return rc;
  if (rank == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_rank: rank is NULL");
  *rank = c->rank;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_rank, (MPI_Comm, int*))

extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Comm_size", rc);
  if (c == nullptr) return rc;
  if (size == nullptr) return raise(c, MPI_ERR_ARG, "MPI_Comm_size: size is NULL");
  *size = c->size;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Comm_size, (MPI_Comm, int*))

extern "C" int PMPI_Barrier(MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  CommObj* c = initialized_comm_arg(comm, "MPI_Barrier", rc);
  if (c == nullptr) return rc;
  if (c == &g_self) return MPI_SUCCESS;
  if (!world_barrier(g_rt.seg, g_rt.rank, g_rt.barrier_algo, g_rt.core_mates)) {
    return raise(c, MPI_ERR_PROC_ABORTED, "MPI_Barrier: job aborted: " + abort_reason());
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Barrier, (MPI_Comm))
