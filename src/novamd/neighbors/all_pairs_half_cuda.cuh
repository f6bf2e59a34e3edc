#pragma once
/// @file all_pairs_half_cuda.cuh
/// All pairs on the GPU with each pair computed once (Newton's third law), deterministically.
///
/// The particles are cut into G ranges of R. One warp-sized block handles each range pair
/// (a, b), a <= b: targets of range a, 4 per lane in registers, against the sources of range b in
/// shared memory. A warp takes the sources 8 at a time, each against its 128 targets (broadcast
/// loads); the 8 reactions are summed over the lanes by a fixed reduce-scatter of shuffles, and
/// each lane keeps the total of one source per 32. A diagonal block (a == a) computes its pairs
/// from both sides instead (no reactions).
///
/// Every particle of range c receives exactly one partial sum per range: from block (c, s) as
/// a target for s >= c, from block (s, c) as a source for s < c. Written to slot s of the
/// partial buffer and summed in slot order by add_chunk_sums_kernel (all_pairs_cuda.cuh), the
/// result is bitwise reproducible without atomics.
///
/// Excluded pairs (excluded_rows.hpp): each target walks its row beside the range's sources,
/// which it meets in ascending order; an excluded pair adds nothing to the target's sum nor to
/// the source's reaction (a diagonal block meets it from both sides, and both rows name it). A
/// kernel instantiated without exclusions has no cursors.

#include <cuda_runtime.h>

#include <type_traits>
#include <vector>

#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/all_pairs_plan.hpp"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::neighbors {

inline constexpr int kHalfTargetsPerLane = kHalfTargetTile / 32;

/// Sums v[G] over the warp and scatters the G totals (G a power of two up to 32): afterwards
/// the lane holds the total of v[s] with s = the lane's bits 4 .. 5 - log2 G. log2 G halving
/// levels (offsets 16, 8, ...: G - 1 shuffles) then 5 - log2 G butterfly levels: 9 shuffles for
/// G = 8 instead of 40 for eight separate butterflies. The order of additions is fixed: the
/// result is reproducible.
template <int G, class T>
__device__ T warp_reduce_scatter(T (&v)[G], int lane) {
#pragma unroll
  for (int half = G / 2, offset = 16; half >= 1; half /= 2, offset /= 2) {
    const bool up = lane & offset;
#pragma unroll
    for (int j = 0; j < half; ++j) {
      const T send = up ? v[j] : v[j + half];
      v[j] = (up ? v[j + half] : v[j]) + __shfl_xor_sync(0xffffffffu, send, offset);
    }
  }
  T total = v[0];
#pragma unroll
  for (int offset = 16 / G; offset >= 1; offset /= 2) {
    total += __shfl_xor_sync(0xffffffffu, total, offset);
  }
  return total;
}

/// Sources per reaction reduction: 8 in FP32 (fewer shuffles per pair); 1 in FP64, where the
/// registers of eight reaction sums would cost more resident warps than the shuffles save
/// (measured on the H100: 2.16 ms with 1, 2.92 ms with 8 at 27,648 ions).
template <class T>
inline constexpr int kReactionGroup = sizeof(T) == 4 ? 8 : 1;

/// Forces (and energy, virial tensor) on 4 x 32 targets from sources [src_first, src_first + count)
/// held in shared memory; reactions added to `react` (per source, shared memory) unless
/// diagonal. Excluding: the pairs that the targets' rows name are left out.
template <class Evaluator, class AccT, bool WithEnergy, bool Excluding = false>
struct HalfTile {
  using T = typename Evaluator::Real;
  using Params = typename Evaluator::Params;
  static constexpr int U = kHalfTargetsPerLane;
  /// fx, fy, fz; with energy also the energy and the virial tensor (core/tensor.hpp order)
  static constexpr int kComponents = WithEnergy ? 4 + core::kTensorComponents : 3;
  static constexpr int kGroup = kReactionGroup<T>;
  static constexpr int kGroupsPerSubtile = 32 / kGroup;

  PairPosition<T> target[U];
  T charge[U];  ///< where the evaluator is scaled by charges (else 0)
  int index[U];
  T sum[U][kComponents];        ///< over the range (<= 512 sources) in the pair type; slots in AccT
  ExclusionCursor partners[U];  ///< Excluding: each target's partners from the range's start on

