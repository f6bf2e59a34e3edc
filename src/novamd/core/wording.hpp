#pragma once
/// @file wording.hpp
/// Words in messages and summaries: a count with its noun ("1 thermo row", "3 thermo rows").

#include <cstdint>
#include <string>
#include <string_view>

namespace novamd::core {

/// `n` and the noun, plural unless n is 1: counted(1, "checkpoint") is "1 checkpoint". The plural
/// adds "s" (nouns that do otherwise pass it as `plural`).
inline std::string counted(std::int64_t n, std::string_view noun, std::string_view plural = {}) {
  std::string text = std::to_string(n) + " ";
  if (n == 1) return text.append(noun);
  return plural.empty() ? text.append(noun).append("s") : text.append(plural);
}

}  // namespace novamd::core
