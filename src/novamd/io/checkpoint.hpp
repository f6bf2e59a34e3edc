#pragma once
/// @file checkpoint.hpp
/// Binary checkpoints: everything a run needs to continue bitwise as if uninterrupted.
/// Written to `FILE.tmp` and renamed over FILE, so a crash never leaves a half-written
/// checkpoint; a version field and a CRC-32 of the whole content guard the reading. The layout,
/// the version policy and the checks on reading are in docs/file-formats.md.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "novamd/backend/backend_state.hpp"
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
};

/// Writes `data` to `file` atomically (temporary file, then rename).
/// @throws core::RunError naming the file if it cannot be written.
void write_checkpoint(const std::filesystem::path& file, const CheckpointData& data);

/// Reads and verifies a checkpoint.
/// @throws core::InputError naming the file for a missing or unreadable file, a file that is not
///   a NovaMD checkpoint, an unsupported version, a truncated file or a checksum mismatch.
CheckpointData read_checkpoint(const std::filesystem::path& file);

/// The differences between the config a checkpoint was written with and the run's, one line
/// each ("integrator.temperature: 1.1 in the checkpoint, 1.2 in this run"), for the keys a
/// restart must keep; keys a restart may change (run, output, backend, precision, and the
/// initial structure and velocities, which the checkpoint replaces) are not compared.
std::vector<std::string> config_differences(const std::string& checkpoint_yaml,
                                            const std::string& run_yaml);

}  // namespace novamd::io
