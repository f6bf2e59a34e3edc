#pragma once
/// @file ewald.hpp
/// The Ewald sum of Coulomb energies in a periodic box with tin-foil (conducting) boundaries,
/// split by a Gaussian screening of width 1/alpha (Ewald, Ann. Phys. 369, 253 (1921); the
/// formulas as NIST's SPC/E reference calculations state them, and Allen and Tildesley, Computer
/// Simulation of Liquids, 2nd ed., section 6.2):
///
///     E = E_real + E_reciprocal + E_self + E_excluded + E_background
///     E_real       = k_e sum_{i<j, not excluded, r < r_c} q_i q_j erfc(alpha r) / r
///     E_reciprocal = k_e (2 pi / V) sum_{k != 0} exp(-k^2 / 4 alpha^2) / k^2 |S(k)|^2,
///                    S(k) = sum_j q_j exp(i k . r_j),  k = 2 pi (n_x / L_x, n_y / L_y, n_z / L_z)
///     E_self       = -k_e (alpha / sqrt(pi)) sum_i q_i^2
///     E_excluded   = -k_e sum_{excluded i<j} q_i q_j erf(alpha r) / r
///     E_background = -k_e pi Q^2 / (2 V alpha^2),  Q = sum_i q_i (zero for a neutral system)
///
/// The reciprocal sum runs over +n and -n alike (NIST counts both). Its force on particle j and
/// its virial tensor (sum r (x) f convention, core/tensor.hpp), with A_k = exp(-k^2/4 alpha^2)/k^2:
///
///     F_j    = k_e (4 pi / V) q_j sum_k A_k k [Re S sin(k.r_j) - Im S cos(k.r_j)]
///     W_ab   = k_e (2 pi / V) sum_k A_k |S|^2 [delta_ab - 2 (1/k^2 + 1/(4 alpha^2)) k_a k_b]
///
/// E_excluded removes from the reciprocal sum the pairs the real-space sum leaves out (1-2, 1-3,
/// 1-4 and a force field's explicit exclusions); scaled 1-4 pairs are added apart as plain
/// Coulomb (scaled_pair.hpp). E_background is the energy of a uniform neutralising charge.

#include <cmath>
#include <numbers>
#include <vector>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_result.hpp"
#include "novamd/physics/pair_result.hpp"
#include "novamd/physics/scaled_pair.hpp"

namespace novamd::physics {

/// The real-space pair of the Ewald sum, per unit charge product (the traversals scale by
/// q_i q_j): v(r) = k_e erfc(alpha r) / r, f(r) = k_e [erfc(alpha r)/r + 2 alpha/sqrt(pi)
/// exp(-alpha^2 r^2)] / r. Used with a plain cutoff (no shift): the screened pair is negligible
/// at r_c by the choice of alpha. In FP32 (mixed and single precision) erfc(x) is Abramowitz and
/// Stegun's 7.1.26, t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-x^2) with t = 1 / (1 + p x)
/// (absolute error below 1.5e-7, about twice FP32's rounding of 1; OpenMM's CUDA and LAMMPS's
/// coul/long use the same), which shares its exponential with the force's Gaussian term; in
/// FP64 the library's erfc.
template <class T>
struct EwaldReal {
  using Real = T;
  static constexpr bool kScaledByCharges = true;

  struct Params {
    T k;                  ///< k_e / eps, energy x length per unit charge product
    T alpha;              ///< screening, 1/length
    T two_alpha_over_pi;  ///< 2 alpha / sqrt(pi)
  };

  static Params make_params(double coulomb_constant, double dielectric, double alpha) {
    return {static_cast<T>(coulomb_constant / dielectric), static_cast<T>(alpha),
            static_cast<T>(2.0 * alpha / std::sqrt(std::numbers::pi))};
  }

  /// The potential and force per unit charge product at squared distance r2 > 0.
  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T inv_r = core::rsqrt_hd(r2);
    const T r = r2 * inv_r;
    const T exp_x2 = core::exp_hd(-p.alpha * p.alpha * r2);
    const T screened = erfc_of(p.alpha * r, exp_x2) * inv_r;
    const T gaussian = p.two_alpha_over_pi * exp_x2;
    return {p.k * (screened + gaussian) * inv_r * inv_r, p.k * screened};
  }

