/// @file pair_table_file.cpp
/// Reading one section of a LAMMPS pair table file.

#include "novamd/io/pair_table_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/amber_sections.hpp"
#include "novamd/io/text_fields.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {
namespace {

/// The file's lines that hold something (not blank, not a comment), with their numbers.
struct Line {
  int number;
  std::vector<std::string_view> fields;
};

std::vector<Line> content_lines(std::string_view text) {
  std::vector<Line> lines;
  const auto all = split_lines(text);
  for (std::size_t k = 0; k < all.size(); ++k) {
    std::string_view line = all[k];
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    auto fields = split_whitespace(line);
    if (!fields.empty()) lines.push_back({static_cast<int>(k + 1), std::move(fields)});
  }
  return lines;
}

[[noreturn]] void fail(const std::filesystem::path& file, int line, std::string_view problem,
                       std::string_view expected) {
  throw core::InputError(
      fmt::format("{}:{}: {}; expected {}", file.string(), line, problem, expected));
}

std::optional<double> real_of(std::string_view field) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<long long> integer_of(std::string_view field) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return value;
}

constexpr const char* kParameters =
    "a parameter line 'N n [R rlo rhi | RSQ rlo rhi] [FPRIME fplo fphi]'";

/// The parameter line of a section into `s` (N into `rows`).
void read_parameters(const std::filesystem::path& file, const Line& line, forces::TableSection& s,
                     int& rows) {
  rows = 0;
  const auto& f = line.fields;
  for (std::size_t k = 0; k < f.size(); ++k) {
    const std::string_view word = f[k];
    const auto number = [&](std::size_t at) {
      if (at >= f.size())
        fail(file, line.number, fmt::format("{} lacks its values", word), kParameters);
      const auto v = real_of(f[at]);
      if (!v)
        fail(file, line.number, fmt::format("'{}' after {} is not a number", f[at], word),
             kParameters);
      return *v;
    };
    if (word == "N") {
      const auto n = k + 1 < f.size() ? integer_of(f[k + 1]) : std::nullopt;
      if (!n || *n < 2 || *n > 100'000'000)
        fail(file, line.number, "N is not an integer of at least 2", kParameters);
      rows = static_cast<int>(*n);
      k += 1;
    } else if (word == "R" || word == "RSQ") {
      s.spacing = word == "R" ? forces::TableSpacing::R : forces::TableSpacing::Rsq;
      s.r_lo = number(k + 1);
      s.r_hi = number(k + 2);
      if (!(s.r_lo > 0.0 && s.r_hi > s.r_lo))
        fail(file, line.number, fmt::format("{} {} {}", word, s.r_lo, s.r_hi),
             "0 < rlo < rhi after R or RSQ");
      k += 2;
    } else if (word == "FPRIME" || word == "FP") {
      s.fprime = std::array<double, 2>{number(k + 1), number(k + 2)};
      k += 2;
    } else if (word == "BITMAP") {
      fail(file, line.number, "BITMAP tables are not read",
           "R or RSQ spacing, or listed distances");
    } else {
      fail(file, line.number, fmt::format("unknown word '{}'", word), kParameters);
    }
  }
  if (rows == 0) fail(file, line.number, "the parameter line does not give N", kParameters);
}

/// Row i of the section: "index r E F".
void read_row(const std::filesystem::path& file, const Line& line, forces::TableSection& s) {
  const auto& f = line.fields;
  const char* expected = "a row 'index r energy force': an integer and three numbers";
  if (f.size() != 4) fail(file, line.number, fmt::format("found {} fields", f.size()), expected);
  if (!integer_of(f[0]))
    fail(file, line.number, fmt::format("'{}' is not an index", f[0]), expected);
  double values[3];
  for (int k = 0; k < 3; ++k) {
    const auto v = real_of(f[k + 1]);
    if (!v) fail(file, line.number, fmt::format("'{}' is not a finite number", f[k + 1]), expected);
    values[k] = *v;
  }
  s.r.push_back(values[0]);
  s.energy.push_back(values[1]);
  s.force.push_back(values[2]);
}

