#include "novamd/app/run_outputs.hpp"

#include <cmath>

#include "novamd/app/console.hpp"
#include "novamd/app/output_plan.hpp"
#include "novamd/app/plasma_report.hpp"
#include "novamd/app/tail_corrections.hpp"
#include "novamd/core/physical_scales.hpp"
#include "novamd/io/lammps_data_writer.hpp"
#include "novamd/io/psf_writer.hpp"
#include "novamd/io/trajectory_files.hpp"

namespace novamd::app {
namespace {

bool due(std::int64_t every, std::int64_t step) {
  return every > 0 && step % every == 0;
}

}  // namespace

RunOutputs::RunOutputs(const io::Config& config, std::size_t particles,
                       std::vector<std::int64_t> species_counts,
                       std::optional<std::int64_t> resume_after_step, bool writes_files,
                       std::optional<analysis::PlasmaParameters> plasma,
                       std::vector<std::string> term_columns)
    : config_(config),
      species_counts_(std::move(species_counts)),
      plasma_(std::move(plasma)),
      term_columns_(std::move(term_columns)),
      sites_(config.system.components),
      energy_watch_(config.run.max_energy_drift),
      time_axis_{0, 0.0, config.integrator.timestep} {
  if (term_columns_.empty())
    for (const auto& f : config.forces) term_columns_.push_back(forces::energy_column(f));
  // The total mass from the species (hydrogen mass repartitioning moves mass between particles
  // and keeps the total); g/cm^3 per mass unit per length unit^3 where the units have a scale.
  const auto& species = config.system.species;
  for (int t = 0; t < species.size() && static_cast<std::size_t>(t) < species_counts_.size(); ++t)
    total_mass_ += species[t].mass * static_cast<double>(species_counts_[t]);
  if (const auto scales = core::physical_scales(config.units))
    mass_density_scale_ = scales->grams_per_mass / std::pow(scales->centimetres_per_length, 3);
  // Molecular outputs: only on the writing rank (every rank gathers the particles alike).
  if (writes_files && config.system.topology &&
      (config.output.topology_file || config.output.data_file))
    topology_output_ = io::topology_output_of(*config.system.topology->file);
  const auto thermo_columns = expand_thermo_columns(config, plasma_);  // checked on every rank
  if (writes_files && !config.output.thermo.file.empty())
    thermo_.emplace(config.output.thermo.file, config.units, thermo_columns, resume_after_step);
  for (const auto& settings : config.output.trajectories) {
    const std::size_t entries = settings.sites ? sites_.count(species_counts_) : particles;
    const io::TrajectoryOpen open =
        trajectory_open(config, settings, entries, resume_after_step, &sites_);
    trajectories_.push_back(
        {settings, writes_files ? io::open_trajectory(settings.format, open) : nullptr});
  }
}

RunOutputs::~RunOutputs() = default;

bool RunOutputs::energy_due(std::int64_t step, bool last_step) const {
  return last_step || due(config_.output.thermo.every, step) ||
         due(config_.output.console.every, step);
}

RunOutputs::Sums RunOutputs::sums(backend::Observables observed, backend::Backend& backend,
                                  const integrate::Integrator& integrator) const {
  Sums sums{std::move(observed), 0.0};
  auto& o = sums.observables;
  o.kinetic_energy = integrator.reported_kinetic_energy(o.kinetic_energy);
  const auto tail = tail_corrections(config_, species_counts_, backend.box().volume(),
                                     /*with_self_energy=*/true);
  o.potential_energy += tail.energy;
  o.virial.add_isotropic(tail.virial / 3.0);  // isotropic: a third on each axis
  sums.tail_energy = tail.energy;
  return sums;
}

integrate::PressureSample RunOutputs::pressure_sample(backend::Backend& backend,
                                                      integrate::Integrator& integrator) {
  // The virial of what the barostat moves (the molecular virial where it moves molecules).
  const Sums s = sums(backend.barostat_totals(), backend, integrator);
  return {s.observables.virial, s.observables.potential_energy};
}

analysis::ThermoState RunOutputs::thermo_state(std::int64_t step, backend::Backend& backend,
                                               integrate::Integrator& integrator) {
  const core::Box& box = backend.box();
  const Sums s = sums(backend.observables(), backend, integrator);
  const backend::Observables& observables = s.observables;
  const double tail_energy = s.tail_energy;
  const std::size_t n = backend.size();
  auto state = analysis::make_thermo_state(
      step, time_axis_.time(step), observables, n, box.volume(), config_.units,
      integrator.degrees_of_freedom(), integrator.reservoir_energy(backend, box.volume()),
      integrator.rotational_degrees_of_freedom());
  if (!first_conserved_) first_conserved_ = state.conserved_energy;
  state.conserved_energy_drift =
      *first_conserved_ != 0.0
          ? (state.conserved_energy - *first_conserved_) / std::abs(*first_conserved_)
          : 0.0;
  state.neighbor_list_builds = backend.neighbor_list_builds();
  state.mass_density = mass_density_scale_ * total_mass_ / box.volume();
  state.plasma = plasma_ ? &*plasma_ : nullptr;
  for (std::size_t t = 0; t < observables.term_energy.size() && t < term_columns_.size(); ++t)
    if (!term_columns_[t].empty())
      state.term_energy[term_columns_[t]] += observables.term_energy[t];
  if (tail_energy != 0.0) state.term_energy["vdw_energy"] += tail_energy;
  state.energy_by_term = observables.term_energy;
  state.tail_energy = tail_energy;
  state.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return state;
}

void RunOutputs::write_trajectories(std::int64_t step, bool last_step, backend::Backend& backend) {
  const core::Box& box = backend.box();
  const core::ParticleData* particles = nullptr;  // fetched once, for every file due
  for (auto& t : trajectories_) {
    const auto& s = t.settings;
    const bool extra_last = last_step && !io::holds_evenly_spaced_frames(s.format);
    if (!due(s.every, step) && !extra_last) continue;
    // Each field at its own interval (XYZ and DCD files have one interval for all their fields).
    const auto field_due = [&](std::int64_t every) {
      return every > 0 && (due(every, step) || extra_last);
    };
    const io::FieldSet fields{field_due(s.position_every), field_due(s.velocity_every),
                              field_due(s.force_every)};
    if (!fields.any()) continue;
    if (!particles) particles = &backend.particles_on_host();  // on every rank: a gather
    const double time = time_axis_.time(step);
    if (t.writer)
      t.writer->write({step, time, box, s.sites ? sites_.place(*particles) : *particles, fields});
    ++frames_;
  }
}

void RunOutputs::write_topology_files(std::int64_t step, bool last_step,
                                      backend::Backend& backend) {
  const auto& out = config_.output;
  const bool psf_due = out.topology_file && !topology_written_;
  const bool data_due = out.data_file && last_step;
  if (!psf_due && !data_due) return;
  const core::ParticleData& particles = backend.particles_on_host();  // every rank: a gather
  topology_written_ = true;
  if (!topology_output_) return;  // a rank that writes nothing
  if (psf_due) io::write_psf(*out.topology_file, *topology_output_, particles);
  if (data_due)
    io::write_lammps_data(*out.data_file, *topology_output_, backend.box(), particles, step,
                          config_.units.name);
}

bool RunOutputs::any_due(std::int64_t step, bool last_step) const {
  if (energy_due(step, last_step)) return true;
  for (const auto& t : trajectories_)
    if (due(t.settings.every, step)) return true;
  return false;
}

std::optional<analysis::ThermoState> RunOutputs::write_due(std::int64_t step, bool last_step,
                                                           backend::Backend& backend,
                                                           integrate::Integrator& integrator) {
  const bool thermo_row = last_step || due(config_.output.thermo.every, step);
  const bool console_row = last_step || due(config_.output.console.every, step);
  std::optional<analysis::ThermoState> state;
  if (thermo_row || console_row) {
    state = thermo_state(step, backend, integrator);
    energy_watch_.check(*state, config_,
                        time_axis_.timestep);  // before any file gets this step's garbage
  }
  write_trajectories(step, last_step, backend);
  write_topology_files(step, last_step, backend);
  if (thermo_row) {
    if (thermo_) thermo_->write(*state);
    ++thermo_rows_;
  }
  return console_row ? state : std::nullopt;
}

}  // namespace novamd::app
