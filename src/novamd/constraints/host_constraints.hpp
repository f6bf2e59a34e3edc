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
/// Each water and cluster is solved alone (no two share a particle), and the virial summed over
/// them in the plan's order, so the result does not depend on the thread count.
///
/// Positions are taken relative to the first particle of a water or cluster under the minimum
/// image; the corrections are added to the wrapped positions, which are wrapped again (counting
/// the periodic images crossed where the system tracks them).

#include <cstdint>
#include <vector>

#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::constraints {

/// How far SHAKE may sweep a cluster before the run stops (the clusters of a heavy atom and its
/// hydrogens converge to 1e-10 in some ten sweeps).
inline constexpr int kMaxShakeSweeps = 1000;

class HostConstraints {
 public:
  /// `tolerance`: each constrained length within this fraction of its own (`tolerance`).
  HostConstraints(ConstraintPlan plan, double tolerance);

  /// Finds each particle of the plan in `p` (storage order): after the particles were reordered.
  void locate(const core::ParticleData& p);

  /// After a drift over dt from positions `before` (storage order): positions constrained,
  /// velocities corrected by displacement / dt, velocities constrained.
  /// @throws core::RunError where SHAKE does not converge, naming the cluster and the deviation.
  void after_drift(core::ParticleData& p, const std::vector<core::Vec3<double>>& before, double dt,
                   const core::BoxView<double>& box,
                   const std::vector<double>& inverse_mass_by_type);

  /// The velocity condition (inverse masses include the force-to-acceleration factor); where
  /// `heat` is given, each particle's kinetic-energy change is added to heat[i] (O steps).
  void constrain_velocities(core::ParticleData& p, const core::BoxView<double>& box,
                            const std::vector<double>& inverse_mass_by_type,
                            double* heat = nullptr);

  /// The virial of the constraint forces at the particles' positions, velocities and forces.
  core::SymmetricTensor<double> virial(const core::ParticleData& p,
                                       const core::BoxView<double>& box,
                                       const std::vector<double>& inverse_mass_by_type) const;

  /// A fresh run's start: positions projected onto the constraints (SHAKE from themselves, each
  /// water rebuilt by SETTLE), then the velocity condition.
  void constrain_state(core::ParticleData& p, const core::BoxView<double>& box,
                       const std::vector<double>& inverse_mass_by_type);

  /// Distances held (the degrees of freedom they remove).
  std::size_t constraint_count() const { return plan_.constraint_count(); }
  const ConstraintPlan& plan() const { return plan_; }

 private:
  struct Members {
    int count = 0;
    std::int32_t index[5] = {};  ///< storage indices; the first is the reference particle
  };
  /// Calls solve(g, members, cluster) for each water (g < waters) and cluster (after them), the
  /// cluster listing the group's particles in the members' order, in parallel.
  template <class Solve>
  void for_each_group(const core::ParticleData& p, const std::vector<double>& inverse_mass_by_type,
                      Solve&& solve) const;
  void positions(core::ParticleData& p, const std::vector<core::Vec3<double>>& before, double dt,
                 const core::BoxView<double>& box, const std::vector<double>& inverse_mass_by_type,
                 bool correct_velocities);

  ConstraintPlan plan_;
  double tolerance_;
  std::vector<Members> waters_, clusters_;  ///< where each water's and cluster's particles are
};

}  // namespace novamd::constraints
