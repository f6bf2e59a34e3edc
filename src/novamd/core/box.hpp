#pragma once
/// @file box.hpp
/// Orthorhombic periodic box: edge lengths, minimum image and wrapping.

#include <algorithm>
#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// Edge lengths and their inverses in one arithmetic type, passed by value to kernels.
template <class T>
struct BoxView {
  Vec3<T> length;
  Vec3<T> inverse_length;

  /// Nearest periodic image of a separation vector: each component lands in [-L/2, L/2].
  NOVAMD_HD Vec3<T> minimum_image(Vec3<T> d) const {
    d.x -= length.x * round_nearest(d.x * inverse_length.x);
    d.y -= length.y * round_nearest(d.y * inverse_length.y);
    d.z -= length.z * round_nearest(d.z * inverse_length.z);
    return d;
  }

  /// Maps a position into the primary cell [0, L) along each axis.
  NOVAMD_HD Vec3<T> wrap(Vec3<T> r) const {
    r.x -= length.x * floor(r.x * inverse_length.x);
    r.y -= length.y * floor(r.y * inverse_length.y);
    r.z -= length.z * floor(r.z * inverse_length.z);
    return r;
  }
};

/// The simulation box: an orthorhombic cell [0, Lx) x [0, Ly) x [0, Lz), periodic in all three axes.
class Box {
 public:
  Box() = default;
  Box(double lx, double ly, double lz) : length_{lx, ly, lz} {}

  const Vec3<double>& length() const { return length_; }
  double volume() const { return length_.x * length_.y * length_.z; }
  double shortest_edge() const { return std::min({length_.x, length_.y, length_.z}); }

  /// The box in arithmetic type T, for traversals and kernels.
  template <class T>
  BoxView<T> view() const {
    return {vec3_cast<T>(length_),
            {T(1) / T(length_.x), T(1) / T(length_.y), T(1) / T(length_.z)}};
  }

 private:
  Vec3<double> length_{};
};

}  // namespace novamd::core
