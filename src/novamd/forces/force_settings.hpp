#pragma once
/// @file force_settings.hpp
/// Force terms as the config declares them (host side, double precision). Each settings type
/// names its potential and builds its table of pair parameters; `with_evaluator` wraps the
/// potential with the cutoff the settings ask for, for every backend alike.

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/custom_pair_settings.hpp"
#include "novamd/forces/table_settings.hpp"
#include "novamd/physics/coulomb.hpp"
#include "novamd/physics/ewald.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/nuclear.hpp"
#include "novamd/physics/pair_table.hpp"
#include "novamd/physics/switched.hpp"
#include "novamd/physics/truncated.hpp"
#include "novamd/physics/yukawa.hpp"

namespace novamd::forces {

inline constexpr double kNoCutoff = std::numeric_limits<double>::infinity();
using physics::Truncation;

/// `forces: - yukawa: {screening_length, cutoff, shift}`
struct YukawaSettings {
  double screening_length = 0.0;  ///< lambda, length unit
  double cutoff = kNoCutoff;      ///< r_c, length unit; infinity = all pairs (minimum image)
  Truncation truncation = Truncation::Cut;  ///< `shift: none | energy | force`
  /// `screening_length: thomas_fermi`: lambda follows from the electron density once the box
  /// and particles are known (io/screening.hpp settles it before the run).
  bool thomas_fermi = false;

  static constexpr const char* kName = "yukawa";
  static constexpr const char* kEnergyColumn = "";  ///< in potential_energy only
  static constexpr std::array<std::string_view, 3> kKeys{"screening_length", "cutoff", "shift"};
  static constexpr bool kCutoffMayBeNone = true;
  /// "yukawa (screening length 10 fm, all pairs under the minimum image)".
  std::string describe(const core::UnitSystem& units) const;

  template <class T>
  using Potential = physics::Yukawa<T>;

  /// k_e Z_i Z_j and 1/lambda for every pair of species.
  template <class T>
  physics::PairTable<typename Potential<T>::Params> potential_table(
      const core::SpeciesTable& species, const core::UnitSystem& units) const {
    physics::PairTable<typename Potential<T>::Params> table(species.size());
    for (int a = 0; a < species.size(); ++a) {
      for (int b = 0; b < species.size(); ++b) {
        table.at(a, b) = Potential<T>::make_params(units.coulomb, species[a].charge,
                                                   species[b].charge, screening_length);
      }
    }
    return table;
  }
};

/// One entry of `lennard_jones.pairs`: epsilon and sigma of a species pair, or for an unlike
/// pair without them, the corrections xi (energy) and eta (size) to Lorentz-Berthelot mixing.
struct LennardJonesPair {
  std::string species_a, species_b;
  std::optional<double> epsilon, sigma;
  double xi = 1.0, eta = 1.0;
};

/// How unlike pairs without their own epsilon and sigma mix from the like ones.
enum class Mixing {
  Arithmetic,  ///< Lorentz-Berthelot: sigma_ij = (sigma_i + sigma_j) / 2 (CHARMM, AMBER, OPLS-UA)
  Geometric,   ///< sigma_ij = (sigma_i sigma_j)^(1/2) (OPLS-AA; LAMMPS lj/cut's default)
};

/// `forces: - lennard_jones: {pairs, cutoff, truncation, switch, mixing, tail_correction}`
struct LennardJonesSettings {
  /// Species pairs with their parameters: from the config, or from the topology file.
  std::vector<LennardJonesPair> pairs;
  double cutoff = 0.0;  ///< r_c, length unit (required)
  Truncation truncation = Truncation::Cut;
  /// CHARMM switching from this distance to the cutoff (physics/switched.hpp), instead of a
  /// truncation.
  std::optional<double> switch_inner;
  Mixing mixing = Mixing::Arithmetic;  ///< epsilon is always the geometric mean
  bool tail_correction = false;        ///< add the energy and pressure of r > r_c (uniform fluid)

  static constexpr const char* kName = "lennard_jones";
  static constexpr const char* kEnergyColumn = "vdw_energy";
  static constexpr std::array<std::string_view, 6> kKeys{"pairs",  "cutoff", "truncation",
                                                         "switch", "mixing", "tail_correction"};
  static constexpr bool kCutoffMayBeNone = false;
  std::string describe(const core::UnitSystem& units) const;

  template <class T>
  using Potential = physics::LennardJones<T>;

