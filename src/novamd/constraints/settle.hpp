#pragma once
/// @file settle.hpp
/// SETTLE: the exact solution of the three distance constraints of a rigid three-site water
/// (S. Miyamoto and P. A. Kollman, J. Comput. Chem. 13, 952 (1992)). A step moves the molecule
/// from positions that satisfy the constraints (`before`) to positions that need not
/// (`after`); SETTLE finds the positions that satisfy them and differ from `after` by
/// displacements along the bonds of `before`, weighted by the inverse masses: the equations
/// SHAKE iterates, solved in closed form.
///
/// The construction (the paper's appendix A): the centre of mass of `after` stays. In a frame
/// whose z axis is normal to the plane of `before` and whose x axis is normal to both z and the
/// oxygen's offset from the centre of mass, the canonical triangle (oxygen at (0, ra, 0), the
/// hydrogens at (-+rc, -rb, 0)) is tilted by phi about x and psi about y so that the three z
/// components match `after`'s (the displacements along the old bonds have no z component), then
/// rotated by theta about z so that the angular momentum of the displacements about z vanishes:
///
///     sin phi = z_O / ra,   sin psi = (z_H1 - z_H2) / (2 rc cos phi),
///     sin theta = (alpha gamma - beta sqrt(alpha^2 + beta^2 - gamma^2)) / (alpha^2 + beta^2)
///
/// with alpha, beta, gamma from the old and tilted positions (below). ra, rb: distances of the
/// oxygen and of the hydrogens' midpoint from the centre of mass; rc: half the H-H distance.
/// Positions are relative to any origin near the molecule (the caller takes the minimum image
/// from the oxygen). Written once for host and device, in double.

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::constraints {

/// The rigid geometry of a three-site water and its masses.
struct WaterGeometry {
  double d_oh;  ///< oxygen-hydrogen distance
  double d_hh;  ///< hydrogen-hydrogen distance
  double m_o;   ///< mass of the oxygen
  double m_h;   ///< mass of each hydrogen
};

/// The oxygen and the two hydrogens of one water (positions or velocities).
struct Water {
  core::Vec3<double> o, h1, h2;
};

namespace detail {

/// v / |v|, by one reciprocal square root.
NOVAMD_HD core::Vec3<double> unit(const core::Vec3<double>& v) {
  return core::rsqrt_hd(core::dot(v, v)) * v;
}

/// Components of v in the frame (ex, ey, ez).
struct Frame {
  core::Vec3<double> ex, ey, ez;
  NOVAMD_HD core::Vec3<double> in(const core::Vec3<double>& v) const {
    return {core::dot(ex, v), core::dot(ey, v), core::dot(ez, v)};
  }
  NOVAMD_HD core::Vec3<double> out(const core::Vec3<double>& v) const {
    return v.x * ex + v.y * ey + v.z * ez;
  }
};

}  // namespace detail

/// The constrained positions for a water that moved from `before` (constrained) to `after`.
///
/// On the GPU a thread solves a water alone, and the solve's time is its chain of dependent
/// square roots and divisions (each a sequence of some ten double operations). The chain here:
/// the frame's axes take a reciprocal square root each, side by side (y = z x x needs none: z and
/// x are orthogonal unit vectors); cos phi comes with 1 / cos phi from one reciprocal square
/// root; the geometry's divisions (by ra, 2 rc, the total mass) are products by reciprocals that
/// do not wait for the positions; theta's division runs beside its square root.
NOVAMD_HD Water settle_positions(const Water& before, const Water& after, const WaterGeometry& g) {
  using core::cross;
  using core::Vec3;
  const double inverse_total = 1.0 / (g.m_o + 2.0 * g.m_h);
  const double rc = 0.5 * g.d_hh;
  const double height = std::sqrt(g.d_oh * g.d_oh - rc * rc);  // oxygen to the H-H midpoint
  const double ra = 2.0 * g.m_h * height * inverse_total;
  const double rb = height - ra;
  const double inverse_ra = 1.0 / ra, inverse_2rc = 1.0 / g.d_hh;

  const Vec3<double> com = inverse_total * (g.m_o * after.o + g.m_h * (after.h1 + after.h2));
  const Vec3<double> a1 = after.o - com, b1 = after.h1 - com, c1 = after.h2 - com;
  const Vec3<double> b0 = before.h1 - before.o, c0 = before.h2 - before.o;

  const Vec3<double> normal = cross(b0, c0);
  const Vec3<double> ex = detail::unit(cross(a1, normal));
  const Vec3<double> ez = detail::unit(normal);
  const detail::Frame f{ex, cross(ez, ex), ez};
  const Vec3<double> pb0 = f.in(b0), pc0 = f.in(c0);
  const Vec3<double> pa1 = f.in(a1), pb1 = f.in(b1), pc1 = f.in(c1);

  // Tilts about x (phi) and y (psi) that give the three z components of `after`.
  const double sin_phi = pa1.z * inverse_ra;
  const double cos2_phi = 1.0 - sin_phi * sin_phi;
  const double inverse_cos_phi = core::rsqrt_hd(cos2_phi);
  const double cos_phi = cos2_phi * inverse_cos_phi;
  const double sin_psi = (pb1.z - pc1.z) * inverse_2rc * inverse_cos_phi;
  const double ya2 = ra * cos_phi;
  const double yb2 = -rb * cos_phi - rc * sin_psi * sin_phi;
  const double yc2 = -rb * cos_phi + rc * sin_psi * sin_phi;
  // x of the hydrogens: -rc cos psi analytically; taken from the H-H distance instead, which
  // restores it against rounding (GROMACS and OpenMM do the same).
  const double dyz2 = (yb2 - yc2) * (yb2 - yc2) + (pb1.z - pc1.z) * (pb1.z - pc1.z);
  const double xb2 = -0.5 * std::sqrt(std::fmax(g.d_hh * g.d_hh - dyz2, 0.0));

  // Rotation about z that leaves no angular momentum of the displacements about z.
  const double alpha = xb2 * (pb0.x - pc0.x) + pb0.y * yb2 + pc0.y * yc2;
  const double beta = xb2 * (pc0.y - pb0.y) + pb0.x * yb2 + pc0.x * yc2;
  const double gamma = pb0.x * pb1.y - pb1.x * pb0.y + pc0.x * pc1.y - pc1.x * pc0.y;
  const double norm2 = alpha * alpha + beta * beta;
  const double inverse_norm2 = 1.0 / norm2;
  const double sin_theta =
      (alpha * gamma - beta * std::sqrt(std::fmax(norm2 - gamma * gamma, 0.0))) * inverse_norm2;
  const double cos_theta = std::sqrt(1.0 - sin_theta * sin_theta);

  const Vec3<double> a3{-ya2 * sin_theta, ya2 * cos_theta, pa1.z};
  const Vec3<double> b3{xb2 * cos_theta - yb2 * sin_theta, xb2 * sin_theta + yb2 * cos_theta,
                        pb1.z};
  const Vec3<double> c3{-xb2 * cos_theta - yc2 * sin_theta, -xb2 * sin_theta + yc2 * cos_theta,
                        pc1.z};
  return {com + f.out(a3), com + f.out(b3), com + f.out(c3)};
}

}  // namespace novamd::constraints
