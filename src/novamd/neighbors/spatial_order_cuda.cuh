#pragma once
/// @file spatial_order_cuda.cuh
/// The order of particles along the Morton curve (space_filling_curve.hpp), on the GPU: keys,
/// then a stable CUB radix sort of (key, index). order[k] is the particle that goes to place k.

#include <cstdint>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/neighbors/cell_bins_cuda.cuh"
#include "novamd/neighbors/space_filling_curve.hpp"

namespace novamd::neighbors {

__global__ inline void morton_key_kernel(int n, const double* __restrict__ x,
                                         const double* __restrict__ y,
                                         const double* __restrict__ z, core::Vec3<double> length,
                                         std::uint32_t* __restrict__ key,
                                         std::uint32_t* __restrict__ index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  key[i] = morton_key({x[i], y[i], z[i]}, length);
  index[i] = i;
}

class DeviceSpatialOrder {
 public:
  /// Sorts positions (x, y, z) along the curve; the result stays valid until the next call.
  const std::uint32_t* compute(int n, const double* x, const double* y, const double* z,
                               const core::Box& box, cudaStream_t stream) {
    constexpr int kBlock = 256;
    for (auto* b : {&key_, &sorted_key_, &index_, &order_}) b->resize(n);
    if (n == 0) return order_.data();
    morton_key_kernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
        n, x, y, z, box.length(), key_.data(), index_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    constexpr int kBits = 3 * kMortonBitsPerAxis;
    radix_sort_pairs(temp_, key_.data(), sorted_key_.data(), index_.data(), order_.data(), n,
                     kBits, stream);
    return order_.data();
  }
  std::size_t bytes() const {
    return key_.bytes() + sorted_key_.bytes() + index_.bytes() + order_.bytes() + temp_.bytes();
  }

 private:
  core::DeviceBuffer<std::uint32_t> key_, sorted_key_, index_, order_;
  core::DeviceBuffer<unsigned char> temp_;
};

}  // namespace novamd::neighbors
