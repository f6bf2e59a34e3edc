#pragma once
/// @file host_constraints.hpp
/// A constraint plan (constraint_plan.hpp) held on particles in host memory: the CPU backend's
/// part of DESIGN principle 11, as RATTLE splits it (H. C. Andersen, J. Comput. Phys. 52, 24
/// (1983)). After a drift over dt the positions are constrained (SETTLE for each rigid water,
/// settle.hpp; SHAKE for each hydrogen cluster, cluster_constraints.hpp), the velocities
/// corrected by the same displacements over dt, and then constrained (RATTLE's condition, solved
/// exactly per water or cluster); after a kick or a thermostat's velocity update the velocities
/// are constrained again. The condition right after the drift changes nothing for velocity
/// Verlet (the condition is a linear projection at fixed positions, so the kick's condition
/// would remove the same); for Langevin it keeps the radial velocity the drift's correction
/// leaves out of the O step, whose condition counts its kinetic-energy change as the
/// thermostat's heat (counted there, it would leak into the conserved energy at first order in
/// the time step).
/// The instantaneous constraint forces (constraint_forces: what keeps every length fixed at this
/// instant, given the positions, velocities and forces) have the virial sum_p r_p (x) G_p (r_p
/// relative to the group's first particle: the forces of a group add up to zero), which joins the
/// pressure at any step, whatever the integrator.
/// Each water and cluster is solved alone by the updates of constraint_groups.hpp, each
/// molecule of coupled bonds (all_bonds) by those of coupled_constraints.hpp (the CUDA backend
/// runs the same), and the virial summed over them in the plan's order, so the result does not
/// depend on the thread count.

#include <cstdint>
#include <string>
#include <vector>

#include "novamd/constraints/constraint_groups.hpp"
#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/constraints/coupled_constraints.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3_pointers.hpp"

namespace novamd::constraints {

class HostConstraints {
 public:
  /// `tolerance`: each constrained length within this fraction of its own (`tolerance`).
  HostConstraints(const ConstraintPlan& plan, double tolerance);

  /// Finds each particle of the plan in `p` (storage order): after the particles were reordered.
  void locate(const core::ParticleData& p);

  /// Where a drift keeps the positions it starts from (RememberingPositions), for `n` particles.
  core::Vec3Pointers positions_before_drift(std::size_t n);

  /// After a drift over dt from the positions kept in positions_before_drift: positions
  /// constrained, velocities corrected by displacement / dt, velocities constrained where
  /// `velocity_condition` (integrate::VelocityCondition says when it may wait).
  /// @throws core::RunError where SHAKE does not converge, naming the cluster and the deviation.
  void after_drift(core::ParticleData& p, double dt, const core::BoxView<double>& box,
                   const std::vector<double>& inverse_mass_by_type, bool velocity_condition);

  /// after_drift for a drift with a Langevin O step inside it (`thermostat`: the share of the
  /// drift's time after the O step, and the heat per particle; ThermostatInDrift): the O step's
  /// velocity condition at the drift's start first. Only without coupled sets
  /// (has_coupled_sets); the backends constrain each stage in turn where there are.
  void after_drift_with_thermostat(core::ParticleData& p, double dt,
                                   const core::BoxView<double>& box,
                                   const std::vector<double>& inverse_mass_by_type,
                                   bool velocity_condition, const ThermostatInDrift& thermostat);

  /// Whether the plan has coupled sets (constraints solved together beyond a cluster).
  bool has_coupled_sets() const;

  /// The velocity condition (inverse masses include the force-to-acceleration factor); where
  /// `heat` is given, each particle's kinetic-energy change is added to heat[i] (O steps).
  void constrain_velocities(core::ParticleData& p, const core::BoxView<double>& box,
                            const std::vector<double>& inverse_mass_by_type,
                            double* heat = nullptr);

  /// The virial of the constraint forces at the particles' positions, velocities and forces.
  core::SymmetricTensor<double> virial(core::ParticleData& p, const core::BoxView<double>& box,
                                       const std::vector<double>& inverse_mass_by_type);

  /// A fresh run's start: positions projected onto the constraints (SHAKE from themselves, each
  /// water rebuilt by SETTLE), then the velocity condition.
  void constrain_state(core::ParticleData& p, const core::BoxView<double>& box,
                       const std::vector<double>& inverse_mass_by_type);

  /// Distances held (the degrees of freedom they remove).
  std::size_t constraint_count() const { return count_; }

  /// From now on only the waters, clusters and coupled sets whose first particle is stored in
  /// [begin, end) are solved, and only their virial counted (after locate; a spatial
  /// decomposition's owned range, where the partition keeps each group on one rank). Every group
  /// until the first call.
  void keep_to(std::size_t begin, std::size_t end);

  /// Per particle id (ids 0 .. n - 1): the id of the first particle of its water, cluster or
  /// coupled set, or its own where it has none. A spatial decomposition gives each group the
  /// rank of its first particle.
  std::vector<std::int32_t> anchors(std::size_t n) const;

 private:
  /// Runs `update` on every kept group, in parallel.
  template <class Update>
  void for_each_group(const Update& update) const;
  /// Throws the core::RunError of the first group whose SHAKE did not converge, if any.
  void throw_on_shake_failure() const;
  void constrain_drift(core::ParticleData& p, double dt, const core::BoxView<double>& box,
                       const std::vector<double>& inverse_mass_by_type, bool correct_velocities,
                       bool velocity_condition);

  std::vector<ConstraintGroup> groups_;       ///< the plan's waters, then its clusters
  std::vector<int> kept_groups_, kept_sets_;  ///< those solved (keep_to), ascending
  std::size_t count_;
  double tolerance_;
  core::Vec3Of<std::vector<double>> before_;  ///< positions before the drift, storage order
  std::vector<std::int32_t> index_of_, failed_;
  std::vector<double> deviation_;
  std::vector<double> virial_[core::kTensorComponents];  ///< per group

  /// Runs `update` on every kept coupled set, in parallel.
  template <class Update>
  void for_each_set(const Update& update) const;
  /// Throws core::RunError naming the first coupled set that failed.
  void check_coupled() const;

  CoupledLayout layout_;              // the plan's coupled sets (all_bonds), for messages
  CoupledArrays<HostArray> coupled_;  // the same, with their scratch
};

/// Per particle id (ids 0 .. n - 1): the id of the first particle of its water or cluster
/// (`groups`) or coupled set (`layout`), or its own where it has none. A spatial decomposition
/// gives each group the rank of its first particle.
std::vector<std::int32_t> anchors_of(const std::vector<ConstraintGroup>& groups,
                                     const CoupledLayout& layout, std::size_t n);

/// The groups and coupled sets a rank solves: those whose first particle is stored in its
/// owned range (ascending indices into `groups` and into `layout`'s sets).
struct KeptGroups {
  std::vector<int> groups, sets;
};
/// KeptGroups of [begin, end), with each particle id's storage index in `slot_of_id`.
KeptGroups groups_stored_in(const std::vector<ConstraintGroup>& groups, const CoupledLayout& layout,
                            const std::vector<std::int32_t>& slot_of_id, std::size_t begin,
                            std::size_t end);

/// What a run says when SHAKE did not converge for `group`.
std::string shake_failure_message(const ConstraintGroup& group, double deviation, double tolerance);

/// What a run says when CCMA (or the velocity solve) did not converge for set k of `layout`.
std::string ccma_failure_message(const CoupledLayout& layout, int k, double deviation,
                                 double tolerance);

}  // namespace novamd::constraints
