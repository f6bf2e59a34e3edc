#include "novamd/app/simulation.hpp"

#include <fmt/format.h>

#include <chrono>

#include "novamd/app/console.hpp"
#include "novamd/core/error.hpp"
#include "novamd/integrate/velocity_verlet.hpp"

namespace novamd::app {
namespace {

void stop_if_non_finite(backend::Backend& backend, std::int64_t step, double timestep,
                        const core::UnitSystem& units) {
  const auto bad = backend.find_non_finite();
  if (!bad) return;
  throw core::RunError(fmt::format(
      "step {}: particle {} has a non-finite {}; the time step ({} {}) may be too large, or "
      "particles came too close",
      step, bad->particle_id, bad->quantity, timestep, units.time));
}

}  // namespace

RunOutputs::RunOutputs(const io::Config& config, const core::SpeciesTable& species,
                       forces::TailCorrection tail)
    : config_(config), species_(species), tail_(tail), thermo_(config.output.thermo.file) {
  if (const auto& traj = config.output.trajectory) {
    trajectory_ = std::make_unique<io::XyzWriter>(traj->file, traj->velocity, traj->force);
  }
}

std::optional<analysis::ThermoState> RunOutputs::write_due(std::int64_t step, bool last_step,
                                                           backend::Backend& backend,
                                                           const core::Box& box) {
  const double time = static_cast<double>(step) * config_.integrator.timestep;
  const auto& traj = config_.output.trajectory;
  if (trajectory_ && (step % traj->every == 0 || last_step)) {
    trajectory_->write_frame(step, time, box, backend.particles_on_host(), species_);
    ++frames_;
  }
  if (step % config_.output.thermo.every != 0 && !last_step) return std::nullopt;
  backend::Observables observables = backend.observables();
  observables.potential_energy += tail_.energy;
  observables.virial += tail_.virial;
  const auto state = analysis::make_thermo_state(step, time, observables, backend.size(),
                                                 box.volume(), config_.units);
  thermo_.write(state);
  ++thermo_rows_;
  return state;
}

RunResult run_simulation(const io::Config& config, backend::Backend& backend, const core::Box& box,
                         RunOutputs& outputs) {
  using Clock = std::chrono::steady_clock;
  const std::int64_t steps = config.run.steps;
  const double dt = config.integrator.timestep;
  RunResult result;
  result.steps = steps;

  print_thermo_table_header(config.units);
  backend.compute_forces(backend::EnergyRequest::Compute);
  stop_if_non_finite(backend, 0, dt, config.units);
  result.initial = result.final = *outputs.write_due(0, steps == 0, backend, box);
  print_thermo_row(result.initial);

  ProgressLine progress(0, steps);
  const auto start = Clock::now();
  for (std::int64_t step = 1; step <= steps; ++step) {
    const bool thermo_step = step % config.output.thermo.every == 0 || step == steps;
    integrate::velocity_verlet_step(
        backend, dt, thermo_step ? backend::EnergyRequest::Compute : backend::EnergyRequest::Skip);
    if (step % backend.check_interval() == 0 || step == steps) {
      stop_if_non_finite(backend, step, dt, config.units);
    }
    if (const auto state = outputs.write_due(step, step == steps, backend, box)) {
      progress.clear();
      print_thermo_row(*state);
      result.final = *state;
    }
    progress.update(step);
  }
  progress.clear();
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.thermo_rows = outputs.thermo_rows();
  result.trajectory_frames = outputs.trajectory_frames();
  return result;
}

}  // namespace novamd::app
