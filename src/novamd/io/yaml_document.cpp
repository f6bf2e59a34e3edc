#include "novamd/io/yaml_document.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"

namespace novamd::io {
namespace {

/// Line `line` (0-based) of `text`, without its line end.
std::string_view line_of_text(std::string_view text, int line) {
  std::size_t start = 0;
  for (int l = 0; l < line; ++l) {
    const auto end = text.find('\n', start);
    if (end == std::string_view::npos) return {};
    start = end + 1;
  }
  std::string_view rest = text.substr(start);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return rest;
}

/// "   12 | key: [1, 2\n      |          ^": the line and a caret under `column` (0-based).
std::string quoted_line(std::string_view text, int line, int column) {
  const std::string_view whole = line_of_text(text, line);
  constexpr std::size_t kShown = 100;  // bytes of the line shown, around the column
  const std::size_t col = std::min<std::size_t>(std::max(column, 0), whole.size());
  const std::size_t from = col > kShown / 2 ? col - kShown / 2 : 0;
  const std::string before = core::excerpt(whole.substr(from, col - from), kShown);
  const std::string shown = core::excerpt(whole.substr(from), kShown);
  const std::string number = fmt::format("{}", line + 1);
  return fmt::format("\n  {} | {}{}\n  {} | {}^", number, from > 0 ? "... " : "", shown,
                     std::string(number.size(), ' '),
                     std::string(before.size() + (from > 0 ? 4 : 0), ' '));
}

/// Whether a line holds nothing for YAML: blank, or a comment.
bool is_blank_or_comment(std::string_view line) {
  const auto first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

/// Whether a line is the marker `marker` ("---" or "...") at column 0, then the end or a blank.
bool is_marker(std::string_view line, std::string_view marker) {
  return line.starts_with(marker) &&
         (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

/// The line (1-based) where a second document with content begins, if any. "---" and "..." at
/// column 0 always start and end documents in YAML; a "---" before any content opens the first,
/// and a document of nothing but blanks and comments is harmless.
std::optional<int> second_document_line(std::string_view text) {
  bool content = false;     // the first document has begun
  std::optional<int> next;  // where the next document was opened, once the first has content
  int number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const auto end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    const bool opens = is_marker(line, "---");
    if (opens || is_marker(line, "...")) {
      if (content && !next) next = number;
      if (opens && next && !is_blank_or_comment(line.substr(3))) return next;  // "--- {a: 1}"
      content = content || (opens && !is_blank_or_comment(line.substr(3)));
      continue;
    }
    if (is_blank_or_comment(line) || (line.starts_with("%") && !content)) continue;
    if (next) return next;
    content = true;
  }
  return std::nullopt;
}

/// Where line `line` (from 0) or the one before it is indented with a tab, which YAML does not
/// allow (yaml-cpp then reports a map or value error of its own): the hint that says so.
std::string tab_hint(const std::string& text, int line) {
  std::istringstream lines(text);
  std::string current;
  for (int k = 0; std::getline(lines, current) && k <= line; ++k) {
    if (k < line - 1) continue;
    const auto indent = current.find_first_not_of(" \t");
    if (current.substr(0, indent).find('\t') != std::string::npos)
      return fmt::format(
          "; line {} is indented with a tab, which YAML does not allow: indent "
          "with spaces",
          k + 1);
  }
  return "";
}

}  // namespace

std::string read_config_text(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw core::InputError(fmt::format(
        "cannot read config file '{}': it is a folder; expected a YAML file", file.string()));
  if (!std::filesystem::exists(file, ec))
    throw core::InputError(fmt::format(
        "cannot read config file '{}': no such file (from the folder {}); expected the path of a "
        "YAML config",
        file.string(), std::filesystem::current_path(ec).string()));
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw core::InputError(
        fmt::format("cannot read config file '{}': {}", file.string(), std::strerror(errno)));
  std::string text;
  std::vector<char> chunk(1 << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigBytes)
      throw core::InputError(fmt::format(
          "config file '{}' is larger than {} MiB; expected a YAML config (structures and "
          "topologies belong in files of their own, named by the config)",
          file.string(), kMaxConfigBytes >> 20));
  }
  if (in.bad()) throw core::InputError(fmt::format("cannot read config file '{}'", file.string()));
  return text;
}

YAML::Node load_yaml_document(const std::string& text, const std::string& source_name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);  // the first document (YAML::LoadAll can loop forever on bad input)
  } catch (const YAML::Exception& error) {
    if (error.mark.is_null())
      throw core::InputError(fmt::format("{}: YAML syntax error: {}", source_name, error.msg));
    throw core::InputError(fmt::format("{}:{}: YAML syntax error: {} (column {}){}{}", source_name,
                                       error.mark.line + 1, error.msg, error.mark.column + 1,
                                       tab_hint(text, error.mark.line),
                                       quoted_line(text, error.mark.line, error.mark.column)));
  }
  if (const auto line = second_document_line(text))
    throw core::InputError(fmt::format(
        "{}:{}: a second YAML document (after --- or ...); expected one config per file",
        source_name, *line));
  return root;
}

}  // namespace novamd::io
