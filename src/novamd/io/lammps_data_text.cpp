/// @file lammps_data_text.cpp
/// Lines, fields and numbers of a LAMMPS data file (see lammps_data_text.hpp).

#include "novamd/io/lammps_data_text.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>
#include <utility>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"

namespace novamd::io::lammps {
namespace {

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split_fields(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) out.emplace_back(s.substr(start, i - start));
  }
  return out;
}

/// A finite double filling the whole of `s`, or nothing.
std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::string field_message(const FieldSite& site, std::size_t index, std::string_view meaning,
                          std::string_view expected) {
  const std::string found =
      index < site.line.fields.size()
          ? fmt::format("field {} is '{}'", index + 1, core::excerpt(site.line.fields[index]))
          : fmt::format("field {} is missing", index + 1);
  return fmt::format("{}: in the {} '{}', {}; expected {}: {}", site.reader.where(site.line.number),
                     site.what, core::excerpt(site.line.text), found, meaning, expected);
}

}  // namespace

bool starts_number(std::string_view field) {
  if (field.empty()) return false;
  const char c = field.front();
  return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.';
}

bool DataLine::is_data() const {
  return !fields.empty() && starts_number(fields.front());
}

std::string DataLine::comment_word() const {
  const auto words = split_fields(comment);
  return words.empty() ? std::string() : words.front();
}

DataReader::DataReader(const std::filesystem::path& file) : file_(file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw core::InputError(fmt::format(
        "{}: is a folder, not a file; expected the path of a LAMMPS data file", file.string()));
  in_.open(file);
  if (!in_)
    throw core::InputError(fmt::format("{}: cannot open the LAMMPS data file: {}", file.string(),
                                       std::strerror(errno)));
}

bool DataReader::read_raw(DataLine& line) {
  std::string text;
  if (!std::getline(in_, text)) return false;
  ++number_;
  if (!text.empty() && text.back() == '\r') text.pop_back();
  const std::size_t hash = text.find('#');
  line.number = number_;
  line.fields = split_fields(std::string_view(text).substr(0, hash));
  line.comment =
      hash == std::string::npos ? std::string() : std::string(trimmed(text.substr(hash + 1)));
  line.text = std::move(text);
  return true;
}

bool DataReader::title(DataLine& line) {
  return read_raw(line);
}

bool DataReader::next(DataLine& line) {
  if (pending_) {
    line = std::move(*pending_);
    pending_.reset();
    return true;
  }
  while (read_raw(line))
    if (!line.fields.empty()) return true;
  return false;
}

void DataReader::unread(DataLine line) {
  pending_ = std::move(line);
}

std::string DataReader::where(std::int64_t line) const {
  return fmt::format("{}:{}", file_.string(), line);
}

std::string DataReader::where_end() const {
  return where(number_ + 1);
}

std::optional<bool> DataReader::fits(std::int64_t count, int min_fields) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file_, ec)) return std::nullopt;
  const auto size = std::filesystem::file_size(file_, ec);
  const auto at = in_.tellg();
  if (ec || at < 0 || static_cast<std::uintmax_t>(at) > size) return std::nullopt;
  // Each line takes at least one character and one separator (blank or newline) per field; the
  // last line may lack its newline. A pending line was read already: its bytes count as well.
  const std::uintmax_t rest =
      size - static_cast<std::uintmax_t>(at) + 1 + (pending_ ? pending_->text.size() + 1 : 0);
  return static_cast<std::uintmax_t>(count) <= rest / (2 * static_cast<std::uintmax_t>(min_fields));
}

double number_field(const FieldSite& site, std::size_t index, std::string_view meaning) {
  const auto value =
      index < site.line.fields.size() ? parse_double(site.line.fields[index]) : std::nullopt;
  if (!value) throw core::InputError(field_message(site, index, meaning, "a number"));
  return *value;
}

std::int64_t integer_field(const FieldSite& site, std::size_t index, std::string_view meaning,
                           std::int64_t low, std::int64_t high) {
  const auto value =
      index < site.line.fields.size() ? parse_integer(site.line.fields[index]) : std::nullopt;
  if (!value || *value < low || *value > high)
    throw core::InputError(
        field_message(site, index, meaning, fmt::format("an integer from {} to {}", low, high)));
  return *value;
}

std::string underscored(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '/') c = '_';
  return out;
}

std::string joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (const auto name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace novamd::io::lammps
