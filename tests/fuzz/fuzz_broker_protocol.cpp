// Fuzz target: the broker's socket protocol (common/shmpi_common/protocol.*,
// daemon/broker.*).
//
// 1. The decoder on the raw input: never reads past the datagram, and whatever it
//    accepts re-encodes to a datagram of the same length that decodes to the same
//    message.
// 2. A real Broker (the shmpid event loop, in a thread of this process, on a private
//    socket, orphan reclaiming off so it never touches other brokers' segments) and up
//    to four client connections. The input is a program of sends: well-formed requests
//    with fuzzed fields (job ids from earlier replies, ranks, sizes, wait statuses),
//    headers with one field corrupted, raw garbage, oversized and empty datagrams,
//    closes. Properties: every non-empty datagram gets exactly one well-formed reply of
//    a type allowed for the request (or, after too much garbage, a close); the broker
//    keeps answering; when all connections are gone every segment it created for them
//    is removed from /dev/shm (no job outlives its runner's connection).
#include <poll.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "broker.hpp"
#include "fuzz_input.hpp"
#include "shmpi_common/protocol.hpp"

namespace {
using namespace shmpi;
using shmpi::fuzz::Input;

constexpr int kReplyTimeoutMs = 10000;  // generous: the machine may be loaded

std::string g_socket;

// This target's broker creates thousands of short-lived job segments. Where the process
// may (root, or user namespaces), it gets a private /dev/shm before any thread exists
// (unshare(CLONE_NEWNS) refuses a multithreaded caller), so other shmpi jobs and their
// "segments left in /dev/shm" checks never see them, nor what a killed run leaves.
bool g_private_shm = [] {
  if (::unshare(CLONE_NEWNS) != 0) return false;
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return ::mount("shmpi-fuzz", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=1g,mode=1777") == 0;
}();

void start_broker_once() {
  static bool done = false;
  if (done) return;
  done = true;
  spdlog::set_level(spdlog::level::off);
  if (!g_private_shm) {
    std::fprintf(stderr, "fuzz_broker_protocol: no private /dev/shm (%s): job segments are visible to other jobs\n",
                 std::strerror(errno));
  }
  char dir[] = "/tmp/shmpi-fuzz-broker-XXXXXX";
  FUZZ_CHECK(mkdtemp(dir) != nullptr);
  g_socket = std::string(dir) + "/broker.sock";
  daemon::BrokerOptions o;
  o.socket_path = g_socket;
  o.reclaim_orphans = false;  // other brokers' segments are none of its business
  auto* b = new daemon::Broker(o);  // lives as long as the process
  std::string why;
  FUZZ_CHECK_MSG(b->start(why), why.c_str());
  std::thread([b] { b->run(false); }).detach();
}

int connect_broker() {
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  FUZZ_CHECK(fd >= 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, g_socket.c_str(), sizeof a.sun_path - 1);
  FUZZ_CHECK_MSG(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0, "cannot connect to the broker");
  return fd;
}

// --- part 1: the decoder alone --------------------------------------------------------

void fuzz_decoder(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const bool truncated = (data[0] & 0x80) != 0 && size > 1;
  std::vector<std::byte> copy(size - 1);  // exact size: ASan catches any over-read
  if (!copy.empty()) std::memcpy(copy.data(), data + 1, size - 1);
  proto::Message m;
  std::string why;
  if (!proto::decode(copy.data(), copy.size(), truncated, m, why)) {
    FUZZ_CHECK_MSG(!why.empty(), "decode refused a datagram without saying why");
    return;
  }
  FUZZ_CHECK(!truncated);
  std::array<std::byte, proto::kMaxMessage> buf{};
  const std::size_t n = proto::encode(m, buf.data());
  FUZZ_CHECK_MSG(n == copy.size(), "re-encoded message has another length");
  // Identical except the header's reserved word, which decode ignores.
  FUZZ_CHECK_MSG(std::memcmp(buf.data(), copy.data(), 12) == 0 &&
                     std::memcmp(buf.data() + 16, copy.data() + 16, n - 16) == 0,
                 "re-encoded message differs");
  proto::Message m2;
  FUZZ_CHECK(proto::decode(buf.data(), n, false, m2, why));
  FUZZ_CHECK(m2.index() == m.index());
}

// --- part 2: a live broker --------------------------------------------------------------

struct Client {
  int fd = -1;
};

struct Session {
  std::array<Client, 4> clients;
  std::vector<std::uint64_t> job_ids;
  std::vector<std::string> segments;  // every segment the broker created for us
  std::vector<std::string> trace;     // what was sent, for the report of a hang
};

std::uint64_t pick_job(Input& in, const Session& s) {
  const std::uint8_t b = in.u8();
  if (b < 200 && !s.job_ids.empty()) return s.job_ids[b % s.job_ids.size()];
  static constexpr std::uint64_t edges[] = {0, 1, 2, ~std::uint64_t{0}, 1ULL << 32, 12345};
  return edges[b % 6];
}

std::uint32_t pick_nranks(Input& in) {
  const std::uint8_t b = in.u8();
  if (b < 240) return 1 + b % 4;
  static constexpr std::uint32_t edges[] = {0, 4096, 4097, 0xffffffffu, 64, 9, 2, 3};
  return edges[b % 8];
}

proto::Message make_request(Input& in, const Session& s, proto::Type& type) {
  const int t = 1 + in.u8() % 12;
  type = static_cast<proto::Type>(t);
  switch (type) {
    case proto::Type::ping: return proto::Ping{};
    case proto::Type::pong: return proto::Pong{static_cast<std::int32_t>(in.u32()), 0};
    case proto::Type::create_job: return proto::CreateJob{pick_nranks(in), in.u8() & 1u};
    case proto::Type::job_created: {
      proto::JobCreated j{};
      j.job_id = pick_job(in, s);
      in.bytes(j.segment, 8);
      return j;
    }
    case proto::Type::join: return proto::Join{pick_job(in, s), static_cast<std::uint32_t>(in.range(0, 5)), in.u32()};
    case proto::Type::joined: return proto::Joined{};
    case proto::Type::finalize: return proto::Finalize{};
    case proto::Type::abort: return proto::Abort{static_cast<std::int32_t>(in.u32()), 0};
    case proto::Type::rank_exited: {
      // Wait statuses: exits, signals, and arbitrary words.
      static constexpr std::int32_t st[] = {0, 1 << 8, 9, 11, 0x7f, 0xffff, -1, 0x137f};
      const std::uint8_t b = in.u8();
      const std::int32_t status = b < 128 ? st[b % 8] : static_cast<std::int32_t>(in.u32());
      return proto::RankExited{pick_job(in, s), static_cast<std::uint32_t>(in.range(0, 5)), status};
    }
    case proto::Type::end_job: return proto::EndJob{pick_job(in, s)};
    case proto::Type::ack: return proto::Ack{};
    default: return proto::make_error(static_cast<std::int32_t>(in.u8()), "x");
  }
}

bool reply_allowed(proto::Type req, const proto::Message& r) {
  if (const auto* e = std::get_if<proto::Error>(&r)) {
    return req != proto::Type::ping && e->code >= proto::kErrMalformed && e->code <= proto::kErrInternal;
  }
  switch (req) {
    case proto::Type::ping: return std::holds_alternative<proto::Pong>(r);
    case proto::Type::create_job: return std::holds_alternative<proto::JobCreated>(r);
    case proto::Type::join: return std::holds_alternative<proto::Joined>(r);
    case proto::Type::finalize:
    case proto::Type::abort:
    case proto::Type::rank_exited:
    case proto::Type::end_job: return std::holds_alternative<proto::Ack>(r);
    default: return false;  // replies sent as requests, and garbage, are refused
  }
}

// Sends one datagram and waits for its reply. False if the broker closed the connection.
// `req` is the request type when the datagram is well-formed, else 0 (any refusal).
bool exchange(Session& s, Client& c, const void* dgram, std::size_t n, proto::Type req) {
  {
    std::string t = "fd " + std::to_string(c.fd) + " type " + std::to_string(static_cast<int>(req)) + " bytes";
    for (std::size_t i = 0; i < n && i < 40; ++i) t += " " + std::to_string(static_cast<const unsigned char*>(dgram)[i]);
    s.trace.push_back(t);
  }
  ssize_t w;
  do w = ::send(c.fd, dgram, n, MSG_NOSIGNAL); while (w < 0 && errno == EINTR);
  if (w < 0) {
    FUZZ_CHECK_MSG(errno == EPIPE || errno == ECONNRESET, "send to the broker failed");
    return false;
  }
  if (n == 0) {
    // An empty SEQPACKET datagram reads as end-of-file: the broker drops the connection.
    return false;
  }
  // libFuzzer's -timeout watchdog is a periodic SIGALRM: an interrupted poll waits on.
  pollfd p{c.fd, POLLIN, 0};
  int pr;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReplyTimeoutMs);
  do {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
    pr = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
  } while (pr < 0 && errno == EINTR);
  if (pr != 1) {
    for (const std::string& t : s.trace) std::fprintf(stderr, "  sent: %s\n", t.c_str());
    std::fprintf(stderr, "  no reply to the last one on fd %d\n", c.fd);
  }
  FUZZ_CHECK_MSG(pr == 1, "no reply from the broker (hang?)");
  proto::Message r;
  std::string why;
  if (!proto::recv_message(c.fd, r, why)) {
    // Only a close is acceptable: the broker never sends a malformed reply.
    FUZZ_CHECK_MSG(why == "broker closed the connection" || why.rfind("recv:", 0) == 0, why.c_str());
    return false;
  }
  if (req == proto::Type{0}) {
    FUZZ_CHECK_MSG(std::holds_alternative<proto::Error>(r), "garbage was answered with something other than Error");
  } else {
    FUZZ_CHECK_MSG(reply_allowed(req, r), "reply type not allowed for this request");
  }
  if (const auto* jc = std::get_if<proto::JobCreated>(&r)) {
    const std::string seg = proto::get_name(jc->segment, sizeof jc->segment);
    FUZZ_CHECK(!seg.empty());
    s.job_ids.push_back(jc->job_id);
    s.segments.push_back(seg);
  }
  return true;
}

void close_client(Client& c) {
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
}

void run_session(Input& in) {
  Session s;
  for (int step = 0; step < 40 && !in.empty(); ++step) {
    const std::uint8_t b = in.u8();
    Client& c = s.clients[b & 3];
    const int kind = (b >> 2) % 6;
    if (kind == 5) {
      close_client(c);
      continue;
    }
    if (c.fd < 0) c.fd = connect_broker();
    std::array<std::byte, 1024> dg{};
    std::size_t n = 0;
    proto::Type req{0};
    if (kind <= 1) {  // a well-formed request
      n = proto::encode(make_request(in, s, req), dg.data());
    } else if (kind == 2) {  // well-formed, then one header byte overwritten
      n = proto::encode(make_request(in, s, req), dg.data());
      dg[in.u8() % 12] = static_cast<std::byte>(in.u8());  // magic, version, type, payload_size
      // A no-op or a change into another valid request is judged as that request.
      proto::Message m;
      std::string why;
      req = proto::decode(dg.data(), n, false, m, why) ? static_cast<proto::Type>(m.index() + 1) : proto::Type{0};
    } else if (kind == 3) {  // raw bytes, sometimes beyond the 512-byte limit
      n = static_cast<std::size_t>(in.range(1, 64));
      if (in.u8() >= 250) n = 513 + in.u8();
      in.bytes(dg.data(), n);
    } else {  // truncated valid request, or an empty datagram
      n = proto::encode(make_request(in, s, req), dg.data());
      n = n == 0 ? 0 : static_cast<std::size_t>(in.range(0, static_cast<std::int64_t>(n) - 1));
      req = proto::Type{0};
    }
    if (!exchange(s, c, dg.data(), n, req)) close_client(c);
  }
  for (Client& c : s.clients) close_client(c);
  // Every job's runner connection is gone: the broker must have removed its segment.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReplyTimeoutMs);
  for (const std::string& seg : s.segments) {
    const std::string path = "/dev/shm/" + seg;
    while (::access(path.c_str(), F_OK) == 0) {
      FUZZ_CHECK_MSG(std::chrono::steady_clock::now() < deadline, "a job outlived its runner's connection");
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  // And it still answers.
  Client probe;
  probe.fd = connect_broker();
  std::array<std::byte, proto::kMaxMessage> dg{};
  const std::size_t n = proto::encode(proto::Ping{}, dg.data());
  FUZZ_CHECK_MSG(exchange(s, probe, dg.data(), n, proto::Type::ping), "the broker stopped answering");
  close_client(probe);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  start_broker_once();
  // The input's first bytes also go to the decoder as one datagram (first byte: flags).
  fuzz_decoder(data, std::min<std::size_t>(size, 64 + proto::kMaxMessage));
  Input in(data, size);
  run_session(in);
  return 0;
}
