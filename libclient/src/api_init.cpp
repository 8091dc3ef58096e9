// MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Initialized, MPI_Finalized, MPI_Abort,
// MPI_Query_thread, MPI_Is_thread_main.
#include <sys/syscall.h>
#include <unistd.h>

#include "api.hpp"
#include "attr/attr.hpp"
#include "coll/progress_hooks.hpp"
#include "comm/comm.hpp"
#include "p2p/engine.hpp"

using namespace shmpi::client;

namespace {

// The ABI's thread-level constants are not ordered by strength; rank them here.
int level_rank(int level) {
  if (level == MPI_THREAD_SINGLE) return 0;
  if (level == MPI_THREAD_FUNNELED) return 1;
  if (level == MPI_THREAD_SERIALIZED) return 2;
  if (level == MPI_THREAD_MULTIPLE) return 3;
  return -1;
}

// MPI calls from several threads must be serialized by the application: the runtime
// keeps per-process state without locks on its fast paths.
constexpr int kSupported = MPI_THREAD_SERIALIZED;

int do_init(const char* call) {
  if (g_rt.phase != Phase::before_init) {
    return raise(nullptr, MPI_ERR_OTHER,
                 std::string(call) + (g_rt.phase == Phase::finalized ? ": MPI was already finalized"
                                                                      : ": MPI is already initialized"));
  }
  std::string why;
  if (!join_job(why)) return raise(nullptr, MPI_ERR_OTHER, std::string(call) + ": " + why);
  g_world.rank = static_cast<int>(g_rt.rank);
  g_world.size = static_cast<int>(g_rt.size);
  if (!p2p::init(why)) return raise(nullptr, MPI_ERR_OTHER, std::string(call) + ": " + why);
  coll::install_progress_hooks();
  if (!comm::init_predefined(why)) return raise(nullptr, MPI_ERR_OTHER, std::string(call) + ": " + why);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Init(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  const int rc = do_init("MPI_Init");
  if (rc == MPI_SUCCESS) g_rt.thread_level = MPI_THREAD_SINGLE;
  return rc;
}
SHMPI_PMPI_ALIAS(int, MPI_Init, (int*, char***))

extern "C" int PMPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  (void)argc;
  (void)argv;
  if (provided == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Init_thread: provided is NULL");
  if (level_rank(required) < 0) {
    return raise(nullptr, MPI_ERR_ARG, "MPI_Init_thread: required = " + std::to_string(required) +
                                           " is not an MPI_THREAD_* level");
  }
  const int rc = do_init("MPI_Init_thread");
  if (rc != MPI_SUCCESS) return rc;
  g_rt.thread_level = level_rank(required) <= level_rank(kSupported) ? required : kSupported;
  *provided = g_rt.thread_level;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Init_thread, (int*, char***, int, int*))

extern "C" int PMPI_Finalize(void) {
  if (!initialized()) return not_initialized("MPI_Finalize");
  // MPI-4.1 "Allowing User Functions at Process Termination": MPI_Finalize first deletes MPI_COMM_SELF's attributes (as if it
  // freed MPI_COMM_SELF), running their delete callbacks while MPI still works.
  const int cb = attr::delete_comm_attrs(&g_self);
  if (cb != MPI_SUCCESS) return raise(&g_self, cb, "MPI_Finalize: a delete callback of an MPI_COMM_SELF attribute failed");
  std::string why;
  // Sends the user freed before completion (MPI_Request_free) still finish here: a
  // rendezvous receiver may yet copy out of this process (MPI-4.1 11.2.2).
  if (!p2p::flush_sends()) return raise(&g_world, MPI_ERR_PROC_ABORTED, "MPI_Finalize: the job aborted: " + abort_reason());
  // Every rank has finished its collectives before anyone unmaps (MPI_Finalize is
  // collective; a block stays alive while a peer still maps it anyway).
  comm::finalize_all();
  if (!leave_job(why)) return raise(&g_world, MPI_ERR_PROC_ABORTED, "MPI_Finalize: " + why);
  p2p::finalize();  // after the last barrier: nobody sends to or reads from us any more
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Finalize, (void))

extern "C" int PMPI_Initialized(int* flag) {
  if (flag == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Initialized: flag is NULL");
  *flag = g_rt.phase != Phase::before_init;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Initialized, (int*))

extern "C" int PMPI_Finalized(int* flag) {
  if (flag == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Finalized: flag is NULL");
  *flag = g_rt.phase == Phase::finalized;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Finalized, (int*))

extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode) {
  // MPI-4.1 11.3: aborts "all processes in the group of comm" as far as possible; a
  // job shares one fate on one node, so every rank of the job is stopped.
  (void)comm;
  abort_job(errorcode);
}
SHMPI_PMPI_ALIAS(int, MPI_Abort, (MPI_Comm, int))

extern "C" int PMPI_Query_thread(int* provided) {
  if (provided == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Query_thread: provided is NULL");
  *provided = g_rt.thread_level;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Query_thread, (int*))

extern "C" int PMPI_Is_thread_main(int* flag) {
  if (flag == nullptr) return raise(nullptr, MPI_ERR_ARG, "MPI_Is_thread_main: flag is NULL");
  if (g_rt.phase == Phase::before_init) return not_initialized("MPI_Is_thread_main");
  *flag = static_cast<pid_t>(syscall(SYS_gettid)) == g_rt.main_thread;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Is_thread_main, (int*))
