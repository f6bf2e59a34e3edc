#pragma once
/// @file communicator.hpp
/// The ranks of the P x Q grid and the host collectives the decomposition needs, over the
/// whole grid, one process row (the ranks that share a block of targets) or one process
/// column (the ranks that share a block of sources). A single-rank communicator makes no MPI
/// call: every collective leaves its data as it is.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "novamd/parallel/process_grid.hpp"

namespace novamd::parallel {

class MpiSession;

/// Which ranks a collective spans.
enum class Group { Row, Column, World };

class Communicator {
 public:
  /// One rank, the whole force matrix.
  Communicator();
  /// The session's ranks as a `grid` (row-major: rank = p Q + q). Collective: every rank of
  /// the session calls it. Requires grid.ranks() == session.size().
  Communicator(const MpiSession& session, GridShape grid);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return rank_; }
  int size() const { return grid_.ranks(); }
  const GridShape& grid() const { return grid_; }
  int row() const { return row_; }        ///< p: this rank's block of targets
  int column() const { return column_; }  ///< q: this rank's block of sources
  /// Ranks in `group` (Q for a row, P for a column, P Q for the world).
  int group_size(Group group) const;

  /// data[0 .. count) summed element-wise over the group, in place, on every rank of it.
  void sum(double* data, std::size_t count, Group group) const;
  /// The smallest `value` over the group.
  std::int64_t min(std::int64_t value, Group group) const;
  /// The largest `value` over the group.
  int max(int value, Group group) const;
  /// Within each column, block p of `data` is valid on rank (p, q); afterwards every block is
  /// valid on every rank of the column. `blocks[p]`: block p's index range (in p order,
  /// together a partition of the array).
  void gather_column_blocks(double* data, const std::vector<IndexRange>& blocks) const;
  /// `bytes` bytes at `data` from the group's first rank to all of it (NCCL unique ids).
  void broadcast(void* data, std::size_t bytes, Group group) const;

 private:
  struct Handles;  // MPI communicators: world, row, column
  std::unique_ptr<Handles> handles_;
  GridShape grid_;
  int rank_ = 0;
  int row_ = 0;
  int column_ = 0;
};

}  // namespace novamd::parallel
