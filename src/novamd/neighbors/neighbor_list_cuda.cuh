#pragma once
/// @file neighbor_list_cuda.cuh
/// Verlet lists on the GPU: particles binned into cells of at least cutoff + skin (cell index,
/// CUB radix sort by cell, cell ranges), then one thread per target collects the particles of
/// the 27 cells around its own within cutoff + skin, in a fixed order. Full lists, stored
/// column-major (entry k of all targets contiguous) for coalesced reads. A list that would
/// overflow its capacity grows and is rebuilt: no pair is ever dropped. Rebuilt when a particle
/// has moved more than skin/2 since the last build (checked on the device).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::neighbors {

struct CellGridView {
  int3 dims;
  float3 inverse_cell_size;

  __device__ int3 coordinates(float x, float y, float z) const {
    return {min(max(int(x * inverse_cell_size.x), 0), dims.x - 1),
            min(max(int(y * inverse_cell_size.y), 0), dims.y - 1),
            min(max(int(z * inverse_cell_size.z), 0), dims.z - 1)};
  }
  __device__ int index(int x, int y, int z) const {
    x = (x + dims.x) % dims.x;
    y = (y + dims.y) % dims.y;
    z = (z + dims.z) % dims.z;
    return (z * dims.y + y) * dims.x + x;
  }
};

template <class T>
__global__ void cell_of_kernel(const PairPosition<T>* __restrict__ pos, int n, CellGridView grid,
                               std::uint32_t* __restrict__ cell,
                               std::uint32_t* __restrict__ index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int3 c = grid.coordinates(float(pos[i].x), float(pos[i].y), float(pos[i].z));
  cell[i] = grid.index(c.x, c.y, c.z);
  index[i] = i;
}

/// Cell c holds sorted entries [start[c], end[c]); both arrays zeroed before.
__global__ void cell_ranges_kernel(const std::uint32_t* __restrict__ sorted_cell, int n,
                                   int* __restrict__ start, int* __restrict__ end) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t c = sorted_cell[k];
  if (k == 0 || sorted_cell[k - 1] != c) start[c] = k;
  if (k == n - 1 || sorted_cell[k + 1] != c) end[c] = k + 1;
}

template <class T>
__global__ void build_lists_kernel(const PairPosition<T>* __restrict__ pos, int n,
                                   core::BoxView<T> box, CellGridView grid, T range_squared,
                                   const int* __restrict__ start, const int* __restrict__ end,
                                   const std::uint32_t* __restrict__ order, int capacity,
                                   int* __restrict__ list, int* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const PairPosition<T> p = pos[i];
  const int3 c = grid.coordinates(float(p.x), float(p.y), float(p.z));
  int found = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int cell = grid.index(c.x + dx, c.y + dy, c.z + dz);
        for (int k = start[cell]; k < end[cell]; ++k) {
          const int j = order[k];
          if (j == i) continue;
          const auto d = box.minimum_image({p.x - pos[j].x, p.y - pos[j].y, p.z - pos[j].z});
          if (d.x * d.x + d.y * d.y + d.z * d.z >= range_squared) continue;
          if (found < capacity) list[static_cast<std::size_t>(found) * n + i] = j;
          ++found;
        }
      }
  count[i] = found;
}

/// Squared displacement of each particle since the last build.
template <class T>
__global__ void displacement_kernel(const PairPosition<T>* __restrict__ pos,
                                    const PairPosition<T>* __restrict__ built_at, int n,
                                    core::BoxView<T> box, T* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto d = box.minimum_image(
      {pos[i].x - built_at[i].x, pos[i].y - built_at[i].y, pos[i].z - built_at[i].z});
  out[i] = d.x * d.x + d.y * d.y + d.z * d.z;
}

/// The lists and the machinery that keeps them current, for one cutoff.
template <class T>
class DeviceVerletList {
 public:
  DeviceVerletList(double cutoff, double skin) : cutoff_(cutoff), skin_(skin) {}

  /// True where the box holds at least 3 cells of cutoff + skin per axis.
  static bool fits(const core::Box& box, double cutoff, double skin) {
    return box.shortest_edge() >= 3.0 * (cutoff + skin);
  }

  /// Rebuilds when needed (first call, changed particle count, or a particle moved more than
  /// skin/2). The check copies one number to the host.
  void update(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream);

  const int* list() const { return list_.data(); }
  const int* count() const { return count_.data(); }
  std::int64_t builds() const { return builds_; }

 private:
  bool needs_rebuild(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream);
  void build(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream);
  int build_once(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream);

