#pragma once
/// @file bonded_settings.hpp
/// Bonded force terms (terms of 2 to 4 particles named by the topology, core/topology.hpp):
/// each settings type holds the coefficients of every term type (`types`), names its evaluator
/// (physics/, a bonded evaluator of physics/bonded_result.hpp) and the topology list it covers.
/// The families share one CPU and one CUDA implementation (bonded_gather.hpp). Adding a bonded
/// potential: its evaluator, a settings type here, an entry in `BondedSettings`.

#include <string>
#include <variant>
#include <vector>

#include "novamd/core/topology.hpp"
#include "novamd/core/units.hpp"
#include "novamd/physics/harmonic_bond.hpp"
#include "novamd/physics/scaled_pair.hpp"

namespace novamd::forces {

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
  /// The same terms in the device copy of the topology.
  static core::TermListView<2> device_terms_of(const core::DeviceTopologyView& topology) {
    return topology.bonds;
  }
  /// "harmonic_bond (2 bond types)".
  std::string describe(const core::UnitSystem&) const {
    return std::string(kName) + " (" + std::to_string(types.size()) + " bond types)";
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
  static core::TermListView<2> device_terms_of(const core::DeviceTopologyView& topology) {
    return topology.scaled_pairs;
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
  static core::TermListView<2> device_terms_of(const core::DeviceTopologyView& topology) {
    return topology.scaled_pairs;
  }
  std::string describe(const core::UnitSystem&) const {
    return std::string(kName) + " (" + std::to_string(types.size()) + " scaled pairs)";
  }
};

using BondedSettings =
    std::variant<HarmonicBondSettings, LennardJonesPair14Settings, CoulombPair14Settings>;

/// The thermo column a bonded term's energy counts in ("bond_energy", ...).
inline std::string energy_column(const BondedSettings& settings) {
  return std::visit([](const auto& s) { return std::string(s.kEnergyColumn); }, settings);
}

/// Throws core::InputError naming the family and the first term whose type has no coefficients.
void check_term_types(const BondedSettings& settings, const core::Topology& topology);

}  // namespace novamd::forces
