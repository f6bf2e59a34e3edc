#pragma once
/// @file vec3.hpp
/// A three-component vector usable on host and device.

#include "novamd/core/host_device.hpp"

namespace novamd::core {

template <class T>
struct Vec3 {
  T x{}, y{}, z{};

  NOVAMD_HD Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  NOVAMD_HD Vec3& operator-=(const Vec3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
  NOVAMD_HD Vec3& operator*=(T s) {
    x *= s;
    y *= s;
    z *= s;
    return *this;
  }
};

template <class T>
NOVAMD_HD Vec3<T> operator+(Vec3<T> a, const Vec3<T>& b) {
  return a += b;
}
template <class T>
NOVAMD_HD Vec3<T> operator-(Vec3<T> a, const Vec3<T>& b) {
  return a -= b;
}
template <class T>
NOVAMD_HD Vec3<T> operator*(T s, Vec3<T> a) {
  return a *= s;
}
template <class T>
NOVAMD_HD T dot(const Vec3<T>& a, const Vec3<T>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

template <class T>
NOVAMD_HD Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// Converts a vector to another arithmetic type (double positions to float pair arithmetic).
template <class To, class From>
NOVAMD_HD Vec3<To> vec3_cast(const Vec3<From>& v) {
  return {static_cast<To>(v.x), static_cast<To>(v.y), static_cast<To>(v.z)};
}

}  // namespace novamd::core
