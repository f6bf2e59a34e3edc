#pragma once
/// @file device_sums.cuh
/// Whole-array reductions of the CUDA backend (CUB's device-wide sum and minimum), in a fixed
/// order for a given size and device: energies, virials, kinetic energy, the first flagged id.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_reduce.cuh>

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
    temp_.resize(std::max(bytes, min_bytes));
  }
  void sum(const double* in, double* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(
        cub::DeviceReduce::Sum(temp_.data(), bytes, in, out, static_cast<int>(n), stream));
  }
  void min(const std::int32_t* in, std::int32_t* out, std::size_t n, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    NOVAMD_CUDA_CHECK(
        cub::DeviceReduce::Min(temp_.data(), bytes, in, out, static_cast<int>(n), stream));
  }

 private:
  core::DeviceBuffer<unsigned char> temp_;
};

}  // namespace novamd::backend
