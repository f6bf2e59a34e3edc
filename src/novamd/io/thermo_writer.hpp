#pragma once
/// @file thermo_writer.hpp
/// Thermo CSV: a header row, then one row per thermo step, in the run's units (DESIGN contract).

#include <cstdio>
#include <filesystem>
#include <memory>

#include "novamd/analysis/thermo.hpp"

namespace novamd::io {

class ThermoWriter {
 public:
  /// Creates (truncates) the file and writes the header. Throws core::RunError if it cannot.
  explicit ThermoWriter(const std::filesystem::path& file);

  /// Appends one row and flushes, so the file is readable while the run goes on.
  void write(const analysis::ThermoState& state);

  static constexpr const char* kHeader =
      "step,time,temperature,kinetic_energy,potential_energy,total_energy,pressure";

 private:
  std::filesystem::path path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

}  // namespace novamd::io
