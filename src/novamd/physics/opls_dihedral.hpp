#pragma once
/// @file opls_dihedral.hpp
/// OPLS torsion of a four-particle term i-j-k-l:
///
///     V(phi) = 1/2 K1 (1 + cos phi) + 1/2 K2 (1 - cos 2 phi) + 1/2 K3 (1 + cos 3 phi)
///              + 1/2 K4 (1 - cos 4 phi)
///     dV/dphi = 1/2 (-K1 sin phi + 2 K2 sin 2 phi - 3 K3 sin 3 phi + 4 K4 sin 4 phi)
///     f_a = -dV/dphi d phi / d r_a
///
/// phi the IUPAC dihedral angle of i-j-k-l (trans = pi) and its gradient from
/// bonded_geometry.hpp (torsion_cosine, the multiples by angle addition; Blondel & Karplus
/// 1996). Source: LAMMPS documentation,
/// dihedral_style opls; W. L. Jorgensen, D. S. Maxwell and J. Tirado-Rives, J. Am. Chem. Soc.
/// 118, 11225 (1996) (their V1..V4 are K1..K4).
///
/// Units: K1..K4 in energy. Degenerate geometry (i, j, k or j, k, l on a line): phi is taken as
/// 0 and the forces are zero (bonded_geometry.hpp).

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_geometry.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::physics {

struct OplsDihedral {
  static constexpr int kParticles = 4;

  struct Params {
    double k1, k2, k3, k4;  ///< energy
  };

  /// V(phi) and dV/dphi, given cos phi and sin phi (the multiples by angle addition).
  NOVAMD_HD static void energy_and_slope(double c1, double s1, const Params& p, double& v,
                                         double& dv) {
    const double c2 = c1 * c1 - s1 * s1, s2 = 2.0 * s1 * c1;
    const double c3 = c2 * c1 - s2 * s1, s3 = s2 * c1 + c2 * s1;
    const double c4 = c2 * c2 - s2 * s2, s4 = 2.0 * s2 * c2;
    v = 0.5 * (p.k1 * (1.0 + c1) + p.k2 * (1.0 - c2) + p.k3 * (1.0 + c3) + p.k4 * (1.0 - c4));
    dv = 0.5 * (-p.k1 * s1 + 2.0 * p.k2 * s2 - 3.0 * p.k3 * s3 + 4.0 * p.k4 * s4);
  }

  /// Forces and energy for positions r[0..3] relative to particle 0 (r[0] = 0).
  NOVAMD_HD static BondedResult<4> evaluate(const core::Vec3<double> (&r)[4], const Params& p) {
    const TorsionCosine torsion = torsion_cosine(r);
    double v, dv;
    energy_and_slope(torsion.cos_phi, torsion.sin_phi, p, v, dv);
    BondedResult<4> out;
    for (int a = 0; a < 4; ++a) out.force[a] = -dv * torsion.gradient[a];
    out.energy = v;
    return out;
  }
};

}  // namespace novamd::physics
