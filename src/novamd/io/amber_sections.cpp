/// @file amber_sections.cpp
/// The %FLAG / %FORMAT layout of AMBER prmtop files (see amber_sections.hpp).

#include "novamd/io/amber_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/text_fields.hpp"

namespace novamd::io {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// The first parenthesised group of a %FORMAT line: "%FORMAT(10I8)" gives "10I8".
std::optional<std::string_view> format_text(std::string_view line) {
  const auto open = line.find('(');
  const auto close = line.find(')', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
  return line.substr(open + 1, close - open - 1);
}

const char* kind_name(char kind) {
  return kind == 'a' ? "text" : kind == 'I' ? "integer" : "real";
}

}  // namespace

std::optional<FortranFormat> parse_fortran_format(std::string_view text) {
  const std::string_view s = trim(text);
  std::size_t i = 0;
  // Counts and widths are read up to 1001: anything above 1000 is refused, and the sums cannot
  // overflow whatever digits follow.
  const auto read_number = [&] {
    int value = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
      value = std::min(1001, value * 10 + (s[i++] - '0'));
    return value;
  };
  int count = read_number();
  if (i == 0) count = 1;
  if (i >= s.size() || count < 1 || count > 1000) return std::nullopt;
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(s[i++])));
  char kind = 0;
  if (letter == 'A') kind = 'a';
  if (letter == 'I') kind = 'I';
  if (letter == 'E' || letter == 'F' || letter == 'D' || letter == 'G') kind = 'E';
  if (kind == 0) return std::nullopt;
  const std::size_t width_start = i;
  const int width = read_number();
  if (i == width_start || width < 1 || width > 1000) return std::nullopt;
  if (i < s.size() && s[i] == '.' && kind == 'E') {  // decimals: they matter only for writing
    const std::size_t digits = ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == digits) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  return FortranFormat{count, kind, width, std::string(s)};
}

std::vector<std::string_view> fixed_width_fields(std::string_view line, int width) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.remove_suffix(1);
  std::vector<std::string_view> fields;
  for (std::size_t start = 0; start < line.size(); start += static_cast<std::size_t>(width))
    fields.push_back(trim(line.substr(start, static_cast<std::size_t>(width))));
  return fields;
}

