/// @file psf_writer.cpp
/// X-PLOR PSF writer (see psf_writer.hpp for the layout and its sources).

#include "novamd/io/psf_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"

namespace novamd::io {
namespace {

constexpr std::size_t kStandardLineLength = 70;        ///< I8 + 5 x (1X,A4) + 1X + 2 x G14.6 + I8
constexpr std::size_t kLongestName = 7;                ///< VMD's psfplugin reads names with %7s
constexpr std::int64_t kStandardMaxAtoms = 9'999'999;  ///< numbers of 7 digits in " %7d"
constexpr const char* kSegment = "SYS";

/// Throws unless `name` is 1 to 7 printable ASCII characters without blanks.
void check_name(std::string_view name, std::string_view what, const std::filesystem::path& file) {
  const bool printable = std::all_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7f;
  });
  if (name.empty() || name.size() > kLongestName || !printable)
    throw core::InputError(
        fmt::format("{}: {} '{}' cannot be written to a PSF file; expected 1 to {} printable ASCII "
                    "characters without blanks (VMD reads names of at most {})",
                    file.string(), what, core::excerpt(name), kLongestName, kLongestName));
}

/// The names and residue numbers of every atom, by id, checked.
struct AtomLabels {
  std::vector<std::string> residue_number, residue_name, atom_name, atom_type;
};

AtomLabels atom_labels(const TopologyOutput& topology, const OrderedAtoms& atoms,
                       const core::ParticleData& particles, const std::filesystem::path& file) {
  for (int t = 0; t < topology.species.size(); ++t)
    check_name(topology.species[t].name, fmt::format("the name of species {} (atom type)", t),
               file);
  const std::size_t n = atoms.order.size();
  AtomLabels labels;
  for (std::size_t id = 0; id < n; ++id) {
    const std::string& species = topology.species[particles.type[atoms.order[id]]].name;
    std::string resid = std::to_string(atoms.molecule[id]);
    if (resid.size() > kLongestName)
      throw core::InputError(fmt::format(
          "{}: particle id {} is in molecule {}, whose number has more than {} characters; "
          "expected a residue number from -999999 to 9999999 (VMD reads at most {} characters)",
          file.string(), id, atoms.molecule[id], kLongestName, kLongestName));
    std::string residue =
        topology.residue_name.empty() ? kDefaultResidueName : topology.residue_name[id];
    std::string name = topology.atom_name.empty() ? species : topology.atom_name[id];
    check_name(residue, fmt::format("the residue name of particle id {}", id), file);
    check_name(name, fmt::format("the atom name of particle id {}", id), file);
    labels.residue_number.push_back(std::move(resid));
    labels.residue_name.push_back(std::move(residue));
    labels.atom_name.push_back(std::move(name));
    labels.atom_type.push_back(species);
  }
  return labels;
}

/// The atom lines in CHARMM's X-PLOR columns; wider fields overflow their columns, keeping a
/// blank before each field.
std::vector<std::string> atom_lines(const OrderedAtoms& atoms, const AtomLabels& labels) {
  std::vector<std::string> lines;
  lines.reserve(atoms.order.size());
  for (std::size_t id = 0; id < atoms.order.size(); ++id)
    lines.push_back(fmt::format("{:>8} {:<4} {:<4} {:<4} {:<4} {:<4} {:>14.6f} {:>13.6f}{:>8}",
                                id + 1, kSegment, labels.residue_number[id],
                                labels.residue_name[id], labels.atom_name[id], labels.atom_type[id],
                                atoms.charge[id], atoms.mass[id], 0));
  return lines;
}

PsfLayout layout_of(const std::vector<std::string>& lines) {
  const bool fits = static_cast<std::int64_t>(lines.size()) <= kStandardMaxAtoms &&
                    std::all_of(lines.begin(), lines.end(), [](const std::string& line) {
                      return line.size() == kStandardLineLength;
                    });
  return fits ? PsfLayout::Standard : PsfLayout::Whitespace;
}

/// Width of an atom-number field in the term sections: 8 (" %7d"), or one blank more than the
/// digits of the largest number.
int index_width(PsfLayout layout, std::size_t atoms) {
  if (layout == PsfLayout::Standard) return 8;
  return std::max(8, static_cast<int>(std::to_string(atoms).size()) + 1);
}

/// One term section: its count and title, then `per_line` terms per line, atom numbers 1-based.
template <int K>
void put_terms(fmt::memory_buffer& out, const core::TermList<K>& terms, std::string_view title,
               int per_line, int width) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{:>8} !{}\n", terms.size(), title);
  for (std::size_t t = 0; t < terms.size(); ++t) {
    for (int a = 0; a < K; ++a) fmt::format_to(it, "{:>{}}", terms.ids[K * t + a] + 1, width);
    if ((t + 1) % per_line == 0 || t + 1 == terms.size()) out.push_back('\n');
  }
  out.push_back('\n');
}

/// The sections CHARMM expects after the impropers: no donors, no acceptors, no explicit
/// non-bonded exclusions (NNB 0 with its N zeros of IBLO) and one group, as psfgen writes them.
void put_closing_sections(fmt::memory_buffer& out, std::size_t atoms, int width) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{:>8} !NDON: donors\n\n{:>8} !NACC: acceptors\n\n{:>8} !NNB\n", 0, 0, 0);
  for (std::size_t k = 0; k < atoms; ++k) {
    fmt::format_to(it, "{:>{}}", 0, width);
    if ((k + 1) % 8 == 0 || k + 1 == atoms) out.push_back('\n');
  }
  fmt::format_to(it, "\n{:>8}{:>8} !NGRP\n{:>{}}{:>{}}{:>{}}\n\n", 1, 0, 0, width, 0, width, 0,
                 width);
}

}  // namespace

PsfLayout write_psf(const std::filesystem::path& file, const TopologyOutput& topology,
                    const core::ParticleData& particles) {
  const OrderedAtoms atoms = ordered_atoms(topology, particles, file);
  const AtomLabels labels = atom_labels(topology, atoms, particles, file);
  const std::vector<std::string> lines = atom_lines(atoms, labels);
  const PsfLayout layout = layout_of(lines);
  const int width = index_width(layout, lines.size());
  const core::Topology& terms = topology.topology;

  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}\n\n{:>8} !NTITLE\n", layout == PsfLayout::Standard ? "PSF" : "PSF NAMD",
                 2);
  fmt::format_to(it,
                 " REMARKS NovaMD topology: {} atoms, {} bonds, {} angles, {} dihedrals, {} "
                 "impropers\n",
                 lines.size(), terms.bonds().size(), terms.angles().size(),
                 terms.dihedrals().size(), terms.impropers().size());
  fmt::format_to(it, " REMARKS atom type = species; residue number = molecule\n\n");
  fmt::format_to(it, "{:>8} !NATOM\n", lines.size());
  for (const std::string& line : lines) fmt::format_to(it, "{}\n", line);
  out.push_back('\n');
  put_terms(out, terms.bonds(), "NBOND: bonds", 4, width);
  put_terms(out, terms.angles(), "NTHETA: angles", 3, width);
  put_terms(out, terms.dihedrals(), "NPHI: dihedrals", 2, width);
  put_terms(out, terms.impropers(), "NIMPHI: impropers", 2, width);
  put_closing_sections(out, lines.size(), width);
  write_text_atomically(file, fmt::to_string(out));
  return layout;
}

}  // namespace novamd::io
