#pragma once
/// @file pair_counts_cuda.cuh
/// The g(r) pair histogram on the GPU (the CPU version: count_pairs in radial_distribution.hpp),
/// with the same bin of each pair (DistanceBins::bin_of). Thread i meets every j > i: the rest
/// of its own block's tile, then every later tile, each tile staged in shared memory. Counts are
/// 64-bit integer atomics (exact, so the histogram does not depend on the order of the adds):
/// into a histogram in shared memory, added to the global one at the end, or straight into the
/// global one where the histogram is too large for shared memory.

#include <cstdint>

#include "novamd/analysis/pair_bins.hpp"
#include "novamd/analysis/particle_tile_cuda.cuh"
#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particle_view.hpp"

namespace novamd::analysis {

inline constexpr int kPairCountBlock = 128;
/// The largest histogram kept in shared memory (the default 48 KiB per block, less the tile).
inline constexpr int kSharedHistogramBins = 5120;

template <bool kSharedHistogram>
__global__ void pair_count_kernel(core::ParticleView p, core::BoxView<double> box,
                                  DistanceBins bins, int species,
                                  unsigned long long* __restrict__ counts) {
  extern __shared__ unsigned long long shared_histogram[];
  __shared__ ParticleTile<kPairCountBlock> tile;
  const int n = static_cast<int>(p.size);
  const int size = species_pairs(species) * bins.bins;
  unsigned long long* histogram = kSharedHistogram ? shared_histogram : counts;
  if (kSharedHistogram)
    for (int k = threadIdx.x; k < size; k += blockDim.x) shared_histogram[k] = 0;

  const int i = blockIdx.x * kPairCountBlock + threadIdx.x;
  const bool active = i < n;
  const core::Vec3<double> ri =
      active ? core::Vec3<double>{p.x[i], p.y[i], p.z[i]} : core::Vec3<double>{};
  const int type_i = active ? p.type[i] : 0;
  for (int first = blockIdx.x * kPairCountBlock; first < n; first += kPairCountBlock) {
    tile.load(p, first, n);  // after the histogram is zeroed
    if (!active) continue;
    const int in_tile = min(kPairCountBlock, n - first);
    for (int k = 0; k < in_tile; ++k) {
      if (first + k <= i) continue;
      const int bin = bins.bin_of(box, ri, tile.position(k));
      if (bin >= 0)
        atomicAdd(&histogram[species_pair_index(type_i, tile.type[k], species) * bins.bins + bin],
                  1ull);
    }
  }
  if (!kSharedHistogram) return;
  __syncthreads();
  for (int k = threadIdx.x; k < size; k += blockDim.x)
    if (shared_histogram[k] != 0) atomicAdd(&counts[k], shared_histogram[k]);
}

/// Counts the pairs of device arrays `p` into `counts` on the host (layout of count_pairs).
class DevicePairCounts {
 public:
  void count(const core::ParticleView& p, const core::Box& box, const DistanceBins& bins,
             int species, std::vector<std::uint64_t>& counts, cudaStream_t stream) {
    static_assert(sizeof(std::uint64_t) == sizeof(unsigned long long));
    const int size = species_pairs(species) * bins.bins;
    histogram_.resize(size);
    histogram_.fill_zero(stream);
    auto* target = reinterpret_cast<unsigned long long*>(histogram_.data());
    const int blocks = static_cast<int>((p.size + kPairCountBlock - 1) / kPairCountBlock);
    if (blocks > 0 && size <= kSharedHistogramBins) {
      pair_count_kernel<true>
          <<<blocks, kPairCountBlock, size * sizeof(unsigned long long), stream>>>(
              p, box.view<double>(), bins, species, target);
      NOVAMD_CUDA_CHECK_LAUNCH();
    } else if (blocks > 0) {
      pair_count_kernel<false>
          <<<blocks, kPairCountBlock, 0, stream>>>(p, box.view<double>(), bins, species, target);
      NOVAMD_CUDA_CHECK_LAUNCH();
    }
    histogram_.copy_to_host(counts, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  core::DeviceBuffer<std::uint64_t> histogram_;
};

}  // namespace novamd::analysis
