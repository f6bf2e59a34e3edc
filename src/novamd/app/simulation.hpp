#pragma once
/// @file simulation.hpp
/// The MD loop: integrate, check, and write output when due.

#include <cstdint>
#include <memory>
#include <optional>

#include "novamd/analysis/thermo.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/thermo_writer.hpp"
#include "novamd/io/xyz.hpp"

namespace novamd::app {

struct RunResult {
  std::int64_t steps = 0;
  double wall_seconds = 0.0;
  analysis::ThermoState initial, final;
  std::int64_t thermo_rows = 0;
  std::int64_t trajectory_frames = 0;
};

/// The files a run writes. Opened only after all input is validated (nothing is written over
/// on bad input).
class RunOutputs {
 public:
  /// `tail`: energy and virial of the pairs beyond the cutoffs, added to every thermo row.
  RunOutputs(const io::Config& config, const core::SpeciesTable& species,
             forces::TailCorrection tail = {});

  /// Writes the thermo row and trajectory frame due at `step`; returns the thermo state if a
  /// row was due. Step 0 and the last step are always written.
  std::optional<analysis::ThermoState> write_due(std::int64_t step, bool last_step,
                                                 backend::Backend& backend, const core::Box& box);

  std::int64_t thermo_rows() const { return thermo_rows_; }
  std::int64_t trajectory_frames() const { return frames_; }

 private:
  const io::Config& config_;
  const core::SpeciesTable& species_;
  forces::TailCorrection tail_;
  io::ThermoWriter thermo_;
  std::unique_ptr<io::XyzWriter> trajectory_;
  std::int64_t thermo_rows_ = 0;
  std::int64_t frames_ = 0;
};

/// Runs config.run.steps velocity Verlet steps from the backend's current state.
RunResult run_simulation(const io::Config& config, backend::Backend& backend, const core::Box& box,
                         RunOutputs& outputs);

}  // namespace novamd::app
