// The broker's socket protocol: the codec on its own, then a live broker (on a thread,
// private socket) fed well-formed, malformed, truncated and oversized messages.
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "broker.hpp"
#include "shm_layout/segment_file.hpp"
#include "shmpi_common/protocol.hpp"
#include "shmpi_common/unix_socket.hpp"

using namespace shmpi;

namespace {

proto::Message roundtrip(const proto::Message& m) {
  std::byte buf[proto::kMaxMessage];
  const std::size_t n = proto::encode(m, buf);
  proto::Message out;
  std::string why;
  REQUIRE(proto::decode(buf, n, false, out, why));
  return out;
}

std::string decode_error(const std::byte* p, std::size_t n, bool truncated = false) {
  proto::Message out;
  std::string why;
  CHECK_FALSE(proto::decode(p, n, truncated, out, why));
  return why;
}

// A broker on its own socket in a fresh directory, served by a thread.
struct LiveBroker {
  LiveBroker() {
    char tmpl[] = "/tmp/shmpi-test-XXXXXX";
    dir = mkdtemp(tmpl);
    spdlog::set_level(spdlog::level::warn);
    broker = std::make_unique<daemon::Broker>(daemon::BrokerOptions{dir + "/broker.sock", 0, false});
    std::string why;
    REQUIRE_MESSAGE(broker->start(why), why);
    thread = std::thread([this] { broker->run(false); });
  }
  ~LiveBroker() {
    broker->stop();
    thread.join();
    broker.reset();
    rmdir(dir.c_str());
  }
  int connect() const {
    const int fd = connect_unix(dir + "/broker.sock");
    REQUIRE(fd >= 0);
    return fd;
  }
  std::string dir;
  std::unique_ptr<daemon::Broker> broker;
  std::thread thread;
};

proto::Message ask(int fd, const proto::Message& m) {
  REQUIRE(proto::send_message(fd, m));
  proto::Message r;
  std::string why;
  REQUIRE_MESSAGE(proto::recv_message(fd, r, why), why);
  return r;
}

proto::Message send_raw(int fd, const void* p, std::size_t n) {
  REQUIRE(::send(fd, p, n, MSG_NOSIGNAL) == static_cast<ssize_t>(n));
  proto::Message r;
  std::string why;
  REQUIRE_MESSAGE(proto::recv_message(fd, r, why), why);
  return r;
}

bool is_error(const proto::Message& m, int code) {
  auto* e = std::get_if<proto::Error>(&m);
  return e != nullptr && e->code == code;
}

}  // namespace

TEST_CASE("every message survives encode/decode unchanged") {
  CHECK(std::holds_alternative<proto::Ping>(roundtrip(proto::Ping{})));
  auto cj = std::get<proto::CreateJob>(roundtrip(proto::CreateJob{8, 1}));
  CHECK(cj.nranks == 8);
  CHECK(cj.bind_to_core == 1);
  proto::JobCreated jc{};
  jc.job_id = 77;
  proto::set_name(jc.segment, sizeof jc.segment, "shmpi-0-77-00112233445566ff");
  auto jc2 = std::get<proto::JobCreated>(roundtrip(jc));
  CHECK(jc2.job_id == 77);
  CHECK(proto::get_name(jc2.segment, sizeof jc2.segment) == "shmpi-0-77-00112233445566ff");
  auto re = std::get<proto::RankExited>(roundtrip(proto::RankExited{5, 3, 9}));
  CHECK((re.job_id == 5 && re.rank == 3 && re.wait_status == 9));
  auto e = std::get<proto::Error>(roundtrip(proto::make_error(2, "no")));
  CHECK(e.code == 2);
  CHECK(proto::get_name(e.text, sizeof e.text) == "no");
}

TEST_CASE("malformed datagrams are rejected with a reason") {
  std::byte buf[proto::kMaxMessage];
  const std::size_t n = proto::encode(proto::Join{1, 2, 0}, buf);
  CHECK(decode_error(buf, 3).find("truncated") != std::string::npos);
  CHECK(decode_error(buf, n - 1).find("payload") != std::string::npos);
  CHECK(decode_error(buf, n, true).find("limit") != std::string::npos);
  std::byte bad[proto::kMaxMessage];
  std::memcpy(bad, buf, n);
  bad[0] = std::byte{0};
  CHECK(decode_error(bad, n).find("magic") != std::string::npos);
  std::memcpy(bad, buf, n);
  bad[4] = std::byte{9};  // version
  CHECK(decode_error(bad, n).find("version") != std::string::npos);
  std::memcpy(bad, buf, n);
  bad[6] = std::byte{200};  // type
  CHECK(decode_error(bad, n).find("unknown message type") != std::string::npos);
  std::memcpy(bad, buf, n);
  bad[8] = std::byte{1};  // announced payload size disagrees with the datagram
  CHECK(decode_error(bad, n).find("announces") != std::string::npos);
}

