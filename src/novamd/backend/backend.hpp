#pragma once
/// @file backend.hpp
/// A backend owns the particle state where it runs (host memory for the CPU, device memory for
/// CUDA) and provides the primitives a step is made of. Integrators compose the primitives;
/// the host sees particle data only through `particles_on_host`, for output.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "novamd/backend/backend_state.hpp"
#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/components.hpp"
#include "novamd/core/particle_view.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/state_check.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/bonded_settings.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/forces/rigid_model.hpp"
#include "novamd/integrate/step_operations.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"
#include "novamd/parallel/brick_grid.hpp"
#include "novamd/parallel/communicator.hpp"

/// A CUDA stream (cudaStream_t is a pointer to it), named without the CUDA headers.
struct CUstream_st;

namespace novamd::backend {

/// The particle arrays where they live, for analysis that runs where the data is (DESIGN
/// principle 4): host pointers, or device pointers with the stream that orders work on them.
struct ParticleArrays {
  core::ParticleView particles;
  CUstream_st* stream = nullptr;  ///< null: the pointers are host memory
  bool on_device() const { return stream != nullptr; }
};

/// Whole-system sums, in the unit system's energy.
struct Observables {
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;
  /// W_ab = sum over pairs of r_ij,a f_ij,b (its trace is the scalar virial sum r_ij . f_ij).
  core::SymmetricTensor<double> virial;
  /// K_ab = 1/2 sum over particles of m v_a v_b (trace: the kinetic energy, summed apart).
  core::SymmetricTensor<double> kinetic;
  /// Rigid molecules' kinetic energy of rotation (part of kinetic_energy; zero without them).
  /// The pressure counts the rest, the translational part, as the kinetic tensor does.
  double rotational_kinetic_energy = 0.0;
  /// Each force term's share of the potential energy, in setup order (the pair terms of
  /// `BackendSetup::forces`, then the bonded terms): the differences of the running sums after
  /// each term, so they add up to the potential energy within rounding.
  std::vector<double> term_energy;
};

/// Each term's energy from the running sums of the energy after each term (`cumulative`).
inline std::vector<double> term_energies(const std::vector<double>& cumulative) {
  std::vector<double> energy(cumulative.size());
  for (std::size_t t = 0; t < cumulative.size(); ++t)
    energy[t] = cumulative[t] - (t > 0 ? cumulative[t - 1] : 0.0);
  return energy;
}

/// The first particle (lowest id) whose state is not finite.
/// The particle of lowest id whose state a check found wrong, and what was wrong.
struct Unstable {
  std::int32_t particle_id;
  core::Instability what;
};

using integrate::EnergyRequest;

/// Memory a backend keeps for the run, in bytes: the particle arrays, the neighbour data (lists,
/// cells, positions at the last build) and everything else (tables, partial sums, scratch).
struct MemoryUse {
  std::size_t particles = 0;
  std::size_t neighbors = 0;
  std::size_t other = 0;
  std::size_t total() const { return particles + neighbors + other; }
};

/// The halo of a spatial decomposition: the longest reach (cutoff + skin) of the Verlet lists of
/// `forces` and of the rigid molecules' centres (`rigid`, where the system has them) in `box`;
/// every particle a list can hold lies within it of its target's brick. (Defined with the CPU
/// backend; both backends' spatial runs use it.)
double spatial_halo(const std::vector<forces::ForceSettings>& forces,
                    const neighbors::NeighborSettings& neighbors, const core::Box& box,
                    const forces::RigidModelSettings* rigid = nullptr);

/// Everything a backend needs to set up a run.
struct BackendSetup {
  core::UnitSystem units;
  core::SpeciesTable species;
  core::Box box;
  core::ParticleData particles;
  std::vector<forces::ForceSettings> forces;
  core::Precision precision = core::Precision::Double;
  neighbors::NeighborSettings neighbors;
  /// The ranks of a force-matrix decomposition (parallel/force_matrix_domain.hpp); none for one
  /// rank.
  /// With more than one rank, the particles come in id order, every pair force runs over all
  /// pairs of the rank's block, and the sums the backend reports (energies, heat) are global.
  std::shared_ptr<const parallel::Communicator> communicator;
  /// The bonded terms (their particles named by id in `topology`), evaluated after the pair
  /// terms; not with a force-matrix decomposition.
  core::Topology topology;
  std::vector<forces::BondedSettings> bonded;
  /// Distances held fixed (constraints/constraint_plan.hpp; empty: none), each within
  /// `constraint_tolerance` of its length.
  constraints::ConstraintPlan constraint_plan;
  double constraint_tolerance = 1e-8;
  /// Whether the bonded terms whose every distance the plan holds are left out of the force
  /// evaluation, their constant energy still counted (forces/held_terms.hpp); false evaluates
  /// them, which changes nothing but the cost (the tests compare the two).
  bool leave_out_held_terms = true;
  /// The molecules a barostat's move scales by their centres of mass, keeping their shape
  /// (integrate/molecule_scaling.hpp); empty (no of_id): the move scales every particle.
  core::Molecules scaled_molecules;
  /// Rigid multi-centre molecules (core/components.hpp): every particle is a molecule of the
  /// component its type numbers, at its centre of mass, with an orientation and an angular
  /// momentum (body frame, in energy x time); its sites interact through `rigid_sites`
  /// (forces/rigid_model.hpp), the one force term then (`forces` empty). Empty: none.
  std::vector<core::ResolvedComponent> components;
  forces::RigidModelSettings rigid_sites;
  /// With more than one rank: the bricks of a spatial decomposition (parallel/spatial_domain.hpp,
  /// the CPU backend), one per rank of `communicator`, instead of the force matrix; the pair
  /// forces run over Verlet lists of the rank's own particles.
  std::optional<parallel::BrickGrid> bricks;
};

/// The state where it runs and the primitives a step is made of: the step operations that
/// integrators compose (integrate/step_operations.hpp: kick, drift, forces, thermostat
/// updates), and what output, checks and checkpoints need.
class Backend : public integrate::StepOperations {
 public:
  /// "cpu (OpenMP, 2 threads)" or the device's name, memory and compute capability.
  virtual std::string description() const = 0;
  virtual std::size_t size() const = 0;

