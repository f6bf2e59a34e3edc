#include "novamd/app/output_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <system_error>

#include "novamd/app/run_stages.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/trajectory_files.hpp"

namespace novamd::app {
namespace {

namespace fs = std::filesystem;

/// The path as the file system resolves it (links followed, "." and ".." gone), for comparing.
fs::path resolved(const fs::path& file) {
  std::error_code ec;
  fs::path path = fs::weakly_canonical(fs::absolute(file, ec), ec);
  return ec ? fs::absolute(file) : path;
}

void check_distinct(const std::vector<PlannedOutput>& outputs, const RunInputs& inputs) {
  struct Named {
    fs::path path;
    std::string what;
    bool is_checkpoint_output;
  };
  std::vector<Named> outs;
  for (const auto& o : outputs)
    outs.push_back({resolved(o.file), o.key, o.key == "output.checkpoint.file"});
  for (std::size_t a = 0; a < outs.size(); ++a)
    for (std::size_t b = a + 1; b < outs.size(); ++b)
      if (outs[a].path == outs[b].path)
        throw core::InputError(fmt::format(
            "{} and {} are the same file, '{}'; expected a file of its own for each output",
            outs[a].what, outs[b].what, outputs[b].file.string()));
  const auto refuse_input = [&](const fs::path& input, std::string_view what, bool restart) {
    const fs::path in = resolved(input);
    for (std::size_t k = 0; k < outs.size(); ++k) {
      if (outs[k].path != in || (restart && outs[k].is_checkpoint_output)) continue;
      throw core::InputError(fmt::format(
          "{}: '{}' is {}, which this run reads; expected another file name, or the run would "
          "write over its own input",
          outs[k].what, outputs[k].file.string(), what));
    }
  };
  refuse_input(inputs.config, "the config file", false);
  if (inputs.structure) refuse_input(*inputs.structure, "system.structure.read", false);
  if (inputs.restart) refuse_input(*inputs.restart, "the checkpoint given to --restart", true);
}

}  // namespace

std::vector<PlannedOutput> planned_outputs(const io::Config& config) {
  using io::OutputKind;
  const auto& out = config.output;
  std::vector<PlannedOutput> plan;
  if (!out.thermo.file.empty())  // `file: none`: no thermo file
    plan.push_back({out.thermo.file, "output.thermo.file", OutputKind::Streamed});
  for (std::size_t t = 0; t < out.trajectories.size(); ++t)
    plan.push_back({out.trajectories[t].file, fmt::format("output.trajectory[{}].file", t),
                    OutputKind::Streamed});
  plan.push_back({out.checkpoint.file, "output.checkpoint.file", OutputKind::ReplacedAtomically});
  if (out.topology_file)
    plan.push_back({*out.topology_file, "output.topology.file", OutputKind::ReplacedAtomically});
  if (out.data_file)
    plan.push_back({*out.data_file, "output.data.file", OutputKind::ReplacedAtomically});
  const auto& a = config.analysis;
  if (a.rdf) plan.push_back({a.rdf->file, "analysis.rdf.file", OutputKind::ReplacedAtomically});
  if (a.structure_factor)
    plan.push_back({a.structure_factor->file, "analysis.structure_factor.file",
                    OutputKind::ReplacedAtomically});
  if (a.msd) plan.push_back({a.msd->file, "analysis.msd.file", OutputKind::Streamed});
  return plan;
}

io::TrajectoryOpen trajectory_open(const io::Config& config,
                                   const io::TrajectoryOutputSettings& settings,
                                   std::size_t particles,
                                   std::optional<std::int64_t> resume_after_step,
                                   const io::SiteFrames* sites) {
  const bool lj = config.units.name == "lj";  // reduced units have no unit names
  const std::int64_t first_frame =
      resume_after_step ? (*resume_after_step / settings.every + 1) * settings.every : 0;
  return {settings.file,
          {settings.position_every > 0, settings.velocity_every > 0, settings.force_every > 0},
          settings.sites && sites ? sites->species() : config.system.species,
          particles,
          first_frame,
          settings.every,
          // One timestep throughout where a DCD is written (check_dcd_timestep): the span's.
          span_after(config, resume_after_step.value_or(0)).integrator->timestep,
          lj ? "" : config.units.length,
          lj ? "" : config.units.time,
          lj ? "" : config.units.energy,
          resume_after_step};
}

std::vector<std::string> trajectory_notes(const io::Config& config, std::int64_t last_step) {
  std::vector<std::string> notes;
  for (const auto& t : config.output.trajectories) {
    const std::string file = t.file.string();
    if (t.format == io::TrajectoryFormat::Dcd && t.every > 0 && last_step % t.every != 0)
      notes.push_back(fmt::format(
          "{}: DCD frames are evenly spaced, so its last frame is step {}, not the run's last "
          "step {} (every {}); the other formats write the last step",
          file, last_step / t.every * t.every, last_step, t.every));
    std::vector<std::int64_t> intervals;
    for (const std::int64_t every : {t.position_every, t.velocity_every, t.force_every})
      if (every > 0) intervals.push_back(every);
    const bool own_intervals = std::adjacent_find(intervals.begin(), intervals.end(),
                                                  std::not_equal_to<>()) != intervals.end();
    if (t.format == io::TrajectoryFormat::H5md && own_intervals)
      notes.push_back(fmt::format(
          "{}: its fields have their own intervals; h5py reads such a file, MDAnalysis only one "
          "whose fields share their steps (give them one interval for MDAnalysis)",
          file));
  }
  return notes;
}

void check_dcd_timestep(const io::Config& config, bool one_timestep) {
  if (one_timestep) return;
  const auto& trajectories = config.output.trajectories;
  for (std::size_t k = 0; k < trajectories.size(); ++k) {
    if (trajectories[k].format != io::TrajectoryFormat::Dcd) continue;
    throw core::InputError(fmt::format(
        "{}: output.trajectory[{}]: {} is a DCD file, which holds one timestep and counts time "
        "from step 0, and this run's timestep changes (a stage's or the restart's); expected an "
        "XYZ, H5MD or GSD file, whose frames carry their own times",
        config.file.string(), k, trajectories[k].file.string()));
  }
}

void check_outputs(const io::Config& config, const std::vector<PlannedOutput>& outputs,
                   const RunInputs& inputs, std::size_t particles,
                   const std::vector<std::int64_t>& species_counts,
                   std::optional<std::int64_t> resume_after_step) {
  const io::SiteFrames sites(config.system.components);
  for (const auto& o : outputs) io::check_output_path(o.file, o.key, o.kind);
  check_distinct(outputs, inputs);
  // Format constraints and, on a restart, every file to be continued: all before any is cut.
  for (const auto& settings : config.output.trajectories)
    io::check_trajectory(
        settings.format,
        trajectory_open(config, settings, settings.sites ? sites.count(species_counts) : particles,
                        resume_after_step, &sites));
}

}  // namespace novamd::app
