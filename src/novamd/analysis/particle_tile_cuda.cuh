#pragma once
/// @file particle_tile_cuda.cuh
/// A tile of particles staged in shared memory by a whole block, for the analysis kernels that
/// meet every particle with every thread (pair counts, density modes).

#include <cstdint>

#include "novamd/core/particle_view.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::analysis {

template <int kSize>
struct ParticleTile {
  double x[kSize], y[kSize], z[kSize];
  std::int32_t type[kSize];

  /// Particles first .. min(first + kSize, end) - 1, loaded by the block's first kSize threads.
  /// Every thread of the block must call it: it waits for the block before and after.
  __device__ void load(const core::ParticleView& p, int first, int end) {
    __syncthreads();  // the last tile is done with
    const int k = first + static_cast<int>(threadIdx.x);
    if (threadIdx.x < kSize && k < end) {
      x[threadIdx.x] = p.x[k];
      y[threadIdx.x] = p.y[k];
      z[threadIdx.x] = p.z[k];
      type[threadIdx.x] = p.type[k];
    }
    __syncthreads();
  }

  __device__ core::Vec3<double> position(int k) const { return {x[k], y[k], z[k]}; }
};

}  // namespace novamd::analysis
