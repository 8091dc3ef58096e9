#include "broker.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "shmpi_common/paths.hpp"
#include "shmpi_common/unix_socket.hpp"

namespace shmpi::daemon {
using namespace shmpi::layout;

namespace {
std::int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

bool pid_alive(pid_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

// A peer that keeps sending garbage is dropped after this many malformed messages.
constexpr int kMaxMalformed = 16;
// How long a vanished rank's job waits for the runner's exit report before aborting.
constexpr std::int64_t kDeathReportGraceNs = 200'000'000;
}  // namespace

Broker::Broker(BrokerOptions opts) : opts_(std::move(opts)) {}

Broker::~Broker() {
  for (auto& [id, job] : jobs_) {
    if (!job->aborted) abort_segment(job->mapping.view(), {AbortKind::broker, -1, 0, 1, 0});
    SegmentMapping::remove(job->segment_name);
  }
  for (auto& [fd, c] : conns_) ::close(fd);
  for (int fd : {listen_fd_, epoll_fd_, stop_fd_, timer_fd_, signal_fd_, spare_fd_}) {
    if (fd >= 0) ::close(fd);
  }
  if (listen_fd_ >= 0) ::unlink(opts_.socket_path.c_str());
}

bool Broker::start(std::string& why) {
  // We hold the broker lock, so a socket file left here belongs to a dead broker.
  // Anything else in its place (a symlink, a file) is removed, never followed.
  if (std::string bad; !paths::socket_is_ours(opts_.socket_path, bad)) spdlog::warn("{}; removing it", bad);
  ::unlink(opts_.socket_path.c_str());
  listen_fd_ = listen_unix(opts_.socket_path, why);
  if (listen_fd_ < 0) return false;
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  stop_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (epoll_fd_ < 0 || stop_fd_ < 0 || timer_fd_ < 0) {
    why = std::string("epoll/eventfd/timerfd: ") + std::strerror(errno);
    return false;
  }
  itimerspec tick{{1, 0}, {1, 0}};
  timerfd_settime(timer_fd_, 0, &tick, nullptr);
  spare_fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  for (int fd : {listen_fd_, stop_fd_, timer_fd_}) watch(fd, EPOLLIN);
  if (!cores_.note().empty()) spdlog::warn("{}", cores_.note());
  spdlog::info("shmpid {} listening on {} ({} cores)", getpid(), opts_.socket_path, cores_.core_count());
  sweep_orphans(true);
  idle_since_ns_ = now_ns();
  return true;
}

void Broker::watch(int fd, std::uint32_t events) {
  epoll_event ev{};
  ev.events = events;
  ev.data.fd = fd;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
}

void Broker::stop() {
  const std::uint64_t one = 1;
  [[maybe_unused]] ssize_t r = ::write(stop_fd_, &one, sizeof one);
}

void Broker::run(bool handle_signals) {
  if (handle_signals) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    watch(signal_fd_, EPOLLIN);
  }
  for (;;) {
    epoll_event evs[64];
    const int n = epoll_wait(epoll_fd_, evs, 64, ms_to_next_deadline());
    if (n < 0 && errno != EINTR) {
      spdlog::error("epoll_wait: {}", std::strerror(errno));
      return;
    }
    for (int i = 0; i < n; ++i) {
      const int fd = evs[i].data.fd;
      if (fd == stop_fd_) {
        spdlog::info("stop requested");
        return;
      }
      if (fd == signal_fd_) {
        signalfd_siginfo si{};
        [[maybe_unused]] ssize_t r = ::read(signal_fd_, &si, sizeof si);
        spdlog::info("signal {} received, shutting down", si.ssi_signo);
        return;
      }
      if (fd == timer_fd_) {
        std::uint64_t ticks = 0;
        [[maybe_unused]] ssize_t r = ::read(timer_fd_, &ticks, sizeof ticks);
        sweep_orphans(false);
        if (!jobs_.empty() || !conns_.empty()) {
          idle_since_ns_ = now_ns();
        } else if (opts_.idle_exit_seconds > 0 &&
                   now_ns() - idle_since_ns_ > std::int64_t{opts_.idle_exit_seconds} * 1'000'000'000) {
          if (!retire_listener()) continue;
          spdlog::info("idle for {} s, exiting", opts_.idle_exit_seconds);
          return;
        }
        continue;
      }
      if (fd == listen_fd_) {
        accept_all();
        continue;
      }
      if (evs[i].events & EPOLLIN) {
        on_readable(fd);
      } else if (evs[i].events & (EPOLLHUP | EPOLLERR)) {
        on_close(fd);
      }
    }
    expire_pending_deaths();
  }
}

int Broker::ms_to_next_deadline() const {
  if (pending_deaths_.empty()) return -1;
  std::int64_t next = pending_deaths_.front().deadline_ns;
  for (const auto& d : pending_deaths_) next = std::min(next, d.deadline_ns);
  return static_cast<int>(std::max<std::int64_t>(0, (next - now_ns()) / 1'000'000 + 1));
}

void Broker::expire_pending_deaths() {
  const std::int64_t now = now_ns();
  for (std::size_t i = 0; i < pending_deaths_.size();) {
    const PendingDeath d = pending_deaths_[i];
    if (d.deadline_ns > now) {
      ++i;
      continue;
    }
    pending_deaths_.erase(pending_deaths_.begin() + static_cast<std::ptrdiff_t>(i));
    auto jt = jobs_.find(d.job_id);
    if (jt == jobs_.end()) continue;
    abort_job(*jt->second, {AbortKind::rank_died, static_cast<std::int32_t>(d.rank), d.pid, 1, 0},
              "rank " + std::to_string(d.rank) + " (pid " + std::to_string(d.pid) +
                  ") vanished without MPI_Finalize");
  }
}

// Idle exit without stranding a client: once the path is unlinked no new connect can
// reach this socket (starters spawn a broker, which waits for our lock), and what is
// already in the backlog is accepted here. If that found a client, serve it and listen
// again under the same path (we hold the lock: nobody else can have bound it).
bool Broker::retire_listener() {
  ::unlink(opts_.socket_path.c_str());
  accept_all();
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
  ::close(listen_fd_);
  listen_fd_ = -1;
  if (conns_.empty()) return true;
  std::string why;
  listen_fd_ = listen_unix(opts_.socket_path, why);
  if (listen_fd_ < 0) {
    spdlog::error("a client arrived while leaving, but listening again failed: {}", why);
    return false;  // serve the clients we have; new ones start another broker after we exit
  }
  watch(listen_fd_, EPOLLIN);
  spdlog::info("a client arrived while leaving; staying");
  return false;
}

void Broker::accept_all() {
  for (;;) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) shed_connection(errno);
      return;
    }
    pid_t pid = 0;
    uid_t uid = 0;
    if (!peer_credentials(fd, pid, uid) || uid != getuid()) {
      spdlog::warn("refused connection from pid {} uid {}: not uid {}", pid, uid, getuid());
      ::close(fd);
      continue;
    }
    Conn c;
    c.fd = fd;
    c.pid = pid;
    conns_[fd] = c;
    idle_since_ns_ = now_ns();  // activity: the idle clock starts over
    watch(fd, EPOLLIN | EPOLLRDHUP);
  }
}

