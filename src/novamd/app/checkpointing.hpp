#pragma once
/// @file checkpointing.hpp
/// Writing a run's checkpoint, and reading one back for `novamd run CONFIG --restart FILE`.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/io/checkpoint.hpp"
#include "novamd/io/config.hpp"

namespace novamd::app {

/// Writes the state after `step` to `file` (atomically), with the run's time axis.
/// `backend_name`: "cpu" or "cuda". Every rank of a decomposed run calls it (the state is
/// gathered); only `writes_file` writes.
void save_checkpoint(const std::filesystem::path& file, const io::Config& config,
                     backend::Backend& backend, const integrate::Integrator& integrator,
                     const core::Box& box, std::int64_t step, const core::TimeAxis& time_axis,
                     const std::string& backend_name, bool writes_file = true);

/// A checkpoint that may continue this run, and what the user should know about it.
struct Restart {
  io::CheckpointData data;
  std::vector<std::string> notes;  ///< e.g. a change of backend: the continuation is not bitwise
};

/// Reads `file` and checks it against the run's config and backend.
/// @throws core::InputError naming the file: unreadable, corrupt, truncated, another version,
///   or written with a config that differs in a key a restart must keep (each one listed).
Restart load_restart(const std::filesystem::path& file, const io::Config& config,
                     const std::string& backend_name);

}  // namespace novamd::app
