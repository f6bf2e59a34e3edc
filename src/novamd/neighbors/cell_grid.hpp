#pragma once
/// @file cell_grid.hpp
/// Particles binned into a periodic grid of cells at least `min_cell_size` wide (seeds 001, 002:
/// assign, count, gather). Deterministic: particles of a cell keep their storage order. The
/// cell count is bounded by the particle count (cell_dimensions.hpp): in a dilute gas the cells
/// are wider than asked, and there may then be fewer than 3 per axis.

#include <array>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/cell_dimensions.hpp"

namespace novamd::neighbors {

class CellGrid {
 public:
  /// Bins `particles` (wrapped positions) into cells of edge >= min_cell_size, as many per axis
  /// as cell_dimensions() gives for this box and particle count.
  void build(const core::ParticleData& particles, const core::Box& box, double min_cell_size);

  /// Cells per axis.
  const std::array<int, 3>& dims() const { return dims_; }
  /// True when every axis has at least 3 cells, so that the 27 cells around any cell are
  /// distinct and hold every particle within one cell edge.
  bool has_distinct_neighbours() const { return holds_stencil(1); }
  /// True when every axis has at least 2 reach + 1 cells, so that the cells within `reach` cells
  /// of any cell, along each axis, are distinct.
  bool holds_stencil(int reach) const { return neighbors::holds_stencil(dims_, reach); }

  int cell_count() const { return dims_[0] * dims_[1] * dims_[2]; }
  int cell_of(const core::Vec3<double>& r) const;
  /// Linear index of cell (x, y, z), taken periodically.
  int wrap_cell(int x, int y, int z) const;
  std::array<int, 3> coordinates(int cell) const;

  /// Particles of cell c: order()[start()[c] .. start()[c + 1]).
  const std::vector<int>& start() const { return start_; }
  const std::vector<int>& order() const { return order_; }

 private:
  std::array<int, 3> dims_{1, 1, 1};
  core::Vec3<double> inverse_cell_size_{};
  std::vector<int> cell_;   ///< cell of each particle
  std::vector<int> start_;  ///< cell_count + 1 offsets into order_
  std::vector<int> order_;  ///< particle indices grouped by cell
};

}  // namespace novamd::neighbors
