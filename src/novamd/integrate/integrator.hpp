#pragma once
/// @file integrator.hpp
/// An integrator advances the state by one step as a composition of splitting operators
/// (splitting.hpp) run on the backend's step operations, and reports what the thermo output
/// needs: the degrees of freedom, the kinetic energy at the step, and the energy its thermostat
/// has exchanged with the system, so that total energy + thermostat energy is the conserved
/// quantity of the scheme (constant up to integration error).

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "novamd/core/units.hpp"
#include "novamd/integrate/barostat.hpp"
#include "novamd/integrate/degrees_of_freedom.hpp"
#include "novamd/integrate/integrator_settings.hpp"
#include "novamd/integrate/integrator_state.hpp"
#include "novamd/integrate/splitting.hpp"
#include "novamd/integrate/step_operations.hpp"

namespace novamd::integrate {

class Integrator {
 public:
  /// `dt`: the time step; `system`: what the degrees of freedom are made of; `splitting`: the
  /// operators of one step, in order.
  Integrator(double dt, const SystemFreedom& system, Splitting splitting)
      : dt_(dt), system_(system), splitting_(std::move(splitting)) {}
  virtual ~Integrator() = default;

  /// The config name (velocity_verlet, leapfrog, langevin, nose_hoover, bussi).
  virtual std::string name() const = 0;
  /// The operators of one step, in order.
  const Splitting& splitting() const { return splitting_; }

  /// Called once at the start of a fresh run (not a restart), after the step-0 forces and
  /// output: leapfrog moves its velocities back by half a step here.
  virtual void start(StepOperations&) {}
  /// Advances from step - 1 to `step` by running the splitting; forces are current on entry
  /// and on exit. `energy`: whether this step's output reads energies. `end`: whether anything
  /// reads the state after this step (StepEnd); where nothing does, a splitting that ends and
  /// begins with a kick leaves its closing kick to the next step's opening one (one kick and one
  /// velocity condition between two force evaluations, where there were two of each), and the
  /// velocities stay half a kick short until the next step() or complete_step().
  void step(StepOperations& ops, std::int64_t step, EnergyRequest energy,
            StepEnd end = StepEnd::Read);
  /// Applies a closing kick that step() left to the next step (none: nothing to do), so that the
  /// velocities are the step's own: before anything reads the state after a step run with
  /// StepEnd::Continued.
  void complete_step(StepOperations& ops);

  /// Degrees of freedom for the temperature: 3N minus constraints, minus 3 where the scheme
  /// conserves the total momentum (at zero), plus rigid molecules' rotations.
  double degrees_of_freedom() const {
    return integrate::degrees_of_freedom(system_, conserves_momentum());
  }
  /// The rotations' share of them (rigid molecules; 0 otherwise).
  double rotational_degrees_of_freedom() const { return static_cast<double>(system_.rotations); }
  /// The kinetic energy to report after a step with energies, given the backend's (leapfrog
  /// reports the mean of the two half steps around the step).
  virtual double reported_kinetic_energy(double backend_kinetic) const { return backend_kinetic; }
  /// Energy the thermostat has taken out of the system since the start of the run, so that
  /// total energy + this is conserved; 0 for NVE.
  virtual double thermostat_energy(StepOperations&) { return 0.0; }

  /// Runs at constant pressure: `barostat` moves the box at the start or before the force
  /// evaluation of each step it moves at (Barostat::moves_at, Barostat::move_point).
  void attach_barostat(std::unique_ptr<Barostat> barostat) { barostat_ = std::move(barostat); }
  /// The barostat, if any (the step loop samples the state for it).
  Barostat* barostat() const { return barostat_.get(); }
  /// What the conserved quantity adds to the total energy at volume `volume`: the thermostat's
  /// energy, and with a barostat P0 V less the energy its moves put in.
  double reservoir_energy(StepOperations& ops, double volume) {
    const double thermostat = thermostat_energy(ops);
    return barostat_ ? thermostat + barostat_->pressure_volume(volume) - barostat_->energy()
                     : thermostat;
  }

