#pragma once
/// @file random_orientation.hpp
/// Rigid molecules' random starts from the counter-based stream (random.hpp): orientations
/// uniform over the rotations, and angular momenta from the Maxwell-Boltzmann distribution of
/// their rotation, each a pure function of (seed, molecule id).

#include <cmath>
#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/random.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// A unit quaternion uniform over the rotations (Shoemake, Graphics Gems III, 1992, p. 124):
/// from uniforms u1, u2, u3, q = (sqrt(1 - u1) sin 2 pi u2, sqrt(1 - u1) cos 2 pi u2,
/// sqrt(u1) sin 2 pi u3, sqrt(u1) cos 2 pi u3), w >= 0 (q and -q are one rotation).
NOVAMD_HD Quaternion<double> random_orientation(std::uint64_t seed, std::uint32_t id) {
  using std::cos, std::sin, std::sqrt;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const RandomStream stream(seed, RandomPurpose::Orientation);
  const RandomPair a = stream.uniform(id, 0), b = stream.uniform(id, 1);
  const double low = sqrt(1.0 - a.first), high = sqrt(a.first);
  Quaternion<double> q{low * sin(kTwoPi * a.second), low * cos(kTwoPi * a.second),
                       high * sin(kTwoPi * b.first), high * cos(kTwoPi * b.first)};
  if (q.w < 0.0) q = {-q.w, -q.x, -q.y, -q.z};
  return q;
}

/// A body-frame angular momentum at temperature kT: L_k normal with variance I_k kT about each
/// principal axis with a moment (none about a linear molecule's axis, body x, where I_1 = 0).
NOVAMD_HD Vec3<double> thermal_angular_momentum(std::uint64_t seed, std::uint32_t id,
                                                const Vec3<double>& moments, double kT) {
  using std::sqrt;
  const RandomStream stream(seed, RandomPurpose::InitialAngularMomentum);
  const Vec3<double> z = stream.normal_vector(id, 0);
  return {moments.x > 0.0 ? z.x * sqrt(moments.x * kT) : 0.0,
          moments.y > 0.0 ? z.y * sqrt(moments.y * kT) : 0.0,
          moments.z > 0.0 ? z.z * sqrt(moments.z * kT) : 0.0};
}

}  // namespace novamd::core
