#pragma once
/// @file cell_bins_cuda.cuh
/// Particles binned into cells on the GPU (seed 002's assign, count and gather): each particle's
/// cell, a CUB radix sort of (cell, particle) pairs on only the bits the cell count needs, and
/// each cell's range in the sorted order. The sort is stable, so a cell's particles appear in
/// increasing index order: traversals that visit cells in a fixed order are deterministic. The
/// cell count is the CPU grid's (cell_dimensions.hpp): bounded by the particle count, so at most
/// 2^28 cells and 28 sort bits.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/neighbors/cell_dimensions.hpp"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::neighbors {

/// A periodic grid of dims.x x dims.y x dims.z cells over the box, linear index x-fastest.
struct CellGridView {
  int3 dims;
  float3 inverse_cell_size;

  __device__ int3 coordinates(float x, float y, float z) const {
    return {min(max(int(x * inverse_cell_size.x), 0), dims.x - 1),
            min(max(int(y * inverse_cell_size.y), 0), dims.y - 1),
            min(max(int(z * inverse_cell_size.z), 0), dims.z - 1)};
  }
  /// The cell at (x, y, z), each coordinate at most one cell outside the grid (wrapped).
  __device__ int index(int x, int y, int z) const {
    x += x < 0 ? dims.x : (x >= dims.x ? -dims.x : 0);
    y += y < 0 ? dims.y : (y >= dims.y ? -dims.y : 0);
    z += z < 0 ? dims.z : (z >= dims.z ? -dims.z : 0);
    return (z * dims.y + y) * dims.x + x;
  }
  int cells() const { return dims.x * dims.y * dims.z; }
};

/// The view's grid for `particles` particles, cells of at least `min_size` per axis, as many as
/// cell_dimensions() gives (the CPU grid's count).
inline CellGridView cell_grid_for(const core::Box& box, double min_size, std::size_t particles) {
  const auto& L = box.length();
  const auto dims = cell_dimensions(box, min_size, particles);
  CellGridView g{};
  g.dims = {dims[0], dims[1], dims[2]};
  g.inverse_cell_size = {float(g.dims.x / L.x), float(g.dims.y / L.y), float(g.dims.z / L.z)};
  return g;
}

/// True where the grid for `particles` particles and cells of at least `min_size` has 3 cells
/// or more per axis, so that the 27 cells around any cell are distinct. A dilute system's grid
/// may have fewer (its cell count is capped): the traversals over 27 cells must not use it.
inline bool holds_three_cells(const core::Box& box, double min_size, std::size_t particles) {
  return holds_stencil(cell_dimensions(box, min_size, particles), 1);
}

/// The sorted entries of a cell grid: cell c holds order[start[c] .. end[c]).
struct CellBinsView {
  CellGridView grid;
  const int* start;
  const int* end;
  const std::uint32_t* order;
};

/// Calls visit(j) for the particles j of the 27 cells around cell c, cells in a fixed order,
/// lane `lane` of G taking every G-th entry of each cell (ascending index within a cell).
template <int G, class Visit>
__device__ void for_each_in_neighbour_cells(const CellBinsView& bins, int3 c, int lane,
                                            Visit&& visit) {
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int cell = bins.grid.index(c.x + dx, c.y + dy, c.z + dz);
        for (int k = bins.start[cell] + lane; k < bins.end[cell]; k += G) visit(int(bins.order[k]));
      }
}

/// A stable CUB radix sort of (key, value) pairs on bits [0, bits), its scratch in `temp`.
inline void radix_sort_pairs(core::DeviceBuffer<unsigned char>& temp, const std::uint32_t* keys,
                             std::uint32_t* sorted_keys, const std::uint32_t* values,
                             std::uint32_t* sorted_values, int n, int bits, cudaStream_t stream) {
  std::size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, values, sorted_values, n, 0,
                                  bits, stream);
  if (bytes > temp.size()) temp.resize(bytes);
  bytes = temp.size();
  NOVAMD_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, keys, sorted_keys, values,
                                                    sorted_values, n, 0, bits, stream));
}

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

/// Cell c holds sorted entries [start[c], end[c]), an empty cell start = end at the place it
/// would have: the cells of a row are then one range of the sorted entries (for_each_in_range).
/// Thread k of n + 1 writes the cells between the entries k - 1 and k, each once.
__global__ inline void cell_ranges_kernel(const std::uint32_t* __restrict__ sorted_cell, int n,
                                          int cells, int* __restrict__ start,
                                          int* __restrict__ end) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k > n) return;
  const int before = k == 0 ? -1 : int(sorted_cell[k - 1]);
  const int here = k == n ? cells : int(sorted_cell[k]);
  for (int c = before + 1; c <= here && c < cells; ++c) start[c] = k;
  for (int c = max(before, 0); c < here; ++c) end[c] = k;
}

/// Cell binning with its buffers, reused from one binning to the next. Its three phases (seed
/// 002's assign, count and gather) can be queued apart, for timing them (app/bench_ornl.cpp).
class DeviceCellBins {
 public:
  template <class T>
  void bin(const PairPosition<T>* pos, int n, const core::Box& box, double min_size,
           cudaStream_t stream) {
    assign(pos, n, box, min_size, stream);
    sort(n, stream);
    find_ranges(n, stream);
  }

  /// Phase 1: each particle's cell, on the grid for this box and cell size.
  template <class T>
  void assign(const PairPosition<T>* pos, int n, const core::Box& box, double min_size,
              cudaStream_t stream) {
    grid_ = cell_grid_for(box, min_size, static_cast<std::size_t>(n));
    for (auto* b : {&cell_, &index_, &sorted_cell_, &order_}) b->resize(n);
    start_.resize(grid_.cells());
    end_.resize(grid_.cells());
    if (n == 0) return;
    cell_of_kernel<T><<<blocks(n), kBlock, 0, stream>>>(pos, n, grid_, cell_.data(), index_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  /// Phase 2: the particles sorted by cell (a stable radix sort of the assigned cells).
  void sort(int n, cudaStream_t stream) {
    if (n == 0) return;
    const int bits = std::max(1, int(std::bit_width(unsigned(grid_.cells() - 1))));
    radix_sort_pairs(temp_, cell_.data(), sorted_cell_.data(), index_.data(), order_.data(), n,
                     bits, stream);
  }

  /// Phase 3: each cell's range of the sorted particles.
  void find_ranges(int n, cudaStream_t stream) {
    if (n == 0) return;
    cell_ranges_kernel<<<blocks(n + 1), kBlock, 0, stream>>>(sorted_cell_.data(), n, grid_.cells(),
                                                             start_.data(), end_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  CellBinsView view() const { return {grid_, start_.data(), end_.data(), order_.data()}; }
  std::size_t bytes() const {
    return cell_.bytes() + index_.bytes() + sorted_cell_.bytes() + order_.bytes() +
           start_.bytes() + end_.bytes() + temp_.bytes();
  }

 private:
  static constexpr int kBlock = 256;
  static int blocks(int n) { return (n + kBlock - 1) / kBlock; }

  CellGridView grid_{};
  core::DeviceBuffer<std::uint32_t> cell_, index_, sorted_cell_, order_;
  core::DeviceBuffer<int> start_, end_;
  core::DeviceBuffer<unsigned char> temp_;
};

}  // namespace novamd::neighbors
