#pragma once
/// @file charmm_angle.hpp
/// CHARMM bend of a three-particle term i-j-k (j the vertex): the harmonic angle plus a
/// Urey-Bradley spring between the end particles i and k:
///
///     V = K (theta - theta0)^2 + K_ub (r_ik - r_ub)^2,   r_ik = |r_i - r_k|
///
/// The first term's forces are harmonic_angle.hpp's; the second's are a harmonic bond's between
/// particles 0 and 2 (harmonic_bond.hpp: f_i = -2 K_ub (r_ik - r_ub) (r_i - r_k) / r_ik,
/// f_k = -f_i, none on j). K and K_ub carry no factor 1/2. Source: LAMMPS documentation,
/// angle_style charmm; A. D. MacKerell Jr. et al., J. Phys. Chem. B 102, 3586 (1998), eq. 1
/// (with CHARMM's K_theta and K_UB, which also carry no 1/2).
///
/// Units: K in energy per radian squared, theta0 in radians, K_ub in energy per length squared,
/// r_ub in length. Degenerate geometry as in harmonic_angle.hpp (the Urey-Bradley term of
/// coinciding end particles has no force, as harmonic_bond.hpp).

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_result.hpp"
#include "novamd/physics/harmonic_angle.hpp"
#include "novamd/physics/harmonic_bond.hpp"

namespace novamd::physics {

struct CharmmAngle {
  static constexpr int kParticles = 3;

  struct Params {
    double k;       ///< K, energy / rad^2
    double theta0;  ///< equilibrium angle, radians
    double k_ub;    ///< K_ub, energy / length^2
    double r_ub;    ///< Urey-Bradley equilibrium distance between particles 0 and 2
  };

  /// Forces and energy for positions r[0..2] relative to particle 0 (r[0] = 0).
  NOVAMD_HD static BondedResult<3> evaluate(const core::Vec3<double> (&r)[3], const Params& p) {
    BondedResult<3> out = HarmonicAngle::evaluate(r, {p.k, p.theta0});
    const core::Vec3<double> ends[2] = {r[0], r[2]};
    const BondedResult<2> ub = HarmonicBond::evaluate(ends, {p.k_ub, p.r_ub});
    out.force[0] += ub.force[0];
    out.force[2] += ub.force[1];
    out.energy += ub.energy;
    return out;
  }
};

}  // namespace novamd::physics
