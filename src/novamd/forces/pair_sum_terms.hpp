#pragma once
/// @file pair_sum_terms.hpp
/// Which pair terms of a run share one pass: Lennard-Jones and the real-space Coulomb of an
/// Ewald split (method ewald or pme) with the same cutoff, over Verlet lists, run as one
/// physics::PairSum over one list (each pair's distance and source read once). Their energies
/// still go to their own thermo columns (the sum's two parts). Decided once per run, by both
/// backends alike.

#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"
#include "novamd/physics/pair_sum.hpp"

namespace novamd::forces {

/// The index i of a `lennard_jones` term that runs in one pass with the `coulomb` term at i + 1:
/// the Coulomb method is ewald or pme, both cutoffs are equal, and the traversal resolves to
/// Verlet lists in `box`. None where no such pair is listed (in that order).
inline std::optional<std::size_t> lj_coulomb_pass_at(const std::vector<ForceSettings>& forces,
                                                     const neighbors::NeighborSettings& neighbors,
                                                     const core::Box& box) {
  for (std::size_t i = 0; i + 1 < forces.size(); ++i) {
    const auto* lj = std::get_if<LennardJonesSettings>(&forces[i]);
    const auto* coulomb = std::get_if<CoulombSettings>(&forces[i + 1]);
    if (!lj || !coulomb || !coulomb->ewald_split() || lj->cutoff != coulomb->cutoff) continue;
    if (neighbors::resolve_method(neighbors, lj->cutoff, box.shortest_edge()) ==
        neighbors::NeighborMethod::NeighborList)
      return i;
  }
  return std::nullopt;
}

/// How a run's force entries map onto a backend's terms: entry t is term term_of[t]. The
/// Coulomb entry after a one-pass Lennard-Jones entry joins that entry's term and builds none of
/// its own; a checkpoint keeps one neighbour state per entry, and only the first entry of a term
/// restores it. Both backends build their terms by this plan.
struct TermPlan {
  std::vector<std::size_t> term_of;     ///< the term of each force entry
  std::optional<std::size_t> one_pass;  ///< the Lennard-Jones entry that carries the next one

  /// Entry t is the one-pass Lennard-Jones entry (its term is the PairSum of t and t + 1).
  bool starts_pass(std::size_t t) const { return one_pass && t == *one_pass; }
  /// Entry t joins the previous entry's term.
  bool joins_previous(std::size_t t) const { return one_pass && t == *one_pass + 1; }
  /// Entry f is the first of its term: its saved neighbour state is the term's to restore.
  bool restores(std::size_t f) const { return f == 0 || term_of[f] != term_of[f - 1]; }
};

/// The plan for `forces` where `one_pass` (lj_coulomb_pass_at, or none) runs in one pass.
inline TermPlan plan_terms(const std::vector<ForceSettings>& forces,
                           std::optional<std::size_t> one_pass) {
  TermPlan plan{{}, one_pass};
  std::size_t terms = 0;
  for (std::size_t t = 0; t < forces.size(); ++t)
    plan.term_of.push_back(plan.joins_previous(t) ? terms - 1 : terms++);
  return plan;
}

/// The erfc-screened real-space table of `coulomb` (method ewald or pme), as with_evaluator
/// makes it for the Coulomb term on its own.
template <class T>
physics::PairTable<typename physics::Truncated<physics::EwaldReal<T>, false>::Params>
ewald_real_space_table(const CoulombSettings& coulomb, const core::SpeciesTable& species,
                       const core::UnitSystem& units) {
  using Real = physics::Truncated<physics::EwaldReal<T>, false>;
  return with_evaluator<T>(
      coulomb, species, units,
      [&]<class Evaluator>(const auto& table) -> physics::PairTable<typename Real::Params> {
        if constexpr (std::is_same_v<Evaluator, Real>) {
          return table;
        } else {
          throw std::logic_error("one-pass LJ and Coulomb: the Coulomb method is not ewald or pme");
        }
      });
}

/// Calls `make.template operator()<Sum>(table)` with the PairSum of `lj`'s evaluator (its
/// cutoff form) and the Ewald real space of `coulomb`, and its table, in arithmetic type T.
template <class T, class Make>
auto with_lj_coulomb_sum(const LennardJonesSettings& lj, const CoulombSettings& coulomb,
                         const core::SpeciesTable& species, const core::UnitSystem& units,
                         Make&& make) {
  using Real = physics::Truncated<physics::EwaldReal<T>, false>;
  if (std::isinf(lj.cutoff))  // no lists (lj_coulomb_pass_at)
    throw std::logic_error("one-pass LJ and Coulomb: Lennard-Jones without a cutoff");
  const auto real = ewald_real_space_table<T>(coulomb, species, units);
  return with_evaluator<T>(lj, species, units, [&]<class Lj>(const auto& lj_table) {
    // The bare potential (no cutoff, refused above) takes the cut form's type, so that every
    // branch returns one type.
    constexpr bool kBare = std::is_same_v<Lj, physics::LennardJones<T>>;
    using Sum = physics::PairSum<std::conditional_t<kBare, physics::Truncated<Lj>, Lj>, Real>;
    physics::PairTable<typename Sum::Params> table(lj_table.num_types());
    if constexpr (!kBare) {
      for (int a = 0; a < table.num_types(); ++a)
        for (int b = 0; b < table.num_types(); ++b)
          table.at(a, b) = {lj_table.view()(a, b), real.view()(a, b)};
    }
    return make.template operator()<Sum>(table);
  });
}

}  // namespace novamd::forces
