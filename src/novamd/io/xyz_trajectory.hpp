#pragma once
/// @file xyz_trajectory.hpp
/// Extended XYZ trajectories behind the TrajectoryWriter interface: XyzWriter (xyz.hpp) with
/// resume. Read by OVITO, ASE, MDAnalysis and VMD.

#include <cstdint>
#include <filesystem>

#include "novamd/core/species.hpp"
#include "novamd/io/trajectory_writer.hpp"
#include "novamd/io/xyz.hpp"

namespace novamd::io {

class XyzTrajectoryWriter final : public TrajectoryWriter {
 public:
  /// Creates `open.file` (truncating it), or, with `open.resume_after_step`, continues it: the
  /// frames up to the last one whose comment line has Step= at most the resume step are kept,
  /// the rest (and a partial frame a crash left) are cut off, and new frames are appended.
  /// A file that does not exist is created. Numbers are written with `significant_digits`
  /// (XyzWriter's).
  ///
  /// @throws core::InputError if the file cannot be opened, or a file to resume has a frame
  ///   without Step= or with another particle count.
  explicit XyzTrajectoryWriter(const TrajectoryOpen& open,
                               int significant_digits = XyzWriter::kDefaultDigits);

  /// Checks, without writing, a file `open.resume_after_step` would continue.
  /// @throws core::InputError as the constructor does.
  static void check(const TrajectoryOpen& open);

  /// Writes every field the file holds (positions always; velocities and forces if opened with
  /// them), whatever `frame.fields` says: each frame of an XYZ file has the same columns.
  /// @throws core::RunError if the frame does not match the file or writing fails.
  void write(const TrajectoryFrame& frame) override;

  const std::filesystem::path& path() const override { return writer_.path(); }

 private:
  XyzWriter writer_;
  core::SpeciesTable species_;
  FieldSet fields_;
  std::size_t particles_;
};

/// Byte offset at which to cut the XYZ trajectory `file` so that it keeps the frames up to the
/// last whose Step= is at most `resume_step`; a partial frame at the end is cut off as well.
/// @throws core::InputError if a frame has no Step= in its comment line or holds other than
///   `particles` atoms, naming the file and line.
std::uintmax_t xyz_resume_offset(const std::filesystem::path& file, std::size_t particles,
                                 std::int64_t resume_step);

}  // namespace novamd::io
