#pragma once
/// @file neighbor_list_cuda.cuh
/// Verlet lists on the GPU: particles binned into cells of at least cutoff + skin
/// (cell_bins_cuda.cuh), then the G lanes of each target (target_lanes_cuda.cuh) scan the 27
/// cells around its own, lane l taking every G-th entry of each cell, and each lane keeps its
/// own list of the particles within cutoff + skin, in a fixed order; the force kernel's lane l
/// reads exactly that list. Full lists (each pair in both particles' lists: no scattered
/// reactions, so no atomics and reproducible sums), stored so that a warp's reads of one round
/// are contiguous. A list that would overflow its capacity grows and is built again: no pair
/// is ever dropped. Excluded pairs (exclusions.hpp) are left out. Rebuilt when a particle has moved
/// more than skin/2 since the last build: a kernel decides on the device and tells the host through
/// one mapped word.

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
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::neighbors {

/// Lane l of target i: entry r of its list at r * row_stride + i G + l, its length at
/// count[i G + l].
struct NeighborListView {
  const int* entries;
  const int* count;
  int lanes;               ///< G, a power of two
  std::size_t row_stride;  ///< n G: entries between one round and the next
};

/// One thread per (target, lane); `rounds`: the capacity of each lane's list.
template <class T, int G>
__global__ void build_lists_kernel(const PairPosition<T>* __restrict__ pos, int n,
                                   core::BoxView<T> box, CellBinsView bins, T range_squared,
                                   int rounds, std::size_t row_stride, ExclusionView exclusions,
                                   int* __restrict__ list, int* __restrict__ count,
                                   int* __restrict__ longest) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = thread / G;
  const int lane = thread % G;
  if (i >= n) return;
  const PairPosition<T> p = pos[i];
  const int3 c = bins.grid.coordinates(float(p.x), float(p.y), float(p.z));
  int* out = list + std::size_t(i) * G + lane;
  int found = 0;
  for_each_in_neighbour_cells<G>(bins, c, lane, [&](int j) {
    if (j == i) return;
    const PairPosition<T> s = pos[j];
    const auto d = box.minimum_image({p.x - s.x, p.y - s.y, p.z - s.z});
    if (d.x * d.x + d.y * d.y + d.z * d.z >= range_squared) return;
    if (exclusions.any() && exclusions.excludes(i, j)) return;
    if (found < rounds) out[std::size_t(found) * row_stride] = j;
    ++found;
  });
  count[thread] = found;
  atomicMax(longest, found);  // integer: exact in any order
}

/// Sets *moved (mapped host memory) when some particle of the block has moved more than
/// sqrt(limit_squared) since `built_at`; one write per block at most.
template <class T>
__global__ void moved_too_far_kernel(const PairPosition<T>* __restrict__ pos,
                                     const PairPosition<T>* __restrict__ built_at, int n,
                                     core::BoxView<T> box, T limit_squared, int* moved) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool far = false;
  if (i < n) {
    const auto d = box.minimum_image(
        {pos[i].x - built_at[i].x, pos[i].y - built_at[i].y, pos[i].z - built_at[i].z});
    far = d.x * d.x + d.y * d.y + d.z * d.z > limit_squared;
  }
  if (__syncthreads_or(far) && threadIdx.x == 0) *moved = 1;
}

/// The lists and the machinery that keeps them current, for one cutoff.
template <class T>
class DeviceVerletList {
 public:
  /// `lanes`: G, lanes per target of the force kernel that will read the lists.
  DeviceVerletList(double cutoff, double skin, int lanes)
      : cutoff_(cutoff), skin_(skin), lanes_(lanes) {}

  /// Builds the lists if there are none, the particle count changed or they were invalidated;
  /// otherwise, when `check`, rebuilds them if a particle moved more than skin/2 (the check
  /// waits for the device once).
  void update(const PairPosition<T>* pos, int n, const core::Box& box, bool check,
              cudaStream_t stream) {
    if (!valid_ || n != n_) {
      build(pos, n, box, stream);
    } else if (check && moved_more_than_half_skin(pos, n, box, stream)) {
      build(pos, n, box, stream);
    }
  }
  /// The particles were reordered: the lists are rebuilt at the next update.
  void invalidate() { valid_ = false; }
  /// Pairs that every later build leaves out (device pointers, the ids of the storage order
  /// that the next build sees); default: none.
  void set_exclusions(const ExclusionView& exclusions) { exclusions_ = exclusions; }

