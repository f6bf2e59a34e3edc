#pragma once
/// @file velocity_noise.hpp
/// The "O" step of Langevin dynamics (an exact Ornstein-Uhlenbeck update of the velocities over
/// a time dt, as in BAOAB: Leimkuhler and Matthews, Appl. Math. Res. Express 2013, 34):
///
///     v' = c1 v + sqrt((1 - c1^2) k_B T / m) R,    c1 = exp(-gamma dt)
///
/// R: three standard normals from the counter-based stream (seed, Langevin), addressed by the
/// particle's id and the step, so that every backend and every storage order draws the same
/// numbers and a restart continues the same stream. Written once for host and device.

#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/random.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::integrate {

/// One O step's parameters, the same for every particle.
struct VelocityNoise {
  double c1 = 1.0;         ///< exp(-gamma dt)
  double kT = 0.0;         ///< k_B T, energy units
  std::uint64_t seed = 0;  ///< the run's seed
  std::uint64_t step = 0;  ///< addresses the draws
};

/// v' for particle `id`; `inverse_mass` includes the force-to-acceleration factor, so
/// kT * inverse_mass is a squared velocity.
NOVAMD_HD core::Vec3<double> thermalized(const core::Vec3<double>& v, std::int32_t id,
                                         double inverse_mass, const VelocityNoise& noise) {
  const core::RandomStream stream(noise.seed, core::RandomPurpose::Langevin);
  const core::Vec3<double> r = stream.normal_vector(static_cast<std::uint32_t>(id), noise.step);
  const double sigma = sqrt((1.0 - noise.c1 * noise.c1) * noise.kT * inverse_mass);
  return noise.c1 * v + sigma * r;
}

}  // namespace novamd::integrate
