#pragma once
/// @file table_settings.hpp
/// `forces: - pair_table: {...}`: pair potentials tabulated in LAMMPS's table files (the format
/// of `pair_style table`), interpolated linearly or by cubic splines (physics/tabulated.hpp).

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/tabulation.hpp"
#include "novamd/physics/pair_table.hpp"
#include "novamd/physics/tabulated.hpp"

namespace novamd::forces {

/// One entry of `pair_table.pairs`: a species pair, its table section and its cutoff.
struct TablePair {
  std::string species_a, species_b;
  std::shared_ptr<const TableSection> section;
  double cutoff = 0.0;  ///< the pair's, else the term's, else the table's last distance
};

/// `forces: - pair_table: {file, interpolation, points, cutoff, pairs}`
struct PairTableSettings {
  std::vector<TablePair> pairs;  ///< every species pair, each once
  TableInterpolation interpolation = TableInterpolation::Linear;
  /// N, the knots of each pair's interpolation table (LAMMPS's `pair_style table STYLE N`);
  /// none: each section's own N.
  std::optional<int> points;
  double cutoff = 0.0;  ///< the largest cutoff of the pairs: the range of the neighbour lists

  static constexpr const char* kName = "pair_table";
  static constexpr const char* kEnergyColumn = "vdw_energy";
  static constexpr std::array<std::string_view, 5> kKeys{"file", "interpolation", "points",
                                                         "cutoff", "pairs"};
  static constexpr bool kCutoffMayBeNone = false;
  /// "pair_table (3 pairs, linear on 1000 points, cutoffs up to 2.5 sigma)".
  std::string describe(const core::UnitSystem& units) const;

  /// The knots of every listed pair: the interpolation tables of every species pair, in T.
  template <class T>
  physics::PairTable<physics::TableParams<T>> knot_table(const core::SpeciesTable& species) const;

  /// Calls `make.template operator()<Evaluator>(table)` with the tabulated evaluator of the
  /// interpolation and its table (forces::with_evaluator defers to this: the evaluator is zero
  /// beyond each pair's own cutoff, so no cutoff wrapper).
  template <class T, class Make>
  auto with_own_evaluator(const core::SpeciesTable& species, Make&& make) const {
    auto table = knot_table<T>(species);
    if (interpolation == TableInterpolation::Spline)
      return make.template operator()<physics::TabulatedSpline<T>>(std::move(table));
    return make.template operator()<physics::TabulatedLinear<T>>(std::move(table));
  }
};

template <class T>
physics::PairTable<physics::TableParams<T>> PairTableSettings::knot_table(
    const core::SpeciesTable& species) const {
  auto knots = std::make_shared<std::vector<T>>();
  std::vector<Tabulation> tables;
  for (const auto& pair : pairs) {
    tables.push_back(tabulate(*pair.section, interpolation,
                              points.value_or(static_cast<int>(pair.section->r.size())),
                              pair.cutoff));
  }
  std::vector<std::size_t> offsets;
  for (const auto& t : tables) {
    offsets.push_back(knots->size());
    for (const double v : t.knots) knots->push_back(static_cast<T>(v));
  }
  physics::PairTable<physics::TableParams<T>> table(species.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const Tabulation& t = tables[k];
    const physics::TableParams<T> p{knots->data() + offsets[k],
                                    static_cast<T>(t.inner_squared),
                                    static_cast<T>(1.0 / t.delta),
                                    static_cast<T>(t.delta * t.delta / 6.0),
                                    static_cast<T>(t.cutoff * t.cutoff),
                                    static_cast<T>(t.count - 2),
                                    t.count};
    const int a = *species.find(pairs[k].species_a), b = *species.find(pairs[k].species_b);
    table.at(a, b) = p;
    table.at(b, a) = p;
  }
  table.hold(std::move(knots));
  return table;
}

}  // namespace novamd::forces
