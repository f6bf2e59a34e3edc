#include "novamd/app/step_loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "novamd/app/console.hpp"
#include "novamd/app/rank_agreement.hpp"
#include "novamd/app/run_health.hpp"
#include "novamd/app/stop_signals.hpp"
#include "novamd/core/error.hpp"

namespace novamd::app {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kWalltimeStop = 1;  ///< a stop request that is no signal (signal numbers are > 1)

/// Stops before the wall-clock limit: when the time left would not hold two more steps at the
/// mean pace so far and the longest checkpoint write so far, plus a 1% (at most a minute) margin.
class WalltimeGuard {
 public:
  WalltimeGuard(std::optional<double> limit, Clock::time_point started)
      : limit_(limit), start_(started) {}
  void record_checkpoint(double seconds) { checkpoint_ = std::max(checkpoint_, seconds); }
  bool should_stop(std::int64_t steps_done) const {
    if (!limit_ || steps_done == 0) return false;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double per_step =
        std::chrono::duration<double>(now - loop_start_).count() / static_cast<double>(steps_done);
    const double margin = std::min(0.01 * *limit_, 60.0);
    return elapsed + 2.0 * per_step + checkpoint_ + margin >= *limit_;
  }

 private:
  std::optional<double> limit_;
  Clock::time_point start_;
  Clock::time_point loop_start_ = Clock::now();
  double checkpoint_ = 0.0;
};

/// Why to stop after this step, agreed by every rank (the largest reason over the ranks): a
/// signal's number, 1 for the wall-clock limit, 0 to go on.
int stop_request(const RunContext& run, const StopSignals& signals, const WalltimeGuard& walltime,
                 std::int64_t steps_done) {
  int reason = signals.received();
  if (reason == 0 && walltime.should_stop(steps_done)) reason = kWalltimeStop;
  return run.communicator ? run.communicator->max(reason, parallel::Group::World) : reason;
}

/// Writes the checkpoint after `step` and times it.
void checkpoint(RunContext& run, std::int64_t step, WalltimeGuard& walltime, RunResult& result) {
  const auto start = Clock::now();
  prepare_checkpoint(run.integrator, run.backend);  // completing: a no-op, the step was read
  run.write_checkpoint(step);
  walltime.record_checkpoint(std::chrono::duration<double>(Clock::now() - start).count());
  ++result.checkpoints;
}

/// Whether the barostat (if any) samples the state after `step` (Barostat::samples_after).
bool pressure_due(const RunContext& run, std::int64_t step) {
  const auto* barostat = run.integrator.barostat();
  return barostat && barostat->samples_after(step);
}

/// The pressure and energy after `step` for the barostat, where it samples them then (the step
/// computed its energies).
void measure_pressure(RunContext& run, std::int64_t step) {
  if (!pressure_due(run, step)) return;
  run.integrator.barostat()->sample(run.outputs.pressure_sample(run.backend, run.integrator));
}

/// Whether the barostat (if any) queues the state after `step` (Barostat::queues_after).
bool queue_due(const RunContext& run, std::int64_t step) {
  const auto* barostat = run.integrator.barostat();
  return barostat && barostat->queues_after(step);
}

/// The barostat's queuing after `step`, where due.
void queue_pressure(RunContext& run, std::int64_t step) {
  if (queue_due(run, step)) run.integrator.barostat()->after_step(run.backend, step);
}

/// Whether the barostat (if any) leaves its samples on the device (Barostat::defers_samples).
bool samples_deferred(const RunContext& run) {
  const auto* barostat = run.integrator.barostat();
  return barostat && barostat->defers_samples();
}

/// Step 0 of a fresh run: forces, output, and the integrator's start.
void start_fresh(RunContext& run, std::int64_t last_step, const StepLimit& limit,
                 RunResult& result) {
  run.backend.compute_forces(backend::EnergyRequest::Compute);
  stop_if_unstable(run.backend, 0, limit, run.config, run.integrator.timestep());
  result.initial = result.final =
      run.outputs.write_due(0, last_step == 0, run.backend, run.integrator);
  if (result.initial && run.console) print_thermo_row(*result.initial);
  queue_pressure(run, 0);
  measure_pressure(run, 0);
  run.integrator.start(run.backend);
}

/// Whether a callback is due after `step`.
bool callback_due(const RunContext& run, std::int64_t step) {
  return std::any_of(run.callbacks.begin(), run.callbacks.end(),
                     [step](const StepCallback& c) { return step % c.every == 0; });
}

void call_callbacks(const RunContext& run, std::int64_t step) {
  for (const auto& c : run.callbacks)
    if (step % c.every == 0) c.call(step);
}

}  // namespace

void prepare_checkpoint(integrate::Integrator& integrator, backend::Backend& backend) {
  integrator.complete_step(backend);
  if (auto* barostat = integrator.barostat()) barostat->prepare_checkpoint(backend);
}

