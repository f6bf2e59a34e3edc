#pragma once
/// @file process_grid.hpp
/// The P x Q process grid of the force-matrix decomposition (seed 000, section IV) and the
/// blocks of particles it deals out: plain arithmetic, no MPI.
///
/// K = P Q ranks. The force matrix (targets x sources, N x N) is cut into P block rows and Q
/// block columns; rank (p, q) applies the sources of block q to the targets of block p. Each
/// step moves 3 N/P doubles per rank in the row allreduce (forces on the row's targets) and
/// 3 N/Q in the column allreduce (the column's source positions), while every rank integrates
/// its N/P targets (redundantly across the row). `auto` picks the most nearly square grid with
/// P >= Q: the bytes per rank, 3 N (1/P + 1/Q) doubles, are smallest for a square grid, and when
/// K is not a square, the larger factor goes to P, which shrinks the forces' allreduce and the
/// per-rank integration (N/P targets) rather than the source block.

#include <array>
#include <cstddef>
#include <optional>

#include "novamd/parallel/parallel_settings.hpp"

namespace novamd::parallel {

/// A half-open range of particle indices [begin, end).
struct IndexRange {
  std::size_t begin = 0;
  std::size_t end = 0;

  std::size_t size() const { return end - begin; }
  bool contains(std::size_t i) const { return i >= begin && i < end; }
  bool operator==(const IndexRange&) const = default;
};

/// P block rows by Q block columns.
struct GridShape {
  int rows = 1;     ///< P: blocks of targets
  int columns = 1;  ///< Q: blocks of sources
  bool full_matrix = false;  ///< every block computed whole (`parallel.pairs: full_matrix`)
  int ranks() const { return rows * columns; }
  bool operator==(const GridShape&) const = default;
};

/// The most nearly square factorisation P x Q = ranks with P >= Q.
GridShape near_square_grid(int ranks);

/// The grid for `ranks` ranks and `particles` particles: the configured one, checked, or the
/// near-square one. @throws core::InputError (naming settings.grid_origin) when P Q differs
/// from the rank count, or when a block would be empty (P or Q larger than N).
GridShape choose_grid(int ranks, std::size_t particles, const ParallelSettings& settings);

/// Block `index` of `parts` near-equal blocks of [0, n): sizes differ by at most `granularity`
/// particles, and every block boundary but the last is a multiple of `granularity` (units of
/// `granularity` particles are dealt out whole, the first blocks taking one more unit where
/// they do not divide evenly).
IndexRange block_range(std::size_t n, int parts, int index, std::size_t granularity = 1);

/// Rank (row, column) of the grid, in row-major order: rank = row Q + column.
inline std::array<int, 2> grid_coordinates(const GridShape& grid, int rank) {
  return {rank / grid.columns, rank % grid.columns};
}

}  // namespace novamd::parallel
