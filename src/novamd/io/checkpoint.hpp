#pragma once
/// @file checkpoint.hpp
/// Binary checkpoints: everything a run needs to continue bitwise as if uninterrupted.
/// Written to a new temporary beside FILE and renamed over it (io::write_file_atomically), so a
/// crash never leaves a half-written checkpoint; a version field and a CRC-32 of the whole
/// content guard the reading, and the content is checked after it. The layout, the version
/// policy and the checks on reading are in docs/file-formats.md.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "novamd/backend/backend_state.hpp"
#include "novamd/core/time_axis.hpp"
#include "novamd/integrate/integrator_state.hpp"

namespace novamd::io {

struct CheckpointData {
  std::string novamd_version;  ///< version_line() of the writer (informational)
  std::string config_yaml;     ///< the effective config the run used (after --set), as YAML
  std::string backend;         ///< "cpu" or "cuda"
  std::string precision;       ///< "double", "mixed" or "single"
  std::string device;          ///< the backend's description (informational)
  std::int64_t step = 0;       ///< the state is the state after this step
  std::array<double, 3> box{};
  backend::BackendState state;
  integrate::IntegratorState integrator;
  /// The barostat's variables (type empty: none; files of version 2 and older hold none).
  integrate::IntegratorState barostat;
  /// The time of each step (files of version 4 and older: step x the config's
  /// integrator.timestep, whose change they did not allow).
  core::TimeAxis time_axis;
};

/// Writes `data` to `file` atomically (temporary file, then rename); only a regular file (or no
/// file) at `file` is replaced.
/// @throws core::RunError naming the file if it cannot be written or is not a regular file.
void write_checkpoint(const std::filesystem::path& file, const CheckpointData& data);

/// Reads and verifies a checkpoint.
/// @throws core::InputError naming the file for a missing or unreadable file, a file that is not
///   a NovaMD checkpoint, an unsupported version, a truncated file, a checksum mismatch, or
///   content out of range (ids not 0..N-1 once each, a box edge not positive and finite, a step
///   outside [0, 2^53], a value not finite, a negative counter).
CheckpointData read_checkpoint(const std::filesystem::path& file);

/// The differences between the config a checkpoint was written with and the run's, one line
/// each ("integrator.temperature: 1.1 in the checkpoint, 1.2 in this run"), for the keys a
/// restart must keep; keys a restart may change (run, output, backend, precision, and the
/// initial structure and velocities, which the checkpoint replaces) are not compared.
/// With `noted`, the differences a restart may make with a note (the integrator's keys: the run
/// goes on from the checkpoint's state, not as the old config would have) go there instead of
/// into the returned lines.
std::vector<std::string> config_differences(const std::string& checkpoint_yaml,
                                            const std::string& run_yaml,
                                            std::vector<std::string>* noted = nullptr);

}  // namespace novamd::io
