// What runs while a rank waits. The point-to-point engine installs its poll and sleep
// (p2p/engine.cpp); these wrap them so that the tasks of nonblocking collectives
// (nbc.hpp) move too, in flag waits of blocking calls (WaitContext::engine_poll) and in
// MPI_Wait & co. (request.hpp g_polled_sleep): a peer's blocking call may need our
// in-flight collective (MPI-4.1 6.12: progress in any MPI call).
#pragma once

namespace shmpi::client::coll {

// Call after p2p::init.
void install_progress_hooks();

}  // namespace shmpi::client::coll
