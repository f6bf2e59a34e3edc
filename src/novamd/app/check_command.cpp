#include "novamd/app/check_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <variant>

#include "novamd/app/backend_setup.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/molecular_system.hpp"
#include "novamd/parallel/mpi_session.hpp"

namespace novamd::app {
namespace {

struct Forces {
  core::ParticleData particles;  ///< id order, forces included
  backend::Observables observables;
  std::string description;
};

/// `forces` with each PME term replaced by the exact Ewald sum at its alpha.
std::vector<forces::ForceSettings> exact_ewald_of(std::vector<forces::ForceSettings> forces) {
  bool found = false;
  for (auto& f : forces) {
    auto* coulomb = std::get_if<forces::CoulombSettings>(&f);
    if (!coulomb || coulomb->method != forces::CoulombMethod::Pme) continue;
    found = true;
    coulomb->method = forces::CoulombMethod::Ewald;
    coulomb->ewald.tolerance = 1e-12;  // alpha stays: the wave vectors follow from it
    coulomb->ewald.kmax.reset();
    coulomb->ewald.kmax_squared.reset();
    coulomb->ewald.kmax_per_axis = {0, 0, 0};
  }
  if (!found)
    throw core::InputError(
        "check --against ewald: the config has no coulomb term with method pme to compare");
  return forces;
}

/// "; " and each force term's description.
std::string terms_of(const io::Config& config) {
  std::string text;
  for (const auto& f : config.forces) text += "; " + forces::describe(f, config.units);
  if (config.rigid_sites)
    text += fmt::format("; rigid_sites (sites of rigid molecules, cutoff {} on the centres)",
                        *config.rigid_sites->cutoff);
  return text;
}

/// The reference: the same particles and box through another backend or other force settings.
Forces reference_forces(const Simulation& sim, const core::ParticleData& particles,
                        const std::string& against) {
  io::Config config = sim.config();
  std::string backend_name = sim.backend_name();
  if (against == "ewald") {
    config.forces = exact_ewald_of(config.forces);
  } else {
    backend_name = "cpu";
    config.precision = core::Precision::Double;
  }
  forces::resolve_kspace(config.forces, sim.box());
  auto molecular = config.system.topology ? io::molecular_system(config) : io::MolecularSystem{};
  auto b = backend::make_backend(
      backend_name, backend_setup_of(config, sim.box(), particles, std::move(molecular)));
  b->compute_forces(backend::EnergyRequest::Compute);
  return {b->particles_on_host(), b->observables(), b->description() + terms_of(config)};
}

struct Comparison {
  double rms_error = 0.0, rms_force = 0.0;
  std::size_t worst = 0;
  double worst_error = 0.0;
};

/// The per-particle vectors `subject` against `reference` (forces, or rigid molecules' torques).
Comparison compare(const core::Vec3Array& subject, const core::Vec3Array& reference) {
  Comparison c;
  double sum_error = 0.0, sum_force = 0.0;
  for (std::size_t i = 0; i < subject.size(); ++i) {
    const core::Vec3<double> d = subject.get(i) - reference.get(i);
    const double error2 = core::dot(d, d);
    sum_error += error2;
    sum_force += core::dot(reference.get(i), reference.get(i));
    if (std::sqrt(error2) > c.worst_error) {
      c.worst_error = std::sqrt(error2);
      c.worst = i;
    }
  }
  const double n = static_cast<double>(std::max<std::size_t>(subject.size(), 1));
  c.rms_error = std::sqrt(sum_error / n);
  c.rms_force = std::sqrt(sum_force / n);
  return c;
}

std::string resolve_against(const std::string& against, const io::Config& config) {
  if (against != "auto") return against;
  for (const auto& f : config.forces)
    if (const auto* c = std::get_if<forces::CoulombSettings>(&f);
        c && c->method == forces::CoulombMethod::Pme)
      return "ewald";
  return "cpu";
}

}  // namespace

int check_command(const CheckOptions& options, const parallel::MpiSession& session) {
  if (options.against != "auto" && options.against != "ewald" && options.against != "cpu")
    throw core::InputError(fmt::format(
        "--against: '{}' is not a reference; expected auto, ewald or cpu", options.against));
  const auto sim = Simulation::create(options.input, session);
  if (!sim) return core::kExitSuccess;
  const std::string against = resolve_against(options.against, sim->config());
  auto& subject_backend = sim->backend();
  subject_backend.compute_forces(backend::EnergyRequest::Compute);
  const auto subject_observables = subject_backend.observables();
  const core::ParticleData subject = subject_backend.particles_on_host();
  const std::string subject_description = subject_backend.description() + terms_of(sim->config());
  const Forces reference = reference_forces(*sim, subject, against);
  const Comparison c = compare(subject.force, reference.particles.force);
  const auto& units = sim->config().units;
  const std::string force_unit = units.energy + "/" + units.length;
  fmt::print("check: forces{} of {} particles against {}\n",
             subject.has(subject.torque) ? " and torques" : "", subject.size(),
             against == "ewald" ? "the exact Ewald sum" : "the CPU backend in double");
  fmt::print("  subject    {}\n  reference  {}\n", subject_description, reference.description);
  const double relative = c.rms_force > 0.0 ? c.rms_error / c.rms_force : 0.0;
  fmt::print("  RMS force error   {:.3e} {} (relative {:.3e} of the RMS force {:.6g})\n",
             c.rms_error, force_unit, relative, c.rms_force);
  if (subject.size() > 0) {
    const std::size_t w = c.worst;
    fmt::print("  worst particle    id {}: error {:.3e} {} on a force of {:.6g}\n", subject.id[w],
               c.worst_error, force_unit,
               std::sqrt(reference.particles.force.x[w] * reference.particles.force.x[w] +
                         reference.particles.force.y[w] * reference.particles.force.y[w] +
                         reference.particles.force.z[w] * reference.particles.force.z[w]));
  }
  double torque_relative = 0.0;
  if (subject.has(subject.torque) && reference.particles.has(reference.particles.torque)) {
    const Comparison t = compare(subject.torque, reference.particles.torque);
    torque_relative = t.rms_force > 0.0 ? t.rms_error / t.rms_force : 0.0;
    fmt::print("  RMS torque error  {:.3e} {} (relative {:.3e} of the RMS torque {:.6g})\n",
               t.rms_error, units.energy, torque_relative, t.rms_force);
    fmt::print("  worst molecule    id {}: error {:.3e} {} on a torque of {:.6g}\n",
               subject.id[t.worst], t.worst_error, units.energy,
               std::sqrt(core::dot(reference.particles.torque.get(t.worst),
                                   reference.particles.torque.get(t.worst))));
  }
  const double e_subject = subject_observables.potential_energy;
  const double e_reference = reference.observables.potential_energy;
  fmt::print("  potential energy  {:.10g} against {:.10g} {} (difference {:.3e})\n", e_subject,
             e_reference, units.energy, e_subject - e_reference);
  const double w_subject = subject_observables.virial.trace();
  const double w_reference = reference.observables.virial.trace();
  fmt::print("  virial (trace)    {:.10g} against {:.10g} {} (difference {:.3e})\n", w_subject,
             w_reference, units.energy, w_subject - w_reference);
  if (options.tolerance && !(relative <= *options.tolerance)) {
    fmt::print("check failed: the relative RMS force error {:.3e} exceeds --tolerance {:g}\n",
               relative, *options.tolerance);
    return core::kExitRunFailure;
  }
  if (options.tolerance && !(torque_relative <= *options.tolerance)) {
    fmt::print("check failed: the relative RMS torque error {:.3e} exceeds --tolerance {:g}\n",
               torque_relative, *options.tolerance);
    return core::kExitRunFailure;
  }
  return core::kExitSuccess;
}

}  // namespace novamd::app
