#pragma once
/// @file integrator.hpp
/// An integrator advances the backend's state by one step, composing the backend's primitives
/// (kick, drift, forces, thermostat updates), and reports what the thermo output needs: the
/// degrees of freedom, the kinetic energy at the step, and the energy its thermostat has
/// exchanged with the system, so that total energy + thermostat energy is the conserved
/// quantity of the scheme (constant up to integration error).

#include <cstdint>
#include <memory>
#include <string>

#include "novamd/analysis/thermo.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/core/units.hpp"
#include "novamd/integrate/integrator_settings.hpp"
#include "novamd/integrate/integrator_state.hpp"

namespace novamd::integrate {

class Integrator {
 public:
  virtual ~Integrator() = default;

  /// The config name (velocity_verlet, leapfrog, langevin, nose_hoover, bussi).
  virtual std::string name() const = 0;
  /// Called once at the start of a fresh run (not a restart), after the step-0 forces and
  /// output: leapfrog moves its velocities back by half a step here.
  virtual void start(backend::Backend&) {}
  /// Advances from step - 1 to `step`; forces are current on entry and on exit. `energy`:
  /// whether this step's output reads energies.
  virtual void step(backend::Backend& backend, std::int64_t step,
                    backend::EnergyRequest energy) = 0;

  /// Degrees of freedom of N particles: 3N - 3 where total momentum is conserved (at zero),
  /// 3N where the thermostat does not conserve it (Langevin).
  virtual double degrees_of_freedom(std::size_t n) const {
    return analysis::degrees_of_freedom(n);
  }
  /// The kinetic energy to report after a step with energies, given the backend's (leapfrog
  /// reports the mean of the two half steps around the step).
  virtual double reported_kinetic_energy(double backend_kinetic) const { return backend_kinetic; }
  /// Energy the thermostat has taken out of the system since the start of the run, so that
  /// total energy + this is conserved; 0 for NVE.
  virtual double thermostat_energy(backend::Backend&) { return 0.0; }

  /// The integrator's own variables, for a checkpoint.
  virtual IntegratorState save() const { return {name(), {}}; }
  /// Continues from saved variables. @throws core::InputError when they do not fit.
  virtual void restore(const IntegratorState&) {}
};

/// The integrator `settings` ask for; `seed` keys the random streams of stochastic thermostats;
/// `particles`: N, for the degrees of freedom.
std::unique_ptr<Integrator> make_integrator(const IntegratorSettings& settings,
                                            const core::UnitSystem& units, std::uint64_t seed,
                                            std::size_t particles);

}  // namespace novamd::integrate
