#pragma once
/// @file harmonic_angle.hpp
/// Harmonic bend of a three-particle term i-j-k, j the vertex (particle 1):
///
///     V(theta) = K (theta - theta0)^2,   theta the angle between r_i - r_j and r_k - r_j
///     f_a = -dV/dtheta d theta / d r_a = -2 K (theta - theta0) d theta / d r_a
///
/// with theta and its gradient from bonded_geometry.hpp (bend_angle). K carries no factor 1/2, as
/// in LAMMPS `angle_style harmonic` and AMBER's prmtop (OpenMM's HarmonicAngleForce writes
/// k/2: k = 2 K). Source: LAMMPS documentation, angle_style harmonic; W. D. Cornell et al.,
/// J. Am. Chem. Soc. 117, 5179 (1995), eq. 1.
///
/// Units: K in energy per radian squared, theta0 in radians (file readers give degrees; the
/// conversion is io/bonded_styles.cpp's). Three particles on a line (theta = 0 or pi): the
/// energy is exact, the forces are zero (their direction is undefined; bonded_geometry.hpp).

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_geometry.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::physics {

struct HarmonicAngle {
  static constexpr int kParticles = 3;

  struct Params {
    double k;       ///< K, energy / rad^2
    double theta0;  ///< equilibrium angle, radians
  };

  /// Forces and energy for positions r[0..2] relative to particle 0 (r[0] = 0).
  NOVAMD_HD static BondedResult<3> evaluate(const core::Vec3<double> (&r)[3], const Params& p) {
    const BendAngle bend = bend_angle(r[0], r[1], r[2]);
    const double stretch = bend.theta - p.theta0;
    const double minus_dv = -2.0 * p.k * stretch;  // -dV/dtheta
    BondedResult<3> out;
    for (int a = 0; a < 3; ++a) out.force[a] = minus_dv * bend.gradient[a];
    out.energy = p.k * stretch * stretch;
    return out;
  }
};

}  // namespace novamd::physics
