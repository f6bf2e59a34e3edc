#pragma once
/// @file charge_scaled.hpp
/// Per-particle charges in pair terms. A potential linear in the product of the two charges
/// (Coulomb in every truncation, the real-space part of Ewald sums, Yukawa) is written per unit
/// product, and the traversals scale its result by q_i q_j, read from the particles' `charge`
/// field:
///
///     V_ij(r) = q_i q_j v(r),   F_ij(r) = q_i q_j f(r)
///
/// The parameter table then depends only on the types (the screening length, the cutoff and
/// its shifts), and a topology's per-atom charges need no type of their own. Such an evaluator
/// declares `kScaledByCharges = true`; `ChargeScaled<Potential>` marks any such potential, and
/// the cutoff wrapper (truncated.hpp) carries the mark, since its shifts are linear in q_i q_j
/// too.

#include "novamd/core/host_device.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

/// Whether the traversals scale Evaluator's result by q_i q_j.
template <class Evaluator>
inline constexpr bool kScaledByCharges = requires {
  requires Evaluator::kScaledByCharges;
};

/// `Potential`, per unit charge product, scaled by the particles' charges.
template <class Potential>
struct ChargeScaled : Potential {
  static constexpr bool kScaledByCharges = true;
};

/// The pair's result scaled by q_i q_j where the evaluator asks for it; unchanged otherwise.
template <class Evaluator, class T>
NOVAMD_HD PairResult<T> scaled_by_charges(PairResult<T> pair, T qi, T qj) {
  if constexpr (kScaledByCharges<Evaluator>) {
    const T qq = qi * qj;
    pair.force_over_r *= qq;
    pair.energy *= qq;
  }
  return pair;
}

/// Whether Evaluator takes the charge product q_i q_j as an argument and scales its own parts
/// (a sum of potentials, some scaled by charges and some not: pair_sum.hpp).
template <class Evaluator>
inline constexpr bool kChargesPerPart = requires {
  requires Evaluator::kChargesPerPart;
};

/// Whether the traversals read the particles' charges for Evaluator.
template <class Evaluator>
inline constexpr bool kReadsCharges = kScaledByCharges<Evaluator> || kChargesPerPart<Evaluator>;

/// The pair's result at squared distance r2 with the table entry `params`, for charges qi and
/// qj (read where kReadsCharges, else 0): what every traversal evaluates per pair.
template <class Evaluator, class T>
NOVAMD_HD PairResult<T> evaluate_pair(T r2, const typename Evaluator::Params& params, T qi, T qj) {
  if constexpr (kChargesPerPart<Evaluator>) {
    return Evaluator::evaluate(r2, params, qi * qj);
  } else {
    return scaled_by_charges<Evaluator>(Evaluator::evaluate(r2, params), qi, qj);
  }
}

/// Particle i's charge in the evaluator's type where the traversals read charges (`charge`: the
/// particles' charges); 0 otherwise, without a read.
template <class Evaluator>
NOVAMD_HD typename Evaluator::Real charge_of(const double* charge, int i) {
  if constexpr (kReadsCharges<Evaluator>) {
    return static_cast<typename Evaluator::Real>(charge[i]);
  } else {
    return typename Evaluator::Real(0);
  }
}

}  // namespace novamd::physics
