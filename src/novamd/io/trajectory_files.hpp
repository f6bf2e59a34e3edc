#pragma once
/// @file trajectory_files.hpp
/// Trajectory formats by name and file extension, and the one place that opens a writer for a
/// format: extended XYZ (xyz_trajectory.hpp), DCD (dcd_writer.hpp), H5MD (h5md_writer.hpp), GSD
/// (gsd_writer.hpp).

#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#include "novamd/io/trajectory_writer.hpp"

namespace novamd::io {

enum class TrajectoryFormat { Xyz, Dcd, H5md, Gsd };

/// The format a file name implies: .xyz or .extxyz, .dcd, .h5, .h5md or .hdf5, .gsd (in any
/// letter case); nothing for another extension.
std::optional<TrajectoryFormat> format_from_extension(const std::filesystem::path& file);

/// "xyz", "dcd", "h5md" or "gsd".
std::string_view to_string(TrajectoryFormat format);

/// Whether the format's frames must lie on one grid of steps (DCD: ISTART + k NSAVC), so that
/// a run's last step gets no extra frame off that grid.
bool holds_evenly_spaced_frames(TrajectoryFormat format);

/// The format named "xyz", "dcd", "h5md" or "gsd" (to_string's names), if it is one.
std::optional<TrajectoryFormat> format_named(std::string_view name);

/// Whether this build can write H5MD (it was built with HDF5).
bool h5md_available();

/// Checks, writing nothing, what open_trajectory would check: the format's constraints on
/// `open` and, on a restart, the existing file it would continue.
/// @throws core::InputError as open_trajectory does.
void check_trajectory(TrajectoryFormat format, const TrajectoryOpen& open);

/// Opens a writer of `format` as `open` says (see each writer's constructor).
/// @throws core::InputError for H5MD in a build without HDF5 ("this build has no HDF5; install
///   libhdf5-dev and rebuild"), and whatever the writer's constructor throws.
std::unique_ptr<TrajectoryWriter> open_trajectory(TrajectoryFormat format,
                                                  const TrajectoryOpen& open);

}  // namespace novamd::io
