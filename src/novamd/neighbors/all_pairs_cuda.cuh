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
/// A block of the force matrix (neighbors/pair_block.hpp: a decomposed run's targets and
/// sources) runs the same kernels with the targets and sources offset; the whole matrix is the
/// block of one GPU.
///
/// Precision: pair arithmetic in Evaluator::Real; sums over one tile in that type, tiles summed
/// in AccT (double for `mixed`), chunks summed in double.
///
/// Excluded pairs (excluded_rows.hpp): where rows are given, each target walks its row beside
/// the chunk's sources, which ascend; a kernel instantiated without exclusions has no cursor.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/tensor.hpp"
#include "novamd/neighbors/excluded_rows.hpp"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "novamd/neighbors/force_output.hpp"
#include "novamd/neighbors/pair_block.hpp"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/physics/charge_scaled.hpp"

namespace novamd::neighbors {

inline constexpr int kAllPairsBlock = 128;

/// Per-(chunk, target) sums, each array chunks x n, chunk-major.
template <class AccT>
using PartialSumsView = ForceArraysView<AccT>;
template <class AccT>
using PartialSums = DeviceForceArrays<AccT>;

/// Targets [target_begin, target_begin + targets), sources [source_begin, source_end) of `pos`;
/// slot (chunk, target - target_begin) of `partial`. Excluding: the pairs of `excluded` left
/// out.
template <class Evaluator, class AccT, bool WithEnergy, bool Excluding>
__global__ void __launch_bounds__(kAllPairsBlock)
    all_pairs_chunk_kernel(const PairPosition<typename Evaluator::Real>* __restrict__ pos,
                           int target_begin, int targets, int source_begin, int source_end,
                           int sources_per_chunk, core::BoxView<typename Evaluator::Real> box,
                           const typename Evaluator::Params* __restrict__ table, int num_types,
                           const double* __restrict__ charge, ExcludedRowsView excluded,
                           PartialSumsView<AccT> partial) {
  using T = typename Evaluator::Real;
  using Params = typename Evaluator::Params;
  constexpr bool kCharges = physics::kReadsCharges<Evaluator>;
  __shared__ PairPosition<T> tile[kAllPairsBlock];
  __shared__ T charge_tile[kCharges ? kAllPairsBlock : 1];  ///< the sources' charges
  extern __shared__ unsigned char dynamic_shared[];
  auto* params = reinterpret_cast<Params*>(dynamic_shared);
  for (int k = threadIdx.x; k < num_types * num_types; k += blockDim.x) params[k] = table[k];

  const int local = blockIdx.x * kAllPairsBlock + threadIdx.x;
  const int i = target_begin + local;
  const PairPosition<T> target = local < targets ? pos[i] : PairPosition<T>{T(0), T(0), T(0), 0};
  const Params* row = params + target.type * num_types;
  const T qi = local < targets ? physics::charge_of<Evaluator>(charge, i) : T(0);
  const int begin = source_begin + blockIdx.y * sources_per_chunk;
  const int end = min(source_end, begin + sources_per_chunk);
  ExclusionCursor partners;  // the target's excluded partners from `begin` on
  if constexpr (Excluding) {
    if (local < targets) {
      partners = excluded.row(i);
      partners.seek(begin);
    }
  }

  AccT fx = 0, fy = 0, fz = 0, energy = 0;
  core::SymmetricTensor<AccT> virial;
  for (int tile_start = begin; tile_start < end; tile_start += kAllPairsBlock) {
    __syncthreads();  // the previous tile is consumed (and the parameter table is in place)
    if (tile_start + threadIdx.x < end) {
      tile[threadIdx.x] = pos[tile_start + threadIdx.x];
      if constexpr (kCharges)
        charge_tile[threadIdx.x] = physics::charge_of<Evaluator>(charge, tile_start + threadIdx.x);
    }
    __syncthreads();
    const int count = min(kAllPairsBlock, end - tile_start);
    T tfx = 0, tfy = 0, tfz = 0, te = 0;
    core::SymmetricTensor<T> tw;
#pragma unroll 4
    for (int k = 0; k < count; ++k) {
      const PairPosition<T> source = tile[k];
      const auto d =
          box.minimum_image({target.x - source.x, target.y - source.y, target.z - source.z});
      const T r2 = d.x * d.x + d.y * d.y + d.z * d.z;
      const auto pair = physics::evaluate_pair<Evaluator>(r2, row[source.type], qi,
                                                          kCharges ? charge_tile[k] : T(0));
      bool skip = tile_start + k == i;  // self: r2 = 0, the evaluator's result is discarded
      if constexpr (Excluding) skip = skip || partners.excludes(tile_start + k);
      const T f = skip ? T(0) : pair.force_over_r;
      tfx += f * d.x;
      tfy += f * d.y;
      tfz += f * d.z;
      if constexpr (WithEnergy) {
        te += skip ? T(0) : pair.energy;
        tw.add_outer(f, d.x, d.y, d.z);
      }
    }
    fx += tfx;
    fy += tfy;
    fz += tfz;
    if constexpr (WithEnergy) {
      energy += te;
      for (int k = 0; k < core::kTensorComponents; ++k) virial.c[k] += tw.c[k];
    }
  }
  if (local < targets) {
    const std::size_t slot = static_cast<std::size_t>(blockIdx.y) * targets + local;
    partial.fx[slot] = fx;
    partial.fy[slot] = fy;
    partial.fz[slot] = fz;
    if constexpr (WithEnergy) {
      partial.energy[slot] = energy;
      for (int k = 0; k < core::kTensorComponents; ++k) partial.virial[k][slot] = virial.c[k];
    }
  }
}

/// One particle's sum over partial-sum slots, in the order they are added, and its store into
/// the output (energy and virial halved: each pair was counted from both of its particles).
template <class AccT, bool WithEnergy>
struct SlotSums {
  double fx = 0, fy = 0, fz = 0, energy = 0;
  double virial[core::kTensorComponents] = {};

