#pragma once
/// @file bonded_settings.hpp
/// Bonded force terms (terms of 2 to 4 particles named by the topology, core/topology.hpp):
/// each settings type holds the coefficients of every term type (`types`), names its evaluator
/// (physics/, a bonded evaluator of physics/bonded_result.hpp) and the topology list it covers.
/// The families share one CPU and one CUDA implementation (bonded_gather.hpp). Adding a bonded
/// potential: its evaluator, a settings type here, an entry in `BondedSettings`.

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "novamd/core/topology.hpp"
#include "novamd/core/units.hpp"
#include "novamd/physics/charmm_angle.hpp"
#include "novamd/physics/ewald.hpp"
#include "novamd/physics/harmonic_angle.hpp"
#include "novamd/physics/harmonic_bond.hpp"
#include "novamd/physics/harmonic_improper.hpp"
#include "novamd/physics/opls_dihedral.hpp"
#include "novamd/physics/periodic_dihedral.hpp"
#include "novamd/physics/scaled_pair.hpp"

namespace novamd::forces {

/// "NAME (COUNT KIND types)", the run header's line for a family.
inline std::string describe_family(const char* name, std::size_t type_count, const char* kind) {
  return std::string(name) + " (" + std::to_string(type_count) + " " + kind + " types)";
}

/// Harmonic bonds, V = K (r - r0)^2 (physics/harmonic_bond.hpp), one (K, r0) per bond type.
struct HarmonicBondSettings {
  std::vector<physics::HarmonicBond::Params> types;  ///< indexed by the topology's bond type

  static constexpr const char* kName = "harmonic_bond";
  static constexpr const char* kEnergyColumn = "bond_energy";
  using Evaluator = physics::HarmonicBond;

  /// The topology's terms this family evaluates.
  static const core::TermList<2>& terms_of(const core::Topology& topology) {
    return topology.bonds();
  }
  /// "harmonic_bond (2 bond types)".
  std::string describe(const core::UnitSystem&) const {
    return std::string(kName) + " (" + std::to_string(types.size()) + " bond types)";
  }
};

/// Harmonic angles, V = K (theta - theta0)^2 (physics/harmonic_angle.hpp), per angle type.
struct HarmonicAngleSettings {
  std::vector<physics::HarmonicAngle::Params> types;  ///< indexed by the topology's angle type

  static constexpr const char* kName = "harmonic_angle";
  static constexpr const char* kEnergyColumn = "angle_energy";  ///< its thermo column
  using Evaluator = physics::HarmonicAngle;

  static const core::TermList<3>& terms_of(const core::Topology& topology) {
    return topology.angles();
  }
  std::string describe(const core::UnitSystem&) const {
    return describe_family(kName, types.size(), "angle");
  }
};

/// CHARMM angles: harmonic angle plus Urey-Bradley (physics/charmm_angle.hpp), per angle type.
struct CharmmAngleSettings {
  std::vector<physics::CharmmAngle::Params> types;  ///< indexed by the topology's angle type

  static constexpr const char* kName = "charmm_angle";
  static constexpr const char* kEnergyColumn = "angle_energy";  ///< its thermo column
  using Evaluator = physics::CharmmAngle;

  static const core::TermList<3>& terms_of(const core::Topology& topology) {
    return topology.angles();
  }
  std::string describe(const core::UnitSystem&) const {
    return describe_family(kName, types.size(), "angle");
  }
};

/// Periodic dihedrals, V = sum_m K_m [1 + cos(n_m phi - d_m)] (physics/periodic_dihedral.hpp),
/// per dihedral type: LAMMPS charmm, charmmfsw, fourier; AMBER's torsions.
struct PeriodicDihedralSettings {
  std::vector<physics::PeriodicDihedral::Params> types;  ///< by the topology's dihedral type

  static constexpr const char* kName = "periodic_dihedral";
  static constexpr const char* kEnergyColumn = "dihedral_energy";  ///< its thermo column
  using Evaluator = physics::PeriodicDihedral;

  static const core::TermList<4>& terms_of(const core::Topology& topology) {
    return topology.dihedrals();
  }
  std::string describe(const core::UnitSystem&) const {
    return describe_family(kName, types.size(), "dihedral");
  }
};

/// OPLS dihedrals (physics/opls_dihedral.hpp), per dihedral type.
struct OplsDihedralSettings {
  std::vector<physics::OplsDihedral::Params> types;  ///< by the topology's dihedral type

  static constexpr const char* kName = "opls_dihedral";
  static constexpr const char* kEnergyColumn = "dihedral_energy";  ///< its thermo column
  using Evaluator = physics::OplsDihedral;

