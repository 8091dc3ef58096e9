// shmpirun's command line.
#pragma once

#include <string>
#include <vector>

namespace shmpi::runner {

struct Options {
  unsigned nranks = 0;
  bool bind_to_core = true;
  double timeout_s = 0;                 // 0 = none
  std::vector<std::string> env;         // "VAR=value" to set in every rank
  std::vector<std::string> command;     // program and its arguments
};

// Parses argv; on error returns false with a message in `why`.
bool parse_options(int argc, char** argv, Options& o, std::string& why);
extern const char* const kUsage;

}  // namespace shmpi::runner
