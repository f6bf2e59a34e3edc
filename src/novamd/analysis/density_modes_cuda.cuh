#pragma once
/// @file density_modes_cuda.cuh
/// S(q) on the GPU (the CPU version: density_modes and bin_mode_sums in structure_factor.hpp),
/// with the same phase and column formulas (density_modes.hpp). Three passes, every sum in a
/// fixed order and without floating-point atomics:
///
/// 1. partial sums: block (tile of modes, chunk of particles); each thread sums rho_a(q) of its
///    mode over the chunk's particles in storage order, the particles staged in shared memory;
/// 2. rho_a(q): one thread per (mode, species) adds the chunks' partial sums in chunk order;
/// 3. bins: one thread per (bin, column) adds its column over the bin's modes in mode order.
///
/// Only the bin sums (bins x columns numbers) come back to the host.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "novamd/analysis/density_modes.hpp"
#include "novamd/analysis/particle_tile_cuda.cuh"
#include "novamd/analysis/structure_factor.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particle_view.hpp"

namespace novamd::analysis {

inline constexpr int kModeBlock = 128;
/// Species whose accumulators fit in shared memory (2 x 8 bytes x species x kModeBlock, 40 KiB
/// at this count); more species accumulate in global memory, each thread in its own slots.
inline constexpr int kSharedModeSpecies = 20;

/// Pass 1: partial[(chunk * modes + k) * species + a] = sum over the chunk's particles of type a
/// of cos (partial_re) and sin (partial_im) of q_k . r.
__global__ inline void density_mode_partials_kernel(core::ParticleView p, int chunk_size,
                                                    core::Vec3<double> inverse_length,
                                                    const WaveVector* __restrict__ vectors,
                                                    int modes, int species,
                                                    double* __restrict__ partial_re,
                                                    double* __restrict__ partial_im) {
  extern __shared__ double shared_sums[];  // [2 species][kModeBlock] when species fit
  __shared__ ParticleTile<kModeBlock> tile;
  const bool in_shared = species <= kSharedModeSpecies;
  const int k = blockIdx.x * kModeBlock + threadIdx.x;
  const bool active = k < modes;
  const std::size_t slot = (static_cast<std::size_t>(blockIdx.y) * modes + k) * species;
  // This thread's accumulators: a column of shared memory, or its own slots of the output.
  double* re = in_shared ? shared_sums + threadIdx.x : partial_re + slot;
  double* im = in_shared ? shared_sums + (species * kModeBlock + threadIdx.x) : partial_im + slot;
  const int stride = in_shared ? kModeBlock : 1;
  if (active)
    for (int a = 0; a < species; ++a) re[a * stride] = im[a * stride] = 0.0;
  const WaveVector q = active ? vectors[k] : WaveVector{};
  const int n = static_cast<int>(p.size);
  const int begin = blockIdx.y * chunk_size;
  const int end = min(n, begin + chunk_size);
  for (int first = begin; first < end; first += kModeBlock) {
    tile.load(p, first, end);
    if (!active) continue;
    const int in_tile = min(kModeBlock, end - first);
    for (int j = 0; j < in_tile; ++j) {
      double cosine, sine;
      mode_phase(q, inverse_length, tile.position(j), cosine, sine);
      re[tile.type[j] * stride] += cosine;
      im[tile.type[j] * stride] += sine;
    }
  }
  if (!active || !in_shared) return;
  for (int a = 0; a < species; ++a) {
    partial_re[slot + a] = re[a * stride];
    partial_im[slot + a] = im[a * stride];
  }
}

/// Pass 2: rho[k * species + a] = the chunks' partial sums added in chunk order.
__global__ inline void density_mode_reduce_kernel(int chunks, int entries,
                                                  const double* __restrict__ partial_re,
                                                  const double* __restrict__ partial_im,
                                                  double* __restrict__ re,
                                                  double* __restrict__ im) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  double sum_re = 0.0, sum_im = 0.0;
  for (int c = 0; c < chunks; ++c) {
    sum_re += partial_re[static_cast<std::size_t>(c) * entries + e];
    sum_im += partial_im[static_cast<std::size_t>(c) * entries + e];
  }
  re[e] = sum_re;
  im[e] = sum_im;
}