  double cutoff_, skin_;
  int n_ = 0;
  int capacity_ = 64;
  std::int64_t builds_ = 0;
  CellGridView grid_{};
  core::DeviceBuffer<std::uint32_t> cell_, index_, sorted_cell_, order_;
  core::DeviceBuffer<int> start_, end_, list_, count_, max_count_;
  core::DeviceBuffer<PairPosition<T>> built_at_;
  core::DeviceBuffer<T> displacement_, max_displacement_;
  core::DeviceBuffer<unsigned char> temp_;
};

template <class T>
void DeviceVerletList<T>::update(const PairPosition<T>* pos, int n, const core::Box& box,
                                 cudaStream_t stream) {
  if (builds_ == 0 || n != n_ || needs_rebuild(pos, n, box, stream)) build(pos, n, box, stream);
}

template <class T>
bool DeviceVerletList<T>::needs_rebuild(const PairPosition<T>* pos, int n, const core::Box& box,
                                        cudaStream_t stream) {
  constexpr int kBlock = 256;
  displacement_.resize(n);
  max_displacement_.resize(1);
  displacement_kernel<T><<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
      pos, built_at_.data(), n, box.view<T>(), displacement_.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  std::size_t bytes = 0;
  cub::DeviceReduce::Max(nullptr, bytes, displacement_.data(), max_displacement_.data(), n, stream);
  temp_.resize(std::max(bytes, temp_.size()));
  bytes = temp_.size();
  NOVAMD_CUDA_CHECK(cub::DeviceReduce::Max(temp_.data(), bytes, displacement_.data(),
                                           max_displacement_.data(), n, stream));
  std::vector<T> host;
  max_displacement_.copy_to_host(host, stream);
  NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host[0] > T(0.25 * skin_ * skin_);
}

template <class T>
void DeviceVerletList<T>::build(const PairPosition<T>* pos, int n, const core::Box& box,
                                cudaStream_t stream) {
  n_ = n;
  int longest = build_once(pos, n, box, stream);
  if (longest > capacity_) {  // grow with room to spare, and build again: nothing is dropped
    capacity_ = longest + longest / 4 + 8;
    longest = build_once(pos, n, box, stream);
  }
  built_at_.resize(n);
  NOVAMD_CUDA_CHECK(cudaMemcpyAsync(built_at_.data(), pos, sizeof(PairPosition<T>) * n,
                                    cudaMemcpyDeviceToDevice, stream));
  ++builds_;
}

/// One build at the current capacity; returns the longest list it found.
template <class T>
int DeviceVerletList<T>::build_once(const PairPosition<T>* pos, int n, const core::Box& box,
                                    cudaStream_t stream) {
  constexpr int kBlock = 128;
  const double range = cutoff_ + skin_;
  const auto& L = box.length();
  grid_.dims = {std::max(1, int(L.x / range)), std::max(1, int(L.y / range)),
                std::max(1, int(L.z / range))};
  grid_.inverse_cell_size = {float(grid_.dims.x / L.x), float(grid_.dims.y / L.y),
                             float(grid_.dims.z / L.z)};
  const int cells = grid_.dims.x * grid_.dims.y * grid_.dims.z;
  for (auto* b : {&cell_, &index_, &sorted_cell_, &order_}) b->resize(n);
  start_.resize(cells);
  end_.resize(cells);
  count_.resize(n);
  max_count_.resize(1);
  list_.resize(static_cast<std::size_t>(capacity_) * n);
  const int blocks = (n + kBlock - 1) / kBlock;
  cell_of_kernel<T><<<blocks, kBlock, 0, stream>>>(pos, n, grid_, cell_.data(), index_.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  std::size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, cell_.data(), sorted_cell_.data(), index_.data(),
                                  order_.data(), n, 0, 32, stream);
  temp_.resize(std::max(bytes, temp_.size()));
  bytes = temp_.size();
  NOVAMD_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), bytes, cell_.data(),
                                                    sorted_cell_.data(), index_.data(),
                                                    order_.data(), n, 0, 32, stream));
  start_.fill_zero(stream);
  end_.fill_zero(stream);
  cell_ranges_kernel<<<blocks, kBlock, 0, stream>>>(sorted_cell_.data(), n, start_.data(),
                                                    end_.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  const T range_squared = T(range * range);
  build_lists_kernel<T><<<blocks, kBlock, 0, stream>>>(pos, n, box.view<T>(), grid_, range_squared,
                                                       start_.data(), end_.data(), order_.data(),
                                                       capacity_, list_.data(), count_.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  bytes = 0;
  cub::DeviceReduce::Max(nullptr, bytes, count_.data(), max_count_.data(), n, stream);
  temp_.resize(std::max(bytes, temp_.size()));
  bytes = temp_.size();
  NOVAMD_CUDA_CHECK(
      cub::DeviceReduce::Max(temp_.data(), bytes, count_.data(), max_count_.data(), n, stream));
  std::vector<int> host;
  max_count_.copy_to_host(host, stream);
  NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host[0];
}

}  // namespace novamd::neighbors
