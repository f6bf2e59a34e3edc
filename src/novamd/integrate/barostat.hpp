#pragma once
/// @file barostat.hpp
/// Constant pressure: a barostat changes the box every `every` steps. Stochastic cell rescaling
/// moves it just before that step's force evaluation (Integrator::step), from the pressure the
/// step loop sampled at the end of the step before: the positions scale with the box
/// edges, the velocities inversely, and the step's forces are then evaluated at the new
/// positions as usual, so a move costs no force evaluation of its own. The Monte Carlo barostat
/// (monte_carlo_barostat.hpp) tries a volume change at the start of the step, from the energy
/// sampled at the end of the step before, and keeps or undoes it. The steps the step loop
/// samples after (samples_after) compute their energies.
///
/// The conserved quantity of a run at constant pressure is K + U + P0 V plus the energy the
/// thermostat has taken out, minus the energy the barostat's moves have put in (energy()).

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/units.hpp"
#include "novamd/integrate/integrator_state.hpp"
#include "novamd/integrate/step_operations.hpp"

namespace novamd::integrate {

/// How the box edges move together.
enum class PressureCoupling {
  Isotropic,      ///< one factor for all three edges, from the scalar pressure
  SemiIsotropic,  ///< x and y together (from (P_xx + P_yy) / 2), z on its own
  Anisotropic,    ///< each edge from its own diagonal component (the box stays orthorhombic)
};

/// `barostat: {type, pressure, period, compressibility, coupling, every}` (docs/config.md), in
/// the run's units; `pressure` and `compressibility` already in energy per length^3 and its
/// inverse.
struct BarostatSettings {
  std::string type;  ///< c_rescale, monte_carlo or mttk (integrate/mttk.hpp)
  double pressure = 0.0;
  double period = 0.0;           ///< c_rescale: tau_p, the relaxation time of the volume
  double compressibility = 0.0;  ///< c_rescale: beta_T, the isothermal compressibility's estimate
  PressureCoupling coupling = PressureCoupling::Isotropic;
  std::int64_t every = 10;  ///< steps between moves
};

/// The virial tensor (energy) of what a barostat moves and the potential energy, tail
/// corrections included, at the end of a step (Barostat::sample).
struct PressureSample {
  core::SymmetricTensor<double> virial;
  double potential_energy = 0.0;
};

/// What a barostat moves: the particles, or the molecules' centres (the molecules rigid or
/// held by constraints keep their shape); `count` of them (the N of the isobaric ensemble's
/// V^N), and the tail correction's energy and virial times the volume (at a volume V the
/// potential energy adds tail_energy_volume / V, the virial tail_virial_volume / V).
struct ScaledSystem {
  std::int64_t count = 0;
  double tail_energy_volume = 0.0;
  double tail_virial_volume = 0.0;
  bool molecules = false;  ///< whether `count` counts molecules (moved by their centres)
};

/// Where in a step a barostat moves the box.
enum class MovePoint {
  StepStart,     ///< before the step's first stage, where the forces of the last step are current
  BeforeForces,  ///< just before the step's force evaluation
};

class Barostat {
 public:
  explicit Barostat(const BarostatSettings& settings) : settings_(settings) {}
  virtual ~Barostat() = default;

  /// The config name (c_rescale, monte_carlo).
  virtual std::string name() const = 0;
  const BarostatSettings& settings() const { return settings_; }

  /// Whether `step` moves the box (every `every` steps), and where in the step.
  bool moves_at(std::int64_t step) const { return step > 0 && step % settings_.every == 0; }
  virtual MovePoint move_point() const = 0;
  /// Whether the step loop samples the state after `step` (that step computes its energies).
  virtual bool samples_after(std::int64_t step) const = 0;
  /// The state at the end of a step that samples_after names.
  virtual void sample(const PressureSample& sample) = 0;
  /// Whether the step loop may leave a sampled step's state on the device, the barostat
  /// reading what it needs at its move (StepOperations::queue_potential_energy): the loop then
  /// calls sample() only where a checkpoint follows the step.
  virtual bool defers_samples() const { return false; }
  /// Moves the box at `step` (through `ops`); nothing where no sample came since the last move.
  virtual void move(StepOperations& ops, std::int64_t step) = 0;
  /// Whether the barostat queues the state after `step` where the particles are (after_step:
  /// that step computes its energies), and the queuing itself.
  virtual bool queues_after(std::int64_t) const { return false; }
  virtual void after_step(StepOperations&, std::int64_t) {}
  /// Brings what after_step queued where the particles are into the barostat's own variables,
  /// before a checkpoint saves them.
  virtual void prepare_checkpoint(StepOperations&) {}

  /// A line for the run's summary (empty: nothing to say).
  virtual std::string summary() const { return {}; }

  /// The energy the moves have put into K + U + P0 V (see each barostat).
  double energy() const { return energy_; }
  /// P0 V: the enthalpy's share of the conserved quantity, at volume `volume`.
  double pressure_volume(double volume) const { return settings_.pressure * volume; }

  /// The barostat's variables (the energy first), for a checkpoint.
  IntegratorState save() const;
  /// @throws core::InputError when the state does not fit.
  void restore(const IntegratorState& state);

 protected:
  void add_energy(double work) { energy_ += work; }
  /// The variables after the energy, and how many there are.
  virtual std::vector<double> save_variables() const = 0;
  virtual std::size_t variable_count() const = 0;
  virtual void restore_variables(const double* values) = 0;

