#pragma once
/// @file gsd_writer.hpp
/// GSD trajectories in HOOMD-blue's schema ("hoomd" 1.4), read by OVITO, MDAnalysis, freud and
/// the `gsd` Python package (gsd.hoomd.open). Specification: "HOOMD Schema",
/// https://gsd.readthedocs.io/en/stable/schema-hoomd.html; the file layer is gsd_file.hpp.
///
/// Each frame holds configuration/step, configuration/box ([Lx, Ly, Lz, 0, 0, 0]), particles/N
/// and particles/position (float32, N x 3), with particles/velocity (float32) and the forces as
/// log/particles/force (float64, N x 3) where the trajectory has those fields, and particles/image
/// (int32) for molecular systems (whose image counts are kept). The first frame also holds
/// configuration/dimensions (3), particles/types (the species names), particles/typeid,
/// particles/mass and particles/charge (float32), which later frames take from it as the schema
/// says. The run's time is log/time (float64). Particles are in id order.
///
/// HOOMD's box is centred on the origin: positions are written as x - L/2, in [-L/2, L/2).
/// Units are the run's (GSD has none).

#include <filesystem>
#include <memory>

#include "novamd/io/trajectory_writer.hpp"

namespace novamd::io {

class GsdWriter final : public TrajectoryWriter {
 public:
  /// Creates `open.file` (truncating it), or, with `open.resume_after_step`, continues it: the
  /// frames up to the resume step are kept, later ones dropped, and new frames appended.
  /// @throws core::InputError if the file cannot be created, or a file to continue is no GSD 2
  ///   file NovaMD wrote for this many particles.
  explicit GsdWriter(const TrajectoryOpen& open);
  /// What the constructor checks, writing nothing. @throws core::InputError as it does.
  static void check(const TrajectoryOpen& open);

  GsdWriter(const GsdWriter&) = delete;
  GsdWriter& operator=(const GsdWriter&) = delete;
  ~GsdWriter() override;

  void write(const TrajectoryFrame& frame) override;
  const std::filesystem::path& path() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace novamd::io