RunResult run_simulation(RunContext& run, std::int64_t first_step, LoopStart from) {
  const auto& config = run.config;
  const std::int64_t last = run.last_step;
  const bool restarted = from != LoopStart::Fresh;
  const auto& checkpoints = config.output.checkpoint;
  RunResult result;
  result.first_step = result.last_step = first_step;
  std::optional<StopSignals> own_signals;
  const StopSignals& signals = run.signals ? *run.signals : own_signals.emplace();
  WalltimeGuard walltime(config.run.walltime, run.started);

  const StepLimit limit = step_limit(config, run.backend.box());
  if (from != LoopStart::Continuation && run.console) print_thermo_table_header(config.units);
  if (!restarted) start_fresh(run, last, limit, result);
  // run.steps = 0 evaluates the initial state: its checkpoint holds the step-0 forces.
  if (!restarted && last == 0 && checkpoints.configured) checkpoint(run, 0, walltime, result);
  // A restart starts the analyses anew; a continuation sampled this step at the end of its loop.
  if (from != LoopStart::Continuation) run.analysis.after_step(first_step, run.backend);

  ProgressLine progress(first_step, last,
                        run.console && (!run.communicator || run.communicator->rank() == 0));
  const auto start = Clock::now();
  for (std::int64_t step = first_step + 1; step <= last; ++step) {
    const bool last_step = step == last;
    const bool pressure = pressure_due(run, step);
    const bool thermo_due = run.outputs.energy_due(step, last_step);
    const bool queued = queue_due(run, step);
    const bool energy_due = thermo_due || pressure || queued;
    const bool checkpoint_due = (checkpoints.every > 0 && step % checkpoints.every == 0) ||
                                (last_step && checkpoints.configured);
    const bool check_due = step % run.backend.check_interval() == 0;
    const bool output_due = run.outputs.any_due(step, last_step);
    // Where nothing reads this step's state, the integrator may leave its closing kick to the
    // next step (a stop request completes it before the checkpoint below).
    const bool called = callback_due(run, step);
    const bool read =
        last_step || energy_due || checkpoint_due || check_due || output_due || called;
    // (energy_due includes a barostat's sampled step: it reads the velocities too)
    // A barostat's sample needs the energy and virial sums alone; a thermo row each term's.
    const auto energy = thermo_due           ? backend::EnergyRequest::Compute
                        : pressure || queued ? backend::EnergyRequest::Totals
                                             : backend::EnergyRequest::Skip;
    if (run.ramp) run.integrator.set_temperature(run.ramp->at(step));
    run.integrator.step(run.backend, step, energy,
                        read ? integrate::StepEnd::Read : integrate::StepEnd::Continued);
    // Checked at the backend's interval, and before anything is written: no file gets garbage.
    if (check_due || checkpoint_due || output_due)
      stop_if_unstable(run.backend, step, limit, config, run.integrator.timestep());
    result.last_step = step;
    queue_pressure(run, step);
    // A deferred sample is read on the host only where a checkpoint must keep it.
    if (pressure && (checkpoint_due || !samples_deferred(run))) measure_pressure(run, step);
    if (const auto state = run.outputs.write_due(step, last_step, run.backend, run.integrator)) {
      progress.clear();
      if (run.console) print_thermo_row(*state);
      if (!result.initial) result.initial = state;
      result.final = state;
    }
    run.analysis.after_step(step, run.backend);
    if (checkpoint_due) checkpoint(run, step, walltime, result);
    if (called) {
      progress.clear();
      call_callbacks(run, step);
    }
    const int stop = last_step ? 0 : stop_request(run, signals, walltime, step - first_step);
    if (stop != 0) {
      progress.clear();
      result.signal = stop != kWalltimeStop ? stop : 0;
      result.reason = result.signal != 0 ? StopReason::Signal : StopReason::Walltime;
      run.integrator.complete_step(run.backend);  // the state stays whole for what follows
      if (!checkpoint_due && run.checkpoint_on_stop) {
        stop_if_unstable(run.backend, step, limit, config,
                         run.integrator.timestep());  // a checkpoint must be sound
        if (pressure && samples_deferred(run)) measure_pressure(run, step);  // for the checkpoint
        checkpoint(run, step, walltime, result);
      }
      break;
    }
    progress.update(step);
  }
  progress.clear();
  if (run.finish_analysis)
    result.analysis = run.analysis.finish();
  else
    run.analysis.flush();
  if (const auto* barostat = run.integrator.barostat()) result.barostat = barostat->summary();
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.thermo_rows = run.outputs.thermo_rows();
  result.trajectory_frames = run.outputs.trajectory_frames();
  return result;
}

}  // namespace novamd::app
