#include <climits>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "novamd/backend/brick_groups.hpp"
#include "novamd/backend/cuda_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/device_box_moves.cuh"
#include "novamd/backend/device_constraints.cuh"
#include "novamd/backend/device_particles.cuh"
#include "novamd/backend/device_reductions.cuh"
#include "novamd/backend/for_each_particle_cuda.cuh"
#include "novamd/backend/molecular_terms.hpp"
#include "novamd/backend/particle_terms.hpp"
#include "novamd/core/device_topology.cuh"
#include "novamd/core/error.hpp"
#include "novamd/forces/cuda_bonded_force.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/cuda_kspace_term.cuh"
#include "novamd/forces/cuda_rigid_molecules.cuh"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/forces/pair_sum_terms.hpp"
#include "novamd/forces/rigid_kspace.hpp"
#include "novamd/forces/staged_forces_cuda.cuh"
#include "novamd/integrate/particle_updates.hpp"
#include "novamd/integrate/rigid_updates.hpp"
#include "novamd/neighbors/space_filling_curve.hpp"
#include "novamd/neighbors/spatial_order_cuda.cuh"
#include "novamd/parallel/cuda_force_matrix_domain.cuh"
#include "novamd/parallel/cuda_spatial_domain.cuh"

namespace novamd::backend {
namespace {

/// A non-finite quantity of a particle, as one number ordered by id, then quantity.
constexpr std::int64_t kNoneFound = INT64_MAX;

using integrate::pointers_of;

/// A position update (integrate::Drift, KickDrift) that also refreshes the moved particle's
/// copy in the pair kernels' packed layout: the one place where the pair kernels' positions
/// follow the particles' (besides uploads and reorders, which pack every particle).
/// Writes particle i's position x into the pair kernels' packed layout.
template <class PairT>
struct PackPosition {
  const std::int32_t* type;
  neighbors::PairPosition<PairT>* packed;

  NOVAMD_HD void operator()(int i, const core::Vec3<double>& x) const {
    packed[i] = {static_cast<PairT>(x.x), static_cast<PairT>(x.y), static_cast<PairT>(x.z),
                 type[i]};
  }
};

/// A position update (integrate::Drift, KickDrift) that also refreshes the moved particle's
/// copy in the pair kernels' packed layout: the one place where the pair kernels' positions
/// follow the particles' (besides uploads, reorders and constraints, which pack what they move).
template <class Update, class PairT>
struct RefreshPairPositions {
  Update update;
  PackPosition<PairT> pack;

  __device__ void operator()(int i) const { pack(i, update(i)); }
};

template <core::Precision P>
class CudaBackend final : public Backend {
 public:
  using PairT = typename core::PrecisionTypes<P>::PairT;

  explicit CudaBackend(BackendSetup setup)
      : units_(std::move(setup.units)),
        species_(std::move(setup.species)),
        box_(setup.box),
        host_(std::move(setup.particles)),
        reorder_every_(setup.neighbors.reorder_every) {
    forces::resolve_kspace(setup.forces, box_);  // Ewald and PME parameters for this box
    const auto device = query_cuda_device();
    description_ = "cuda: " + describe(*device);
    multiprocessors_ = device->multiprocessors;
    resident_threads_ = device->multiprocessors * device->max_threads_per_multiprocessor;
    const std::size_t n = host_.size();
    auto neighbor_settings = setup.neighbors;
    make_domain(setup, neighbor_settings);
    if (!domain_->allows_reordering()) reorder_every_ = 0;  // e.g. blocks that are ranges of ids
    if (!setup.components.empty()) prepare_rigid_fields(host_, domain_->decomposed(), "GPU");
    device_.upload(host_, stream_.get());
    upload_per_type_constants();
    packed_.resize(n);
    reductions_.reserve(n);
    if (force_matrix_ && force_matrix_->decomposed())
      neighbor_settings.method = neighbors::NeighborMethod::AllPairs;
    const bool excluded_pairs = has_excluded_pairs(setup, force_matrix_ && domain_->decomposed());
    if (excluded_pairs) topology_.upload(setup.topology, stream_.get());
    // A spatial run checks at each partition that every bonded partner is a ghost.
    if (spatial_) partners_ = bonded_partners(setup.topology);
    // Lennard-Jones and real-space Coulomb in one pass where they share a cutoff and lists.
    plan_ = forces::plan_terms(
        setup.forces, force_matrix_ && domain_->decomposed()
                          ? std::nullopt
                          : forces::lj_coulomb_pass_at(setup.forces, neighbor_settings, box_));
    for (std::size_t t = 0; t < setup.forces.size(); ++t) {
      const auto& f = setup.forces[t];
      cutoffs_.push_back(forces::cutoff_of(f));
      if (plan_.joins_previous(t)) continue;  // in the Lennard-Jones term's pass
      auto term = plan_.starts_pass(t)
                      ? forces::make_cuda_lj_coulomb_force<P>(
                            std::get<forces::LennardJonesSettings>(f),
                            std::get<forces::CoulombSettings>(setup.forces[t + 1]), species_,
                            units_, neighbor_settings, box_, excluded_pairs)
                      : forces::make_cuda_force_term<P>(f, species_, units_, neighbor_settings,
                                                        box_, excluded_pairs);
      const auto& coulomb_settings = plan_.starts_pass(t) ? setup.forces[t + 1] : f;
      if (const auto* coulomb = std::get_if<forces::CoulombSettings>(&coulomb_settings);
          coulomb && coulomb->ewald_split()) {
        if (force_matrix_ && domain_->decomposed())
          throw core::InputError(
              "forces.coulomb: methods ewald and pme do not run in a force-matrix decomposition "
              "over several GPUs; run them on one GPU, or over spatial bricks "
              "(parallel.decomposition: spatial)");
        if (spatial_ && coulomb->method != forces::CoulombMethod::Pme)
          throw core::InputError(
              "forces.coulomb: method ewald does not run in a spatial decomposition on the CUDA "
              "backend yet (pme does); use pme, run it on one GPU, or on the CPU backend");
        term = forces::make_cuda_kspace_term<P>(std::move(term), *coulomb, units_, host_.charge);
        if (spatial_) term->share_over_ranks(fixed_rank_sum(setup));
      }
      if (spatial_ && !term->restricts_targets(static_cast<int>(n), box_))
        throw core::InputError(
            "forces." + forces::name_of(f) +
            ": does not run in a spatial decomposition on the CUDA backend yet (pair terms "
            "over per-particle Verlet lists do, in a box of at least three cells of the cutoff "
            "plus skin along each edge); run it on one GPU, or on the CPU backend");
      terms_.push_back(std::move(term));
    }
    if (spatial_) check_spatial_setup(setup);
    if (!setup.bonded.empty()) {  // less the terms the constraints make constant
      const core::HeldDistances held = held_distances_for(setup);
      terms_.push_back(forces::make_cuda_bonded_terms<P>(setup.bonded, setup.topology, &held));
    }
    if (!setup.components.empty()) add_rigid_molecules(setup, neighbor_settings);
    for (const auto& term : terms_) energy_parts_ += static_cast<std::size_t>(term->parts());
    reductions_.reserve_terms(energy_parts_);
    pack_all_positions();  // for the pair kernels
    if (setup.constraint_plan.constraint_count() > 0) {
      if (force_matrix_ && domain_->decomposed())
        throw core::InputError(
            "constraints: held distances do not run in a force-matrix grid over several GPUs "
            "(run it on one GPU, or over spatial bricks: parallel.decomposition: spatial)");
      constraints_.emplace(setup.constraint_plan, setup.constraint_tolerance, stream_.get());
      constraints_->locate(device_.id.data(), size(), stream_.get());
      if (spatial_) anchor_of_id_ = constraints_->anchors(size());  // each group on one rank
    }
    if (!setup.scaled_molecules.of_id.empty()) {
      std::vector<double> mass;
      for (const auto& s : species_.all()) mass.push_back(s.mass);
      box_moves_.scale_molecules(setup.scaled_molecules, mass, stream_.get());
    }
    NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());  // uploads on other streams are complete
  }

