#pragma once
/// @file rigid_model.hpp
/// What the rigid-molecule force term needs of the components (core/components.hpp): each
/// component's sites in its body frame as forces::MoleculeSite, a Lennard-Jones pair table over
/// every Lennard-Jones site of every component (Lorentz-Berthelot, with MarDyn's xi and eta between
/// components), the energy shifts of those pairs at the cutoff (MarDyn's `shift6`: each site
/// pair's potential at the centres' cutoff, subtracted), and the Coulomb and reaction-field
/// factors; and the CPU's evaluation of every molecule pair within the cutoff of their centres
/// (all pairs, minimum image), the oracle of faster traversals. As in MarDyn, the energy jumps
/// where a pair's centres cross the cutoff: the shift zeroes each LJ site pair at the centres'
/// cutoff, not at the sites' distance, and the multipoles are not shifted.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/components.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/forces/rigid_pair.hpp"
#include "novamd/physics/lennard_jones.hpp"

namespace novamd::forces {

struct RigidModelSettings {
  double coulomb_constant = 1.0;     ///< k_e in the unit system
  std::optional<double> cutoff;      ///< on the centres' distance; none: every pair (no box wrap)
  bool shift = false;                ///< MarDyn's LJ energy shift at the cutoff
  std::optional<double> epsilon_rf;  ///< the dipoles' reaction field (needs a cutoff)
  /// MarDyn's homogeneous long-range correction (rigid_tail): the Lennard-Jones tails of the
  /// unshifted site pairs and the dipoles' reaction-field self energy.
  bool tail_correction = false;
  /// MarDyn's mixing between components a and b (xi scales epsilon, eta sigma), a x b, row-major;
  /// empty: 1 for every pair.
  std::vector<double> xi, eta;
  /// Ewald or smooth PME for the charge sites (forces/rigid_kspace.hpp): `method` ewald or pme,
  /// its cutoff the centres' (`cutoff` above); none: plain Coulomb within the cutoff.
  std::optional<CoulombSettings> kspace;
};

struct RigidModel {
  std::vector<std::vector<MoleculeSite<double>>> sites;  ///< per component (the particle type)
  std::vector<physics::LennardJones<double>::Params> lj;
  std::vector<double> lj_shift;
  int lj_types = 0;
  double coulomb_constant = 1.0;
  double reaction_field = 0.0;
  std::optional<double> cutoff;
  double ewald_alpha = 0.0;  ///< the charge pairs' Ewald screening (0: plain Coulomb)

  RigidPairParams<double> params() const {
    return {lj.data(),        lj_shift.data(), lj_types,
            coulomb_constant, reaction_field,  screening<double>()};
  }
  /// The charge pairs' real-space parameters in T (zero without Ewald).
  template <class T>
  typename physics::EwaldReal<T>::Params screening() const {
    if (ewald_alpha == 0.0) return {};
    return physics::EwaldReal<T>::make_params(coulomb_constant, 1.0, ewald_alpha);
  }
};

RigidModel make_rigid_model(const std::vector<core::ResolvedComponent>& components,
                            const RigidModelSettings& settings);

/// Why Ewald and PME cannot sum `components`' charges: a point dipole or quadrupole (its
/// multipolar sum is not implemented), or no charge at all; none where they can. Inline: the
/// config reader calls it without the rest of the model.
inline std::optional<std::string> ewald_refusal(
    const std::vector<core::ResolvedComponent>& components) {
  bool charges = false;
  for (const auto& c : components)
    for (const auto& site : c.sites) {
      charges = charges || site.kind == core::SiteKind::Charge;
      if (site.kind == core::SiteKind::Dipole || site.kind == core::SiteKind::Quadrupole)
        return "component " + c.name + " has a point " +
               (site.kind == core::SiteKind::Dipole ? "dipole" : "quadrupole") +
               ", and Ewald and PME sum point charges only";
    }
  if (!charges) return "no component has a charge site";
  return std::nullopt;
}

/// What a refused `rigid_sites.coulomb` is expected to be instead.
inline constexpr const char* kEwaldExpected =
    "components of charges and Lennard-Jones sites, or no coulomb entry (multipoles within the "
    "cutoff, with epsilon_rf's reaction field)";

/// MarDyn's homogeneous long-range correction (ls1-mardyn's longRange/Homogeneous.cpp) for
/// `count[c]` molecules of each component in a uniform, isotropic fluid:
///
///     U_tail V = 1/2 sum_{c,d} N_c N_d sum_{a in c, b in d} 4 pi 4 eps_ab (sigma_ab^12 T_12 -
///                sigma_ab^6 T_6),
///     W_tail V = 1/2 sum_{c,d} N_c N_d sum_{a,b} 4 pi [r_c^3 u_ab(r_c) + 3 int_{r_c}^inf R^2
///                u_ab(R) dR],
///
/// u_ab the site pair's Lennard-Jones potential averaged over the orientations at centre
/// distance R and T_k its tail integrals (physics/site_tails.hpp); W is sum R . F, the molecular
/// virial of the pairs beyond the cutoff (-R du/dR, integrated by parts). Only where `shift` is
/// off: MarDyn adds the tail of the site pairs it does not shift. The reaction field's self
/// energy, -1/2 k_e k_RF sum_i |M_i|^2 with M_i the molecule's dipole moment (its dipoles and
/// its charges' q r, as MarDyn sums them) and k_RF = 2 (eps_rf - 1) / ((2 eps_rf + 1) r_c^3),
/// is a constant that adds to the energy alone (MarDyn also adds three times it to its virial, a
/// convention with no force behind it; the pressure here has no share of it). Zero without
/// `tail_correction`.
struct RigidTail {
  double energy_times_volume = 0.0;  ///< the Lennard-Jones tails' U V
  double virial_times_volume = 0.0;  ///< their W V
  double self_energy = 0.0;          ///< the reaction field's, whatever the volume
};
RigidTail rigid_tail(const std::vector<core::ResolvedComponent>& components,
                     const RigidModelSettings& settings, const std::vector<std::int64_t>& count);

/// Every molecule's sites placed in space (place_sites), in storage order: molecule i's are
/// sites[start[i] .. start[i + 1]).
struct PlacedSites {
  std::vector<std::size_t> start;
  std::vector<MoleculeSite<double>> sites;

  const MoleculeSite<double>* of(std::size_t i) const { return sites.data() + start[i]; }
  int count(std::size_t i) const { return static_cast<int>(start[i + 1] - start[i]); }
};
/// Per-molecule shares of the energy and of the virial tensor's components (core/tensor.hpp
/// order), as neighbors::ForceBuffers keeps them (null: not wanted).
struct RigidShares {
  std::vector<double>* energy = nullptr;
  std::array<std::vector<double>, core::kTensorComponents>* virial = nullptr;
};

/// Places every molecule's sites by its orientation into `into` (its storage kept between calls).
void place_all(const RigidModel& model, const core::ParticleData& particles, PlacedSites& into);

/// Forces and torques on every molecule (added to `force` and `torque`, space frame) and the
/// total energy and molecular virial (the symmetric part of sum over pairs of r_a F_b, r the
/// centres' separation and F the force on the first), from positions (centres), orientations
/// and types (components).
struct RigidTotals {
  double energy = 0.0;
  core::SymmetricTensor<double> virial;
};
RigidTotals add_rigid_forces(const RigidModel& model, const core::ParticleData& particles,
                             const core::Box& box, core::Vec3Array& force, core::Vec3Array& torque);

}  // namespace novamd::forces
