#pragma once
// Readers of our own for the files the topology writers produce, for their tests: a PSF file
// split at blanks (both layouts allow it) and a LAMMPS data file's header counts, box and
// sections; numbers parsed with from_chars, so that a value compares bit for bit.

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace novamd::test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

/// A double parsed from its whole text (from_chars: exactly the double the text names).
inline double number(const std::string& s) {
  double v = std::numeric_limits<double>::quiet_NaN();
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  EXPECT_TRUE(ec == std::errc() && end == s.data() + s.size()) << "not a number: " << s;
  return v;
}

/// What a PSF file holds, read back by splitting at blanks (both layouts allow it).
struct ParsedPsf {
  std::string header;
  std::vector<std::string> atom_lines;
  std::vector<std::vector<std::string>> atoms;    ///< the fields of each atom line
  std::map<std::string, std::vector<int>> terms;  ///< "NBOND" -> flat 1-based atom numbers
  std::map<std::string, int> counts;              ///< "NBOND" -> the count in its title line
  std::map<std::string, std::vector<std::size_t>> per_line;  ///< numbers on each line
};

inline ParsedPsf parse_psf(const std::string& text) {
  const auto lines = lines_of(text);
  ParsedPsf psf;
  psf.header = lines.at(0);
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const auto bang = lines[k].find('!');
    if (bang == std::string::npos) continue;
    const std::string title =
        lines[k].substr(bang + 1, lines[k].find_first_of(": ", bang) - bang - 1);
    const int count = std::stoi(lines[k].substr(0, bang));
    psf.counts[title] = count;
    if (title == "NATOM") {
      for (int a = 0; a < count; ++a) {
        psf.atom_lines.push_back(lines.at(k + 1 + a));
        psf.atoms.push_back(words_of(lines.at(k + 1 + a)));
      }
      continue;
    }
    if (title != "NBOND" && title != "NTHETA" && title != "NPHI" && title != "NIMPHI") continue;
    for (std::size_t j = k + 1; j < lines.size() && !lines[j].empty(); ++j) {
      const auto words = words_of(lines[j]);
      psf.per_line[title].push_back(words.size());
      for (const auto& w : words) psf.terms[title].push_back(std::stoi(w));
    }
  }
  return psf;
}

/// A LAMMPS data file: its header counts ("atoms", "bond types", ...), box lines and sections
/// (the words of each body line), with the hint after a section title's '#'.
struct ParsedData {
  std::map<std::string, long> counts;
  std::vector<std::vector<std::string>> box;
  std::map<std::string, std::vector<std::vector<std::string>>> sections;
  std::map<std::string, std::string> hints;
};

inline ParsedData parse_data(const std::string& text) {
  static const std::vector<std::string> kSections = {
      "Masses", "Pair Coeffs", "Bond Coeffs", "Angle Coeffs", "Dihedral Coeffs", "Improper Coeffs",
      "Atoms",  "Velocities",  "Bonds",       "Angles",       "Dihedrals",       "Impropers"};
  ParsedData data;
  std::string section;
  const auto lines = lines_of(text);
  for (std::size_t k = 1; k < lines.size(); ++k) {  // line 1 is the comment line
    const std::string& line = lines[k];
    if (line.empty()) continue;
    const std::string head = line.substr(0, line.find(" #"));
    if (std::find(kSections.begin(), kSections.end(), head) != kSections.end()) {
      section = head;
      data.sections[section];
      if (head != line) data.hints[section] = line.substr(line.find(" #") + 3);
      continue;
    }
    const auto words = words_of(line);
    if (!section.empty()) {
      data.sections[section].push_back(words);
    } else if (words.size() == 4 && words[3].find("hi") != std::string::npos) {
      data.box.push_back(words);
    } else {
      data.counts[line.substr(line.find(' ') + 1)] = std::stol(words[0]);
    }
  }
  return data;
}

}  // namespace novamd::test
