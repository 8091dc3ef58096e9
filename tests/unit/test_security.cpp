// Security properties that need no second process: segment names are unguessable,
// segments are created exclusively and 0600, foreign-owned files under our prefix and
// hostile runtime directories or sockets are refused (docs/security.md). The
// cross-uid checks against a live broker are in tests/scripts/security.sh.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "shm_layout/segment_file.hpp"
#include "shm_layout/segment_init.hpp"
#include "shmpi_common/paths.hpp"

using namespace shmpi;

namespace {

constexpr uid_t kOtherUid = 65534;  // nobody

// The 16 hex digits after "shmpi-<uid>-<job>-".
std::uint64_t random_part(const std::string& name) {
  const auto dash = name.rfind('-');
  REQUIRE(dash != std::string::npos);
  const std::string hex = name.substr(dash + 1);
  REQUIRE(hex.size() == 16);
  REQUIRE(hex.find_first_not_of("0123456789abcdef") == std::string::npos);
  return std::strtoull(hex.c_str(), nullptr, 16);
}

// SHMPI_RUNTIME_DIR set for one scope, restored after.
struct RuntimeDirEnv {
  explicit RuntimeDirEnv(const std::string& d) {
    if (const char* o = std::getenv("SHMPI_RUNTIME_DIR")) old = o, had = true;
    setenv("SHMPI_RUNTIME_DIR", d.c_str(), 1);
  }
  ~RuntimeDirEnv() {
    if (had) setenv("SHMPI_RUNTIME_DIR", old.c_str(), 1);
    else unsetenv("SHMPI_RUNTIME_DIR");
  }
  std::string old;
  bool had = false;
};

std::string scratch_dir() {
  char tmpl[] = "/tmp/shmpi-sec-unit-XXXXXX";
  const char* d = mkdtemp(tmpl);
  REQUIRE(d != nullptr);
  return d;
}

std::string refusal(const std::string& dir) {
  RuntimeDirEnv env(dir);
  std::string why;
  CHECK(paths::runtime_dir(why).empty());
  return why;
}

}  // namespace

TEST_CASE("segment names carry 64 fresh random bits, not derived from job id, pid or time") {
  const std::uint64_t job = 42;
  std::set<std::uint64_t> seen;
  std::uint64_t ones = 0, zeros = 0;  // bit i set in some name / clear in some name
  for (int i = 0; i < 2000; ++i) {
    const std::string n = paths::segment_name(job);
    CHECK(n.rfind(paths::segment_prefix() + "42-", 0) == 0);
    const std::uint64_t r = random_part(n);
    seen.insert(r);
    ones |= r;
    zeros |= ~r;
  }
  // Same job id, same pid, same second: every name differs, and each of the 64 bits
  // takes both values (a counter, pid or timestamp would leave high bits constant).
  CHECK(seen.size() == 2000);
  CHECK(ones == ~std::uint64_t{0});
  CHECK(zeros == ~std::uint64_t{0});
  std::uint64_t job_id = 0;
  CHECK(paths::parse_segment_name(paths::segment_name(7), job_id));
  CHECK(job_id == 7);
}

