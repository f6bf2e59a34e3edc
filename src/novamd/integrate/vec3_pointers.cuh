#pragma once
/// @file vec3_pointers.cuh
/// Structure-of-arrays pointers of one vector quantity on the device (positions, velocities,
/// forces), as the per-particle kernels read and write them.

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

}  // namespace novamd::integrate
