#pragma once
/// @file step_loop.hpp
/// The MD loop: integrate, check, write output and checkpoints when due, and stop cleanly on a
/// signal or before the wall-clock limit.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "novamd/analysis/thermo.hpp"
#include "novamd/app/analyzer.hpp"
#include "novamd/app/run_outputs.hpp"
#include "novamd/app/stop_signals.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/io/config.hpp"
#include "novamd/parallel/communicator.hpp"

namespace novamd::app {

/// Why the loop ended.
enum class StopReason { Completed, Signal, Walltime };

struct RunResult {
  std::int64_t first_step = 0;  ///< the step the loop started from (0, or a checkpoint's)
  std::int64_t last_step = 0;   ///< the last step taken
  double wall_seconds = 0.0;
  /// The simulated time from first_step to last_step (stages of other timesteps each add their
  /// own; run_through_stages fills it).
  double simulated_time = 0.0;
  std::optional<analysis::ThermoState> initial, final;
  std::int64_t thermo_rows = 0;
  std::int64_t trajectory_frames = 0;
  std::int64_t checkpoints = 0;
  std::vector<std::string> analysis;  ///< the analyses' summary lines
  std::string barostat;               ///< the barostat's summary line (empty: none)
  StopReason reason = StopReason::Completed;
  int signal = 0;  ///< the signal that stopped the run
  std::int64_t steps() const { return last_step - first_step; }
};

/// A library user's function called after every `every`-th step, with the step; the state is
/// complete then (the integrator's closing kick done), so it may be read.
struct StepCallback {
  std::int64_t every = 1;
  std::function<void(std::int64_t)> call;
};

/// Where the loop starts: a fresh run (forces and output of step 0 first), a restart from a
/// checkpoint (the restored forces are current; the analyses start anew), or a continuation of
/// an earlier loop of the same simulation (a library user's next `run`: nothing is repeated, and
/// the analyses go on).
enum class LoopStart { Fresh, Restart, Continuation };

/// A thermostat's target going linearly from kT_first at step first_step to kT_last at
/// last_step (a stage's `temperature: [T0, T1]`).
struct TemperatureRamp {
  std::int64_t first_step = 0, last_step = 0;
  double kT_first = 0.0, kT_last = 0.0;
  /// The target for the step that ends at `step`.
  double at(std::int64_t step) const {
    if (last_step <= first_step) return kT_last;
    const double f = std::clamp(
        static_cast<double>(step - first_step) / static_cast<double>(last_step - first_step), 0.0,
        1.0);
    return kT_first + (kT_last - kT_first) * f;
  }
};

/// What the loop needs besides the config: the state's owners and where checkpoints go.
struct RunContext {
  const io::Config& config;
  backend::Backend& backend;
  integrate::Integrator& integrator;
  RunOutputs& outputs;
  app::Analyzer& analysis;  ///< samples after every step (it does nothing when none is set)
  /// Writes a checkpoint of the state after the given step.
  std::function<void(std::int64_t)> write_checkpoint;
  /// When the process started work: run.walltime counts from here.
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  /// The ranks of a decomposed run (none: one rank). They stop at the same step; only rank 0
  /// prints progress.
  const parallel::Communicator* communicator = nullptr;
  /// SIGTERM and SIGINT, installed before the run wrote anything (none: installed here).
  const StopSignals* signals = nullptr;
  /// The last step to take (config.run.steps for the command line).
  std::int64_t last_step = 0;
  /// Called after their steps (none for the command line).
  std::vector<StepCallback> callbacks;
  /// Whether a stop by a signal or the wall-clock limit writes a checkpoint (always for the
  /// command line; a library user's run writes one only where output.checkpoint asks for it).
  bool checkpoint_on_stop = true;
  /// Whether the analyses write their final averages and close their files at the end (false:
  /// they flush them, and a later loop goes on sampling).
  bool finish_analysis = true;
  /// Whether the thermo table and the progress line are printed (rank 0).
  bool console = true;
  /// The thermostat's target through the loop (none: the integrator's own, constant).
  std::optional<TemperatureRamp> ramp;
};

/// Makes the state now whole for a checkpoint: the integrator's step completed and a barostat's
/// samples brought to the host.
void prepare_checkpoint(integrate::Integrator& integrator, backend::Backend& backend);

/// Runs from step `first_step` to run.last_step (on every rank of a decomposed run), starting as
/// `from` says.
RunResult run_simulation(RunContext& run, std::int64_t first_step, LoopStart from);

}  // namespace novamd::app
