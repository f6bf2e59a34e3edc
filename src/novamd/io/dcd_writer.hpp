#pragma once
/// @file dcd_writer.hpp
/// CHARMM/NAMD DCD trajectories: positions only, as 32-bit floats, read by VMD, MDAnalysis,
/// MDTraj, OVITO and CHARMM.
///
/// The file is little-endian, every block a Fortran unformatted record (a 4-byte length before
/// and after it), in the layout of VMD's dcdplugin and MDAnalysis's libdcd:
///
///     header   84 bytes: "CORD", NSET (frames), ISTART (step of the first frame), NSAVC (steps
///              between frames), NSTEP (step of the last frame), 5 zeros, DELTA (float),
///              unit-cell flag 1, 8 zeros, CHARMM version 24
///     title    NTITLE = 2 lines of 80 characters: "NovaMD", N and the units
///     atoms    N
///     frame    unit cell: 6 doubles [A, gamma, B, beta, alpha, C] = [Lx, 90, Ly, 90, 90, Lz]
///              (angles in degrees, NAMD's convention), then the x, y and z arrays of N floats
///
/// Frames must lie on the grid ISTART + k NSAVC, the only steps the header can describe. NSET
/// and NSTEP are updated after every frame, so the file is valid whenever a frame is complete.
///
/// Units: positions are written in the run's length unit (Angstrom for `real`; DCD readers
/// assume Angstrom). DELTA is the timestep in CHARMM's AKMA time unit (48.8882129 fs) when the
/// run's time unit is fs, as CHARMM and NAMD write it, so that VMD and MDAnalysis report times
/// in ps; in any other unit system DELTA is the timestep in the run's own time unit.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "novamd/io/trajectory_writer.hpp"

namespace novamd::io {

/// One AKMA time unit (sqrt(A^2 amu / (kcal/mol)), CHARMM's TIMFAC) in fs.
inline constexpr double kAkmaTimeFs = 48.8882129;

class DcdWriter final : public TrajectoryWriter {
 public:
  using Bytes = std::vector<unsigned char>;

  /// Creates `open.file` (truncating it), or, with `open.resume_after_step`, continues it: the
  /// frames at steps ISTART + k NSAVC up to the resume step are kept, the rest (and a partial
  /// frame a crash left) are cut off, NSET is corrected, and new frames are appended. A file
  /// that does not exist, or keeps no frame, is started afresh.
  ///
  /// @throws core::InputError if `open.fields` holds anything but positions ("DCD holds
  ///   positions only"), if the file cannot be opened, if a file to resume is not a DCD of this
  ///   layout, holds another particle count, or was written every other number of steps, or if
  ///   N, the first step or the interval do not fit DCD's 32-bit integers.
  explicit DcdWriter(const TrajectoryOpen& open);

  /// Everything the constructor checks, without writing: the settings and, with
  /// `open.resume_after_step`, the file to be continued (which must also hold every frame up to
  /// the resume step). @throws core::InputError as the constructor does.
  static void check(const TrajectoryOpen& open);

  DcdWriter(const DcdWriter&) = delete;
  DcdWriter& operator=(const DcdWriter&) = delete;
  ~DcdWriter() override = default;

  /// Appends the positions of `frame` (a frame without positions writes nothing) and updates
  /// NSET and NSTEP. @throws core::RunError if the step is not the next on the grid
  /// ISTART + k NSAVC, if the frame does not match the file, or if writing fails.
  void write(const TrajectoryFrame& frame) override;

  const std::filesystem::path& path() const override { return path_; }

  /// Frames in the file (NSET).
  std::int64_t frames() const { return frames_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const;
  };

  /// How an existing file is continued: its header's layout and the frames kept.
  struct ResumePlan {
    std::int64_t header_size, istart, nsavc, keep;
  };
  static bool continues_file(const TrajectoryOpen& open);
  static ResumePlan plan_resume(const TrajectoryOpen& open);
  void start_new_file(const TrajectoryOpen& open);
  void resume(const TrajectoryOpen& open, const ResumePlan& plan);
  /// Writes `bytes` (one frame) at the end of the file, then NSET and NSTEP (`step`).
  void append(const Bytes& bytes, std::int64_t step);
  /// Sets NSET to frames_ and NSTEP to `last_step`, and flushes.
  void update_header(std::int64_t last_step);

  std::filesystem::path path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::size_t particles_ = 0;
  std::int64_t istart_ = 0;
  std::int64_t nsavc_ = 1;
  std::int64_t frames_ = 0;
};

}  // namespace novamd::io
