#pragma once
/// @file constraint_groups.hpp
/// The distances a run holds, as groups of particles that share no particle (each rigid water,
/// each heavy atom with its hydrogens: constraint_plan.hpp), and the updates that hold them,
/// each written once as a host-device functor of one group: the CPU backend runs them in an
/// OpenMP loop (host_constraints.hpp), the CUDA backend with one thread per group
/// (device_constraints.cuh). A call reads and writes the particles of its own group only, so
/// neither the order of the calls nor the thread count can change a bit of the result, and no
/// two threads write one particle (DESIGN principle 11; seed 003's "no write collisions").
///
/// Every update runs per group shape (for_group_shape: a water, or a heavy atom with one to four
/// hydrogens) as straight code with fixed-size arrays.
///
/// - ConstrainDrift: after a drift from positions `before`, the positions constrained (SETTLE
///   for a water, settle.hpp; SHAKE for a cluster, cluster_constraints.hpp), the velocities
///   corrected by the same displacements over dt, then RATTLE's velocity condition (unless the
///   next kick applies it: DriftCorrection::velocity_condition).
/// - ConstrainVelocities: the velocity condition alone (after a kick or an O step; its
///   kinetic-energy change can be booked as the thermostat's heat).
/// - ConstraintVirial: the virial of the instantaneous constraint forces, per group.
///
/// Positions are taken relative to the group's first particle under the minimum image; the
/// corrections are added to the wrapped positions, which are wrapped again (counting the
/// periodic images crossed where the system tracks them).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "novamd/constraints/cluster_constraints.hpp"
#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/constraints/settle.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/core/vec3_pointers.hpp"

