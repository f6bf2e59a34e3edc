#pragma once
/// @file rigid_pair.hpp
/// The interaction of two rigid molecules (seed 001's model, ls1-mardyn's components): every
/// site of one with every site of the other, Lennard-Jones sites with Lennard-Jones sites
/// (physics/lennard_jones.hpp) and the point multipoles among themselves
/// (physics/point_multipoles.hpp). The caller decides whether the pair interacts at all: in
/// MarDyn's convention a pair whose centres of mass lie within the cutoff interacts through all
/// its site pairs, however far apart the sites.
///
/// Per pair of Lennard-Jones sites the energy may be shifted by a constant (MarDyn's `shift6`,
/// the site pair's potential at the cutoff), which changes no force. Point dipoles may carry the
/// reaction field of a dielectric continuum beyond the cutoff.
///
/// The result is the force on molecule i (that on j is its opposite), the torques on both about
/// their centres (each site's lever arm times its force, plus the multipoles' own torques) and
/// the energy. Under Ewald or PME (forces/rigid_kspace.hpp) the charge pairs are the real-space
/// part of the split, k q_a q_b erfc(alpha r) / r (physics::EwaldReal), the reciprocal sum the
/// rest. Angular momentum is kept: tau_i + tau_j + r x F_i = 0 for r the centres'
/// separation, which the tests check.

#include <cstddef>
#include <type_traits>

#include "novamd/core/host_device.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/site_kind.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/ewald.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/point_multipoles.hpp"

namespace novamd::forces {

using core::SiteKind;

/// How a site is aligned, and how the pair loop reads the other molecule's sites: in FP32 to 16
/// bytes and copied whole, so that a GPU reads a site in three wide loads (kind and position,
/// axis and strength, type); in FP64, where such copies of the larger sites cost more than they
/// save (measured on seed 001's data sets, docs/performance.md), naturally and by reference.
template <class T>
inline constexpr std::size_t kSiteAlignment = sizeof(T) == 4 ? 16 : alignof(T);

/// One site of a rigid molecule, its offset from the centre of mass and its axis given in the
/// body frame (core/rigid_shape.hpp), or in space once placed (place_sites).
template <class T>
struct alignas(kSiteAlignment<T>) MoleculeSite {
  SiteKind kind = SiteKind::LennardJones;
  core::Vec3<T> position;  ///< from the centre of mass
  core::Vec3<T> axis;      ///< a unit vector: a dipole's or quadrupole's direction
  T strength{};            ///< a charge's q, a dipole's mu, a quadrupole's Q
  int lj_type = 0;         ///< a Lennard-Jones site's row in RigidPairParams::lj
};
/// How molecule_pair reads the other molecule's sites (see kSiteAlignment).
template <class T>
using SiteRead = std::conditional_t<sizeof(T) == 4, const MoleculeSite<T>, const MoleculeSite<T>&>;

template <class T>
struct RigidPairParams {
  const typename physics::LennardJones<T>::Params* lj = nullptr;  ///< lj_types x lj_types
  const T* lj_shift = nullptr;  ///< per Lennard-Jones type pair, added to its energy (or null)
  int lj_types = 0;
  T coulomb{};         ///< k_e, energy x length per unit charge product
  T reaction_field{};  ///< physics::reaction_field_factor, or 0 for none
  /// Ewald's real space for charge pairs (alpha 0: plain Coulomb, k q_a q_b / r).
  typename physics::EwaldReal<T>::Params screening{};
};

template <class T>
struct MoleculePairResult {
  core::Vec3<T> force_on_i, torque_on_i, torque_on_j;
  T energy{};
};

/// The `n` sites `body` of a molecule turned by q, into `out`: offsets and axes in space. A
/// traversal places each molecule's sites once per evaluation, not once per pair.
template <class T>
NOVAMD_HD void place_sites(const MoleculeSite<T>* body, int n, const core::Quaternion<T>& q,
                           MoleculeSite<T>* out) {
  for (int s = 0; s < n; ++s) {
    out[s] = body[s];
    out[s].position = core::rotate(q, body[s].position);
    out[s].axis = core::rotate(q, body[s].axis);
  }
}

/// Molecules i and j, of the placed sites `a` (na of them) and `b` (nb), their centres r apart
/// (r_i - r_j, the minimum image). A traversal that needs no energy, or no torque on j (full
/// lists: j's own visit computes it), leaves them out with `kEnergy` and `kTorqueOnJ` false
/// (their results are then zero); the force and i's torque are the same either way.
template <class T, bool kEnergy = true, bool kTorqueOnJ = true>
NOVAMD_HD MoleculePairResult<T> molecule_pair(const MoleculeSite<T>* a, int na,
                                              const MoleculeSite<T>* b, int nb,
                                              const core::Vec3<T>& r, const RigidPairParams<T>& p) {
  MoleculePairResult<T> out;
  for (int s = 0; s < na; ++s) {
    const MoleculeSite<T>& sa = a[s];
    for (int t = 0; t < nb; ++t) {
      SiteRead<T> sb = b[t];
      const bool lj_a = sa.kind == SiteKind::LennardJones, lj_b = sb.kind == SiteKind::LennardJones;
      if (lj_a != lj_b) continue;  // Lennard-Jones sites meet only their own kind
      const core::Vec3<T> d = r + sa.position - sb.position;  // site a less site b
      core::Vec3<T> f;                                        // on site a
      if (lj_a) {
        const int pair = sa.lj_type * p.lj_types + sb.lj_type;
        const auto lj = physics::LennardJones<T>::evaluate(core::dot(d, d), p.lj[pair]);
        f = lj.force_over_r * d;
        if constexpr (kEnergy) out.energy += lj.energy + (p.lj_shift ? p.lj_shift[pair] : T(0));
      } else if (p.screening.alpha != T(0) && sa.kind == SiteKind::Charge &&
                 sb.kind == SiteKind::Charge) {
        const T qq = sa.strength * sb.strength;
        const auto e = physics::EwaldReal<T>::evaluate(core::dot(d, d), p.screening);
        f = (qq * e.force_over_r) * d;
        if constexpr (kEnergy) out.energy += qq * e.energy;
      } else {
        const auto g = physics::SitePairGeometry<T>::of(d, sa.axis, sb.axis);
        const auto terms = physics::multipole_terms(
            sa.kind, sb.kind, p.coulomb * sa.strength * sb.strength, g, p.reaction_field);
        const auto ft = physics::forces_and_torques(terms, g, d, sa.axis, sb.axis);
        f = ft.force_on_i;
        out.torque_on_i += ft.torque_on_i;
        if constexpr (kTorqueOnJ) out.torque_on_j += ft.torque_on_j;
        if constexpr (kEnergy) out.energy += terms.energy;
      }
      out.force_on_i += f;
      out.torque_on_i += core::cross(sa.position, f);
      if constexpr (kTorqueOnJ) out.torque_on_j -= core::cross(sb.position, f);
    }
  }
  return out;
}

}  // namespace novamd::forces
