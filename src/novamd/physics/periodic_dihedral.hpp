#pragma once
/// @file periodic_dihedral.hpp
/// Periodic torsion of a four-particle term i-j-k-l, a sum of up to kMaxTerms cosines:
///
///     V(phi) = sum_m K_m [1 + cos(n_m phi - d_m)]
///     dV/dphi = -sum_m K_m n_m sin(n_m phi - d_m),   f_a = -dV/dphi d phi / d r_a
///
/// phi the IUPAC dihedral angle of i-j-k-l (trans = pi) and its gradient from
/// bonded_geometry.hpp (torsion_angle; Blondel & Karplus 1996). The same formula serves LAMMPS
/// `dihedral_style charmm` and `charmmfsw` (one term; their 1-4 weight w is not part of it: the
/// 1-4 pairs are a pair term of their own), `dihedral_style fourier` (m terms), AMBER's periodic
/// torsions (Cornell et al., J. Am. Chem. Soc. 117, 5179 (1995), eq. 1: V_n / 2 = K) and, applied
/// to an improper's four particles in their given order, AMBER's impropers and LAMMPS
/// `improper_style cvff`, V = K [1 + d cos(n phi)] (d = +1: d_m = 0; d = -1: d_m = pi). Sources:
/// LAMMPS documentation, dihedral_style charmm, dihedral_style fourier, improper_style cvff.
///
/// Units: K_m in energy, n_m an integer >= 0, d_m in radians. Degenerate geometry (i, j, k or
/// j, k, l on a line): phi is taken as 0 and the forces are zero (bonded_geometry.hpp).

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_geometry.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::physics {

struct PeriodicDihedral {
  static constexpr int kParticles = 4;
  static constexpr int kMaxTerms = 6;  ///< cosines per term type

  struct Params {
    int terms;                ///< how many of the arrays' entries are used, 1..kMaxTerms
    double k[kMaxTerms];      ///< K_m, energy
    int n[kMaxTerms];         ///< n_m, multiplicity (integer >= 0)
    double phase[kMaxTerms];  ///< d_m, radians
  };

  /// V(phi) and dV/dphi.
  NOVAMD_HD static void energy_and_slope(double phi, const Params& p, double& v, double& dv) {
    v = 0.0;
    dv = 0.0;
    for (int m = 0; m < p.terms; ++m) {
      const double arg = p.n[m] * phi - p.phase[m];
      v += p.k[m] * (1.0 + std::cos(arg));
      dv -= p.k[m] * p.n[m] * std::sin(arg);
    }
  }

  /// Forces and energy for positions r[0..3] relative to particle 0 (r[0] = 0).
  NOVAMD_HD static BondedResult<4> evaluate(const core::Vec3<double> (&r)[4], const Params& p) {
    const TorsionAngle torsion = torsion_angle(r);
    double v, dv;
    energy_and_slope(torsion.phi, p, v, dv);
    BondedResult<4> out;
    for (int a = 0; a < 4; ++a) out.force[a] = -dv * torsion.gradient[a];
    out.energy = v;
    return out;
  }
};

}  // namespace novamd::physics
