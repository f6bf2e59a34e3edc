#pragma once
/// @file all_pairs_cuda.cuh
/// All-pairs traversal on the GPU, generic over the pair evaluator (the same one the CPU uses).
///
/// Targets live in registers, one per thread; sources stream through shared memory in tiles of
/// kBlock. When there are too few targets to fill the GPU, the source range is split into
/// `chunks` (seed 000's C): block (b, c) applies chunk c's sources to target block b and writes
/// its sums to slot c of a partial buffer. A second kernel adds the slots of each target in
/// chunk order. No floating-point atomics anywhere: results are bitwise reproducible.
///
/// Precision: pair arithmetic in Evaluator::Real; sums over one tile in that type, tiles summed
/// in AccT (double for `mixed`), chunks summed in double.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::neighbors {

inline constexpr int kAllPairsBlock = 128;

/// Per-(chunk, target) sums, each array chunks x n, chunk-major.
template <class AccT>
struct PartialSumsView {
  AccT *fx, *fy, *fz, *energy, *virial;
};

template <class AccT>
struct PartialSums {
  core::DeviceBuffer<AccT> fx, fy, fz, energy, virial;

  void resize(std::size_t size) {
    for (auto* b : {&fx, &fy, &fz, &energy, &virial}) b->resize(size);
  }
  PartialSumsView<AccT> view() {
    return {fx.data(), fy.data(), fz.data(), energy.data(), virial.data()};
  }
};

/// Where the traversal adds its results: per-particle force, energy share and virial share.
struct ForceOutputView {
  double *fx, *fy, *fz, *energy, *virial;
};

template <class Evaluator, class AccT, bool WithEnergy>
__global__ void __launch_bounds__(kAllPairsBlock)
    all_pairs_chunk_kernel(const PairPosition<typename Evaluator::Real>* __restrict__ pos, int n,
                           int sources_per_chunk, core::BoxView<typename Evaluator::Real> box,
                           const typename Evaluator::Params* __restrict__ table, int num_types,
                           PartialSumsView<AccT> partial) {
  using T = typename Evaluator::Real;
  using Params = typename Evaluator::Params;
  __shared__ PairPosition<T> tile[kAllPairsBlock];
  extern __shared__ unsigned char dynamic_shared[];
  auto* params = reinterpret_cast<Params*>(dynamic_shared);
  for (int k = threadIdx.x; k < num_types * num_types; k += blockDim.x) params[k] = table[k];

  const int i = blockIdx.x * kAllPairsBlock + threadIdx.x;
  const PairPosition<T> target = i < n ? pos[i] : PairPosition<T>{T(0), T(0), T(0), 0};
  const Params* row = params + target.type * num_types;
  const int begin = blockIdx.y * sources_per_chunk;
  const int end = min(n, begin + sources_per_chunk);

  AccT fx = 0, fy = 0, fz = 0, energy = 0, virial = 0;
  for (int tile_start = begin; tile_start < end; tile_start += kAllPairsBlock) {
    __syncthreads();  // the previous tile is consumed (and the parameter table is in place)
    if (tile_start + threadIdx.x < end) tile[threadIdx.x] = pos[tile_start + threadIdx.x];
    __syncthreads();
    const int count = min(kAllPairsBlock, end - tile_start);
    T tfx = 0, tfy = 0, tfz = 0, te = 0, tw = 0;
#pragma unroll 4
    for (int k = 0; k < count; ++k) {
      const PairPosition<T> source = tile[k];
      const auto d =
          box.minimum_image({target.x - source.x, target.y - source.y, target.z - source.z});
      const T r2 = d.x * d.x + d.y * d.y + d.z * d.z;
      const auto pair = Evaluator::evaluate(r2, row[source.type]);
      const bool self = tile_start + k == i;  // r2 = 0: the evaluator's result is discarded
      const T f = self ? T(0) : pair.force_over_r;
      tfx += f * d.x;
      tfy += f * d.y;
      tfz += f * d.z;
      if constexpr (WithEnergy) {
        te += self ? T(0) : pair.energy;
        tw += f * r2;
      }
    }
    fx += tfx;
    fy += tfy;
    fz += tfz;
    energy += te;
    virial += tw;
  }
  if (i < n) {
    const std::size_t slot = static_cast<std::size_t>(blockIdx.y) * n + i;
    partial.fx[slot] = fx;
    partial.fy[slot] = fy;
    partial.fz[slot] = fz;
    if constexpr (WithEnergy) {
      partial.energy[slot] = energy;
      partial.virial[slot] = virial;
    }
  }
}