  // Positions projected from themselves (no velocity correction), then the velocity condition.
  void constrain_initial_state() override {
    if (!constraints_) return;
    constraints_->keep_positions(pointers_of(device_.position), size(), stream_.get());
    constraints_->after_drift(group_arrays(), 1.0, /*correct_velocities=*/false,
                              /*velocity_condition=*/true, pack_position(), stream_.get());
    energy_current_ = EnergyRequest::Skip;
  }

  std::string description() const override { return description_; }
  std::size_t size() const override { return host_.size(); }
  const core::Box& box() const override { return box_; }

  // Every particle (owned or not: each rank holds them all) scaled, then packed anew.
  void rescale_box(const core::Box& box) override {
    forces::check_cutoffs_fit(cutoffs_, box);
    if (box_moves_.scales_molecules()) make_current({&device_.position});  // the centres
    box_moves_.scale(device_, static_cast<int>(size()), box_, box, stream_.get());
    box_ = box;
    energy_current_ = EnergyRequest::Skip;
    pack_all_positions();
    for (auto& term : terms_) term->follow_box(box_, stream_.get());
  }
  bool takes_box(const core::Box& box) const override { return forces::cutoffs_fit(cutoffs_, box); }
  void keep_configuration() override { box_moves_.keep(device_, box_, stream_.get()); }
  void restore_configuration() override {
    box_ = box_moves_.restore(device_, stream_.get());
    energy_current_ = EnergyRequest::Skip;
    pack_all_positions();
    // The lists follow the box back (those built at the trial's positions too: the kept
    // positions are theirs scaled back).
    for (auto& term : terms_) term->follow_box(box_, stream_.get());
  }
  void release_configuration() override { box_moves_.release(); }
  std::int64_t check_interval() const override { return 100; }
  std::int64_t neighbor_list_builds() const override {
    std::int64_t builds = 0;
    for (const auto& term : terms_) builds += term->list_builds();
    return builds;
  }
  std::int64_t reorders() const override { return reorders_; }
  MemoryUse memory_use() const override {
    MemoryUse use;
    use.particles = device_.bytes() + packed_.bytes();
    for (const auto& term : terms_) use.neighbors += term->bytes();
    use.other = inverse_mass_.bytes() + mass_energy_.bytes() + reductions_.bytes() +
                order_.bytes() + (force_matrix_ ? force_matrix_->bytes() : 0) +
                (spatial_ ? spatial_->bytes() : 0) + (constraints_ ? constraints_->bytes() : 0) +
                box_moves_.bytes() + rotors_.bytes() + rotational_energy_.bytes();
    return use;
  }
  void synchronize() override { stream_.synchronize(); }

  void compute_forces(EnergyRequest energy) override {
    const auto stream = stream_.get();
    const bool with_energy = energy != EnergyRequest::Skip;
    // A trial move's evaluation (a kept configuration) neither reorders nor counts toward the
    // reorders' phase.
    if (spatial_) {
      ++evaluations_;
      refresh_bricks();
    } else {
      if (reorder_every_ > 0 && !box_moves_.keeping() && ++evaluations_ % reorder_every_ == 0)
        reorder_along_curve();
      force_matrix_->refresh_ghosts(pointers_of(device_.position), device_.type.data(),
                                    packed_.data(), stream);
    }
    if (terms_.empty()) device_.clear_forces(stream);
    const auto input = force_input();
    // The terms' work that writes no forces first, on their side streams, beside the pairs;
    // without energy, whatever forces they can compute there too (staged), added after the
    // pairs in one pass.
    for (const auto& term : terms_) {
      if (with_energy)
        term->start(input, {false, true}, stream);
      else
        term->start_staged(input, stream);
    }
    if (energy == EnergyRequest::Totals) {
      // Each term in one pass (a PairSum's potentials together): the sums alone.
      for (std::size_t t = 0; t < terms_.size(); ++t)
        terms_[t]->add_to(input, device_.force_output(), {t > 0, true}, stream);
    } else if (with_energy) {
      // Part by part (a bonded family each), the energy summed after each: its thermo column.
      const auto ranges = domain_->energy_ranges();
      std::size_t part = 0;
      for (const auto& term : terms_) {
        for (int p = 0; p < term->parts(); ++p, ++part) {
          term->add_part_to(p, input, device_.force_output(), {part > 0, true}, stream);
          reductions_.queue_term_energy(device_.energy.data(), ranges, part, stream);
        }
      }
    } else {
      for (std::size_t t = 0; t < terms_.size(); ++t)
        terms_[t]->add_to(input, device_.force_output(), {t > 0, false}, stream);
      staged_.clear();
      for (const auto& term : terms_)
        if (const auto staged = term->staged_forces(stream)) staged_.push_back(*staged);
      forces::add_staged_forces(input.n, staged_, device_.force_output(), stream);
    }
    if (force_matrix_) force_matrix_->complete_forces(pointers_of(device_.force), stream);
    energy_current_ = energy;
  }

  void kick(double dt) override {
    for_each_particle(static_cast<int>(owned_count()), kick_update(dt), stream_.get());
    kick_rotation(dt);
    if (constraints_) constraints_->constrain_velocities(group_arrays(), nullptr, stream_.get());
  }

