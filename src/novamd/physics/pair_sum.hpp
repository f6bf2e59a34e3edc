#pragma once
/// @file pair_sum.hpp
/// Two pair potentials over the same pairs, evaluated together: Lennard-Jones and the
/// real-space Coulomb of an Ewald split, where both have the same cutoff, share one Verlet list
/// and one pass over it (each pair's distance computed once, its source read once):
///
///     V_ij(r) = V1_ij(r) + V2_ij(r),   F_ij(r) = F1_ij(r) + F2_ij(r)
///
/// each part scaled by q_i q_j where that part is (charge_scaled.hpp), so a sum of LJ and
/// Coulomb takes the charge product as an argument (kChargesPerPart). PairSumEnergyPass<Sum, k>,
/// over the same parameter table, gives each part's energy for its thermo column while the
/// forces stay the sum's.

#include <type_traits>

#include "novamd/core/host_device.hpp"
#include "novamd/physics/charge_scaled.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

/// `part`'s result scaled by the charge product qq where the part is scaled by charges.
template <class Part, class T>
NOVAMD_HD PairResult<T> scaled_part(T r2, const typename Part::Params& params, T qq) {
  PairResult<T> p = Part::evaluate(r2, params);
  if constexpr (kScaledByCharges<Part>) {
    p.force_over_r *= qq;
    p.energy *= qq;
  }
  return p;
}

template <class First, class Second>
struct PairSum {
  using Real = typename First::Real;
  static_assert(std::is_same_v<Real, typename Second::Real>);
  static constexpr bool kChargesPerPart = true;
  static constexpr int kParts = 2;

  struct Params {
    typename First::Params first;
    typename Second::Params second;
  };

  /// Each potential's result, scaled where it is.
  struct Parts {
    PairResult<Real> first, second;
  };
  NOVAMD_HD static Parts parts(Real r2, const Params& p, Real qq) {
    return {scaled_part<First>(r2, p.first, qq), scaled_part<Second>(r2, p.second, qq)};
  }

  NOVAMD_HD static PairResult<Real> evaluate(Real r2, const Params& p, Real qq) {
    const Parts r = parts(r2, p, qq);
    return {r.first.force_over_r + r.second.force_over_r, r.first.energy + r.second.energy};
  }
};

/// The pass for part K's energy on an energy step: part 0 adds the whole sum's forces (as
/// PairSum::evaluate computes them, so an energy step moves the particles as any other step does)
/// with the first potential's energy; part 1 adds the second potential's energy and no force.
template <class Sum, int K>
struct PairSumEnergyPass;

template <class First, class Second, int K>
struct PairSumEnergyPass<PairSum<First, Second>, K> {
  using Sum = PairSum<First, Second>;
  using Real = typename Sum::Real;
  using Params = typename Sum::Params;
  static constexpr bool kChargesPerPart = true;

  NOVAMD_HD static PairResult<Real> evaluate(Real r2, const Params& p, Real qq) {
    if constexpr (K == 0) {
      const typename Sum::Parts r = Sum::parts(r2, p, qq);
      return {r.first.force_over_r + r.second.force_over_r, r.first.energy};
    } else {
      return {Real(0), scaled_part<Second>(r2, p.second, qq).energy};
    }
  }
};

/// The number of energy parts of Evaluator: 2 for a PairSum, else 1.
template <class Evaluator>
consteval int parts_of() {
  if constexpr (requires { Evaluator::kParts; }) {
    return Evaluator::kParts;
  } else {
    return 1;
  }
}

}  // namespace novamd::physics