  /// epsilon and sigma of every species pair: given, or mixed from the like pairs.
  struct Mixed {
    std::vector<double> epsilon, sigma;  ///< num_types x num_types, row-major
  };
  Mixed mixed(const core::SpeciesTable& species) const;

  template <class T>
  physics::PairTable<typename Potential<T>::Params> potential_table(
      const core::SpeciesTable& species, const core::UnitSystem&) const {
    const Mixed m = mixed(species);
    const int n = species.size();
    physics::PairTable<typename Potential<T>::Params> table(n);
    for (int k = 0; k < n * n; ++k) {
      table.at(k / n, k % n) = Potential<T>::make_params(m.epsilon[k], m.sigma[k]);
    }
    return table;
  }
};

/// `forces: - nuclear: {a, b, c, Lambda, cutoff, shift}`: the nucleon-nucleon potential of the
/// pasta model (physics/nuclear.hpp). Defaults are Horowitz et al.'s parameters in MeV and fm;
/// at the default cutoff of 10 fm |V| < 2.2e-16 MeV and |F| < 1.7e-15 MeV/fm (docs/physics.md).
/// Every species must be a nucleon (isospin +1 or -1); the config reader checks this.
struct NuclearSettings {
  double a = 110.0;      ///< repulsion, energy
  double b = -26.0;      ///< attraction, energy
  double c = 24.0;       ///< isospin dependence of the attraction, energy
  double lambda = 1.25;  ///< Lambda, length squared
  double cutoff = 10.0;  ///< r_c, length unit; infinity = all pairs (minimum image)
  Truncation truncation = Truncation::Cut;  ///< `shift: none | energy | force`

  static constexpr const char* kName = "nuclear";
  static constexpr const char* kEnergyColumn = "";
  static constexpr std::array<std::string_view, 6> kKeys{"a",      "b",      "c",
                                                         "Lambda", "cutoff", "shift"};
  static constexpr bool kCutoffMayBeNone = true;
  std::string describe(const core::UnitSystem& units) const;

  template <class T>
  using Potential = physics::Nuclear<T>;

  /// a, b + c tau_i tau_j and Lambda for every pair of species.
  template <class T>
  physics::PairTable<typename Potential<T>::Params> potential_table(
      const core::SpeciesTable& species, const core::UnitSystem&) const {
    physics::PairTable<typename Potential<T>::Params> table(species.size());
    for (int i = 0; i < species.size(); ++i) {
      for (int j = 0; j < species.size(); ++j) {
        table.at(i, j) =
            Potential<T>::make_params(a, b, c, lambda, species[i].isospin, species[j].isospin);
      }
    }
    return table;
  }
};

/// Coulomb methods: short range (physics/coulomb.hpp), the Ewald sum (physics/ewald.hpp) and
/// smooth particle-mesh Ewald (physics/pme.hpp).
enum class CoulombMethod { Cut, Shift, ReactionField, Ewald, Pme };

/// The Ewald split's parameters (methods `ewald` and `pme`): each given, or chosen from
/// `tolerance`, the cutoff and the box by forces::resolve_kspace (kspace_parameters.hpp).
struct EwaldParameters {
  double tolerance = 1e-5;      ///< the relative size of the neglected terms
  std::optional<double> alpha;  ///< screening, 1/length
  std::optional<int> kmax;      ///< ewald: |n_x|, |n_y|, |n_z| <= kmax (the same on every axis)
  /// ewald: per axis, as resolved (from kmax, or each axis's own from the tolerance).
  std::array<int, 3> kmax_per_axis{0, 0, 0};
  std::optional<int> kmax_squared;  ///< ewald: and n^2 <= kmax_squared (none: the whole cube)
  int order = 5;                    ///< pme: B-spline order, 4 to 6 (OpenMM's 5)
  std::optional<std::array<int, 3>> grid;     ///< pme: grid points per axis, as given
  std::array<int, 3> grid_per_axis{0, 0, 0};  ///< pme: as resolved
};

/// `forces: - coulomb: {method, cutoff, dielectric, epsilon_rf, tolerance, alpha, kmax,
/// kmax_squared, order, grid}`: Coulomb between the particles' charges (a topology's, or each
/// species' `charge`); excluded pairs left out of the pair sum (and, with `ewald` or `pme`,
/// corrected for in the reciprocal sum).
struct CoulombSettings {
  CoulombMethod method = CoulombMethod::Cut;
  double cutoff = 0.0;                      ///< r_c, length unit (required)
  Truncation truncation = Truncation::Cut;  ///< ShiftForce for `shift`
  double dielectric = 1.0;                  ///< relative permittivity inside the cutoff
  /// Permittivity of the continuum beyond r_c (reaction_field only); OpenMM's default.
  double epsilon_rf = 78.3;
  EwaldParameters ewald;  ///< methods ewald and pme only

