#pragma once
/// @file lennard_jones.hpp
/// Lennard-Jones 12-6 pair potential between particles i and j:
///
///     V(r) = 4 epsilon [(sigma/r)^12 - (sigma/r)^6] = C12 / r^12 - C6 / r^6
///     F(r) = -dV/dr = (12 C12 / r^12 - 6 C6 / r^6) / r
///
/// with C12 = 4 epsilon sigma^12 and C6 = 4 epsilon sigma^6 per species pair. Unlike pairs follow
/// from the like ones by the Lorentz-Berthelot rules, with MarDyn's corrections (seed 001):
/// sigma_ij = eta_ij (sigma_i + sigma_j) / 2, epsilon_ij = xi_ij (epsilon_i epsilon_j)^(1/2).
/// Source: J. E. Lennard-Jones, Proc. R. Soc. A 106, 463 (1924); H. A. Lorentz, Ann. Phys. 248,
/// 127 (1881); D. Berthelot, C. R. Acad. Sci. 126, 1703 (1898).
///
/// Units: epsilon in the unit system's energy, sigma and r in its length. Truncation (cut,
/// energy shift, linear force shift) is the cutoff wrapper's (truncated.hpp).

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

template <class T>
struct LennardJones {
  using Real = T;

  struct Params {
    T c12;  ///< 4 epsilon sigma^12
    T c6;   ///< 4 epsilon sigma^6
  };

  static Params make_params(double epsilon, double sigma) {
    const double s6 = sigma * sigma * sigma * sigma * sigma * sigma;
    return {static_cast<T>(4.0 * epsilon * s6 * s6), static_cast<T>(4.0 * epsilon * s6)};
  }

  /// The potential and force at squared distance r2 > 0.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T inv_r2 = core::reciprocal_hd(r2);
    const T inv_r6 = inv_r2 * inv_r2 * inv_r2;
    const T repulsion = p.c12 * inv_r6;  // C12 / r^6: times 1/r^6 below
    return {inv_r6 * (T(12) * repulsion - T(6) * p.c6) * inv_r2, inv_r6 * (repulsion - p.c6)};
  }
};

}  // namespace novamd::physics
