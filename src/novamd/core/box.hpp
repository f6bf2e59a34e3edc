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
    return {nearest_image(d.x, length.x, inverse_length.x),
            nearest_image(d.y, length.y, inverse_length.y),
            nearest_image(d.z, length.z, inverse_length.z)};
  }

  /// d - L round(d / L). On the device d/L + 1.5 x 2^23 (2^52) is one fused multiply-add: three
  /// instructions per component. The two forms can differ only where d is within an ulp of
  /// +-L/2, where both images are equally near.
  NOVAMD_HD static T nearest_image(T d, T l, T inverse_l) {
#ifdef __CUDA_ARCH__
    constexpr T kMagic = sizeof(T) == 4 ? T(12582912.0f) : T(6755399441055744.0);
    return fma(-l, fma(d, inverse_l, kMagic) - kMagic, d);
#else
    return d - l * round_nearest(d * inverse_l);
#endif
  }

  /// Maps a position into the primary cell [0, L) along each axis.
  /// The same, adding to `image` the box lengths removed along each axis (the periodic images
  /// crossed), so that r + image * L stays the unwrapped position.
  template <class I>
  NOVAMD_HD Vec3<T> wrap(Vec3<T> r, Vec3<I>& image) const {
    const T sx = floor(r.x * inverse_length.x), sy = floor(r.y * inverse_length.y),
            sz = floor(r.z * inverse_length.z);
    r.x -= length.x * sx;
    r.y -= length.y * sy;
    r.z -= length.z * sz;
    image.x += static_cast<I>(sx);
    image.y += static_cast<I>(sy);
    image.z += static_cast<I>(sz);
    return r;
  }
  NOVAMD_HD Vec3<T> wrap(Vec3<T> r) const {
    r.x -= length.x * floor(r.x * inverse_length.x);
    r.y -= length.y * floor(r.y * inverse_length.y);
    r.z -= length.z * floor(r.z * inverse_length.z);
    return r;
  }
};

/// The simulation box: an orthorhombic cell [0, Lx) x [0, Ly) x [0, Lz), periodic in all three
/// axes.
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
    return {vec3_cast<T>(length_), {T(1) / T(length_.x), T(1) / T(length_.y), T(1) / T(length_.z)}};
  }

 private:
  Vec3<double> length_{};
};

}  // namespace novamd::core
