#pragma once
/// @file nuclear.hpp
/// Semi-classical nucleon-nucleon potential of the nuclear-pasta model, between nucleons i and j
/// with isospin tau_z = +1 (proton) or -1 (neutron):
///
///     V(r) = a exp(-r^2 / Lambda) + [b + c tau_i tau_j] exp(-r^2 / (2 Lambda))
///          = a e1 + b' e2,   e2 = exp(-r^2 / (2 Lambda)),  e1 = e2^2,  b' = b + c tau_i tau_j
///
///     F(r) = -dV/dr = r (2 a e1 + b' e2) / Lambda,   so   force_over_r = (2 a e1 + b' e2) / Lambda
///
/// The short-range repulsion a e1 acts between all nucleons; the longer-range attraction b' e2 is
/// stronger between a proton and a neutron (b' = b - c = -50 MeV) than between like nucleons
/// (b' = b + c = -2 MeV), so that pure neutron matter is unbound and symmetric matter saturates.
/// With Horowitz's parameters V(0) = 108 MeV (pp, nn) or 60 MeV (pn): the potential is finite at
/// r = 0, and force_over_r needs neither a square root nor a division.
///
/// Parameters (Horowitz, Perez-Garcia and Piekarewicz, Phys. Rev. C 69, 045804 (2004);
/// Horowitz et al., Phys. Rev. C 70, 065806 (2004); used unchanged by Schneider, Horowitz,
/// Hughto and Berry, Phys. Rev. C 88, 065807 (2013)): a = 110 MeV, b = -26 MeV, c = 24 MeV,
/// Lambda = 1.25 fm^2, chosen to reproduce the saturation density and binding energy of
/// symmetric nuclear matter and the binding of a few nuclei. The screened Coulomb repulsion
/// between protons is a separate term (physics/yukawa.hpp). Also seed 000 (IUMD), eq. (4).
///
/// Cost per pair: one exp (e1 = e2 * e2 saves the second), 4 multiplications, 2 fused
/// multiply-adds; r2 comes from the traversal (3 subtractions, 2 FMAs, 1 multiplication).
///
/// Units: a, b, c and V in the unit system's energy (MeV in `nuclear` units), Lambda in its
/// length squared (fm^2), r in its length.

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

template <class T>
struct Nuclear {
  using Real = T;

  struct Params {
    T minus_half_inv_lambda;  ///< -1 / (2 Lambda), length^-2
    T a;                      ///< repulsion amplitude, energy
    T b_pair;                 ///< b' = b + c tau_i tau_j, energy
    T two_a_over_lambda;      ///< 2 a / Lambda, energy / length^2
    T b_pair_over_lambda;     ///< b' / Lambda, energy / length^2
  };

  /// Parameters of one nucleon pair with isospins tau_i, tau_j (+1 or -1), from host values in
  /// double.
  static Params make_params(double a, double b, double c, double lambda, int tau_i, int tau_j) {
    const double b_pair = b + c * tau_i * tau_j;
    return {static_cast<T>(-0.5 / lambda), static_cast<T>(a), static_cast<T>(b_pair),
            static_cast<T>(2.0 * a / lambda), static_cast<T>(b_pair / lambda)};
  }

  /// The potential and force at squared distance r2 >= 0 (finite everywhere, also at r2 = 0).
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T e2 = core::exp_hd(r2 * p.minus_half_inv_lambda);
    const T e1 = e2 * e2;
    return {p.two_a_over_lambda * e1 + p.b_pair_over_lambda * e2, p.a * e1 + p.b_pair * e2};
  }
};

}  // namespace novamd::physics
