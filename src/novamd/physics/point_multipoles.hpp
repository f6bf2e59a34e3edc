#pragma once
/// @file point_multipoles.hpp
/// Site-site energies, forces and torques between the point multipoles of rigid molecules:
/// charges q, point dipoles of moment mu along the unit vector e, and linear point quadrupoles
/// of moment Q along e (seed 001; Gray and Gubbins, Theory of Molecular Fluids, vol. 1, 1984,
/// section 2.4 and appendix B). With r = r_i - r_j (site i's position less site j's), R = |r|,
/// n = r / R, c_i = e_i . n, c_j = e_j . n and g = e_i . e_j, and k the unit system's Coulomb
/// constant:
///
///     charge-charge          U = k q_i q_j / R
///     charge i, dipole j     U = k q_i mu_j c_j / R^2
///     dipole i, charge j     U = -k mu_i q_j c_i / R^2
///     dipole-dipole          U = k mu_i mu_j (g - 3 c_i c_j) / R^3
///     charge i, quadrupole j U = k q_i Q_j (3 c_j^2 - 1) / (2 R^3)
///     dipole i, quadrupole j U = (3 k mu_i Q_j / (2 R^4)) (c_i (1 - 5 c_j^2) + 2 g c_j)
///     quadrupole-quadrupole  U = (3 k Q_i Q_j / (4 R^5))
///                                (1 - 5 c_i^2 - 5 c_j^2 - 15 c_i^2 c_j^2 + 2 (g - 5 c_i c_j)^2)
///
/// (a quadrupole i with a charge or dipole j is the same term with i and j exchanged, n -> -n).
///
/// Conventions. A dipole is the limit of charges -q at -d e / 2 and +q at +d e / 2 with
/// mu = q d. The linear quadrupole moment is Buckingham's Q = Q_zz = sum_k q_k z_k^2 over charges
/// on the axis (traceless tensor Q (3 e e - 1) / 2): +q at +-d e and -2q at the centre give
/// Q = 2 q d^2. A dipole whose positive end points at a positive charge repels it (U > 0 for
/// q_i mu_j c_j > 0); ls1-mardyn's charge-dipole term has the opposite sign (the tests check the
/// sign against explicit point charges). Its dipole-dipole, dipole-quadrupole and
/// quadrupole-quadrupole terms are these (its parameters my2 = mu_i mu_j, myq15 = 1.5 mu Q and
/// q2075 = 0.75 Q_i Q_j, with k = 1 in its reduced units).
///
/// Reaction field between point dipoles (ls1-mardyn's `epsilonRF`, Barker and Watts 1973): the
/// continuum of dielectric constant eps_rf beyond the cutoff r_c adds
/// -k mu_i mu_j g 2 (eps_rf - 1) / ((2 eps_rf + 1) r_c^3) to each dipole pair within r_c: a torque
/// and no force (`dipole_reaction_field`).
///
/// Every term is returned as its energy and its partial derivatives in R, c_i, c_j and g
/// (`MultipoleTerms`); `forces_and_torques` turns them into the force on i (-dU/dr_i, the force
/// on j its opposite) and the torques on both orientations, tau = -e x dU/de, so that
/// tau_i + tau_j + r x F_i = 0 (angular momentum is kept).

#include <limits>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/core/site_kind.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::physics {

/// A term's energy and its partial derivatives in R, c_i, c_j and g (all held independent).
template <class T>
struct MultipoleTerms {
  T energy{}, d_distance{}, d_cos_i{}, d_cos_j{}, d_cos_ij{};

  NOVAMD_HD MultipoleTerms& operator+=(const MultipoleTerms& o) {
    energy += o.energy;
    d_distance += o.d_distance;
    d_cos_i += o.d_cos_i;
    d_cos_j += o.d_cos_j;
    d_cos_ij += o.d_cos_ij;
    return *this;
  }
};

/// The geometry of one site pair: R, 1 / R, c_i, c_j and g, from r = r_i - r_j and the unit
/// axes e_i, e_j (either may be ignored by the term: a charge has none).
template <class T>
struct SitePairGeometry {
  T distance, inv_distance, cos_i, cos_j, cos_ij;

  NOVAMD_HD static SitePairGeometry of(const core::Vec3<T>& r, const core::Vec3<T>& e_i,
                                       const core::Vec3<T>& e_j) {
    const T r2 = core::dot(r, r);
    const T inv = core::rsqrt_hd(r2);
    return {r2 * inv, inv, core::dot(e_i, r) * inv, core::dot(e_j, r) * inv, core::dot(e_i, e_j)};
  }
};

