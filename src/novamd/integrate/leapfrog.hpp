#pragma once
/// @file leapfrog.hpp
/// Leapfrog (Hockney 1970; the scheme of DL_POLY and GROMACS), velocities at half steps:
///
///     x(t + dt)      = x(t) + dt v(t + dt/2)
///     v(t + 3dt/2)   = v(t + dt/2) + dt F(t + dt) / m
///
/// The same positions as velocity Verlet in exact arithmetic. The stored (and written)
/// velocities are v(t + dt/2); the kinetic energy reported at step t is the mean of the two
/// half-step kinetic energies around it, K(t) = [K(t - dt/2) + K(t + dt/2)] / 2, as GROMACS's
/// leap-frog reports it. A fresh run starts from v(0) with a half kick to v(dt/2).

#include "novamd/integrate/integrator.hpp"

namespace novamd::integrate {

/// A F M B M: the kinetic energy is measured on both sides of the kick when the step reports.
class Leapfrog final : public Integrator {
 public:
  Leapfrog(double dt, const SystemFreedom& system)
      : Integrator(dt, system,
                   {{Operator::Drift, 1.0},
                    {Operator::Forces},
                    {Operator::Measure},
                    {Operator::Kick, 1.0},
                    {Operator::Measure}}) {}
  std::string name() const override { return "leapfrog"; }

  void start(StepOperations& ops) override { ops.kick(0.5 * dt()); }

  double reported_kinetic_energy(double backend_kinetic) const override {
    return has_mean_ ? 0.5 * (kinetic_before_ + kinetic_after_) : backend_kinetic;
  }

 protected:
  void measure(StepOperations& ops, EnergyRequest energy, int index) override {
    has_mean_ = energy != EnergyRequest::Skip;
    if (!has_mean_) return;
    (index == 0 ? kinetic_before_ : kinetic_after_) = ops.kinetic_energy();
  }

 private:
  bool has_mean_ = false;  ///< the last step measured both half-step kinetic energies
  double kinetic_before_ = 0.0, kinetic_after_ = 0.0;
};

}  // namespace novamd::integrate