  void kick_drift(double kick_dt, double drift_dt, integrate::VelocityCondition after) override {
    // One pass; with constraints, the drift's make the kick's velocity condition moot.
    move_then_constrain(integrate::KickDrift{kick_update(kick_dt), drift_update(drift_dt)},
                        drift_dt, after);
    kick_rotation(kick_dt);
    rotate(drift_dt);
  }

  void drift(double dt, integrate::VelocityCondition after) override {
    move_then_constrain(drift_update(dt), dt, after);
    rotate(dt);
  }

  void scale_velocities(double factor) override {
    for_each_particle(static_cast<int>(owned_count()),
                      integrate::ScaleVelocities{pointers_of(device_.velocity, first()), factor},
                      stream_.get());
    if (rigid())  // one rank: rigid molecules run on one GPU
      for_each_particle(
          static_cast<int>(size()),
          integrate::ScaleAngularMomenta{pointers_of(device_.angular_momentum), factor},
          stream_.get());
  }

  void scale_velocities_by_axis(core::Vec3<double> factor) override {
    if (box_moves_.scales_molecules()) {  // each molecule's centre from every rank's atoms
      make_current({&device_.velocity});
      box_moves_.scale_velocities(device_, static_cast<int>(size()), factor, stream_.get());
      return;
    }
    for_each_particle(static_cast<int>(owned_count()),
                      integrate::ScaleVelocityAxes{pointers_of(device_.velocity, first()), factor},
                      stream_.get());
  }

  void thermalize(const integrate::VelocityNoise& noise) override {
    if (size() == 0) return;
    for_each_particle(static_cast<int>(owned_count()), thermalize_update(noise), stream_.get());
    thermalize_rotation(noise);
    // The velocity condition is part of the O step: its kinetic-energy change counts as heat.
    if (constraints_)
      constraints_->constrain_velocities(group_arrays(), device_.heat.data(), stream_.get());
  }

  void thermalize_drift(const integrate::VelocityNoise& noise, double drift_dt,
                        integrate::VelocityCondition after) override {
    if (constraints_) {  // each stage constrained in turn
      thermalize(noise);
      drift(drift_dt, after);
      return;
    }
    energy_current_ = EnergyRequest::Skip;
    if (size() == 0) return;
    for_each_particle(static_cast<int>(owned_count()),
                      refreshing_pair_positions(integrate::ThermalizeDrift{thermalize_update(noise),
                                                                           drift_update(drift_dt)}),
                      stream_.get());
    thermalize_rotation(noise);
    rotate(drift_dt);
  }

  void drift_thermalize_drift(double first_dt, const integrate::VelocityNoise& noise,
                              double second_dt, integrate::VelocityCondition after) override {
    if (constraints_ && constraints_->has_coupled_sets()) {  // each stage constrained in turn
      integrate::StepOperations::drift_thermalize_drift(first_dt, noise, second_dt, after);
      return;
    }
    energy_current_ = EnergyRequest::Skip;
    if (size() == 0) return;
    const integrate::DriftThermalizeDrift update{drift_update(first_dt), thermalize_update(noise),
                                                 drift_update(second_dt)};
    if (!constraints_) {
      for_each_particle(static_cast<int>(owned_count()), refreshing_pair_positions(update),
                        stream_.get());
      rotate(first_dt);
      thermalize_rotation(noise);
      rotate(second_dt);
      return;
    }
    // The positions constrained once, from where the first drift began (ThermostatInDrift),
    // each group by the rank that owns it.
    const double dt = first_dt + second_dt;
    for_each_particle(
        static_cast<int>(owned_count()),
        refreshing_pair_positions(
            constraints::RememberingPositions<integrate::DriftThermalizeDrift>{
                update, pointers_of(device_.position, first()), positions_before_drift()}),
        stream_.get());
    constraints_->after_drift_with_thermostat(
        group_arrays(), dt, after == integrate::VelocityCondition::Apply,
        {second_dt / dt, device_.heat.data()}, pack_position(), stream_.get());
  }

  // Sums over the owned particles, then over their owners' ranks.
  double langevin_heat() override {
    double heat = device_.heat.size() == 0 ? 0.0
                                           : reductions_.sum(device_.heat.data() + first(),
                                                             owned_count(), stream_.get());
    domain_->sum_over_owners(&heat, 1);
    return heat;
  }

  double kinetic_energy() override {
    double twice_kinetic = reductions_.twice_kinetic(kinetic_input(), stream_.get());
    domain_->sum_over_owners(&twice_kinetic, 1);
    return 0.5 * twice_kinetic + rotational_kinetic_energy();
  }

  // The energy array's sums queued on the device, read together (a Monte Carlo try: one wait).
  void queue_potential_energy(int slot) override {
    if (energy_current_ == EnergyRequest::Skip) compute_forces(EnergyRequest::Totals);
    reductions_.queue_energy(device_.energy.data(), domain_->energy_ranges(), slot, stream_.get());
  }
  std::array<double, 2> queued_potential_energies() override {
    auto energies = reductions_.queued_energies(stream_.get());
    domain_->sum_over_ranks(energies.data(), energies.size());
    return energies;
  }

  Observables observables() override { return observed(EnergyRequest::Compute); }
  Observables totals() override { return observed(EnergyRequest::Totals); }
  Observables barostat_totals() override {
    if (!box_moves_.scales_molecules()) return totals();
    // The molecules' sums queued first, then read after observed()'s wait: one wait for all.
    // The constraint forces' molecular virial is zero (molecule_pressure.hpp).
    if (static_cast<int>(energy_current_) < static_cast<int>(EnergyRequest::Totals))
      compute_forces(EnergyRequest::Totals);
    make_current({&device_.position, &device_.velocity, &device_.force});
    box_moves_.queue_pressure_parts(device_, static_cast<int>(size()), box_, units_.mvv_to_energy,
                                    stream_.get());
    Observables o = observed(EnergyRequest::Totals, /*constraint_share=*/false);
    const auto parts = box_moves_.queued_pressure_parts();
    for (int k = 0; k < core::kTensorComponents; ++k) {
      o.kinetic.c[k] = 0.5 * parts.twice_kinetic.v[1 + k];
      o.virial.c[k] -= parts.internal_virial.v[1 + k];
    }
    return o;
  }
  core::SymmetricTensor<double> moved_kinetic_tensor() override {
    core::SymmetricTensor<double> t;
    if (box_moves_.scales_molecules()) {
      make_current({&device_.position, &device_.velocity});
      box_moves_.queue_pressure_parts(device_, static_cast<int>(size()), box_, units_.mvv_to_energy,
                                      stream_.get());
      stream_.synchronize();
      const auto parts = box_moves_.queued_pressure_parts();
      for (int k = 0; k < core::kTensorComponents; ++k) t.c[k] = 0.5 * parts.twice_kinetic.v[1 + k];
      return t;
    }
    auto local = reductions_.kinetic_sums(kinetic_input(), stream_.get());
    domain_->sum_over_owners(local.data(), local.size());
    for (int k = 0; k < core::kTensorComponents; ++k) t.c[k] = 0.5 * local[1 + k];
    return t;
  }

