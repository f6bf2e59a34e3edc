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

class Leapfrog final : public Integrator {
 public:
  explicit Leapfrog(double dt) : dt_(dt) {}
  std::string name() const override { return "leapfrog"; }

  void start(backend::Backend& backend) override { backend.kick(0.5 * dt_); }

  void step(backend::Backend& backend, std::int64_t, backend::EnergyRequest energy) override {
    backend.drift(dt_);
    backend.compute_forces(energy);
    const bool report = energy == backend::EnergyRequest::Compute;
    if (report) kinetic_before_ = backend.kinetic_energy();
    backend.kick(dt_);
    if (report) kinetic_after_ = backend.kinetic_energy();
    has_mean_ = report;
  }

  double reported_kinetic_energy(double backend_kinetic) const override {
    return has_mean_ ? 0.5 * (kinetic_before_ + kinetic_after_) : backend_kinetic;
  }

 private:
  double dt_;
  bool has_mean_ = false;  ///< the last step measured both half-step kinetic energies
  double kinetic_before_ = 0.0, kinetic_after_ = 0.0;
};

}  // namespace novamd::integrate