void Broker::shed_connection(int err) {
  // Out of descriptors, the pending connection stays queued and the (level-triggered)
  // listening socket stays readable: without this the loop would spin at 100% CPU. Use
  // the spare descriptor to take the connection off the queue and close it at once.
  if (spare_fd_ >= 0) {
    ::close(spare_fd_);
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) ::close(fd);
    spare_fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  }
  ++shed_count_;
  const std::int64_t now = now_ns();
  if (now - last_shed_log_ns_ >= 1'000'000'000) {
    spdlog::warn("accept: {}: closing new connections at once ({} since the last report, {} open)",
                 std::strerror(err), shed_count_, conns_.size());
    last_shed_log_ns_ = now;
    shed_count_ = 0;
  }
}

void Broker::on_readable(int fd) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  std::byte buf[proto::kMaxMessage];
  const ssize_t r = ::recv(fd, buf, sizeof buf, MSG_TRUNC | MSG_DONTWAIT);
  if (r < 0) {
    if (errno == EAGAIN || errno == EINTR) return;
    on_close(fd);
    return;
  }
  if (r == 0) {
    on_close(fd);
    return;
  }
  proto::Message m;
  std::string why;
  const bool truncated = static_cast<std::size_t>(r) > sizeof buf;
  if (!proto::decode(buf, truncated ? sizeof buf : static_cast<std::size_t>(r), truncated, m, why)) {
    Conn& c = it->second;
    spdlog::warn("malformed message from pid {}: {}", c.pid, why);
    refuse(c, proto::kErrMalformed, "malformed message: " + why);
    if (++c.malformed >= kMaxMalformed) {
      spdlog::warn("dropping pid {} after {} malformed messages", c.pid, c.malformed);
      on_close(fd);
    }
    return;
  }
  handle(it->second, m);
}

