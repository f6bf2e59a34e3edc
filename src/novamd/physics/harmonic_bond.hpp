#pragma once
/// @file harmonic_bond.hpp
/// Harmonic bond between particles 0 and 1 of a two-particle term:
///
///     V(r) = K (r - r0)^2,   r = |r_0 - r_1|
///     f_0 = -dV/dr (r_0 - r_1) / r = -2 K (r - r0) (r_0 - r_1) / r,   f_1 = -f_0
///
/// K carries no factor 1/2, as in LAMMPS `bond_style harmonic` and AMBER's prmtop (OpenMM's
/// HarmonicBondForce and GROMACS write k/2 (r - r0)^2: k = 2 K). Source: LAMMPS documentation,
/// bond_style harmonic; W. D. Cornell et al., J. Am. Chem. Soc. 117, 5179 (1995), eq. 1.
///
/// Units: K in energy per length squared, r0 in length. Bonded terms are evaluated in double at
/// every precision (they are few: their cost is negligible next to the pair terms).

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::physics {

struct HarmonicBond {
  static constexpr int kParticles = 2;

  struct Params {
    double k;   ///< K, energy / length^2
    double r0;  ///< equilibrium length
  };

  /// Forces and energy for particle positions r[0], r[1] relative to particle 0 (r[0] = 0,
  /// r[1] the nearest image of particle 1 seen from particle 0).
  NOVAMD_HD static BondedResult<2> evaluate(const core::Vec3<double> (&r)[2], const Params& p) {
    const core::Vec3<double> d{r[0].x - r[1].x, r[0].y - r[1].y, r[0].z - r[1].z};
    const double length = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    const double stretch = length - p.r0;
    // -dV/dr / r; a bond of zero length (r0 = 0 allowed) has no direction and no force
    const double force_over_r = length > 0.0 ? -2.0 * p.k * stretch / length : 0.0;
    BondedResult<2> out;
    out.force[0] = {force_over_r * d.x, force_over_r * d.y, force_over_r * d.z};
    out.force[1] = {-out.force[0].x, -out.force[0].y, -out.force[0].z};
    out.energy = p.k * stretch * stretch;
    return out;
  }
};

}  // namespace novamd::physics