/// The distances as the spacing gives them (LAMMPS replaces the listed ones so), and checks of
/// listed ones.
void place_distances(const std::filesystem::path& file, const std::vector<Line>& rows,
                     forces::TableSection& s) {
  const std::size_t n = s.r.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (s.spacing == forces::TableSpacing::R) {
      s.r[i] = s.r_lo + (s.r_hi - s.r_lo) * static_cast<double>(i) / static_cast<double>(n - 1);
    } else if (s.spacing == forces::TableSpacing::Rsq) {
      s.r[i] = std::sqrt(s.r_lo * s.r_lo + (s.r_hi * s.r_hi - s.r_lo * s.r_lo) *
                                               static_cast<double>(i) / static_cast<double>(n - 1));
    } else if (i == 0 ? s.r[0] <= 0.0 : s.r[i] <= s.r[i - 1]) {
      fail(file, rows[i].number,
           fmt::format("r = {} {}", s.r[i], i == 0 ? "is not positive" : "does not increase"),
           "positive distances in increasing order (or R or RSQ on the parameter line)");
    }
  }
}

/// The keywords of the file's sections in order; `found` the index of `keyword`'s line (else
/// left as it is). Sections are skipped by their N, as LAMMPS does.
std::vector<std::string> section_keywords_and_find(const std::filesystem::path& file,
                                                   const std::vector<Line>& lines,
                                                   const std::string& keyword, std::size_t& found) {
  std::vector<std::string> keywords;
  std::size_t k = 0;
  while (k < lines.size()) {
    const Line& head = lines[k];
    if (head.fields.size() != 1)
      fail(file, head.number, fmt::format("'{}' is not a section's keyword line", head.fields[0]),
           "a line with a section's keyword alone, then its parameter line and rows");
    keywords.emplace_back(head.fields[0]);
    if (head.fields[0] == keyword) {
      if (k + 1 >= lines.size())
        fail(file, head.number, fmt::format("section {} ends at its keyword", keyword),
             kParameters);
      found = k;
      return keywords;
    }
    if (k + 1 >= lines.size()) break;
    forces::TableSection skipped;
    int rows = 0;
    read_parameters(file, lines[k + 1], skipped, rows);
    k += 2 + static_cast<std::size_t>(rows);
  }
  return keywords;
}

}  // namespace

forces::TableSection read_pair_table_section(const std::filesystem::path& file,
                                             const std::string& keyword) {
  const std::string text = read_text_file(file, "a LAMMPS pair table file");
  const std::vector<Line> lines = content_lines(text);
  std::size_t at = lines.size();
  const auto keywords = section_keywords_and_find(file, lines, keyword, at);
  if (at == lines.size()) {
    NameList names(keywords.begin(), keywords.end());
    const auto near = nearest_name(keyword, names);
    throw core::InputError(
        fmt::format("{}: no section '{}'; expected one of the file's sections: {}{}", file.string(),
                    keyword, names.empty() ? "(none)" : join_names(names),
                    near ? fmt::format(" (did you mean '{}'?)", *near) : ""));
  }
  forces::TableSection s;
  s.file = file.string();
  s.keyword = keyword;
  s.line = lines[at].number;
  int rows = 0;
  read_parameters(file, lines[at + 1], s, rows);
  const std::size_t first = at + 2;
  if (lines.size() < first + rows) {
    const int last = lines.size() > at + 1 ? lines.back().number : lines[at + 1].number;
    fail(file, last,
         fmt::format("section {} ends after {} of its {} rows", keyword,
                     lines.size() > first ? lines.size() - first : 0, rows),
         "N rows 'index r energy force'");
  }
  const std::vector<Line> section(lines.begin() + first, lines.begin() + first + rows);
  for (const Line& line : section) read_row(file, line, s);
  place_distances(file, section, s);
  return s;
}

}  // namespace novamd::io