/// k q_i q_j / R.
template <class T>
NOVAMD_HD MultipoleTerms<T> charge_charge(T k_qq, const SitePairGeometry<T>& s) {
  const T u = k_qq * s.inv_distance;
  return {u, -u * s.inv_distance, T(0), T(0), T(0)};
}

/// k q_i mu_j c_j / R^2 (the dipole at j).
template <class T>
NOVAMD_HD MultipoleTerms<T> charge_dipole(T k_q_mu, const SitePairGeometry<T>& s) {
  const T a = k_q_mu * s.inv_distance * s.inv_distance;  // dU/dc_j
  const T u = a * s.cos_j;
  return {u, T(-2) * u * s.inv_distance, T(0), a, T(0)};
}

/// -k mu_i q_j c_i / R^2 (the dipole at i).
template <class T>
NOVAMD_HD MultipoleTerms<T> dipole_charge(T k_mu_q, const SitePairGeometry<T>& s) {
  const T a = -k_mu_q * s.inv_distance * s.inv_distance;  // dU/dc_i
  const T u = a * s.cos_i;
  return {u, T(-2) * u * s.inv_distance, a, T(0), T(0)};
}

/// k mu_i mu_j (g - 3 c_i c_j) / R^3.
template <class T>
NOVAMD_HD MultipoleTerms<T> dipole_dipole(T k_mu_mu, const SitePairGeometry<T>& s) {
  const T a = k_mu_mu * s.inv_distance * s.inv_distance * s.inv_distance;
  const T u = a * (s.cos_ij - T(3) * s.cos_i * s.cos_j);
  return {u, T(-3) * u * s.inv_distance, T(-3) * a * s.cos_j, T(-3) * a * s.cos_i, a};
}

/// The reaction field's share of a dipole pair within the cutoff: -rf g, with
/// rf = k mu_i mu_j 2 (eps_rf - 1) / ((2 eps_rf + 1) r_c^3) (`reaction_field_factor`).
template <class T>
NOVAMD_HD MultipoleTerms<T> dipole_reaction_field(T rf, const SitePairGeometry<T>& s) {
  return {-rf * s.cos_ij, T(0), T(0), T(0), -rf};
}

/// 2 (eps_rf - 1) / ((2 eps_rf + 1) r_c^3): rf per k mu_i mu_j (eps_rf = infinity gives 1 / r_c^3).
inline double reaction_field_factor(double epsilon_rf, double cutoff) {
  const double rc3 = cutoff * cutoff * cutoff;
  return epsilon_rf == std::numeric_limits<double>::infinity()
             ? 1.0 / rc3
             : 2.0 * (epsilon_rf - 1.0) / ((2.0 * epsilon_rf + 1.0) * rc3);
}

/// k q_i Q_j (3 c_j^2 - 1) / (2 R^3) (the quadrupole at j).
template <class T>
NOVAMD_HD MultipoleTerms<T> charge_quadrupole(T k_q_Q, const SitePairGeometry<T>& s) {
  const T a = T(0.5) * k_q_Q * s.inv_distance * s.inv_distance * s.inv_distance;
  const T u = a * (T(3) * s.cos_j * s.cos_j - T(1));
  return {u, T(-3) * u * s.inv_distance, T(0), T(6) * a * s.cos_j, T(0)};
}

/// (3 k mu_i Q_j / (2 R^4)) (c_i (1 - 5 c_j^2) + 2 g c_j) (the dipole at i, the quadrupole at j).
template <class T>
NOVAMD_HD MultipoleTerms<T> dipole_quadrupole(T k_mu_Q, const SitePairGeometry<T>& s) {
  const T inv2 = s.inv_distance * s.inv_distance;
  const T a = T(1.5) * k_mu_Q * inv2 * inv2;
  const T cj2 = s.cos_j * s.cos_j;
  const T u = a * (s.cos_i * (T(1) - T(5) * cj2) + T(2) * s.cos_ij * s.cos_j);
  return {u, T(-4) * u * s.inv_distance, a * (T(1) - T(5) * cj2),
          a * (T(-10) * s.cos_i * s.cos_j + T(2) * s.cos_ij), T(2) * a * s.cos_j};
}

