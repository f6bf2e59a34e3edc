#pragma once
/// @file step_operations.hpp
/// The operations an integrator composes into a step: kick (B), drift (A), the thermostats'
/// velocity updates (O) and the force evaluation. A backend implements them where the particles
/// live (backend::Backend derives from this interface), so integrators know no backend and the
/// backends include the per-particle updates of this room, not the integrators.

#include <array>
#include <stdexcept>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/integrate/velocity_noise.hpp"

namespace novamd::integrate {

/// Whether a drift with held distances (constraints) ends with their velocity condition
/// (RATTLE's second half). Deferred where the next stage to touch the velocities is a kick that
/// ends with the condition itself at the same positions (a force evaluation between does not
/// read them; a kick fused with the next drift does not apply it): the projection P is linear
/// and idempotent, so P(P v + b) = P(v + b), and the velocities after the kick are the same to
/// rounding (to the solver's convergence for coupled sets). Applied before anything else that reads
/// them: a measurement, a thermostat (whose heat would count the radial velocity a drift's
/// correction leaves, drifting a Langevin run's conserved energy at first order in the time step),
/// the step's end.
enum class VelocityCondition { Apply, Deferred };

/// Whether anything reads the state after a step (output, a checkpoint, a state check, the run's
/// end: Read), or the next step follows at once (Continued: the integrator may leave the step's
/// closing kick to the next step's opening one, Integrator::step). Positions and forces are the
/// step's own either way. Kicks join exactly in exact arithmetic: B(a) P B(b) P = B(a + b) P for
/// the velocity condition's projection P at fixed positions (linear and idempotent, as for
/// VelocityCondition), so a run's trajectory depends on its output steps only by rounding.
enum class StepEnd { Read, Continued };

/// Whether a force evaluation also computes the potential energy and virial (needed only at
/// thermo steps and where a barostat reads them; a backend may skip them otherwise). Totals:
/// their sums alone (a barostat's pressure or trial energy, MTTK's virial), which a backend may
/// compute in fewer passes; Compute: each force term's energy as well (a thermo row's columns).
enum class EnergyRequest { Skip, Totals, Compute };

/// Slots for a barostat's samples between its moves (StepOperations::queue_pressure_parts).
inline constexpr int kPressureSlots = 10;

/// The parts of the pressure that a barostat moves against (no tail correction): the kinetic
/// tensor now and the virial tensor of the last force evaluation (which computed energies) of
/// what its moves scale. For particles: 1/2 sum m v_a v_b and the virial with the constraint
/// forces' share; for molecules moved by their centres (held distances): the centres' kinetic
/// tensor and the molecular virial (backend/molecule_pressure.hpp). `kinetic_energy`: the
/// particles' K either way (what a thermostat acts on).
struct KineticAndVirial {
  core::SymmetricTensor<double> kinetic, virial;
  double kinetic_energy = 0.0;
};

/// What queue_pressure_parts queued, and the moved kinetic tensor at the read.
struct QueuedPressureParts {
  std::vector<KineticAndVirial> samples;  ///< slot by slot
  core::SymmetricTensor<double> moved_kinetic;
};

class StepOperations {
 public:
  virtual ~StepOperations() = default;

