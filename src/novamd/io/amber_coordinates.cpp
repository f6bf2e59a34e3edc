/// @file amber_coordinates.cpp
/// AMBER ASCII inpcrd/rst7 reader (see amber_coordinates.hpp).

#include "novamd/io/amber_coordinates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/amber_sections.hpp"
#include "novamd/io/text_fields.hpp"

namespace novamd::io {
namespace {

constexpr int kFieldWidth = 12;    // 6F12.7
constexpr int kFieldsPerLine = 6;  // two atoms a line

/// Box angles may differ from 90 by the rounding of a 12.7 field (5e-8) and no more.
constexpr double kRightAngleTolerance = 1e-6;

/// The lines of `text`; blank lines at the end carry nothing (some writers end with one).
std::vector<std::string_view> content_lines(std::string_view text) {
  std::vector<std::string_view> lines = split_lines(text);
  while (!lines.empty() && lines.back().find_first_not_of(" \t") == std::string_view::npos)
    lines.pop_back();
  return lines;
}

class CoordinateLines {
 public:
  CoordinateLines(const std::filesystem::path& file, std::vector<std::string_view> lines)
      : file_(file), lines_(std::move(lines)) {}

  std::size_t size() const { return lines_.size(); }
  std::string_view line(std::size_t k) const { return lines_[k]; }
  std::size_t field_count(std::size_t k) const {
    return fixed_width_fields(lines_[k], kFieldWidth).size();
  }
  std::string where(std::size_t k) const { return fmt::format("{}:{}", file_.string(), k + 1); }

  /// The numbers of line k (0-based), which must hold exactly `expected` fields of 12.
  std::vector<double> numbers(std::size_t k, std::size_t expected, const char* what) const {
    const auto fields = fixed_width_fields(lines_[k], kFieldWidth);
    if (fields.size() != expected)
      throw core::InputError(
          fmt::format("{}: {} line holds {} fields of {} characters; expected {} (format 6F12.7)",
                      where(k), what, fields.size(), kFieldWidth, expected));
    std::vector<double> values;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const auto v = parse_fortran_real(fields[f]);
      if (!v)
        throw core::InputError(fmt::format("{}: {} field {} is '{}'; expected a finite number",
                                           where(k), what, f + 1, core::excerpt(fields[f])));
      values.push_back(*v);
    }
    return values;
  }

  /// 3 n numbers from the lines starting at `first`, six a line.
  std::vector<core::Vec3<double>> vectors(std::size_t first, std::int64_t n,
                                          const char* what) const {
    const auto total = static_cast<std::size_t>(3 * n);
    std::vector<double> flat;
    flat.reserve(total);
    for (std::size_t k = first; flat.size() < total; ++k) {
      const std::size_t expected = std::min<std::size_t>(kFieldsPerLine, total - flat.size());
      const auto values = numbers(k, expected, what);
      flat.insert(flat.end(), values.begin(), values.end());
    }
    std::vector<core::Vec3<double>> out(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
    return out;
  }

 private:
  std::filesystem::path file_;
  std::vector<std::string_view> lines_;
};

std::int64_t read_atom_count(const CoordinateLines& lines, std::string_view line) {
  const auto tokens = split_whitespace(line);
  const auto count = tokens.empty() ? std::nullopt : parse_fortran_integer(tokens[0]);
  if (!count || *count < 1 || *count > std::numeric_limits<std::int32_t>::max() ||
      tokens.size() > 2 || (tokens.size() == 2 && !parse_fortran_real(tokens[1])))
    throw core::InputError(fmt::format(
        "{}: '{}' is not an atom count; expected NATOM (a positive integer) and optionally the "
        "time",
        lines.where(1), core::excerpt(line)));
  return *count;
}

core::Vec3<double> read_box(const CoordinateLines& lines, std::size_t k) {
  // a b c alpha beta gamma, or a b c alone (right angles)
  const auto box = lines.numbers(k, lines.field_count(k) == 3 ? 3 : 6, "box");
  for (int d = 0; d < 3; ++d)
    if (!(box[d] > 0.0))
      throw core::InputError(fmt::format("{}: box edge {} is {}; expected a positive length",
                                         lines.where(k), "abc"[d], box[d]));
  for (std::size_t d = 3; d < box.size(); ++d)
    if (std::abs(box[d] - 90.0) > kRightAngleTolerance)
      throw core::InputError(fmt::format(
          "{}: box angle {} is {} degrees; NovaMD supports orthorhombic boxes only: expected "
          "alpha = beta = gamma = 90",
          lines.where(k),
          d == 3   ? "alpha"
          : d == 4 ? "beta"
                   : "gamma",
          box[d]));
  return {box[0], box[1], box[2]};
}

}  // namespace

AmberCoordinates read_amber_coordinates(const std::filesystem::path& file) {
  const std::string text = read_text_file(file, "an ASCII AMBER coordinate file (inpcrd or rst7)");
  const CoordinateLines lines(file, content_lines(text));
  if (lines.size() < 2)
    throw core::InputError(fmt::format(
        "{}: the file has {} line(s); expected a title line, the atom count and the coordinates",
        lines.where(lines.size()), lines.size()));
  const std::int64_t n = read_atom_count(lines, lines.line(1));
  const auto per_block = static_cast<std::size_t>((3 * n + kFieldsPerLine - 1) / kFieldsPerLine);
  const std::size_t first = 2;
  if (lines.size() < first + per_block)
    throw core::InputError(fmt::format(
        "{}: the file ends after {} coordinate line(s); expected {} lines for {} atoms (line 2)",
        lines.where(lines.size()), lines.size() - first, per_block, n));
  AmberCoordinates out;
  out.position = lines.vectors(first, n, "coordinate");
  const std::size_t rest = lines.size() - first - per_block;
  const std::size_t after = first + per_block;
  if (rest == 1) {
    out.box_edges = read_box(lines, after);
  } else if (rest == per_block || rest == per_block + 1) {
    auto v = lines.vectors(after, n, "velocity");
    for (auto& x : v)
      x = {x.x * kAmberVelocityToAngstromPerFs, x.y * kAmberVelocityToAngstromPerFs,
           x.z * kAmberVelocityToAngstromPerFs};
    out.velocity = std::move(v);
    if (rest == per_block + 1) out.box_edges = read_box(lines, after + per_block);
  } else if (rest != 0) {
    throw core::InputError(fmt::format(
        "{}: {} line(s) follow the coordinates of {} atoms; expected none, a box line, {} "
        "velocity lines, or {} velocity lines and a box line",
        lines.where(after), rest, n, per_block, per_block));
  }
  return out;
}

}  // namespace novamd::io