  /// Adds the pair (target u, source s) to the target's sum and to the reaction sums r.
  template <bool Diagonal>
  __device__ void add_pair(int u, const PairPosition<T>& s, T qs, int source_index,
                           const core::BoxView<T>& box, const Params* params, int num_types,
                           T (&tile_sum)[U][kComponents], T (&r)[kComponents]) {
    const auto d = box.minimum_image({target[u].x - s.x, target[u].y - s.y, target[u].z - s.z});
    const T r2 = d.x * d.x + d.y * d.y + d.z * d.z;
    const auto pair = physics::evaluate_pair<Evaluator>(
        r2, params[target[u].type * num_types + s.type], charge[u], qs);
    bool keep = index[u] >= 0 && (!Diagonal || index[u] != source_index);
    if constexpr (Excluding) keep = keep && !partners[u].excludes(source_index);
    const T f = keep ? pair.force_over_r : T(0);
    const T dq[3] = {d.x, d.y, d.z};
#pragma unroll
    for (int q = 0; q < 3; ++q) {
      tile_sum[u][q] = fma(f, dq[q], tile_sum[u][q]);
      r[q] = fma(f, dq[q], r[q]);
    }
    if constexpr (WithEnergy) {
      const T e = keep ? pair.energy : T(0);
      tile_sum[u][3] += e;
      r[3] += e;
      const T w[core::kTensorComponents] = {f * d.x * d.x, f * d.y * d.y, f * d.z * d.z,
                                            f * d.x * d.y, f * d.x * d.z, f * d.y * d.z};
#pragma unroll
      for (int k = 0; k < core::kTensorComponents; ++k) {
        tile_sum[u][4 + k] += w[k];
        r[4 + k] += w[k];
      }
    }
  }

