#pragma once
/// @file velocity_verlet.hpp
/// Velocity Verlet (Swope, Andersen, Berens and Wilson, J. Chem. Phys. 76, 637 (1982)):
///
///     v(t + dt/2) = v(t) + dt/2 F(t) / m
///     x(t + dt)   = x(t) + dt v(t + dt/2)
///     v(t + dt)   = v(t + dt/2) + dt/2 F(t + dt) / m
///
/// The per-particle updates are host-device functions used by every backend's loop or kernel.

#include <cstdint>

#include "novamd/backend/backend.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/integrate/integrator.hpp"

namespace novamd::integrate {

/// v + dt F / m; `dt_over_mass` already includes the unit system's force-to-acceleration factor.
NOVAMD_HD core::Vec3<double> kicked(const core::Vec3<double>& v, const core::Vec3<double>& f,
                                    double dt_over_mass) {
  return v + dt_over_mass * f;
}

/// x + dt v, wrapped into the box.
NOVAMD_HD core::Vec3<double> drifted(const core::Vec3<double>& x, const core::Vec3<double>& v,
                                     double dt, const core::BoxView<double>& box) {
  return box.wrap(x + dt * v);
}

/// x + dt v, wrapped into the box, with the periodic images crossed added to `image`.
NOVAMD_HD core::Vec3<double> drifted(const core::Vec3<double>& x, const core::Vec3<double>& v,
                                     double dt, const core::BoxView<double>& box,
                                     core::Vec3<std::int32_t>& image) {
  return box.wrap(x + dt * v, image);
}

/// One NVE step; forces must be current on entry and are current on exit. `energy`: whether
/// the new positions' energy and virial will be read (a thermo step).
inline void velocity_verlet_step(backend::Backend& backend, double dt,
                                 backend::EnergyRequest energy = backend::EnergyRequest::Compute) {
  backend.kick_drift(0.5 * dt, dt);
  backend.compute_forces(energy);
  backend.kick(0.5 * dt);
}

/// NVE velocity Verlet.
class VelocityVerlet final : public Integrator {
 public:
  explicit VelocityVerlet(double dt) : dt_(dt) {}
  std::string name() const override { return "velocity_verlet"; }
  void step(backend::Backend& backend, std::int64_t, backend::EnergyRequest energy) override {
    velocity_verlet_step(backend, dt_, energy);
  }

 private:
  double dt_;
};

}  // namespace novamd::integrate
