#pragma once
/// @file force_settings.hpp
/// Force terms as the config declares them (host side, double precision). Each settings type
/// names its evaluator and builds its pair table; backends turn settings into force terms.

#include <cmath>
#include <limits>
#include <string>
#include <variant>

#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/physics/pair_table.hpp"
#include "novamd/physics/truncated.hpp"
#include "novamd/physics/yukawa.hpp"

namespace novamd::forces {

inline constexpr double kNoCutoff = std::numeric_limits<double>::infinity();

/// `forces: - yukawa: {screening_length, cutoff, shift}`
struct YukawaSettings {
  double screening_length = 0.0;  ///< lambda, length unit
  double cutoff = kNoCutoff;      ///< r_c, length unit; infinity = all pairs (minimum image)
  bool shift_energy = false;      ///< `shift: energy`

  static constexpr const char* kName = "yukawa";

  /// The bare potential (used as it is with no cutoff) and the potential with the cutoff.
  template <class T>
  using Potential = physics::Yukawa<T>;
  template <class T>
  using Evaluator = physics::Truncated<Potential<T>>;

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

  /// The same with the cutoff and shift.
  template <class T>
  physics::PairTable<typename Evaluator<T>::Params> pair_table(
      const core::SpeciesTable& species, const core::UnitSystem& units) const {
    return physics::with_cutoff<Potential<T>>(potential_table<T>(species, units), cutoff,
                                              shift_energy);
  }
};

/// Every force term NovaMD knows. Adding a potential adds its settings type here.
using ForceSettings = std::variant<YukawaSettings>;

/// Calls `make.template operator()<Evaluator>(table)` with the evaluator a force term uses in
/// arithmetic type T and its pair table: the bare potential when there is no cutoff (no cutoff
/// test per pair), else the truncated potential. Every backend builds its terms through this.
template <class T, class Make>
auto with_evaluator(const ForceSettings& settings, const core::SpeciesTable& species,
                    const core::UnitSystem& units, Make&& make) {
  return std::visit(
      [&](const auto& s) {
        using Settings = std::decay_t<decltype(s)>;
        if (std::isinf(s.cutoff)) {
          using Potential = typename Settings::template Potential<T>;
          return make.template operator()<Potential>(s.template potential_table<T>(species, units));
        }
        using Evaluator = typename Settings::template Evaluator<T>;
        return make.template operator()<Evaluator>(s.template pair_table<T>(species, units));
      },
      settings);
}

/// The cutoff of a force term (infinity for all pairs).
inline double cutoff_of(const ForceSettings& settings) {
  return std::visit([](const auto& s) { return s.cutoff; }, settings);
}

/// The config name of a force term ("yukawa").
inline std::string name_of(const ForceSettings& settings) {
  return std::visit([](const auto& s) { return std::string(s.kName); }, settings);
}

}  // namespace novamd::forces
