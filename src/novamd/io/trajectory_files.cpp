/// @file trajectory_files.cpp
/// Trajectory formats and open_trajectory (see trajectory_files.hpp).

#include "novamd/io/trajectory_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "novamd/core/error.hpp"
#include "novamd/io/dcd_writer.hpp"
#include "novamd/io/gsd_writer.hpp"
#include "novamd/io/xyz_trajectory.hpp"
#ifdef NOVAMD_HAVE_HDF5
#include "novamd/io/h5md_writer.hpp"
#endif

namespace novamd::io {

std::optional<TrajectoryFormat> format_from_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".xyz" || ext == ".extxyz") return TrajectoryFormat::Xyz;
  if (ext == ".dcd") return TrajectoryFormat::Dcd;
  if (ext == ".h5" || ext == ".h5md" || ext == ".hdf5") return TrajectoryFormat::H5md;
  if (ext == ".gsd") return TrajectoryFormat::Gsd;
  return std::nullopt;
}

std::string_view to_string(TrajectoryFormat format) {
  switch (format) {
    case TrajectoryFormat::Xyz:
      return "xyz";
    case TrajectoryFormat::Dcd:
      return "dcd";
    case TrajectoryFormat::H5md:
      return "h5md";
    case TrajectoryFormat::Gsd:
      return "gsd";
  }
  return "unknown";
}

std::optional<TrajectoryFormat> format_named(std::string_view name) {
  for (auto format : {TrajectoryFormat::Xyz, TrajectoryFormat::Dcd, TrajectoryFormat::H5md,
                      TrajectoryFormat::Gsd})
    if (to_string(format) == name) return format;
  return std::nullopt;
}

bool holds_evenly_spaced_frames(TrajectoryFormat format) {
  return format == TrajectoryFormat::Dcd;
}

bool h5md_available() {
#ifdef NOVAMD_HAVE_HDF5
  return true;
#else
  return false;
#endif
}

void check_trajectory(TrajectoryFormat format, const TrajectoryOpen& open) {
  switch (format) {
    case TrajectoryFormat::Xyz:
      return XyzTrajectoryWriter::check(open);
    case TrajectoryFormat::Dcd:
      return DcdWriter::check(open);
    case TrajectoryFormat::Gsd:
      return GsdWriter::check(open);
    case TrajectoryFormat::H5md:
#ifdef NOVAMD_HAVE_HDF5
      return H5mdWriter::check(open);
#else
      throw core::InputError(
          fmt::format("{}: H5MD output: this build has no HDF5; install libhdf5-dev and rebuild",
                      open.file.string()));
#endif
  }
}

std::unique_ptr<TrajectoryWriter> open_trajectory(TrajectoryFormat format,
                                                  const TrajectoryOpen& open) {
  switch (format) {
    case TrajectoryFormat::Xyz:
      return std::make_unique<XyzTrajectoryWriter>(open);
    case TrajectoryFormat::Dcd:
      return std::make_unique<DcdWriter>(open);
    case TrajectoryFormat::Gsd:
      return std::make_unique<GsdWriter>(open);
    case TrajectoryFormat::H5md:
#ifdef NOVAMD_HAVE_HDF5
      return std::make_unique<H5mdWriter>(open);
#else
      throw core::InputError(
          fmt::format("{}: H5MD output: this build has no HDF5; install libhdf5-dev and rebuild",
                      open.file.string()));
#endif
  }
  throw core::InputError(fmt::format("{}: unknown trajectory format", open.file.string()));
}

}  // namespace novamd::io
