// The runner's connection to the broker: finds or starts shmpid, then sends requests.
#pragma once

#include <string>

#include "shmpi_common/protocol.hpp"

namespace shmpi::runner {

class BrokerLink {
 public:
  ~BrokerLink();
  // Connects to the user's broker, starting one (detached, idle-exiting) if none runs.
  bool connect(std::string& why);
  // One request, one reply; false with `why` on transport errors and broker refusals.
  bool request(const proto::Message& req, proto::Message& reply, std::string& why);
  const std::string& socket_path() const { return socket_path_; }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::string socket_path_;
};

}  // namespace shmpi::runner