TEST_CASE("the broker answers garbage with an error and keeps serving") {
  LiveBroker b;
  const int fd = b.connect();
  const char junk[] = "hello broker";
  CHECK(is_error(send_raw(fd, junk, sizeof junk), proto::kErrMalformed));
  std::byte big[4 * proto::kMaxMessage] = {};
  CHECK(is_error(send_raw(fd, big, sizeof big), proto::kErrMalformed));  // oversized
  std::byte hdr[proto::kMaxMessage];
  const std::size_t n = proto::encode(proto::CreateJob{2, 1}, hdr);
  CHECK(is_error(send_raw(fd, hdr, n - 2), proto::kErrMalformed));  // truncated payload
  CHECK(is_error(send_raw(fd, hdr, 5), proto::kErrMalformed));      // truncated header
  CHECK(is_error(ask(fd, proto::Ack{}), proto::kErrMalformed));     // a reply is no request
  auto pong = std::get<proto::Pong>(ask(fd, proto::Ping{}));
  CHECK(pong.broker_pid == getpid());
  // A second client is unaffected by the first one's garbage.
  const int fd2 = b.connect();
  CHECK(std::holds_alternative<proto::Pong>(ask(fd2, proto::Ping{})));
  ::close(fd);
  ::close(fd2);
}

TEST_CASE("a peer that only sends garbage is dropped after a bounded number of tries") {
  LiveBroker b;
  const int fd = b.connect();
  const char junk[] = "x";
  int answered = 0;
  for (int i = 0; i < 100; ++i) {
    if (::send(fd, junk, 1, MSG_NOSIGNAL) != 1) break;
    proto::Message r;
    std::string why;
    if (!proto::recv_message(fd, r, why)) break;
    ++answered;
  }
  CHECK(answered < 100);
  ::close(fd);
  const int fd2 = b.connect();
  CHECK(std::holds_alternative<proto::Pong>(ask(fd2, proto::Ping{})));
  ::close(fd2);
}

TEST_CASE("job life cycle: create, join, refuse bad joins, end removes the segment") {
  LiveBroker b;
  const int runner = b.connect();
  CHECK(is_error(ask(runner, proto::CreateJob{0, 1}), proto::kErrRefused));
  CHECK(is_error(ask(runner, proto::CreateJob{100000, 1}), proto::kErrRefused));
  const auto created = std::get<proto::JobCreated>(ask(runner, proto::CreateJob{2, 0}));
  const std::string seg = proto::get_name(created.segment, sizeof created.segment);
  CHECK(!layout::SegmentMapping::list(seg).empty());

  const int r0 = b.connect();
  CHECK(is_error(ask(r0, proto::Join{created.job_id + 1000, 0, 0}), proto::kErrRefused));
  CHECK(is_error(ask(r0, proto::Join{created.job_id, 2, 0}), proto::kErrRefused));
  const auto joined = std::get<proto::Joined>(ask(r0, proto::Join{created.job_id, 0, 0}));
  CHECK(joined.nranks == 2);
  CHECK(joined.core == -1);  // bind_to_core = 0
  CHECK(proto::get_name(joined.segment, sizeof joined.segment) == seg);
  const int dup = b.connect();
  CHECK(is_error(ask(dup, proto::Join{created.job_id, 0, 0}), proto::kErrRefused));
  CHECK(std::holds_alternative<proto::Ack>(ask(r0, proto::Finalize{})));

  // Only the job's own runner may end it.
  CHECK(is_error(ask(dup, proto::EndJob{created.job_id}), proto::kErrRefused));
  CHECK(std::holds_alternative<proto::Ack>(ask(runner, proto::EndJob{created.job_id})));
  CHECK(layout::SegmentMapping::list(seg).empty());
  for (int fd : {runner, r0, dup}) ::close(fd);
}

TEST_CASE("a rank that disconnects without finalizing aborts its job") {
  LiveBroker b;
  const int runner = b.connect();
  const auto created = std::get<proto::JobCreated>(ask(runner, proto::CreateJob{2, 0}));
  const std::string seg = proto::get_name(created.segment, sizeof created.segment);
  const int r1 = b.connect();
  std::get<proto::Joined>(ask(r1, proto::Join{created.job_id, 1, 0}));
  std::string why;
  auto m = layout::SegmentMapping::open(seg, false, false, why);
  REQUIRE_MESSAGE(m.valid(), why);
  CHECK(m.view().header().abort.state.load() == 0);
  ::close(r1);
  for (int i = 0; i < 200 && m.view().header().abort.state.load() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto& a = m.view().header().abort;
  CHECK(a.state.load() == 1);
  CHECK(a.kind == static_cast<std::uint32_t>(layout::AbortKind::rank_died));
  CHECK(a.rank == 1);
  CHECK(a.pid == getpid());
  ::close(runner);  // runner gone: the broker removes the job's segment
  for (int i = 0; i < 200 && !layout::SegmentMapping::list(seg).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(layout::SegmentMapping::list(seg).empty());
}
