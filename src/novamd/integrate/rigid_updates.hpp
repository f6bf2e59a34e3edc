#pragma once
/// @file rigid_updates.hpp
/// The per-particle updates of rigid molecules' rotation, as particle_updates.hpp's translation
/// ones: each a host-device functor over the arrays it captures, touching molecule i alone. A
/// molecule is one particle at its centre of mass with an orientation q (body to space) and its
/// angular momentum L in the body frame (core::ParticleFields); its type's principal moments
/// (integrate::RotorInertia) say how it turns (rigid_rotation.hpp: NO_SQUISH).

#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/integrate/rigid_rotation.hpp"
#include "novamd/integrate/vec3_pointers.hpp"

namespace novamd::integrate {

/// Structure-of-arrays pointers of the orientations, host or device.
struct QuaternionPointers {
  double *w, *x, *y, *z;

  NOVAMD_HD core::Quaternion<double> get(int i) const { return {w[i], x[i], y[i], z[i]}; }
  NOVAMD_HD void set(int i, const core::Quaternion<double>& q) const {
    w[i] = q.w;
    x[i] = q.x;
    y[i] = q.y;
    z[i] = q.z;
  }
};

template <class Array>
QuaternionPointers pointers_of(core::QuaternionOf<Array>& q, std::size_t first = 0) {
  return {q.w.data() + first, q.x.data() + first, q.y.data() + first, q.z.data() + first};
}

/// The torque's kick over dt: L += dt R(q)^T tau, without the part about a linear molecule's
/// axis, nothing for a point (the torque `torque` in the space frame). A molecule's kinetic
/// energy of rotation is kinetic_energy_of_rotation(L, I) (rigid_rotation.hpp).
struct KickAngularMomentum {
  QuaternionPointers orientation;
  Vec3Pointers angular_momentum, torque;
  const std::int32_t* type;
  const RotorInertia<double>* inertia;  ///< per type
  double dt;

  NOVAMD_HD void operator()(int i) const {
    const RotorInertia<double>& I = inertia[type[i]];
    if (!I.turns()) return;
    core::Vec3<double> tau = core::rotate_back(orientation.get(i), torque.get(i));
    if (I.linear()) tau.x = 0.0;
    angular_momentum.set(i, angular_momentum.get(i) + dt * tau);
  }
};

/// The free rotation over dt (rotate_freely), L kept in the body frame.
struct RotateBodies {
  QuaternionPointers orientation;
  Vec3Pointers angular_momentum;
  const std::int32_t* type;
  const RotorInertia<double>* inertia;
  double dt;

  NOVAMD_HD void operator()(int i) const {
    const RotorInertia<double>& I = inertia[type[i]];
    if (!I.turns()) return;
    auto q = orientation.get(i);
    auto p = conjugate_momentum(q, angular_momentum.get(i));
    rotate_freely(q, p, I, dt);
    core::Vec3<double> L = body_angular_momentum(q, p);
    if (I.linear()) L.x = 0.0;
    orientation.set(i, q);
    angular_momentum.set(i, L);
  }
};

}  // namespace novamd::integrate