  /// The periodic box: the backend is its one owner; outputs and checks read it here.
  virtual const core::Box& box() const = 0;
  /// Changes the box to `box`, scaling every position (or every molecule's centre of mass,
  /// BackendSetup::scaled_molecules) by the ratio of the edges along its axis (the affine move of
  /// a barostat); neighbour lists follow the box (built again at the next evaluation only where
  /// the box shrank beyond their skin) and forces are stale until then. @throws core::RunError when
  /// a force term's cutoff would exceed half the new shortest edge.
  virtual void rescale_box(const core::Box& box) = 0;
  /// The potential energy at the current positions (computed if the last evaluation skipped
  /// it), over every rank; no tail correction.
  double potential_energy() override { return totals().potential_energy; }
  integrate::KineticAndVirial kinetic_and_virial() override {
    const Observables o = barostat_totals();
    return {o.kinetic, o.virial, o.kinetic_energy};
  }
  /// v_a *= factor_a for every particle, axis by axis, or for every molecule's centre of mass
  /// (BackendSetup::scaled_molecules): a barostat's move.
  virtual void scale_velocities_by_axis(core::Vec3<double> factor) = 0;

  /// Kinetic energy and kinetic tensor now; potential energy and virial tensor at the current
  /// positions (computed if the last evaluation skipped them).
  virtual Observables observables() = 0;
  /// observables() where each term's energy may be missing (term_energy may be stale or empty):
  /// what a barostat reads, after an evaluation with EnergyRequest::Totals.
  virtual Observables totals() { return observables(); }
  /// totals() as a barostat's pressure reads them: where its moves scale molecules by their
  /// centres (BackendSetup::scaled_molecules), `kinetic` is the centres' kinetic tensor and
  /// `virial` the molecular virial (backend/molecule_pressure.hpp); the rest as totals().
  virtual Observables barostat_totals() { return totals(); }
  /// The particle of lowest id whose position, velocity, force or energy is not finite, or
  /// whose speed exceeds `max_speed` (or whose kinetic energy would overflow), if any; every
  /// rank finds the same.
  virtual std::optional<Unstable> find_unstable(double max_speed) = 0;
  /// Waits until queued work is done (timing); nothing to do on the CPU.
  virtual void synchronize() {}
  /// Neighbour-list builds so far, over all force terms.
  virtual std::int64_t neighbor_list_builds() const { return 0; }
  /// Times the particles were reordered in memory along the space-filling curve.
  virtual std::int64_t reorders() const { return 0; }
  /// Device memory held (zero on the CPU, which reports nothing).
  virtual MemoryUse memory_use() const { return {}; }
  /// Steps between find_unstable checks (1 on the CPU, where the check is cheap).
  virtual std::int64_t check_interval() const { return 1; }

  /// Positions, velocities and forces in id order (whatever the storage order), copied to the
  /// host if they live elsewhere.
  virtual const core::ParticleData& particles_on_host() = 0;

  /// Positions, types and ids where they live (host or device), in storage order, without a
  /// copy where the backend can: for analysis. Valid until the next call that changes the
  /// state (a force evaluation may reorder the arrays). By default the host copy in id order.
  virtual ParticleArrays particle_arrays() { return {core::view_of(particles_on_host()), nullptr}; }

  /// A fresh run's start, where distances are held: positions projected onto the constraints
  /// and velocities made to satisfy them (nothing to do without constraints).
  virtual void constrain_initial_state() {}

  /// Everything needed to continue bitwise, in storage order (for a checkpoint).
  virtual BackendState save_state() = 0;
  /// Continues from a saved state: particles, forces, counters and neighbour lists as they were
  /// (lists rebuilt from the positions of their last build), without evaluating forces. The
  /// state must come from a run with the same particle count and force terms.
  virtual void restore_state(const BackendState& state) = 0;
};

}  // namespace novamd::backend
