// The library's SHMPI_* settings from the environment: one parser for each shape of
// value, so that every setting reads "unset", "empty" and "not a value it knows" alike
// (all three: the built-in default).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace shmpi::client {

// A decimal unsigned value: true and out set if `name` holds one, else false.
bool env_u64(const char* name, std::uint64_t& out);

// Which of `words` `name` holds: its index, or -1 (unset, or none of them).
int env_word(const char* name, std::initializer_list<std::string_view> words);

}  // namespace shmpi::client
