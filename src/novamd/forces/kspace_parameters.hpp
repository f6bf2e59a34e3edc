#pragma once
/// @file kspace_parameters.hpp
/// The Ewald split's screening, wave vectors (ewald) and grid (pme), chosen from `tolerance`
/// where not given:
///
///     alpha   = sqrt(-ln(2 tol)) / r_c                   so that erfc(alpha r_c) ~ tol
///     kmax_i  = ceil(alpha L_i sqrt(-ln tol) / pi)       so that exp(-k^2 / 4 alpha^2) <= tol
///                                                         at the largest k along axis i
///     K_i     = the smallest n >= max(2 p, ceil(2 alpha L_i / (3 tol^(1/p)))) whose prime
///               factors are 2, 3, 5 and 7                  (pme, B-spline order p)
///
/// alpha and, for p = 5, K_i are OpenMM's (NonbondedForce's PME, OpenMM user guide "Coulomb
/// Interaction With Particle Mesh Ewald"; GROMACS's ewald-rtol gives the same alpha, its
/// fourier-spacing sets the grid apart), whose tolerance is the relative RMS error of the forces;
/// OpenMM has order 5 only, and the exponent 1/p carries its rule to orders 4 and 6 (the mesh's
/// error falls as about (alpha h)^p; measured against the exact sum in test_pme.cpp); kmax from the
/// reciprocal sum's Gaussian factor at k = 2 pi kmax_i / L_i. Given `kmax` sets every axis;
/// `kmax_squared` also cuts the cube to n^2 <= kmax_squared (NIST's SPC/E references: kmax 5,
/// n^2 < 27). A given `grid` is used as it is.

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

/// The screening alpha: the given one, else the one `tolerance` and the cutoff give.
double ewald_alpha(const CoulombSettings& settings);

/// Fills settings.ewald's alpha and kmax_per_axis (ewald) or grid_per_axis (pme) for `box` (the
/// given ones kept).
void resolve_ewald(CoulombSettings& settings, const core::Box& box);

/// The smallest n >= minimum whose only prime factors are 2, 3, 5 and 7 (fast FFT lengths).
int fft_length_at_least(int minimum);

/// The RMS force error an Ewald sum's truncations leave, for N charges with sum_i q_i^2 in a box
/// (Kolafa and Perram, Mol. Simul. 9, 351 (1992); the estimates LAMMPS's ewald prints), with
/// Q2 = k_e sum_i q_i^2 and V the volume:
///
///     real space   dF_r = 2 Q2 exp(-alpha^2 r_c^2) / sqrt(N r_c V)
///     reciprocal   dF_k = sqrt((dF_x^2 + dF_y^2 + dF_z^2) / 3), on each axis
///                  dF_i = 2 Q2 alpha / L_i sqrt(1 / (pi kmax_i N)) exp(-(pi kmax_i / (alpha
///                  L_i))^2)
///
/// in force units (energy / length). For a uniform, uncorrelated distribution of charges. For pme
/// the reciprocal part is the estimate of Deserno and Holm for a mesh of spacing h_i = L_i / K_i
/// and charge assignment of order p (J. Chem. Phys. 109, 7694 (1998); the form and the
/// coefficients a_pm LAMMPS's pppm prints with):
///
///     dF_i = Q2 (h_i alpha)^p sqrt(alpha L_i sqrt(2 pi) sum_{m<p} a_pm (h_i alpha)^(2m) / N)
///            / L_i^2
///
/// P3M's error with the optimal influence function; smooth PME's with analytic gradients is
/// several times larger (3.7 to 6.4 times on the grids of test_pme.cpp).
struct EwaldErrorEstimate {
  double real = 0.0, reciprocal = 0.0;
  bool pme = false;      ///< the reciprocal part is the mesh's (Deserno and Holm)
  double total() const;  ///< sqrt(real^2 + reciprocal^2)
};

/// The estimate for resolved `settings` (alpha and kmax set).
EwaldErrorEstimate ewald_error_estimate(const CoulombSettings& settings, const core::Box& box,
                                        std::int64_t particles, double sum_q2,
                                        double coulomb_constant);

/// resolve_ewald for every Coulomb term with method ewald or pme.
void resolve_kspace(std::vector<ForceSettings>& forces, const core::Box& box);

}  // namespace novamd::forces