  // A barostat's samples between moves, queued on the device (no wait) and read at its move
  // with the kinetic tensor the move scales (one wait). Held distances without molecules moved
  // whole would need the constraint forces' virial, summed on the host: the queue of
  // StepOperations serves them.
  void queue_pressure_parts(int slot) override {
    if (constraints_ && !box_moves_.scales_molecules()) {
      StepOperations::queue_pressure_parts(slot);
      return;
    }
    if (static_cast<int>(energy_current_) < static_cast<int>(EnergyRequest::Totals))
      compute_forces(EnergyRequest::Totals);
    if (box_moves_.scales_molecules())
      make_current({&device_.position, &device_.velocity, &device_.force});
    KineticInput kinetic = kinetic_input();
    if (box_moves_.scales_molecules()) kinetic.count = 0;  // the centres' K instead, below
    reductions_.queue_pressure_slot(kinetic, device_, domain_->energy_ranges(), slot,
                                    stream_.get());
    if (box_moves_.scales_molecules())
      box_moves_.queue_pressure_slot(device_, static_cast<int>(size()), box_, units_.mvv_to_energy,
                                     slot, stream_.get());
  }
  integrate::QueuedPressureParts queued_pressure_parts(int count) override {
    if (constraints_ && !box_moves_.scales_molecules())
      return StepOperations::queued_pressure_parts(count);
    const bool molecules = box_moves_.scales_molecules();
    if (molecules) {
      make_current({&device_.position, &device_.velocity});
      box_moves_.queue_pressure_slot(device_, static_cast<int>(size()), box_, units_.mvv_to_energy,
                                     integrate::kPressureSlots, stream_.get());
      box_moves_.queue_slot_copy(count, stream_.get());
    } else {
      reductions_.queue_moved_kinetic(kinetic_input(), stream_.get());
    }
    const auto entries = reductions_.read_pressure_slots(count, stream_.get());  // the wait
    // Per slot: 2 K_ab (over the owners), then W_ab summed over the ranges (over every rank).
    constexpr std::size_t kSlot = DeviceReductions::kSlotEntries;
    const std::size_t n = static_cast<std::size_t>(count);
    std::vector<double> kinetic(6 * (n + 1)), virial(6 * n);
    for (std::size_t k = 0; k <= n; ++k) {
      const ScalarAndTensor& t = entries[k < n ? k * kSlot : n * kSlot];
      for (int c = 0; c < core::kTensorComponents; ++c) kinetic[6 * k + c] = t.v[1 + c];
      if (k == n) break;
      for (std::size_t r = 1; r < kSlot; ++r)
        for (int c = 0; c < core::kTensorComponents; ++c)
          virial[6 * k + c] += entries[k * kSlot + r].v[1 + c];
    }
    domain_->sum_over_owners(kinetic.data(), kinetic.size());
    domain_->sum_over_ranks(virial.data(), virial.size());
    integrate::QueuedPressureParts out;
    out.samples.resize(n);
    for (std::size_t k = 0; k <= n; ++k) {
      core::SymmetricTensor<double> K;
      if (molecules) {
        const auto parts = box_moves_.slot_parts(static_cast<int>(k));
        for (int c = 0; c < core::kTensorComponents; ++c)
          K.c[c] = 0.5 * parts.twice_kinetic.v[1 + c];
        if (k < n)
          for (int c = 0; c < core::kTensorComponents; ++c)
            out.samples[k].virial.c[c] = virial[6 * k + c] - parts.internal_virial.v[1 + c];
      } else {
        for (int c = 0; c < core::kTensorComponents; ++c) K.c[c] = 0.5 * kinetic[6 * k + c];
        if (k < n)
          for (int c = 0; c < core::kTensorComponents; ++c)
            out.samples[k].virial.c[c] = virial[6 * k + c];
      }
      if (k < n) {
        out.samples[k].kinetic = K;
      } else {
        out.moved_kinetic = K;
      }
    }
    return out;
  }

  /// The observables after an evaluation of at least `level` at the current positions (one
  /// made where the last was less); each term's energy only where the last was Compute; the
  /// constraint forces' share of the virial where `constraint_share`.
  Observables observed(EnergyRequest level, bool constraint_share = true) {
    if (size() == 0) return {};
    if (static_cast<int>(energy_current_) < static_cast<int>(level)) compute_forces(level);
    auto local = reductions_.observables(kinetic_input(), device_, domain_->energy_ranges(),
                                         energy_parts_, stream_.get());
    // Kinetic terms over the owners; each rank's energy and virial shares: over every rank.
    domain_->sum_over_owners(local.kinetic.data(), local.kinetic.size());
    domain_->sum_over_ranks(local.shares.data(), local.shares.size());
    domain_->sum_over_ranks(local.term_energy.data(), local.term_energy.size());
    Observables o;
    o.term_energy = term_energies(local.term_energy);
    o.rotational_kinetic_energy = rotational_kinetic_energy();
    o.kinetic_energy = 0.5 * local.kinetic[0] + o.rotational_kinetic_energy;
    o.potential_energy = local.shares[0];
    for (int k = 0; k < core::kTensorComponents; ++k) {
      o.kinetic.c[k] = 0.5 * local.kinetic[1 + k];
      o.virial.c[k] = local.shares[1 + k];
    }
    if (constraints_ && constraint_share) {  // the constraint forces now (constraint_groups.hpp)
      auto held = constraints_->virial(group_arrays(), stream_.get());
      domain_->sum_over_ranks(&held.c[0], core::kTensorComponents);  // each rank's groups
      for (int k = 0; k < core::kTensorComponents; ++k) o.virial.c[k] += held.c[k];
    }
    return o;
  }

