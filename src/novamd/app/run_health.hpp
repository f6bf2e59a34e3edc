#pragma once
/// @file run_health.hpp
/// The checks that stop a run going wrong instead of letting it write garbage and exit 0:
/// every particle's state finite and its one-step displacement bounded (checked every
/// Backend::check_interval() steps, in the backend's existing reduction), and the thermo
/// energies finite and the conserved energy within `run.max_energy_drift` of its first value
/// (checked where a thermo or console row computes them anyway). A failed check throws
/// CollectiveRunError: every rank meets it at the same step; exit code 1.

#include <cstdint>
#include <optional>
#include <string>

#include "novamd/analysis/thermo.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/core/box.hpp"
#include "novamd/io/config.hpp"

namespace novamd::app {

/// How far a particle may move in one step before the run stops: half the neighbour-list skin
/// where a force term uses Verlet lists (a larger step can carry a pair inside the cutoff
/// unseen between list checks), and in any case a tenth of the shortest box edge.
struct StepLimit {
  double displacement = 0.0;
  std::string basis;  ///< "half the neighbour skin 0.3" or "a tenth of the shortest box edge 10"
};

/// The step limit of a run of `config` in `box` (box lengths in the config's units).
StepLimit step_limit(const io::Config& config, const core::Box& box);

/// Stops the run (CollectiveRunError naming the step, particle and a likely cause) if a
/// particle's state is not finite or it moved further than `limit` in one step of `timestep`
/// (the integrator's: a stage may take another than integrator.timestep).
void stop_if_unstable(backend::Backend& backend, std::int64_t step, const StepLimit& limit,
                      const io::Config& config, double timestep);

/// Watches the thermo energies of a run: call check() with every state computed, before it is
/// written.
class EnergyWatch {
 public:
  explicit EnergyWatch(std::optional<double> max_drift) : max_drift_(max_drift) {}

  /// @throws CollectiveRunError if an energy, the temperature or the pressure is not finite, or
  /// the conserved energy drifted from its first value by more than max_drift times the scale
  /// of the first state: the largest of |E_conserved|, |U| and K there.
  /// `timestep`: the run's now, named in the message as a likely cause.
  void check(const analysis::ThermoState& state, const io::Config& config, double timestep);

  /// The next state checked is the first again (a new conserved quantity).
  void restart() { first_conserved_.reset(); }

  /// |E_conserved - E_conserved(first)| / scale (0 before the first state or for a zero scale).
  double relative_drift(const analysis::ThermoState& state) const;

 private:
  std::optional<double> max_drift_;
  std::optional<double> first_conserved_;
  std::int64_t first_step_ = 0;
  double scale_ = 0.0;
};

}  // namespace novamd::app
