#pragma once
/// @file truncated.hpp
/// Spherical cutoff wrapped around any pair potential (written once, used by every potential).
/// With F = -dV/dr, for r < r_c:
///
///     cut           V_c(r) = V(r)                                   F_c = F(r)
///     energy shift  V_c(r) = V(r) - V(r_c)                          F_c = F(r)
///     force shift   V_c(r) = V(r) - V(r_c) + (r - r_c) F(r_c)       F_c = F(r) - F(r_c)
///
/// and 0 beyond r_c. The linear force shift (Toxvaerd and Dyre, J. Chem. Phys. 134, 081102
/// (2011)) makes both energy and force continuous at r_c. With no cutoff (r_c = infinity) the
/// bare potential is used instead of this wrapper: every pair under the minimum image interacts.

#include <limits>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/charge_scaled.hpp"
#include "novamd/physics/pair_result.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::physics {

enum class Truncation { Cut, ShiftEnergy, ShiftForce };

/// ForceShift selects the linear force shift (it needs r itself, one rsqrt more per pair).
template <class Potential, bool ForceShift = false>
struct Truncated {
  using Real = typename Potential::Real;
  using T = Real;
  /// Shifts are linear in q_i q_j where the potential is (charge_scaled.hpp).
  static constexpr bool kScaledByCharges = physics::kScaledByCharges<Potential>;

  struct Params {
    typename Potential::Params potential;
    T cutoff_squared;   ///< r_c^2
    T energy_shift;     ///< subtracted inside the cutoff: V(r_c) (+ r_c F(r_c) if force shift)
    T force_at_cutoff;  ///< F(r_c), force shift only
  };

  /// Parameters for a finite cutoff; `mode` must be ShiftForce exactly when ForceShift is set.
  static Params make_params(const typename Potential::Params& potential, double cutoff,
                            Truncation mode) {
    return at_cutoff(potential, static_cast<T>(cutoff * cutoff), static_cast<T>(cutoff), mode);
  }

  /// The same from the cutoff r_c and its square in T, on the host or the device (where a
  /// kernel rebuilds a pair's parameters from per-type records: type_records.hpp).
  NOVAMD_HD static Params at_cutoff(const typename Potential::Params& potential, T rc2, T rc,
                                    Truncation mode) {
    const PairResult<T> at_rc = Potential::evaluate(rc2, potential);
    const T force = at_rc.force_over_r * rc;
    Params p{potential, rc2, T(0), T(0)};
    if (mode == Truncation::ShiftEnergy) p.energy_shift = at_rc.energy;
    if constexpr (ForceShift) {
      p.energy_shift = at_rc.energy + rc * force;
      p.force_at_cutoff = force;
    }
    return p;
  }

  /// Evaluated for every pair and then selected, without a branch: in all-pairs and
  /// neighbour-list traversals most pairs lie inside the cutoff.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    PairResult<T> result = Potential::evaluate(r2, p.potential);
    if constexpr (ForceShift) {
      const T inv_r = core::rsqrt_hd(r2);
      result.force_over_r -= p.force_at_cutoff * inv_r;
      result.energy += r2 * inv_r * p.force_at_cutoff;
    }
    const bool inside = r2 < p.cutoff_squared;
    return {inside ? result.force_over_r : T(0), inside ? result.energy - p.energy_shift : T(0)};
  }
};

/// A table of potential parameters wrapped with one cutoff and truncation.
template <class Potential, bool ForceShift>
PairTable<typename Truncated<Potential, ForceShift>::Params> with_cutoff(
    const PairTable<typename Potential::Params>& potential, double cutoff, Truncation mode) {
  PairTable<typename Truncated<Potential, ForceShift>::Params> table(potential.num_types());
  for (int a = 0; a < potential.num_types(); ++a) {
    for (int b = 0; b < potential.num_types(); ++b) {
      table.at(a, b) =
          Truncated<Potential, ForceShift>::make_params(potential.view()(a, b), cutoff, mode);
    }
  }
  table.hold_what(potential);
  return table;
}

}  // namespace novamd::physics