  BackendState save_state() override {
    const auto stream = stream_.get();
    BackendState state;
    if (domain_->decomposed()) {
      particles_on_host();      // every rank's particles gathered
      state.particles = host_;  // storage order (id order in a force matrix)
    } else {
      device_.download(state.particles, stream, /*everything=*/true);
    }
    device_.heat.copy_to_host(state.thermostat_heat, stream);
    stream_.synchronize();
    if (!state.thermostat_heat.empty()) domain_->gather(state.thermostat_heat);
    state.force_evaluations = evaluations_;
    state.reorders = reorders_;
    for (const std::size_t t : plan_.term_of)
      state.terms.push_back(terms_[t]->neighbor_state(stream));
    if (rigid())
      state.terms.push_back(terms_.back()->neighbor_state(stream));  // after the config's
    return state;
  }

  void restore_state(const BackendState& state) override {
    const auto stream = stream_.get();
    host_ = state.particles;
    std::vector<double> heat = state.thermostat_heat;
    if (spatial_) {
      restore_bricks(state, std::move(heat));
      return;
    }
    if (!domain_->allows_reordering() && state.reorders > 0) {  // from a single GPU: id order
      const auto order = core::id_order(host_);
      core::permute(host_, order);
      if (!heat.empty()) heat = core::gathered(heat, order);
    }
    device_.upload(host_, stream);
    device_.heat.copy_from_host(heat, stream);
    evaluations_ = state.force_evaluations;
    reorders_ = domain_->allows_reordering() ? state.reorders : 0;
    energy_current_ = EnergyRequest::Skip;
    pack_all_positions();
    if (constraints_) constraints_->locate(device_.id.data(), size(), stream);
    if (domain_->decomposed()) return;  // all pairs of the block: no lists to restore
    for (std::size_t f = 0; f < plan_.term_of.size() && f < state.terms.size(); ++f)
      if (plan_.restores(f))  // one pass: restored with the term's first entry
        restore_term(*terms_[plan_.term_of[f]], state.terms[f]);
    if (rigid() && state.terms.size() > plan_.term_of.size())
      restore_term(*terms_.back(), state.terms[plan_.term_of.size()]);
  }

  std::optional<Unstable> find_unstable(double max_speed) override {
    const auto stream = stream_.get();
    if (constraints_)
      if (const auto failure = constraints_->failure(stream))
        throw core::RunError(*failure +
                             " (at some step since the previous check: the GPU checks every " +
                             std::to_string(check_interval()) + " steps)");
    const std::size_t owned = owned_count();
    std::int64_t code = kNoneFound;
    const InstabilityFlag flag{pointers_of(device_.position, first()),
                               pointers_of(device_.velocity, first()),
                               pointers_of(device_.force, first()),
                               device_.energy.data() + first(),
                               device_.id.data() + first(),
                               max_speed * max_speed,
                               nullptr};
    if (reductions_.first_flagged(flag, owned, stream) != INT32_MAX)
      code = host_check(max_speed * max_speed);
    code = domain_->min_over_ranks(code);  // every rank agrees
    if (code == kNoneFound) return std::nullopt;
    return Unstable{static_cast<std::int32_t>(code / core::kInstabilityKinds),
                    static_cast<core::Instability>(code % core::kInstabilityKinds)};
  }

  const core::ParticleData& particles_on_host() override {
    // After a reorder the constant fields (types, ids, charges, ...) moved on the device too.
    device_.download(host_, stream_.get(), /*everything=*/reorders_ > 0);
    stream_.synchronize();
    if (domain_->decomposed()) {  // every rank's particles gathered to every rank
      domain_->gather_evolving(host_);
      if (!spatial_) return host_;  // a force matrix keeps id order
    }
    if (reorders_ == 0) return host_;
    by_id_ = host_;
    core::permute(by_id_, core::id_order(host_));
    return by_id_;
  }

  ParticleArrays particle_arrays() override {
    // Decomposed, this rank's arrays hold only its targets and sources up to date: gather.
    if (domain_->decomposed()) return Backend::particle_arrays();
    const core::ParticleView view{device_.position.x.data(), device_.position.y.data(),
                                  device_.position.z.data(), device_.type.data(),
                                  device_.id.data(),         size()};
    return {view, stream_.get()};
  }

 private:
  /// The spatial bricks where the setup names them over several ranks (parallel/
  /// cuda_spatial_domain.cuh: per-particle Verlet lists of the owned particles, which
  /// `neighbors` then asks for); else the force matrix (every particle on one GPU).
  void make_domain(const BackendSetup& setup, neighbors::NeighborSettings& neighbors) {
    const std::size_t n = host_.size();
    if (setup.bricks && setup.communicator && setup.communicator->size() > 1) {
      if (neighbors.method == neighbors::NeighborMethod::Auto)
        neighbors.method = neighbors::NeighborMethod::NeighborList;
      neighbors.layout = neighbors::ListLayout::Atoms;
      // refresh_bricks asks every term whether its lists are due before each evaluation, and
      // partitions (building them afresh) where any rank's are: the terms need not check again.
      neighbors.check_every = std::numeric_limits<std::int64_t>::max();
      auto spatial = std::make_unique<parallel::CudaSpatialDomain>(
          setup.communicator, *setup.bricks, spatial_halo(setup.forces, neighbors, setup.box), n);
      spatial_ = spatial.get();
      domain_ = std::move(spatial);
      return;
    }
    auto matrix =
        std::make_unique<parallel::CudaForceMatrixDomain>(setup.communicator, n, multiprocessors_);
    force_matrix_ = matrix.get();
    domain_ = std::move(matrix);
  }

  /// What the CUDA backend's bricks do not run yet, refused before any step.
  static void check_spatial_setup(const BackendSetup& setup) {
    const auto refuse = [](const std::string& what) {
      throw core::InputError(what +
                             " does not run in a spatial decomposition on the CUDA backend yet; "
                             "run it on one GPU, or on the CPU backend");
    };
    if (!setup.components.empty()) refuse("system.components: rigid molecules");
  }

  /// A spatial run's ghosts refreshed; where some rank's lists are due (or before the first
  /// evaluation), every particle gathered and partitioned over the bricks anew instead.
  void refresh_bricks() {
    const auto stream = stream_.get();
    if (partitioned_) {
      spatial_->refresh_ghosts(pointers_of(device_.position), device_.type.data(), packed_.data(),
                               stream);
      const auto input = force_input();
      bool due = false;
      for (const auto& term : terms_) due = term->lists_due(input, stream) || due;
      if (domain_->min_over_ranks(due ? 0 : 1) == 1) return;  // no rank's lists are due
    }
    // Every rank's particles to every rank (at the first evaluation every rank holds them all
    // alike, as set up or restored), ordered alike: by brick, the Morton curve within each.
    device_.download(host_, stream, /*everything=*/true);
    std::vector<double> heat;
    device_.heat.copy_to_host(heat, stream);
    stream_.synchronize();
    const bool trial = partitioned_ && box_moves_.keeping();  // a trial move's evaluation
    if (partitioned_) {
      domain_->gather_evolving(host_);
      if (!heat.empty()) domain_->gather(heat);
      // The kept configuration current on every rank first: a rejected trial restores it.
      if (trial)
        box_moves_.remap_kept([this](std::vector<double>& v) { domain_->gather(v); }, stream);
    }
    const auto curve = neighbors::morton_order(host_, box_);
    const auto order = partition_bricks(host_.position,
                                        std::vector<std::size_t>(curve.begin(), curve.end()), heat);
    if (trial)  // ... and in the new storage order
      box_moves_.remap_kept([&order](std::vector<double>& v) { v = core::gathered(v, order); },
                            stream);
    pack_all_positions();
  }

