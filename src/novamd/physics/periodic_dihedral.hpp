#pragma once
/// @file periodic_dihedral.hpp
/// Periodic torsion of a four-particle term i-j-k-l, a sum of up to kMaxTerms cosines:
///
///     V(phi) = sum_m K_m [1 + cos(n_m phi - d_m)]
///     dV/dphi = -sum_m K_m n_m sin(n_m phi - d_m),   f_a = -dV/dphi d phi / d r_a
///
/// phi the IUPAC dihedral angle of i-j-k-l (trans = pi) and its gradient from
/// bonded_geometry.hpp (torsion_cosine: cos phi and sin phi, whose multiples n phi follow by angle
/// addition; Blondel & Karplus 1996). The same formula serves LAMMPS
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

  /// Each cosine's phase is kept as its cosine and sine, from which cos(n phi - d) and
  /// sin(n phi - d) take two products each (set them with `set`).
  struct Params {
    int terms;                    ///< how many of the arrays' entries are used, 1..kMaxTerms
    double k[kMaxTerms];          ///< K_m, energy
    int n[kMaxTerms];             ///< n_m, multiplicity (integer >= 0)
    double cos_phase[kMaxTerms];  ///< cos d_m
    double sin_phase[kMaxTerms];  ///< sin d_m

    /// Cosine m: K, n and the phase d in radians.
    void set(int m, double k_m, int n_m, double phase) {
      k[m] = k_m;
      n[m] = n_m;
      cos_phase[m] = std::cos(phase);
      sin_phase[m] = std::sin(phase);
    }
    /// Cosine m's phase in radians, in (-pi, pi].
    double phase(int m) const { return std::atan2(sin_phase[m], cos_phase[m]); }
  };

  /// V(phi) and dV/dphi, given cos phi and sin phi: cos(n phi) and sin(n phi) by angle
  /// addition, then cos(n phi - d) = cos n phi cos d + sin n phi sin d and
  /// sin(n phi - d) = sin n phi cos d - cos n phi sin d.
  NOVAMD_HD static void energy_and_slope(double cos_phi, double sin_phi, const Params& p, double& v,
                                         double& dv) {
    v = 0.0;
    dv = 0.0;
    for (int m = 0; m < p.terms; ++m) {
      double cos_n, sin_n;
      multiple_angle(cos_phi, sin_phi, p.n[m], cos_n, sin_n);
      const double cos_arg = cos_n * p.cos_phase[m] + sin_n * p.sin_phase[m];
      const double sin_arg = sin_n * p.cos_phase[m] - cos_n * p.sin_phase[m];
      v += p.k[m] * (1.0 + cos_arg);
      dv -= p.k[m] * p.n[m] * sin_arg;
    }
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