  /// Builds the lists as they were built from the positions `built_at` (device, storage order),
  /// and counts `builds` builds so far: a restart's lists are the uninterrupted run's.
  void restore(const PairPosition<T>* built_at, int n, const core::Box& box, std::int64_t builds,
               cudaStream_t stream) {
    build(built_at, n, box, stream);
    builds_ = builds;
  }
  /// Positions at the last build, in double (empty when the lists are not valid).
  core::Vec3Array built_at_on_host(cudaStream_t stream) const {
    core::Vec3Array out;
    if (!valid_) return out;
    std::vector<PairPosition<T>> packed;
    built_at_.copy_to_host(packed, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    out.resize(packed.size());
    for (std::size_t i = 0; i < packed.size(); ++i) {
      out.set(i, core::Vec3<double>{double(packed[i].x), double(packed[i].y), double(packed[i].z)});
    }
    return out;
  }

  NeighborListView view() const {
    return {list_.data(), count_.data(), lanes_, std::size_t(n_) * lanes_};
  }
  int lanes() const { return lanes_; }
  std::int64_t builds() const { return builds_; }
  /// Device memory held: lists, counts, cells and the positions at the last build.
  std::size_t bytes() const {
    return list_.bytes() + count_.bytes() + built_at_.bytes() + bins_.bytes() + longest_.bytes();
  }

 private:
  bool moved_more_than_half_skin(const PairPosition<T>* pos, int n, const core::Box& box,
                                 cudaStream_t stream) {
    constexpr int kBlock = 256;
    moved_.value() = 0;
    moved_too_far_kernel<T><<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
        pos, built_at_.data(), n, box.view<T>(), T(0.25 * skin_ * skin_), moved_.device());
    NOVAMD_CUDA_CHECK_LAUNCH();
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    return moved_.value() != 0;
  }

  void build(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    n_ = n;
    valid_ = true;
    ++builds_;
    built_at_.resize(n);
    count_.resize(std::size_t(n) * lanes_);
    if (n == 0) return;
    if (rounds_ == 0) rounds_ = initial_rounds(n, box);
    bins_.bin(pos, n, box, cutoff_ + skin_, stream);
    const int longest = build_at_capacity(pos, n, box, stream);
    if (longest > rounds_) {  // grow with room to spare, and build again: nothing is dropped
      rounds_ = longest + longest / 4 + 2;
      build_at_capacity(pos, n, box, stream);
    }
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(built_at_.data(), pos, sizeof(PairPosition<T>) * n,
                                      cudaMemcpyDeviceToDevice, stream));
  }

  /// Each lane's share of the expected neighbour count at the mean density, with a quarter
  /// and two entries to spare.
  int initial_rounds(int n, const core::Box& box) const {
    const double range = cutoff_ + skin_;
    const double expected = n / box.volume() * 4.18879 * range * range * range;  // 4 pi / 3
    return int(std::min(1.25 * expected / lanes_ + 2, double(n)));
  }

  /// One build at the current capacity; returns the longest lane list it found.
  int build_at_capacity(const PairPosition<T>* pos, int n, const core::Box& box,
                        cudaStream_t stream) {
    constexpr int kBlock = 128;
    const std::size_t row_stride = std::size_t(n) * lanes_;
    list_.resize(std::size_t(rounds_) * row_stride);
    longest_.resize(1);
    longest_.fill_zero(stream);
    const double range = cutoff_ + skin_;
    const int blocks = static_cast<int>((row_stride + kBlock - 1) / kBlock);
    with_lanes(lanes_, [&](auto lanes) {
      build_lists_kernel<T, decltype(lanes)::value><<<blocks, kBlock, 0, stream>>>(
          pos, n, box.view<T>(), bins_.view(), T(range * range), rounds_, row_stride, exclusions_,
          list_.data(), count_.data(), longest_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
    });
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(&longest_host_.value(), longest_.data(), sizeof(int),
                                      cudaMemcpyDeviceToHost, stream));
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    return longest_host_.value();
  }

  double cutoff_, skin_;
  int lanes_;
  int n_ = 0;
  int rounds_ = 0;  ///< capacity of each lane's list
  bool valid_ = false;
  std::int64_t builds_ = 0;
  ExclusionView exclusions_;
  DeviceCellBins bins_;
  core::DeviceBuffer<int> list_, count_, longest_;
  core::DeviceBuffer<PairPosition<T>> built_at_;
  core::MappedHostValue<int> moved_, longest_host_;
};

}  // namespace novamd::neighbors