  /// Abramowitz and Stegun's 7.1.26: erfc(x) = t (a1 + t (a2 + t (a3 + t (a4 + t a5))))
  /// exp(-x^2), t = 1 / (1 + p x) (also TypeRecords::evaluate_direct's).
  static constexpr T kErfcP = T(0.3275911);
  static constexpr T kErfcA1 = T(0.254829592), kErfcA2 = T(-0.284496736), kErfcA3 = T(1.421413741),
                     kErfcA4 = T(-1.453152027), kErfcA5 = T(1.061405429);

  /// erfc(x), given exp(-x^2).
  NOVAMD_HD static T erfc_of(T x, T exp_x2) {
    if constexpr (sizeof(T) == sizeof(float)) {
      const T t = core::reciprocal_hd(T(1) + kErfcP * x);
      return t * (kErfcA1 + t * (kErfcA2 + t * (kErfcA3 + t * (kErfcA4 + t * kErfcA5)))) * exp_x2;
    } else {
      (void)exp_x2;
      return core::erfc_hd(x);
    }
  }
};

/// The correction of an excluded pair (a two-particle bonded term, scaled_pair.hpp):
/// V(r) = -C erf(alpha r) / r with C = k_e q_i q_j / eps, which the reciprocal sum includes and
/// the real-space sum leaves out. Finite at r -> 0 (V -> -2 C alpha / sqrt(pi)).
struct EwaldExcludedPair {
  static constexpr int kParticles = 2;

  struct Params {
    double charge_product;  ///< k_e q_i q_j / eps, energy x length
    double alpha;           ///< screening, 1/length
  };

  NOVAMD_HD static BondedResult<2> evaluate(const core::Vec3<double> (&r)[2], const Params& p) {
    return radial_pair(r, [&](double r2, double& force_over_r, double& energy) {
      const double two_over_pi = 2.0 / std::sqrt(std::numbers::pi);
      const double x2 = p.alpha * p.alpha * r2;
      if (x2 < 1e-8) {  // erf(x)/x = 2/sqrt(pi) (1 - x^2/3 + ...): the direct form loses digits
        energy = -p.charge_product * two_over_pi * p.alpha * (1.0 - x2 / 3.0);
        force_over_r = -p.charge_product * two_over_pi * p.alpha * p.alpha * p.alpha * (2.0 / 3.0);
        return;
      }
      const double r_ = std::sqrt(r2), inv_r = 1.0 / r_;
      const double erf_over_r = std::erf(p.alpha * r_) * inv_r;
      energy = -p.charge_product * erf_over_r;
      // F = -dV/dr = C [2 alpha/sqrt(pi) exp(-alpha^2 r^2) / r - erf(alpha r) / r^2]
      force_over_r = p.charge_product *
                     (two_over_pi * p.alpha * std::exp(-x2) * inv_r - erf_over_r * inv_r) * inv_r;
    });
  }
};

/// E_self + E_background of charges `q` in volume V (k_e / eps as `k`).
inline double ewald_self_energy(const std::vector<double>& q, double k, double alpha) {
  double sum_q2 = 0.0;
  for (const double x : q) sum_q2 += x * x;
  return -k * alpha / std::sqrt(std::numbers::pi) * sum_q2;
}
inline double ewald_background_energy(double net_charge, double k, double alpha, double volume) {
  return -k * std::numbers::pi * net_charge * net_charge / (2.0 * volume * alpha * alpha);
}

/// The integer vectors n of the reciprocal sum: |n_x|, |n_y|, |n_z| <= kmax and
/// 0 < n^2 <= kmax_squared (both signs of each n).
struct WaveVectors {
  std::vector<int> nx, ny, nz;
  std::size_t size() const { return nx.size(); }
};

inline WaveVectors wave_vectors(int kmax_x, int kmax_y, int kmax_z, int kmax_squared) {
  WaveVectors w;
  for (int x = -kmax_x; x <= kmax_x; ++x)
    for (int y = -kmax_y; y <= kmax_y; ++y)
      for (int z = -kmax_z; z <= kmax_z; ++z) {
        const int n2 = x * x + y * y + z * z;
        if (n2 == 0 || n2 > kmax_squared) continue;
        w.nx.push_back(x);
        w.ny.push_back(y);
        w.nz.push_back(z);
      }
  return w;
}

}  // namespace novamd::physics