  /// Ewald or PME: an erfc-screened pair term plus a reciprocal-space sum.
  bool ewald_split() const {
    return method == CoulombMethod::Ewald || method == CoulombMethod::Pme;
  }
  /// alpha and the wave vectors (ewald) or the grid (pme) are resolved.
  bool kspace_resolved() const {
    if (!ewald.alpha) return false;
    return method == CoulombMethod::Pme ? ewald.grid_per_axis[0] > 0 : ewald.kmax_per_axis[0] > 0;
  }

  static constexpr const char* kName = "coulomb";
  static constexpr const char* kEnergyColumn = "coulomb_energy";
  static constexpr std::array<std::string_view, 10> kKeys{
      "method", "cutoff", "dielectric",   "epsilon_rf", "tolerance",
      "alpha",  "kmax",   "kmax_squared", "order",      "grid"};
  static constexpr bool kCutoffMayBeNone = false;
  std::string describe(const core::UnitSystem& units) const;

  template <class T>
  using Potential = physics::Coulomb<T>;

  /// The same parameters for every species pair: the charges come from the particles.
  template <class T>
  physics::PairTable<typename Potential<T>::Params> potential_table(
      const core::SpeciesTable& species, const core::UnitSystem& units) const {
    const auto p =
        method == CoulombMethod::ReactionField
            ? Potential<T>::make_reaction_field(units.coulomb, dielectric, epsilon_rf, cutoff)
            : Potential<T>::make_params(units.coulomb, dielectric);
    physics::PairTable<typename Potential<T>::Params> table(species.size());
    for (int a = 0; a < species.size(); ++a)
      for (int b = 0; b < species.size(); ++b) table.at(a, b) = p;
    return table;
  }
};

/// Every force term NovaMD knows, the one list of them. Adding a potential adds its settings
/// type here (with its kName, kKeys, kCutoffMayBeNone and describe), its parser overload in
/// io/config_forces.cpp, and its family to NOVAMD_PAIR_FAMILIES in src/CMakeLists.txt; the
/// compiler names whatever is missing.
using ForceSettings = std::variant<YukawaSettings, LennardJonesSettings, NuclearSettings,
                                   CoulombSettings, PairTableSettings, CustomPairSettings>;

/// Calls f(std::type_identity<Settings>{}) for each force-term settings type, in list order.
template <class F>
void for_each_force_kind(F&& f) {
  [&]<class... Settings>(std::type_identity<std::variant<Settings...>>) {
    (f(std::type_identity<Settings>{}), ...);
  }(std::type_identity<ForceSettings>{});
}

/// The config names of every force term ("yukawa", "lennard_jones", "nuclear", "coulomb", ...).
inline std::vector<std::string_view> force_term_names() {
  std::vector<std::string_view> names;
  for_each_force_kind([&]<class S>(std::type_identity<S>) { names.push_back(S::kName); });
  return names;
}

/// What the run header says of a force term: its name, parameters and range.
inline std::string describe(const ForceSettings& settings, const core::UnitSystem& units) {
  return std::visit([&](const auto& s) { return s.describe(units); }, settings);
}

/// with_evaluator for the terms whose settings name a `Potential`: the bare potential when there
/// is no cutoff (no cutoff test per pair), else the potential switched (Lennard-Jones with
/// `switch`) or truncated as the settings say.
template <class T, class Settings, class Make>
auto with_wrapped_potential(const Settings& s, const core::SpeciesTable& species,
                            const core::UnitSystem& units, Make&& make) {
  using Potential = typename Settings::template Potential<T>;
  auto table = s.template potential_table<T>(species, units);
  if constexpr (requires { s.switch_inner; }) {
    if (s.switch_inner) {
      return make.template operator()<physics::Switched<Potential>>(
          physics::with_switch<Potential>(table, *s.switch_inner, s.cutoff));
    }
  }
  if constexpr (requires { s.ewald; }) {
    if (s.ewald_split()) {  // the real-space part: erfc-screened, cut at r_c
      using Real = physics::EwaldReal<T>;
      if (!s.ewald.alpha) throw std::logic_error("coulomb ewald/pme: alpha not resolved");
      physics::PairTable<typename Real::Params> real(species.size());
      const auto p = Real::make_params(units.coulomb, s.dielectric, *s.ewald.alpha);
      for (int a = 0; a < species.size(); ++a)
        for (int b = 0; b < species.size(); ++b) real.at(a, b) = p;
      return make.template operator()<physics::Truncated<Real, false>>(
          physics::with_cutoff<Real, false>(real, s.cutoff, Truncation::Cut));
    }
  }
  if (std::isinf(s.cutoff)) return make.template operator()<Potential>(std::move(table));
  if (s.truncation == Truncation::ShiftForce) {
    return make.template operator()<physics::Truncated<Potential, true>>(
        physics::with_cutoff<Potential, true>(table, s.cutoff, s.truncation));
  }
  return make.template operator()<physics::Truncated<Potential, false>>(
      physics::with_cutoff<Potential, false>(table, s.cutoff, s.truncation));
}

/// Calls `make.template operator()<Evaluator>(table)` with the evaluator a force term of one
/// family (`Settings`: YukawaSettings, ...) uses in arithmetic type T and its pair table: the
/// settings' own choice where they have `with_own_evaluator` (a table's interpolation,
/// table_settings.hpp), else with_wrapped_potential's. Every backend builds its terms through
/// this; a call instantiates the traversals of that family only.
template <class T, class Settings, class Make>
auto with_evaluator(const Settings& s, const core::SpeciesTable& species,
                    const core::UnitSystem& units, Make&& make) {
  if constexpr (requires { s.template with_own_evaluator<T>(species, make); }) {
    return s.template with_own_evaluator<T>(species, make);
  } else {
    return with_wrapped_potential<T>(s, species, units, make);
  }
}

/// The same for any force term: every family's traversals are instantiated.
template <class T, class Make>
auto with_evaluator(const ForceSettings& settings, const core::SpeciesTable& species,
                    const core::UnitSystem& units, Make&& make) {
  return std::visit([&](const auto& s) { return with_evaluator<T>(s, species, units, make); },
                    settings);
}

/// The cutoff of a force term (infinity for all pairs).
inline double cutoff_of(const ForceSettings& settings) {
  return std::visit([](const auto& s) { return s.cutoff; }, settings);
}

/// Whether a force term reads the particles' charges (its potential is per unit charge product).
inline bool uses_particle_charges(const ForceSettings& settings) {
  return std::holds_alternative<CoulombSettings>(settings);
}

/// Whether a force term may be given `cutoff: none` (all pairs under the minimum image): every
/// term but Lennard-Jones, whose cutoff is required.
inline bool cutoff_may_be_none(const ForceSettings& settings) {
  return std::visit([](const auto& s) { return s.kCutoffMayBeNone; }, settings);
}

/// The thermo column a force term's energy counts in ("vdw_energy"; empty: none but the
/// potential energy).
inline std::string energy_column(const ForceSettings& settings) {
  return std::visit([](const auto& s) { return std::string(s.kEnergyColumn); }, settings);
}

/// The config name of a force term ("yukawa").
inline std::string name_of(const ForceSettings& settings) {
  return std::visit([](const auto& s) { return std::string(s.kName); }, settings);
}

/// Whether a cutoff fits a box whose shortest edge is `shortest_edge`: none (all pairs under
/// the minimum image), or at most half that edge (else the minimum image would miss pairs).
/// Every check of a cutoff against a box (config, initial system, checkpoint, rescale) asks
/// this.
inline bool cutoff_fits(double cutoff, double shortest_edge) {
  return std::isinf(cutoff) || cutoff <= 0.5 * shortest_edge;
}

/// Throws core::RunError when a cutoff of `cutoffs` does not fit `box` (cutoff_fits): a box
/// that shrank too far.
void check_cutoffs_fit(const std::vector<double>& cutoffs, const core::Box& box);
/// Whether every cutoff of `cutoffs` fits `box` (cutoff_fits).
inline bool cutoffs_fit(const std::vector<double>& cutoffs, const core::Box& box) {
  for (const double c : cutoffs)
    if (!cutoff_fits(c, box.shortest_edge())) return false;
  return true;
}

/// Energy and virial of the pairs beyond the cutoffs, for a uniform fluid (tail corrections).
struct TailCorrection {
  double energy = 0.0;
  double virial = 0.0;  ///< sum of r . f over those pairs
};

/// The tail corrections of the terms that ask for them, for `count[t]` particles of each type
/// in volume V.
TailCorrection tail_correction(const std::vector<ForceSettings>& forces,
                               const core::SpeciesTable& species,
                               const std::vector<std::int64_t>& count, double volume);

}  // namespace novamd::forces