  static const core::TermList<4>& terms_of(const core::Topology& topology) {
    return topology.dihedrals();
  }
  std::string describe(const core::UnitSystem&) const {
    return describe_family(kName, types.size(), "dihedral");
  }
};

/// Harmonic impropers, V = K (chi - chi0)^2 as LAMMPS improper_style harmonic
/// (physics/harmonic_improper.hpp), per improper type.
struct HarmonicImproperSettings {
  std::vector<physics::HarmonicImproper::Params> types;  ///< by the topology's improper type

  static constexpr const char* kName = "harmonic_improper";
  static constexpr const char* kEnergyColumn = "improper_energy";  ///< its thermo column
  using Evaluator = physics::HarmonicImproper;

  static const core::TermList<4>& terms_of(const core::Topology& topology) {
    return topology.impropers();
  }
  std::string describe(const core::UnitSystem&) const {
    return describe_family(kName, types.size(), "improper");
  }
};

/// Periodic impropers: the periodic dihedral's formula over the impropers' four particles in
/// their given order (AMBER impropers; LAMMPS improper_style cvff), per improper type.
struct PeriodicImproperSettings {
  std::vector<physics::PeriodicDihedral::Params> types;  ///< by the topology's improper type

  static constexpr const char* kName = "periodic_improper";
  static constexpr const char* kEnergyColumn = "improper_energy";  ///< its thermo column
  using Evaluator = physics::PeriodicDihedral;

  static const core::TermList<4>& terms_of(const core::Topology& topology) {
    return topology.impropers();
  }
  std::string describe(const core::UnitSystem&) const {
    return describe_family(kName, types.size(), "improper");
  }
};

/// The Lennard-Jones part of the scaled pairs (physics/scaled_pair.hpp): one parameter set per
/// pair, indexed by the pair's type.
struct LennardJonesPair14Settings {
  std::vector<physics::LennardJonesPair14::Params> types;

  static constexpr const char* kName = "lennard_jones_14";
  static constexpr const char* kEnergyColumn = "vdw_energy";
  using Evaluator = physics::LennardJonesPair14;

  static const core::TermList<2>& terms_of(const core::Topology& topology) {
    return topology.scaled_pairs();
  }
  std::string describe(const core::UnitSystem&) const {
    return std::string(kName) + " (" + std::to_string(types.size()) + " scaled pairs)";
  }
};

/// The Coulomb part of the scaled pairs (physics/scaled_pair.hpp).
struct CoulombPair14Settings {
  std::vector<physics::CoulombPair14::Params> types;

  static constexpr const char* kName = "coulomb_14";
  static constexpr const char* kEnergyColumn = "coulomb_energy";
  using Evaluator = physics::CoulombPair14;

  static const core::TermList<2>& terms_of(const core::Topology& topology) {
    return topology.scaled_pairs();
  }
  std::string describe(const core::UnitSystem&) const {
    return std::string(kName) + " (" + std::to_string(types.size()) + " scaled pairs)";
  }
};

/// The Ewald sum's corrections of excluded pairs, -k_e q_i q_j erf(alpha r)/r
/// (physics/ewald.hpp), one parameter set per pair of Topology::correction_pairs.
struct EwaldExcludedPairSettings {
  std::vector<physics::EwaldExcludedPair::Params> types;

  static constexpr const char* kName = "ewald_excluded_pairs";
  static constexpr const char* kEnergyColumn = "coulomb_energy";
  using Evaluator = physics::EwaldExcludedPair;

  static const core::TermList<2>& terms_of(const core::Topology& topology) {
    return topology.correction_pairs();
  }
  std::string describe(const core::UnitSystem&) const {
    return std::string(kName) + " (" + std::to_string(types.size()) + " pairs)";
  }
};

using BondedSettings =
    std::variant<HarmonicBondSettings, HarmonicAngleSettings, CharmmAngleSettings,
                 PeriodicDihedralSettings, OplsDihedralSettings, HarmonicImproperSettings,
                 PeriodicImproperSettings, LennardJonesPair14Settings, CoulombPair14Settings,
                 EwaldExcludedPairSettings>;

/// The thermo column a bonded term's energy counts in ("bond_energy", ...).
inline std::string energy_column(const BondedSettings& settings) {
  return std::visit([](const auto& s) { return std::string(s.kEnergyColumn); }, settings);
}

/// Throws core::InputError naming the family and the first term whose type has no coefficients.
void check_term_types(const BondedSettings& settings, const core::Topology& topology);

}  // namespace novamd::forces
