#pragma once
/// @file vec3_pointers.cuh
/// Structure-of-arrays pointers of one vector quantity on the device (positions, velocities,
/// forces), as the per-particle kernels read and write them.

#include <cstdint>

#include "novamd/core/vec3.hpp"

namespace novamd::integrate {

struct Vec3Pointers {
  double *x, *y, *z;

  __device__ core::Vec3<double> get(int i) const { return {x[i], y[i], z[i]}; }
  __device__ void set(int i, const core::Vec3<double>& v) const {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
};

/// The image counts of the particles (core::ParticleFields::image), or none (all null) where
/// the system does not track them.
struct Int3Pointers {
  std::int32_t *x = nullptr, *y = nullptr, *z = nullptr;

  __device__ bool present() const { return x != nullptr; }
  __device__ core::Vec3<std::int32_t> get(int i) const { return {x[i], y[i], z[i]}; }
  __device__ void set(int i, const core::Vec3<std::int32_t>& v) const {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
};

}  // namespace novamd::integrate
