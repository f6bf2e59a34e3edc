#pragma once
/// @file tensor.hpp
/// A symmetric 3 x 3 tensor as its six independent components, usable on host and device: the
/// virial W_ab = sum over pairs of r_ij,a f_ij,b (symmetric for central forces), the kinetic
/// tensor K_ab = 1/2 sum_i m_i v_i,a v_i,b and the pressure tensor P = (2 K + W) / V.
///
/// Component order (the order of every per-component array and of the thermo columns):
///     xx, yy, zz, xy, xz, yz

#include <array>
#include <string_view>

#include "novamd/core/host_device.hpp"

namespace novamd::core {

inline constexpr int kTensorComponents = 6;

/// Names of the components, in order.
inline constexpr std::array<std::string_view, kTensorComponents> kTensorComponentNames{
    "xx", "yy", "zz", "xy", "xz", "yz"};

template <class T>
struct SymmetricTensor {
  T c[kTensorComponents]{};  ///< xx, yy, zz, xy, xz, yz

  NOVAMD_HD T trace() const { return c[0] + c[1] + c[2]; }

  /// Adds s d d^T: the virial of a central pair force f = s d along the separation d.
  NOVAMD_HD void add_outer(T s, T dx, T dy, T dz) {
    const T sx = s * dx, sy = s * dy, sz = s * dz;
    c[0] += sx * dx;
    c[1] += sy * dy;
    c[2] += sz * dz;
    c[3] += sx * dy;
    c[4] += sx * dz;
    c[5] += sy * dz;
  }
  /// Adds the symmetric part of a (x) b, (a b^T + b a^T) / 2: the virial of a force b at a
  /// relative position a (a bonded term's particle; the term's total is symmetric).
  NOVAMD_HD void add_symmetrized_outer(T ax, T ay, T az, T bx, T by, T bz) {
    c[0] += ax * bx;
    c[1] += ay * by;
    c[2] += az * bz;
    c[3] += T(0.5) * (ax * by + ay * bx);
    c[4] += T(0.5) * (ax * bz + az * bx);
    c[5] += T(0.5) * (ay * bz + az * by);
  }
  /// Adds `value` to each diagonal component (an isotropic term such as a tail correction).
  NOVAMD_HD void add_isotropic(T value) {
    c[0] += value;
    c[1] += value;
    c[2] += value;
  }

  NOVAMD_HD SymmetricTensor& operator+=(const SymmetricTensor& o) {
    for (int k = 0; k < kTensorComponents; ++k) c[k] += o.c[k];
    return *this;
  }
  NOVAMD_HD SymmetricTensor& operator*=(T s) {
    for (int k = 0; k < kTensorComponents; ++k) c[k] *= s;
    return *this;
  }
  friend bool operator==(const SymmetricTensor& a, const SymmetricTensor& b) {
    for (int k = 0; k < kTensorComponents; ++k)
      if (!(a.c[k] == b.c[k])) return false;
    return true;
  }
};

}  // namespace novamd::core