/// Sums each target's chunk slots, in chunk order, into the output (energy and virial halved:
/// each pair was counted from both of its particles). Accumulate: add to the output (a later
/// force term) instead of overwriting it (the first).
template <class AccT, bool Accumulate, bool WithEnergy>
__global__ void add_chunk_sums_kernel(PartialSumsView<AccT> partial, int chunks, int n,
                                      ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double fx = 0, fy = 0, fz = 0, energy = 0, virial = 0;
  for (int c = 0; c < chunks; ++c) {
    const std::size_t slot = static_cast<std::size_t>(c) * n + i;
    fx += partial.fx[slot];
    fy += partial.fy[slot];
    fz += partial.fz[slot];
    if constexpr (WithEnergy) {
      energy += partial.energy[slot];
      virial += partial.virial[slot];
    }
  }
  const auto store = [](double& to, double value) { to = Accumulate ? to + value : value; };
  store(out.fx[i], fx);
  store(out.fy[i], fy);
  store(out.fz[i], fz);
  if constexpr (WithEnergy) {
    store(out.energy[i], 0.5 * energy);
    store(out.virial[i], 0.5 * virial);
  }
}

inline constexpr int kMinChunkSources = 32;

/// Sources per chunk: enough chunks to give every multiprocessor `blocks_per_sm` blocks, but
/// at least kMinChunkSources sources per chunk; a multiple of kMinChunkSources.
inline int choose_chunk_length(int n, int multiprocessors, int blocks_per_sm = 8) {
  const int target_blocks = (n + kAllPairsBlock - 1) / kAllPairsBlock;
  const int wanted = (multiprocessors * blocks_per_sm + target_blocks - 1) / target_blocks;
  const int length = (n + wanted - 1) / wanted;
  const int rounded = (length + kMinChunkSources - 1) / kMinChunkSources * kMinChunkSources;
  return std::max(rounded, kMinChunkSources);
}

/// How a traversal writes its results.
struct OutputMode {
  bool accumulate;   ///< add to the output (false: overwrite it; the first force term)
  bool with_energy;  ///< also energy and virial
};

template <class AccT, bool Accumulate, bool WithEnergy>
void launch_add_chunk_sums(PartialSums<AccT>& partial, int chunks, int n, ForceOutputView out,
                           cudaStream_t stream) {
  constexpr int kReduceBlock = 256;
  add_chunk_sums_kernel<AccT, Accumulate, WithEnergy>
      <<<(n + kReduceBlock - 1) / kReduceBlock, kReduceBlock, 0, stream>>>(partial.view(), chunks,
                                                                           n, out);
  NOVAMD_CUDA_CHECK_LAUNCH();
}

/// Sums `chunks` slots per particle into `out`, in slot order.
template <class AccT>
void launch_chunk_sums(PartialSums<AccT>& partial, int chunks, int n, ForceOutputView out,
                       OutputMode mode, cudaStream_t stream) {
  if (mode.accumulate) {
    mode.with_energy ? launch_add_chunk_sums<AccT, true, true>(partial, chunks, n, out, stream)
                     : launch_add_chunk_sums<AccT, true, false>(partial, chunks, n, out, stream);
  } else {
    mode.with_energy ? launch_add_chunk_sums<AccT, false, true>(partial, chunks, n, out, stream)
                     : launch_add_chunk_sums<AccT, false, false>(partial, chunks, n, out, stream);
  }
}

/// Launches the traversal for `n` particles and writes or adds the results to `out`.
template <class Evaluator, class AccT>
void all_pairs_cuda(const PairPosition<typename Evaluator::Real>* pos, int n,
                    const core::BoxView<typename Evaluator::Real>& box,
                    const typename Evaluator::Params* table, int num_types, int chunk_length,
                    PartialSums<AccT>& partial, ForceOutputView out, OutputMode mode,
                    cudaStream_t stream) {
  if (n == 0) return;
  const int chunks = (n + chunk_length - 1) / chunk_length;
  partial.resize(static_cast<std::size_t>(chunks) * n);
  const int tiles = (n + kAllPairsBlock - 1) / kAllPairsBlock;
  const dim3 grid(tiles, chunks);
  const std::size_t table_bytes = sizeof(typename Evaluator::Params) * num_types * num_types;
  const int sources_per_chunk = chunk_length;
  if (mode.with_energy) {
    all_pairs_chunk_kernel<Evaluator, AccT, true><<<grid, kAllPairsBlock, table_bytes, stream>>>(
        pos, n, sources_per_chunk, box, table, num_types, partial.view());
  } else {
    all_pairs_chunk_kernel<Evaluator, AccT, false><<<grid, kAllPairsBlock, table_bytes, stream>>>(
        pos, n, sources_per_chunk, box, table, num_types, partial.view());
  }
  NOVAMD_CUDA_CHECK_LAUNCH();
  launch_chunk_sums(partial, chunks, n, out, mode, stream);
}

}  // namespace novamd::neighbors
