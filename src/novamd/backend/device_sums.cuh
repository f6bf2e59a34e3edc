#pragma once
/// @file device_sums.cuh
/// Whole-array reductions of the CUDA backend (CUB's device-wide sum and minimum), in a fixed
/// order for a given size and device: energies, virials, kinetic energy, the first flagged id;
/// and the seven sums of a scalar and a tensor (ScalarAndTensor) over shares a functor gives per
/// particle, in one reduction.

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_reduce.cuh>

#include "novamd/backend/particle_terms.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"

namespace novamd::backend {

/// Device sums of per-particle arrays (CUB), into a small device array of results.
class DeviceSums {
 public:
  void reserve(std::size_t n) {
    std::size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, static_cast<double*>(nullptr),
                           static_cast<double*>(nullptr), static_cast<int>(n));
    std::size_t min_bytes = 0;
    cub::DeviceReduce::Min(nullptr, min_bytes, static_cast<std::int32_t*>(nullptr),
                           static_cast<std::int32_t*>(nullptr), static_cast<int>(n));
    const std::size_t shares_bytes = std::max(shares_temp_bytes<TwiceKineticShares>(n),
                                              shares_temp_bytes<EnergyAndVirialShares>(n));
    temp_.resize(std::max({bytes, min_bytes, shares_bytes}));
  }
  /// Room for sum_shares over n items of `Shares` as well.
  template <class Shares>
  void reserve_shares(std::size_t n) {
    const std::size_t bytes = shares_temp_bytes<Shares>(n);
    if (bytes > temp_.size()) temp_.resize(bytes);
  }
  void sum(const double* in, double* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(
        cub::DeviceReduce::Sum(temp_.data(), bytes, in, out, static_cast<int>(n), stream));
  }
  /// *out = the sum over i < n of shares(i) (TwiceKineticShares or EnergyAndVirialShares, or
  /// another functor of a ScalarAndTensor whose room reserve_shares made).
  template <class Shares>
  void sum_shares(const Shares& shares, ScalarAndTensor* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(cub::DeviceReduce::Reduce(temp_.data(), bytes, shares_of(shares), out,
                                                static_cast<int>(n), AddScalarAndTensor{},
                                                ScalarAndTensor{}, stream));
  }
  void min(const std::int32_t* in, std::int32_t* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(
        cub::DeviceReduce::Min(temp_.data(), bytes, in, out, static_cast<int>(n), stream));
  }

 private:
  template <class Shares>
  static auto shares_of(const Shares& shares) {
    return thrust::make_transform_iterator(thrust::counting_iterator<int>(0), shares);
  }
  template <class Shares>
  static std::size_t shares_temp_bytes(std::size_t n) {
    std::size_t bytes = 0;
    cub::DeviceReduce::Reduce(nullptr, bytes, shares_of(Shares{}),
                              static_cast<ScalarAndTensor*>(nullptr), static_cast<int>(n),
                              AddScalarAndTensor{}, ScalarAndTensor{});
    return bytes;
  }

  core::DeviceBuffer<unsigned char> temp_;
};

}  // namespace novamd::backend
