#pragma once
// The columns of one thermo row by name: what a zero-step run writes to evaluate an energy.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"

namespace novamd::test {

/// The first data row of `thermo.csv` in `dir`, by column name.
inline std::map<std::string, double> first_thermo_row(const std::filesystem::path& dir) {
  std::ifstream in(dir / "thermo.csv");
  std::string header, row;
  do std::getline(in, header);
  while (in && header.starts_with('#'));  // the units line
  std::getline(in, row);
  std::map<std::string, double> values;
  std::stringstream names(header), cells(row);
  std::string name, cell;
  while (std::getline(names, name, ',') && std::getline(cells, cell, ','))
    values[name] = std::stod(cell);
  return values;
}

/// Writes `config` as run.yaml in `dir`, runs `novamd run run.yaml <options>` and returns the
/// thermo row; a failed run is a test failure with the run's output, and an empty row.
inline std::map<std::string, double> initial_thermo_row(
    const TempDir& dir, const std::string& config, const std::string& options = "--backend cpu") {
  dir.write("run.yaml", config);
  const auto result = run_novamd("run run.yaml " + options, dir.path());
  if (result.exit_code != 0) {
    ADD_FAILURE() << "novamd exited with " << result.exit_code << ":\n" << result.output;
    return {};
  }
  return first_thermo_row(dir.path());
}

}  // namespace novamd::test
