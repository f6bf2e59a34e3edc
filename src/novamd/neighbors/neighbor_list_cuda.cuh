#pragma once
/// @file neighbor_list_cuda.cuh
/// Verlet lists on the GPU: particles binned into cells of at least half of cutoff + skin
/// (cell_bins_cuda.cuh; cells of the whole range where the box holds fewer than 5 of half), then
/// the G lanes of each target (target_lanes_cuda.cuh) scan the cells within two cells of its own
/// (one, with cells of the whole range) whose nearest point lies within range of the target,
/// each row of such cells as one range of the sorted entries, lane l taking every G-th entry
/// (the candidates read from a copy of the positions in cell order, one load each);
/// each lane keeps its own list of the particles within cutoff + skin, in a fixed order, and the
/// force kernel's lane l reads exactly that list. Half cells scan about a quarter of the
/// candidates that the 27 cells of the whole range hold. Full lists (each pair in both
/// particles' lists: no scattered reactions, so no atomics and reproducible sums), stored so
/// that a warp's reads of one round are contiguous. A list that would overflow its capacity
/// grows and is built again: no pair is ever dropped. Excluded pairs (exclusions.hpp) are left
/// out. Rebuilt when a particle has moved more than skin/2 since the last build: a kernel
/// decides on the device and tells the host through one mapped word; the force term evaluates
/// over the present lists while the host waits for that word (evaluate_current).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/cell_bins_cuda.cuh"
#include "novamd/neighbors/exclusions.hpp"
#include "novamd/neighbors/list_freshness_cuda.cuh"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::neighbors {

/// Lane l of target first + i (thread t = i G + l): its entries in groups of four, entries 4 r
/// to 4 r + 3 the int4 at (r row_stride + t) (one 16-byte access a lane, a warp's 32
/// contiguous); its length at count[t]. The targets are particles first .. first + row_stride / G
/// - 1: every particle, or a spatial decomposition's owned range (DeviceVerletList::set_targets).
struct NeighborListView {
  const int* entries;  ///< int4 groups, 16-byte aligned
  const int* count;
  int lanes;               ///< G, a power of two
  std::size_t row_stride;  ///< targets x G: groups between one round of four and the next
  StaleFlag stale;         ///< the force kernel does nothing where it is raised
  int first = 0;           ///< the first target
  /// How many targets the lists hold.
  __host__ __device__ int targets() const { return lanes > 0 ? int(row_stride / lanes) : 0; }
};

/// Squared distance, along one axis, from a point at u (in cell units) in cell c to the cells
/// at offset d of c; 0 for its own cell.
__device__ inline float cell_gap_squared(float u, int c, int d, float cell_size) {
  const float gap = d > 0 ? float(c + d) - u : (d < 0 ? u - float(c + d + 1) : 0.0f);
  const float length = fmaxf(gap, 0.0f) * cell_size;
  return length * length;
}

/// Calls visit(k) for the sorted entries k (bins.order[k]: the particle) of the cells within
/// `reach` cells of cell c along each axis (the grid holds 2 reach + 1 cells per axis) whose
/// nearest point lies within sqrt(range_squared) of the point u (cell units) of c: each row of
/// such cells (fixed y and z) is one range of the sorted entries, or two where it wraps; rows in a
/// fixed order, lane `lane` of G taking every G-th entry. Rounding only makes the test keep more
/// cells (`slack`).
template <int G, class Visit>
__device__ void for_each_within_reach(const CellBinsView& bins, float3 u, int3 c, int reach,
                                      float range_squared, int lane, Visit&& visit) {
  const auto& grid = bins.grid;
  const float3 size = {1.0f / grid.inverse_cell_size.x, 1.0f / grid.inverse_cell_size.y,
                       1.0f / grid.inverse_cell_size.z};
  const float limit = range_squared * 1.0001f;         // slack: a cell at the limit is scanned
  const auto visit_cells = [&](int first, int last) {  // cells first..last of one row
    for (int k = bins.start[first] + lane; k < bins.end[last]; k += G) visit(k);
  };
  for (int dz = -reach; dz <= reach; ++dz) {
    const float gz = cell_gap_squared(u.z, c.z, dz, size.z);
    if (gz > limit) continue;
    for (int dy = -reach; dy <= reach; ++dy) {
      const float gyz = gz + cell_gap_squared(u.y, c.y, dy, size.y);
      if (gyz > limit) continue;
      int lo = -reach, hi = reach;  // the row's cells within range: lo..hi around c.x
      while (lo < 0 && gyz + cell_gap_squared(u.x, c.x, lo, size.x) > limit) ++lo;
      while (hi > 0 && gyz + cell_gap_squared(u.x, c.x, hi, size.x) > limit) --hi;
      const int row = grid.index(0, c.y + dy, c.z + dz);
      const int x0 = c.x + lo, x1 = c.x + hi;
      if (x0 < 0) {
        visit_cells(row + x0 + grid.dims.x, row + grid.dims.x - 1);
        visit_cells(row, row + x1);
      } else if (x1 >= grid.dims.x) {
        visit_cells(row + x0, row + grid.dims.x - 1);
        visit_cells(row, row + x1 - grid.dims.x);
      } else {
        visit_cells(row + x0, row + x1);
      }
    }
  }
}

