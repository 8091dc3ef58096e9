// shmpirun: starts the broker if needed, asks it for a job, forks the ranks, forwards
// signals, and exits with the first non-zero rank status (128+N for a rank killed by
// signal N, 124 on --timeout), naming that first failed rank on stderr ("shmpirun:
// rank 3 (pid N) killed by signal 9 (Killed)"). When a rank fails the broker aborts the
// job, which ends every other rank's MPI waits at once; ranks still computing outside
// MPI are killed after a short grace period so the whole job stops within 1 s. The
// runner ends the job with the broker only after reaping every rank, and the broker
// removes the segment before it acknowledges, so nothing of the job is left in /dev/shm.
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "broker_link.hpp"
#include "options.hpp"
#include "shm_layout/segment_file.hpp"

namespace {
using namespace shmpi;

std::int64_t now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1'000'000;
}

constexpr std::int64_t kGraceMs = 500;  // after a failure, before SIGKILL of the rest

int status_code(int st) {
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
  return 1;
}

// Has the broker closed our connection (it died)?
bool broker_gone(int fd) {
  pollfd p{fd, POLLRDHUP, 0};
  return fd < 0 || (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR)) != 0);
}

// "shmpirun: rank 3 (pid 1234) killed by signal 9 (Killed)" or "... exited with status 7".
void report_failure(unsigned rank, pid_t pid, int st) {
  if (WIFSIGNALED(st)) {
    std::fprintf(stderr, "shmpirun: rank %u (pid %d) killed by signal %d (%s)\n", rank, static_cast<int>(pid),
                 WTERMSIG(st), strsignal(WTERMSIG(st)));
  } else {
    std::fprintf(stderr, "shmpirun: rank %u (pid %d) exited with status %d\n", rank, static_cast<int>(pid),
                 status_code(st));
  }
}

[[noreturn]] void exec_rank(const runner::Options& o, std::uint64_t job, unsigned rank,
                            const std::string& socket, const sigset_t& oldmask) {
  sigprocmask(SIG_SETMASK, &oldmask, nullptr);
  setenv("SHMPI_JOB_ID", std::to_string(job).c_str(), 1);
  setenv("SHMPI_RANK", std::to_string(rank).c_str(), 1);
  setenv("SHMPI_SIZE", std::to_string(o.nranks).c_str(), 1);
  setenv("SHMPI_SOCKET", socket.c_str(), 1);
  for (const auto& kv : o.env) putenv(const_cast<char*>(kv.c_str()));
  std::vector<char*> argv;
  for (const auto& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "shmpirun: cannot execute %s: %s\n", argv[0], std::strerror(errno));
  _exit(127);
}

}  // namespace