void Broker::reply(const Conn& c, const proto::Message& m) {
  // Replies are tiny and the peer waits for them; a peer that cannot take one is gone
  // and its close will show up in the loop.
  proto::send_message(c.fd, m);
}

void Broker::refuse(const Conn& c, int code, const std::string& text) {
  if (code != proto::kErrMalformed) spdlog::warn("refused a request from pid {}: {}", c.pid, text);
  reply(c, proto::make_error(code, text));
}

void Broker::handle(Conn& c, const proto::Message& m) {
  if (std::holds_alternative<proto::Ping>(m)) {
    reply(c, proto::Pong{getpid(), 0});
  } else if (auto* cj = std::get_if<proto::CreateJob>(&m)) {
    create_job(c, *cj);
  } else if (auto* j = std::get_if<proto::Join>(&m)) {
    join(c, *j);
  } else if (std::holds_alternative<proto::Finalize>(m)) {
    auto jt = jobs_.find(c.job_id);
    if (c.role != Role::rank || jt == jobs_.end()) {
      refuse(c, proto::kErrRefused, "finalize from a connection that has not joined a job");
      return;
    }
    set_rank_state(*jt->second, c.rank, RankState::finalized);
    reply(c, proto::Ack{});
  } else if (auto* a = std::get_if<proto::Abort>(&m)) {
    auto jt = jobs_.find(c.job_id);
    if (c.role != Role::rank || jt == jobs_.end()) {
      refuse(c, proto::kErrRefused, "abort from a connection that has not joined a job");
      return;
    }
    abort_job(*jt->second, {AbortKind::user_abort, static_cast<std::int32_t>(c.rank), c.pid, a->code, 0},
              "rank " + std::to_string(c.rank) + " called MPI_Abort(" + std::to_string(a->code) + ")");
    reply(c, proto::Ack{});
  } else if (auto* re = std::get_if<proto::RankExited>(&m)) {
    auto jt = jobs_.find(re->job_id);
    if (c.role != Role::runner || jt == jobs_.end() || jt->second->runner_fd != c.fd ||
        re->rank >= jt->second->nranks) {
      refuse(c, proto::kErrRefused, "rank_exited for a job or rank this runner does not own");
      return;
    }
    Job& job = *jt->second;
    RankRecord& rr = job.ranks[re->rank];
    std::erase_if(pending_deaths_, [&](const PendingDeath& d) { return d.job_id == job.id && d.rank == re->rank; });
    if (rr.state != RankState::finalized) {
      const int st = re->wait_status;
      const int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
      const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + sig;
      std::string how = sig ? std::string("killed by signal ") + std::to_string(sig) + " (" +
                                  strsignal(sig) + ")"
                            : "exited with status " + std::to_string(code);
      set_rank_state(job, re->rank, RankState::dead);
      abort_job(job, {AbortKind::rank_died, static_cast<std::int32_t>(re->rank), rr.pid, code, sig},
                "rank " + std::to_string(re->rank) + " " + how + " without MPI_Finalize");
    }
    reply(c, proto::Ack{});
  } else if (auto* e = std::get_if<proto::EndJob>(&m)) {
    auto jt = jobs_.find(e->job_id);
    if (c.role != Role::runner || jt == jobs_.end() || jt->second->runner_fd != c.fd) {
      refuse(c, proto::kErrRefused, "end_job for a job this runner does not own");
      return;
    }
    end_job(e->job_id, "runner ended the job");
    c.role = Role::unknown;
    c.job_id = 0;
    reply(c, proto::Ack{});
  } else {
    spdlog::warn("malformed message from pid {}: message type {} is a reply, not a request", c.pid, m.index() + 1);
    refuse(c, proto::kErrMalformed, "message type is a reply, not a request");
  }
}

