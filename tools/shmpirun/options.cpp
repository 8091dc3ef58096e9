#include "options.hpp"

#include <cstdlib>
#include <cstring>

#include "shm_layout/segment.hpp"

namespace shmpi::runner {

const char* const kUsage =
    "usage: shmpirun -n|-np N [--bind-to core|none] [--timeout SEC] [-x VAR[=VALUE]]... prog [args...]\n"
    "  -n, -np N        number of ranks (1..4096)\n"
    "  --bind-to KIND   core (default: one core per rank, cores shared with other jobs only\n"
    "                   when all are taken) or none\n"
    "  --timeout SEC    kill the job after SEC seconds (exit status 124)\n"
    "  -x VAR[=VALUE]   set VAR in every rank (ranks inherit the runner's environment anyway)\n";

bool parse_options(int argc, char** argv, Options& o, std::string& why) {
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        why = std::string(name) + " needs a value";
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "-n" || a == "-np" || a == "--np") {
      const char* v = value(a.c_str());
      if (v == nullptr) return false;
      char* end = nullptr;
      const long n = std::strtol(v, &end, 10);
      if (*end != '\0' || n < 1 || n > static_cast<long>(layout::kMaxRanks)) {
        why = "-n takes 1.." + std::to_string(layout::kMaxRanks) + ", got '" + v + "'";
        return false;
      }
      o.nranks = static_cast<unsigned>(n);
    } else if (a == "--bind-to") {
      const char* v = value("--bind-to");
      if (v == nullptr) return false;
      if (std::strcmp(v, "core") == 0) o.bind_to_core = true;
      else if (std::strcmp(v, "none") == 0) o.bind_to_core = false;
      else {
        why = std::string("--bind-to takes core or none, got '") + v + "'";
        return false;
      }
    } else if (a == "--timeout") {
      const char* v = value("--timeout");
      if (v == nullptr) return false;
      char* end = nullptr;
      const double t = std::strtod(v, &end);
      if (*end != '\0' || !(t > 0)) {
        why = std::string("--timeout takes a positive number of seconds, got '") + v + "'";
        return false;
      }
      o.timeout_s = t;
    } else if (a == "-x") {
      const char* v = value("-x");
      if (v == nullptr) return false;
      std::string kv = v;
      if (kv.find('=') == std::string::npos) {
        const char* cur = std::getenv(v);
        kv += "=";
        kv += cur ? cur : "";
      }
      o.env.push_back(kv);
    } else if (a == "-h" || a == "--help") {
      why = "";
      return false;
    } else if (a == "--") {
      ++i;
      break;
    } else if (!a.empty() && a[0] == '-') {
      why = "unknown option " + a;
      return false;
    } else {
      break;
    }
  }
  for (; i < argc; ++i) o.command.emplace_back(argv[i]);
  if (o.nranks == 0) {
    why = "-n N is required";
    return false;
  }
  if (o.command.empty()) {
    why = "no program to run";
    return false;
  }
  return true;
}

}  // namespace shmpi::runner
