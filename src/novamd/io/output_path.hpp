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

/// Checks that an output file can be written at `path` (created, or an existing file replaced):
/// the folder it names (the working folder for a bare name) exists, is a folder and is writable,
/// and `path` itself is absent or a regular file, not a folder, symbolic link, device, fifo or
/// socket. `what` names the setting, e.g. "output.checkpoint.file".
///
/// @throws core::InputError "<what>: <path>: <what is wrong>", e.g.
///   "output.checkpoint.file: nodir/r.chk: the folder 'nodir' does not exist".
void check_output_path(const std::filesystem::path& path, std::string_view what);

}  // namespace novamd::io