  /// Diagonal: sources are the targets' own range; pairs are taken from both sides (no
  /// reactions) and a target's pair with itself is skipped.
  template <bool Diagonal>
  __device__ void run(const PairPosition<T>* sources, const T* source_charges, int src_first,
                      int count, const core::BoxView<T>& box, const Params* params, int num_types,
                      AccT* react, int react_stride) {
    const int lane = threadIdx.x & 31;
    // The source whose reaction this lane keeps within each 32-source subtile: group
    // lane mod (32 / G), member given by the lane's upper bits (warp_reduce_scatter).
    const int my_group = lane & (kGroupsPerSubtile - 1);
    const int my_source = my_group * kGroup + ((lane / kGroupsPerSubtile) & (kGroup - 1));
    for (int sub = 0; sub < count; sub += 32) {
      T tile_sum[U][kComponents] = {};
      T mine[kComponents] = {};
      const int steps = min(32, count - sub);
      for (int g = 0; g * kGroup < steps; ++g) {
        T r[kGroup][kComponents] = {};
#pragma unroll
        for (int k = 0; k < kGroup; ++k) {
          const int j = g * kGroup + k;
          if (j >= steps) break;
          const PairPosition<T> s = sources[sub + j];
          const T qs = physics::kReadsCharges<Evaluator> ? source_charges[sub + j] : T(0);
#pragma unroll
          for (int u = 0; u < U; ++u) {
            add_pair<Diagonal>(u, s, qs, src_first + sub + j, box, params, num_types, tile_sum,
                               r[k]);
          }
        }
        if constexpr (!Diagonal) {
#pragma unroll
          for (int q = 0; q < kComponents; ++q) {
            T v[kGroup];
#pragma unroll
            for (int k = 0; k < kGroup; ++k) v[k] = r[k][q];
            const T total = warp_reduce_scatter<kGroup>(v, lane);
            if (my_group == g) mine[q] = total;
          }
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int q = 0; q < kComponents; ++q) sum[u][q] += tile_sum[u][q];
      if (!Diagonal && my_source < steps) {
        // Forces act on the source with the opposite sign; energy and virial count for both.
#pragma unroll
        for (int q = 0; q < kComponents; ++q) {
          react[q * react_stride + sub + my_source] += q < 3 ? -AccT(mine[q]) : AccT(mine[q]);
        }
      }
    }
  }
};

template <class Evaluator, class AccT, bool WithEnergy, bool Excluding>
__global__ void __launch_bounds__(32)
    all_pairs_half_kernel(const PairPosition<typename Evaluator::Real>* __restrict__ pos, int n,
                          int range, const int2* __restrict__ range_pairs,
                          core::BoxView<typename Evaluator::Real> box,
                          const typename Evaluator::Params* __restrict__ table, int num_types,
                          const double* __restrict__ charge, ExcludedRowsView excluded,
                          PartialSumsView<AccT> partial) {
  using T = typename Evaluator::Real;
  using Params = typename Evaluator::Params;
  using Tile = HalfTile<Evaluator, AccT, WithEnergy, Excluding>;
  constexpr int C = Tile::kComponents;
  constexpr bool kCharges = physics::kReadsCharges<Evaluator>;
  extern __shared__ __align__(16) unsigned char shared[];
  auto* react = reinterpret_cast<AccT*>(shared);                          // C x range
  auto* sources = reinterpret_cast<PairPosition<T>*>(react + C * range);  // range
  auto* source_charges = reinterpret_cast<T*>(sources + range);           // range, if charges
  auto* params = reinterpret_cast<Params*>(source_charges + (kCharges ? range : 0));  // types^2

  const int2 ab = range_pairs[blockIdx.x];
  const int a_begin = ab.x * range, a_end = min(n, a_begin + range);
  const int b_begin = ab.y * range, b_end = min(n, b_begin + range);
  const bool diagonal = ab.x == ab.y;
  const int lane = threadIdx.x;
  for (int k = lane; k < num_types * num_types; k += 32) params[k] = table[k];
  for (int k = lane; k < b_end - b_begin; k += 32) {
    sources[k] = pos[b_begin + k];
    if constexpr (kCharges) source_charges[k] = physics::charge_of<Evaluator>(charge, b_begin + k);
  }
  for (int k = lane; k < C * range; k += 32) react[k] = AccT(0);
  __syncwarp();

  for (int tile = a_begin; tile < a_end; tile += kHalfTargetTile) {
    Tile t;
#pragma unroll
    for (int u = 0; u < Tile::U; ++u) {
      const int i = tile + u * 32 + lane;
      t.index[u] = i < a_end ? i : -1;
      t.target[u] = i < a_end ? pos[i] : PairPosition<T>{T(0), T(0), T(0), 0};
      t.charge[u] = i < a_end ? physics::charge_of<Evaluator>(charge, i) : T(0);
      if constexpr (Excluding) {
        t.partners[u] = {};
        if (i < a_end) {
          t.partners[u] = excluded.row(i);
          t.partners[u].seek(b_begin);
        }
      }
#pragma unroll
      for (int q = 0; q < C; ++q) t.sum[u][q] = T(0);
    }
    if (diagonal) {
      t.template run<true>(sources, source_charges, b_begin, b_end - b_begin, box, params,
                           num_types, react, range);
    } else {
      t.template run<false>(sources, source_charges, b_begin, b_end - b_begin, box, params,
                            num_types, react, range);
    }
#pragma unroll
    for (int u = 0; u < Tile::U; ++u) {
      if (t.index[u] < 0) continue;
      const std::size_t slot = static_cast<std::size_t>(ab.y) * n + t.index[u];
      partial.fx[slot] = t.sum[u][0];
      partial.fy[slot] = t.sum[u][1];
      partial.fz[slot] = t.sum[u][2];
      if constexpr (WithEnergy) {
        partial.energy[slot] = t.sum[u][3];
#pragma unroll
        for (int k = 0; k < core::kTensorComponents; ++k) partial.virial[k][slot] = t.sum[u][4 + k];
      }
    }
    __syncwarp();
  }
  if (diagonal) return;
  for (int k = lane; k < b_end - b_begin; k += 32) {
    const std::size_t slot = static_cast<std::size_t>(ab.x) * n + b_begin + k;
    partial.fx[slot] = react[0 * range + k];
    partial.fy[slot] = react[1 * range + k];
    partial.fz[slot] = react[2 * range + k];
    if constexpr (WithEnergy) {
      partial.energy[slot] = react[3 * range + k];
#pragma unroll
      for (int c = 0; c < core::kTensorComponents; ++c)
        partial.virial[c][slot] = react[(4 + c) * range + k];
    }
  }
}

/// The range pairs (a, b), a <= b, of G ranges, and the range length, cached for one N.
class RangePairs {
 public:
  const int2* device_pairs(int n, int range) {
    const int g = (n + range - 1) / range;
    if (g != groups_) {
      std::vector<int2> pairs;
      for (int a = 0; a < g; ++a)
        for (int b = a; b < g; ++b) pairs.push_back({a, b});
      pairs_.copy_from_host(pairs, nullptr);
      NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());
      groups_ = g;
    }
    return pairs_.data();
  }
  int count() const { return static_cast<int>(pairs_.size()); }