  __device__ void add(const PartialSumsView<AccT>& partial, std::size_t slot) {
    fx += partial.fx[slot];
    fy += partial.fy[slot];
    fz += partial.fz[slot];
    if constexpr (WithEnergy) {
      energy += partial.energy[slot];
      for (int k = 0; k < core::kTensorComponents; ++k) virial[k] += partial.virial[k][slot];
    }
  }
  /// Accumulate: add to the output (a later force term) instead of overwriting it (the first).
  template <bool Accumulate>
  __device__ void store(const ForceOutputView& out, int i) const {
    const auto put = [](double& to, double value) { to = Accumulate ? to + value : value; };
    put(out.fx[i], fx);
    put(out.fy[i], fy);
    put(out.fz[i], fz);
    if constexpr (WithEnergy) {
      put(out.energy[i], 0.5 * energy);
      for (int k = 0; k < core::kTensorComponents; ++k) put(out.virial[k][i], 0.5 * virial[k]);
    }
  }
};

/// Sums each target's chunk slots, in chunk order, into the output.
template <class AccT, bool Accumulate, bool WithEnergy>
__global__ void add_chunk_sums_kernel(PartialSumsView<AccT> partial, int chunks, int n,
                                      ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  SlotSums<AccT, WithEnergy> sums;
  for (int c = 0; c < chunks; ++c) sums.add(partial, static_cast<std::size_t>(c) * n + i);
  sums.template store<Accumulate>(out, i);
}

/// Calls `launch(a, b)` with std::bool_constant arguments for two run-time flags (a kernel's
/// compile-time choices: with energy, with exclusions).
template <class Launch>
void with_flags(bool a, bool b, Launch&& launch) {
  if (a) {
    b ? launch(std::true_type{}, std::true_type{}) : launch(std::true_type{}, std::false_type{});
  } else {
    b ? launch(std::false_type{}, std::true_type{}) : launch(std::false_type{}, std::false_type{});
  }
}

inline constexpr int kMinChunkSources = 32;

/// Sources per chunk for a block of `targets` x `sources`: enough chunks to give every
/// multiprocessor `blocks_per_sm` blocks, but at least kMinChunkSources sources per chunk; a
/// multiple of kMinChunkSources.
inline int choose_block_chunk_length(int targets, int sources, int multiprocessors,
                                     int blocks_per_sm = 8) {
  const int target_blocks = (targets + kAllPairsBlock - 1) / kAllPairsBlock;
  const int wanted = (multiprocessors * blocks_per_sm + target_blocks - 1) / target_blocks;
  const int length = (sources + wanted - 1) / wanted;
  const int rounded = (length + kMinChunkSources - 1) / kMinChunkSources * kMinChunkSources;
  return std::max(rounded, kMinChunkSources);
}

/// The same for the whole matrix of n particles.
inline int choose_chunk_length(int n, int multiprocessors, int blocks_per_sm = 8) {
  return choose_block_chunk_length(n, n, multiprocessors, blocks_per_sm);
}

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

/// Launches the traversal for the targets and sources of `block` (positions: all particles,
/// indexed globally) and writes or adds the results to the targets' entries of `out`; the
/// other entries are not touched. The pairs of `excluded` are left out (none by default).
template <class Evaluator, class AccT>
void all_pairs_cuda(const PairPosition<typename Evaluator::Real>* pos, const PairBlock& block,
                    const core::BoxView<typename Evaluator::Real>& box,
                    const typename Evaluator::Params* table, int num_types, const double* charge,
                    int chunk_length, PartialSums<AccT>& partial, ForceOutputView out,
                    OutputMode mode, cudaStream_t stream, const ExcludedRowsView& excluded = {}) {
  const int t0 = static_cast<int>(block.target_begin);
  const int targets = static_cast<int>(block.target_end - block.target_begin);
  const int sources = static_cast<int>(block.source_end - block.source_begin);
  if (targets == 0 || sources == 0) return;
  const int chunks = (sources + chunk_length - 1) / chunk_length;
  partial.resize(static_cast<std::size_t>(chunks) * targets);
  const int tiles = (targets + kAllPairsBlock - 1) / kAllPairsBlock;
  const dim3 grid(tiles, chunks);
  const std::size_t table_bytes = sizeof(typename Evaluator::Params) * num_types * num_types;
  const int s0 = static_cast<int>(block.source_begin), s1 = static_cast<int>(block.source_end);
  with_flags(mode.with_energy, excluded.any(), [&](auto with_energy, auto excluding) {
    all_pairs_chunk_kernel<Evaluator, AccT, decltype(with_energy)::value,
                           decltype(excluding)::value>
        <<<grid, kAllPairsBlock, table_bytes, stream>>>(pos, t0, targets, s0, s1, chunk_length, box,
                                                        table, num_types, charge, excluded,
                                                        partial.view());
  });
  NOVAMD_CUDA_CHECK_LAUNCH();
  launch_chunk_sums(partial, chunks, targets, out.from(t0), mode, stream);
}

/// Every particle against every other (`n` particles) but the pairs of `excluded`.
template <class Evaluator, class AccT>
void all_pairs_cuda(const PairPosition<typename Evaluator::Real>* pos, int n,
                    const core::BoxView<typename Evaluator::Real>& box,
                    const typename Evaluator::Params* table, int num_types, const double* charge,
                    int chunk_length, PartialSums<AccT>& partial, ForceOutputView out,
                    OutputMode mode, cudaStream_t stream, const ExcludedRowsView& excluded = {}) {
  all_pairs_cuda<Evaluator, AccT>(pos, PairBlock::whole(n), box, table, num_types, charge,
                                  chunk_length, partial, out, mode, stream, excluded);
}

}  // namespace novamd::neighbors
