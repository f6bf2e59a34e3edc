#pragma once
/// @file bonded_geometry.hpp
/// The internal coordinates of bonded terms and their gradients, written once for host and
/// device: the bend angle of three particles and the dihedral (torsion) angle of four. The
/// angle and dihedral evaluators (harmonic_angle.hpp, periodic_dihedral.hpp, ...) differ only in
/// V and dV/dq; each takes its forces as f_a = -dV/dq grad_a q from here.
///
/// Bend angle of i-j-k (j the vertex), a = r_i - r_j, b = r_k - r_j, p = a x b:
///
///     theta = atan2(|p|, a . b)                      in [0, pi]
///     d theta / d r_i =  (a x p) / (|a|^2 |p|)       (perpendicular to a, in the plane, away from
///     b) d theta / d r_k = -(b x p) / (|b|^2 |p|) d theta / d r_j = -(d theta / d r_i + d theta /
///     d r_k)
///
/// (a x p = a (a . b) - b |a|^2 = |a|^2 |b| (cos theta a^ - b^) and |p| = |a| |b| sin theta give
/// the textbook form (cos theta a^ - b^) / (|a| sin theta).) atan2 keeps theta accurate near 0 and
/// pi, where acos loses half the digits, and the gradient has no 1 / sin theta: its size is
/// 1 / |a|, bounded as the angle straightens.
///
/// Dihedral angle of i-j-k-l (rotation about j-k), with F = r_i - r_j, G = r_j - r_k,
/// H = r_l - r_k, A = F x G, B = H x G (A. Blondel and M. Karplus, "New formulation for
/// derivatives of torsion angles and improper torsion angles in molecular mechanics: elimination
/// of singularities", J. Comput. Chem. 17, 1132 (1996); the same gradient as H. Bekker,
/// H. J. C. Berendsen and W. F. van Gunsteren, J. Comput. Chem. 16, 527 (1995), which GROMACS
/// uses):
///
///     phi = atan2(|G| A . H, A . B)                 in (-pi, pi]
///     d phi / d r_i = -|G| / |A|^2 A
///     d phi / d r_j =  |G| / |A|^2 A + (F . G) / (|A|^2 |G|) A - (H . G) / (|B|^2 |G|) B
///     d phi / d r_k =  (H . G) / (|B|^2 |G|) B - (F . G) / (|A|^2 |G|) A - |G| / |B|^2 B
///     d phi / d r_l =  |G| / |B|^2 B
///
/// Sums of cosines of multiples of phi (periodic and OPLS dihedrals) take cos phi = A . B / (|A|
/// |B|) and sin phi = |G| A . H / (|A| |B|) instead (torsion_cosine), and cos n phi, sin n phi by
/// angle addition (multiple_angle), as LAMMPS's dihedral_charmm does: no atan2 and no cosine or
/// sine of an argument.
///
/// phi is the IUPAC/IUB angle (IUPAC 1970, Biochemistry 9, 3471): 0 for cis, 180 degrees for
/// trans, positive when, seen along j -> k, the bond j-i turns clockwise onto k-l; it is the
/// angle of LAMMPS's dihedral and improper styles (src/MOLECULE/dihedral_charmm.cpp computes
/// c = A . B / (|A| |B|) and s = |G| A . H / (|A| |B|) with the same A, B, G, H).
///
/// Degenerate geometry: where the angle has no defined direction of change (three particles on a
/// line, or two coinciding: |p| = 0 for a bend; i, j, k or j, k, l on a line: |A| or |B| = 0 for
/// a dihedral, to a relative |A|^2 <= 1e-24 |F|^2 |G|^2, a sine of 1e-12), the gradient is set
/// to zero, so the evaluators return finite energies and zero forces, never NaN. The bend angle
/// is then still exact (0 or pi); the dihedral angle, undefined, is taken as 0.

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::physics {

/// Squared sine below which a bend or dihedral is treated as degenerate (sine 1e-12).
inline constexpr double kDegenerateSine2 = 1e-24;

/// A bend angle and its gradient with respect to each of the three positions.
struct BendAngle {
  double theta = 0.0;
  core::Vec3<double> gradient[3];  ///< d theta / d r_a; zero where the angle is degenerate
};

/// The angle at r[1] between r[0] - r[1] and r[2] - r[1] (see the file comment).
NOVAMD_HD BendAngle bend_angle(const core::Vec3<double>& ri, const core::Vec3<double>& rj,
                               const core::Vec3<double>& rk) {
  const core::Vec3<double> a = ri - rj, b = rk - rj;
  const core::Vec3<double> p = core::cross(a, b);
  const double a2 = core::dot(a, a), b2 = core::dot(b, b), p2 = core::dot(p, p);
  BendAngle out;
  const double p_norm = std::sqrt(p2);
  out.theta = std::atan2(p_norm, core::dot(a, b));
  if (p2 <= kDegenerateSine2 * a2 * b2 || p2 == 0.0) return out;  // direction undefined
  out.gradient[0] = (1.0 / (a2 * p_norm)) * core::cross(a, p);
  out.gradient[2] = (-1.0 / (b2 * p_norm)) * core::cross(b, p);
  out.gradient[1] = -1.0 * (out.gradient[0] + out.gradient[2]);
  return out;
}

namespace detail {

/// What both forms of a dihedral share: x = A . B and y = |G| A . H (phi = atan2(y, x), and
/// x^2 + y^2 = |A|^2 |B|^2) and phi's gradient. False where the angle is degenerate (no
/// gradient, x and y unset).
NOVAMD_HD bool torsion_parts(const core::Vec3<double> (&r)[4], double& x, double& y,
                             core::Vec3<double> (&gradient)[4]) {
  const core::Vec3<double> f = r[0] - r[1], g = r[1] - r[2], h = r[3] - r[2];
  const core::Vec3<double> a = core::cross(f, g), b = core::cross(h, g);
  const double a2 = core::dot(a, a), b2 = core::dot(b, b), g2 = core::dot(g, g);
  if (a2 <= kDegenerateSine2 * core::dot(f, f) * g2 ||
      b2 <= kDegenerateSine2 * core::dot(h, h) * g2 || a2 == 0.0 || b2 == 0.0)
    return false;  // a plane is undefined
  const double g_norm = std::sqrt(g2);
  x = core::dot(a, b);
  y = g_norm * core::dot(a, h);
  const core::Vec3<double> da = (g_norm / a2) * a;  // -d phi / d r_i
  const core::Vec3<double> db = (g_norm / b2) * b;  //  d phi / d r_l
  const double fg = core::dot(f, g) / (a2 * g_norm), hg = core::dot(h, g) / (b2 * g_norm);
  gradient[0] = -1.0 * da;
  gradient[1] = da + fg * a - hg * b;
  gradient[2] = hg * b - fg * a - db;
  gradient[3] = db;
  return true;
}

}  // namespace detail

/// A dihedral angle and its gradient with respect to each of the four positions.
struct TorsionAngle {
  double phi = 0.0;
  core::Vec3<double> gradient[4];  ///< d phi / d r_a; zero where the angle is degenerate
};

/// The IUPAC dihedral angle of r[0]-r[1]-r[2]-r[3] (see the file comment).
NOVAMD_HD TorsionAngle torsion_angle(const core::Vec3<double> (&r)[4]) {
  TorsionAngle out;
  double x, y;
  if (detail::torsion_parts(r, x, y, out.gradient)) out.phi = std::atan2(y, x);
  return out;
}

/// cos phi and sin phi of the dihedral and phi's gradient, without phi itself: what a sum of
/// cosines of multiples of phi needs (periodic_dihedral.hpp, opls_dihedral.hpp), which then takes
/// cos n phi and sin n phi by angle addition. No atan2 and no cosine or sine of an argument: on
/// the GPU each is a long chain of double operations in a term's thread.
struct TorsionCosine {
  double cos_phi = 1.0, sin_phi = 0.0;  ///< phi = 0 where the angle is degenerate
  core::Vec3<double> gradient[4];       ///< d phi / d r_a; zero where the angle is degenerate
};

NOVAMD_HD TorsionCosine torsion_cosine(const core::Vec3<double> (&r)[4]) {
  TorsionCosine out;
  double x, y;
  if (detail::torsion_parts(r, x, y, out.gradient)) {
    const double inverse_norm = 1.0 / std::sqrt(x * x + y * y);  // |A| |B| > 0 here
    out.cos_phi = x * inverse_norm;
    out.sin_phi = y * inverse_norm;
  }
  return out;
}

/// cos(n phi) and sin(n phi) from cos phi and sin phi by n angle additions (n >= 0).
NOVAMD_HD void multiple_angle(double cos_phi, double sin_phi, int n, double& cos_n, double& sin_n) {
  cos_n = 1.0;
  sin_n = 0.0;
  for (int j = 0; j < n; ++j) {
    const double c = cos_n * cos_phi - sin_n * sin_phi;
    sin_n = sin_n * cos_phi + cos_n * sin_phi;
    cos_n = c;
  }
}

}  // namespace novamd::physics
