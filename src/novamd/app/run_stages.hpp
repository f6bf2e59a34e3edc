#pragma once
/// @file run_stages.hpp
/// A run in stages (`run.stages`): which steps each stage takes, and which integrator a step
/// is taken with.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/time_axis.hpp"
#include "novamd/io/config.hpp"

namespace novamd::app {

/// The steps first_step + 1 .. last_step, taken with `integrator` (a stage's, or the config's
/// for a run without stages: one span without end).
struct StageSpan {
  std::size_t index = 0;  ///< the stage's place, from 0
  std::int64_t first_step = 0;
  std::int64_t last_step = std::numeric_limits<std::int64_t>::max();
  const io::RunStage* stage = nullptr;  ///< none: a run without stages
  const integrate::IntegratorSettings* integrator = nullptr;
};

/// Every stage's span in order; one span for a run without stages.
std::vector<StageSpan> stage_spans(const io::Config& config);

/// The span that takes the step after `step`; the last span past the stages' end.
StageSpan span_after(const io::Config& config, std::int64_t step);

/// "stage 2 of 3, steps 10001 to 30000: bussi, T 300 K" (ramps: "T 100 to 300 K").
std::string describe_stage(const StageSpan& span, const io::Config& config);

/// The time axis at `first_step`: step x the timestep of the span that takes the next step, or
/// `saved` (a checkpoint's) continued with that timestep.
core::TimeAxis starting_time_axis(const io::Config& config, std::int64_t first_step,
                                  const std::optional<core::TimeAxis>& saved);

/// Whether time stays step x one timestep from `first_step` to the run's end: the starting axis
/// counts from step 0 and every later stage keeps its timestep.
bool keeps_one_timestep(const io::Config& config, std::int64_t first_step,
                        const std::optional<core::TimeAxis>& saved);

/// Whether two integrator settings make the same integrator.
bool same_integrator(const integrate::IntegratorSettings& a,
                     const integrate::IntegratorSettings& b);

}  // namespace novamd::app