std::optional<double> parse_fortran_real(std::string_view field) {
  std::string s(field);
  for (char& c : s)
    if (c == 'D' || c == 'd') c = 'E';
  std::string_view v = s;
  if (!v.empty() && v.front() == '+') v.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_fortran_integer(std::string_view field) {
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (field.empty() || ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return value;
}

std::string read_text_file(const std::filesystem::path& file, std::string_view what) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw core::InputError(
        fmt::format("{}: is a folder, not a file; expected {}", file.string(), what));
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw core::InputError(fmt::format("{}: cannot open the file: {}; expected {}", file.string(),
                                       std::strerror(errno), what));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = std::move(buffer).str();
  const std::string_view head = std::string_view(text).substr(0, 4096);
  const bool netcdf =
      starts_with(head, "CDF\x01") || starts_with(head, "CDF\x02") || starts_with(head, "\x89HDF");
  if (netcdf)
    throw core::InputError(fmt::format(
        "{}: is a NetCDF (binary) file; NovaMD reads the ASCII form only: expected {} (convert "
        "with cpptraj or ParmEd)",
        file.string(), what));
  if (head.find('\0') != std::string_view::npos)
    throw core::InputError(
        fmt::format("{}: is a binary file (it holds NUL bytes); expected {}", file.string(), what));
  return text;
}

PrmtopSections::PrmtopSections(const std::filesystem::path& file) : file_(file) {
  static constexpr std::string_view kWhat = "an AMBER prmtop (%VERSION, %FLAG and %FORMAT lines)";
  text_ = read_text_file(file, kWhat);
  const auto lines = split_lines(text_);
  PrmtopSection* current = nullptr;
  bool awaiting_format = false;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string_view line = lines[k];
    const auto number = static_cast<std::int64_t>(k) + 1;
    const std::string at = fmt::format("{}:{}", file.string(), number);
    if (starts_with(line, "%COMMENT") || starts_with(line, "%VERSION")) continue;
    if (starts_with(line, "%FLAG")) {
      if (awaiting_format)
        throw core::InputError(
            fmt::format("{}: %FLAG {} has no %FORMAT line; expected "
                        "%FORMAT(...) after it",
                        at, current->flag));
      const std::string flag(trim(line.substr(5)));
      if (flag.empty())
        throw core::InputError(fmt::format("{}: %FLAG without a name; expected %FLAG NAME", at));
      if (sections_.count(flag))
        throw core::InputError(fmt::format(
            "{}: %FLAG {} appears a second time (first at line {}); expected each section once", at,
            flag, sections_.at(flag).flag_line));
      current = &sections_[flag];
      current->flag = flag;
      current->flag_line = number;
      awaiting_format = true;
      continue;
    }
    if (starts_with(line, "%FORMAT")) {
      if (!awaiting_format)
        throw core::InputError(fmt::format(
            "{}: %FORMAT without a %FLAG line before it; expected %FLAG NAME then %FORMAT(...)",
            at));
      const auto text = format_text(line);
      const auto format = text ? parse_fortran_format(*text) : std::nullopt;
      if (!format)
        throw core::InputError(fmt::format(
            "{}: unknown format '{}' of %FLAG {}; expected a Fortran format such as 10I8, "
            "5E16.8 or 20a4",
            at, core::excerpt(line), current->flag));
      current->format = *format;
      awaiting_format = false;
      continue;
    }
    if (current == nullptr) {
      if (trim(line).empty()) continue;
      throw core::InputError(fmt::format(
          "{}: '{}' comes before any %FLAG line; expected an AMBER 7 (or later) prmtop, which "
          "starts with %VERSION and %FLAG lines (the older format without %FLAG is not read)",
          at, core::excerpt(line)));
    }
    if (awaiting_format)
      throw core::InputError(fmt::format(
          "{}: %FLAG {} has no %FORMAT line; expected %FORMAT(...) after it", at, current->flag));
    const auto fields = fixed_width_fields(line, current->format.width);
    if (static_cast<int>(fields.size()) > current->format.count)
      throw core::InputError(
          fmt::format("{}: line of %FLAG {} holds {} fields of {} characters; expected at most {} "
                      "(FORMAT({}))",
                      at, current->flag, fields.size(), current->format.width,
                      current->format.count, current->format.text));
    current->lines.push_back(line);
    current->line_numbers.push_back(number);
  }
  if (awaiting_format)
    throw core::InputError(fmt::format("{}: %FLAG {} has no %FORMAT line; the file ends after it",
                                       where_flag(*current), current->flag));
  if (sections_.empty())
    throw core::InputError(fmt::format(
        "{}: no %FLAG section; expected an AMBER 7 (or later) prmtop (%VERSION, %FLAG and "
        "%FORMAT lines)",
        file.string()));
}

const PrmtopSection& PrmtopSections::section(std::string_view flag) const {
  const auto it = sections_.find(flag);
  if (it == sections_.end())
    throw core::InputError(fmt::format(
        "{}: no %FLAG {} section; expected it in an AMBER prmtop (the file may be truncated)",
        file_.string(), flag));
  return it->second;
}

std::string PrmtopSections::where_flag(const PrmtopSection& section) const {
  return fmt::format("{}:{}", file_.string(), section.flag_line);
}

std::string PrmtopSections::where_value(const PrmtopSection& section, std::int64_t index) const {
  std::int64_t seen = 0;
  for (std::size_t k = 0; k < section.lines.size(); ++k) {
    seen += static_cast<std::int64_t>(
        fixed_width_fields(section.lines[k], section.format.width).size());
    if (index < seen) return fmt::format("{}:{}", file_.string(), section.line_numbers[k]);
  }
  return where_flag(section);
}

