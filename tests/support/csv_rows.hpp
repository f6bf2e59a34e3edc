#pragma once
// Reading the CSV files a run writes, line by line and row by row.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace novamd::test {

/// The lines of `file` but its comment lines (those starting with '#', as the thermo CSV's
/// `# units:` line), as CSV readers take them.
inline std::vector<std::string> read_lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (line.empty() || line[0] != '#') lines.push_back(line);
  return lines;
}

/// The numbers of one CSV row (`nan` included).
inline std::vector<double> numbers_of(const std::string& row) {
  std::vector<double> values;
  std::stringstream in(row);
  for (std::string cell; std::getline(in, cell, ',');) values.push_back(std::stod(cell));
  return values;
}

}  // namespace novamd::test
