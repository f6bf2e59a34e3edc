#pragma once
/// @file cpu_rigid_molecules.hpp
/// Rigid molecules' interactions on the CPU (seed 001), molecules as the traversal's unit: a
/// Verlet list of the centres of mass within the cutoff plus a skin (neighbors/verlet_list.hpp,
/// full lists), every molecule's sites placed in space once per evaluation, and for each
/// molecule every neighbour whose centre lies within the cutoff, all its site pairs
/// (forces/rigid_pair.hpp). Each thread owns its molecules: molecule i's force,
/// torque and halves of its pairs' energy and virial are written by the thread that visits i,
/// in its list's fixed order, so the sums repeat bit for bit for any thread count.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/rigid_kspace.hpp"
#include "novamd/forces/rigid_model.hpp"
#include "novamd/neighbors/verlet_list.hpp"

namespace novamd::forces {

class CpuRigidMolecules final : public CpuForceTerm {
 public:
  /// `model` with a cutoff (its centres' cutoff); `skin` the list's; `kspace` the model's Ewald
  /// or PME settings resolved for the box (forces::resolve_ewald), where it has them.
  CpuRigidMolecules(RigidModel model, double skin,
                    const std::optional<CoulombSettings>& kspace = std::nullopt);

  /// Adds every molecule's force and torque (space frame) to `force` and `torque`; with
  /// `shares`, half of each of its pairs' energy and molecular virial to its shares.
  void add_forces_and_torques(const core::ParticleData& particles, const core::Box& box,
                              core::Vec3Array& force, core::Vec3Array& torque,
                              RigidShares shares = {});

  /// The same into the backend's buffers (their `torques` set).
  void add_to(const core::ParticleData& particles, const core::Box& box,
              neighbors::ForceBuffers& out, bool with_energy) override;
  std::int64_t list_builds() const override { return earlier_builds_ + list_.builds(); }
  void invalidate_lists() override;
  /// Forces and torques on the molecules in slots [begin, end) alone (a spatial brick's owned
  /// ones), their reciprocal share too; the others are read as sources (ghosts).
  bool restrict_targets(std::size_t begin, std::size_t end) override;
  void share_over_ranks(RankSum sum) override;
  bool lists_due(const core::ParticleData& particles, const core::Box& box) const override {
    return list_.due(particles, box);
  }
  void follow_box(const core::Box& box) override { list_.follow_box(box); }
  neighbors::NeighborState neighbor_state() const override;
  void restore_neighbors(const neighbors::NeighborState& state, const core::ParticleData& particles,
                         const core::Box& box) override;

  const RigidModel& model() const { return model_; }

 private:
  RigidModel model_;
  neighbors::VerletList list_;
  std::int64_t earlier_builds_ = 0;  ///< builds of lists dropped by invalidate_lists
  PlacedSites placed_;               ///< each molecule's sites in space, placed once per evaluation
  std::size_t target_begin_ = 0, target_end_ = SIZE_MAX;  ///< the molecules that get forces
  std::optional<CpuRigidKspace> kspace_;  ///< the charges' reciprocal sum (Ewald or PME)
};

}  // namespace novamd::forces