  /// The spatial domain's partition of `position` (every entry current, in host_'s order) with
  /// `preferred` order within each brick, applied to host_ and `heat`, uploaded (the caller
  /// packs the positions), and the halo plan with them; the lists built afresh for the new
  /// owned range at the next evaluation.
  std::vector<std::size_t> partition_bricks(const core::Vec3Array& position,
                                            const std::vector<std::size_t>& preferred,
                                            std::vector<double> heat) {
    const auto stream = stream_.get();
    // Each constraint group on one rank: the one whose brick holds its first particle.
    std::vector<std::size_t> anchor;
    double anchor_reach = 0.0;
    if (!anchor_of_id_.empty())
      std::tie(anchor, anchor_reach) = constraint_anchors(host_.id, anchor_of_id_, position, box_);
    const auto order = spatial_->partition(position, box_, preferred, anchor, anchor_reach);
    core::permute(host_, order);
    if (!heat.empty()) heat = core::gathered(heat, order);
    device_.upload(host_, stream);
    device_.heat.copy_from_host(heat, stream);
    spatial_->upload_plan(stream);  // waits: `heat` goes out of scope
    const parallel::IndexRange own = domain_->owned();
    if (constraints_) {
      constraints_->locate(device_.id.data(), size(), stream);
      constraints_->keep_to(slots_of_ids(host_.id), own.begin, own.end, stream);
    }
    if (partners_) check_partners_within_halo(host_, *partners_, own, box_, spatial_->halo());
    for (auto& term : terms_) term->invalidate_lists();
    energy_current_ = EnergyRequest::Skip;
    partitioned_ = true;
    ++reorders_;
    return order;
  }

  /// A spatial run continues from `state` (host_ set from it, storage order as saved):
  /// partitioned by the positions at the saved lists' build, the saved order kept within each
  /// brick, and the lists built again from those positions, as the uninterrupted run has them
  /// (the CPU backend's restore_bricks). Without saved lists the first evaluation partitions.
  void restore_bricks(const BackendState& state, std::vector<double> heat) {
    const auto stream = stream_.get();
    evaluations_ = state.force_evaluations;
    reorders_ = state.reorders;
    energy_current_ = EnergyRequest::Skip;
    partitioned_ = false;
    const bool lists_saved = !state.terms.empty() &&
                             state.terms.front().built_at.size() == host_.size() &&
                             state.terms.front().built_box.volume() > 0.0;
    if (!lists_saved) {
      device_.upload(host_, stream);
      device_.heat.copy_from_host(heat, stream);
      if (constraints_) {  // every group until the first partition, found in the saved order
        constraints_->keep_all();
        constraints_->locate(device_.id.data(), size(), stream);
      }
      pack_all_positions();
      stream_.synchronize();  // `heat` goes out of scope
      return;
    }
    std::vector<std::size_t> identity(host_.size());
    std::iota(identity.begin(), identity.end(), std::size_t{0});
    const core::Box box_now = box_;
    box_ = state.terms.front().built_box;  // the partition's box
    const auto order = partition_bricks(state.terms.front().built_at, identity, std::move(heat));
    box_ = box_now;
    pack_all_positions();
    reorders_ = state.reorders + (state.reorders == 0 ? 1 : 0);  // storage order is not id order
    for (std::size_t f = 0; f < plan_.term_of.size() && f < state.terms.size(); ++f) {
      if (plan_.restores(f))
        restore_term(*terms_[plan_.term_of[f]], neighbors::reordered(state.terms[f], order));
    }
  }

  /// `term` continues from its saved state `saved`.
  void restore_term(forces::CudaForceTerm<PairT>& term, const neighbors::NeighborState& saved) {
    const auto stream = stream_.get();
    const auto& built_at = saved.built_at;
    std::vector<neighbors::PairPosition<PairT>> packed(built_at.size());
    for (std::size_t i = 0; i < packed.size(); ++i) {
      packed[i] = {static_cast<PairT>(built_at.x[i]), static_cast<PairT>(built_at.y[i]),
                   static_cast<PairT>(built_at.z[i]), host_.type[i]};
    }
    core::DeviceBuffer<neighbors::PairPosition<PairT>> on_device;
    on_device.copy_from_host(packed, stream);
    term.restore_neighbors(saved, on_device.data(), force_input(), stream);
    stream_.synchronize();  // before `on_device` is freed
  }

  /// Rigid molecules (BackendSetup::components): their force term, after the config's terms
  /// (none: the components' sites are the interactions), and their rotors.
  void add_rigid_molecules(const BackendSetup& setup,
                           const neighbors::NeighborSettings& neighbor_settings) {
    forces::RigidModel model = forces::make_rigid_model(setup.components, setup.rigid_sites);
    const double cutoff = *model.cutoff;
    cutoffs_.push_back(cutoff);
    terms_.push_back(forces::make_cuda_rigid_molecules<P>(
        model, neighbor_settings.skin_for(cutoff, box_.shortest_edge()),
        neighbor_settings.check_every, forces::resolved_kspace(setup.rigid_sites, box_),
        host_.type));
    rotors_.copy_from_host(integrate::rotors_of(setup.components, units_.mvv_to_energy),
                           stream_.get());
  }
  bool rigid() const { return rotors_.size() > 0; }

