// Small text helpers shared by the shmpi-dump reports.
#pragma once

#include <cstdio>
#include <string>

namespace shmpi::dump {

// printf into a std::string (one line of a report: at most 511 bytes).
template <class... A>
std::string fmt(const char* f, A... a) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, a...);
  return buf;
}

// A JSON string literal. Values written by the process we inspect could contain
// anything; report strings come only from our own fixed tables and numbers, except the
// segment name and error texts, so quotes and backslashes are escaped and control
// characters dropped.
inline std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o += c;
  }
  return o + "\"";
}

}  // namespace shmpi::dump
