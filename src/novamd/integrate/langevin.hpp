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
  Langevin(double dt, double kT, double friction, std::uint64_t seed)
      : dt_(dt), kT_(kT), c1_(std::exp(-friction * dt)), seed_(seed) {}
  std::string name() const override { return "langevin"; }

  void step(backend::Backend& backend, std::int64_t step, backend::EnergyRequest energy) override {
    backend.kick_drift(0.5 * dt_, 0.5 * dt_);
    backend.thermalize({c1_, kT_, seed_, static_cast<std::uint64_t>(step)});
    backend.drift(0.5 * dt_);
    backend.compute_forces(energy);
    backend.kick(0.5 * dt_);
  }

  double degrees_of_freedom(std::size_t n) const override { return 3.0 * n; }
  double thermostat_energy(backend::Backend& backend) override { return -backend.langevin_heat(); }

 private:
  double dt_, kT_, c1_;
  std::uint64_t seed_;
};

}  // namespace novamd::integrate
