#pragma once
/// @file output_plan.hpp
/// Every file a run may write, checked before any is opened: each path writable, no two outputs
/// (nor an output and an input) the same file, each trajectory's format constraints met, and
/// every file a restart continues readable as that format (checked before any is cut back).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "novamd/io/config.hpp"
#include "novamd/io/output_path.hpp"
#include "novamd/io/site_frames.hpp"
#include "novamd/io/trajectory_writer.hpp"

namespace novamd::app {

/// One file a run may write, with the config key that names it.
struct PlannedOutput {
  std::filesystem::path file;
  std::string key;  ///< e.g. "output.trajectory[1].file"
  io::OutputKind kind;
};

/// The run's outputs: thermo, trajectories, the checkpoint (always: SIGTERM and the wall-clock
/// limit write one even when output.checkpoint is not configured) and the analysis tables.
std::vector<PlannedOutput> planned_outputs(const io::Config& config);

/// The files a run reads, which no output may replace: the config, the structure file, and a
/// restart's checkpoint (which only output.checkpoint.file may name).
struct RunInputs {
  std::filesystem::path config;
  std::optional<std::filesystem::path> structure;
  std::optional<std::filesystem::path> restart;
};

/// How a trajectory file of `settings` opens: its fields, units, first frame and, on a restart
/// from a checkpoint at `resume_after_step`, the step after which it is continued. `particles`:
/// a frame's entries; with `settings.sites`, the sites' species come from `sites`.
io::TrajectoryOpen trajectory_open(const io::Config& config,
                                   const io::TrajectoryOutputSettings& settings,
                                   std::size_t particles,
                                   std::optional<std::int64_t> resume_after_step,
                                   const io::SiteFrames* sites = nullptr);

/// What a user should know of the trajectory files of a run ending at `last_step`: a DCD file
/// (evenly spaced frames) that cannot hold the last step, an H5MD file whose fields have their
/// own intervals (which MDAnalysis cannot iterate). One sentence each, for "Note: ...".
std::vector<std::string> trajectory_notes(const io::Config& config, std::int64_t last_step);

/// A DCD file holds one timestep (its header's DELTA) and counts time from step 0: where the
/// run's time is not step x one timestep (`one_timestep` false: a stage or a restart changes
/// it), a DCD output is refused.
/// @throws core::InputError naming the trajectory's key.
void check_dcd_timestep(const io::Config& config, bool one_timestep);

/// Checks every output before any file is opened. `particles` (by species: `species_counts`) and
/// `resume_after_step` (a restart's checkpoint step) describe the trajectories to be written or
/// continued.
/// @throws core::InputError naming the key and path of the first problem.
void check_outputs(const io::Config& config, const std::vector<PlannedOutput>& outputs,
                   const RunInputs& inputs, std::size_t particles,
                   const std::vector<std::int64_t>& species_counts,
                   std::optional<std::int64_t> resume_after_step);

}  // namespace novamd::app