/// (3 k Q_i Q_j / (4 R^5)) (1 - 5 c_i^2 - 5 c_j^2 - 15 c_i^2 c_j^2 + 2 (g - 5 c_i c_j)^2).
template <class T>
NOVAMD_HD MultipoleTerms<T> quadrupole_quadrupole(T k_Q_Q, const SitePairGeometry<T>& s) {
  const T inv2 = s.inv_distance * s.inv_distance;
  const T a = T(0.75) * k_Q_Q * inv2 * inv2 * s.inv_distance;
  const T ci = s.cos_i, cj = s.cos_j;
  const T ci2 = ci * ci, cj2 = cj * cj;
  const T term = s.cos_ij - T(5) * ci * cj;
  const T u = a * (T(1) - T(5) * (ci2 + cj2) - T(15) * ci2 * cj2 + T(2) * term * term);
  return {u, T(-5) * u * s.inv_distance, a * (T(-10) * ci - T(30) * ci * cj2 - T(20) * cj * term),
          a * (T(-10) * cj - T(30) * ci2 * cj - T(20) * ci * term), T(4) * a * term};
}

/// The term between a site of kind a (at i) and one of kind b (at j), k = k_e times their
/// strengths, at their geometry: the one written above for the pair, or for the pair the other
/// way round with n -> -n (c_i' = -c_j, c_j' = -c_i, their derivatives exchanged and negated);
/// with `reaction_field` (physics::reaction_field_factor, 0: none) between dipoles. Zero where
/// either site is a Lennard-Jones centre.
template <class T>
NOVAMD_HD MultipoleTerms<T> multipole_terms(core::SiteKind a, core::SiteKind b, T k,
                                            const SitePairGeometry<T>& s, T reaction_field) {
  using core::SiteKind;
  const auto swapped = [](const MultipoleTerms<T>& t) {  // written for j's kind first: n -> -n
    return MultipoleTerms<T>{t.energy, t.d_distance, -t.d_cos_j, -t.d_cos_i, t.d_cos_ij};
  };
  const SitePairGeometry<T> back{s.distance, s.inv_distance, -s.cos_j, -s.cos_i, s.cos_ij};
  switch (a) {
    case SiteKind::Charge:
      if (b == SiteKind::Charge) return charge_charge(k, s);
      if (b == SiteKind::Dipole) return charge_dipole(k, s);
      if (b == SiteKind::Quadrupole) return charge_quadrupole(k, s);
      break;
    case SiteKind::Dipole:
      if (b == SiteKind::Charge) return dipole_charge(k, s);
      if (b == SiteKind::Dipole) {
        auto t = dipole_dipole(k, s);
        if (reaction_field != T(0)) t += dipole_reaction_field(k * reaction_field, s);
        return t;
      }
      if (b == SiteKind::Quadrupole) return dipole_quadrupole(k, s);
      break;
    case SiteKind::Quadrupole:
      if (b == SiteKind::Charge) return swapped(charge_quadrupole(k, back));
      if (b == SiteKind::Dipole) return swapped(dipole_quadrupole(k, back));
      if (b == SiteKind::Quadrupole) return quadrupole_quadrupole(k, s);
      break;
    case SiteKind::LennardJones:
      break;
  }
  return {};
}

/// The force on site i (that on j is its opposite) and the torques on the two orientations.
template <class T>
struct SitePairForces {
  core::Vec3<T> force_on_i, torque_on_i, torque_on_j;
};

/// dU/dr = U_R n + U_ci (e_i - c_i n) / R + U_cj (e_j - c_j n) / R;
/// tau_i = -e_i x (U_ci n + U_g e_j), tau_j = -e_j x (U_cj n + U_g e_i).
template <class T>
NOVAMD_HD SitePairForces<T> forces_and_torques(const MultipoleTerms<T>& t,
                                               const SitePairGeometry<T>& s, const core::Vec3<T>& r,
                                               const core::Vec3<T>& e_i, const core::Vec3<T>& e_j) {
  const core::Vec3<T> n = s.inv_distance * r;
  const T along_n = t.d_distance - (t.d_cos_i * s.cos_i + t.d_cos_j * s.cos_j) * s.inv_distance;
  const core::Vec3<T> gradient =
      along_n * n + (t.d_cos_i * s.inv_distance) * e_i + (t.d_cos_j * s.inv_distance) * e_j;
  const core::Vec3<T> pull_i = t.d_cos_i * n + t.d_cos_ij * e_j;
  const core::Vec3<T> pull_j = t.d_cos_j * n + t.d_cos_ij * e_i;
  return {T(-1) * gradient, core::cross(pull_i, e_i), core::cross(pull_j, e_j)};
}

}  // namespace novamd::physics
