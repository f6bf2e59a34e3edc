#pragma once
/// @file quaternion.hpp
/// Unit quaternions q = (w, x, y, z) = (cos(a/2), sin(a/2) u) for the orientations of rigid
/// molecules, usable on host and device. A molecule's orientation q maps its body frame to the
/// space frame: r_space = R(q) r_body, with R(q) the rotation by the angle a about the axis u
/// (Hamilton's convention, q p q* for a vector p as a pure quaternion; the convention of OVITO's
/// `Orientation` property and of Miller et al., J. Chem. Phys. 116, 8649 (2002)).

#include <array>
#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

template <class T>
struct Quaternion {
  T w{1}, x{}, y{}, z{};

  NOVAMD_HD Vec3<T> vector() const { return {x, y, z}; }
};

/// The Hamilton product a b: rotation by b, then by a.
template <class T>
NOVAMD_HD Quaternion<T> operator*(const Quaternion<T>& a, const Quaternion<T>& b) {
  return {
      a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

template <class T>
NOVAMD_HD Quaternion<T> conjugate(const Quaternion<T>& q) {
  return {q.w, -q.x, -q.y, -q.z};
}

template <class T>
NOVAMD_HD T norm_squared(const Quaternion<T>& q) {
  return q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
}

/// q / |q|: a unit quaternion again after rounding has moved it off the sphere.
template <class T>
NOVAMD_HD Quaternion<T> normalized(const Quaternion<T>& q) {
  const T s = rsqrt_hd(norm_squared(q));
  return {s * q.w, s * q.x, s * q.y, s * q.z};
}

/// R(q) v, body frame to space frame: v + 2 w (u x v) + 2 u x (u x v) for q = (w, u).
template <class T>
NOVAMD_HD Vec3<T> rotate(const Quaternion<T>& q, const Vec3<T>& v) {
  const Vec3<T> u = q.vector();
  const Vec3<T> t = T(2) * cross(u, v);
  return v + q.w * t + cross(u, t);
}

/// R(q)^T v, space frame to body frame.
template <class T>
NOVAMD_HD Vec3<T> rotate_back(const Quaternion<T>& q, const Vec3<T>& v) {
  return rotate(conjugate(q), v);
}

/// The rotation by `angle` about the unit vector `axis`.
template <class T>
Quaternion<T> from_axis_angle(const Vec3<T>& axis, T angle) {
  const T s = std::sin(angle / 2);
  return {std::cos(angle / 2), s * axis.x, s * axis.y, s * axis.z};
}

/// R(q) as its three rows.
template <class T>
NOVAMD_HD std::array<Vec3<T>, 3> rotation_matrix(const Quaternion<T>& q) {
  const T w = q.w, x = q.x, y = q.y, z = q.z;
  return {Vec3<T>{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
          Vec3<T>{2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
          Vec3<T>{2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
}

/// The unit quaternion (w >= 0) of a rotation matrix given as its rows, by the largest of the
/// four diagonal combinations (Shepperd, J. Guid. Control 1, 223 (1978)): accurate for every
/// rotation.
template <class T>
Quaternion<T> from_rotation_matrix(const std::array<Vec3<T>, 3>& m) {
  const T xx = m[0].x, yy = m[1].y, zz = m[2].z;
  const T trace = xx + yy + zz;
  Quaternion<T> q;
  if (trace >= xx && trace >= yy && trace >= zz) {
    const T s = 2 * std::sqrt(1 + trace);  // 4 w
    q = {s / 4, (m[2].y - m[1].z) / s, (m[0].z - m[2].x) / s, (m[1].x - m[0].y) / s};
  } else if (xx >= yy && xx >= zz) {
    const T s = 2 * std::sqrt(1 + xx - yy - zz);  // 4 x
    q = {(m[2].y - m[1].z) / s, s / 4, (m[0].y + m[1].x) / s, (m[0].z + m[2].x) / s};
  } else if (yy >= zz) {
    const T s = 2 * std::sqrt(1 - xx + yy - zz);  // 4 y
    q = {(m[0].z - m[2].x) / s, (m[0].y + m[1].x) / s, s / 4, (m[1].z + m[2].y) / s};
  } else {
    const T s = 2 * std::sqrt(1 - xx - yy + zz);  // 4 z
    q = {(m[1].x - m[0].y) / s, (m[0].z + m[2].x) / s, (m[1].z + m[2].y) / s, s / 4};
  }
  if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};
  return normalized(q);
}

}  // namespace novamd::core
