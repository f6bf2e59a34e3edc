#pragma once
/// @file displacements_cuda.cuh
/// MSD displacements on the GPU (the CPU version: DisplacementTracker in
/// mean_squared_displacement.hpp): the same nearest-image step added per particle id every
/// step, and the per-species sums of |displacement|^2 as per-block partial sums (a fixed tree
/// in shared memory) added on the host in block order.

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particle_view.hpp"

namespace novamd::analysis {

inline constexpr int kDisplacementBlock = 256;

/// Arrays indexed by particle id.
struct DisplacementPointers {
  double *previous_x, *previous_y, *previous_z;
  double *x, *y, *z;  ///< displacement since the origin
  std::int32_t* type;
};

__global__ inline void start_displacements_kernel(core::ParticleView p, DisplacementPointers d) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= static_cast<int>(p.size)) return;
  const int id = p.id[k];
  d.previous_x[id] = p.x[k];
  d.previous_y[id] = p.y[k];
  d.previous_z[id] = p.z[k];
  d.x[id] = d.y[id] = d.z[id] = 0.0;
  d.type[id] = p.type[k];
}

__global__ inline void track_displacements_kernel(core::ParticleView p, core::BoxView<double> box,
                                                  DisplacementPointers d) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= static_cast<int>(p.size)) return;
  const int id = p.id[k];
  const core::Vec3<double> now{p.x[k], p.y[k], p.z[k]};
  const auto step = box.minimum_image(
      now - core::Vec3<double>{d.previous_x[id], d.previous_y[id], d.previous_z[id]});
  d.x[id] += step.x;
  d.y[id] += step.y;
  d.z[id] += step.z;
  d.previous_x[id] = now.x;
  d.previous_y[id] = now.y;
  d.previous_z[id] = now.z;
}

/// partial[block * species + a] = sum of |d|^2 over the block's ids of type a.
__global__ inline void squared_displacement_kernel(int n, int species, DisplacementPointers d,
                                                   double* __restrict__ partial) {
  __shared__ double tree[kDisplacementBlock];
  const int id = blockIdx.x * kDisplacementBlock + threadIdx.x;
  const double square = id < n ? d.x[id] * d.x[id] + d.y[id] * d.y[id] + d.z[id] * d.z[id] : 0.0;
  const int type = id < n ? d.type[id] : -1;
  for (int a = 0; a < species; ++a) {
    tree[threadIdx.x] = type == a ? square : 0.0;
    __syncthreads();
    for (int half = kDisplacementBlock / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) tree[threadIdx.x] += tree[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x * species + a] = tree[0];
    __syncthreads();
  }
}

class DeviceDisplacements {
 public:
  void start(const core::ParticleView& p, cudaStream_t stream) {
    for (auto* b : {&previous_x_, &previous_y_, &previous_z_, &x_, &y_, &z_}) b->resize(p.size);
    type_.resize(p.size);
    if (p.size == 0) return;
    start_displacements_kernel<<<blocks(p.size), kDisplacementBlock, 0, stream>>>(p, pointers());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  void track(const core::ParticleView& p, const core::Box& box, cudaStream_t stream) {
    if (p.size == 0) return;
    track_displacements_kernel<<<blocks(p.size), kDisplacementBlock, 0, stream>>>(
        p, box.view<double>(), pointers());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  std::vector<double> squared_sums(int species, cudaStream_t stream) {
    std::vector<double> sums(species, 0.0);
    const std::size_t n = type_.size();
    if (n == 0) return sums;
    partial_.resize(static_cast<std::size_t>(blocks(n)) * species);
    squared_displacement_kernel<<<blocks(n), kDisplacementBlock, 0, stream>>>(
        static_cast<int>(n), species, pointers(), partial_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    std::vector<double> partial;
    partial_.copy_to_host(partial, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int b = 0; b < blocks(n); ++b)
      for (int a = 0; a < species; ++a) sums[a] += partial[b * species + a];
    return sums;
  }

 private:
  static int blocks(std::size_t n) {
    return static_cast<int>((n + kDisplacementBlock - 1) / kDisplacementBlock);
  }
  DisplacementPointers pointers() {
    return {previous_x_.data(), previous_y_.data(), previous_z_.data(), x_.data(),
            y_.data(),          z_.data(),          type_.data()};
  }

  core::DeviceBuffer<double> previous_x_, previous_y_, previous_z_, x_, y_, z_, partial_;
  core::DeviceBuffer<std::int32_t> type_;
};

}  // namespace novamd::analysis
