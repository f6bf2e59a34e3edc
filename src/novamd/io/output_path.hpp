#pragma once
/// @file output_path.hpp
/// Paths NovaMD writes output to (checkpoints, thermo, trajectories, analysis files), checked
/// before the first step so that a bad path ends the run before any work, not at its first
/// output; and what an existing path is, for writers that must not replace anything but a
/// regular file.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace novamd::io {

/// What is at `path` when it exists and is not a regular file: "a symbolic link", "a folder",
/// "a device", "a named pipe (fifo)", "a socket" or "a special file"; nothing when the path is
/// absent or a regular file. A symbolic link is reported as such, never followed.
std::optional<std::string> non_regular_kind(const std::filesystem::path& path);

/// How a file is written, which decides what may already stand at its path.
enum class OutputKind {
  /// Written to a temporary file and renamed over the path (checkpoints, analysis tables): only
  /// an existing regular file may be replaced; a link, device, folder or pipe is refused.
  ReplacedAtomically,
  /// Opened and written in place (thermo, trajectories): an existing regular file, a character
  /// device such as /dev/null, or a symbolic link to one of those is written through.
  Streamed,
};

/// Checks that an output file can be written at `path` (created, or an existing file replaced):
/// the folder it names (the working folder for a bare name) exists, is a folder and is writable,
/// and `path` itself is absent or what `kind` may write over, and writable. `what` names the
/// setting, e.g. "output.checkpoint.file".
///
/// @throws core::InputError "<what>: <path>: <what is wrong>", e.g.
///   "output.checkpoint.file: nodir/r.chk: the folder 'nodir' does not exist".
void check_output_path(const std::filesystem::path& path, std::string_view what,
                       OutputKind kind = OutputKind::ReplacedAtomically);

}  // namespace novamd::io
