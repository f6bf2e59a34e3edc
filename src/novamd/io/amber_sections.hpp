#pragma once
/// @file amber_sections.hpp
/// The section layout of an AMBER parameter-topology file (prmtop, AMBER 7 and later):
///
///     %VERSION  VERSION_STAMP = V0001.000  DATE = ...
///     %FLAG POINTERS
///     %FORMAT(10I8)
///         2605      10    1734 ...
///     %FLAG ATOM_NAME
///     %COMMENT any text
///     %FORMAT(20a4)
///     N   H1  H2  ...
///
/// Each section is named by its %FLAG line and read by its Fortran format: `count` fields of
/// `width` characters on each line (10I8: ten integers of 8 characters; 5E16.8: five reals of 16;
/// 20a4: twenty strings of 4), the last line of a section possibly shorter. Fields are cut by
/// width, not by blanks: "    2605      10" is two fields, and so is "-1.5E+02-3.0E+00" in a
/// format of width 8. %COMMENT lines are skipped wherever they stand. Source: the AMBER file
/// format page (ambermd.org/prmtop.pdf, "AMBER parameter/topology file specification").

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace novamd::io {

/// A Fortran edit descriptor of a %FORMAT line: (10I8) is count 10, kind 'I', width 8.
struct FortranFormat {
  int count = 1;     ///< fields per line
  char kind = 'I';   ///< 'a' (text), 'I' (integer) or 'E' (real: E, F, D or G)
  int width = 8;     ///< characters per field
  std::string text;  ///< as written between the parentheses, for messages
};

/// One %FLAG section: its format and where its data lines are.
struct PrmtopSection {
  std::string flag;
  FortranFormat format;
  std::int64_t flag_line = 0;  ///< line number of the %FLAG line (1-based)
  /// The data lines (no %COMMENT lines), with their 1-based line numbers.
  std::vector<std::string_view> lines;
  std::vector<std::int64_t> line_numbers;
};

/// The sections of a prmtop, read once; values are parsed on request, checked for their count
/// and syntax. Every error is a core::InputError "<file>:<line>: ...".
class PrmtopSections {
 public:
  /// Reads `file` and splits it into sections. Throws for an unreadable or binary file, a file
  /// without %FLAG sections (the pre-AMBER 7 format), a %FLAG without %FORMAT, a format NovaMD
  /// cannot read, a section given twice, or a data line with more fields than its format.
  explicit PrmtopSections(const std::filesystem::path& file);
  // The sections view the text held here: neither copied nor moved.
  PrmtopSections(const PrmtopSections&) = delete;
  PrmtopSections& operator=(const PrmtopSections&) = delete;

  const std::filesystem::path& file() const { return file_; }
  bool has(std::string_view flag) const { return sections_.find(flag) != sections_.end(); }
  /// The section named `flag`; throws "no %FLAG <flag> section" when it is absent.
  const PrmtopSection& section(std::string_view flag) const;

  /// The integers of section `flag`; throws unless there are exactly `expected` of them
  /// (`why` says where that number comes from, e.g. "NATOM in POINTERS") or a field is not an
  /// integer.
  std::vector<std::int64_t> integers(std::string_view flag, std::int64_t expected,
                                     std::string_view why) const;
  /// The reals of section `flag` (Fortran E, F, D or G fields), as `integers`.
  std::vector<double> reals(std::string_view flag, std::int64_t expected,
                            std::string_view why) const;
  /// The strings of section `flag` with trailing blanks removed, as `integers`.
  std::vector<std::string> strings(std::string_view flag, std::int64_t expected,
                                   std::string_view why) const;
  /// All the integers of section `flag`, however many there are (at least `minimum`).
  std::vector<std::int64_t> all_integers(std::string_view flag, std::int64_t minimum) const;

  /// "<file>:<line>" of value `index` (0-based) of `section`, for messages.
  std::string where_value(const PrmtopSection& section, std::int64_t index) const;
  /// "<file>:<line>" of the %FLAG line of `section`.
  std::string where_flag(const PrmtopSection& section) const;

 private:
  std::filesystem::path file_;
  std::string text_;
  std::map<std::string, PrmtopSection, std::less<>> sections_;
};

/// Parses the parenthesised part of a %FORMAT line ("10I8", "5E16.8", "20a4", "1a80"); nothing
/// when it is not a single repeat count, letter and width.
std::optional<FortranFormat> parse_fortran_format(std::string_view text);

/// The fixed-width fields of one line: ceil(length / width) fields after trailing blanks are
/// removed, each with its blanks trimmed (a blank field inside the line is an empty string).
std::vector<std::string_view> fixed_width_fields(std::string_view line, int width);

/// A finite real filling the whole field (Fortran D exponents accepted), or nothing.
std::optional<double> parse_fortran_real(std::string_view field);
/// An integer filling the whole field, or nothing.
std::optional<std::int64_t> parse_fortran_integer(std::string_view field);

/// Reads a whole text file; throws core::InputError naming `file` and `what` it should be when
/// it cannot be opened, is a folder, or is binary (NetCDF or HDF5 signature, or NUL bytes).
std::string read_text_file(const std::filesystem::path& file, std::string_view what);

}  // namespace novamd::io
