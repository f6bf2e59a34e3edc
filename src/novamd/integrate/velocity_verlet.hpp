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

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/integrate/step_operations.hpp"

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

/// One NVE step on `ops` without an integrator object (benchmarks, tests); forces must be
/// current on entry and are current on exit. `energy`: whether the new positions' energy and
/// virial will be read (a thermo step).
inline void velocity_verlet_step(StepOperations& ops, double dt,
                                 EnergyRequest energy = EnergyRequest::Compute) {
  ops.kick_drift(0.5 * dt, dt, VelocityCondition::Deferred);  // the closing kick applies it
  ops.compute_forces(energy);
  ops.kick(0.5 * dt);
}

/// NVE velocity Verlet: B/2 A F B/2.
class VelocityVerlet final : public Integrator {
 public:
  VelocityVerlet(double dt, const SystemFreedom& system)
      : Integrator(dt, system,
                   {{Operator::Kick, 0.5},
                    {Operator::Drift, 1.0},
                    {Operator::Forces},
                    {Operator::Kick, 0.5}}) {}
  std::string name() const override { return "velocity_verlet"; }
};

}  // namespace novamd::integrate
