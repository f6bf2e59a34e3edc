#pragma once
/// @file rigid_rotation.hpp
/// The rotation of a rigid molecule by NO_SQUISH (Miller, Eleftheriou, Pattnaik, Ndirango,
/// Newns and Martyna, J. Chem. Phys. 116, 8649 (2002)): symplectic and time-reversible, the
/// orientation q (core/quaternion.hpp: body to space) kept on the unit sphere by construction.
///
/// The momentum conjugate to q is the 4-vector p = 2 S(q) (0, L), L the angular momentum in the
/// body frame and S(q) = [q, P_1 q, P_2 q, P_3 q], where P_k q = q e_k is q times the unit
/// quaternion of body axis k (P_1 q = (-q1, q0, q3, -q2), P_2 q = (-q2, -q3, q0, q1),
/// P_3 q = (-q3, q2, -q1, q0)). So L_k = p . P_k q / 2 and the kinetic energy of rotation is
/// sum_k L_k^2 / (2 I_k) over the principal moments I_k.
///
/// A step composes, as the translation's kick and drift do:
/// - the torque's kick `kick_rotation` over a time t: p += 2 t sum_k tau_k P_k q, tau the torque
///   in the body frame, so that dL/dt = tau (t = dt / 2 on each side of the drift in velocity
///   Verlet);
/// - the free rotation `rotate_freely` over dt: R_3(dt/2) R_2(dt/2) R_1(dt) R_2(dt/2) R_3(dt/2),
///   where R_k(t) turns about body axis k alone, exactly: with z = t (p . P_k q) / (4 I_k),
///   q <- cos z q + sin z P_k q and p <- cos z p + sin z P_k p. Each R_k keeps the angular
///   momentum in the space frame exactly; the composition keeps the energy to O(dt^2), bounded.
/// A linear molecule (I_1 = 0, its axis body x, I_2 = I_3: core/rigid_shape.hpp) has no L_1 and
/// no torque about its axis. Its free rotation is exact instead: the body turns about the fixed
/// space-frame L by |L| dt / I_2, L_1 staying 0 (the R_k above would mix L_1 into the others).

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::integrate {

/// P_k q = q e_k for body axis k = 0, 1, 2 (x, y, z).
template <class T>
NOVAMD_HD core::Quaternion<T> permuted(const core::Quaternion<T>& q, int k) {
  switch (k) {
    case 0:
      return {-q.x, q.w, q.z, -q.y};
    case 1:
      return {-q.y, -q.z, q.w, q.x};
    default:
      return {-q.z, q.y, -q.x, q.w};
  }
}

template <class T>
NOVAMD_HD T dot4(const core::Quaternion<T>& a, const core::Quaternion<T>& b) {
  return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
}

/// L in the body frame from (q, p): L_k = p . P_k q / 2.
template <class T>
NOVAMD_HD core::Vec3<T> body_angular_momentum(const core::Quaternion<T>& q,
                                              const core::Quaternion<T>& p) {
  return {dot4(p, permuted(q, 0)) / 2, dot4(p, permuted(q, 1)) / 2, dot4(p, permuted(q, 2)) / 2};
}

/// p = 2 sum_k L_k P_k q for the body-frame angular momentum L.
template <class T>
NOVAMD_HD core::Quaternion<T> conjugate_momentum(const core::Quaternion<T>& q,
                                                 const core::Vec3<T>& L) {
  const auto a = permuted(q, 0), b = permuted(q, 1), c = permuted(q, 2);
  return {2 * (L.x * a.w + L.y * b.w + L.z * c.w), 2 * (L.x * a.x + L.y * b.x + L.z * c.x),
          2 * (L.x * a.y + L.y * b.y + L.z * c.y), 2 * (L.x * a.z + L.y * b.z + L.z * c.z)};
}

/// The principal moments and how many axes the molecule turns about: 3; 2 for a linear molecule
/// (I_1 = 0, its axis body x); 0 for a point, which does not turn (core/rigid_shape.hpp).
template <class T>
struct RotorInertia {
  core::Vec3<T> moments;
  int freedom = 3;

  NOVAMD_HD bool linear() const { return freedom == 2; }
  NOVAMD_HD bool turns() const { return freedom > 0; }
  NOVAMD_HD T moment(int k) const { return k == 0 ? moments.x : k == 1 ? moments.y : moments.z; }
};

/// sum_k L_k^2 / (2 I_k) over the axes the molecule turns about.
template <class T>
NOVAMD_HD T kinetic_energy_of_rotation(const core::Vec3<T>& L, const RotorInertia<T>& inertia) {
  if (!inertia.turns()) return T(0);
  T energy = L.y * L.y / (2 * inertia.moments.y) + L.z * L.z / (2 * inertia.moments.z);
  if (!inertia.linear()) energy += L.x * L.x / (2 * inertia.moments.x);
  return energy;
}

/// The same from (q, p).
template <class T>
NOVAMD_HD T rotational_kinetic_energy(const core::Quaternion<T>& q, const core::Quaternion<T>& p,
                                      const RotorInertia<T>& inertia) {
  return kinetic_energy_of_rotation(body_angular_momentum(q, p), inertia);
}

/// p += 2 t sum_k tau_k P_k q for the torque `torque` in the space frame, over the time t (its
/// part about a linear molecule's axis left out; nothing for a point).
template <class T>
NOVAMD_HD void kick_rotation(const core::Quaternion<T>& q, core::Quaternion<T>& p,
                             const core::Vec3<T>& torque, T t, const RotorInertia<T>& inertia) {
  if (!inertia.turns()) return;
  core::Vec3<T> tau = core::rotate_back(q, torque);
  if (inertia.linear()) tau.x = T(0);
  const core::Quaternion<T> dp = conjugate_momentum(q, tau);  // 2 sum_k tau_k P_k q
  p.w += t * dp.w;
  p.x += t * dp.x;
  p.y += t * dp.y;
  p.z += t * dp.z;
}

/// R_k(t): the exact turn about body axis k for the time t.
template <class T>
NOVAMD_HD void rotate_about_axis(core::Quaternion<T>& q, core::Quaternion<T>& p, int k, T t,
                                 T moment) {
  const core::Quaternion<T> pq = permuted(q, k), pp = permuted(p, k);
  const T z = t * dot4(p, pq) / (4 * moment);
  using std::cos, std::sin;
  const T c = cos(z), s = sin(z);
  q = {c * q.w + s * pq.w, c * q.x + s * pq.x, c * q.y + s * pq.y, c * q.z + s * pq.z};
  p = {c * p.w + s * pp.w, c * p.x + s * pp.x, c * p.y + s * pp.y, c * p.z + s * pp.z};
}

/// A linear molecule's exact free turn over dt: about its space-frame L by |L| dt / I_2.
template <class T>
NOVAMD_HD void rotate_linear(core::Quaternion<T>& q, core::Quaternion<T>& p, T moment, T dt) {
  core::Vec3<T> L = body_angular_momentum(q, p);
  L.x = T(0);
  const core::Vec3<T> space = core::rotate(q, L);
  using std::sqrt;
  const T size = sqrt(core::dot(space, space));
  if (size > T(0)) {
    using std::cos, std::sin;
    const T half = size * dt / (2 * moment), s = sin(half) / size;
    q = core::normalized(core::Quaternion<T>{cos(half), s * space.x, s * space.y, s * space.z} * q);
  }
  p = conjugate_momentum(q, L);
}

/// The free rotation over dt: R_3(dt/2) R_2(dt/2) R_1(dt) R_2(dt/2) R_3(dt/2), or a linear
/// molecule's exact turn; a point does not turn.
template <class T>
NOVAMD_HD void rotate_freely(core::Quaternion<T>& q, core::Quaternion<T>& p,
                             const RotorInertia<T>& inertia, T dt) {
  if (!inertia.turns()) return;
  if (inertia.linear()) {
    rotate_linear(q, p, inertia.moments.y, dt);
    return;
  }
  const T half = dt / 2;
  rotate_about_axis(q, p, 2, half, inertia.moments.z);
  rotate_about_axis(q, p, 1, half, inertia.moments.y);
  rotate_about_axis(q, p, 0, dt, inertia.moments.x);
  rotate_about_axis(q, p, 1, half, inertia.moments.y);
  rotate_about_axis(q, p, 2, half, inertia.moments.z);
}

}  // namespace novamd::integrate
