#pragma once
/// @file lammps_data_text.hpp
/// The text layer of the LAMMPS data-file reader (lammps_data.hpp): lines split into fields and
/// their comment, numbered for messages; fields read as numbers with messages that name the file,
/// the line, the section and what the field should be; section counts checked against the size of
/// the file before anything is allocated for them.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace novamd::io::lammps {

/// Whether `field` starts as a number does (a digit, a sign or a point), not as a word.
bool starts_number(std::string_view field);

/// One line of a data file: its fields (whitespace-separated, the comment removed) and its
/// comment (the text after the first '#', trimmed).
struct DataLine {
  std::int64_t number = 0;  ///< 1-based line number in the file
  std::string text;         ///< the whole line, for messages
  std::vector<std::string> fields;
  std::string comment;

  /// Whether the line starts with a number (a data line), not a word (a title or keyword).
  bool is_data() const;
  /// The first word of the comment ("" without one): a style hint or a type name.
  std::string comment_word() const;
};

/// Reads a data file line by line, skipping blank and comment-only lines, with one line of
/// look-ahead (`unread`).
class DataReader {
 public:
  /// Opens `file`; throws core::InputError naming it when it is a folder or cannot be read.
  explicit DataReader(const std::filesystem::path& file);

  /// The next line with at least one field; false at the end of the file.
  bool next(DataLine& line);
  /// Makes `line` the one the next call of `next` returns.
  void unread(DataLine line);
  /// The first line of the file (LAMMPS skips it: a title); false for an empty file.
  bool title(DataLine& line);

  /// "<file>:<line>" for messages.
  std::string where(std::int64_t line) const;
  /// "<file>:<line>" of the line after the last one read (for "the file ends" messages).
  std::string where_end() const;
  const std::filesystem::path& file() const { return file_; }

  /// Whether `count` lines of at least `min_fields` fields fit in the rest of the file (each field
  /// takes a character and a separator); nothing where the size is not known (a pipe).
  std::optional<bool> fits(std::int64_t count, int min_fields);

 private:
  bool read_raw(DataLine& line);

  std::filesystem::path file_;
  std::ifstream in_;
  std::int64_t number_ = 0;
  std::optional<DataLine> pending_;
};

/// Where a field is read, for messages: the reader, the line and what the line is ("Atoms line",
/// "header line").
struct FieldSite {
  const DataReader& reader;
  const DataLine& line;
  std::string what;
};

/// Field `index` (0-based) as a finite number; `meaning` names it in the message ("the mass").
double number_field(const FieldSite& site, std::size_t index, std::string_view meaning);
/// Field `index` as an integer in [low, high].
std::int64_t integer_field(const FieldSite& site, std::size_t index, std::string_view meaning,
                           std::int64_t low, std::int64_t high);

/// `s` with every '/' written '_' (LAMMPS's style names as NovaMD's config writes them).
std::string underscored(std::string_view s);

/// "a, b, c" for messages.
std::string joined(const std::vector<std::string_view>& names);

}  // namespace novamd::io::lammps