namespace {

/// Every field of `section`, in order, each with its line number, after checking the kind.
template <class Visit>
void for_each_field(const PrmtopSection& section, const std::string& at_flag, char kind,
                    Visit&& visit) {
  const bool numeric = kind != 'a';
  const bool kind_ok =
      numeric ? (section.format.kind == kind || (kind == 'E' && section.format.kind == 'I'))
              : section.format.kind == 'a';
  if (!kind_ok)
    throw core::InputError(fmt::format("{}: %FLAG {} has FORMAT({}); expected a {} format", at_flag,
                                       section.flag, section.format.text, kind_name(kind)));
  std::int64_t index = 0;
  for (std::size_t k = 0; k < section.lines.size(); ++k)
    for (const auto field : fixed_width_fields(section.lines[k], section.format.width))
      visit(field, index++, section.line_numbers[k]);
}

std::int64_t field_count(const PrmtopSection& section) {
  std::int64_t n = 0;
  for (const auto line : section.lines)
    n += static_cast<std::int64_t>(fixed_width_fields(line, section.format.width).size());
  return n;
}

void check_count(const PrmtopSections& s, const PrmtopSection& section, std::int64_t expected,
                 std::string_view why) {
  const std::int64_t n = field_count(section);
  if (n != expected)
    throw core::InputError(fmt::format(
        "{}: %FLAG {} holds {} values; expected {} ({}){}", s.where_flag(section), section.flag, n,
        expected, why, n < expected ? " (the section is short: the file may be truncated)" : ""));
}

}  // namespace

std::vector<std::int64_t> PrmtopSections::integers(std::string_view flag, std::int64_t expected,
                                                   std::string_view why) const {
  const auto& s = section(flag);
  check_count(*this, s, expected, why);
  std::vector<std::int64_t> values;
  values.reserve(static_cast<std::size_t>(expected));
  for_each_field(s, where_flag(s), 'I', [&](std::string_view field, std::int64_t i, auto line) {
    const auto v = parse_fortran_integer(field);
    if (!v)
      throw core::InputError(
          fmt::format("{}:{}: value {} of %FLAG {} is '{}'; expected an integer (FORMAT({}))",
                      file_.string(), line, i + 1, s.flag, core::excerpt(field), s.format.text));
    values.push_back(*v);
  });
  return values;
}

std::vector<std::int64_t> PrmtopSections::all_integers(std::string_view flag,
                                                       std::int64_t minimum) const {
  const auto& s = section(flag);
  const std::int64_t n = field_count(s);
  if (n < minimum)
    throw core::InputError(fmt::format("{}: %FLAG {} holds {} values; expected at least {}",
                                       where_flag(s), s.flag, n, minimum));
  return integers(flag, n, "");
}

std::vector<double> PrmtopSections::reals(std::string_view flag, std::int64_t expected,
                                          std::string_view why) const {
  const auto& s = section(flag);
  check_count(*this, s, expected, why);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(expected));
  for_each_field(s, where_flag(s), 'E', [&](std::string_view field, std::int64_t i, auto line) {
    const auto v = parse_fortran_real(field);
    if (!v)
      throw core::InputError(fmt::format(
          "{}:{}: value {} of %FLAG {} is '{}'; expected a finite real number (FORMAT({}))",
          file_.string(), line, i + 1, s.flag, core::excerpt(field), s.format.text));
    values.push_back(*v);
  });
  return values;
}

std::vector<std::string> PrmtopSections::strings(std::string_view flag, std::int64_t expected,
                                                 std::string_view why) const {
  const auto& s = section(flag);
  check_count(*this, s, expected, why);
  std::vector<std::string> values;
  values.reserve(static_cast<std::size_t>(expected));
  for_each_field(s, where_flag(s), 'a',
                 [&](std::string_view field, std::int64_t, auto) { values.emplace_back(field); });
  return values;
}

}  // namespace novamd::io
