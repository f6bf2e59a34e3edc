#include "novamd/app/checkpointing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/app/version.hpp"
#include "novamd/core/error.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::app {

void save_checkpoint(const std::filesystem::path& file, const io::Config& config,
                     backend::Backend& backend, const integrate::Integrator& integrator,
                     const core::Box& box, std::int64_t step, const core::TimeAxis& time_axis,
                     const std::string& backend_name, bool writes_file) {
  io::CheckpointData data;
  data.novamd_version = version_line();
  data.config_yaml = config.effective_yaml;
  data.backend = backend_name;
  data.precision = std::string(core::to_string(config.precision));
  data.device = backend.description();
  data.step = step;
  data.box = {box.length().x, box.length().y, box.length().z};
  data.state = backend.save_state();
  data.integrator = integrator.save();
  if (const auto* barostat = integrator.barostat()) data.barostat = barostat->save();
  data.time_axis = time_axis;
  if (writes_file) io::write_checkpoint(file, data);
}

namespace {

/// Every finite cutoff at most half the checkpoint's shortest box edge (the minimum image), as a
/// fresh run's box must hold it.
void check_cutoffs(const std::filesystem::path& file, const io::CheckpointData& data,
                   const io::Config& config) {
  const double shortest_edge = std::min({data.box[0], data.box[1], data.box[2]});
  for (std::size_t t = 0; t < config.forces.size(); ++t) {
    const double cutoff = forces::cutoff_of(config.forces[t]);
    if (!forces::cutoff_fits(cutoff, shortest_edge))
      throw core::InputError(fmt::format(
          "{}: the checkpoint's box {} x {} x {} is too small for forces[{}].{}.cutoff: {}; "
          "expected a box whose shortest edge is at least twice the cutoff",
          file.string(), data.box[0], data.box[1], data.box[2], t,
          forces::name_of(config.forces[t]), cutoff));
  }
}

/// The checkpoint's particles must fit the config's species and force terms, and its box the
/// cutoffs (io::read_checkpoint has checked the content itself).
void check_state(const std::filesystem::path& file, const io::CheckpointData& data,
                 const io::Config& config) {
  const auto& particles = data.state.particles;
  const int types = config.system.species.size();
  for (std::size_t i = 0; i < particles.size(); ++i) {
    if (particles.type[i] < 0 || particles.type[i] >= types)
      throw core::InputError(
          fmt::format("{}: particle {} has type {}, but system.species declares {} species",
                      file.string(), particles.id[i], particles.type[i], types));
  }
  // A system of components has its one rigid_sites term outside config.forces.
  const std::size_t terms = config.forces.size() + (config.rigid_sites ? 1 : 0);
  if (data.state.terms.size() != terms)
    throw core::InputError(fmt::format("{}: the checkpoint has {} force terms, the config {}",
                                       file.string(), data.state.terms.size(), terms));
  if (!config.system.components.empty() && !particles.has(particles.orientation))
    throw core::InputError(fmt::format(
        "{}: the checkpoint holds no orientations; this config's system.components are rigid "
        "molecules (start it from a checkpoint of theirs)",
        file.string()));
  check_cutoffs(file, data, config);
}

}  // namespace

Restart load_restart(const std::filesystem::path& file, const io::Config& config,
                     const std::string& backend_name) {
  Restart restart{io::read_checkpoint(file), {}};
  // The integrator may change (its timestep too), with a note; the simulation notes what that
  // means when it takes the checkpoint's variables or not.
  std::vector<std::string> integrator_changes;
  const auto differences =
      io::config_differences(restart.data.config_yaml, config.effective_yaml, &integrator_changes);
  if (!integrator_changes.empty()) {
    std::string list;
    for (const auto& line : integrator_changes) list += (list.empty() ? "" : "; ") + line;
    restart.notes.push_back(fmt::format(
        "the integrator changed ({}): the run continues from the checkpoint's state, but not "
        "bit for bit as the checkpoint's config would have",
        list));
  }
  if (!differences.empty()) {
    std::string list;
    for (const auto& line : differences) list += "\n  " + line;
    throw core::InputError(fmt::format(
        "{}: the checkpoint was written with a different config; a restart must keep these "
        "keys as they were:{}",
        file.string(), list));
  }
  check_state(file, restart.data, config);
  const std::string precision(core::to_string(config.precision));
  if (restart.data.backend != backend_name || restart.data.precision != precision) {
    restart.notes.push_back(fmt::format(
        "the checkpoint was written by the {} backend in {} precision; this run uses {} in {}: "
        "it continues the same trajectory, but not bit for bit",
        restart.data.backend, restart.data.precision, backend_name, precision));
  }
  return restart;
}

}  // namespace novamd::app