namespace novamd::constraints {

/// How many iterations SHAKE may take on a cluster before the run stops (a heavy atom and its
/// hydrogens meet 1e-10 in three or four).
inline constexpr int kMaxShakeIterations = 1000;

/// One water or one hydrogen cluster of a plan.
struct ConstraintGroup {
  static constexpr int kMaxParticles = 1 + HydrogenCluster::kMaxHydrogens;
  int count = 0;       ///< particles: 3 for a water, 1 + its hydrogens for a cluster
  bool water = false;  ///< SETTLE on (oxygen, hydrogen, hydrogen); else SHAKE on the cluster
  std::int32_t id[kMaxParticles] = {};     ///< the particles' ids, the reference particle first
  std::int32_t index[kMaxParticles] = {};  ///< where they are stored (LocateGroup)
  double length[HydrogenCluster::kMaxHydrogens] = {};  ///< a cluster's: each hydrogen's distance
  WaterGeometry geometry{};                            ///< a water's
};

/// The plan's waters, then its clusters by size (one hydrogen, two, ...; in plan order within a
/// size), as groups (storage indices unset). Each shape runs its own code (for_group_shape):
/// consecutive groups of one shape keep a GPU warp's threads on one path, where clusters of
/// mixed sizes would run each size's code in turn.
inline std::vector<ConstraintGroup> groups_of(const ConstraintPlan& plan) {
  std::vector<ConstraintGroup> groups;
  for (const auto& w : plan.waters) {
    ConstraintGroup g;
    g.count = 3;
    g.water = true;
    g.id[0] = w.o;
    g.id[1] = w.h1;
    g.id[2] = w.h2;
    g.geometry = w.geometry;
    groups.push_back(g);
  }
  std::vector<const HydrogenCluster*> clusters;
  for (const auto& c : plan.clusters) clusters.push_back(&c);
  std::stable_sort(clusters.begin(), clusters.end(),
                   [](const auto* a, const auto* b) { return a->count < b->count; });
  for (const HydrogenCluster* cluster : clusters) {
    const HydrogenCluster& c = *cluster;
    ConstraintGroup g;
    g.count = 1 + c.count;
    g.id[0] = c.central;
    for (int h = 0; h < c.count; ++h) {
      g.id[1 + h] = c.hydrogen[h];
      g.length[h] = c.length[h];
    }
    groups.push_back(g);
  }
  return groups;
}

/// index_of[id[i]] = i: where each particle id is stored (ids are 0 .. N - 1).
struct IndexById {
  const std::int32_t* id;
  std::int32_t* index_of;
  NOVAMD_HD void operator()(int i) const { index_of[id[i]] = i; }
};

/// Each group's storage indices from its ids (after the particles were reordered).
struct LocateGroup {
  ConstraintGroup* groups;
  const std::int32_t* index_of;
  NOVAMD_HD void operator()(int g) const {
    for (int k = 0; k < groups[g].count; ++k) groups[g].index[k] = index_of[groups[g].id[k]];
  }
};

/// `update` (a drift, or a kick and a drift), after keeping particle i's position in `before`.
template <class Update>
struct RememberingPositions {
  Update update;
  core::Vec3Pointers position, before;
  NOVAMD_HD auto operator()(int i) const {
    before.set(i, position.get(i));
    return update(i);
  }
};

/// The particle arrays the group updates read and write (storage order).
struct GroupArrays {
  core::Vec3Pointers position, velocity, force;
  core::Int3Pointers image;
  const std::int32_t* type;
  const double* inverse_mass;  ///< per type, the force-to-acceleration factor included
  core::BoxView<double> box;
};

/// Calls f.template run<P, C>(g, k) with the particle and constraint counts of group k as
/// compile-time constants: a water (3, 3), a heavy atom with n hydrogens (n + 1, n). Each shape
/// compiles to its own straight code, its arrays in registers on the GPU.
template <class F>
NOVAMD_HD void for_group_shape(const ConstraintGroup& g, int k, const F& f) {
  switch (g.count) {
    case 2:
      f.template run<2, 1>(g, k);
      break;
    case 3:
      if (g.water)
        f.template run<3, 3>(g, k);
      else
        f.template run<3, 2>(g, k);
      break;
    case 4:
      f.template run<4, 3>(g, k);
      break;
    default:
      f.template run<5, 4>(g, k);
      break;
  }
}

/// A group's distances as a cluster for RATTLE and the constraint forces (a water's three
/// distances, or a heavy atom's to each hydrogen), with its particles' inverse masses.
template <int P, int C>
NOVAMD_HD ConstraintCluster<P, C> cluster_of(const ConstraintGroup& g, const GroupArrays& a) {
  ConstraintCluster<P, C> c;
  c.particles = P;
  c.constraints = C;
#pragma unroll
  for (int k = 0; k < P; ++k) c.inverse_mass[k] = a.inverse_mass[a.type[g.index[k]]];
  if constexpr (P == 3 && C == 3) {  // a water
    c.constraint[0] = {0, 1, g.geometry.d_oh};
    c.constraint[1] = {0, 2, g.geometry.d_oh};
    c.constraint[2] = {1, 2, g.geometry.d_hh};
  } else {
#pragma unroll
    for (int h = 0; h < C; ++h) c.constraint[h] = {0, h + 1, g.length[h]};
  }
  return c;
}

/// P positions position_of(0 .. P - 1) relative to the first (minimum image).
template <int P, class PositionOf>
NOVAMD_HD void relative_to_first(const PositionOf& position_of, const core::BoxView<double>& box,
                                 core::Vec3<double> (&r)[P]) {
  const core::Vec3<double> reference = position_of(0);
#pragma unroll
  for (int k = 0; k < P; ++k) r[k] = box.minimum_image(position_of(k) - reference);
}

/// The group's P particles in `at` relative to its first particle (minimum image).
template <int P>
NOVAMD_HD void relative_positions(const ConstraintGroup& g, const core::Vec3Pointers& at,
                                  const core::BoxView<double>& box, core::Vec3<double> (&r)[P]) {
  relative_to_first<P>([&](int k) { return at.get(g.index[k]); }, box, r);
}

/// Where SHAKE did not converge, per group, kept until read: failed[g] = g (INT32_MAX where it
/// always converged) and the largest relative deviation left.
struct ShakeFailures {
  std::int32_t* failed;
  double* deviation;
  NOVAMD_HD void record(int g, double worst) const {
    failed[g] = g;
    deviation[g] = worst > deviation[g] ? worst : deviation[g];
  }
};

/// Nothing to do after a particle moved (the CPU backend).
struct NoMoveHook {
  NOVAMD_HD void operator()(int, const core::Vec3<double>&) const {}
};

/// The velocity condition on a group of shape (P, C); with `heat`, each particle's
/// kinetic-energy change is added to heat[i]. Reads first, writes last (as ConstrainDrift).
template <int P, int C>
NOVAMD_HD void constrain_group_velocities(const ConstraintGroup& g, const GroupArrays& a,
                                          double* heat) {
  const ConstraintCluster<P, C> cluster = cluster_of<P, C>(g, a);
  core::Vec3<double> x[P], v[P], before[P], r[P];
  double heat_before[P] = {};
#pragma unroll
  for (int k = 0; k < P; ++k) {
    x[k] = a.position.get(g.index[k]);
    v[k] = before[k] = a.velocity.get(g.index[k]);
    if (heat) heat_before[k] = heat[g.index[k]];
  }
  relative_to_first<P>([&](int k) { return x[k]; }, a.box, r);
  rattle_velocities(cluster, r, v);
#pragma unroll
  for (int k = 0; k < P; ++k) {
    a.velocity.set(g.index[k], v[k]);
    if (heat)
      heat[g.index[k]] =
          heat_before[k] +
          0.5 / cluster.inverse_mass[k] * (core::dot(v[k], v[k]) - core::dot(before[k], before[k]));
  }
}

/// A particle's position, velocity and periodic image counts (zero where the system does not
/// track them), held in registers between one read and one write.
struct ParticleState {
  core::Vec3<double> x, v;
  core::Vec3<std::int32_t> image{};
};

NOVAMD_HD ParticleState load_particle(const GroupArrays& a, int i) {
  ParticleState s{a.position.get(i), a.velocity.get(i)};
  if (a.image.present()) s.image = a.image.get(i);
  return s;
}

/// Writes the position and image counts of particle i, and its velocity where `velocity`.
NOVAMD_HD void store_particle(const GroupArrays& a, int i, const ParticleState& s, bool velocity) {
  a.position.set(i, s.x);
  if (a.image.present()) a.image.set(i, s.image);
  if (velocity) a.velocity.set(i, s.v);
}

/// What a constraint pass after a drift takes, whatever it solves: the positions the drift
/// started from, its time, whether velocities follow the corrections, whether the velocity
/// condition follows (it may be left to the next velocity update: integrate::VelocityCondition),
/// the tolerance, and what to call with each moved particle's new position.
template <class OnMove = NoMoveHook>
struct DriftCorrection {
  core::Vec3Pointers before;
  double dt;
  bool correct_velocities;
  bool velocity_condition;
  double tolerance;
  OnMove on_move{};

