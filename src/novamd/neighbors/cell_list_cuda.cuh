#pragma once
/// @file cell_list_cuda.cuh
/// Pair forces over cell lists on the GPU: particles binned every evaluation into cells of at
/// least the cutoff (cell_bins_cuda.cuh), then G lanes per target (target_lanes_cuda.cuh) visit
/// the 27 cells around the target's cell in a fixed order, lane l taking every G-th entry of
/// each cell. No lists are kept: the device memory is a few integers per particle, at the cost
/// of about 27 (r_cell / r_c)^3 / (4 pi / 3) = 6.4 candidates per pair within the cutoff.
///
/// Excluded pairs (excluded_rows.hpp): a cell's particles ascend in storage order (the binning
/// sort is stable), so each lane walks its target's row beside the cell's entries, seeking
/// afresh (by bisection) where a new cell starts below the last source; the row, a few to a few
/// tens of entries, is read from memory once and from the cache after. A kernel instantiated
/// without exclusions has no cursor.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/cell_bins_cuda.cuh"
#include "novamd/neighbors/excluded_rows.hpp"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::neighbors {

inline constexpr int kCellForceBlock = 128;

template <class Evaluator, int G, bool WithEnergy, bool Accumulate, bool Excluding>
__global__ void __launch_bounds__(kCellForceBlock)
    cell_list_force_kernel(const PairPosition<typename Evaluator::Real>* __restrict__ pos, int n,
                           core::BoxView<typename Evaluator::Real> box,
                           const typename Evaluator::Params* __restrict__ table, int num_types,
                           const double* __restrict__ charge, CellBinsView bins,
                           ExcludedRowsView excluded, ForceOutputView out) {
  using T = typename Evaluator::Real;
  const auto* params = table_in_shared(table, num_types);
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = thread / G;
  const int lane = thread % G;
  LaneSums<T, WithEnergy> sums;
  if (i < n) {
    const PairPosition<T> target = pos[i];
    const auto* row = params + target.type * num_types;
    const int3 c = bins.grid.coordinates(float(target.x), float(target.y), float(target.z));
    const T qi = physics::charge_of<Evaluator>(charge, i);
    ExclusionCursor partners, from_start;  // Excluding: the target's row
    int last = INT32_MAX;                  // the last source visited (none: seek at the first)
    if constexpr (Excluding) from_start = excluded.row(i);
    for_each_in_neighbour_cells<G>(bins, c, lane, [&](int j) {
      if constexpr (Excluding) {
        if (j < last) {  // a new cell, below the last: seek from the row's start
          partners = from_start;
          partners.seek(j);
        }
        last = j;
        if (partners.excludes(j)) return;
      }
      if (j != i)
        sums.template add<Evaluator>(target, pos[j], box, row, qi,
                                     physics::charge_of<Evaluator>(charge, j));
    });
  }
  sums.template combine_lanes<G>();  // every lane of the warp takes part
  if (i < n && lane == 0) sums.template store<Accumulate>(out, i);
}

/// Bins the particles into cells of at least `cutoff` and evaluates the forces over the 27
/// cells around each target but the pairs of `excluded` (none by default), written to or
/// added to `out` as `mode` says.
template <class Evaluator>
void cell_list_force_cuda(const PairPosition<typename Evaluator::Real>* pos, int n,
                          const core::Box& host_box,
                          const core::BoxView<typename Evaluator::Real>& box,
                          const typename Evaluator::Params* table, int num_types,
                          const double* charge, double cutoff, int lanes, DeviceCellBins& bins,
                          ForceOutputView out, OutputMode mode, cudaStream_t stream,
                          const ExcludedRowsView& excluded = {}) {
  if (n == 0) return;
  bins.bin(pos, n, host_box, cutoff, stream);
  with_lanes(lanes, [&](auto lanes_constant) {
    constexpr int G = decltype(lanes_constant)::value;
    const long long threads = static_cast<long long>(n) * G;
    const int blocks = static_cast<int>((threads + kCellForceBlock - 1) / kCellForceBlock);
    with_output_mode(mode, [&](auto with_energy, auto accumulate) {
      const auto launch = [&](auto excluding) {
        auto* kernel =
            cell_list_force_kernel<Evaluator, G, decltype(with_energy)::value,
                                   decltype(accumulate)::value, decltype(excluding)::value>;
        const std::size_t shared =
            table_shared_bytes<typename Evaluator::Params>(kernel, num_types);
        kernel<<<blocks, kCellForceBlock, shared, stream>>>(pos, n, box, table, num_types, charge,
                                                            bins.view(), excluded, out);
      };
      excluded.any() ? launch(std::true_type{}) : launch(std::false_type{});
      NOVAMD_CUDA_CHECK_LAUNCH();
    });
  });
}

}  // namespace novamd::neighbors
