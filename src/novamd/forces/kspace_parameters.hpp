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

#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

/// The screening alpha: the given one, else the one `tolerance` and the cutoff give.
double ewald_alpha(const CoulombSettings& settings);

/// Fills settings.ewald's alpha and kmax_per_axis for `box` (the given ones kept).
void resolve_ewald(CoulombSettings& settings, const core::Box& box);

/// resolve_ewald for every Coulomb term with method ewald.
void resolve_kspace(std::vector<ForceSettings>& forces, const core::Box& box);

}  // namespace novamd::forces
