#pragma once
/// @file switched.hpp
/// CHARMM's switching function wrapped around a pair potential, from r_in to r_c:
///
///     V_s(r) = S(r) V(r),   F_s(r) = S(r) F(r) - V(r) dS/dr
///     S(r) = 1                                                          r <= r_in
///     S(r) = (r_c^2 - r^2)^2 (r_c^2 + 2 r^2 - 3 r_in^2) / (r_c^2 - r_in^2)^3   r_in < r < r_c
///     S(r) = 0                                                          r >= r_c
///     -dS/dr / r = 12 (r_c^2 - r^2) (r^2 - r_in^2) / (r_c^2 - r_in^2)^3   r_in < r < r_c
///
/// Energy and force go smoothly to zero at r_c. Source: Brooks et al., J. Comput. Chem. 4, 187
/// (1983); LAMMPS pair_style lj/charmm/coul/charmm (the same S, switch1 and switch2 of its
/// source).

#include "novamd/core/host_device.hpp"
#include "novamd/physics/charge_scaled.hpp"
#include "novamd/physics/pair_result.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::physics {

template <class Potential>
struct Switched {
  using Real = typename Potential::Real;
  using T = Real;
  static constexpr bool kScaledByCharges = physics::kScaledByCharges<Potential>;

  struct Params {
    typename Potential::Params potential;
    T inner_squared;        ///< r_in^2
    T cutoff_squared;       ///< r_c^2
    T inverse_denominator;  ///< 1 / (r_c^2 - r_in^2)^3
  };

  static Params make_params(const typename Potential::Params& potential, double inner,
                            double cutoff) {
    const double rc2 = cutoff * cutoff, ri2 = inner * inner;
    const double width = rc2 - ri2;
    return {potential, static_cast<T>(ri2), static_cast<T>(rc2),
            static_cast<T>(1.0 / (width * width * width))};
  }

  /// Evaluated for every pair and selected without a branch, as Truncated does.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const PairResult<T> bare = Potential::evaluate(r2, p.potential);
    const bool switching = r2 > p.inner_squared;
    const T to_cut = p.cutoff_squared - r2;
    const T s = switching
                    ? to_cut * to_cut * (p.cutoff_squared + T(2) * r2 - T(3) * p.inner_squared) *
                          p.inverse_denominator
                    : T(1);
    // -dS/dr / r: the switch's own force on V
    const T ds = switching ? T(12) * to_cut * (r2 - p.inner_squared) * p.inverse_denominator : T(0);
    const bool inside = r2 < p.cutoff_squared;
    return {inside ? s * bare.force_over_r + ds * bare.energy : T(0),
            inside ? s * bare.energy : T(0)};
  }
};

/// A table of potential parameters wrapped with one switch.
template <class Potential>
PairTable<typename Switched<Potential>::Params> with_switch(
    const PairTable<typename Potential::Params>& potential, double inner, double cutoff) {
  PairTable<typename Switched<Potential>::Params> table(potential.num_types());
  for (int a = 0; a < potential.num_types(); ++a)
    for (int b = 0; b < potential.num_types(); ++b)
      table.at(a, b) = Switched<Potential>::make_params(potential.view()(a, b), inner, cutoff);
  table.hold_what(potential);
  return table;
}

}  // namespace novamd::physics