  /// The rotational halves of the stages, for rigid molecules (nothing without them; every
  /// molecule on one GPU): the torque's kick on L, the free rotation, and the O step on L.
  void kick_rotation(double dt) {
    if (!rigid()) return;
    for_each_particle(static_cast<int>(size()),
                      integrate::KickAngularMomentum{
                          pointers_of(device_.orientation), pointers_of(device_.angular_momentum),
                          pointers_of(device_.torque), device_.type.data(), rotors_.data(), dt},
                      stream_.get());
  }
  void rotate(double dt) {
    if (!rigid()) return;
    for_each_particle(static_cast<int>(size()),
                      integrate::RotateBodies{pointers_of(device_.orientation),
                                              pointers_of(device_.angular_momentum),
                                              device_.type.data(), rotors_.data(), dt},
                      stream_.get());
  }
  void thermalize_rotation(const integrate::VelocityNoise& noise) {
    if (!rigid()) return;
    size_heat_shares();
    for_each_particle(static_cast<int>(size()),
                      integrate::ThermalizeRotation{noise, pointers_of(device_.angular_momentum),
                                                    device_.type.data(), device_.id.data(),
                                                    rotors_.data(), device_.heat.data()},
                      stream_.get());
  }
  /// Rigid molecules' kinetic energy of rotation (a reduction and a wait; 0 without them).
  double rotational_kinetic_energy() {
    if (!rigid() || size() == 0) return 0.0;
    rotational_energy_.resize(size());
    for_each_particle(static_cast<int>(size()),
                      integrate::RotationalKineticEnergy{pointers_of(device_.angular_momentum),
                                                         device_.type.data(), rotors_.data(),
                                                         rotational_energy_.data()},
                      stream_.get());
    return reductions_.sum(rotational_energy_.data(), size(), stream_.get());
  }

  forces::CudaForceInput<PairT> force_input() {
    forces::DeviceFieldView fields{device_.position.x.data(),
                                   device_.position.y.data(),
                                   device_.position.z.data(),
                                   device_.id.data(),
                                   device_.charge.size() > 0 ? device_.charge.data() : nullptr,
                                   topology_.view()};
    if (device_.orientation.w.size() > 0) {  // rigid molecules
      fields.qw = device_.orientation.w.data();
      fields.qx = device_.orientation.x.data();
      fields.qy = device_.orientation.y.data();
      fields.qz = device_.orientation.z.data();
    }
    return {packed_.data(),
            static_cast<int>(size()),
            box_.view<PairT>(),
            box_,
            multiprocessors_,
            resident_threads_,
            domain_->pair_block(),
            force_matrix_ ? force_matrix_->block_range() : 0,
            fields,
            spatial_ ? static_cast<int>(first()) : 0,
            spatial_ ? static_cast<int>(first() + owned_count()) : -1};
  }

  /// The image counts from particle `first` on, or none where the system does not track them.
  integrate::Int3Pointers images(std::size_t first) {
    return integrate::image_pointers_of(device_.image, first);
  }

  /// The per-particle updates over this rank's owned particles (from first()).
  integrate::Kick kick_update(double dt) {
    return {pointers_of(device_.velocity, first()), pointers_of(device_.force, first()),
            device_.type.data() + first(), inverse_mass_.data(), dt};
  }
  integrate::Drift drift_update(double dt) {
    return {pointers_of(device_.position, first()), pointers_of(device_.velocity, first()),
            images(first()), box_.view<double>(), dt};
  }
  /// The heat shares, sized and zeroed on first use.
  void size_heat_shares() {
    if (device_.heat.size() == size()) return;
    device_.heat.resize(size());
    device_.heat.fill_zero(stream_.get());
  }
  /// The O update (the heat shares sized).
  integrate::Thermalize thermalize_update(const integrate::VelocityNoise& noise) {
    size_heat_shares();
    return {noise,
            inverse_mass_.data(),
            device_.type.data() + first(),
            device_.id.data() + first(),
            pointers_of(device_.velocity, first()),
            device_.heat.data() + first()};
  }

  /// `update`, then the moved particle's packed position for the pair kernels: every update
  /// that moves particles goes through here.
  template <class Update>
  RefreshPairPositions<Update, PairT> refreshing_pair_positions(const Update& update) {
    return {update, pack_position(first())};
  }

  /// The first particle this rank integrates, and how many (all of them on one GPU).
  std::size_t first() const { return domain_->owned().begin; }
  std::size_t owned_count() const { return domain_->owned_count(); }

  /// Positions moved by `move` (returning each new position; velocities too where it kicks),
  /// then, with constraints, the held distances over the drift `dt` from where the particles
  /// were, with their velocity condition as `after` says (DESIGN principle 11: positions,
  /// velocities by the same moves, velocities). Over bricks each rank moves its owned particles
  /// and solves the groups anchored there (the partition keeps each group on one rank).
  template <class Move>
  void move_then_constrain(const Move& move, double dt, integrate::VelocityCondition after) {
    energy_current_ = EnergyRequest::Skip;
    if (!constraints_) {
      for_each_particle(static_cast<int>(owned_count()), refreshing_pair_positions(move),
                        stream_.get());
      return;
    }
    for_each_particle(static_cast<int>(owned_count()),
                      refreshing_pair_positions(constraints::RememberingPositions<Move>{
                          move, pointers_of(device_.position, first()), positions_before_drift()}),
                      stream_.get());
    constraints_->after_drift(group_arrays(), dt, true,
                              after == integrate::VelocityCondition::Apply, pack_position(),
                              stream_.get());
  }

  /// Over bricks, where a barostat moves molecules by their centres: the device fields it reads
  /// made current for every particle on every rank, gathered from their owners (3 doubles per
  /// particle and field; CpuBackend::make_current), so that every rank computes every
  /// molecule's sums alike, in molecule order as one GPU does. Nothing on one GPU.
  void make_current(std::initializer_list<DeviceVec3Array*> fields) {
    if (!spatial_ || !partitioned_) return;  // before the first partition all ranks agree
    const auto stream = stream_.get();
    core::Vec3Array values;
    for (auto* field : fields) {
      const auto device = field->components();
      const auto host = values.components();
      for (std::size_t c = 0; c < 3; ++c) device[c]->copy_to_host(*host[c], stream);
      stream_.synchronize();
      domain_->gather(values);
      for (std::size_t c = 0; c < 3; ++c) device[c]->copy_from_host(*host[c], stream);
      stream_.synchronize();  // before `values` is refilled
    }
  }

  /// Where a drift keeps the owned particles' positions it starts from (RememberingPositions,
  /// indices from first()).
  core::Vec3Pointers positions_before_drift() {
    const core::Vec3Pointers all = constraints_->positions_before_drift(size());
    return {all.x + first(), all.y + first(), all.z + first()};
  }

  /// A spatial run's sum of fixed-point arrays (PME's mesh) over every rank.
  static forces::FixedRankSum fixed_rank_sum(const BackendSetup& setup) {
    return [comm = setup.communicator](std::uint64_t* data, std::size_t count) {
      comm->sum(data, count, parallel::Group::World);
    };
  }