 private:
  int groups_ = 0;
  core::DeviceBuffer<int2> pairs_;
};

/// One warp per range pair of `device_pairs` (`count` of them); Excluding: the pairs of
/// `excluded` left out.
template <class Evaluator, class AccT, bool WithEnergy, bool Excluding>
void launch_half_kernel(const PairPosition<typename Evaluator::Real>* pos, int n, int range,
                        const int2* device_pairs, int count,
                        const core::BoxView<typename Evaluator::Real>& box,
                        const typename Evaluator::Params* table, int num_types,
                        const double* charge, const ExcludedRowsView& excluded,
                        PartialSums<AccT>& partial, cudaStream_t stream) {
  using T = typename Evaluator::Real;
  constexpr int C = HalfTile<Evaluator, AccT, WithEnergy>::kComponents;
  const std::size_t charges = physics::kReadsCharges<Evaluator> ? sizeof(T) * range : 0;
  const std::size_t bytes = sizeof(AccT) * C * range + sizeof(PairPosition<T>) * range + charges +
                            sizeof(typename Evaluator::Params) * num_types * num_types;
  auto* kernel = all_pairs_half_kernel<Evaluator, AccT, WithEnergy, Excluding>;
  // Raise the kernel's shared-memory limit once per size, not on every launch (a host call on
  // the step's path). One device per process: the attribute holds for every later launch.
  static std::size_t configured_bytes = 0;
  if (bytes > configured_bytes) {
    NOVAMD_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));
    configured_bytes = bytes;
  }
  if (count == 0) return;
  kernel<<<count, 32, bytes, stream>>>(pos, n, range, device_pairs, box, table, num_types, charge,
                                       excluded, partial.view());
  NOVAMD_CUDA_CHECK_LAUNCH();
}

/// launch_half_kernel with or without energies, as `mode` says, and with or without the
/// exclusions of `excluded` (none by default).
template <class Evaluator, class AccT>
void launch_half_kernel_for(const OutputMode& mode,
                            const PairPosition<typename Evaluator::Real>* pos, int n, int range,
                            const int2* device_pairs, int count,
                            const core::BoxView<typename Evaluator::Real>& box,
                            const typename Evaluator::Params* table, int num_types,
                            const double* charge, PartialSums<AccT>& partial, cudaStream_t stream,
                            const ExcludedRowsView& excluded = {}) {
  with_flags(mode.with_energy, excluded.any(), [&](auto with_energy, auto excluding) {
    launch_half_kernel<Evaluator, AccT, decltype(with_energy)::value, decltype(excluding)::value>(
        pos, n, range, device_pairs, count, box, table, num_types, charge, excluded, partial,
        stream);
  });
}

/// Each pair once but the pairs of `excluded` (none by default); results written to or added
/// to `out` as `mode` says.
template <class Evaluator, class AccT>
void all_pairs_half_cuda(const PairPosition<typename Evaluator::Real>* pos, int n, int range,
                         RangePairs& pairs, const core::BoxView<typename Evaluator::Real>& box,
                         const typename Evaluator::Params* table, int num_types,
                         const double* charge, PartialSums<AccT>& partial, ForceOutputView out,
                         OutputMode mode, cudaStream_t stream,
                         const ExcludedRowsView& excluded = {}) {
  const int groups = (n + range - 1) / range;
  partial.resize(static_cast<std::size_t>(groups) * n);
  const int2* device_pairs = pairs.device_pairs(n, range);  // builds them: before count()
  launch_half_kernel_for<Evaluator, AccT>(mode, pos, n, range, device_pairs, pairs.count(), box,
                                          table, num_types, charge, partial, stream, excluded);
  launch_chunk_sums(partial, groups, n, out, mode, stream);
}

// --- A block of the force matrix, each pair once (decomposed runs) ---------------------------
//
// The ranges of R particles are dealt out in blocks: rank (p, q) holds target ranges TR_p and
// source ranges SR_q. It takes the range pairs (a, b), a in TR_p, b in SR_q, for which
// block_takes_pair(a, b) holds, and the diagonal pairs (a, a) in TR_p ∩ SR_q. For a != b
// exactly one of (a, b) and (b, a) is taken, by the rank that holds it: over all ranks every
// pair is computed once, and the checkerboard of the rule gives each rank about half its
// block. The half kernel above computes them (targets a, reactions on b). Each particle gets at
// most one partial per slot on a rank (both (a, b) and (b, a) are never taken), and the slot
// sums below add exactly the slots written, in slot order: no atomics, reproducible.