TEST_CASE("a segment is created exclusively with mode 0600; an existing name is refused") {
  const std::string name = paths::segment_name(999998);
  std::string why;
  auto m = layout::SegmentMapping::create(name, layout::segment_size_for(1), why);
  REQUIRE_MESSAGE(m.valid(), why);
  struct stat st{};
  REQUIRE(stat(("/dev/shm/" + name).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(st.st_uid == geteuid());
  static_cast<unsigned char*>(m.address())[0] = 0x5a;

  std::string why2;
  auto again = layout::SegmentMapping::create(name, layout::segment_size_for(1), why2);
  CHECK_FALSE(again.valid());
  CHECK(why2.find(name) != std::string::npos);
  CHECK(why2.find("exists") != std::string::npos);
  CHECK(static_cast<unsigned char*>(m.address())[0] == 0x5a);  // the first one is untouched
  CHECK(layout::SegmentMapping::remove(name));
}

TEST_CASE("a file under our prefix owned by another uid is neither listed nor opened") {
  if (geteuid() != 0) {
    MESSAGE("skipped: needs root to give a file to uid ", kOtherUid);
    return;
  }
  // A valid, published segment, then given away: what a hostile user could plant.
  const std::string name = paths::segment_name(999997);
  std::string why;
  {
    auto m = layout::SegmentMapping::create(name, layout::segment_size_for(1), why);
    REQUIRE_MESSAGE(m.valid(), why);
    layout::SegmentParams p;
    p.job_id = 999997;
    layout::init_segment(m.address(), p);
  }
  REQUIRE(chown(("/dev/shm/" + name).c_str(), kOtherUid, kOtherUid) == 0);

  std::vector<std::string> foreign;
  const auto ours = layout::SegmentMapping::list(paths::segment_prefix(), &foreign);
  CHECK(std::find(ours.begin(), ours.end(), name) == ours.end());
  CHECK(std::find(foreign.begin(), foreign.end(), name) != foreign.end());

  why.clear();
  auto m = layout::SegmentMapping::open(name, false, false, why);
  CHECK_FALSE(m.valid());
  CHECK(why.find("owned by uid 65534") != std::string::npos);
  CHECK(layout::SegmentMapping::remove(name));
}

TEST_CASE("a hostile runtime directory is refused with the reason, never used") {
  const std::string base = scratch_dir();

  const std::string open_dir = base + "/world";
  REQUIRE(mkdir(open_dir.c_str(), 0700) == 0);
  REQUIRE(chmod(open_dir.c_str(), 0777) == 0);
  CHECK(refusal(open_dir).find("its mode is 0777") != std::string::npos);

  const std::string good = base + "/good";
  REQUIRE(mkdir(good.c_str(), 0700) == 0);
  const std::string link = base + "/link";
  REQUIRE(symlink(good.c_str(), link.c_str()) == 0);
  CHECK(refusal(link).find("it is a symlink") != std::string::npos);

  const std::string file = base + "/file";
  const int fd = open(file.c_str(), O_CREAT | O_WRONLY, 0600);
  REQUIRE(fd >= 0);
  close(fd);
  CHECK(refusal(file).find("not a directory") != std::string::npos);

  {
    RuntimeDirEnv env(good);
    std::string why;
    CHECK(paths::runtime_dir(why) == good);
  }

  if (geteuid() == 0) {
    const std::string theirs = base + "/theirs";
    REQUIRE(mkdir(theirs.c_str(), 0700) == 0);
    REQUIRE(chown(theirs.c_str(), kOtherUid, kOtherUid) == 0);
    CHECK(refusal(theirs).find("owned by uid 65534") != std::string::npos);
    rmdir(theirs.c_str());
  }
  for (const auto& p : {link, file}) unlink(p.c_str());
  for (const auto& p : {open_dir, good, base}) rmdir(p.c_str());
}

TEST_CASE("a symlink or file in place of the broker socket is refused, not followed") {
  const std::string base = scratch_dir();
  const std::string sock = paths::socket_path(base);
  std::string why;
  CHECK(paths::socket_is_ours(sock, why));  // absent is fine: nothing to follow

  REQUIRE(symlink("/nonexistent/elsewhere.sock", sock.c_str()) == 0);
  CHECK_FALSE(paths::socket_is_ours(sock, why));
  CHECK(why.find("it is a symlink") != std::string::npos);
  unlink(sock.c_str());

  const int fd = open(sock.c_str(), O_CREAT | O_WRONLY, 0600);
  REQUIRE(fd >= 0);
  close(fd);
  why.clear();
  CHECK_FALSE(paths::socket_is_ours(sock, why));
  CHECK(why.find("not a socket") != std::string::npos);
  unlink(sock.c_str());
  rmdir(base.c_str());
}
