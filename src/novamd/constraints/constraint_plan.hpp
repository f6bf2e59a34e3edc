#pragma once
/// @file constraint_plan.hpp
/// Which distances a run holds fixed, read from the topology (DESIGN principle 11, "constraints
/// partitioned at setup"): each rigid three-site water goes to SETTLE (settle.hpp), and each
/// heavy atom with the hydrogens bonded to it to SHAKE and RATTLE as one cluster
/// (cluster_constraints.hpp: one thread per cluster, no two clusters share a particle), as
/// OpenMM's constraints = HBonds with rigidWater and GROMACS's h-bonds do.
///
/// - A hydrogen is a particle of element hydrogen where the topology file says or implies the
///   element (an AMBER prmtop: core::Species::atomic_number), else one of mass below 2.2
///   (hydrogen and deuterium in g/mol): files whose hydrogens were made heavier (hydrogen mass
///   repartitioning, as the JAC benchmark's prmtop) need the element.
/// - A water is a molecule of three particles, one heavy and two hydrogens, with the two O-H
///   bonds (and possibly an H-H bond, as in AMBER's TIP3P); its H-H distance is that bond's
///   length, else 2 d_OH sin(theta0 / 2) from its H-O-H angle. Both O-H lengths and both
///   hydrogen masses must agree.
/// - With `bonds: h_bonds` every other bond with exactly one hydrogen is constrained at its
///   length; a heavy atom and its constrained hydrogens (at most four) form a cluster.
/// - With `bonds: all_bonds` every bond of each molecule that is not a rigid water is held, the
///   molecule's bonds one coupled set for CCMA (coupled_constraints.hpp).
/// - With `bonds: [types]` the bonds of those types (numbered as the topology file numbers them,
///   from 1: LAMMPS's fix shake b) are held: each connected group of them that is a star of at
///   most four bonds around one particle is a cluster for SHAKE and RATTLE, any other (a chain,
///   a ring) a coupled set for CCMA.
/// - What the clusters cannot hold is refused, naming the particles: a hydrogen bonded to two
///   heavy atoms, a bond between two hydrogens outside a water, a fifth hydrogen; and a
///   molecule whose bonds are dependent (a bond given twice) or too many for the coupled solver.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "novamd/constraints/coupled_set.hpp"
#include "novamd/constraints/settle.hpp"
#include "novamd/core/held_distances.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/topology.hpp"

namespace novamd::constraints {

/// Whether a particle is a hydrogen: by its element where known (atomic number > 0), else by a
/// mass below 2.2 (hydrogen and deuterium in g/mol).
inline bool is_hydrogen(int atomic_number, double mass) {
  return atomic_number > 0 ? atomic_number == 1 : mass < 2.2;
}

/// `constraints.bonds`.
enum class BondConstraints {
  None,           ///< no bond held (waters may still be rigid)
  HydrogenBonds,  ///< bonds to hydrogens
  AllBonds,       ///< every bond, each molecule's coupled (CCMA)
  ListedTypes,    ///< the bonds of the types listed (LAMMPS's fix shake b)
};

/// What the run asks for: `constraints: {bonds, water}`.
struct ConstraintRequest {
  BondConstraints bonds = BondConstraints::None;
  bool rigid_water = false;     ///< `water: settle`
  std::vector<int> bond_types;  ///< ListedTypes: numbered as the file numbers them, from 1
};

/// `constraints: {bonds, water, tolerance}` (absent: nothing held). A present section holds the
/// bonds to hydrogens and rigid waters unless it says otherwise, as OpenMM's HBonds with
/// rigidWater and GROMACS's h-bonds with its water models do.
struct ConstraintSettings {
  ConstraintRequest request{BondConstraints::HydrogenBonds, true};
  double tolerance = 1e-8;  ///< each held length within this fraction of its own
};

/// The topology's numbers the plan reads: a mass per particle id, a length (r0) per bond term
/// and an equilibrium angle theta0 (radians) per angle term, NaN where a term has none.
struct ConstraintSources {
  std::span<const double> mass;
  std::span<const int> atomic_number;  ///< by id, 0 where unknown; may be empty (all unknown)
  std::span<const double> bond_length;
  std::span<const double> angle_theta0;
};

/// A water for SETTLE: the ids of its oxygen and hydrogens, and its rigid geometry.
struct RigidWater {
  std::int32_t o, h1, h2;
  WaterGeometry geometry;
};

/// A heavy atom and the hydrogens bonded to it, each held at `length[k]`.
struct HydrogenCluster {
  static constexpr int kMaxHydrogens = 4;
  std::int32_t central = 0;
  int count = 0;
  std::int32_t hydrogen[kMaxHydrogens] = {};
  double length[kMaxHydrogens] = {};
};

struct ConstraintPlan {
  std::vector<RigidWater> waters;         ///< by oxygen id
  std::vector<HydrogenCluster> clusters;  ///< by central id
  std::vector<CoupledSet> coupled;        ///< all_bonds: each molecule's bonds, by lowest id
  /// Distances held: three per water, one per hydrogen of a cluster, one per coupled bond (the
  /// degrees of freedom they remove).
  std::size_t constraint_count() const;
};

/// Every distance `plan` holds, by particle pair: each water's three, each cluster's bonds to
/// its hydrogens, each coupled set's constraints.
core::HeldDistances held_distances_of(const ConstraintPlan& plan);

/// Each particle's mass by id (per-particle masses where the particles have them, else their
/// species'): ConstraintSources::mass for particles in any storage order.
std::vector<double> masses_by_id(const core::ParticleData& particles,
                                 const core::SpeciesTable& species);
/// Each particle's atomic number by id, from its species (0 where unknown).
std::vector<int> atomic_numbers_by_id(const core::ParticleData& particles,
                                      const core::SpeciesTable& species);

/// The plan for `topology` and `request`. @throws core::InputError for what it cannot hold.
ConstraintPlan plan_constraints(const core::Topology& topology, const ConstraintSources& sources,
                                const ConstraintRequest& request);

}  // namespace novamd::constraints
