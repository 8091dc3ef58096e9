// The broker's socket protocol: fixed-size binary messages over a SOCK_SEQPACKET Unix
// socket (one datagram = one message, so a short or long read is detectable).
//
//   runner -> broker   CreateJob{nranks, bind}          <- JobCreated{job_id, segment}
//   rank   -> broker   Join{job_id, rank}               <- Joined{segment, size, core, numa}
//   rank   -> broker   Finalize{}                       <- Ack
//   rank   -> broker   Abort{code}                      <- Ack   (broker aborts the job)
//   runner -> broker   RankExited{job, rank, status}    <- Ack   (abort if not finalized)
//   runner -> broker   EndJob{job_id}                   <- Ack   (segment removed)
//   any    -> broker   Ping{}                           <- Pong{broker_pid}
//   broker -> any      Error{code, text} in reply to anything malformed or refused.
//
// Peers are checked with SO_PEERCRED (same uid only). A connection's close is the
// broker's death signal for a rank that has joined and not finalized.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

namespace shmpi::proto {

inline constexpr std::uint32_t kMagic = 0x53504d49;  // "IMPS"
inline constexpr std::uint16_t kVersion = 1;
inline constexpr std::size_t kMaxMessage = 512;
inline constexpr std::size_t kNameLen = 96;

enum class Type : std::uint16_t {
  ping = 1, pong, create_job, job_created, join, joined, finalize, abort,
  rank_exited, end_job, ack, error,
};

struct Header {
  std::uint32_t magic;
  std::uint16_t version;
  std::uint16_t type;
  std::uint32_t payload_size;
  std::uint32_t reserved;
};
static_assert(sizeof(Header) == 16);

struct Ping {};
struct Pong { std::int32_t broker_pid; std::uint32_t reserved; };
struct CreateJob { std::uint32_t nranks; std::uint32_t bind_to_core; };
struct JobCreated { std::uint64_t job_id; char segment[kNameLen]; };
struct Join { std::uint64_t job_id; std::uint32_t rank; std::uint32_t reserved; };
struct Joined {
  char segment[kNameLen];
  std::uint64_t segment_size;
  std::int32_t core;
  std::int32_t numa_node;
  std::uint32_t nranks;
  std::uint32_t reserved;
};
struct Finalize {};
struct Abort { std::int32_t code; std::uint32_t reserved; };
struct RankExited { std::uint64_t job_id; std::uint32_t rank; std::int32_t wait_status; };
struct EndJob { std::uint64_t job_id; };
struct Ack {};
struct Error { std::int32_t code; char text[200]; };

// Error.code values.
inline constexpr std::int32_t kErrMalformed = 1;  // could not parse the request
inline constexpr std::int32_t kErrRefused = 2;    // parsed, but not allowed now
inline constexpr std::int32_t kErrInternal = 3;   // the broker failed (e.g. shm creation)

using Message = std::variant<Ping, Pong, CreateJob, JobCreated, Join, Joined, Finalize, Abort,
                             RankExited, EndJob, Ack, Error>;

// Serialize into `out` (at least kMaxMessage bytes); returns the byte count.
std::size_t encode(const Message& m, std::byte* out);

// Parse one received datagram. `truncated` is true when the datagram was longer than
// the buffer (MSG_TRUNC). On failure returns false and says why in `why`.
bool decode(const std::byte* data, std::size_t size, bool truncated, Message& out, std::string& why);

// Blocking helpers for clients (runner, ranks, tools).
bool send_message(int fd, const Message& m);
// Waits for one message; false on EOF/error/malformed (why says which).
bool recv_message(int fd, Message& out, std::string& why);

// One request, one reply. False with `why` on transport errors and on an Error reply
// (whose text `why` then carries).
bool request(int fd, const Message& req, Message& reply, std::string& why);

// Copy a C string into a fixed field, always NUL-terminated.
void set_name(char* field, std::size_t cap, const std::string& s);
std::string get_name(const char* field, std::size_t cap);

Error make_error(int code, const std::string& text);

}  // namespace shmpi::proto
