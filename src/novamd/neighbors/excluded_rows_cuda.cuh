#pragma once
/// @file excluded_rows_cuda.cuh
/// The excluded rows of excluded_rows.hpp on the GPU, built from the device topology's
/// exclusion lists (core::DeviceTopologyView, rows by id) for the particles' storage order:
/// one thread per particle writes where each id is stored, then one thread per row maps the
/// row's ids to storage indices and sorts them (insertion sort: rows hold a few to a few tens
/// of entries). Each thread writes only its own entries: no atomics. Rebuilt when the
/// particles were reordered.

#include <cuda_runtime.h>

#include <cstdint>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/topology.hpp"
#include "novamd/neighbors/excluded_rows.hpp"

namespace novamd::neighbors {

/// index_of_id[id[i]] = i for every particle.
__global__ inline void index_of_each_id_kernel(int n, const std::int32_t* __restrict__ id,
                                               std::int32_t* __restrict__ index_of_id) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) index_of_id[id[i]] = i;
}

/// Row a of `index`: the storage indices of row a of `excluded` (ids), ascending.
__global__ inline void excluded_rows_kernel(int rows, const std::int32_t* __restrict__ offsets,
                                            const std::int32_t* __restrict__ excluded,
                                            const std::int32_t* __restrict__ index_of_id,
                                            std::int32_t* __restrict__ index) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= rows) return;
  const int first = offsets[a], last = offsets[a + 1];
  for (int k = first; k < last; ++k) {
    const std::int32_t value = index_of_id[excluded[k]];
    int m = k;
    for (; m > first && index[m - 1] > value; --m) index[m] = index[m - 1];
    index[m] = value;
  }
}

/// The rows with their buffers, kept until the particles are reordered.
class DeviceExcludedRows {
 public:
  /// The rows of `topology`'s exclusions for the storage order `id` (n particles, device
  /// memory), rebuilt on `stream` where invalidated since the last call.
  ExcludedRowsView update(const core::DeviceTopologyView& topology, const std::int32_t* id, int n,
                          cudaStream_t stream) {
    if (stale_) {
      constexpr int kBlock = 256;
      index_of_id_.resize(static_cast<std::size_t>(n));
      index_.resize(static_cast<std::size_t>(topology.exclusion_count));
      if (n > 0) {
        index_of_each_id_kernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
            n, id, index_of_id_.data());
        NOVAMD_CUDA_CHECK_LAUNCH();
        const int rows = topology.particle_count;
        excluded_rows_kernel<<<(rows + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
            rows, topology.exclusion_offsets, topology.exclusion_ids, index_of_id_.data(),
            index_.data());
        NOVAMD_CUDA_CHECK_LAUNCH();
      }
      stale_ = false;
    }
    return {topology.exclusion_offsets, index_.data(), id};
  }
  /// The particles were reordered: the next update rebuilds.
  void invalidate() { stale_ = true; }
  std::size_t bytes() const { return index_of_id_.bytes() + index_.bytes(); }

 private:
  bool stale_ = true;
  core::DeviceBuffer<std::int32_t> index_of_id_, index_;
};

}  // namespace novamd::neighbors
