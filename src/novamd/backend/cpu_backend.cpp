#include "novamd/backend/cpu_backend.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <variant>

#include "novamd/backend/brick_groups.hpp"
#include "novamd/backend/for_each_particle.hpp"
#include "novamd/backend/molecular_terms.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/wording.hpp"
#include "novamd/forces/cpu_bonded_force.hpp"
#include "novamd/forces/cpu_rigid_molecules.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/forces/pair_sum_terms.hpp"
#include "novamd/integrate/particle_updates.hpp"
#include "novamd/neighbors/space_filling_curve.hpp"
#include "novamd/parallel/force_matrix_domain.hpp"
#include "novamd/parallel/spatial_domain.hpp"

namespace novamd::backend {
namespace {

/// [begin, end) as signed loop bounds.
std::pair<std::ptrdiff_t, std::ptrdiff_t> owned_bounds(parallel::IndexRange r) {
  return {static_cast<std::ptrdiff_t>(r.begin), static_cast<std::ptrdiff_t>(r.end)};
}

/// The sum of `values` over `ranges` (in order; entries past the array's end count nothing).
double sum_over(const std::vector<parallel::IndexRange>& ranges,
                const std::vector<double>& values) {
  double sum = 0.0;
  for (const auto& r : ranges)
    for (std::size_t i = r.begin; i < r.end && i < values.size(); ++i) sum += values[i];
  return sum;
}

/// A spatial decomposition where the setup names bricks over several ranks; else the force
/// matrix (every particle on one rank).
/// `n` particles (setup.particles is moved from by then).
std::unique_ptr<parallel::Domain> make_domain(const BackendSetup& setup, std::size_t n) {
  if (!setup.bricks || !setup.communicator || setup.communicator->size() == 1)
    return std::make_unique<parallel::ForceMatrixDomain>(setup.communicator, n);
  return std::make_unique<parallel::SpatialDomain>(
      setup.communicator, *setup.bricks,
      spatial_halo(setup.forces, setup.neighbors, setup.box,
                   setup.components.empty() ? nullptr : &setup.rigid_sites),
      n);
}

/// The error for a force term that a spatial decomposition cannot run.
[[noreturn]] void refuse_in_spatial(const forces::ForceSettings& settings) {
  throw core::InputError(
      "forces." + forces::name_of(settings) +
      ": runs in a spatial decomposition (parallel.decomposition: spatial) only with a finite "
      "cutoff over Verlet lists (neighbors.method: auto or neighbor_list); run it on one rank, "
      "or with parallel.decomposition: force_matrix");
}

}  // namespace

double spatial_halo(const std::vector<forces::ForceSettings>& forces,
                    const neighbors::NeighborSettings& neighbors, const core::Box& box,
                    const forces::RigidModelSettings* rigid) {
  std::vector<double> cutoffs;
  for (const auto& settings : forces) cutoffs.push_back(forces::cutoff_of(settings));
  if (rigid && rigid->cutoff) cutoffs.push_back(*rigid->cutoff);
  double halo = 0.0;
  for (const double cutoff : cutoffs)
    if (std::isfinite(cutoff))
      halo = std::max(halo, cutoff + neighbors.skin_for(cutoff, box.shortest_edge()));
  return halo;
}

CpuBackend::CpuBackend(BackendSetup setup)
    : units_(std::move(setup.units)),
      species_(std::move(setup.species)),
      box_(setup.box),
      particles_(std::move(setup.particles)),
      reorder_every_(setup.neighbors.reorder_every),
      domain_(make_domain(setup, particles_.size())),
      spatial_(dynamic_cast<parallel::SpatialDomain*>(domain_.get())) {
  if (!domain_->allows_reordering()) reorder_every_ = 0;  // e.g. blocks that are ranges of ids
  const std::optional<neighbors::PairBlock> block = domain_->pair_block();
  if (spatial_) {
    // Lists of the owned particles: the one traversal that restricts itself to them.
    if (setup.neighbors.method == neighbors::NeighborMethod::Auto)
      setup.neighbors.method = neighbors::NeighborMethod::NeighborList;
  }
  if (has_excluded_pairs(setup, domain_->decomposed() && !spatial_))
    exclusions_ = setup.topology.exclusions(core::kExcludedSeparations);
  // A spatial run checks at each partition that every bonded partner is a ghost.
  if (spatial_) partners_ = bonded_partners(setup.topology);
  forces::resolve_kspace(setup.forces, box_);  // Ewald's alpha and wave vectors for this box
  // Lennard-Jones and real-space Coulomb in one pass where they share a cutoff and lists.
  plan_ = forces::plan_terms(
      setup.forces,
      block ? std::nullopt : forces::lj_coulomb_pass_at(setup.forces, setup.neighbors, box_));
  const core::ExclusionLists* exclusions = exclusions_ ? &*exclusions_ : nullptr;
  for (std::size_t t = 0; t < setup.forces.size(); ++t) {
    const auto& settings = setup.forces[t];
    cutoffs_.push_back(forces::cutoff_of(settings));
    if (plan_.joins_previous(t)) continue;  // in the Lennard-Jones term's pass
    if (plan_.starts_pass(t)) {
      terms_.push_back(forces::make_cpu_lj_coulomb_force(
          std::get<forces::LennardJonesSettings>(settings),
          std::get<forces::CoulombSettings>(setup.forces[t + 1]), species_, units_, setup.precision,
          setup.neighbors, box_.shortest_edge(), exclusions));
      if (spatial_) restrict_to_bricks(*terms_.back(), setup.forces[t + 1]);
      continue;
    }
    terms_.push_back(forces::make_cpu_force_term(settings, species_, units_, setup.precision,
                                                 setup.neighbors, box_.shortest_edge(), block,
                                                 exclusions));
    if (spatial_) restrict_to_bricks(*terms_.back(), settings);
  }
  // Terms the constraints make constant are left out (forces/held_terms.hpp).
  const core::HeldDistances held = held_distances_for(setup);
  for (const auto& settings : setup.bonded) {
    terms_.push_back(forces::make_cpu_bonded_force(settings, setup.topology, &held));
    if (spatial_) terms_.back()->restrict_targets(0, particles_.size());  // a particle loop
  }
  for (const auto& s : species_.all()) {
    inverse_mass_.push_back(1.0 / (s.mass * units_.mvv_to_energy));
    mass_.push_back(s.mass);
  }
  if (!setup.components.empty()) add_rigid_molecules(setup);
  if (!setup.scaled_molecules.of_id.empty())
    molecules_ = integrate::MoleculeRows::of(setup.scaled_molecules);
  buffers_.reset(particles_.size());
  if (setup.constraint_plan.constraint_count() > 0) {
    if (domain_->decomposed() && !spatial_)
      throw core::InputError(
          "constraints: held distances run on one rank; this run has a force-matrix grid over "
          "several (run it on one rank, or without constraints)");
    constraints_.emplace(setup.constraint_plan, setup.constraint_tolerance);
    constraints_->locate(particles_);
    if (spatial_) anchor_of_id_ = constraints_->anchors(particles_.size());
  }
}

/// A spatial run's term: restricted to the owned particles (from the first partition on),
/// its global parts summed over the ranks; refused where it cannot be.
void CpuBackend::restrict_to_bricks(forces::CpuForceTerm& term,
                                    const forces::ForceSettings& settings) {
  if (!term.restrict_targets(0, particles_.size())) refuse_in_spatial(settings);
  term.share_over_ranks(
      [this](double* data, std::size_t count) { domain_->sum_over_ranks(data, count); });
}

void CpuBackend::add_rigid_molecules(const BackendSetup& setup) {
  prepare_rigid_fields(particles_, domain_->decomposed() && !spatial_, "rank");
  forces::RigidModel model = forces::make_rigid_model(setup.components, setup.rigid_sites);
  const double cutoff = *model.cutoff;
  cutoffs_.push_back(cutoff);
  terms_.push_back(std::make_unique<forces::CpuRigidMolecules>(
      std::move(model), setup.neighbors.skin_for(cutoff, box_.shortest_edge()),
      forces::resolved_kspace(setup.rigid_sites, box_)));
  if (spatial_) {  // the owned molecules' forces and torques; their charges' mesh shared
    if (!terms_.back()->restrict_targets(0, particles_.size()))
      throw core::InputError(
          "forces.rigid_sites: its long-range sum does not run in a spatial decomposition "
          "(parallel.decomposition: spatial); run it on one rank");
    terms_.back()->share_over_ranks(
        [this](double* data, std::size_t count) { domain_->sum_over_ranks(data, count); });
  }
  rotors_ = integrate::rotors_of(setup.components, units_.mvv_to_energy);
  buffers_.torques = true;
}

void CpuBackend::constrain_initial_state() {
  if (constraints_) constraints_->constrain_state(particles_, box_.view<double>(), inverse_mass_);
}

std::string CpuBackend::description() const {
  return fmt::format("cpu (OpenMP, {})", core::counted(omp_get_max_threads(), "thread"));
}

void CpuBackend::compute_forces(EnergyRequest energy) {
  // Totals too are computed term by term here: the thermo's columns come at no extra cost.
  const bool with_energy = energy != EnergyRequest::Skip;
  // A trial move's evaluation (kept_) neither reorders nor counts toward the reorders' phase.
  if (spatial_) {
    ++evaluations_;
    refresh_bricks();
  } else {
    if (reorder_every_ > 0 && !kept_ && ++evaluations_ % reorder_every_ == 0) reorder_along_curve();
    domain_->refresh_ghosts(particles_.position);
  }
  buffers_.reset(particles_.size(), with_energy);
  cumulative_energy_.clear();
  for (const auto& term : terms_) {
    if (!with_energy) {
      term->add_to(particles_, box_, buffers_, false);
      continue;
    }
    for (int part = 0; part < term->parts(); ++part) {  // each part's energy: its thermo column
      term->add_part_to(part, particles_, box_, buffers_, true);
      cumulative_energy_.push_back(sum_over(domain_->energy_ranges(), buffers_.energy));
    }
  }
  energy_current_ = with_energy;
  domain_->complete_forces(buffers_.force);
  std::swap(particles_.force, buffers_.force);  // buffers_ keeps the old array for reuse
  if (buffers_.torques) std::swap(particles_.torque, buffers_.torque);
}

/// Every per-particle array sorted along the Morton curve; lists built on the old order are
/// invalidated. Only the order of summation changes.
void CpuBackend::reorder_along_curve() {
  const auto order = neighbors::morton_order(particles_, box_);
  core::permute(particles_, order);
  if (!heat_.empty()) heat_ = core::gathered(heat_, order);
  for (const auto& term : terms_) term->invalidate_lists();
  if (constraints_) constraints_->locate(particles_);
  ++reorders_;
}

/// The ghosts refreshed; where some rank's lists are due (or before the first evaluation), the
/// particles partitioned over the bricks anew instead.
void CpuBackend::refresh_bricks() {
  if (partitioned_) {
    if (rigid()) {  // the ghosts' sites are placed from their orientations too
      auto& q = particles_.orientation;
      spatial_->refresh_ghost_columns({&particles_.position.x, &particles_.position.y,
                                       &particles_.position.z, &q.w, &q.x, &q.y, &q.z});
    } else {
      domain_->refresh_ghosts(particles_.position);
    }
    bool due = false;
    for (const auto& term : terms_) due = due || term->lists_due(particles_, box_);
    if (domain_->min_over_ranks(due ? 0 : 1) == 1) return;  // no rank's lists are due
    domain_->gather_evolving(particles_);
    if (!heat_.empty()) domain_->gather(heat_);
    if (kept_) gather_kept_configuration();  // a trial move's evaluation: it may be undone
  }
  // Every rank now holds every particle as every other does (at the first evaluation: as set up
  // or restored), and orders them alike: by brick, along the Morton curve within each.
  const auto curve = neighbors::morton_order(particles_, box_);
  partition_bricks(particles_.position, std::vector<std::size_t>(curve.begin(), curve.end()));
}

/// The spatial domain's partition of `position` (every entry current) with `preferred` order
/// within each brick, applied to every per-particle array; the terms' lists restricted to the
/// new owned range and built afresh at their next evaluation.
std::vector<std::size_t> CpuBackend::partition_bricks(const core::Vec3Array& position,
                                                      const std::vector<std::size_t>& preferred) {
  // Each constraint group on one rank: the one whose brick holds its first particle.
  std::vector<std::size_t> anchor;
  double anchor_reach = 0.0;
  if (!anchor_of_id_.empty())
    std::tie(anchor, anchor_reach) =
        constraint_anchors(particles_.id, anchor_of_id_, position, box_);
  const auto order = spatial_->partition(position, box_, preferred, anchor, anchor_reach);
  core::permute(particles_, order);
  if (!heat_.empty()) heat_ = core::gathered(heat_, order);
  if (kept_) {  // a trial move's configuration follows the new order
    for (auto* a : {&kept_->position, &kept_->force, &kept_->torque})
      for (auto* c : {&a->x, &a->y, &a->z})
        if (!c->empty()) *c = core::gathered(*c, order);
    for (auto* c : {&kept_->image.x, &kept_->image.y, &kept_->image.z})
      if (!c->empty()) *c = core::gathered(*c, order);
  }
  const parallel::IndexRange own = owned();
  for (const auto& term : terms_) {
    term->invalidate_lists();
    term->restrict_targets(own.begin, own.end);
  }
  if (constraints_) {
    constraints_->locate(particles_);
    constraints_->keep_to(own.begin, own.end);
  }
  if (partners_) check_partners_within_halo(particles_, *partners_, own, box_, spatial_->halo());
  partitioned_ = true;
  ++reorders_;
  return order;
}

/// The kept configuration of a trial move (keep_configuration) current on every rank, before a
/// partition moves its entries to other owners: restored after a rejected trial, each particle
/// then finds its own force, torque and image counts wherever it is owned.
void CpuBackend::gather_kept_configuration() {
  domain_->gather(kept_->position);
  domain_->gather(kept_->force);
  if (!kept_->torque.x.empty()) domain_->gather(kept_->torque);
  for (auto* c : {&kept_->image.x, &kept_->image.y, &kept_->image.z}) {
    if (c->empty()) continue;
    std::vector<double> values(c->begin(), c->end());  // exact in doubles
    domain_->gather(values);
    for (std::size_t i = 0; i < c->size(); ++i) (*c)[i] = static_cast<std::int32_t>(values[i]);
  }
}

ParticleArrays CpuBackend::particle_arrays() {
  if (domain_->decomposed()) return Backend::particle_arrays();  // gathered, id order
  return {core::view_of(particles_), nullptr};
}

const core::ParticleData& CpuBackend::particles_on_host() {
  if (domain_->decomposed()) domain_->gather_evolving(particles_);
  if (reorders_ == 0) return particles_;
  by_id_ = particles_;
  core::permute(by_id_, core::id_order(particles_));
  return by_id_;
}

void CpuBackend::kick(double dt) {
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(begin, end, kick_update(dt));
  kick_rotation(dt);
  if (constraints_)
    constraints_->constrain_velocities(particles_, box_.view<double>(), inverse_mass_);
}

void CpuBackend::drift(double dt, integrate::VelocityCondition after) {
  energy_current_ = false;
  const auto [begin, end] = owned_bounds(owned());
  if (!constraints_) {
    for_each_particle(begin, end, drift_update(dt));
    rotate(dt);
    return;
  }
  // DESIGN principle 11: positions, velocities by the same moves, velocities.
  for_each_particle(begin, end,
                    constraints::RememberingPositions<integrate::Drift>{
                        drift_update(dt), integrate::pointers_of(particles_.position),
                        constraints_->positions_before_drift(size())});
  constraints_->after_drift(particles_, dt, box_.view<double>(), inverse_mass_,
                            after == integrate::VelocityCondition::Apply);
}

void CpuBackend::kick_drift(double kick_dt, double drift_dt, integrate::VelocityCondition after) {
  if (constraints_) {  // the drift's constraints make the kick's velocity condition moot
    const auto [begin, end] = owned_bounds(owned());
    for_each_particle(begin, end, kick_update(kick_dt));
    drift(drift_dt, after);
    return;
  }
  energy_current_ = false;
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(begin, end, integrate::KickDrift{kick_update(kick_dt), drift_update(drift_dt)});
  kick_rotation(kick_dt);
  rotate(drift_dt);
}

void CpuBackend::kick_rotation(double dt) {
  if (!rigid()) return;
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(
      begin, end,
      integrate::KickAngularMomentum{integrate::pointers_of(particles_.orientation),
                                     integrate::pointers_of(particles_.angular_momentum),
                                     integrate::pointers_of(particles_.torque),
                                     particles_.type.data(), rotors_.data(), dt});
}

void CpuBackend::rotate(double dt) {
  if (!rigid()) return;
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(begin, end,
                    integrate::RotateBodies{integrate::pointers_of(particles_.orientation),
                                            integrate::pointers_of(particles_.angular_momentum),
                                            particles_.type.data(), rotors_.data(), dt});
}

void CpuBackend::thermalize_rotation(const integrate::VelocityNoise& noise) {
  if (!rigid()) return;
  heat_.resize(size(), 0.0);
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(
      begin, end,
      integrate::ThermalizeRotation{noise, integrate::pointers_of(particles_.angular_momentum),
                                    particles_.type.data(), particles_.id.data(), rotors_.data(),
                                    heat_.data()});
}

double CpuBackend::rotational_kinetic_energy() const {
  if (!rigid()) return 0.0;
  double kinetic = 0.0;
  for (std::size_t i = owned().begin; i < owned().end; ++i)
    kinetic += integrate::kinetic_energy_of_rotation(particles_.angular_momentum.get(i),
                                                     rotors_[particles_.type[i]]);
  domain_->sum_over_owners(&kinetic, 1);
  return kinetic;
}

integrate::Kick CpuBackend::kick_update(double dt) {
  return {integrate::pointers_of(particles_.velocity), integrate::pointers_of(particles_.force),
          particles_.type.data(), inverse_mass_.data(), dt};
}

integrate::Drift CpuBackend::drift_update(double dt) {
  return {integrate::pointers_of(particles_.position), integrate::pointers_of(particles_.velocity),
          integrate::image_pointers_of(particles_.image), box_.view<double>(), dt};
}

void CpuBackend::rescale_box(const core::Box& box) {
  forces::check_cutoffs_fit(cutoffs_, box);
  if (molecules_) {
    move_molecule_centres(box);
  } else {
    const auto [begin, end] = owned_bounds({0, particles_.size()});  // every rank scales all
    for_each_particle(begin, end,
                      integrate::ScalePositions{integrate::pointers_of(particles_.position),
                                                integrate::edge_ratios(box_, box)});
  }
  box_ = box;
  energy_current_ = false;
  for (const auto& term : terms_) term->follow_box(box_);
}

void CpuBackend::move_molecule_centres(const core::Box& to) {
  const auto n = static_cast<std::ptrdiff_t>(particles_.size());
  make_current({&particles_.position});  // a molecule's atoms may belong to several ranks
  unwrapping_.resize(particles_.size());
  locate_molecule_members();
  molecule_centre_.resize(molecules_->count());
  for_each_particle(
      0, static_cast<std::ptrdiff_t>(molecules_->count()),
      integrate::MoleculeCentre{molecules_->offset.data(), molecules_->member_id.data(),
                                slot_of_id_.data(), particles_.type.data(), mass_.data(),
                                integrate::pointers_of(particles_.position), box_.view<double>(),
                                molecule_centre_.data(), unwrapping_.data()});
  for_each_particle(
      0, n,
      integrate::MoveWithMolecule{particles_.id.data(), molecules_->molecule_of_id.data(),
                                  molecule_centre_.data(), unwrapping_.data(),
                                  integrate::pointers_of(particles_.position),
                                  integrate::image_pointers_of(particles_.image), to.view<double>(),
                                  integrate::edge_ratios(box_, to)});
}

void CpuBackend::keep_configuration() {
  kept_ = KeptConfiguration{box_, particles_.position, particles_.force, particles_.torque,
                            particles_.image};
}

void CpuBackend::restore_configuration() {
  if (!kept_) throw std::logic_error("restore_configuration: no configuration kept");
  box_ = kept_->box;
  particles_.position = std::move(kept_->position);
  particles_.force = std::move(kept_->force);
  particles_.torque = std::move(kept_->torque);
  particles_.image = std::move(kept_->image);
  kept_.reset();
  energy_current_ = false;
  // The lists follow the box back (those built at the trial's positions too: the kept
  // positions are theirs scaled back).
  for (const auto& term : terms_) term->follow_box(box_);
}

std::int64_t CpuBackend::neighbor_list_builds() const {
  std::int64_t builds = 0;
  for (const auto& term : terms_) builds += term->list_builds();
  return builds;
}

void CpuBackend::scale_velocities(double factor) {
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(
      begin, end, integrate::ScaleVelocities{integrate::pointers_of(particles_.velocity), factor});
  if (rigid())
    for_each_particle(begin, end,
                      integrate::ScaleAngularMomenta{
                          integrate::pointers_of(particles_.angular_momentum), factor});
}

void CpuBackend::scale_velocities_by_axis(core::Vec3<double> factor) {
  if (molecules_) {
    make_current({&particles_.velocity});
    locate_molecule_members();
    molecule_velocity_.resize(molecules_->count());
    for_each_particle(0, static_cast<std::ptrdiff_t>(molecules_->count()),
                      integrate::MoleculeVelocity{
                          molecules_->offset.data(), molecules_->member_id.data(),
                          slot_of_id_.data(), particles_.type.data(), mass_.data(),
                          integrate::pointers_of(particles_.velocity), molecule_velocity_.data()});
    for_each_particle(
        0, static_cast<std::ptrdiff_t>(particles_.size()),
        integrate::ScaleWithMoleculeVelocity{
            particles_.id.data(), molecules_->molecule_of_id.data(), molecule_velocity_.data(),
            integrate::pointers_of(particles_.velocity), factor});
    return;
  }
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(
      begin, end,
      integrate::ScaleVelocityAxes{integrate::pointers_of(particles_.velocity), factor});
}

void CpuBackend::thermalize(const integrate::VelocityNoise& noise) {
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(begin, end, thermalize_update(noise));
  thermalize_rotation(noise);
  // The velocity condition is part of the O step: its kinetic-energy change counts as heat.
  if (constraints_)
    constraints_->constrain_velocities(particles_, box_.view<double>(), inverse_mass_,
                                       heat_.data());
}

void CpuBackend::thermalize_drift(const integrate::VelocityNoise& noise, double drift_dt,
                                  integrate::VelocityCondition after) {
  if (constraints_) {  // each stage constrained in turn
    thermalize(noise);
    drift(drift_dt, after);
    return;
  }
  energy_current_ = false;
  const auto [begin, end] = owned_bounds(owned());
  for_each_particle(begin, end,
                    integrate::ThermalizeDrift{thermalize_update(noise), drift_update(drift_dt)});
  thermalize_rotation(noise);
  rotate(drift_dt);
}

void CpuBackend::drift_thermalize_drift(double first_dt, const integrate::VelocityNoise& noise,
                                        double second_dt, integrate::VelocityCondition after) {
  if (constraints_ && constraints_->has_coupled_sets()) {  // each stage constrained in turn
    integrate::StepOperations::drift_thermalize_drift(first_dt, noise, second_dt, after);
    return;
  }
  energy_current_ = false;
  const auto [begin, end] = owned_bounds(owned());
  const integrate::DriftThermalizeDrift update{drift_update(first_dt), thermalize_update(noise),
                                               drift_update(second_dt)};
  if (!constraints_) {
    for_each_particle(begin, end, update);
    rotate(first_dt);
    thermalize_rotation(noise);
    rotate(second_dt);
    return;
  }
  // The positions constrained once, from where the first drift began (ThermostatInDrift).
  const double dt = first_dt + second_dt;
  for_each_particle(begin, end,
                    constraints::RememberingPositions<integrate::DriftThermalizeDrift>{
                        update, integrate::pointers_of(particles_.position),
                        constraints_->positions_before_drift(size())});
  constraints_->after_drift_with_thermostat(particles_, dt, box_.view<double>(), inverse_mass_,
                                            after == integrate::VelocityCondition::Apply,
                                            {second_dt / dt, heat_.data()});
}

integrate::Thermalize CpuBackend::thermalize_update(const integrate::VelocityNoise& noise) {
  heat_.resize(size(), 0.0);
  return {noise,
          inverse_mass_.data(),
          particles_.type.data(),
          particles_.id.data(),
          integrate::pointers_of(particles_.velocity),
          heat_.data()};
}

double CpuBackend::langevin_heat() {
  double heat = sum_over({owned()}, heat_);
  domain_->sum_over_owners(&heat, 1);
  return heat;
}

double CpuBackend::kinetic_energy() {
  double twice_kinetic = 0.0;
  const auto& v = particles_.velocity;
  for (std::size_t i = owned().begin; i < owned().end; ++i) {
    const double m = species_[particles_.type[i]].mass;
    twice_kinetic += m * core::dot(v.get(i), v.get(i));
  }
  domain_->sum_over_owners(&twice_kinetic, 1);
  return 0.5 * twice_kinetic * units_.mvv_to_energy + rotational_kinetic_energy();
}

Observables CpuBackend::observables() {
  return observed(/*constraint_share=*/true);
}

Observables CpuBackend::barostat_totals() {
  if (!molecules_) return observables();
  Observables o = observed(/*constraint_share=*/false);  // their molecular virial is zero
  const auto parts = molecule_sums();
  for (int k = 0; k < core::kTensorComponents; ++k) {
    o.kinetic.c[k] = 0.5 * parts.twice_kinetic.v[1 + k];
    o.virial.c[k] -= parts.internal_virial.v[1 + k];
  }
  return o;
}

core::SymmetricTensor<double> CpuBackend::moved_kinetic_tensor() {
  if (!molecules_) return kinetic_tensor();
  const auto parts = molecule_sums();
  core::SymmetricTensor<double> t;
  for (int k = 0; k < core::kTensorComponents; ++k) t.c[k] = 0.5 * parts.twice_kinetic.v[1 + k];
  return t;
}

MoleculePressureShares::Parts CpuBackend::molecule_sums() {
  make_current({&particles_.position, &particles_.velocity, &particles_.force});
  locate_molecule_members();
  const MoleculePressureShares shares{molecules_->offset.data(),
                                      molecules_->member_id.data(),
                                      slot_of_id_.data(),
                                      particles_.type.data(),
                                      mass_.data(),
                                      units_.mvv_to_energy,
                                      integrate::pointers_of(particles_.position),
                                      integrate::pointers_of(particles_.velocity),
                                      integrate::pointers_of(particles_.force),
                                      box_.view<double>()};
  // Each molecule's shares, then their sums in molecule order (the same for any thread count).
  std::vector<MoleculePressureShares::Parts> each(molecules_->count());
  for_each_particle(0, static_cast<std::ptrdiff_t>(each.size()),
                    [&](int m) { each[static_cast<std::size_t>(m)] = shares.parts(m); });
  MoleculePressureShares::Parts sum{};
  for (const auto& share : each) sum = AddMoleculePressureParts{}(sum, share);
  return sum;
}

/// In a decomposed run, `arrays` made current on every rank (each rank's owned entries to
/// every other), so that every rank computes the molecules' sums and moves alike, from every
/// atom, in the order of one rank: a molecule's atoms may belong to several ranks. Costs a
/// gather of 3 doubles per particle and array (the barostat's moves and pressure only).
void CpuBackend::make_current(std::initializer_list<core::Vec3Array*> arrays) {
  if (!domain_->decomposed()) return;
  for (auto* a : arrays) domain_->gather(*a);
}

void CpuBackend::locate_molecule_members() {
  slot_of_id_.resize(particles_.size());
  for_each_particle(0, static_cast<std::ptrdiff_t>(particles_.size()),
                    integrate::SlotsOfIds{particles_.id.data(), slot_of_id_.data()});
}

Observables CpuBackend::observed(bool constraint_share) {
  if (!energy_current_) compute_forces(EnergyRequest::Compute);
  Observables o;
  o.kinetic_energy = kinetic_energy();
  o.rotational_kinetic_energy = rotational_kinetic_energy();
  // Each rank's energy and virial shares: summed over every rank, each pair counts once.
  const auto ranges = domain_->energy_ranges();
  std::vector<double> shares(1 + core::kTensorComponents);
  shares[0] = sum_over(ranges, buffers_.energy);
  for (int k = 0; k < core::kTensorComponents; ++k)
    shares[1 + k] = sum_over(ranges, buffers_.virial[k]);
  shares.insert(shares.end(), cumulative_energy_.begin(), cumulative_energy_.end());
  domain_->sum_over_ranks(shares.data(), shares.size());
  o.potential_energy = shares[0];
  for (int k = 0; k < core::kTensorComponents; ++k) o.virial.c[k] = shares[1 + k];
  // The constraint forces at this instant (host_constraints.hpp).
  if (constraints_ && constraint_share) {
    auto held = constraints_->virial(particles_, box_.view<double>(), inverse_mass_);
    domain_->sum_over_ranks(held.c, core::kTensorComponents);  // a spatial run's groups
    for (int k = 0; k < core::kTensorComponents; ++k) o.virial.c[k] += held.c[k];
  }
  o.term_energy = term_energies({shares.begin() + 1 + core::kTensorComponents, shares.end()});
  o.kinetic = kinetic_tensor();
  return o;
}

core::SymmetricTensor<double> CpuBackend::kinetic_tensor() const {
  core::SymmetricTensor<double> twice;
  const auto& v = particles_.velocity;
  for (std::size_t i = owned().begin; i < owned().end; ++i) {
    const double m = species_[particles_.type[i]].mass;
    const auto vi = v.get(i);
    twice.add_outer(m, vi.x, vi.y, vi.z);
  }
  domain_->sum_over_owners(twice.c, core::kTensorComponents);
  twice *= 0.5 * units_.mvv_to_energy;
  return twice;
}

BackendState CpuBackend::save_state() {
  BackendState state;
  if (domain_->decomposed()) particles_on_host();  // gathers every rank's particles
  state.particles = particles_;                    // storage order (id order when decomposed)
  if (!heat_.empty()) domain_->gather(heat_);
  state.thermostat_heat = heat_;
  state.force_evaluations = evaluations_;
  state.reorders = reorders_;
  for (const std::size_t t : plan_.term_of) state.terms.push_back(terms_[t]->neighbor_state());
  if (rigid()) state.terms.push_back(terms_.back()->neighbor_state());  // after the config's terms
  return state;
}

void CpuBackend::restore_state(const BackendState& state) {
  particles_ = state.particles;
  heat_ = state.thermostat_heat;
  if (spatial_) {
    restore_bricks(state);
    return;
  }
  if (!domain_->allows_reordering() && state.reorders > 0) {  // from a single-rank run: id order
    const auto order = core::id_order(particles_);
    core::permute(particles_, order);
    if (!heat_.empty()) heat_ = core::gathered(heat_, order);
  }
  evaluations_ = state.force_evaluations;
  reorders_ = domain_->allows_reordering() ? state.reorders : 0;
  for (std::size_t f = 0; f < plan_.term_of.size() && f < state.terms.size(); ++f)
    if (plan_.restores(f))
      terms_[plan_.term_of[f]]->restore_neighbors(state.terms[f], particles_, box_);
  if (rigid() && state.terms.size() > plan_.term_of.size())
    terms_.back()->restore_neighbors(state.terms[plan_.term_of.size()], particles_, box_);
  buffers_.reset(particles_.size());
  energy_current_ = false;
  if (constraints_) constraints_->locate(particles_);
}

/// A spatial run continues from `state` (particles_ and heat_ set from it, storage order as
/// saved): partitioned by the positions at the saved lists' build, the saved order kept within
/// each brick, and the lists built again from those positions, as the uninterrupted run has
/// them. The same rank grid reproduces the saved order, so the run continues bit for bit;
/// another grid gets its own partition of the same positions. Without saved lists, the first
/// evaluation partitions.
void CpuBackend::restore_bricks(const BackendState& state) {
  evaluations_ = state.force_evaluations;
  reorders_ = state.reorders;
  buffers_.reset(particles_.size());
  energy_current_ = false;
  partitioned_ = false;
  const bool lists_saved = !state.terms.empty() &&
                           state.terms.front().built_at.size() == particles_.size() &&
                           state.terms.front().built_box.volume() > 0.0;
  if (!lists_saved) {  // every group until the first partition, found in the saved order
    if (constraints_) {
      constraints_->locate(particles_);
      constraints_->keep_to(0, particles_.size());
    }
    return;
  }
  std::vector<std::size_t> identity(particles_.size());
  std::iota(identity.begin(), identity.end(), std::size_t{0});
  const core::Box box_now = box_;
  box_ = state.terms.front().built_box;  // the partition's box
  const auto order = partition_bricks(state.terms.front().built_at, identity);
  box_ = box_now;
  reorders_ = state.reorders + (state.reorders == 0 ? 1 : 0);  // storage order is not id order
  for (std::size_t f = 0; f < plan_.term_of.size() && f < state.terms.size(); ++f) {
    if (plan_.restores(f))
      terms_[plan_.term_of[f]]->restore_neighbors(neighbors::reordered(state.terms[f], order),
                                                  particles_, box_);
  }
  if (rigid() && state.terms.size() > plan_.term_of.size())  // after the config's terms
    terms_.back()->restore_neighbors(neighbors::reordered(state.terms[plan_.term_of.size()], order),
                                     particles_, box_);
}

namespace {

/// No particle found: larger than any id x core::kInstabilityKinds + kind.
constexpr std::int64_t kNoneFound = INT64_MAX;

}  // namespace

std::optional<Unstable> CpuBackend::find_unstable(double max_speed) {
  const double max_speed_squared = max_speed * max_speed;
  std::int64_t first = kNoneFound;  // id x core::kInstabilityKinds + kind
  for (std::size_t i = owned().begin; i < owned().end; ++i) {
    const core::Instability what = core::instability_of(
        particles_.position.get(i), particles_.velocity.get(i), particles_.force.get(i),
        energy_current_ ? buffers_.energy[i] : 0.0, max_speed_squared);
    if (what != core::Instability::None)
      first = std::min(
          first, std::int64_t{particles_.id[i]} * core::kInstabilityKinds + static_cast<int>(what));
  }
  first = domain_->min_over_ranks(first);  // every rank agrees
  if (first == kNoneFound) return std::nullopt;
  return Unstable{static_cast<std::int32_t>(first / core::kInstabilityKinds),
                  static_cast<core::Instability>(first % core::kInstabilityKinds)};
}

}  // namespace novamd::backend