/// sorted[k] = pos[order[k]] with the particle's index in place of its type: the candidates of
/// a build in cell order, each one load (lanes of a target read adjacent entries).
template <class T>
__global__ void sorted_positions_kernel(const PairPosition<T>* __restrict__ pos,
                                        const std::uint32_t* __restrict__ order, int n,
                                        PairPosition<T>* __restrict__ sorted) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int j = int(order[k]);
  PairPosition<T> s = pos[j];
  s.type = j;
  sorted[k] = s;
}

/// One thread per (target, lane), targets first .. first + targets - 1; `sorted`: the
/// positions of every particle in cell order
/// (sorted_positions_kernel); `rounds`: the capacity of each lane's list (a multiple of 4:
/// NeighborListView's groups, each written once, when full or at the end); `reach`: cells
/// scanned along each axis on either side of the target's (for_each_within_reach).
template <class T, int G>
__global__ void build_lists_kernel(const PairPosition<T>* __restrict__ pos,
                                   const PairPosition<T>* __restrict__ sorted, int first,
                                   int targets, core::BoxView<T> box, CellBinsView bins, int reach,
                                   T range_squared, int rounds, std::size_t row_stride,
                                   ExclusionView exclusions, int* __restrict__ list,
                                   int* __restrict__ count, int* __restrict__ longest) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = thread % G;
  if (thread / G >= targets) return;
  const int i = first + thread / G;
  const PairPosition<T> p = pos[i];
  const float3 u = {float(p.x) * bins.grid.inverse_cell_size.x,
                    float(p.y) * bins.grid.inverse_cell_size.y,
                    float(p.z) * bins.grid.inverse_cell_size.z};
  const int3 c = bins.grid.coordinates(float(p.x), float(p.y), float(p.z));
  int4* out = reinterpret_cast<int4*>(list) + thread;
  int4 group = {0, 0, 0, 0};
  int found = 0;
  for_each_within_reach<G>(bins, u, c, reach, float(range_squared), lane, [&](int k) {
    const PairPosition<T> s = sorted[k];
    const int j = s.type;
    if (j == i) return;
    const auto d = box.minimum_image({p.x - s.x, p.y - s.y, p.z - s.z});
    if (d.x * d.x + d.y * d.y + d.z * d.z >= range_squared) return;
    if (exclusions.any() && exclusions.excludes(i, j)) return;
    if (found < rounds) {
      switch (found & 3) {
        case 0:
          group.x = j;
          break;
        case 1:
          group.y = j;
          break;
        case 2:
          group.z = j;
          break;
        default:
          group.w = j;
          out[std::size_t(found >> 2) * row_stride] = group;
      }
    }
    ++found;
  });
  if ((found & 3) != 0 && found < rounds) out[std::size_t(found >> 2) * row_stride] = group;
  count[thread] = found;
  atomicMax(longest, found);  // integer: exact in any order
}

/// The lists and the machinery that keeps them current (ListFreshness), for one cutoff.
template <class T>
class DeviceVerletList : public ListFreshness<DeviceVerletList<T>, T> {
  using Freshness = ListFreshness<DeviceVerletList<T>, T>;
  friend Freshness;

 public:
  /// `lanes`: G, lanes per target of the force kernel that will read the lists.
  DeviceVerletList(double cutoff, double skin, int lanes)
      : Freshness(cutoff, skin), cutoff_(cutoff), lanes_(lanes) {}

