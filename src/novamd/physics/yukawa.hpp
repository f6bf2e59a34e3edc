#pragma once
/// @file yukawa.hpp
/// Screened Coulomb (Yukawa) pair potential between ions i and j:
///
///     V(r) = k_e Z_i Z_j exp(-r / lambda) / r
///     F(r) = -dV/dr = V(r) (1/r + 1/lambda)           (radial, repulsive for like charges)
///
/// k_e is the unit system's Coulomb constant (e^2 = 1.4399645 MeV fm in nuclear units), Z the
/// charge numbers and lambda the screening length of the degenerate electron gas, which is not
/// simulated explicitly. Source: seed 000 (Berry, Schuchart, Henschel, IUMD), eqs. (1) and (3);
/// Horowitz, Berry and Brown, Phys. Rev. E 75, 066101 (2007) for the white-dwarf use.
///
/// Units: energy in the unit system's energy, r and lambda in its length.

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

template <class T>
struct Yukawa {
  using Real = T;

  struct Params {
    T coupling;                  ///< k_e Z_i Z_j, energy x length
    T inverse_screening_length;  ///< 1 / lambda
  };

  /// Parameters of one species pair, from host values in double.
  static Params make_params(double coulomb_constant, double charge_i, double charge_j,
                            double screening_length) {
    return {static_cast<T>(coulomb_constant * charge_i * charge_j),
            static_cast<T>(1.0 / screening_length)};
  }

  /// The potential and force at squared distance r2 > 0.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T inv_r = core::rsqrt_hd(r2);
    const T r = r2 * inv_r;
    const T energy = p.coupling * core::exp_hd(-r * p.inverse_screening_length) * inv_r;
    return {energy * (inv_r + p.inverse_screening_length) * inv_r, energy};
  }
};

}  // namespace novamd::physics
