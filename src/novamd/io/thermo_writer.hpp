#pragma once
/// @file thermo_writer.hpp
/// Thermo CSV: a `# units:` comment line (analysis/thermo_units.hpp), a header row, then one row
/// per thermo step, in the run's units (DESIGN contract): the standard columns
/// (analysis/thermo_columns.hpp), then the extra columns asked for.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "novamd/analysis/thermo.hpp"
#include "novamd/core/units.hpp"

namespace novamd::io {

class ThermoWriter {
 public:
  /// Creates (truncates) the file and writes the header; or, with `resume_after_step`, keeps an
  /// existing file's rows up to that step, drops later ones, and appends (a file that does not
  /// exist, or whose header differs, is started anew). Throws core::InputError if the file
  /// cannot be opened or cut back (with the system's reason), core::RunError if writing fails.
  ThermoWriter(const std::filesystem::path& file, const core::UnitSystem& units,
               std::vector<std::string> extra_columns = {},
               std::optional<std::int64_t> resume_after_step = std::nullopt);

  /// Appends one row and flushes, so the file is readable while the run goes on.
  /// @throws core::RunError with the system's reason (a full disk, say) if writing fails.
  void write(const analysis::ThermoState& state);

  /// The units line and the header row for these extra columns (two lines, no final newline).
  static std::string header(const std::vector<std::string>& extra_columns,
                            const core::UnitSystem& units);

 private:
  /// Rewrites the file with its header lines and the rows up to `step`; false if it has other
  /// header lines. A file of an earlier version, with the column header alone, is kept so.
  bool keep_rows_up_to(std::int64_t step, const std::string& expected_header);
  void flush();

  std::filesystem::path path_;
  std::vector<std::string> extra_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

}  // namespace novamd::io
