#pragma once
/// @file cpu_backend.hpp
/// The CPU backend: OpenMP, double-precision state, deterministic. The oracle every other
/// backend is tested against. In a decomposed run (several MPI ranks) it integrates the particles
/// its parallel::Domain says it owns and evaluates the pairs the domain deals it; the domain's
/// host exchanges refresh the ghosts' positions, complete the forces and gather for output
/// (parallel/domain.hpp: the force matrix, parallel/force_matrix_domain.hpp, or spatial bricks,
/// parallel/spatial_domain.hpp, whose partitions the backend carries out).

#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/backend/molecule_pressure.hpp"
#include "novamd/constraints/host_constraints.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/pair_sum_terms.hpp"
#include "novamd/integrate/molecule_scaling.hpp"
#include "novamd/integrate/particle_updates.hpp"
#include "novamd/integrate/rigid_updates.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/parallel/domain.hpp"
#include "novamd/parallel/spatial_domain.hpp"

namespace novamd::backend {

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(BackendSetup setup);

  std::string description() const override;
  std::size_t size() const override { return particles_.size(); }
  const core::Box& box() const override { return box_; }
  void rescale_box(const core::Box& box) override;
  bool takes_box(const core::Box& box) const override { return forces::cutoffs_fit(cutoffs_, box); }
  void keep_configuration() override;
  void restore_configuration() override;
  void release_configuration() override { kept_.reset(); }
  void compute_forces(EnergyRequest energy) override;
  void kick(double dt) override;
  void drift(double dt, integrate::VelocityCondition after) override;
  void kick_drift(double kick_dt, double drift_dt, integrate::VelocityCondition after) override;
  void scale_velocities(double factor) override;
  void scale_velocities_by_axis(core::Vec3<double> factor) override;
  void thermalize(const integrate::VelocityNoise& noise) override;
  void thermalize_drift(const integrate::VelocityNoise& noise, double drift_dt,
                        integrate::VelocityCondition after) override;
  void drift_thermalize_drift(double first_dt, const integrate::VelocityNoise& noise,
                              double second_dt, integrate::VelocityCondition after) override;
  double langevin_heat() override;
  double kinetic_energy() override;
  Observables observables() override;
  Observables barostat_totals() override;
  core::SymmetricTensor<double> moved_kinetic_tensor() override;
  BackendState save_state() override;
  void restore_state(const BackendState& state) override;
  void constrain_initial_state() override;
  std::optional<Unstable> find_unstable(double max_speed) override;
  const core::ParticleData& particles_on_host() override;
  /// The backend's own arrays; every rank's particles gathered when decomposed.
  ParticleArrays particle_arrays() override;
  std::int64_t neighbor_list_builds() const override;
  std::int64_t reorders() const override { return reorders_; }

  /// Per-particle energy and virial shares of the last force evaluation that computed them, in
  /// storage order (tests).
  const neighbors::ForceBuffers& force_buffers() const { return buffers_; }

 private:
  /// The per-particle updates over this backend's arrays (integrate/particle_updates.hpp).
  integrate::Kick kick_update(double dt);
  integrate::Drift drift_update(double dt);
  /// The O update; sizes the heat shares on first use.
  integrate::Thermalize thermalize_update(const integrate::VelocityNoise& noise);
  void reorder_along_curve();
  /// A spatial decomposition's ghosts refreshed before a force evaluation, or the particles
  /// partitioned anew over the bricks (spatial_domain.hpp).
  void refresh_bricks();
  std::vector<std::size_t> partition_bricks(const core::Vec3Array& position,
                                            const std::vector<std::size_t>& preferred);
  void restore_bricks(const BackendState& state);
  void restrict_to_bricks(forces::CpuForceTerm& term, const forces::ForceSettings& settings);
  /// Rigid molecules (BackendSetup::components): their force term, rotors and fields.
  void add_rigid_molecules(const BackendSetup& setup);
  bool rigid() const { return !rotors_.empty(); }
  /// The rotational halves of the stages, for rigid molecules (nothing without them): the
  /// torque's kick on L, the free rotation, and the O step on L.
  void kick_rotation(double dt);
  void rotate(double dt);
  void thermalize_rotation(const integrate::VelocityNoise& noise);
  /// Rigid molecules' kinetic energy of rotation, over every rank.
  double rotational_kinetic_energy() const;
  /// Moves every molecule by its centre of mass's share of the box's change (rescale_box).
  void move_molecule_centres(const core::Box& to);
  /// slot_of_id_ for the present storage order.
  void locate_molecule_members();
  /// A trial move's kept configuration current on every rank, before a partition.
  void gather_kept_configuration();
  /// Where the run is decomposed, `arrays` current on every rank (a gather).
  void make_current(std::initializer_list<core::Vec3Array*> arrays);
  /// The molecules' shares of 2 K^c and C (molecule_pressure.hpp), summed in molecule order.
  MoleculePressureShares::Parts molecule_sums();
  /// observables(), the constraint forces' share of the virial included or not.
  Observables observed(bool constraint_share);
  /// The particles this rank integrates (all of them on one rank).
  parallel::IndexRange owned() const { return domain_->owned(); }
  /// K_ab over the owned particles, then over the owners of every particle.
  core::SymmetricTensor<double> kinetic_tensor() const;

