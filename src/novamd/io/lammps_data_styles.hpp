#pragma once
/// @file lammps_data_styles.hpp
/// The styles of a LAMMPS data file's sections (lammps_data.hpp): the names of its sections and
/// counts per kind of term, the columns of each atom style, and which style a section is read in,
/// from the user's `system.topology.styles` and the comment on the section's title line.

#include <optional>
#include <string>
#include <string_view>

#include "novamd/io/lammps_data_text.hpp"
#include "novamd/io/topology_file.hpp"

namespace novamd::io::lammps {

/// "bonds", "angles", ...: what the header counts.
std::string plural(TermKind kind);
/// "Bonds", "Angles", ...: the section of the terms.
std::string terms_section(TermKind kind);
/// "Bond Coeffs", ...: the section of their coefficients.
std::string coeffs_section(TermKind kind);
/// The section title of a title line: its fields, one blank between them.
std::string title_name(const DataLine& title);

/// The columns of an Atoms line in one atom style (0-based; -1 where the style has none).
struct AtomColumns {
  std::string_view style;
  int count, molecule, type, charge, x;
};

/// NovaMD's pair style family ("lj_charmm", "lj_cut") of the Pair Coeffs or PairIJ Coeffs section
/// titled `title`, from its comment and `given` (`styles.pair`).
std::string pair_style(const DataReader& reader, const DataLine& title,
                       const std::optional<std::string>& given);

/// The style of `kind`'s Coeffs section titled `title`, from its comment and `given`; one that
/// io::coefficient_count knows.
std::string term_style(const DataReader& reader, TermKind kind, const DataLine& title,
                       const std::optional<std::string>& given);

/// The atom style of the Atoms section titled `title`: from its comment, `given`
/// (`styles.atom`), or the field count of its first line `first` where only one style fits.
const AtomColumns& atom_style(const DataReader& reader, const DataLine& title,
                              const DataLine& first, const std::optional<std::string>& given);

}  // namespace novamd::io::lammps
