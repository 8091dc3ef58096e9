// Stackful tasks for the nonblocking and persistent collectives (docs/collectives.md,
// "Nonblocking and persistent collectives").
//
// A nonblocking collective runs the blocking collective's own code (coll/move.cpp,
// coll/reduce.cpp) on a pooled side stack: the engine's waits (engine.cpp wait_for)
// see they run in a task, record the flag and target they need and switch back to
// whoever resumed the task instead of spinning. The task is thus a state machine over
// the same in-segment flags as the blocking call, with its state kept in a stack frame
// instead of a hand-written enum, and one copy of every algorithm.
//
// Switching is Boost.Context's fcontext (a register save/restore, no syscall); workers
// (stack + context) are pooled and loop over tasks, so a warm process allocates nothing
// and makes no syscall to start, resume or finish a task. ASan and TSan are told about
// every switch.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "shm_layout/segment.hpp"

namespace shmpi::client::coll {

struct Worker;

struct Task {
  void (*fn)(void* arg) = nullptr;
  void* arg = nullptr;
  // Buffers the collective code uses instead of the communicator's scratch
  // (engine.hpp scratch()): tasks in flight on one communicator must not share them.
  std::vector<std::byte>* scratch = nullptr;
  // What the task waits for while suspended: resuming it is pointless until
  // reached(wait->value, target) or the job aborts. A task waiting for a descriptor
  // also names the word that changes first (`watch` == `watch_value`: the descriptor
  // line itself, which carries small data too), so that progress() resumes it on the
  // same cache line a blocking reader polls; `wait` stays the flag to sleep on.
  layout::Flag* wait = nullptr;
  std::uint32_t target = 0;
  const std::atomic<std::uint32_t>* watch = nullptr;
  std::uint32_t watch_value = 0;
  Worker* worker = nullptr;  // set while the task has not finished
  // Path timing (path_choice.hpp): a call on this task picked a path (timed); the time
  // the task spent returned to the program after its start at issue, up to the next
  // progress() (nbc.cpp), and when it returned there (0: it has not, or that was counted).
  bool timed = false;
  std::uint64_t away_ns = 0;
  std::uint64_t left_ns = 0;
};

// Runs t.fn(t.arg) on a pooled worker until it yields or returns. True if it returned.
bool launch(Task& t);
// Resumes a suspended task until it yields again or returns. True if it returned.
bool resume(Task& t);
// The task running now, or nullptr on the process's own stack (inline: every wait in
// the engine asks).
extern Task* g_current;
inline Task* current_task() { return g_current; }
// Called on a task: waits (suspended) until reached(f.value, target) -- or, with
// `watch`, until *watch == watch_value -- or until resumed after an abort. The caller
// re-checks.
void yield_on(layout::Flag& f, std::uint32_t target, const std::atomic<std::uint32_t>* watch = nullptr,
              std::uint32_t watch_value = 0);
// Would resuming t do anything? (its flag moved, or it never waited)
bool runnable(const Task& t);

// True while a nonblocking call that need not wait runs at issue on the caller's stack
// (nbc.cpp run_at_issue).
extern bool g_at_issue;
// The call running now is a nonblocking or persistent one (on its task, or at issue):
// it takes the flat algorithms, as every member's copy of the call must (nbc.hpp).
inline bool nonblocking_call() { return g_at_issue || current_task() != nullptr; }

}  // namespace shmpi::client::coll