  NeighborListView view() const {
    return {list_.data(),       count_.data(), lanes_, std::size_t(targets_) * lanes_,
            this->stale_flag(), first_};
  }
  int lanes() const { return lanes_; }
  /// Lists for the targets first .. last - 1 alone (a spatial decomposition's owned range),
  /// every particle a candidate; last -1: every particle (the default). A change invalidates
  /// the lists.
  void set_targets(int first, int last) {
    if (first == first_ && last == last_) return;
    first_ = first;
    last_ = last;
    this->invalidate();
  }
  /// Device memory held: lists, counts, cells and the positions at the last build.
  std::size_t bytes() const {
    return list_.bytes() + count_.bytes() + this->freshness_bytes() + sorted_.bytes() +
           bins_.bytes() + longest_.bytes();
  }

 private:
  /// Nothing to do: the lists hold indices, and the force kernel takes the minimum image in the
  /// box of the moment.
  void follow_scaled_box(const core::Vec3<double>&, cudaStream_t) {}

  /// Builds the lists from the positions pos (ListFreshness calls it where a build is due).
  void build(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    targets_ = (last_ < 0 ? n : std::min(last_, n)) - std::min(first_, n);
    count_.resize(std::size_t(targets_) * lanes_);
    if (n == 0 || targets_ <= 0) return;
    if (rounds_ == 0) rounds_ = initial_rounds(n, box);
    const double range = cutoff_ + this->skin();
    reach_ = holds_stencil(cell_dimensions(box, range / 2, static_cast<std::size_t>(n)), 2) ? 2 : 1;
    bins_.bin(pos, n, box, range / reach_, stream);
    sorted_.resize(n);
    sorted_positions_kernel<T>
        <<<(n + 255) / 256, 256, 0, stream>>>(pos, bins_.view().order, n, sorted_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    const int longest = build_at_capacity(pos, n, box, stream);
    if (longest > rounds_) {  // grow with room to spare, and build again: nothing is dropped
      rounds_ = multiple_of_four(longest + longest / 4 + 2);
      build_at_capacity(pos, n, box, stream);
    }
  }

  /// Each lane's share of the expected neighbour count at the mean density, with a quarter
  /// and two entries to spare.
  int initial_rounds(int n, const core::Box& box) const {
    const double range = cutoff_ + this->skin();
    const double expected = n / box.volume() * 4.18879 * range * range * range;  // 4 pi / 3
    return multiple_of_four(int(std::min(1.25 * expected / lanes_ + 2, double(n))));
  }
  /// Capacities are whole groups of four (NeighborListView).
  static int multiple_of_four(int rounds) { return (rounds + 3) / 4 * 4; }

  /// One build at the current capacity; returns the longest lane list it found.
  int build_at_capacity(const PairPosition<T>* pos, int n, const core::Box& box,
                        cudaStream_t stream) {
    constexpr int kBlock = 128;
    const std::size_t row_stride = std::size_t(targets_) * lanes_;
    list_.resize(std::size_t(rounds_) * row_stride);
    longest_.resize(1);
    longest_.fill_zero(stream);
    const double range = cutoff_ + this->skin();
    const int blocks = static_cast<int>((row_stride + kBlock - 1) / kBlock);
    with_lanes(lanes_, [&](auto lanes) {
      build_lists_kernel<T, decltype(lanes)::value><<<blocks, kBlock, 0, stream>>>(
          pos, sorted_.data(), first_, targets_, box.view<T>(), bins_.view(), reach_,
          T(range * range), rounds_, row_stride, this->exclusions(), list_.data(), count_.data(),
          longest_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
    });
    return longest_host_.read(longest_.data(), stream);
  }

  double cutoff_;
  int lanes_;
  int rounds_ = 0;  ///< capacity of each lane's list
  int reach_ = 1;   ///< cells scanned on either side of a target's: 2 with cells of half the range
  int first_ = 0, last_ = -1;  ///< set_targets
  int targets_ = 0;            ///< at the last build
  DeviceCellBins bins_;
  core::DeviceBuffer<int> list_, count_, longest_;
  core::DeviceBuffer<PairPosition<T>> sorted_;  ///< the last build's positions in cell order
  core::MappedHostValue<int> longest_host_;
};

}  // namespace novamd::neighbors