  /// Whether a pass changes velocities (else it writes none back).
  NOVAMD_HD bool changes_velocities() const { return correct_velocities || velocity_condition; }

  /// A particle moved by delta: wrapped again (its periodic images counted where tracked), its
  /// velocity moved by delta / dt where `correct_velocities`.
  NOVAMD_HD void move(ParticleState& s, const core::Vec3<double>& delta,
                      const core::BoxView<double>& box, bool images) const {
    s.x = images ? box.wrap(s.x + delta, s.image) : box.wrap(s.x + delta);
    if (correct_velocities) s.v += (1.0 / dt) * delta;
  }

  /// Particle i of `a` moved by delta in memory, then on_move(i, its new position).
  NOVAMD_HD void move(const GroupArrays& a, int i, const core::Vec3<double>& delta) const {
    ParticleState s = load_particle(a, i);
    move(s, delta, a.box, a.image.present());
    store_particle(a, i, s, correct_velocities);
    on_move(i, s.x);
  }
};

/// A drift with a Langevin O step inside it (BAOAB's middle, A O A, its positions constrained
/// once at the end): the velocities the drift ends with came from the O step, which acted over
/// the drift's last `share` of its time. Particles of a group moved by `share` dt times the
/// components of those velocities along the group's constraints (the O step's noise), which the
/// position constraint then takes back.
struct ThermostatInDrift {
  double share = 0.0;
  double* heat = nullptr;  ///< per particle: gains each one's share of the O step's condition
};

/// The velocity condition of the O step inside a drift (ThermostatInDrift), at the drift's start
/// `then` (where the velocities before the O step met it): v' = P v, and v' - v counted as heat.
/// The velocities become v' + share (v - v'), so that the velocity correction of the position
/// constraint to come (delta / dt, delta taking back share dt (v - v') along the constraints)
/// leaves v' plus the drift's own correction: the O step's noise along the constraints is gone
/// from positions and velocities alike, as if the O step had met its condition in place.
template <int P, int C>
NOVAMD_HD void condition_after_thermostat(const ConstraintCluster<P, C>& cluster,
                                          const core::Vec3<double> (&then)[P], double share,
                                          core::Vec3<double> (&v)[P], double (&heat)[P]) {
  core::Vec3<double> projected[P];
#pragma unroll
  for (int q = 0; q < P; ++q) projected[q] = v[q];
  rattle_velocities(cluster, then, projected);
#pragma unroll
  for (int q = 0; q < P; ++q) {
    heat[q] += 0.5 / cluster.inverse_mass[q] *
               (core::dot(projected[q], projected[q]) - core::dot(v[q], v[q]));
    v[q] = projected[q] + share * (v[q] - projected[q]);
  }
}

/// After a drift (`drift`): a group's positions constrained, its velocities corrected by the
/// displacements over the drift's time (where asked), then the velocity condition (where asked)
/// at the positions and velocities just computed; with `InDrift`, first the velocity condition
/// of the O step inside the drift (`thermostat`, condition_after_thermostat). Every read comes
/// first and every write last, the group's record copied to registers: the compiler cannot tell
/// the arrays apart, so a load after a store would wait for it, and on the GPU each such wait is
/// a memory latency in a thread's chain (the kernel is a few thousand such chains, too few to
/// hide them).
template <class OnMove = NoMoveHook, bool InDrift = false>
struct ConstrainDrift {
  GroupArrays a;
  const ConstraintGroup* groups;
  DriftCorrection<OnMove> drift;
  ShakeFailures failures;
  ThermostatInDrift thermostat{};

