#pragma once
/// @file neighbor_list_force_cuda.cuh
/// Pair forces over Verlet lists on the GPU: G lanes per target (target_lanes_cuda.cuh), lane l
/// reading the list that lane l of the build made, in its fixed order, so results are bitwise
/// reproducible; four entries (one 16-byte load) and their four sources' positions are loaded
/// before any of the four pairs is summed, so that a lane keeps four gathers in flight. Generic
/// over the evaluator, which must be zero beyond its cutoff (the lists hold pairs out to cutoff +
/// skin). Sums over one target in the pair type, stored in FP64.

#include <cuda_runtime.h>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/neighbor_list_cuda.cuh"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::neighbors {

inline constexpr int kListForceBlock = 128;

template <class Evaluator, int G, bool WithEnergy, bool Accumulate>
__global__ void __launch_bounds__(kListForceBlock)
    neighbor_list_force_kernel(const PairPosition<typename Evaluator::Real>* __restrict__ pos,
                               int targets, core::BoxView<typename Evaluator::Real> box,
                               const typename Evaluator::Params* __restrict__ table, int num_types,
                               const double* __restrict__ charge, NeighborListView list,
                               ForceOutputView out) {
  using T = typename Evaluator::Real;
  if (list.stale.raised()) return;  // queued again over the fresh list
  const auto* params = table_in_shared(table, num_types);
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const bool target = thread / G < targets;
  const int i = list.first + thread / G;
  const int lane = thread % G;
  LaneSums<T, WithEnergy> sums;
  if (target) {
    const PairPosition<T> target = pos[i];
    const auto* row = params + target.type * num_types;
    const T qi = physics::charge_of<Evaluator>(charge, i);
    const int neighbours = list.count[thread];  // this lane's list
    const int4* group = reinterpret_cast<const int4*>(list.entries) + thread;
    for (int r = 0; r < neighbours; r += 4, group += list.row_stride) {
      // Four sources loaded at once (entries past the count are stale: the first stands in).
      const int4 four = __ldg(group);
      const int left = neighbours - r;
      const int j[4] = {four.x, left > 1 ? four.y : four.x, left > 2 ? four.z : four.x,
                        left > 3 ? four.w : four.x};
      PairPosition<T> source[4];
      T qj[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        source[k] = pos[j[k]];
        qj[k] = physics::charge_of<Evaluator>(charge, j[k]);
      }
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (k < left) sums.template add<Evaluator>(target, source[k], box, row, qi, qj[k]);
    }
  }
  sums.template combine_lanes<G>();  // every lane of the warp takes part
  if (target && lane == 0) sums.template store<Accumulate>(out, i);
}

/// Forces over the lists on their targets (NeighborListView), written to or added to `out` as
/// `mode` says; the other particles' entries are left as they are.
template <class Evaluator>
void neighbor_list_force_cuda(const PairPosition<typename Evaluator::Real>* pos, int n,
                              const core::BoxView<typename Evaluator::Real>& box,
                              const typename Evaluator::Params* table, int num_types,
                              const double* charge, const NeighborListView& list,
                              ForceOutputView out, OutputMode mode, cudaStream_t stream) {
  const int targets = list.targets();
  if (n == 0 || targets == 0) return;
  with_lanes(list.lanes, [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    const long long threads = static_cast<long long>(targets) * G;
    const int blocks = static_cast<int>((threads + kListForceBlock - 1) / kListForceBlock);
    with_output_mode(mode, [&](auto with_energy, auto accumulate) {
      auto* kernel = neighbor_list_force_kernel<Evaluator, G, decltype(with_energy)::value,
                                                decltype(accumulate)::value>;
      const std::size_t shared = table_shared_bytes<typename Evaluator::Params>(kernel, num_types);
      kernel<<<blocks, kListForceBlock, shared, stream>>>(pos, targets, box, table, num_types,
                                                          charge, list, out);
      NOVAMD_CUDA_CHECK_LAUNCH();
    });
  });
}

}  // namespace novamd::neighbors
