#pragma once
/// @file force_matrix.hpp
/// This rank's block of the force matrix: the targets it integrates (block row p) and the
/// sources it applies to them (block column q), with the communicator of its grid.
///
/// Every rank keeps all N particles in id order; only the ranges below are current: the
/// targets (integrated here, and redundantly by the other ranks of the row) and the sources
/// (refreshed from their owners by a column allreduce before each force evaluation).

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::parallel {

struct ForceMatrix {
  std::shared_ptr<const Communicator> comm;
  IndexRange targets;                     ///< T_p
  IndexRange sources;                     ///< S_q
  std::vector<IndexRange> target_blocks;  ///< T_0 .. T_{P-1}: the column's blocks, in p order

  /// More than one rank: arrays outside the ranges are not current.
  bool decomposed() const { return comm->size() > 1; }
  /// T_p ∩ S_q (possibly empty).
  IndexRange owned_sources() const {
    const std::size_t b = std::max(targets.begin, sources.begin);
    const std::size_t e = std::min(targets.end, sources.end);
    return b < e ? IndexRange{b, e} : IndexRange{b, b};
  }

  /// One rank: the whole matrix.
  static ForceMatrix whole(std::size_t n) {
    return {std::make_shared<Communicator>(), {0, n}, {0, n}, {{0, n}}};
  }
  /// The blocks of rank (comm->row(), comm->column()) for n particles (`granularity`: see
  /// block_range). A null `comm` means one rank.
  static ForceMatrix of(std::shared_ptr<const Communicator> comm, std::size_t n,
                        std::size_t granularity = 1) {
    if (!comm) return whole(n);
    const GridShape grid = comm->grid();
    ForceMatrix m{comm, block_range(n, grid.rows, comm->row(), granularity),
                  block_range(n, grid.columns, comm->column(), granularity), {}};
    for (int p = 0; p < grid.rows; ++p) m.target_blocks.push_back(block_range(n, grid.rows, p, granularity));
    return m;
  }
};

}  // namespace novamd::parallel