void Broker::create_job(Conn& c, const proto::CreateJob& m) {
  if (c.role != Role::unknown) {
    refuse(c, proto::kErrRefused, "this connection already owns a job or joined one");
    return;
  }
  if (m.nranks == 0 || m.nranks > kMaxRanks) {
    refuse(c, proto::kErrRefused,
           "job size " + std::to_string(m.nranks) + " out of range 1.." + std::to_string(kMaxRanks));
    return;
  }
  auto job = std::make_unique<Job>();
  job->id = next_job_id_++;
  job->nranks = m.nranks;
  job->bind = m.bind_to_core != 0;
  job->runner_fd = c.fd;
  job->runner_pid = c.pid;
  job->ranks.resize(m.nranks);
  job->placements = cores_.assign(m.nranks, job->bind);
  // More ranks than cores: ranks must sleep while waiting, and one shared counter with a
  // single wake beats log2(n) chained rounds of wake-ups (measured, bench/barrier).
  const BarrierAlgo algo = m.nranks > cores_.core_count() ? BarrierAlgo::central : BarrierAlgo::dissemination;
  std::string why;
  if (!create_job_segment(*job, algo, why)) {
    cores_.release(job->placements);
    spdlog::error("job {}: {}", job->id, why);
    refuse(c, proto::kErrInternal, why);
    return;
  }
  c.role = Role::runner;
  c.job_id = job->id;
  proto::JobCreated r{};
  r.job_id = job->id;
  proto::set_name(r.segment, sizeof r.segment, job->segment_name);
  spdlog::info("job {}: {} ranks, runner pid {}, segment {} ({} bytes), barrier {}", job->id, m.nranks,
               c.pid, job->segment_name, job->mapping.size(),
               algo == BarrierAlgo::central ? "central" : "dissemination");
  jobs_[job->id] = std::move(job);
  reply(c, r);
}

void Broker::join(Conn& c, const proto::Join& m) {
  auto jt = jobs_.find(m.job_id);
  if (c.role != Role::unknown) {
    refuse(c, proto::kErrRefused, "this connection already joined a job");
    return;
  }
  if (jt == jobs_.end()) {
    refuse(c, proto::kErrRefused, "no job " + std::to_string(m.job_id) + " on this broker");
    return;
  }
  Job& job = *jt->second;
  if (m.rank >= job.nranks) {
    refuse(c, proto::kErrRefused,
           "rank " + std::to_string(m.rank) + " out of range for a job of " + std::to_string(job.nranks));
    return;
  }
  RankRecord& rr = job.ranks[m.rank];
  if (rr.state != RankState::empty) {
    refuse(c, proto::kErrRefused, "rank " + std::to_string(m.rank) + " of job " + std::to_string(job.id) +
                                      " already joined (pid " + std::to_string(rr.pid) + ")");
    return;
  }
  if (job.aborted) {
    refuse(c, proto::kErrRefused, "job " + std::to_string(job.id) + " is aborting");
    return;
  }
  rr.pid = c.pid;
  rr.conn_fd = c.fd;
  c.role = Role::rank;
  c.job_id = job.id;
  c.rank = m.rank;
  job.mapping.view().slot(m.rank).pid = c.pid;
  set_rank_state(job, m.rank, RankState::joined);
  proto::Joined r{};
  proto::set_name(r.segment, sizeof r.segment, job.segment_name);
  r.segment_size = job.mapping.size();
  r.core = job.placements[m.rank].core;
  r.numa_node = job.placements[m.rank].numa_node;
  r.nranks = job.nranks;
  spdlog::debug("job {}: rank {} joined (pid {}, core {})", job.id, m.rank, c.pid, r.core);
  reply(c, r);
}

void Broker::set_rank_state(Job& job, std::uint32_t rank, RankState state) {
  // The broker's record decides; the slot mirrors it for shmpi-dump.
  job.ranks[rank].state = state;
  job.mapping.view().slot(rank).state.store(static_cast<std::uint32_t>(state), std::memory_order_release);
}

void Broker::abort_job(Job& job, const AbortInfo& info, const std::string& reason) {
  if (!job.aborted) spdlog::warn("job {}: aborting: {}", job.id, reason);
  job.aborted = true;
  abort_segment(job.mapping.view(), info);
}