/// Whether the rank holding the ordered range pair (a, b), a != b, computes it.
__host__ __device__ inline bool block_takes_pair(int a, int b) {
  return (a < b) != (((a + b) & 1) != 0);
}

/// A rank's target and source ranges, in units of ranges of R particles.
struct RangeBlock {
  int target_begin, target_end, source_begin, source_end;
  __host__ __device__ bool is_target(int c) const { return c >= target_begin && c < target_end; }
  __host__ __device__ bool is_source(int c) const { return c >= source_begin && c < source_end; }
  /// Whether a particle of range c received a partial in slot s on this rank.
  __host__ __device__ bool slot_written(int c, int s) const {
    const bool as_target = is_target(c) && is_source(s) && (s == c || block_takes_pair(c, s));
    const bool as_source = is_source(c) && is_target(s) && s != c && block_takes_pair(s, c);
    return as_target || as_source;
  }
};

/// The range pairs a block computes.
inline std::vector<int2> block_range_pairs(const RangeBlock& b) {
  std::vector<int2> pairs;
  for (int a = b.target_begin; a < b.target_end; ++a)
    for (int s = b.source_begin; s < b.source_end; ++s)
      if (a == s || block_takes_pair(a, s)) pairs.push_back({a, s});
  return pairs;
}

/// Sums the written slots of each particle of the block's targets and sources, in slot order,
/// into `out` (energy and virial halved, as add_chunk_sums_kernel); other particles untouched.
template <class AccT, bool Accumulate, bool WithEnergy>
__global__ void add_block_slot_sums_kernel(PartialSumsView<AccT> partial, int slots, int n,
                                           int range, RangeBlock block, ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int c = i / range;
  if (!block.is_target(c) && !block.is_source(c)) return;
  SlotSums<AccT, WithEnergy> sums;
  for (int s = 0; s < slots; ++s)
    if (block.slot_written(c, s)) sums.add(partial, static_cast<std::size_t>(s) * n + i);
  sums.template store<Accumulate>(out, i);
}

/// The range pairs of one block, on the device (built once: a run's block does not change).
class BlockRangePairs {
 public:
  const int2* device_pairs(const RangeBlock& block) {
    if (!built_) {
      pairs_.copy_from_host(block_range_pairs(block), nullptr);
      NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());
      built_ = true;
    }
    return pairs_.data();
  }
  int count() const { return static_cast<int>(pairs_.size()); }

 private:
  bool built_ = false;
  core::DeviceBuffer<int2> pairs_;
};

/// Each pair of the rank's block once, with reactions: forces, energy and virial written to or
/// added to the entries of the block's targets and sources in `out` (for a particle that is
/// both, the sum of the two). `block` in units of `range` particles.
template <class Evaluator, class AccT>
void all_pairs_half_block_cuda(const PairPosition<typename Evaluator::Real>* pos, int n, int range,
                               const RangeBlock& block, BlockRangePairs& pairs,
                               const core::BoxView<typename Evaluator::Real>& box,
                               const typename Evaluator::Params* table, int num_types,
                               const double* charge, PartialSums<AccT>& partial,
                               ForceOutputView out, OutputMode mode, cudaStream_t stream) {
  const int groups = (n + range - 1) / range;
  partial.resize(static_cast<std::size_t>(groups) * n);
  const int2* device_pairs = pairs.device_pairs(block);  // builds them: before count()
  launch_half_kernel_for<Evaluator, AccT>(mode, pos, n, range, device_pairs, pairs.count(), box,
                                          table, num_types, charge, partial, stream);
  constexpr int kReduceBlock = 256;
  const int blocks = (n + kReduceBlock - 1) / kReduceBlock;
  with_output_mode(mode, [&](auto with_energy, auto accumulate) {
    add_block_slot_sums_kernel<AccT, decltype(accumulate)::value, decltype(with_energy)::value>
        <<<blocks, kReduceBlock, 0, stream>>>(partial.view(), groups, n, range, block, out);
  });
  NOVAMD_CUDA_CHECK_LAUNCH();
}

}  // namespace novamd::neighbors
