#pragma once
/// @file excerpt.hpp
/// Input text as it may appear in a message: control bytes and bytes that are not valid UTF-8
/// escaped (\n, \t, \0, \xNN; valid UTF-8 such as "Å" is kept), and a long text cut to its start with the total length named, so that a message never
/// carries a 100 KB value, a NUL byte or binary garbage to the terminal.

#include <cstddef>
#include <string>
#include <string_view>

namespace novamd::core {

/// The length of the valid UTF-8 sequence of 2 to 4 bytes at text[i], or 0.
inline std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const std::size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                      : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

/// Bytes of input shown before a message cuts it.
inline constexpr std::size_t kExcerptBytes = 60;

/// `text` escaped, and cut after `max_bytes` input bytes with " ... (N bytes)" appended.
inline std::string excerpt(std::string_view text, std::size_t max_bytes = kExcerptBytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const std::size_t shown = text.size() > max_bytes ? max_bytes : text.size();
  out.reserve(shown + 24);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (const std::size_t n = c >= 0x80 ? utf8_sequence(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n - 1;
      continue;
    }
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\0': out += "\\0"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 0xf];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  if (shown < text.size()) out += " ... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace novamd::core
