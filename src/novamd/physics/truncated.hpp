#pragma once
/// @file truncated.hpp
/// Spherical cutoff wrapped around any pair potential (written once, used by every potential):
///
///     V_c(r) = V(r) - shift   for r < r_c,    0 otherwise
///
/// shift = V(r_c) with `shift: energy` (continuous energy, same forces), else 0. With no cutoff
/// (r_c = infinity) every pair under the minimum image interacts: IUMD's particle-particle mode.

#include <limits>

#include "novamd/core/host_device.hpp"
#include "novamd/physics/pair_result.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::physics {

template <class Potential>
struct Truncated {
  using Real = typename Potential::Real;
  using T = Real;

  struct Params {
    typename Potential::Params potential;
    T cutoff_squared;  ///< r_c^2; infinity for no cutoff
    T energy_shift;    ///< subtracted inside the cutoff
  };

  /// Wraps host-built potential parameters; cutoff <= 0 or infinity means no cutoff.
  static Params make_params(const typename Potential::Params& potential, double cutoff,
                            bool shift_energy) {
    const bool has_cutoff = cutoff > 0 && cutoff < std::numeric_limits<double>::infinity();
    T shift = 0;
    if (has_cutoff && shift_energy) {
      shift = Potential::evaluate(static_cast<T>(cutoff * cutoff), potential).energy;
    }
    const T rc2 = has_cutoff ? static_cast<T>(cutoff * cutoff) : std::numeric_limits<T>::infinity();
    return {potential, rc2, shift};
  }

  /// Evaluated for every pair and then selected, without a branch: in all-pairs and
  /// neighbour-list traversals most pairs lie inside the cutoff.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const PairResult<T> result = Potential::evaluate(r2, p.potential);
    const bool inside = r2 < p.cutoff_squared;
    return {inside ? result.force_over_r : T(0), inside ? result.energy - p.energy_shift : T(0)};
  }
};

/// A table of potential parameters wrapped with one cutoff and shift.
template <class Potential>
PairTable<typename Truncated<Potential>::Params> with_cutoff(
    const PairTable<typename Potential::Params>& potential, double cutoff, bool shift_energy) {
  PairTable<typename Truncated<Potential>::Params> table(potential.num_types());
  for (int a = 0; a < potential.num_types(); ++a) {
    for (int b = 0; b < potential.num_types(); ++b) {
      table.at(a, b) =
          Truncated<Potential>::make_params(potential.view()(a, b), cutoff, shift_energy);
    }
  }
  return table;
}

}  // namespace novamd::physics
