#pragma once
/// @file velocity_verlet_cuda.cuh
/// The per-particle kernels of the CUDA backend: kick and drift call the same host-device
/// updates as the CPU backend (integrate/velocity_verlet.hpp).

#include <cstdint>

#include "novamd/core/state_check.hpp"
#include "novamd/core/box.hpp"
#include "novamd/integrate/vec3_pointers.cuh"
#include "novamd/integrate/velocity_verlet.hpp"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::integrate {

/// v += dt F / m; `inverse_mass` per type, force-to-acceleration factor included.
__global__ void kick_kernel(int n, double dt, const double* __restrict__ inverse_mass,
                            const std::int32_t* __restrict__ type, Vec3Pointers velocity,
                            Vec3Pointers force) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  velocity.set(i, kicked(velocity.get(i), force.get(i), dt * inverse_mass[type[i]]));
}

/// x + dt v, wrapped, stored; the images crossed counted where the system tracks them.
__device__ inline core::Vec3<double> drift_one(int i, const core::Vec3<double>& v, double dt,
                                               const core::BoxView<double>& box,
                                               Vec3Pointers position, Int3Pointers image) {
  core::Vec3<double> x;
  if (image.present()) {
    auto crossed = image.get(i);
    x = drifted(position.get(i), v, dt, box, crossed);
    image.set(i, crossed);
  } else {
    x = drifted(position.get(i), v, dt, box);
  }
  position.set(i, x);
  return x;
}

/// x += dt v, wrapped; also refreshes the packed positions the pair kernels read.
template <class PairT>
__global__ void drift_kernel(int n, double dt, core::BoxView<double> box, Vec3Pointers position,
                             Vec3Pointers velocity, Int3Pointers image,
                             const std::int32_t* __restrict__ type,
                             neighbors::PairPosition<PairT>* __restrict__ packed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto x = drift_one(i, velocity.get(i), dt, box, position, image);
  packed[i] = {static_cast<PairT>(x.x), static_cast<PairT>(x.y), static_cast<PairT>(x.z), type[i]};
}

/// v += kick_dt F / m, then x += drift_dt v, wrapped, and the packed positions refreshed: the
/// two halves of velocity Verlet's first half step in one pass over the particles.
template <class PairT>
__global__ void kick_drift_kernel(int n, double kick_dt, double drift_dt,
                                  const double* __restrict__ inverse_mass,
                                  const std::int32_t* __restrict__ type, Vec3Pointers force,
                                  Vec3Pointers velocity, core::BoxView<double> box,
                                  Vec3Pointers position, Int3Pointers image,
                                  neighbors::PairPosition<PairT>* __restrict__ packed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int t = type[i];
  const auto v = kicked(velocity.get(i), force.get(i), kick_dt * inverse_mass[t]);
  velocity.set(i, v);
  const auto x = drift_one(i, v, drift_dt, box, position, image);
  packed[i] = {static_cast<PairT>(x.x), static_cast<PairT>(x.y), static_cast<PairT>(x.z), t};
}

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