  /// The particle arrays the constraint updates read and write.
  constraints::GroupArrays group_arrays() {
    return {pointers_of(device_.position),
            pointers_of(device_.velocity),
            pointers_of(device_.force),
            images(0),
            device_.type.data(),
            inverse_mass_.data(),
            box_.view<double>()};
  }
  /// Packing into the pair kernels' layout, indices counted from particle `from` on.
  PackPosition<PairT> pack_position(std::size_t from = 0) {
    return {device_.type.data() + from, packed_.data() + from};
  }

  /// Positions of every particle packed for the pair kernels (after an upload).
  void pack_all_positions() {
    if (size() == 0) return;
    // A drift by zero: wraps (counting images) and packs every particle, owned or not.
    const integrate::Drift wrap{pointers_of(device_.position), pointers_of(device_.velocity),
                                images(0), box_.view<double>(), 0.0};
    for_each_particle(static_cast<int>(size()),
                      RefreshPairPositions<integrate::Drift, PairT>{wrap, pack_position(0)},
                      stream_.get());
  }

  /// The owned particles' velocities and masses, for the kinetic sums.
  KineticInput kinetic_input() {
    return {mass_energy_.data(), device_.type.data() + first(),
            pointers_of(device_.velocity, first()), owned_count()};
  }

  /// Sorts every per-particle array along the Morton curve; lists built on the old order are
  /// invalidated.
  void reorder_along_curve() {
    const auto stream = stream_.get();
    const int n = static_cast<int>(size());
    const auto* order = order_.compute(n, device_.position.x.data(), device_.position.y.data(),
                                       device_.position.z.data(), box_, stream);
    device_.permute(order, stream);
    pack_all_positions();
    if (constraints_) constraints_->locate(device_.id.data(), size(), stream);
    for (auto& term : terms_) term->invalidate_lists();
    ++reorders_;
  }

  void upload_per_type_constants() {
    std::vector<double> inverse_mass, mass_energy;
    for (const auto& s : species_.all()) {
      inverse_mass.push_back(1.0 / (s.mass * units_.mvv_to_energy));
      mass_energy.push_back(s.mass * units_.mvv_to_energy);
    }
    inverse_mass_.copy_from_host(inverse_mass, stream_.get());
    mass_energy_.copy_from_host(mass_energy, stream_.get());
  }

  /// The first non-finite owned particle and quantity, as id x 4 + quantity (kQuantities),
  /// from a host copy of this rank's arrays (failure path only; no communication).
  /// The lowest id x core::kInstabilityKinds + kind over the owned particles, on the host (after
  /// the kernel flagged some particle).
  std::int64_t host_check(double max_speed_squared) {
    device_.download(host_, stream_.get());
    device_.id.copy_to_host(host_.id, stream_.get());
    std::vector<double> energy;
    device_.energy.copy_to_host(energy, stream_.get());
    stream_.synchronize();
    std::int64_t first_code = kNoneFound;
    for (std::size_t i = first(); i < first() + owned_count(); ++i) {
      const core::Instability what =
          core::instability_of(host_.position.get(i), host_.velocity.get(i), host_.force.get(i),
                               energy[i], max_speed_squared);
      if (what != core::Instability::None)
        first_code = std::min(first_code, std::int64_t{host_.id[i]} * core::kInstabilityKinds +
                                              static_cast<int>(what));
    }
    return first_code;
  }

  core::UnitSystem units_;
  core::SpeciesTable species_;
  core::Box box_;
  std::vector<double> cutoffs_;  ///< of the force terms, for rescale_box's check
  core::ParticleData host_;      ///< host copy in storage order, refreshed only for output
  core::ParticleData by_id_;     ///< the host copy in id order, once particles were reordered
  core::CudaStream stream_;
  std::string description_;
  int multiprocessors_ = 1;
  int resident_threads_ = 2048;
  std::int64_t reorder_every_ = 0;
  std::int64_t evaluations_ = 0;
  std::int64_t reorders_ = 0;
  /// What the energy and virial arrays hold for the current positions: nothing (Skip), their
  /// sums (Totals: each term's running sum stale), or each term's too (Compute).
  EnergyRequest energy_current_ = EnergyRequest::Skip;
  DeviceParticles device_;
  core::DeviceBuffer<neighbors::PairPosition<PairT>> packed_;
  core::DeviceBuffer<double> inverse_mass_, mass_energy_;
  DeviceReductions reductions_;
  neighbors::DeviceSpatialOrder order_;
  core::DeviceTopology topology_;                 ///< exclusions for the pair terms (uploaded once)
  std::optional<DeviceConstraints> constraints_;  ///< distances held, if any
  /// A spatial run's: per id, the first particle of its constraint group (its own where none).
  std::vector<std::int32_t> anchor_of_id_;
  /// A spatial run's bonded partners on the host (by id), for the check at each partition.
  std::optional<core::ExclusionLists> partners_;
  std::vector<std::unique_ptr<forces::CudaForceTerm<PairT>>> terms_;
  std::vector<forces::StagedForces> staged_;  ///< the terms' staged forces of a step (reused)
  /// The terms_ entry of each config force term (the two of a one-pass pair share one; a
  /// checkpoint keeps one neighbour state per config force term).
  forces::TermPlan plan_;
  std::size_t energy_parts_ = 0;  ///< the terms' parts: one energy sum (and column) each
  /// Which particles this rank owns and reads (the whole matrix on one GPU), and its exchanges.
  std::unique_ptr<parallel::Domain> domain_;
  parallel::CudaForceMatrixDomain* force_matrix_ = nullptr;  ///< domain_, if a force matrix
  parallel::CudaSpatialDomain* spatial_ = nullptr;           ///< domain_, if bricks
  bool partitioned_ = false;  ///< spatial_ has partitioned the particles as they are now
  DeviceBoxMoves box_moves_;  ///< a barostat's scaling and trial moves
  /// Rigid molecules' rotors by type (integrate::rotors_of; empty: none), and each molecule's
  /// kinetic energy of rotation for its sum.
  core::DeviceBuffer<integrate::RotorInertia<double>> rotors_;
  core::DeviceBuffer<double> rotational_energy_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(BackendSetup setup) {
  switch (setup.precision) {
    case core::Precision::Double:
      return std::make_unique<CudaBackend<core::Precision::Double>>(std::move(setup));
    case core::Precision::Mixed:
      return std::make_unique<CudaBackend<core::Precision::Mixed>>(std::move(setup));
    case core::Precision::Single:
      return std::make_unique<CudaBackend<core::Precision::Single>>(std::move(setup));
  }
  return nullptr;
}

}  // namespace novamd::backend
