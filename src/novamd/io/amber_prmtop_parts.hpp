#pragma once
/// @file amber_prmtop_parts.hpp
/// The pieces of the AMBER reader (amber_prmtop.hpp), shared by its two units: the POINTERS
/// counts and the reading of the bonded terms, 1-4 pairs and exclusions
/// (amber_prmtop_terms.cpp).

#include <cstdint>
#include <string>

#include "novamd/io/amber_sections.hpp"
#include "novamd/io/topology_file.hpp"

namespace novamd::io::amber {

/// The counts of %FLAG POINTERS that the reader uses (AMBER's names; positions 1..31 of the
/// section in the file format page).
struct Pointers {
  std::int64_t natom = 0;     ///< NATOM: atoms
  std::int64_t ntypes = 0;    ///< NTYPES: Lennard-Jones type indices
  std::int64_t nbonh = 0;     ///< NBONH: bonds with hydrogen
  std::int64_t ntheth = 0;    ///< NTHETH: angles with hydrogen
  std::int64_t nphih = 0;     ///< NPHIH: dihedrals with hydrogen
  std::int64_t nnb = 0;       ///< NNB: length of EXCLUDED_ATOMS_LIST
  std::int64_t nres = 0;      ///< NRES: residues
  std::int64_t nbona = 0;     ///< NBONA: bonds without hydrogen
  std::int64_t ntheta = 0;    ///< NTHETA: angles without hydrogen
  std::int64_t nphia = 0;     ///< NPHIA: dihedrals without hydrogen
  std::int64_t numbnd = 0;    ///< NUMBND: bond types
  std::int64_t numang = 0;    ///< NUMANG: angle types
  std::int64_t nptra = 0;     ///< NPTRA: dihedral types
  std::int64_t nphb = 0;      ///< NPHB: 10-12 hydrogen-bond pair types
  std::int64_t ifpert = 0;    ///< IFPERT: 1 when the file holds perturbation information
  std::int64_t ifbox = 0;     ///< IFBOX: 0 no box, 1 rectangular, 2 truncated octahedron
  std::int64_t ifcap = 0;     ///< IFCAP: 1 when the system is in a water cap
  std::int64_t numextra = 0;  ///< NUMEXTRA: extra points (0 when the file has no 31st value)
};

/// The POINTERS section, checked: every count at least 0 and NATOM at least 1.
Pointers read_pointers(const PrmtopSections& sections);

/// Fills `out.topology` (bonds, angles, dihedrals, impropers with 0-based ids and types),
/// `out.bond`, `out.angle`, `out.dihedral`, `out.improper`, `out.scaled_pairs` and
/// `out.extra_exclusions` from the prmtop. `out.topology` must be empty, for `p.natom` atoms.
void read_terms(const PrmtopSections& sections, const Pointers& p, TopologyFile& out);

}  // namespace novamd::io::amber