 private:
  BarostatSettings settings_;
  double energy_ = 0.0;
};

/// Stochastic cell rescaling (Bernetti and Bussi, J. Chem. Phys. 153, 114107 (2020); the form
/// of the GROMACS reference manual). The logarithm of the volume, eps = ln V, follows the Ito
/// equation
///
///     d eps = -(beta_T / tau_p) (P0 - P) dt + sqrt(2 kT beta_T / (V tau_p)) dW
///
/// (P: the instantaneous pressure, its kinetic part from the particles' velocities, which the
/// move scales; kT: the thermostat's), which samples V^(N+1) exp(-(U + P0 V) / kT) in eps; it is
/// integrated over each move's interval dt = every x time step by one Euler-Maruyama step (from
/// the interval's mean pressure, below), and every edge is scaled by exp(d eps / 3). (In V or in L
/// itself, the Ito correction adds a kT / V to the drift.) Semi-isotropic coupling moves ln(L_x
/// L_y) and ln L_z, anisotropic coupling each ln L_a, by the same equation with the pressure along
/// their own axes (the mean of P_xx and P_yy, or P_aa) and their share of the volume's freedom (2/3
/// and 1/3, or 1/3 each) in the drift and in the noise's variance. The noise is drawn from the
/// counter-based stream (seed, Barostat, axis, step): every backend and a restart draw the same.
///
/// The pressure a move takes is the mean over the interval before it: the pressure after every
/// sample_spacing()-th step counted back from the step before the move (at most kPressureSlots
/// of them), queued where the particles are (StepOperations::queue_pressure_parts; on the GPU
/// without a wait) and read at the move together with the kinetic tensor the move scales (one
/// wait). The
/// instantaneous pressure of a liquid fluctuates quickly (in water by some 500 bar within tens
/// of femtoseconds); one sample per move passes that fluctuation into the Euler step as noise of
/// its own, (beta_T dt / tau_p)^2 var(P) a move, which the equation's noise term does not allow
/// for: rigid water at a move every 100 steps of 2 fs and tau_p = 2 ps fluctuated in volume by a
/// third more than the ensemble's (beta_T 60 against 45 1e-6/bar; 49 +- 2 with the mean). The
/// samples' kinetic part is the velocities' at the step's end as they are (leapfrog's half-step
/// mean, which the thermo's pressure takes, is not applied here).
class StochasticCellRescale final : public Barostat {
 public:
  StochasticCellRescale(const BarostatSettings& settings, double dt, double kT, std::uint64_t seed,
                        const ScaledSystem& scaled = {})
      : Barostat(settings), dt_(dt), kT_(kT), seed_(seed), scaled_(scaled) {}
  std::string name() const override { return "c_rescale"; }
  MovePoint move_point() const override { return MovePoint::BeforeForces; }

  /// Steps between the pressure's samples: every / kPressureSlots, rounded up.
  std::int64_t sample_spacing() const {
    return (settings().every + kPressureSlots - 1) / kPressureSlots;
  }
  /// The slot of the sample after `step` (0 the earliest of its interval), or -1.
  int pressure_slot(std::int64_t step) const;
  bool queues_after(std::int64_t step) const override { return pressure_slot(step) >= 0; }
  void after_step(StepOperations& ops, std::int64_t step) override;
  void prepare_checkpoint(StepOperations& ops) override;

  /// After each move's step: the virial at the moved positions, which completes the move's
  /// account of U (the trapezoid's second end; with the first end stale by `every` steps
  /// instead, the account drifted by 10 times more in the LJ liquid).
  bool samples_after(std::int64_t step) const override { return moves_at(step); }
  void sample(const PressureSample& sample) override;
  /// Scales the box, the positions and the velocities; adds to energy() what the move does to
  /// K + U + P0 V: K's and P0 V's changes exactly, U's by the trapezoid rule,
  /// -sum_a (W_aa + W'_aa) / 2 d ln L_a with the virials of the last sample before the move and
  /// of the one after it (exact to second order in the move; first order alone left a drift of
  /// some 0.1 kT a move in a liquid, from U's curvature).
  void move(StepOperations& ops, std::int64_t step) override;

  /// The logarithms of the three edges' scaling factors for a move at `step` from the pressure
  /// tensor `P` (the box's volume `volume`); `step` keys the random draws.
  core::Vec3<double> log_scaling(const core::SymmetricTensor<double>& P, double volume,
                                 std::int64_t step) const;

 private:
  /// A sample's pressure and virial, tail correction included, at volume `volume`.
  struct Sample {
    core::SymmetricTensor<double> pressure, virial;
  };
  Sample sample_of(const KineticAndVirial& parts, double volume) const;
  /// Each queued slot's sample: those brought in before a checkpoint (pulled_) as kept, the
  /// others from `queued`.
  Sample slot_sample(int slot, const QueuedPressureParts& queued, double volume) const;
  int slot_count() const;

  std::vector<double> save_variables() const override;
  std::size_t variable_count() const override;
  void restore_variables(const double* values) override;

  double dt_, kT_;
  std::uint64_t seed_;
  ScaledSystem scaled_;
  std::uint32_t filled_ = 0;  ///< bit k: slot k holds a sample of this interval
  std::uint32_t pulled_ = 0;  ///< bit k: slot k's sample is in kept_[k] (prepare_checkpoint)
  std::array<Sample, kPressureSlots> kept_{};
  core::Vec3<double> moved_log_{};  ///< ln of the last move's factors, until the next sample
  bool moved_ = false;
};

/// The barostat `settings` ask for (none where settings.type is empty, and for mttk, which the
/// integrator is: make_integrator); `dt`: the time step;
/// `kT`: the thermostat's temperature in energy units; `scaled`: what a Monte Carlo move scales.
std::unique_ptr<Barostat> make_barostat(const BarostatSettings& settings, double dt, double kT,
                                        std::uint64_t seed, const ScaledSystem& scaled = {});

}  // namespace novamd::integrate