/// Pass 3: sums[bin * columns + column] = column summed over the bin's modes in mode order.
__global__ inline void mode_bin_sums_kernel(int bins, int species,
                                            const std::int64_t* __restrict__ bin_begin,
                                            const double* __restrict__ re,
                                            const double* __restrict__ im,
                                            const double* __restrict__ weights,
                                            double* __restrict__ sums) {
  const int columns = structure_factor_columns(species);
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= bins * columns) return;
  const int bin = e / columns, column = e % columns;
  double sum = 0.0;
  for (std::int64_t k = bin_begin[bin]; k < bin_begin[bin + 1]; ++k)
    sum += mode_column(column, re + k * species, im + k * species, species, weights);
  sums[e] = sum;
}

/// The S(q) bin sums of device arrays, with the modes kept on the device for the run.
class DeviceDensityModes {
 public:
  DeviceDensityModes(const ModeSet& modes, const std::vector<double>& weights, int species,
                     cudaStream_t stream)
      : modes_(static_cast<int>(modes.vectors.size())), bins_(modes.bins), species_(species) {
    vectors_.copy_from_host(modes.vectors, stream);
    bin_begin_.copy_from_host(modes.bin_begin, stream);
    weights_.copy_from_host(weights, stream);
    re_.resize(static_cast<std::size_t>(modes_) * species_);
    im_.resize(re_.size());
    sums_.resize(static_cast<std::size_t>(bins_) * structure_factor_columns(species_));
  }

  void bin_sums(const core::ParticleView& p, const core::Box& box, std::vector<double>& sums,
                cudaStream_t stream) {
    constexpr int kBlock = 256;
    const int chunks = chunk_count(p.size);
    const int chunk_size = static_cast<int>((p.size + chunks - 1) / chunks);
    const std::size_t entries = static_cast<std::size_t>(modes_) * species_;
    partial_re_.resize(entries * chunks);
    partial_im_.resize(entries * chunks);
    if (modes_ > 0 && p.size > 0) {
      const dim3 grid((modes_ + kModeBlock - 1) / kModeBlock, chunks);
      const std::size_t shared =
          species_ <= kSharedModeSpecies ? 2 * sizeof(double) * species_ * kModeBlock : 0;
      density_mode_partials_kernel<<<grid, kModeBlock, shared, stream>>>(
          p, chunk_size, box.view<double>().inverse_length, vectors_.data(), modes_, species_,
          partial_re_.data(), partial_im_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
      density_mode_reduce_kernel<<<static_cast<int>((entries + kBlock - 1) / kBlock), kBlock, 0,
                                   stream>>>(chunks, static_cast<int>(entries), partial_re_.data(),
                                             partial_im_.data(), re_.data(), im_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
    } else {
      re_.fill_zero(stream);
      im_.fill_zero(stream);
    }
    const int outputs = static_cast<int>(sums_.size());
    mode_bin_sums_kernel<<<(outputs + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
        bins_, species_, bin_begin_.data(), re_.data(), im_.data(), weights_.data(), sums_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    sums_.copy_to_host(sums, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  /// Chunks of particles: enough blocks to fill the GPU when the modes are few, and partial sums
  /// of at most about 256 MiB.
  int chunk_count(std::size_t particles) const {
    constexpr double kPartialBytes = 256.0 * 1024 * 1024;
    const double per_chunk = 16.0 * modes_ * species_;
    const int by_memory = std::max(1, static_cast<int>(kPartialBytes / std::max(per_chunk, 1.0)));
    const int by_particles = static_cast<int>((particles + kModeBlock - 1) / kModeBlock);
    return std::max(1, std::min({64, by_memory, by_particles}));
  }

  int modes_, bins_, species_;
  core::DeviceBuffer<WaveVector> vectors_;
  core::DeviceBuffer<std::int64_t> bin_begin_;
  core::DeviceBuffer<double> weights_, partial_re_, partial_im_, re_, im_, sums_;
};

}  // namespace novamd::analysis
