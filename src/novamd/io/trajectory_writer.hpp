#pragma once
/// @file trajectory_writer.hpp
/// The interface every trajectory format implements (extended XYZ, DCD, H5MD). The run decides
/// which fields are due at a step; a writer writes them, in particle id order.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"

namespace novamd::io {

/// Which per-particle fields a file holds, or a frame carries.
struct FieldSet {
  bool position = false;
  bool velocity = false;
  bool force = false;
  bool any() const { return position || velocity || force; }
};

/// One output step: `particles` in id order (ids 0..N-1), the box, and the fields due now.
struct TrajectoryFrame {
  std::int64_t step = 0;
  double time = 0.0;
  const core::Box& box;
  const core::ParticleData& particles;
  FieldSet fields;
};

/// What a writer needs to open its file.
struct TrajectoryOpen {
  std::filesystem::path file;
  FieldSet fields;  ///< the fields the file will ever hold
  const core::SpeciesTable& species;
  std::size_t particles = 0;    ///< N, constant for the run
  std::int64_t first_step = 0;  ///< step of the first frame
  std::int64_t every = 1;       ///< steps between frames (DCD's header; informational elsewhere)
  double timestep = 0.0;        ///< in the run's time unit
  std::string length_unit;      ///< "fm", "A" or "" (LJ units); written where the format has units
  std::string time_unit;        ///< "fm/c", "fs" or ""
  std::string energy_unit;      ///< "MeV", "kcal/mol" or ""
  /// Continue an existing file after a restart from a checkpoint at this step: frames with a
  /// larger step (written after the checkpoint) are dropped and new frames are appended. A file
  /// that does not exist is created. Unset: create, truncating any file of that name.
  std::optional<std::int64_t> resume_after_step;
};

class TrajectoryWriter {
 public:
  virtual ~TrajectoryWriter() = default;
  /// Writes `frame.fields` (a subset of the fields the file holds) and flushes, so that a crash
  /// loses at most the frame being written. @throws core::RunError when writing fails.
  virtual void write(const TrajectoryFrame& frame) = 0;
  virtual const std::filesystem::path& path() const = 0;
};

}  // namespace novamd::io
