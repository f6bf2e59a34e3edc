#pragma once
/// @file particle_updates.hpp
/// The per-particle updates of a step, each written once as a host-device functor over the
/// particle arrays it captures (never their owner): the CPU backend runs them in an OpenMP loop,
/// the CUDA backend in a kernel (backend/for_each_particle.hpp, for_each_particle_cuda.cuh).
/// Each call of an update touches particle i alone, so the order of the calls cannot change a
/// bit of the result.

#include <cstdint>

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/integrate/vec3_pointers.hpp"
#include "novamd/integrate/velocity_noise.hpp"
#include "novamd/integrate/velocity_verlet.hpp"

namespace novamd::integrate {

/// B: v += dt F / m (inverse_mass per type, force-to-acceleration factor included).
struct Kick {
  Vec3Pointers velocity, force;
  const std::int32_t* type;
  const double* inverse_mass;
  double dt;

  NOVAMD_HD core::Vec3<double> operator()(int i) const {
    const auto v = kicked(velocity.get(i), force.get(i), dt * inverse_mass[type[i]]);
    velocity.set(i, v);
    return v;
  }
};

/// A: x += dt v, wrapped into the box; the periodic images crossed are counted where the
/// system tracks them. Returns the new position.
struct Drift {
  Vec3Pointers position, velocity;
  Int3Pointers image;
  core::BoxView<double> box;
  double dt;

  NOVAMD_HD core::Vec3<double> operator()(int i) const { return moved(i, velocity.get(i)); }

  /// The drift of particle i with velocity v (a fused kick-drift passes the kicked v).
  NOVAMD_HD core::Vec3<double> moved(int i, const core::Vec3<double>& v) const {
    core::Vec3<double> x;
    if (image.present()) {
      auto crossed = image.get(i);
      x = drifted(position.get(i), v, dt, box, crossed);
      image.set(i, crossed);
    } else {
      x = drifted(position.get(i), v, dt, box);
    }
    position.set(i, x);
    return x;
  }
};

/// B then A on one particle, in one pass (velocity Verlet's first half step).
struct KickDrift {
  Kick kick;
  Drift drift;

  NOVAMD_HD core::Vec3<double> operator()(int i) const { return drift.moved(i, kick(i)); }
};

/// v *= factor (global thermostats).
struct ScaleVelocities {
  Vec3Pointers velocity;
  double factor;

  NOVAMD_HD void operator()(int i) const { velocity.set(i, factor * velocity.get(i)); }
};

/// v_a *= factor_a, axis by axis (a barostat's move).
struct ScaleVelocityAxes {
  Vec3Pointers velocity;
  core::Vec3<double> factor;

  NOVAMD_HD void operator()(int i) const {
    const auto v = velocity.get(i);
    velocity.set(i, {v.x * factor.x, v.y * factor.y, v.z * factor.z});
  }
};

/// x *= ratio per axis: the affine move of positions when the box edges change by `ratio`.
struct ScalePositions {
  Vec3Pointers position;
  core::Vec3<double> ratio;

  NOVAMD_HD void operator()(int i) const {
    const auto x = position.get(i);
    position.set(i, {x.x * ratio.x, x.y * ratio.y, x.z * ratio.z});
  }
};

/// The ratios of the edges of `to` to those of `from`, axis by axis.
inline core::Vec3<double> edge_ratios(const core::Box& from, const core::Box& to) {
  return {to.length().x / from.length().x, to.length().y / from.length().y,
          to.length().z / from.length().z};
}

/// O: the Langevin velocity update (velocity_noise.hpp); heat[i] gains the particle's
/// kinetic-energy change.
struct Thermalize {
  VelocityNoise noise;
  const double* inverse_mass;
  const std::int32_t* type;
  const std::int32_t* id;
  Vec3Pointers velocity;
  double* heat;

  NOVAMD_HD void operator()(int i) const { updated(i); }

  /// The update of particle i; returns its new velocity.
  NOVAMD_HD core::Vec3<double> updated(int i) const {
    const double m_inverse = inverse_mass[type[i]];
    const auto before = velocity.get(i);
    const auto after = thermalized(before, id[i], m_inverse, noise);
    velocity.set(i, after);
    heat[i] += 0.5 * (core::dot(after, after) - core::dot(before, before)) / m_inverse;
    return after;
  }
};

/// O then A on one particle, in one pass (the middle of Langevin's BAOAB step): the same
/// arithmetic as the two passes, bit for bit.
struct ThermalizeDrift {
  Thermalize thermalize;
  Drift drift;

  NOVAMD_HD core::Vec3<double> operator()(int i) const {
    return drift.moved(i, thermalize.updated(i));
  }
};

/// A, O and A on one particle, in one pass (the middle of Langevin's BAOAB step, after the
/// first kick): the same arithmetic as the three passes, bit for bit. Returns the new position.
struct DriftThermalizeDrift {
  Drift first;
  Thermalize thermalize;
  Drift second;

  NOVAMD_HD core::Vec3<double> operator()(int i) const {
    first(i);
    return second.moved(i, thermalize.updated(i));
  }
};

}  // namespace novamd::integrate
