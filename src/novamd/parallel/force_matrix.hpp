#pragma once
/// @file force_matrix.hpp
/// This rank's block of the force matrix: the targets it integrates (block row p) and the
/// sources it applies to them (block column q), with the communicator of its grid.
///
/// Every rank keeps all N particles in id order; only the ranges below are current: the
/// targets (integrated here, and redundantly by the other ranks of the row) and the sources
/// (refreshed from their owners by a column allreduce before each force evaluation). The
/// arithmetic only: parallel::ForceMatrixDomain (force_matrix_domain.hpp) exchanges.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::parallel {

struct ForceMatrix {
  std::shared_ptr<const Communicator> comm;
  IndexRange targets;                     ///< T_p
  IndexRange sources;                     ///< S_q
  std::vector<IndexRange> target_blocks;  ///< T_0 .. T_{P-1}: the column's blocks, in p order
  GridShape grid;                         ///< P x Q

  /// More than one rank: arrays outside the ranges are not current.
  bool decomposed() const { return grid.ranks() > 1; }
  /// T_p ∩ S_q (possibly empty).
  IndexRange owned_sources() const {
    const std::size_t b = std::max(targets.begin, sources.begin);
    const std::size_t e = std::min(targets.end, sources.end);
    return b < e ? IndexRange{b, e} : IndexRange{b, b};
  }

  /// One rank: the whole matrix.
  static ForceMatrix whole(std::size_t n) {
    return {std::make_shared<Communicator>(), {0, n}, {0, n}, {{0, n}}, GridShape{}};
  }
  /// The blocks of rank (row, column) of `grid` for n particles (`granularity`: see
  /// block_range), with a one-rank communicator: the arithmetic alone, for tests.
  static ForceMatrix block(const GridShape& grid, int row, int column, std::size_t n,
                           std::size_t granularity = 1) {
    ForceMatrix m{std::make_shared<Communicator>(),
                  block_range(n, grid.rows, row, granularity),
                  block_range(n, grid.columns, column, granularity),
                  {},
                  grid};
    for (int p = 0; p < grid.rows; ++p)
      m.target_blocks.push_back(block_range(n, grid.rows, p, granularity));
    return m;
  }
  /// The blocks of rank (comm->row(), comm->column()) for n particles. A null `comm` means
  /// one rank.
  static ForceMatrix of(std::shared_ptr<const Communicator> comm, std::size_t n,
                        std::size_t granularity = 1) {
    if (!comm) return whole(n);
    ForceMatrix m = block(comm->grid(), comm->row(), comm->column(), n, granularity);
    m.comm = std::move(comm);
    return m;
  }
};

}  // namespace novamd::parallel
