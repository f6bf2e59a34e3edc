#pragma once
/// @file scaled_pair.hpp
/// The pairs computed apart from the pair lists (scaled 1-4 pairs; OpenMM's exceptions), each
/// with its own parameters, as two-particle bonded terms (DESIGN principle 10: no scaling factor
/// enters the pair kernels):
///
///     Lennard-Jones   V(r) = C12 / r^12 - C6 / r^6,   C12 = 4 w eps sigma^12, C6 = 4 w eps sigma^6
///     Coulomb         V(r) = Q / r,                   Q = w_c k_e q_i q_j / eps_r
///
/// with the pair's own epsilon and sigma (CHARMM's 1-4 parameters, or the mixed ones) and scale
/// factors w (LAMMPS special_bonds or a CHARMM dihedral's weight; AMBER's 1/SCNB and 1/SCEE).
/// Neither has a cutoff, shift or reaction field: as LAMMPS's dihedral_style charmm computes its
/// 1-4 pairs and as OpenMM's NonbondedForce computes exceptions. Sources: LAMMPS documentation,
/// dihedral_style charmm and special_bonds; OpenMM user guide, NonbondedForce.

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::physics {

/// Common part: f(r) / r and V from the pair's radial function; forces along r_0 - r_1.
template <class Radial>
NOVAMD_HD BondedResult<2> radial_pair(const core::Vec3<double> (&r)[2], const Radial& radial) {
  const core::Vec3<double> d{-r[1].x, -r[1].y, -r[1].z};  // r_0 - r_1 with r_0 = 0
  const double r2 = d.x * d.x + d.y * d.y + d.z * d.z;
  double force_over_r = 0.0, energy = 0.0;
  radial(r2, force_over_r, energy);
  BondedResult<2> out;
  out.force[0] = {force_over_r * d.x, force_over_r * d.y, force_over_r * d.z};
  out.force[1] = {-out.force[0].x, -out.force[0].y, -out.force[0].z};
  out.energy = energy;
  return out;
}

struct LennardJonesPair14 {
  static constexpr int kParticles = 2;

  struct Params {
    double c12;  ///< 4 w epsilon sigma^12
    double c6;   ///< 4 w epsilon sigma^6
  };

  static Params make_params(double epsilon, double sigma, double scale) {
    const double s6 = std::pow(sigma, 6);
    return {4.0 * scale * epsilon * s6 * s6, 4.0 * scale * epsilon * s6};
  }

  NOVAMD_HD static BondedResult<2> evaluate(const core::Vec3<double> (&r)[2], const Params& p) {
    return radial_pair(r, [&](double r2, double& force_over_r, double& energy) {
      const double inv_r2 = 1.0 / r2, inv_r6 = inv_r2 * inv_r2 * inv_r2;
      energy = inv_r6 * (p.c12 * inv_r6 - p.c6);
      force_over_r = inv_r6 * (12.0 * p.c12 * inv_r6 - 6.0 * p.c6) * inv_r2;
    });
  }
};

struct CoulombPair14 {
  static constexpr int kParticles = 2;

  struct Params {
    double charge_product;  ///< w_c k_e q_i q_j / eps_r, energy x length
  };

  NOVAMD_HD static BondedResult<2> evaluate(const core::Vec3<double> (&r)[2], const Params& p) {
    return radial_pair(r, [&](double r2, double& force_over_r, double& energy) {
      const double inv_r = 1.0 / std::sqrt(r2);
      energy = p.charge_product * inv_r;
      force_over_r = energy * inv_r * inv_r;
    });
  }
};

}  // namespace novamd::physics
