#include "novamd/backend/cpu_backend.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <cmath>
#include <cstddef>
#include <utility>

#include "novamd/integrate/velocity_verlet.hpp"
#include "novamd/neighbors/space_filling_curve.hpp"

namespace novamd::backend {
namespace {

/// Below this count a per-particle loop is faster on one thread than the cost of a parallel
/// region (results are the same either way: each particle is updated on its own).
constexpr std::ptrdiff_t kMinParallelParticles = 8192;

}  // namespace

CpuBackend::CpuBackend(BackendSetup setup)
    : units_(std::move(setup.units)),
      species_(std::move(setup.species)),
      box_(setup.box),
      particles_(std::move(setup.particles)),
      reorder_every_(setup.neighbors.reorder_every) {
  for (const auto& settings : setup.forces) {
    terms_.push_back(forces::make_cpu_force_term(settings, species_, units_, setup.precision,
                                                 setup.neighbors, box_.shortest_edge()));
  }
  for (const auto& s : species_.all())
    inverse_mass_.push_back(1.0 / (s.mass * units_.mvv_to_energy));
  buffers_.reset(particles_.size());
}

std::string CpuBackend::description() const {
  return fmt::format("cpu (OpenMP, {} threads)", omp_get_max_threads());
}

void CpuBackend::compute_forces(EnergyRequest) {  // the oracle always computes everything
  if (reorder_every_ > 0 && ++evaluations_ % reorder_every_ == 0) reorder_along_curve();
  buffers_.reset(particles_.size());
  for (const auto& term : terms_) term->add_to(particles_, box_, buffers_);
  std::swap(particles_.force, buffers_.force);  // buffers_ keeps the old array for reuse
}

/// Every per-particle array sorted along the Morton curve; lists built on the old order are
/// invalidated. Only the order of summation changes.
void CpuBackend::reorder_along_curve() {
  const auto order = neighbors::morton_order(particles_, box_);
  core::permute(particles_, order);
  if (!heat_.empty()) heat_ = core::gathered(heat_, order);
  for (const auto& term : terms_) term->invalidate_lists();
  ++reorders_;
}

const core::ParticleData& CpuBackend::particles_on_host() {
  if (reorders_ == 0) return particles_;
  by_id_ = particles_;
  core::permute(by_id_, core::id_order(particles_));
  return by_id_;
}

void CpuBackend::kick(double dt) {
  auto& v = particles_.velocity;
  const auto& f = particles_.force;
  const auto n = static_cast<std::ptrdiff_t>(size());
#pragma omp parallel for schedule(static) if (n >= kMinParallelParticles)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double dt_over_mass = dt * inverse_mass_[particles_.type[i]];
    v.set(i, integrate::kicked(v.get(i), f.get(i), dt_over_mass));
  }
}

void CpuBackend::drift(double dt) {
  auto& x = particles_.position;
  const auto& v = particles_.velocity;
  const auto box = box_.view<double>();
  const auto n = static_cast<std::ptrdiff_t>(size());
#pragma omp parallel for schedule(static) if (n >= kMinParallelParticles)
  for (std::ptrdiff_t i = 0; i < n; ++i) x.set(i, integrate::drifted(x.get(i), v.get(i), dt, box));
}

std::int64_t CpuBackend::neighbor_list_builds() const {
  std::int64_t builds = 0;
  for (const auto& term : terms_) builds += term->list_builds();
  return builds;
}

void CpuBackend::scale_velocities(double factor) {
  auto& v = particles_.velocity;
  const auto n = static_cast<std::ptrdiff_t>(size());
#pragma omp parallel for schedule(static) if (n >= kMinParallelParticles)
  for (std::ptrdiff_t i = 0; i < n; ++i) v.set(i, factor * v.get(i));
}

void CpuBackend::thermalize(const integrate::VelocityNoise& noise) {
  heat_.resize(size(), 0.0);
  auto& v = particles_.velocity;
  const auto n = static_cast<std::ptrdiff_t>(size());
#pragma omp parallel for schedule(static) if (n >= kMinParallelParticles)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double inverse_mass = inverse_mass_[particles_.type[i]];
    const auto before = v.get(i);
    const auto after = integrate::thermalized(before, particles_.id[i], inverse_mass, noise);
    v.set(i, after);
    heat_[i] += 0.5 * (core::dot(after, after) - core::dot(before, before)) / inverse_mass;
  }
}

double CpuBackend::langevin_heat() {
  double sum = 0.0;
  for (double q : heat_) sum += q;
  return sum;
}

double CpuBackend::kinetic_energy() {
  double twice_kinetic = 0.0;
  const auto& v = particles_.velocity;
  for (std::size_t i = 0; i < size(); ++i) {
    const double m = species_[particles_.type[i]].mass;
    twice_kinetic += m * core::dot(v.get(i), v.get(i));
  }
  return 0.5 * twice_kinetic * units_.mvv_to_energy;
}

Observables CpuBackend::observables() {
  return {kinetic_energy(), buffers_.total_energy(), buffers_.total_virial()};
}

BackendState CpuBackend::save_state() {
  BackendState state;
  state.particles = particles_;
  state.thermostat_heat = heat_;
  state.force_evaluations = evaluations_;
  state.reorders = reorders_;
  for (const auto& term : terms_) state.terms.push_back(term->neighbor_state());
  return state;
}

void CpuBackend::restore_state(const BackendState& state) {
  particles_ = state.particles;
  heat_ = state.thermostat_heat;
  evaluations_ = state.force_evaluations;
  reorders_ = state.reorders;
  for (std::size_t t = 0; t < terms_.size() && t < state.terms.size(); ++t)
    terms_[t]->restore_neighbors(state.terms[t], particles_, box_);
  buffers_.reset(particles_.size());
}

std::optional<NonFinite> CpuBackend::find_non_finite() {
  const auto finite = [](const core::Vec3<double>& a) {
    return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
  };
  std::optional<NonFinite> first;
  for (std::size_t i = 0; i < size(); ++i) {
    const char* what = !finite(particles_.position.get(i))   ? "position"
                       : !finite(particles_.velocity.get(i)) ? "velocity"
                       : !finite(particles_.force.get(i))    ? "force"
                       : !std::isfinite(buffers_.energy[i])  ? "energy"
                                                             : nullptr;
    if (what && (!first || particles_.id[i] < first->particle_id)) {
      first = NonFinite{particles_.id[i], what};
    }
  }
  return first;
}

}  // namespace novamd::backend
