#pragma once
/// @file rigid_updates.hpp
/// The per-particle updates of rigid molecules' rotation, as particle_updates.hpp's translation
/// ones: each a host-device functor over the arrays it captures, touching molecule i alone. A
/// molecule is one particle at its centre of mass with an orientation q (body to space) and its
/// angular momentum L in the body frame (core::ParticleFields); its type's principal moments
/// (integrate::RotorInertia) say how it turns (rigid_rotation.hpp: NO_SQUISH).

#include <cstdint>
#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/random.hpp"
#include "novamd/integrate/rigid_rotation.hpp"
#include "novamd/integrate/vec3_pointers.hpp"
#include "novamd/integrate/velocity_noise.hpp"

namespace novamd::integrate {

/// Each component's rotor (its type's), the moments times `mvv_to_energy` (energy x time^2), so
/// that angular momenta are in energy x time and L / I is an angular velocity.
inline std::vector<RotorInertia<double>> rotors_of(
    const std::vector<core::ResolvedComponent>& components, double mvv_to_energy) {
  std::vector<RotorInertia<double>> rotors;
  for (const auto& c : components)
    rotors.push_back({mvv_to_energy * c.shape.moments, c.shape.rotational_freedom});
  return rotors;
}

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

/// O on rotation, the Langevin update of velocity_noise.hpp about each principal axis the
/// molecule turns about (Davidchack, Ouldridge and Tretyakov, J. Chem. Phys. 142, 144114
/// (2015), in the body frame): L_k' = c1 L_k + sqrt((1 - c1^2) I_k kT) R_k, R from the
/// counter-based stream (seed, LangevinRotation) addressed by the molecule's id and the step;
/// heat[i] gains the change of its kinetic energy of rotation.
struct ThermalizeRotation {
  VelocityNoise noise;
  Vec3Pointers angular_momentum;
  const std::int32_t* type;
  const std::int32_t* id;
  const RotorInertia<double>* inertia;
  double* heat;

  NOVAMD_HD void operator()(int i) const {
    const RotorInertia<double>& I = inertia[type[i]];
    if (!I.turns()) return;
    const core::RandomStream stream(noise.seed, core::RandomPurpose::LangevinRotation);
    const core::Vec3<double> r =
        stream.normal_vector(static_cast<std::uint32_t>(id[i]), noise.step);
    const double spread = (1.0 - noise.c1 * noise.c1) * noise.kT;
    const core::Vec3<double> before = angular_momentum.get(i);
    core::Vec3<double> after{
        I.linear() ? 0.0 : noise.c1 * before.x + sqrt(spread * I.moments.x) * r.x,
        noise.c1 * before.y + sqrt(spread * I.moments.y) * r.y,
        noise.c1 * before.z + sqrt(spread * I.moments.z) * r.z};
    angular_momentum.set(i, after);
    heat[i] += kinetic_energy_of_rotation(after, I) - kinetic_energy_of_rotation(before, I);
  }
};

/// L *= factor (global thermostats scale rotation with translation).
struct ScaleAngularMomenta {
  Vec3Pointers angular_momentum;
  double factor;

  NOVAMD_HD void operator()(int i) const {
    angular_momentum.set(i, factor * angular_momentum.get(i));
  }
};

/// out[i] = molecule i's kinetic energy of rotation (the terms of a device reduction).
struct RotationalKineticEnergy {
  Vec3Pointers angular_momentum;
  const std::int32_t* type;
  const RotorInertia<double>* inertia;
  double* out;

  NOVAMD_HD void operator()(int i) const {
    out[i] = kinetic_energy_of_rotation(angular_momentum.get(i), inertia[type[i]]);
  }
};

}  // namespace novamd::integrate