  NOVAMD_HD void operator()(int k) const {
    const ConstraintGroup g = groups[k];
    for_group_shape(g, k, *this);
  }

  template <int P, int C>
  NOVAMD_HD void run(const ConstraintGroup& g, int k) const {
    const ConstraintCluster<P, C> cluster = cluster_of<P, C>(g, a);
    ParticleState s[P];
    core::Vec3<double> start[P];
    double heat[P] = {};
#pragma unroll
    for (int q = 0; q < P; ++q) {
      s[q] = load_particle(a, g.index[q]);
      start[q] = drift.before.get(g.index[q]);
      if constexpr (InDrift) heat[q] = thermostat.heat[g.index[q]];
    }
    core::Vec3<double> now[P], then[P], r[P];
    relative_to_first<P>([&](int q) { return s[q].x; }, a.box, now);
    relative_to_first<P>([&](int q) { return start[q]; }, a.box, then);
    if constexpr (InDrift) {
      core::Vec3<double> v[P];
#pragma unroll
      for (int q = 0; q < P; ++q) v[q] = s[q].v;
      condition_after_thermostat(cluster, then, thermostat.share, v, heat);
      // The heat stored now (no load follows it), so that SHAKE's registers need not hold it.
#pragma unroll
      for (int q = 0; q < P; ++q) {
        s[q].v = v[q];
        thermostat.heat[g.index[q]] = heat[q];
      }
    }
    bool converged = true;
    double worst = 0.0;
    if constexpr (P == 3 && C == 3) {  // a water: SETTLE
      const Water solved =
          settle_positions({then[0], then[1], then[2]}, {now[0], now[1], now[2]}, g.geometry);
      r[0] = solved.o;
      r[1] = solved.h1;
      r[2] = solved.h2;
    } else {
#pragma unroll
      for (int q = 0; q < P; ++q) r[q] = now[q];
      const ShakeResult result =
          shake_positions(cluster, then, r, drift.tolerance, kMaxShakeIterations);
      converged = result.converged;
      worst = result.worst;
    }
#pragma unroll
    for (int q = 0; q < P; ++q) drift.move(s[q], r[q] - now[q], a.box, a.image.present());
    if (drift.velocity_condition) {
      core::Vec3<double> v[P];
#pragma unroll
      for (int q = 0; q < P; ++q) v[q] = s[q].v;
      rattle_velocities(cluster, r, v);
#pragma unroll
      for (int q = 0; q < P; ++q) s[q].v = v[q];
    }
#pragma unroll
    for (int q = 0; q < P; ++q) {
      store_particle(a, g.index[q], s[q], InDrift || drift.changes_velocities());
      drift.on_move(g.index[q], s[q].x);
    }
    if (!converged) failures.record(k, worst);
  }
};

/// The velocity condition on each group (after a kick, or an O step with `heat`).
struct ConstrainVelocities {
  GroupArrays a;
  const ConstraintGroup* groups;
  double* heat = nullptr;
  NOVAMD_HD void operator()(int k) const {
    const ConstraintGroup g = groups[k];
    for_group_shape(g, k, *this);
  }
  template <int P, int C>
  NOVAMD_HD void run(const ConstraintGroup& g, int) const {
    constrain_group_velocities<P, C>(g, a, heat);
  }
};

/// A group's share of the constraint virial, sum_p r_p (x) G_p (r_p relative to its first
/// particle: a group's constraint forces add up to zero), into out[c][k] per tensor component.
struct ConstraintVirial {
  GroupArrays a;
  const ConstraintGroup* groups;
  double* out[core::kTensorComponents];

  NOVAMD_HD void operator()(int k) const {
    const ConstraintGroup g = groups[k];
    for_group_shape(g, k, *this);
  }

  template <int P, int C>
  NOVAMD_HD void run(const ConstraintGroup& g, int k) const {
    core::Vec3<double> r[P], v[P], f[P], force[P];
    relative_positions<P>(g, a.position, a.box, r);
#pragma unroll
    for (int q = 0; q < P; ++q) {
      v[q] = a.velocity.get(g.index[q]);
      f[q] = a.force.get(g.index[q]);
    }
    core::SymmetricTensor<double> w;
    if (constraint_forces(cluster_of<P, C>(g, a), r, v, f, force))
#pragma unroll
      for (int q = 0; q < P; ++q)
        w.add_symmetrized_outer(r[q].x, r[q].y, r[q].z, force[q].x, force[q].y, force[q].z);
#pragma unroll
    for (int c = 0; c < core::kTensorComponents; ++c) out[c][k] = w.c[c];
  }
};

}  // namespace novamd::constraints
