#pragma once
/// @file coulomb.hpp
/// Short-range Coulomb between charges q_i and q_j, per unit charge product (the traversals
/// scale by q_i q_j, charge_scaled.hpp):
///
///     v(r) = (k_e / eps) (1/r + k_rf r^2 - c_rf)
///     f(r) = -dv/dr = (k_e / eps) (1/r^2 - 2 k_rf r)
///
/// k_e is the unit system's Coulomb constant and eps the relative dielectric constant inside the
/// cutoff (`dielectric`). Three methods share this form:
///
/// - `cut`: k_rf = c_rf = 0, truncated at r_c (truncated.hpp);
/// - `shift`: k_rf = c_rf = 0 with the linear force shift of truncated.hpp, so that
///   v(r) = (k_e / eps) (1/r - 1/r_c + (r - r_c) / r_c^2): energy and force continuous at r_c
///   (the shifted-force Coulomb of Levitt et al., Comput. Phys. Commun. 91, 215 (1995); the
///   alpha = 0 case of Fennell and Gezelter, J. Chem. Phys. 124, 234104 (2006), without their
///   self term);
/// - `reaction_field`: the field of a dielectric continuum eps_rf beyond r_c (Tironi et al.,
///   J. Chem. Phys. 102, 5451 (1995)),
///       k_rf = (eps_rf - eps) / ((2 eps_rf + eps) r_c^3),   c_rf = 1/r_c + k_rf r_c^2,
///   so that v(r_c) = 0; eps_rf = infinity gives k_rf = 1/(2 r_c^3). With eps = 1 this is
///   OpenMM's NonbondedForce CutoffPeriodic and GROMACS's reaction-field.
///
/// Excluded pairs get nothing and scaled 1-4 pairs are computed apart (DESIGN principle 10), as
/// plain Coulomb (forces/pair_14 terms).
///
/// Units: k_e in energy x length (332.0637 kcal/mol A per e^2 in `real`), r in length.

#include <cmath>
#include <limits>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

template <class T>
struct Coulomb {
  using Real = T;
  static constexpr bool kScaledByCharges = true;

  struct Params {
    T k;     ///< k_e / eps, energy x length per unit charge product
    T k_rf;  ///< reaction-field coefficient, length^-3 (0 without a reaction field)
    T c_rf;  ///< reaction-field constant, length^-1 (0 without a reaction field)
  };

  /// Plain Coulomb (cut or shifted by the cutoff wrapper).
  static Params make_params(double coulomb_constant, double dielectric) {
    return {static_cast<T>(coulomb_constant / dielectric), T(0), T(0)};
  }

  /// The reaction field of a continuum `epsilon_rf` (infinity allowed) beyond `cutoff`.
  static Params make_reaction_field(double coulomb_constant, double dielectric, double epsilon_rf,
                                    double cutoff) {
    const double rc3 = cutoff * cutoff * cutoff;
    const double k_rf = std::isinf(epsilon_rf)
                            ? 1.0 / (2.0 * rc3)
                            : (epsilon_rf - dielectric) / ((2.0 * epsilon_rf + dielectric) * rc3);
    return {static_cast<T>(coulomb_constant / dielectric), static_cast<T>(k_rf),
            static_cast<T>(1.0 / cutoff + k_rf * cutoff * cutoff)};
  }

  /// The potential and force per unit charge product at squared distance r2 > 0.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T inv_r = core::rsqrt_hd(r2);
    return {p.k * (inv_r * inv_r * inv_r - T(2) * p.k_rf), p.k * (inv_r + p.k_rf * r2 - p.c_rf)};
  }
};

}  // namespace novamd::physics
