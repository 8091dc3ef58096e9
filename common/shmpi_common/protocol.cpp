#include "shmpi_common/protocol.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

namespace shmpi::proto {
namespace {

template <class T>
constexpr Type type_of() {
  if constexpr (std::is_same_v<T, Ping>) return Type::ping;
  else if constexpr (std::is_same_v<T, Pong>) return Type::pong;
  else if constexpr (std::is_same_v<T, CreateJob>) return Type::create_job;
  else if constexpr (std::is_same_v<T, JobCreated>) return Type::job_created;
  else if constexpr (std::is_same_v<T, Join>) return Type::join;
  else if constexpr (std::is_same_v<T, Joined>) return Type::joined;
  else if constexpr (std::is_same_v<T, Finalize>) return Type::finalize;
  else if constexpr (std::is_same_v<T, Abort>) return Type::abort;
  else if constexpr (std::is_same_v<T, RankExited>) return Type::rank_exited;
  else if constexpr (std::is_same_v<T, EndJob>) return Type::end_job;
  else if constexpr (std::is_same_v<T, Ack>) return Type::ack;
  else return Type::error;
}

// Payload size of an empty struct is 0 on the wire.
template <class T>
constexpr std::size_t wire_size() { return std::is_empty_v<T> ? 0 : sizeof(T); }

template <std::size_t I = 0>
bool decode_payload(Type t, const std::byte* p, std::size_t n, Message& out, std::string& why) {
  if constexpr (I == std::variant_size_v<Message>) {
    why = "unknown message type " + std::to_string(static_cast<unsigned>(t));
    return false;
  } else {
    using T = std::variant_alternative_t<I, Message>;
    if (type_of<T>() != t) return decode_payload<I + 1>(t, p, n, out, why);
    if (n != wire_size<T>()) {
      why = "payload of " + std::to_string(n) + " bytes for message type " +
            std::to_string(static_cast<unsigned>(t)) + ", expected " + std::to_string(wire_size<T>());
      return false;
    }
    T v{};
    if constexpr (!std::is_empty_v<T>) std::memcpy(&v, p, sizeof(T));
    out = v;
    return true;
  }
}

}  // namespace

std::size_t encode(const Message& m, std::byte* out) {
  return std::visit(
      [out](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        Header h{kMagic, kVersion, static_cast<std::uint16_t>(type_of<T>()),
                 static_cast<std::uint32_t>(wire_size<T>()), 0};
        std::memcpy(out, &h, sizeof h);
        if constexpr (!std::is_empty_v<T>) std::memcpy(out + sizeof h, &v, sizeof(T));
        return sizeof h + wire_size<T>();
      },
      m);
}

bool decode(const std::byte* data, std::size_t size, bool truncated, Message& out, std::string& why) {
  if (truncated) {
    why = "message longer than the " + std::to_string(kMaxMessage) + "-byte limit";
    return false;
  }
  if (size < sizeof(Header)) {
    why = "truncated message: " + std::to_string(size) + " bytes, header needs " +
          std::to_string(sizeof(Header));
    return false;
  }
  Header h;
  std::memcpy(&h, data, sizeof h);
  if (h.magic != kMagic) {
    why = "bad magic";
    return false;
  }
  if (h.version != kVersion) {
    why = "protocol version " + std::to_string(h.version) + ", broker speaks " + std::to_string(kVersion);
    return false;
  }
  if (h.payload_size != size - sizeof h) {
    why = "header announces " + std::to_string(h.payload_size) + " payload bytes, datagram has " +
          std::to_string(size - sizeof h);
    return false;
  }
  return decode_payload(static_cast<Type>(h.type), data + sizeof h, h.payload_size, out, why);
}

bool send_message(int fd, const Message& m) {
  std::byte buf[kMaxMessage];
  const std::size_t n = encode(m, buf);
  ssize_t r;
  do r = ::send(fd, buf, n, MSG_NOSIGNAL); while (r < 0 && errno == EINTR);
  return r == static_cast<ssize_t>(n);
}

bool recv_message(int fd, Message& out, std::string& why) {
  std::byte buf[kMaxMessage];
  ssize_t r;
  do r = ::recv(fd, buf, sizeof buf, MSG_TRUNC); while (r < 0 && errno == EINTR);
  if (r < 0) {
    why = std::string("recv: ") + std::strerror(errno);
    return false;
  }
  if (r == 0) {
    why = "broker closed the connection";
    return false;
  }
  const bool truncated = static_cast<std::size_t>(r) > sizeof buf;
  return decode(buf, truncated ? sizeof buf : static_cast<std::size_t>(r), truncated, out, why);
}

bool request(int fd, const Message& req, Message& reply, std::string& why) {
  if (!send_message(fd, req)) {
    why = std::string("cannot reach the broker: ") + std::strerror(errno);
    return false;
  }
  if (!recv_message(fd, reply, why)) return false;
  if (auto* e = std::get_if<Error>(&reply)) {
    why = "broker refused: " + get_name(e->text, sizeof e->text);
    return false;
  }
  return true;
}

void set_name(char* field, std::size_t cap, const std::string& s) {
  std::memset(field, 0, cap);
  std::memcpy(field, s.data(), std::min(s.size(), cap - 1));
}

std::string get_name(const char* field, std::size_t cap) {
  return std::string(field, strnlen(field, cap));
}

Error make_error(int code, const std::string& text) {
  Error e{};
  e.code = code;
  set_name(e.text, sizeof e.text, text);
  return e;
}

}  // namespace shmpi::proto
