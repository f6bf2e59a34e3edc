#pragma once
/// @file density_modes.hpp
/// Density modes rho_a(q) = sum_{j in a} exp(i q . r_j) on the reciprocal lattice of the box,
/// and what each column of S(q) makes of them: written once for the CPU and CUDA versions.
///
/// A wave vector q = 2 pi (nx/Lx, ny/Ly, nz/Lz) is stored as its integers. The phase
/// q . r = 2 pi t with t = nx x/Lx + ny y/Ly + nz z/Lz; t is reduced to [-1/2, 1/2] (exactly:
/// t - round(t) is representable) before the sine and cosine, so that their argument is small
/// however large q . r is.

#include <cmath>
#include <numbers>

#include "novamd/analysis/pair_bins.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::analysis {

struct WaveVector {
  int nx = 0, ny = 0, nz = 0;
};

/// cos(q . r) and sin(q . r) for q = `k` in a box of inverse edges `inverse_length`.
NOVAMD_HD void mode_phase(const WaveVector& k, const core::Vec3<double>& inverse_length,
                          const core::Vec3<double>& r, double& cosine, double& sine) {
  double t = k.nx * (r.x * inverse_length.x) + k.ny * (r.y * inverse_length.y) +
             k.nz * (r.z * inverse_length.z);
  t -= core::round_nearest(t);
#ifdef __CUDA_ARCH__
  sincospi(2.0 * t, &sine, &cosine);
#else
  const double angle = 2.0 * std::numbers::pi * t;
  cosine = std::cos(angle);
  sine = std::sin(angle);
#endif
}

/// The columns of S(q): 0 the total, 1 the weighted one, then the species pairs (a <= b) in
/// species_pair_index order.
NOVAMD_HD int structure_factor_columns(int species) {
  return 2 + species_pairs(species);
}

/// Column `column` of one mode, unnormalised, from the mode's rho_a (`re[a]`, `im[a]`):
///
///     total     |sum_a rho_a|^2
///     weighted  |sum_a w_a rho_a|^2
///     pair a,b  Re(rho_a conj(rho_b))
NOVAMD_HD double mode_column(int column, const double* re, const double* im, int species,
                             const double* weights) {
  if (column < 2) {
    double sum_re = 0.0, sum_im = 0.0;
    for (int a = 0; a < species; ++a) {
      const double w = column == 0 ? 1.0 : weights[a];
      sum_re += w * re[a];
      sum_im += w * im[a];
    }
    return sum_re * sum_re + sum_im * sum_im;
  }
  int pair = column - 2;
  for (int a = 0; a < species; ++a) {
    if (pair < species - a) return re[a] * re[a + pair] + im[a] * im[a + pair];
    pair -= species - a;
  }
  return 0.0;
}

}  // namespace novamd::analysis
