#pragma once
/// @file rigid_kspace.hpp
/// Ewald and smooth PME for the point charges of rigid molecules (`rigid_sites: {coulomb:
/// {method: ewald | pme, ...}}`): the Ewald split of physics/ewald.hpp with molecules as the
/// unit of the real space,
///
///     E = E_real + E_reciprocal + E_self + E_intra + E_background
///     E_real  = k sum over molecule pairs whose centres lie within r_c, of every charge pair
///               q_a q_b erfc(alpha r_ab) / r_ab          (rigid_pair.hpp, physics::EwaldReal)
///     E_reciprocal, E_self, E_background: the atomic sums over every charge site placed in
///               space (cpu_kspace_term.hpp, cuda_kspace_term.cuh)
///     E_intra = -k sum_molecules sum_{a<b in it} q_a q_b erf(alpha r_ab) / r_ab
///
/// E_intra takes the pairs within one molecule out of the reciprocal sum, as NIST's SPC/E
/// reference calculations do. In a rigid molecule r_ab is fixed: E_intra is a constant per
/// component, and its forces, central and within one rigid body, give the molecule no force and
/// no torque; only its energy is kept.
///
/// Each site's reciprocal force f_s, at the offset d_s from its molecule's centre, acts on the
/// molecule as the site pairs' forces do: F = sum_s f_s and tau = sum_s d_s x f_s. The
/// reciprocal virial tensor is the atomic one, sum over sites of r_s (x) f_s; the molecular
/// virial, sum of R (x) F as the pair term reports it, is that less sum_s d_s (x) f_s
/// (symmetrised), molecule by molecule.
///
/// Charges only: point dipoles and quadrupoles would need the multipolar Ewald sum, and are
/// refused with it (make_rigid_model).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/forces/rigid_model.hpp"

namespace novamd::forces {

/// Every component's charge sites in slots of the same number per molecule (the most charges of
/// any component), so that molecule i's charges are slots i stride .. (i + 1) stride whatever
/// the molecules' order; slots past a component's charges hold a zero charge at the centre,
/// which adds nothing to any sum.
struct ChargeSlots {
  int stride = 0;
  std::vector<core::Vec3<double>> position;  ///< per component, stride each: body-frame offsets
  std::vector<double> charge;                ///< likewise (0 in the padding)
  std::vector<int> site;  ///< likewise: the slot's site in the component's list (-1: padding)
  std::vector<double> intramolecular_energy;  ///< per component: its E_intra per molecule
};

/// `settings.kspace` with the centres' cutoff and its alpha, wave vectors (ewald) or grid (pme)
/// resolved for `box` (forces::resolve_ewald); none without it.
std::optional<CoulombSettings> resolved_kspace(const RigidModelSettings& settings,
                                               const core::Box& box);

/// The slots of `model`'s components, E_intra at its Ewald screening.
ChargeSlots charge_slots(const RigidModel& model);

/// -k sum_{a<b} q_a q_b erf(alpha r_ab) / r_ab over the charges of one molecule.
double intramolecular_ewald_energy(const std::vector<MoleculeSite<double>>& sites, double k,
                                   double alpha);

/// Every slot's charge, molecule by molecule for molecules of `types` (the net charge and sum
/// of squares that the reciprocal sum's constant terms need).
std::vector<double> slot_charges(const ChargeSlots& slots, const std::vector<std::int32_t>& types);

/// The reciprocal part on the CPU: takes the charges where the pair term placed its sites
/// (PlacedSites, rigid_model.hpp), evaluates the atomic reciprocal sum (make_cpu_ewald_term or
/// make_cpu_pme_term without a real space) over them, and folds the sites' forces into the
/// molecules' forces and torques. Deterministic: the atomic sums are, and each molecule sums
/// its slots in order.
class CpuRigidKspace {
 public:
  /// `settings`: method ewald or pme, resolved (forces::resolve_ewald) with the centres'
  /// cutoff.
  CpuRigidKspace(const RigidModel& model, const CoulombSettings& settings);

  /// Adds each molecule's reciprocal force and torque to `force` and `torque` and, with
  /// `shares`, its E_reciprocal, E_self, E_intra and E_background and its molecular virial;
  /// `placed`: the molecules' sites in space (place_all).
  void add_to(const core::ParticleData& molecules, const PlacedSites& placed, const core::Box& box,
              core::Vec3Array& force, core::Vec3Array& torque, RigidShares shares);
  /// Forces, torques and shares for the molecules in slots [begin, end) alone, their charges'
  /// share of the reciprocal sum summed over the ranks by `share_over_ranks`'s sum.
  bool restrict_targets(std::size_t begin, std::size_t end);
  void share_over_ranks(RankSum sum) { reciprocal_->share_over_ranks(std::move(sum)); }

 private:
  /// Slot k's offset from the centre of molecule i (of component `type`), in space: its site's
  /// as placed (zero for padding).
  core::Vec3<double> offset(const PlacedSites& placed, std::size_t i, std::size_t type,
                            std::size_t k) const {
    const int site = slots_.site[type * static_cast<std::size_t>(slots_.stride) + k];
    return site < 0 ? core::Vec3<double>{} : placed.of(i)[site].position;
  }
  void place_charges(const core::ParticleData& molecules, const PlacedSites& placed);

  ChargeSlots slots_;
  std::unique_ptr<CpuForceTerm> reciprocal_;
  core::ParticleData sites_;          ///< the charges in space, slot order
  neighbors::ForceBuffers site_out_;  ///< their reciprocal forces, energies and virials
  std::size_t target_begin_ = 0, target_end_ = SIZE_MAX;  ///< the molecules that get forces
};

}  // namespace novamd::forces
