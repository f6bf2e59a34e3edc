#pragma once
/// @file cell_dimensions.hpp
/// How many cells a periodic cell grid has along each axis: one rule for the CPU grid
/// (cell_grid.hpp) and the GPU bins (cell_bins_cuda.cuh). Host code.
///
/// Each axis holds as many cells of at least `min_size` as fit, floor(L / min_size), counted in
/// double so that no box or cutoff overflows an integer. The total is then capped relative to
/// the particle count, at kCellsPerParticle cells per particle (never below 27, never above
/// kMaxCells), by dividing every axis with more than one cell by the same factor. Fewer, larger
/// cells are still at least `min_size` wide, so the cells around a particle still hold every
/// particle within `min_size` of it: only the count of candidates per pair grows. A dense system
/// has far fewer cells than particles and is left as it was; a dilute gas (100 atoms in a box of
/// 10^4 cutoffs) gets a few hundred cells instead of 10^12.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "novamd/core/box.hpp"

namespace novamd::neighbors {

/// At most this many cells per particle (a liquid has about 0.5 per particle).
inline constexpr double kCellsPerParticle = 4.0;
/// A grid may always have 3 x 3 x 3 cells, however few the particles.
inline constexpr std::int64_t kMinCellCap = 27;
/// At most 2^28 cells: the cell offsets fit an int, and a GPU radix sort needs 28 key bits.
inline constexpr std::int64_t kMaxCells = std::int64_t{1} << 28;

/// The most cells a grid over `particles` particles may have: max(27, 4 N), at most kMaxCells.
inline std::int64_t max_cells_for(std::size_t particles) {
  const double by_particles = kCellsPerParticle * static_cast<double>(particles);
  return std::clamp(static_cast<std::int64_t>(std::min(by_particles, double(kMaxCells))),
                    kMinCellCap, kMaxCells);
}

/// True when every axis has at least 2 reach + 1 cells: the cells within `reach` cells of any
/// cell, along each axis, are then distinct (reach 1: the 27 cells around a cell).
inline bool holds_stencil(const std::array<int, 3>& dims, int reach) {
  const int n = 2 * reach + 1;
  return dims[0] >= n && dims[1] >= n && dims[2] >= n;
}

/// Cells per axis of a grid over `box`, each cell at least `min_size` wide, for `particles`
/// particles: floor(L / min_size) per axis (at least 1), the total capped at
/// max_cells_for(particles) by enlarging the cells uniformly.
inline std::array<int, 3> cell_dimensions(const core::Box& box, double min_size,
                                          std::size_t particles) {
  const double limit = static_cast<double>(max_cells_for(particles));
  const auto& L = box.length();
  const double lengths[3] = {L.x, L.y, L.z};
  double n[3];
  for (int a = 0; a < 3; ++a) {
    const double fit = std::floor(lengths[a] / min_size);
    n[a] = fit >= 1.0 ? std::min(fit, double(kMaxCells)) : 1.0;  // NaN, 0, negative: one cell
  }
  // Divide the axes of more than one cell by a common factor until the total fits. An axis that
  // falls to one cell leaves the next round to the others; each round takes at least one cell
  // off every such axis, so the loop ends.
  while (n[0] * n[1] * n[2] > limit) {
    const int split = (n[0] > 1.0) + (n[1] > 1.0) + (n[2] > 1.0);
    const double factor = std::pow(n[0] * n[1] * n[2] / limit, 1.0 / split);
    for (double& cells : n)
      if (cells > 1.0) cells = std::max(1.0, std::floor(cells / factor));
  }
  return {static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2])};
}

}  // namespace novamd::neighbors
