#pragma once
/// @file output_path.hpp
/// Checks that a file can be written before anything is: a run validates every output path
/// before step 0, so that bad input ends it with nothing written.

#include <filesystem>
#include <string_view>

namespace novamd::io {

/// How a file is written, which decides what may already stand at its path.
enum class OutputKind {
  /// Opened and written in place (thermo, trajectories): an existing regular file, a character
  /// device such as /dev/null, or a symbolic link to one of those is written through.
  Streamed,
  /// Written to a temporary file and renamed over the path (checkpoints, analysis tables): only
  /// an existing regular file may be replaced; a link, device, folder or pipe is refused.
  ReplacedAtomically,
};

/// @throws core::InputError naming `what` (the config key, e.g. "output.checkpoint.file") and
/// the path when the path is empty, its folder does not exist or cannot be written, or what
/// stands at the path cannot be written as `kind` asks.
void check_output_path(const std::filesystem::path& path, std::string_view what, OutputKind kind);

}  // namespace novamd::io
