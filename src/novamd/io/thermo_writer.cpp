#include "novamd/io/thermo_writer.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "novamd/analysis/thermo_columns.hpp"
#include "novamd/analysis/thermo_units.hpp"
#include "novamd/core/error.hpp"

namespace novamd::io {

std::string ThermoWriter::header(const std::vector<std::string>& extra_columns,
                                 const core::UnitSystem& units) {
  std::vector<std::string> columns = analysis::kStandardThermoColumns;
  columns.insert(columns.end(), extra_columns.begin(), extra_columns.end());
  std::string names;
  for (const auto& column : columns) names += (names.empty() ? "" : ",") + column;
  return analysis::thermo_units_line(columns, units) + "\n" + names;
}

ThermoWriter::ThermoWriter(const std::filesystem::path& file, const core::UnitSystem& units,
                           std::vector<std::string> extra_columns,
                           std::optional<std::int64_t> resume_after_step)
    : path_(file), extra_(std::move(extra_columns)), file_(nullptr, &std::fclose) {
  const std::string head = header(extra_, units);
  const bool resumed = resume_after_step && keep_rows_up_to(*resume_after_step, head);
  file_.reset(std::fopen(file.c_str(), resumed ? "a" : "w"));
  if (!file_)
    throw core::InputError(fmt::format("{}: cannot open the thermo file for writing: {}",
                                       file.string(), std::strerror(errno)));
  if (!resumed) fmt::print(file_.get(), "{}\n", head);
  flush();
}

bool ThermoWriter::keep_rows_up_to(std::int64_t step, const std::string& expected_header) {
  std::ifstream in(path_);
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  // A file written before the units line: its column header alone, kept as it is.
  const std::string names = expected_header.substr(expected_header.find('\n') + 1);
  std::ostringstream kept;
  if (line == names) {
    kept << line << '\n';
  } else {
    std::string header;
    if (!std::getline(in, header) || line + "\n" + header != expected_header) return false;
    kept << line << '\n' << header << '\n';
  }
  while (std::getline(in, line)) {
    std::int64_t row_step = 0;
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), row_step);
    if (error != std::errc() || end == line.data() + line.size() || *end != ',' || row_step > step)
      break;
    kept << line << '\n';
  }
  in.close();
  std::ofstream out(path_, std::ios::trunc);
  out << kept.str();
  if (!out)
    throw core::InputError(fmt::format("{}: cannot cut the thermo file back to step {}: {}",
                                       path_.string(), step, std::strerror(errno)));
  return true;
}

void ThermoWriter::write(const analysis::ThermoState& s) {
  // 17 significant digits: doubles round-trip, so energy drift can be measured from the file. The
  // time in the shortest text that reads back as the same double (0.55, not 0.55000000000000004).
  std::string row = fmt::format("{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}", s.step,
                                s.time, s.temperature, s.kinetic_energy, s.potential_energy,
                                s.total_energy, s.pressure, s.conserved_energy);
  for (const auto& column : extra_)
    row += fmt::format(",{:.17g}", analysis::thermo_value(s, column));
  fmt::print(file_.get(), "{}\n", row);
  flush();
}

void ThermoWriter::flush() {
  if (std::fflush(file_.get()) != 0 || std::ferror(file_.get()))
    throw core::RunError(fmt::format("{}: writing the thermo file failed: {}", path_.string(),
                                     std::strerror(errno)));
}

}  // namespace novamd::io
