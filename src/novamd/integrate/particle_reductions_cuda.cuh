#pragma once
/// @file particle_reductions_cuda.cuh
/// The per-particle reductions and checks of the CUDA backend (the updates themselves are
/// integrate/particle_updates.hpp, run by backend/for_each_particle_cuda.cuh).

#include <cstdint>

#include "novamd/core/state_check.hpp"
#include "novamd/core/box.hpp"
#include "novamd/integrate/vec3_pointers.hpp"

namespace novamd::integrate {

/// m v^2 (in energy units) of each particle.
__global__ void twice_kinetic_energy_kernel(int n, const double* __restrict__ mass_energy,
                                            const std::int32_t* __restrict__ type,
                                            Vec3Pointers velocity, double* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto v = velocity.get(i);
  out[i] = mass_energy[type[i]] * (v.x * v.x + v.y * v.y + v.z * v.z);
}

/// The particle's id where any of its state is not finite or it moves faster than
/// sqrt(max_speed_squared), else INT32_MAX (core/state_check.hpp; the host then names what).
__global__ void non_finite_id_kernel(int n, Vec3Pointers position, Vec3Pointers velocity,
                                     Vec3Pointers force, const double* __restrict__ energy,
                                     const std::int32_t* __restrict__ id,
                                     double max_speed_squared, std::int32_t* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const core::Instability what = core::instability_of(
      position.get(i), velocity.get(i), force.get(i), energy[i], max_speed_squared);
  out[i] = what == core::Instability::None ? INT32_MAX : id[i];
}

}  // namespace novamd::integrate
