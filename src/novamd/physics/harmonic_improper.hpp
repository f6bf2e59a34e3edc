#pragma once
/// @file harmonic_improper.hpp
/// Harmonic improper of a four-particle term i-j-k-l, as LAMMPS `improper_style harmonic`
/// defines it (CHARMM's improper; i is the central particle in CHARMM's order):
///
///     V = K (chi - chi0)^2,   chi = |phi| in [0, pi]
///     dV/dphi = 2 K (chi - chi0) sign(phi),   f_a = -dV/dphi d phi / d r_a
///
/// chi is the angle between the plane of i, j, k and the plane of j, k, l: the unsigned dihedral
/// angle of i-j-k-l. LAMMPS (src/MOLECULE/improper_harmonic.cpp) computes its cosine with
/// vb1 = r_i - r_j, vb2 = r_k - r_j, vb3 = r_l - r_k as (c1 c2 + c0) / (sin1 sin2), the cosine of
/// the dihedral angle of i-j-k-l, and takes chi = acos of it; phi and its gradient come from
/// bonded_geometry.hpp (torsion_angle; Blondel & Karplus 1996). K carries no factor 1/2. Sources:
/// LAMMPS documentation, improper_style harmonic; A. D. MacKerell Jr. et al., J. Phys. Chem. B
/// 102, 3586 (1998), eq. 1.
///
/// Differences from LAMMPS, in degenerate geometry only: LAMMPS bounds the sines of the angles
/// i-j-k and j-k-l from below (sin^2 >= 0.001) and sin chi by 0.001, which changes its chi and
/// forces when i, j, k or j, k, l are within about 1.8 degrees of a line, or chi within 0.001 of
/// 0 or pi; here chi is exact there. With chi0 = 0 (CHARMM's usual case) V = K phi^2 is smooth;
/// for chi0 > 0 the force has a cusp at phi = 0 (sign(0) is taken as +1), as in LAMMPS.
///
/// Units: K in energy per radian squared, chi0 in radians. i, j, k or j, k, l on a line: phi is
/// taken as 0 and the forces are zero (bonded_geometry.hpp).

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_geometry.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::physics {

struct HarmonicImproper {
  static constexpr int kParticles = 4;

  struct Params {
    double k;     ///< K, energy / rad^2
    double chi0;  ///< equilibrium angle between the planes, radians in [0, pi]
  };

  /// Forces and energy for positions r[0..3] relative to particle 0 (r[0] = 0).
  NOVAMD_HD static BondedResult<4> evaluate(const core::Vec3<double> (&r)[4], const Params& p) {
    const TorsionAngle torsion = torsion_angle(r);
    const double sign = torsion.phi < 0.0 ? -1.0 : 1.0;
    const double stretch = sign * torsion.phi - p.chi0;
    const double dv = 2.0 * p.k * stretch * sign;  // dV/dphi
    BondedResult<4> out;
    for (int a = 0; a < 4; ++a) out.force[a] = -dv * torsion.gradient[a];
    out.energy = p.k * stretch * stretch;
    return out;
  }
};

}  // namespace novamd::physics