  core::UnitSystem units_;
  core::SpeciesTable species_;
  core::Box box_;
  std::vector<double> cutoffs_;   ///< of the force terms, for rescale_box's check
  core::ParticleData particles_;  ///< in storage order
  core::ParticleData by_id_;      ///< a copy in id order, once particles were reordered
  std::int64_t reorder_every_ = 0;
  std::int64_t evaluations_ = 0;
  std::int64_t reorders_ = 0;
  bool energy_current_ = false;  ///< energy and virial shares belong to the current positions
  std::optional<core::ExclusionLists> exclusions_;  ///< pairs the lists leave out (bonds)
  std::optional<core::ExclusionLists> partners_;    ///< a spatial run's bonded partners, by id
  std::vector<std::unique_ptr<forces::CpuForceTerm>> terms_;
  /// The terms_ entry of each config force term (the two of a one-pass pair share one; a
  /// checkpoint keeps one neighbour state per config force term).
  forces::TermPlan plan_;
  neighbors::ForceBuffers buffers_;
  /// The energy summed after each term, at the last evaluation with energies (this rank's share).
  std::vector<double> cumulative_energy_;
  std::vector<double> inverse_mass_;  ///< per type, times the force-to-acceleration factor
  std::vector<double> heat_;          ///< per particle: kinetic energy added by O steps
  /// Rigid molecules' rotors by type, moments in energy x time^2 (the unit system's mass x
  /// length^2 times mvv_to_energy), so that L / I is an angular velocity; empty: none.
  std::vector<integrate::RotorInertia<double>> rotors_;
  std::optional<constraints::HostConstraints> constraints_;  ///< distances held, if any
  std::unique_ptr<parallel::Domain> domain_;    ///< which particles this rank owns and reads
  parallel::SpatialDomain* spatial_ = nullptr;  ///< domain_ where it is spatial (null: not)
  std::vector<std::int32_t> anchor_of_id_;      ///< spatial runs with constraints (anchors)
  bool partitioned_ = false;  ///< spatial_ has partitioned the particles as they are now
  /// What a barostat's move scales by their centres (none: every particle), with the mass of
  /// each type, each id's storage slot, each molecule's centre and each particle's unwrapping
  /// (scratch).
  std::optional<integrate::MoleculeRows> molecules_;
  std::vector<double> mass_;
  std::vector<std::int32_t> slot_of_id_;
  std::vector<core::Vec3<double>> molecule_centre_, molecule_velocity_;
  std::vector<core::Vec3<double>> unwrapping_;  ///< per particle: x - unwrapped x
  /// The configuration before a trial move (keep_configuration), until it is given back or
  /// released; storage order stays as it is meanwhile.
  struct KeptConfiguration {
    core::Box box;
    core::Vec3Of<std::vector<double>> position, force, torque;
    core::Vec3Of<std::vector<std::int32_t>> image;
  };
  std::optional<KeptConfiguration> kept_;
};

}  // namespace novamd::backend
