#pragma once
/// @file communicator.hpp
/// The ranks of the P x Q grid and the host collectives the decomposition needs, over the
/// whole grid, one process row (the ranks that share a block of targets) or one process
/// column (the ranks that share a block of sources), and the point-to-point exchange within a
/// group that a halo exchange is made of (a shift along a grid direction). A single-rank
/// communicator makes no MPI call: every collective leaves its data as it is, and an exchange
/// with itself is a copy.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "novamd/parallel/process_grid.hpp"

namespace novamd::parallel {

class MpiSession;

/// Which ranks a collective spans.
enum class Group { Row, Column, World };

/// The two partners of a shift within a group: this rank sends to `destination` and receives
/// from `source` (ranks within the group).
struct ShiftPartners {
  int source = 0;
  int destination = 0;
};

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
  /// This rank's number within `group` (q in its row, p in its column, its rank in the world).
  int group_rank(Group group) const;
  /// The partners of a periodic shift by `displacement` within `group`: the destination is
  /// `displacement` ranks up (modulo the group's size), the source as many down, so that every
  /// rank of the group sends once and receives once.
  ShiftPartners shift(Group group, int displacement) const;

  /// data[0 .. count) summed element-wise over the group, in place, on every rank of it.
  void sum(double* data, std::size_t count, Group group) const;
  /// The same for integers, modulo 2^64: exact, and the same bits in any order (fixed-point
  /// sums such as the PME mesh's charges).
  void sum(std::uint64_t* data, std::size_t count, Group group) const;
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
  /// Point to point within `group` (ranks numbered as group_rank): `send_count` doubles at
  /// `send` to `destination` while `receive_count` doubles from `source` arrive at `receive`,
  /// in one exchange (MPI_Sendrecv, so a ring of shifts cannot deadlock). The source must send
  /// exactly `receive_count` doubles; the buffers must not overlap. On one rank, or with this
  /// rank as both partners, it is a copy. @throws std::out_of_range for a partner outside the
  /// group, std::logic_error when the doubles that arrive are not `receive_count` (or a copy to
  /// itself has two counts), core::RunError for a count beyond an MPI count (2^31 - 1).
  void send_receive(const double* send, std::size_t send_count, int destination, double* receive,
                    std::size_t receive_count, int source, Group group) const;

 private:
  struct Handles;  // MPI communicators: world, row, column
  std::unique_ptr<Handles> handles_;
  GridShape grid_;
  int rank_ = 0;
  int row_ = 0;
  int column_ = 0;
};

}  // namespace novamd::parallel
