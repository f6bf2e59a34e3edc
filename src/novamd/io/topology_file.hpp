#pragma once
/// @file topology_file.hpp
/// What a topology file holds (a LAMMPS data file, an AMBER prmtop with its coordinates), in one
/// form for every reader: atoms with their types, charges and positions, the bonded terms by
/// type, and the coefficients as the file states them. The readers (io/lammps_data.hpp,
/// io/amber_prmtop.hpp) fill it and check it against the file; io/molecular_system.hpp turns it
/// into species, particles, a core::Topology and force terms.
///
/// Conventions:
/// - Numbers are in the run's unit system (a LAMMPS data file is written in it; an AMBER file is
///   in `real` units, its charges already divided by 18.2223).
/// - Types are 0-based here (LAMMPS numbers them from 1, AMBER's tables too).
/// - Coefficients are kept as the file writes them, per style (angles in degrees, LAMMPS's order
///   and meaning; the table of styles is `coefficient_count`), so that a reader does no physics
///   and the conversion to evaluator parameters happens in one place.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/topology.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::io {

/// One atom type of the file: its name (LAMMPS: the type number, or the label of a `# name`
/// comment after its mass; AMBER: AMBER_ATOM_TYPE) and mass.
struct AtomType {
  std::string name;
  double mass = 0.0;
  int atomic_number = 0;  ///< 0: the file does not say (LAMMPS data files)
};

/// Lennard-Jones parameters of one type, or of one pair of types; the 1-4 parameters where the
/// file gives separate ones (CHARMM: `lj/charmm` Pair Coeffs with 4 values).
struct LennardJonesCoefficients {
  double epsilon = 0.0, sigma = 0.0;
  std::optional<double> epsilon_14, sigma_14;
};

/// An explicit unlike pair (LAMMPS PairIJ Coeffs; AMBER's A/B table entries).
struct LennardJonesPairCoefficients {
  int type_a = 0, type_b = 0;  ///< 0-based, type_a <= type_b
  LennardJonesCoefficients coefficients;
};

/// How unlike pairs without explicit coefficients mix.
enum class MixingRule {
  Arithmetic,  ///< Lorentz-Berthelot: sigma_ij = (sigma_i + sigma_j) / 2, eps = sqrt(eps_i eps_j)
  Geometric,   ///< sigma_ij = sqrt(sigma_i sigma_j), eps = sqrt(eps_i eps_j)
};

/// The coefficients of every type of one kind of term (bond, angle, dihedral, improper), as the
/// file writes them: `style` names their meaning, `by_type[t]` the numbers of type t.
struct StyleCoefficients {
  std::string style;                       ///< "harmonic", "charmm", ... (see coefficient_count)
  std::vector<std::vector<double>> by_type;
};

/// A 1-4 pair stated by the file (AMBER: the end atoms of every dihedral not marked to skip it),
/// with the factors that scale its Coulomb and Lennard-Jones energies (1/SCEE, 1/SCNB).
struct ScaledPair {
  std::int32_t id_a = 0, id_b = 0;
  double coulomb_scale = 1.0, lj_scale = 1.0;
};

/// Everything a topology file holds. Per-atom arrays are in the order of the atoms' numbers
/// (a LAMMPS data file's atom ids ascending, whatever their order in the file; AMBER's order):
/// atom k gets id k.
struct TopologyFile {
  std::string format;  ///< "lammps_data" | "amber", for messages

  // The box: low corner and edges (orthorhombic; a tilted box is refused by the readers).
  core::Vec3<double> box_low{0.0, 0.0, 0.0};
  std::optional<core::Vec3<double>> box_edges;  ///< absent: the file has none (AMBER vacuum)

  std::vector<AtomType> types;

  // Per atom, in file order.
  std::vector<std::int32_t> type;      ///< 0-based index into `types`
  std::vector<double> charge;          ///< elementary charges
  std::vector<std::int32_t> molecule;  ///< molecule id as the file numbers it (0 where none)
  std::vector<core::Vec3<double>> position;
  std::vector<std::array<std::int32_t, 3>> image;    ///< periodic image flags (0 where none)
  std::optional<std::vector<core::Vec3<double>>> velocity;  ///< the file's, when it has them
  /// Per-atom masses where the file gives them per atom (AMBER), else empty: the type's mass.
  std::vector<double> mass;
  std::vector<std::string> atom_name;     ///< AMBER ATOM_NAME, else empty
  std::vector<std::string> residue_name;  ///< AMBER residue of each atom, else empty

  // Bonded terms, their ids the 0-based atom indices and their types 0-based.
  core::Topology topology;
  std::optional<StyleCoefficients> bond, angle, dihedral, improper;

  // Non-bonded parameters.
  std::string pair_style;  ///< "lj_charmm", "lj_cut", ... (LAMMPS style hint or `styles.pair`)
  std::vector<std::optional<LennardJonesCoefficients>> lj_by_type;  ///< one per type
  std::vector<LennardJonesPairCoefficients> lj_pairs;               ///< explicit pairs
  std::optional<MixingRule> mixing;  ///< the file's rule, if it states one

  /// AMBER: the pairs the file excludes from the non-bonded terms (EXCLUDED_ATOMS_LIST) beyond
  /// those the bond graph gives, each i < j; empty for LAMMPS (the bond graph and special_bonds
  /// decide).
  std::vector<std::array<std::int32_t, 2>> extra_exclusions;
  /// AMBER: the file's 1-4 pairs with their scale factors; empty for LAMMPS.
  std::vector<ScaledPair> scaled_pairs;
};

/// Kinds of bonded terms, as messages and `styles` keys name them.
enum class TermKind { Bond, Angle, Dihedral, Improper };
std::string_view kind_name(TermKind kind);  ///< "bond", "angle", "dihedral", "improper"

/// How many coefficients a line of `style` holds for `kind`, or nothing when NovaMD does not know
/// the style. A variable count is given as -1: the fourier dihedral's first number m says that
/// 3 m follow. The styles, with LAMMPS's meaning and order:
///
/// | kind | style | coefficients |
/// | --- | --- | --- |
/// | bond | harmonic | K (energy/length^2), r0 |
/// | angle | harmonic | K (energy/rad^2), theta0 (degrees) |
/// | angle | charmm | K, theta0 (degrees), K_ub (energy/length^2), r_ub |
/// | dihedral | charmm | K, n (integer), d (integer degrees), w (1-4 weight) |
/// | dihedral | charmmfsw | as charmm |
/// | dihedral | fourier | m, then K_i, n_i (integer), d_i (degrees) for i = 1..m |
/// | dihedral | opls | K1, K2, K3, K4 |
/// | dihedral | periodic | K, n (integer), d (degrees): AMBER's one term, V = K (1 + cos(n phi - d)) |
/// | improper | harmonic | K (energy/rad^2), chi0 (degrees) |
/// | improper | cvff | K, d (-1 or +1), n (integer) |
/// | improper | periodic | K, n (integer), d (degrees): as the periodic dihedral |
std::optional<int> coefficient_count(TermKind kind, std::string_view style);

/// The styles `coefficient_count` knows for `kind`, for messages.
std::vector<std::string_view> known_styles(TermKind kind);

}  // namespace novamd::io
