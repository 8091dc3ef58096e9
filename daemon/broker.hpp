// shmpid's event loop: admits runners, ranks and tools over a Unix socket, owns job
// segments, detects dead ranks and cleans up. Never on the data path: a job's ranks
// talk to it only at MPI_Init, MPI_Finalize and MPI_Abort.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core_allocator.hpp"
#include "job.hpp"
#include "shmpi_common/protocol.hpp"

namespace shmpi::daemon {

struct BrokerOptions {
  std::string socket_path;
  int idle_exit_seconds = 0;  // 0 = never exit when idle
  bool reclaim_orphans = true;  // off for test brokers that run beside the real one
};

class Broker {
 public:
  explicit Broker(BrokerOptions opts);
  ~Broker();
  Broker(const Broker&) = delete;
  Broker& operator=(const Broker&) = delete;

  // Binds the socket (the caller holds the broker lock) and reclaims segments left by
  // dead brokers. False with `why` on failure.
  bool start(std::string& why);
  // Serves until stop(), SIGINT/SIGTERM (when handle_signals) or the idle timeout.
  void run(bool handle_signals);
  // Thread- and signal-safe request to leave run().
  void stop();

  std::size_t job_count() const { return jobs_.size(); }

 private:
  enum class Role { unknown, runner, rank };
  struct Conn {
    int fd = -1;
    pid_t pid = 0;
    Role role = Role::unknown;
    std::uint64_t job_id = 0;
    std::uint32_t rank = 0;
    int malformed = 0;
  };

  void watch(int fd, std::uint32_t events);  // adds fd to the epoll set
  void accept_all();
  bool retire_listener();
  void shed_connection(int err);
  void on_readable(int fd);
  void on_close(int fd);
  void handle(Conn& c, const proto::Message& m);
  void reply(const Conn& c, const proto::Message& m);
  void refuse(const Conn& c, int code, const std::string& text);

  void create_job(Conn& c, const proto::CreateJob& m);
  void join(Conn& c, const proto::Join& m);
  void set_rank_state(Job& job, std::uint32_t rank, layout::RankState state);
  void abort_job(Job& job, const AbortInfo& info, const std::string& reason);
  void end_job(std::uint64_t job_id, const std::string& why);
  void sweep_orphans(bool at_start);
  void expire_pending_deaths();
  int ms_to_next_deadline() const;
  void close_conn(int fd);

  BrokerOptions opts_;
  CoreAllocator cores_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;
  int timer_fd_ = -1;
  int signal_fd_ = -1;
  int spare_fd_ = -1;  // kept open to shed connections when out of descriptors
  std::int64_t last_shed_log_ns_ = 0;
  std::uint64_t shed_count_ = 0;
  std::set<std::string> warned_foreign_;  // foreign files under our prefix, logged once
  std::uint64_t next_job_id_ = 1;
  std::map<int, Conn> conns_;
  std::map<std::uint64_t, std::unique_ptr<Job>> jobs_;
  std::int64_t idle_since_ns_ = 0;
  // A rank whose connection closed before MPI_Finalize. Its runner normally reports the
  // exit status (signal, code) within a millisecond; we wait briefly for that so the
  // abort names the real cause, then abort with what we know.
  struct PendingDeath {
    std::uint64_t job_id;
    std::uint32_t rank;
    pid_t pid;
    std::int64_t deadline_ns;
  };
  std::vector<PendingDeath> pending_deaths_;
};

}  // namespace shmpi::daemon
