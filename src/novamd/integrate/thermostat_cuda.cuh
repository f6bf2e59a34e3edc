#pragma once
/// @file thermostat_cuda.cuh
/// Thermostat kernels of the CUDA backend: the same per-particle updates as the CPU backend
/// (integrate/velocity_noise.hpp), one thread per particle.

#include <cstdint>

#include "novamd/integrate/velocity_noise.hpp"
#include "novamd/integrate/velocity_verlet_cuda.cuh"

namespace novamd::integrate {

/// v *= factor.
__global__ void scale_velocities_kernel(int n, double factor, Vec3Pointers velocity) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  velocity.set(i, factor * velocity.get(i));
}

/// The Langevin O step; heat[i] gains the particle's kinetic-energy change.
__global__ void thermalize_kernel(int n, VelocityNoise noise,
                                  const double* __restrict__ inverse_mass,
                                  const std::int32_t* __restrict__ type,
                                  const std::int32_t* __restrict__ id, Vec3Pointers velocity,
                                  double* __restrict__ heat) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double m_inverse = inverse_mass[type[i]];
  const auto before = velocity.get(i);
  const auto after = thermalized(before, id[i], m_inverse, noise);
  velocity.set(i, after);
  heat[i] += 0.5 * (core::dot(after, after) - core::dot(before, before)) / m_inverse;
}

}  // namespace novamd::integrate