  /// Evaluates every force term at the current positions: forces, and energy and virial when
  /// asked (a backend may compute them anyway).
  virtual void compute_forces(EnergyRequest energy) = 0;
  /// v += dt F / m for every particle.
  virtual void kick(double dt) = 0;
  /// x += dt v for every particle, wrapped into the box; held distances constrained, with their
  /// velocity condition as `after` says.
  virtual void drift(double dt, VelocityCondition after) = 0;
  /// kick(kick_dt) then drift(drift_dt, after), in one pass where the backend can fuse them.
  virtual void kick_drift(double kick_dt, double drift_dt, VelocityCondition after) {
    kick(kick_dt);
    drift(drift_dt, after);
  }
  /// v *= factor for every particle (global thermostats).
  virtual void scale_velocities(double factor) = 0;
  /// What a barostat's move needs (integrate/barostat.hpp): the box, the box changed with the
  /// positions scaled by the ratio of the edges axis by axis, and the velocities scaled axis by
  /// axis. Every backend provides them (backend::Backend); operations that cannot move the box
  /// (test doubles) refuse.
  virtual const core::Box& box() const { throw std::logic_error("these operations hold no box"); }
  virtual void rescale_box(const core::Box&) {
    throw std::logic_error("these operations cannot move the box");
  }
  /// v_a *= factor_a for every particle, axis by axis; where moves scale molecules by their
  /// centres, each molecule's centre-of-mass velocity instead (the motion within it untouched).
  virtual void scale_velocities_by_axis(core::Vec3<double>) {
    throw std::logic_error("these operations cannot scale velocities by axis");
  }
  /// The kinetic tensor now of what scale_velocities_by_axis scales (the particles, or the
  /// molecules' centres): a move by factors s_a changes the kinetic energy by
  /// sum_a K_aa (s_a^2 - 1).
  virtual core::SymmetricTensor<double> moved_kinetic_tensor() {
    throw std::logic_error("these operations report no kinetic tensor");
  }
  /// What a trial move needs (the Monte Carlo barostat's): the potential energy of the last
  /// evaluation (which computed energies; no tail correction), and the configuration (positions,
  /// box, forces) kept before the trial, then given back (rejected) or released (kept). Between
  /// keep and give back or release, the backend leaves the particles' storage order alone.
  virtual double potential_energy() {
    throw std::logic_error("these operations report no potential energy");
  }
  /// potential_energy() of the present evaluation kept in `slot` (0 or 1) and read, with the
  /// other slot's, by queued_potential_energies: two energies for one wait where the backend
  /// can queue the sums (a Monte Carlo try's U before the trial and U' after it).
  virtual void queue_potential_energy(int slot) { queued_energy_.at(slot) = potential_energy(); }
  virtual std::array<double, 2> queued_potential_energies() { return queued_energy_; }
  /// Whether rescale_box would take `box` (every force term's cutoff fits it).
  virtual bool takes_box(const core::Box&) const { return true; }
  virtual void keep_configuration() {
    throw std::logic_error("these operations cannot keep a configuration");
  }
  virtual void restore_configuration() {
    throw std::logic_error("these operations cannot keep a configuration");
  }
  virtual void release_configuration() {}
  /// A barostat's samples between its moves, kept where the particles are: kinetic_and_virial()
  /// now (the last evaluation computed energies) into slot `slot` (< kPressureSlots), queued
  /// without a wait where the backend can; queued_pressure_parts reads slots [0, count) and
  /// moved_kinetic_tensor() now together (one wait).
  virtual void queue_pressure_parts(int slot) { queued_parts_.at(slot) = kinetic_and_virial(); }
  virtual QueuedPressureParts queued_pressure_parts(int count) {
    return {{queued_parts_.begin(), queued_parts_.begin() + count}, moved_kinetic_tensor()};
  }
  /// What a scheme reading the pressure at every step needs (MTTK): KineticAndVirial's parts.
  virtual KineticAndVirial kinetic_and_virial() {
    throw std::logic_error("these operations report no virial");
  }
  /// The Langevin O step (velocity_noise.hpp) for every particle; each particle's kinetic-energy
  /// change is added to its share of langevin_heat().
  virtual void thermalize(const VelocityNoise& noise) = 0;
  /// thermalize(noise) then drift(drift_dt, after), in one pass where the backend can fuse them.
  virtual void thermalize_drift(const VelocityNoise& noise, double drift_dt,
                                VelocityCondition after) {
    thermalize(noise);
    drift(drift_dt, after);
  }
  /// drift(first_dt), thermalize(noise), drift(second_dt, after): BAOAB's middle (A O A), in
  /// one pass where the backend can fuse them. With held distances a backend may constrain the
  /// positions once, after the second drift, from where the first began (one SHAKE and SETTLE
  /// where there were two): the velocities before the O step met their condition (a kick ending
  /// with it came before), and the O step's own condition is then taken at the drift's start
  /// (constraints::ThermostatInDrift), its kinetic-energy change counted as heat.
  virtual void drift_thermalize_drift(double first_dt, const VelocityNoise& noise, double second_dt,
                                      VelocityCondition after) {
    drift(first_dt, VelocityCondition::Apply);
    thermalize(noise);
    drift(second_dt, after);
  }
  /// Kinetic energy the O steps have added, over all particles and steps so far.
  virtual double langevin_heat() = 0;
  /// Kinetic energy now (the host waits for it).
  virtual double kinetic_energy() = 0;

 private:
  std::array<double, 2> queued_energy_{};
  std::array<KineticAndVirial, kPressureSlots> queued_parts_{};
};

}  // namespace novamd::integrate
