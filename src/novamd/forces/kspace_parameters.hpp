#pragma once
/// @file kspace_parameters.hpp
/// The Ewald sum's screening and wave vectors, chosen from `tolerance` where not given:
///
///     alpha   = sqrt(-ln(2 tol)) / r_c                   so that erfc(alpha r_c) ~ tol
///     kmax_i  = ceil(alpha L_i sqrt(-ln tol) / pi)       so that exp(-k^2 / 4 alpha^2) <= tol
///                                                         at the largest k along axis i
///
/// The alpha of OpenMM's NonbondedForce and GROMACS's ewald-rtol (OpenMM user guide, "Coulomb
/// Interaction With Ewald Summation"); kmax from the reciprocal sum's Gaussian factor at
/// k = 2 pi kmax_i / L_i. Given `kmax` sets every axis; `kmax_squared` also cuts the cube to
/// n^2 <= kmax_squared (NIST's SPC/E references: kmax 5, n^2 < 27).

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

/// The screening alpha: the given one, else the one `tolerance` and the cutoff give.
double ewald_alpha(const CoulombSettings& settings);

/// Fills settings.ewald's alpha and kmax_per_axis for `box` (the given ones kept).
void resolve_ewald(CoulombSettings& settings, const core::Box& box);

/// The RMS force error an Ewald sum's truncations leave, for N charges with sum_i q_i^2 in a box
/// (Kolafa and Perram, Mol. Simul. 9, 351 (1992); the estimates LAMMPS's ewald prints), with
/// Q2 = k_e sum_i q_i^2 and V the volume:
///
///     real space   dF_r = 2 Q2 exp(-alpha^2 r_c^2) / sqrt(N r_c V)
///     reciprocal   dF_k = sqrt((dF_x^2 + dF_y^2 + dF_z^2) / 3), on each axis
///                  dF_i = 2 Q2 alpha / L_i sqrt(1 / (pi kmax_i N)) exp(-(pi kmax_i / (alpha
///                  L_i))^2)
///
/// in force units (energy / length). For a uniform, uncorrelated distribution of charges.
struct EwaldErrorEstimate {
  double real = 0.0, reciprocal = 0.0;
  double total() const;  ///< sqrt(real^2 + reciprocal^2)
};

/// The estimate for resolved `settings` (alpha and kmax set).
EwaldErrorEstimate ewald_error_estimate(const CoulombSettings& settings, const core::Box& box,
                                        std::int64_t particles, double sum_q2,
                                        double coulomb_constant);

/// resolve_ewald for every Coulomb term with method ewald.
void resolve_kspace(std::vector<ForceSettings>& forces, const core::Box& box);

}  // namespace novamd::forces