  /// Sets the thermostat's target k_B T (energy units) for the steps to come: a temperature
  /// ramp. The thermostats keep their coupling (friction, tau, the chain's masses).
  /// @throws core::RunError for an integrator without a thermostat.
  virtual void set_temperature(double kT);

  /// The time step it integrates with.
  double timestep() const { return dt_; }

  /// The integrator's own variables, for a checkpoint.
  virtual IntegratorState save() const { return {name(), {}}; }
  /// Continues from saved variables. @throws core::InputError when they do not fit.
  virtual void restore(const IntegratorState&) {}

 protected:
  double dt() const { return dt_; }
  /// False for schemes whose thermostat does not conserve the total momentum (Langevin).
  virtual bool conserves_momentum() const { return true; }
  /// The O stage: the `index`-th thermostat stage of this step (0, 1, ...), over `dt` (the
  /// stage's share of the time step).
  virtual void thermostat(StepOperations&, std::int64_t /*step*/, double /*dt*/, int /*index*/) {}
  /// The O stage followed by the drift (A) over `drift_dt`: the two passes, or one where the
  /// scheme fuses them (Langevin).
  virtual void thermostat_then_drift(StepOperations& ops, std::int64_t step, double dt, int index,
                                     double drift_dt, VelocityCondition after) {
    thermostat(ops, step, dt, index);
    ops.drift(drift_dt, after);
  }
  /// A (first_dt), O (the `index`-th thermostat stage, over `dt`), A (second_dt, ending with
  /// `after`): the three passes, or one where the scheme fuses them (Langevin).
  virtual void drift_thermostat_drift(StepOperations& ops, std::int64_t step, double first_dt,
                                      double dt, int index, double second_dt,
                                      VelocityCondition after) {
    ops.drift(first_dt, VelocityCondition::Apply);  // a thermostat reads the velocities next
    thermostat_then_drift(ops, step, dt, index, second_dt, after);
  }
  /// The M stage: the `index`-th measuring point of this step.
  virtual void measure(StepOperations&, EnergyRequest, int /*index*/) {}
  /// The D stage over `dt` (the stage's share of the time step): the box and positions dilated.
  virtual void dilate(StepOperations&, double /*dt*/) {}
  /// D (first_dt), A (drift_dt, ending with `after`), D (second_dt): the three passes, or fewer
  /// where the scheme composes the dilations (MTTK, isotropic on particles).
  virtual void dilate_drift_dilate(StepOperations& ops, double first_dt, double drift_dt,
                                   double second_dt, VelocityCondition after) {
    dilate(ops, first_dt);
    ops.drift(drift_dt, after);
    dilate(ops, second_dt);
  }
  /// Whether step `step`'s force evaluation computes the virial (a scheme that reads the
  /// pressure after it: MTTK, at the end of each block of its `every` steps).
  virtual bool computes_virial_at(std::int64_t /*step*/) const { return false; }

 private:
  /// The velocity condition after the drift at stage k: deferred where the next stage that
  /// touches the velocities (a force evaluation does not) is a kick that applies it itself (not
  /// one fused with a drift).
  VelocityCondition condition_after_drift(std::size_t k) const;
  /// Whether stages k, k + 1 and k + 2 are A, O and A.
  bool drift_thermostat_drift_at(std::size_t k) const;

  /// Whether the splitting ends with a kick and begins with one, which step() may then join.
  bool joins_kicks() const;

  double dt_;
  SystemFreedom system_;
  Splitting splitting_;
  double pending_kick_ = 0.0;  ///< the closing kick's time left to the next step (0: none)
  std::unique_ptr<Barostat> barostat_;
};

/// The integrator `settings` ask for; `seed` keys the random streams of stochastic thermostats;
/// `system`: what the degrees of freedom are made of; `barostat` of type mttk makes nose_hoover
/// the MTTK scheme (integrate/mttk.hpp), with `scaled` its N and tail correction.
std::unique_ptr<Integrator> make_integrator(const IntegratorSettings& settings,
                                            const core::UnitSystem& units, std::uint64_t seed,
                                            const SystemFreedom& system,
                                            const BarostatSettings& barostat = {},
                                            const ScaledSystem& scaled = {});

}  // namespace novamd::integrate
