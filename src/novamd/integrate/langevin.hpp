#pragma once
/// @file langevin.hpp
/// Langevin dynamics, BAOAB splitting (Leimkuhler and Matthews, Appl. Math. Res. Express 2013,
/// 34; J. Chem. Phys. 138, 174102 (2013)):
///
///     B: v += dt/2 F/m    A: x += dt/2 v    O: v = c1 v + sqrt((1 - c1^2) kT/m) R
///     A: x += dt/2 v      (forces)          B: v += dt/2 F/m,        c1 = exp(-gamma dt)
///
/// Configurational averages are exact to second order in dt, better than other splittings.
/// The noise R comes from the counter-based stream keyed by (seed, Langevin, particle id,
/// step): the CPU and CUDA backends draw the same numbers and a restart continues the stream.
/// Momentum is not conserved, so the temperature counts 3N degrees of freedom. The conserved
/// quantity is total energy minus the kinetic energy the O steps have added.

#include <cmath>

#include "novamd/integrate/integrator.hpp"

namespace novamd::integrate {

class Langevin final : public Integrator {
 public:
  /// `kT` in energy units, `friction` gamma per time unit.
  Langevin(double dt, double kT, double friction, std::uint64_t seed, const SystemFreedom& system)
      : Integrator(dt, system,
                   {{Operator::Kick, 0.5},
                    {Operator::Drift, 0.5},
                    {Operator::Thermostat},
                    {Operator::Drift, 0.5},
                    {Operator::Forces},
                    {Operator::Kick, 0.5}}),
        kT_(kT),
        c1_(std::exp(-friction * dt)),
        seed_(seed) {}
  std::string name() const override { return "langevin"; }
  void set_temperature(double kT) override { kT_ = kT; }

  double thermostat_energy(StepOperations& ops) override { return -ops.langevin_heat(); }

 protected:
  bool conserves_momentum() const override { return false; }
  void thermostat(StepOperations& ops, std::int64_t step, double, int) override {
    ops.thermalize(noise(step));
  }
  void thermostat_then_drift(StepOperations& ops, std::int64_t step, double, int, double drift_dt,
                             VelocityCondition after) override {
    ops.thermalize_drift(noise(step), drift_dt, after);
  }
  void drift_thermostat_drift(StepOperations& ops, std::int64_t step, double first_dt, double, int,
                              double second_dt, VelocityCondition after) override {
    ops.drift_thermalize_drift(first_dt, noise(step), second_dt, after);
  }

 private:
  VelocityNoise noise(std::int64_t step) const {
    return {c1_, kT_, seed_, static_cast<std::uint64_t>(step)};
  }

  double kT_, c1_;
  std::uint64_t seed_;
};

}  // namespace novamd::integrate