int main(int argc, char** argv) {
  runner::Options o;
  std::string why;
  if (!runner::parse_options(argc, argv, o, why)) {
    if (!why.empty()) std::fprintf(stderr, "shmpirun: %s\n", why.c_str());
    std::fputs(runner::kUsage, stderr);
    return why.empty() ? 0 : 2;
  }

  runner::BrokerLink broker;
  if (!broker.connect(why)) {
    std::fprintf(stderr, "shmpirun: %s\n", why.c_str());
    return 1;
  }
  proto::Message reply;
  if (!broker.request(proto::CreateJob{o.nranks, o.bind_to_core ? 1u : 0u}, reply, why)) {
    std::fprintf(stderr, "shmpirun: %s\n", why.c_str());
    return 1;
  }
  const proto::JobCreated& created = std::get<proto::JobCreated>(reply);
  const std::uint64_t job = created.job_id;
  const std::string segment = proto::get_name(created.segment, sizeof created.segment);

  // Signals arrive through a signalfd so the wait loop sees them in order with exits.
  sigset_t mask, oldmask;
  sigemptyset(&mask);
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&mask, s);
  sigprocmask(SIG_BLOCK, &mask, &oldmask);
  const int sfd = signalfd(-1, &mask, SFD_CLOEXEC);

  std::fflush(nullptr);
  std::map<pid_t, unsigned> ranks;
  for (unsigned r = 0; r < o.nranks; ++r) {
    const pid_t pid = fork();
    if (pid < 0) {
      std::fprintf(stderr, "shmpirun: fork: %s\n", std::strerror(errno));
      for (auto& [p, rr] : ranks) kill(p, SIGKILL);
      break;
    }
    if (pid == 0) exec_rank(o, job, r, broker.socket_path(), oldmask);
    ranks[pid] = r;
  }

  int exit_code = ranks.size() == o.nranks ? 0 : 1;
  std::int64_t kill_at = -1;  // deadline to SIGKILL the remaining ranks
  // --timeout; -1 once it has fired (it must fire once: a deadline left in the past made
  // the loop poll with timeout 0 and repeat its message until the ranks were gone).
  std::int64_t deadline = o.timeout_s > 0 ? now_ms() + static_cast<std::int64_t>(o.timeout_s * 1000) : -1;
  bool failing = exit_code != 0;
  bool killed_rest = false;  // said so once
  auto start_failing = [&](int code) {
    if (exit_code == 0) exit_code = code;
    if (!failing) {
      failing = true;
      kill_at = now_ms() + kGraceMs;
    }
  };

  while (!ranks.empty()) {
    std::int64_t wait_ms = -1;
    const std::int64_t now = now_ms();
    if (kill_at >= 0) wait_ms = std::max<std::int64_t>(0, kill_at - now);
    if (deadline >= 0) {
      const std::int64_t d = std::max<std::int64_t>(0, deadline - now);
      wait_ms = wait_ms < 0 ? d : std::min(wait_ms, d);
    }
    pollfd pfd{sfd, POLLIN, 0};
    const int pr = poll(&pfd, 1, static_cast<int>(wait_ms));
    if (pr > 0) {
      signalfd_siginfo si{};
      if (read(sfd, &si, sizeof si) == static_cast<ssize_t>(sizeof si) && si.ssi_signo != SIGCHLD) {
        const int sig = static_cast<int>(si.ssi_signo);
        // A terminal's ^C already reached every rank (same process group); forward
        // only signals sent to the runner alone.
        if (si.ssi_code != SI_KERNEL) {
          for (auto& [p, r] : ranks) kill(p, sig);
        }
        start_failing(128 + sig);
        kill_at = now_ms() + 4 * kGraceMs;
      }
      int st = 0;
      pid_t p;
      while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
        auto it = ranks.find(p);
        if (it == ranks.end()) continue;
        const unsigned r = it->second;
        ranks.erase(it);
        proto::Message ack;
        std::string ignored;
        // The first failure is the job's cause and its exit status: name the rank
        // (later ones are mostly the abort's consequence).
        if (status_code(st) != 0 && !failing) report_failure(r, p, st);
        // The broker aborts the job if this rank had not finalized.
        broker.request(proto::RankExited{job, r, st}, ack, ignored);
        if (status_code(st) != 0) start_failing(status_code(st));
      }
    }
    const std::int64_t t = now_ms();
    if (deadline >= 0 && t >= deadline && !ranks.empty()) {
      std::fprintf(stderr, "shmpirun: job timed out after %g s; killing %zu rank(s)\n", o.timeout_s, ranks.size());
      for (auto& [p, r] : ranks) kill(p, SIGTERM);
      start_failing(124);
      kill_at = t + kGraceMs;
      deadline = -1;
    }
    if (kill_at >= 0 && t >= kill_at) {
      if (!ranks.empty() && !killed_rest) {
        std::fprintf(stderr, "shmpirun: killing %zu rank(s) still running after the failure\n", ranks.size());
        killed_rest = true;
      }
      for (auto& [p, r] : ranks) kill(p, SIGKILL);
      kill_at = t + 100;
    }
  }

  proto::Message ack;
  if (!broker.request(proto::EndJob{job}, ack, why)) {
    if (broker_gone(broker.fd())) {
      // The broker died during the job. Every rank is reaped, so nobody uses the segment
      // any more: remove it here rather than leave it for the next broker's sweep (another
      // live broker of ours may have reclaimed it first). The ranks' statuses still
      // decide the exit status (a job that completed stays 0).
      const bool removed = layout::SegmentMapping::remove(segment);
      std::fprintf(stderr, "shmpirun: the broker died during job %llu (%s); %s segment %s\n",
                   static_cast<unsigned long long>(job), why.c_str(), removed ? "removed its" : "found no",
                   segment.c_str());
    } else {
      std::fprintf(stderr, "shmpirun: ending job %llu: %s\n", static_cast<unsigned long long>(job), why.c_str());
      if (exit_code == 0) exit_code = 1;
    }
  }
  return exit_code;
}
