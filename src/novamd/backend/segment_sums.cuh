#pragma once
/// @file segment_sums.cuh
/// Sums over several index ranges (segments) in one kernel launch, with no wait and no
/// floating-point atomics: each block sums a fixed chunk of one segment (each thread its items
/// in order, then cub::BlockReduce) into its own partial; the host adds a segment's partials in
/// block order once it has copied them. The grid depends only on the segments' sizes, so the
/// sums are the same, bit for bit, on every run on one device. A barostat's pressure samples
/// take one launch each this way (CUB's device-wide reduction takes two launches and a zeroing
/// per sum; on a step bound by the host's launches each costs some 5 us).

#include <algorithm>
#include <cstddef>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>

#include "novamd/core/cuda_check.cuh"

namespace novamd::backend {

/// The blocks of a segment sums: segment s has count[s] items in blocks
/// [first_block[s], first_block[s + 1]), each of per_block[s] items (the last fewer).
struct SegmentGrid {
  static constexpr int kMaxSegments = 4;
  static constexpr int kThreads = 256;
  /// A block's items where the blocks suffice: two a thread for light items (a particle's
  /// shares), one for heavy ones (a molecule's).
  static constexpr int kItemsPerBlock = 2 * kThreads;
  static constexpr int kMaxBlocks = 256;  ///< a segment's blocks at most

  int segments = 0;
  int count[kMaxSegments] = {};
  int per_block[kMaxSegments] = {};
  int first_block[kMaxSegments + 1] = {};

  /// The blocks a segment of `count` items takes, `items_per_block` a block where they suffice.
  static int blocks_for(std::size_t count, int items_per_block = kItemsPerBlock) {
    const auto per = static_cast<std::size_t>(items_per_block);
    const std::size_t blocks = (count + per - 1) / per;
    return static_cast<int>(std::min<std::size_t>(blocks, kMaxBlocks));
  }
  /// The grid of segments of the given sizes (at most kMaxSegments).
  template <class Counts>
  static SegmentGrid of(const Counts& counts, int items_per_block = kItemsPerBlock) {
    SegmentGrid grid;
    for (const std::size_t c : counts) {
      if (grid.segments == kMaxSegments) throw std::logic_error("SegmentGrid: too many segments");
      const int s = grid.segments++;
      const int blocks = blocks_for(c, items_per_block);
      grid.count[s] = static_cast<int>(c);
      grid.per_block[s] = blocks > 0 ? static_cast<int>((c + blocks - 1) / blocks) : 0;
      grid.first_block[s + 1] = grid.first_block[s] + blocks;
    }
    return grid;
  }
  int blocks() const { return first_block[segments]; }
};

template <class Entry, class Add, class Shares>
__global__ void __launch_bounds__(SegmentGrid::kThreads)
    segment_partials_kernel(Shares shares, SegmentGrid grid, Entry* partials) {
  const int b = static_cast<int>(blockIdx.x);
  int s = 0;
  while (s + 1 < grid.segments && b >= grid.first_block[s + 1]) ++s;
  const int begin = (b - grid.first_block[s]) * grid.per_block[s];
  const int end = min(grid.count[s], begin + grid.per_block[s]);
  const Add add;
  Entry sum{};
  for (int i = begin + static_cast<int>(threadIdx.x); i < end; i += SegmentGrid::kThreads)
    sum = add(sum, shares(s, i));
  using Reduce = cub::BlockReduce<Entry, SegmentGrid::kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const Entry total = Reduce(temp).Reduce(sum, add);
  if (threadIdx.x == 0) partials[b] = total;
}

/// Queues the partial sums of `shares(s, i)` (an Entry) over each segment s of `grid` into
/// partials[0 .. grid.blocks()); no wait.
template <class Entry, class Add, class Shares>
void queue_segment_partials(const Shares& shares, const SegmentGrid& grid, Entry* partials,
                            cudaStream_t stream) {
  if (grid.blocks() == 0) return;
  segment_partials_kernel<Entry, Add>
      <<<grid.blocks(), SegmentGrid::kThreads, 0, stream>>>(shares, grid, partials);
  NOVAMD_CUDA_CHECK_LAUNCH();
}

/// Segment s's sum from its partials as copied to the host (block order; zero where empty).
template <class Entry, class Add>
Entry segment_sum(const Entry* partials, const SegmentGrid& grid, int s) {
  const Add add;
  Entry sum{};
  for (int b = grid.first_block[s]; b < grid.first_block[s + 1]; ++b) sum = add(sum, partials[b]);
  return sum;
}

}  // namespace novamd::backend
