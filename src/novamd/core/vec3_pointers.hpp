#pragma once
/// @file vec3_pointers.hpp
/// Structure-of-arrays pointers of one vector quantity (positions, velocities, forces), in host
/// or device memory, as the per-particle updates read and write them on either backend.

#include <cstddef>
#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

struct Vec3Pointers {
  double *x, *y, *z;

  NOVAMD_HD Vec3<double> get(int i) const { return {x[i], y[i], z[i]}; }
  NOVAMD_HD void set(int i, const Vec3<double>& v) const {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
};

/// The image counts of the particles (core::ParticleFields::image), or none (all null) where
/// the system does not track them.
struct Int3Pointers {
  std::int32_t *x = nullptr, *y = nullptr, *z = nullptr;

  NOVAMD_HD bool present() const { return x != nullptr; }
  NOVAMD_HD Vec3<std::int32_t> get(int i) const { return {x[i], y[i], z[i]}; }
  NOVAMD_HD void set(int i, const Vec3<std::int32_t>& v) const {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
};

/// Pointers to the arrays of `a` (host or device) from particle `first` on.
template <class Array>
Vec3Pointers pointers_of(Vec3Of<Array>& a, std::size_t first = 0) {
  return {a.x.data() + first, a.y.data() + first, a.z.data() + first};
}

/// The image counts from particle `first` on, or none where the field is absent.
template <class Array>
Int3Pointers image_pointers_of(Vec3Of<Array>& image, std::size_t first = 0) {
  if (image.x.size() == 0) return {};
  return {image.x.data() + first, image.y.data() + first, image.z.data() + first};
}

}  // namespace novamd::core
