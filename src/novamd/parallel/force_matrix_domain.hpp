#pragma once
/// @file force_matrix_domain.hpp
/// The force-matrix decomposition (seed 000, section IV) as a parallel::Domain, with its
/// exchanges on host arrays (the CPU backend's; parallel/cuda_force_matrix_domain.cuh has them
/// on device buffers).
///
/// Rank (p, q) of a P x Q grid holds every particle in id order, owns the targets T_p (as do
/// the other ranks of row p: each integrates them, redundantly) and reads the sources S_q; its
/// ghosts are S_q outside T_p. Its force terms evaluate the block T_p x S_q, or, with each pair
/// once over the ranks (`block_range` R > 0, blocks of whole ranges of R particles:
/// neighbors/all_pairs_half_cuda.cuh), the pairs of the block that fall to it, adding the
/// reactions onto its sources too. Exchanges, each through one scratch buffer:
///
/// - refresh_ghosts: column allreduce of the positions of T_p ∩ S_q, zeros elsewhere: the
///   column's sum is every source of S_q.
/// - complete_forces: with each pair once, first the column allreduce of the forces on S_q
///   (then T_p ∩ S_q holds the column's sum, which the row adds once); then the row allreduce
///   of the forces on T_p: the total force on every target, on every rank of the row. The
///   ranks of a row integrate the same targets apart, so they must receive the same bits:
///   Open MPI's allreduce algorithms (like NCCL's ring and tree) give every rank the same
///   reduced values (the MPI standard only advises it); a run relies on that, and the restart
///   test's bitwise continuation, which rebuilds every rank from rank 0's copy, would fail if
///   the copies differed.
/// - gather: allgather of the target blocks within each column, whose ranks together own every
///   particle once.
///
/// Sums of owned quantities go over a column; energy shares over every rank.

#include <cstddef>
#include <memory>
#include <vector>

#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/domain.hpp"
#include "novamd/parallel/force_matrix.hpp"

namespace novamd::parallel {

class ForceMatrixDomain : public Domain {
 public:
  /// Rank (comm->row(), comm->column())'s blocks of `n` particles; a null or one-rank `comm`:
  /// the whole matrix. `block_range` R > 0: each pair once over the ranks, the blocks whole
  /// ranges of R particles; 0: every rank its block's full matrix.
  ForceMatrixDomain(std::shared_ptr<const Communicator> comm, std::size_t n, int block_range = 0);
  /// Rank (row, column) of `grid` as arithmetic alone, without MPI (tests): the ranges of a
  /// grid of any shape, with exchanges and sums that leave their data as it is.
  static ForceMatrixDomain layout(const GridShape& grid, int row, int column, std::size_t n,
                                  int block_range = 0);

  bool decomposed() const override { return matrix_.decomposed(); }
  IndexRange owned() const override { return matrix_.targets; }
  /// S_q outside T_p: up to two ranges, before and after the targets.
  std::vector<IndexRange> ghosts() const override;
  /// T_p; with each pair once, also the sources outside T_p (the reactions' shares).
  std::vector<IndexRange> energy_ranges() const override;
  /// T_p x S_q where decomposed.
  std::optional<neighbors::PairBlock> pair_block() const override;
  /// Not where decomposed: the blocks are ranges of ids.
  bool allows_reordering() const override { return !decomposed(); }

  void sum_over_owners(double* values, std::size_t count) const override;
  void sum_over_ranks(double* values, std::size_t count) const override;
  std::int64_t min_over_ranks(std::int64_t value) const override;

  void refresh_ghosts(core::Vec3Array& position) override;
  void complete_forces(core::Vec3Array& force) override;
  using Domain::gather;
  void gather(std::vector<double>& values) override;

  /// The blocks and the communicator.
  const ForceMatrix& matrix() const { return matrix_; }
  /// R: each pair once over the ranks, in blocks of whole ranges of R particles; 0: not.
  int block_range() const { return block_range_; }

 private:
  ForceMatrixDomain(ForceMatrix matrix, int block_range);

  ForceMatrix matrix_;
  int block_range_ = 0;
  std::vector<double> scratch_;  ///< the allreduces' buffer
};

}  // namespace novamd::parallel
