#pragma once
/// @file state_check.hpp
/// The per-particle test behind backend::Backend::find_unstable, written once for the CPU loop, the CUDA
/// kernel and the CUDA backend's host follow-up: is every part of a particle's state finite,
/// and does it move less than a limit in one step?

#include <cmath>
#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// What a state check can find wrong with a particle, in the order it looks.
enum class Instability : int {
  None = -1,
  Position = 0,
  Velocity = 1,
  Force = 2,
  Energy = 3,
  Speed = 4,  ///< |v|^2 overflows, or |v| dt exceeds the one-step displacement limit
};
inline constexpr int kInstabilityKinds = 5;

/// std::isfinite on the host, CUDA's isfinite on the device.
NOVAMD_HD bool is_finite(double x) {
#if defined(__CUDA_ARCH__)
  return isfinite(x);
#else
  return std::isfinite(x);
#endif
}

/// The first thing wrong with a particle's state. `max_speed_squared`: the square of the
/// largest speed allowed (the one-step displacement limit over the time step); infinity allows
/// any finite speed. A speed whose square overflows (|v| above ~1e154) is never allowed: the
/// kinetic energy would be infinite.
NOVAMD_HD Instability instability_of(const core::Vec3<double>& position,
                                     const core::Vec3<double>& velocity,
                                     const core::Vec3<double>& force, double energy,
                                     double max_speed_squared) {
  const auto finite = [](const core::Vec3<double>& a) {
    return is_finite(a.x) && is_finite(a.y) && is_finite(a.z);
  };
  if (!finite(position)) return Instability::Position;
  if (!finite(velocity)) return Instability::Velocity;
  if (!finite(force)) return Instability::Force;
  if (!is_finite(energy)) return Instability::Energy;
  const double v2 = velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
  if (!(v2 <= max_speed_squared) || !is_finite(v2)) return Instability::Speed;
  return Instability::None;
}

/// "position", "velocity", "force", "energy" or "speed".
inline const char* to_string(Instability what) {
  constexpr const char* kNames[] = {"position", "velocity", "force", "energy", "speed"};
  const int k = static_cast<int>(what);
  return k >= 0 && k < kInstabilityKinds ? kNames[k] : "state";
}

}  // namespace novamd::core
