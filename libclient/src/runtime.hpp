// Process-wide runtime state: how this process joined its job (runner + broker, or
// singleton), the mapped segment, and the calls that change the process's MPI state.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "shm_layout/segment_file.hpp"
#include "barrier.hpp"
#include "shm_layout/segment_view.hpp"

namespace shmpi::client {

enum class Phase { before_init, initialized, finalized };

struct Runtime {
  Phase phase = Phase::before_init;
  bool singleton = false;
  std::uint32_t rank = 0;
  std::uint32_t size = 1;
  std::uint64_t job_id = 0;
  int broker_fd = -1;
  int core = -1;
  int numa_node = -1;
  pid_t main_thread = 0;
  int thread_level = 0;  // the provided level, as an ordinal (see api_init.cpp)
  layout::SegmentMapping mapping;  // runner jobs
  void* private_segment = nullptr;  // singleton jobs
  layout::SegmentView seg;
  layout::BarrierAlgo barrier_algo = layout::BarrierAlgo::dissemination;
  CoreMates core_mates;  // ranks pinned to our core (found once at MPI_Init)
};
extern Runtime g_rt;

// Joins the job named by the runner's environment (SHMPI_JOB_ID, SHMPI_RANK, SHMPI_SIZE,
// SHMPI_SOCKET), or sets up a one-rank singleton job when there is none. On failure
// returns false with a message for the caller's error.
bool join_job(std::string& why);
// Collective end: barrier, tell the broker, unmap. False with `why` if the job aborted.
bool leave_job(std::string& why);
// Ends this process as MPI_Abort does: the broker aborts the whole job (every other
// rank's waits fail; the runner stops them), then this process exits with `code`.
[[noreturn]] void abort_job(int code);
// True once the broker has aborted this job (reads the abort word).
bool job_aborted_now();
// Text describing why the job aborted (from the abort word), for error messages.
std::string abort_reason();
// Exit status a rank uses when it leaves because the job aborted.
int abort_exit_code();
// After a failure a dead peer may explain (an access to its memory or its /proc/<pid>/fd
// failed with `err`): if err is ESRCH (a cross-memory copy found no process) or some
// other rank's process has exited (gone, or a zombie not yet reaped), the death is the
// broker's to report; waits (at most ~2 s: the broker knows at the latest 200 ms after
// the peer's socket closed) for the job's abort, so the error names the dead rank and
// this rank's failure never passes for the job's cause (the runner's exit status is the
// first failure it sees). True if the job has aborted (abort_reason() says why).
bool await_abort_after_peer_loss(int err);

}  // namespace shmpi::client
