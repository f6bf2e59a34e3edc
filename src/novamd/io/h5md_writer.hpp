#pragma once
/// @file h5md_writer.hpp
/// H5MD 1.1 trajectories (HDF5): positions, velocities and forces in double precision, each
/// field at its own frequency. Read by MDAnalysis (H5MDReader), h5py, pyh5md and VMD's h5md
/// plugin. Built only where HDF5 is (NOVAMD_HAVE_HDF5); open_trajectory() says so elsewhere.
///
/// Layout (N particles, K species; F frames, per field):
///
///     /h5md                      version = [1, 1]
///       author                   name = $USER (or "unknown")
///       creator                  name = "NovaMD", version
///     /particles/all
///       box                      dimension = 3, boundary = ["periodic", "periodic", "periodic"]
///         edges/  step, time     hard links to the first field's step and time
///                 value          double [F, 3, 3]: diag(Lx, Ly, Lz)
///       position/ step int64 [F], time double [F], value double [F, N, 3]
///       velocity/ ...            (only the fields the file holds)
///       force/    ...
///       species                  int32 [N]: type ids in particle id order (with the first frame)
///     /parameters/novamd
///       species_names            string [K]: the name of type id k
///
/// Every field (position, velocity, force) is a time-dependent H5MD element with its own frame
/// count: a frame writes only the fields it carries, so velocities may be written every other
/// position frame; the step arrays say which steps each field holds. The box is written with
/// every frame that carries the file's first field (position; else velocity; else force), and
/// its step and time are that field's (hard links, as H5MD 1.1 asks of a box that changes with
/// the positions). MDAnalysis pairs frame k of every field (and of the box), so it reads files
/// whose fields share their steps. The edges are the matrix form, which H5MD allows for any
/// box: MDAnalysis before 2.5 reads the vector form [F, 3] as no box at all (its issue #4075).
///
/// Units (attribute `unit`, a variable-length string as H5MD's units module has it; see
/// h5md_units.hpp): position and box edges in the run's length unit ("Angstrom", "fm"), time
/// in its time unit ("fs", "fm c-1"), velocity in length per time ("Angstrom fs-1", "c"). Forces
/// carry no unit (the writer is not told the energy unit), nor does anything in reduced
/// Lennard-Jones units: MDAnalysis then needs convert_units=False. Other string attributes are
/// fixed-length, as H5MD 1.1 asks.
///
/// Datasets are chunked one frame per chunk (F is unlimited), and the file is flushed
/// (H5Fflush) after every frame.

#include <filesystem>
#include <memory>

#include "novamd/io/trajectory_writer.hpp"

namespace novamd::io {

class H5mdWriter final : public TrajectoryWriter {
 public:
  /// Creates `open.file` (truncating it) with the fields `open.fields`, or, with
  /// `open.resume_after_step`, continues it: every field keeps its frames up to the resume step
  /// (the datasets shrink, H5Dset_extent; so does the box), a field the file lacks is added, and
  /// new frames are appended. The file's first field, which the box follows, must be the run's
  /// first field too. The file keeps its unit attributes. A file that does not exist is created.
  ///
  /// @throws core::InputError if `open.fields` is empty, N is 0, the file cannot be created or
  ///   opened, or a file to resume is not an H5MD file with /particles/all of N particles, or
  ///   its first field is not the run's.
  explicit H5mdWriter(const TrajectoryOpen& open);
  ~H5mdWriter() override;

  /// Everything the constructor checks, without writing: the settings and, with
  /// `open.resume_after_step`, the file to be continued (opened read-only).
  /// @throws core::InputError as the constructor does.
  static void check(const TrajectoryOpen& open);

  H5mdWriter(const H5mdWriter&) = delete;
  H5mdWriter& operator=(const H5mdWriter&) = delete;

  /// Appends `frame.fields` (and the box, with the first field) and flushes the file.
  /// @throws core::RunError if the frame does not match the file or HDF5 fails.
  void write(const TrajectoryFrame& frame) override;

  const std::filesystem::path& path() const override;

 private:
  static void check_settings(const TrajectoryOpen& open);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace novamd::io
