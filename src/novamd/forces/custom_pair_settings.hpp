#pragma once
/// @file custom_pair_settings.hpp
/// `forces: - custom_pair: {energy, parameters, pairs, cutoff, shift}`: a pair potential from a
/// formula in the config (physics/custom_pair.hpp), with parameters per species pair.

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/physics/custom_pair.hpp"
#include "novamd/physics/pair_table.hpp"
#include "novamd/physics/truncated.hpp"

namespace novamd::forces {

/// One entry of `custom_pair.pairs`: a species pair and the parameters it sets apart from the
/// term's defaults (index into CustomFormula::parameters, value).
struct CustomPairValues {
  std::string species_a, species_b;
  std::vector<std::pair<int, double>> values;
};

struct CustomPairSettings {
  std::shared_ptr<const physics::CustomFormula> formula;
  std::vector<double> defaults;  ///< every parameter's value, in the formula's order
  std::vector<CustomPairValues> pairs;
  double cutoff = 0.0;  ///< r_c, length unit; infinity = all pairs (minimum image)
  physics::Truncation truncation = physics::Truncation::Cut;

  static constexpr const char* kName = "custom_pair";
  static constexpr const char* kEnergyColumn = "vdw_energy";
  static constexpr std::array<std::string_view, 5> kKeys{"energy", "parameters", "pairs", "cutoff",
                                                         "shift"};
  static constexpr bool kCutoffMayBeNone = true;
  /// "custom_pair (4*eps*((sigma/r)^12 - (sigma/r)^6); eps, sigma; cutoff 2.5 sigma)".
  std::string describe(const core::UnitSystem& units) const;

  template <class T>
  using Potential = physics::CustomPair<T>;

  /// The parameter values of species pair (a, b): the defaults, then the pair's own.
  std::vector<double> values_of(const core::SpeciesTable& species, int a, int b) const {
    std::vector<double> v = defaults;
    for (const auto& pair : pairs) {
      const int pa = *species.find(pair.species_a), pb = *species.find(pair.species_b);
      if ((pa == a && pb == b) || (pa == b && pb == a))
        for (const auto& [k, value] : pair.values) v[k] = value;
    }
    return v;
  }

  template <class T>
  physics::PairTable<typename Potential<T>::Params> potential_table(
      const core::SpeciesTable& species, const core::UnitSystem&) const {
    if (!formula) throw std::logic_error("custom_pair: no formula");
    physics::PairTable<typename Potential<T>::Params> table(species.size());
    for (int a = 0; a < species.size(); ++a) {
      for (int b = 0; b < species.size(); ++b) {
        typename Potential<T>::Params p{formula.get(), {}};
        const auto v = formula->slot_values(values_of(species, a, b));
        for (std::size_t k = 0; k < v.size(); ++k) p.p[k] = static_cast<T>(v[k]);
        table.at(a, b) = p;
      }
    }
    table.hold(formula);
    return table;
  }
};

}  // namespace novamd::forces