void Broker::on_close(int fd) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  idle_since_ns_ = now_ns();
  const Conn c = it->second;
  close_conn(fd);
  auto jt = jobs_.find(c.job_id);
  if (jt == jobs_.end()) return;
  Job& job = *jt->second;
  if (c.role == Role::rank) {
    RankRecord& rr = job.ranks[c.rank];
    rr.conn_fd = -1;
    if (rr.state != RankState::finalized && rr.state != RankState::dead) {
      set_rank_state(job, c.rank, RankState::dead);
      pending_deaths_.push_back({job.id, c.rank, c.pid, now_ns() + kDeathReportGraceNs});
    }
  } else if (c.role == Role::runner) {
    end_job(job.id, "runner (pid " + std::to_string(c.pid) + ") disconnected");
  }
}

void Broker::end_job(std::uint64_t job_id, const std::string& why) {
  auto jt = jobs_.find(job_id);
  if (jt == jobs_.end()) return;
  Job& job = *jt->second;
  bool unfinished = false;
  for (const auto& r : job.ranks) unfinished |= r.state != RankState::finalized;
  if (unfinished && !job.aborted) abort_job(job, {AbortKind::runner, -1, 0, 1, 0}, why);
  for (auto& r : job.ranks) {
    if (r.conn_fd >= 0) {
      auto ct = conns_.find(r.conn_fd);
      if (ct != conns_.end()) {
        ct->second.role = Role::unknown;
        ct->second.job_id = 0;
      }
    }
  }
  std::erase_if(pending_deaths_, [&](const PendingDeath& d) { return d.job_id == job_id; });
  cores_.release(job.placements);
  SegmentMapping::remove(job.segment_name);
  spdlog::info("job {}: ended ({}), segment removed", job_id, why);
  jobs_.erase(jt);
}

void Broker::close_conn(int fd) {
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  ::close(fd);
  conns_.erase(fd);
}

void Broker::sweep_orphans(bool at_start) {
  if (!opts_.reclaim_orphans) return;
  // Segments of this user that no live job of ours owns were left by a broker that
  // died. Remove each once nobody can still be using it: its broker and every rank
  // recorded in it are gone. Unreadable ones are removed only at start-up, when no
  // broker of ours can be creating them.
  std::vector<std::string> foreign;
  const std::vector<std::string> names = SegmentMapping::list(paths::segment_prefix(), &foreign);
  // Someone else put a file under our prefix: never open, reclaim or count it. Each is
  // logged once while it exists (the set holds only what is there now).
  std::set<std::string> present(foreign.begin(), foreign.end());
  for (const std::string& name : present) {
    if (!warned_foreign_.contains(name)) {
      spdlog::warn("ignoring /dev/shm/{}: not a regular file owned by uid {}", name, ::geteuid());
    }
  }
  warned_foreign_ = std::move(present);
  for (const std::string& name : names) {
    std::uint64_t id = 0;
    if (!paths::parse_segment_name(name, id)) continue;
    bool ours = false;
    for (const auto& [jid, job] : jobs_) ours |= job->segment_name == name;
    if (ours) continue;
    std::string why;
    SegmentMapping m = SegmentMapping::open(name, false, false, why);
    if (!m.valid()) {
      // Young unreadable segments may be a broker of another runtime directory creating
      // one right now; leave them.
      struct stat st{};
      const bool old = ::stat(("/dev/shm/" + name).c_str(), &st) == 0 && ::time(nullptr) - st.st_mtime > 10;
      if (at_start && old) {
        spdlog::warn("removing unreadable segment {}: {}", name, why);
        SegmentMapping::remove(name);
      }
      continue;
    }
    const SegmentView v = m.view();
    bool in_use = pid_alive(v.header().broker_pid) && v.header().broker_pid != getpid();
    for (std::uint32_t r = 0; r < v.nranks() && !in_use; ++r) {
      const auto st = static_cast<RankState>(v.slot(r).state.load(std::memory_order_acquire));
      in_use = (st == RankState::joined || st == RankState::running) && pid_alive(v.slot(r).pid);
    }
    if (at_start && id >= next_job_id_) next_job_id_ = id + 1;
    if (!in_use) {
      spdlog::info("reclaiming segment {} of a dead broker", name);
      SegmentMapping::remove(name);
    }
  }
}

}  // namespace shmpi::daemon
