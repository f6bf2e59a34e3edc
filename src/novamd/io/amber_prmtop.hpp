#pragma once
/// @file amber_prmtop.hpp
/// The AMBER reader: a parameter-topology file (prmtop, AMBER 7 and later; layout in
/// amber_sections.hpp) and its ASCII coordinates (inpcrd/rst7; amber_coordinates.hpp), into an
/// io::TopologyFile. Source for every section: the AMBER file format page
/// (ambermd.org/prmtop.pdf, "AMBER parameter/topology file specification"); the meaning of the
/// energy terms: W. D. Cornell et al., J. Am. Chem. Soc. 117, 5179 (1995), eq. 1, and the AMBER
/// reference manual (sander's force field).
///
/// What the TopologyFile receives (numbers in `real` units):
/// - Atoms in file order: charge (CHARGE / 18.2223), mass (MASS), atom_name (ATOM_NAME),
///   residue_name (RESIDUE_LABEL over RESIDUE_POINTER), molecule (1-based index in
///   ATOMS_PER_MOLECULE when the file has it, else 0), image flags 0, positions and velocities
///   from the coordinate file.
/// - Types: one per distinct (AMBER_ATOM_TYPE, ATOM_TYPE_INDEX, mass), in order of first
///   appearance, named by the AMBER type; a name that needs several types gets "_2", "_3", ...
///   on the second and later ones.
/// - Bonds: style harmonic {K, r0} (AMBER's K has no factor 1/2, as LAMMPS's). Angles: style
///   harmonic {K, theta0 in degrees} (ANGLE_EQUIL_VALUE is in radians). Dihedrals and impropers
///   (a negative fourth index in the DIHEDRALS lists): style periodic {K, n, phase in degrees},
///   V = K (1 + cos(n phi - phase)); both share the file's DIHEDRAL_* table as their types.
/// - Lennard-Jones, pair_style "lj_cut", mixing Arithmetic: from the A/B table of each pair of
///   LJ type indices (V = A/r^12 - B/r^6 = 4 eps ((sigma/r)^12 - (sigma/r)^6)):
///   epsilon = B^2 / (4 A), sigma = (A / B)^(1/6); A = B = 0 gives epsilon 0, sigma 1. Like pairs
///   in lj_by_type, every unlike pair of types in lj_pairs (AMBER's table is complete, so no
///   pair is left to the mixing rule).
/// - scaled_pairs: the end atoms (i, l) of every dihedral whose third and fourth indices are not
///   negative, with coulomb_scale = 1/SCEE and lj_scale = 1/SCNB of its type (SCEE 1.2 and SCNB
///   2.0 when the file has no such sections). A pair given by several dihedrals is listed once:
///   sander and pmemd compute a 1-4 pair once for every dihedral that does not mark it (third
///   index negative), and LEaP and ParmEd mark all but one dihedral of each pair (multi-term
///   dihedrals, rings), so each pair is counted once in AMBER too. Two dihedrals that give one
///   pair different factors are an input error. Sorted by (id_a, id_b), id_a < id_b.
/// - extra_exclusions: the pairs of EXCLUDED_ATOMS_LIST that the bond graph does not exclude
///   (core::Topology::exclusions, 1-2, 1-3, 1-4). A pair within three bonds that the file does
///   not exclude is an input error (NovaMD always excludes those).
/// - The box: the coordinate file's last line (a b c alpha beta gamma), else the prmtop's
///   BOX_DIMENSIONS when IFBOX > 0, else none (vacuum). box_low is (0, 0, 0).
///
/// Refused, with a message that says so: a non-orthogonal box (an angle other than 90, IFBOX = 2
/// truncated octahedron), 10-12 hydrogen-bond terms with non-zero coefficients, 12-6-4 C
/// coefficients, CMAP terms, CHAMBER (CHARMM) prmtops, polarizabilities, extra points
/// (NUMEXTRA > 0), perturbation (IFPERT) and water caps (IFCAP), and NetCDF coordinates.
/// A type's atomic number: its first atom's ATOMIC_NUMBER, or where the file has no such section
/// the element its atom name implies (as OpenMM guesses it: CL, NA, MG, ZN, else the first
/// letter). The sections NovaMD does not use (RADII, SCREEN, TREE_CHAIN_CLASSIFICATION, ...) are
/// not read.

#include <filesystem>

#include "novamd/io/topology_file.hpp"

namespace novamd::io {

/// CHARGE holds q x 18.2223, q in elementary charges: 18.2223^2 = 332.05 kcal/mol A is AMBER's
/// Coulomb constant, so that the file's charges give q_i q_j / r in kcal/mol directly.
inline constexpr double kAmberChargeScale = 18.2223;

/// Reads an AMBER prmtop and its ASCII inpcrd/rst7 coordinates.
/// @throws core::InputError "<file>:<line>: ..." naming what is wrong and what is expected: a
///   missing section, a section shorter or longer than POINTERS says, a bad number, an atom or
///   type index out of range, an atom count that differs between the two files, an unknown
///   format, or a feature NovaMD does not support (listed above).
TopologyFile read_amber(const std::filesystem::path& prmtop,
                        const std::filesystem::path& coordinates);

}  // namespace novamd::io
