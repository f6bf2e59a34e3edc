#pragma once
/// @file lammps_data.hpp
/// The LAMMPS data-file reader (the format of LAMMPS's read_data command,
/// https://docs.lammps.org/read_data.html): the header (counts, types, an orthorhombic box),
/// then the sections Masses, Pair Coeffs, PairIJ Coeffs, Bond/Angle/Dihedral/Improper Coeffs,
/// Atoms, Velocities, Bonds, Angles, Dihedrals and Impropers, in any order (Atoms before
/// Velocities and the terms, as LAMMPS requires). It fills an io::TopologyFile and does no
/// physics: coefficients are kept as written, in the order of the style that names them.
///
/// Style names: LAMMPS writes them with '/' (lj/charmm/coul/long); NovaMD's config writes them
/// with '_' (lj_charmm_coul_long). Either is accepted wherever a style is named. A section's style
/// comes from the user (`system.topology.styles`) or from the comment LAMMPS's write_data puts on
/// its title line (`Bond Coeffs # harmonic`, `Atoms # full`); where both are given they must agree.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/io/topology_file.hpp"

namespace novamd::io {

/// The styles the user states for a data file (the config key `system.topology.styles`), each
/// absent where not given: then the section's style comment decides.
struct LammpsDataStyles {
  std::optional<std::string> atom;  ///< full | molecular | charge | atomic (`styles.atom`)
  std::optional<std::string> pair;  ///< lj_charmm, lj_cut, or a LAMMPS name of either family
  std::optional<std::string> bond, angle, dihedral, improper;  ///< see io::coefficient_count
};

/// The atom styles the reader knows, with the columns of their Atoms lines (each may be followed
/// by three integer image flags):
///
/// | style | columns |
/// | --- | --- |
/// | full | id molecule type q x y z |
/// | molecular | id molecule type x y z |
/// | charge | id type q x y z |
/// | atomic | id type x y z |
std::vector<std::string_view> known_atom_styles();

/// NovaMD's name of a LAMMPS pair style (with '/' or '_'): "lj_charmm" for the lj/charmm family
/// (lj/charmm/coul/charmm, lj/charmm/coul/long, lj/charmmfsw/coul/charmmfsh, ...), "lj_cut" for
/// lj/cut and its variants (lj/cut/coul/cut, lj/cut/coul/long, ...); nothing for another style.
std::optional<std::string> pair_style_family(std::string_view name);

/// Reads a LAMMPS data file.
///
/// - Atoms are ordered by their id: the atom with the smallest id is index 0 (LAMMPS ids are
///   positive and unique, in any order in the file); terms and velocities name atoms by file id
///   and are mapped to these indices. Types become 0-based.
/// - The Atoms section's style comes from its comment (`Atoms # full`), else `styles.atom`, else
///   from its column count where that is unambiguous (5 or 8: atomic, 7 or 10: full).
/// - Masses lines may end with a comment `# name`: the type's name; else the type number.
/// - Pair Coeffs hold epsilon sigma, or epsilon sigma epsilon14 sigma14 (lj_charmm); PairIJ
///   Coeffs the same after two types.
/// - Each Coeffs section of a bonded kind holds, per type, io::coefficient_count numbers of its
///   style. A kind with terms needs its Coeffs section.
///
/// @throws core::InputError "<file>:<line>: ... expected ..." for an unreadable file, a header line
///   it does not know, a tilted (triclinic) box, a missing box, a count that disagrees with its
///   section (too few or too many lines) or that the file is too small to hold (checked before
///   anything is allocated), a truncated file, an unknown or repeated section, a section before
///   Atoms that needs it, a non-numeric or out-of-range field, a duplicate atom id or type line, a
///   term or velocity naming an atom that does not exist, a type out of range, an unknown style
///   (the known ones listed), a style comment that disagrees with `styles`, a Coeffs section
///   without a style (naming the key `system.topology.styles.<kind>`), a missing Masses or Atoms
///   section, or terms without their Coeffs section. File content quoted in a message is escaped
///   and cut (core::excerpt).
TopologyFile read_lammps_data(const std::filesystem::path& file, const LammpsDataStyles& styles);

}  // namespace novamd::io
