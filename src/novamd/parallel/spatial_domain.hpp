#pragma once
/// @file spatial_domain.hpp
/// The spatial decomposition (seed 004) as a parallel::Domain, on host arrays (the CPU
/// backend's): the box cut into the bricks of a BrickGrid, one per rank.
///
/// Every rank holds every particle, in one storage order that all ranks share: sorted by the
/// rank whose brick held the particle at the last partition, so that each rank owns one range.
/// Between partitions a rank keeps current only what it owns and its ghosts: the particles of
/// other ranks within the halo (the longest list reach, cutoff + skin) of its brick. Those are
/// every particle its owned particles' lists can hold, since the lists are built right after a
/// partition from the positions it used. The rest of its arrays go stale until the next
/// partition and are read by nothing.
///
/// - partition (at the first force evaluation and whenever some rank's lists are due: the
///   caller gathers every particle first, so every rank sees the same positions): owners from
///   the bricks, the storage order by owner (a given order kept within each), and the halo
///   plan. Both sides of each exchange compute it from the same positions with the same
///   arithmetic, so no request travels: rank s sends rank r the particles of s within r's halo,
///   in storage order, and r expects exactly those.
/// - refresh_ghosts: one point-to-point exchange per rank shift d = 1 .. K - 1 (send to
///   rank + d, receive from rank - d) along which some rank has ghosts to send (on a large
///   grid, about the 26 shifts to neighbouring bricks), positions only (and rigid molecules'
///   orientations with them: refresh_ghost_columns).
/// - complete_forces: nothing. The CPU's Verlet lists are full (each pair in both particles'
///   lists), so every owned particle's force is complete where it is computed, and each pair's
///   energy is split between its two particles, each counted by its owner.
/// - gather: every rank's owned range to every rank (the ranges are in rank order).
///
/// The exchange of every step moves 3 doubles per ghost; the partition's gather moves every
/// evolving field of every particle, once per list build (see docs/architecture.md for what a
/// halo-only migration would change).

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/parallel/brick_grid.hpp"
#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/domain.hpp"

namespace novamd::parallel {

class SpatialDomain : public Domain {
 public:
  /// Rank comm->rank() of `grid` (grid.ranks() == comm->size(); null comm: one rank), ghosts
  /// within `halo` of its brick.
  SpatialDomain(std::shared_ptr<const Communicator> comm, BrickGrid grid, double halo,
                std::size_t n);
  /// Rank `rank` of `grid` as arithmetic alone, without MPI (tests): partitions and plans as
  /// the rank would, with exchanges and sums that leave their data as they are.
  static SpatialDomain layout(const BrickGrid& grid, int rank, double halo, std::size_t n);

  bool decomposed() const override { return grid_.ranks() > 1; }
  IndexRange owned() const override { return blocks_[static_cast<std::size_t>(rank_)]; }
  /// The ghosts' indices as runs of consecutive indices.
  std::vector<IndexRange> ghosts() const override;
  std::vector<IndexRange> energy_ranges() const override { return {owned()}; }
  std::optional<neighbors::PairBlock> pair_block() const override { return std::nullopt; }
  /// The domain orders the particles itself (partition).
  bool allows_reordering() const override { return false; }

  void sum_over_owners(double* values, std::size_t count) const override;
  void sum_over_ranks(double* values, std::size_t count) const override;
  std::int64_t min_over_ranks(std::int64_t value) const override;

  void refresh_ghosts(core::Vec3Array& position) override;
  /// refresh_ghosts for any per-particle columns (positions and orientations), all of them in
  /// one exchange.
  void refresh_ghost_columns(std::initializer_list<std::vector<double>*> columns);
  /// The exchange of refresh_ghosts on packed values: `out` holds `width` doubles per entry of
  /// sends(), shift after shift; `in` (resized) receives as many per entry of receives(), in the
  /// same order. A backend that keeps its positions elsewhere (device memory) packs them itself.
  void exchange(const std::vector<double>& out, std::vector<double>& in, std::size_t width);
  void complete_forces(core::Vec3Array&) override {}
  using Domain::gather;
  void gather(std::vector<double>& values) override;

  /// The storage order after a partition of `position` (storage order, every entry current) in
  /// `box`: old indices by owner rank, `preferred` (a permutation of the indices) kept within
  /// each rank's block. Sets the blocks and the halo plan for the permuted arrays.
  /// Where `anchor` is given (per index, the index whose brick decides its owner: a constraint
  /// group's first particle, so that one rank holds the whole group), `anchor_reach` bounds how
  /// far a particle lies from its anchor; the halo grows by it, since an owned particle may then
  /// lie that far outside its owner's brick. A balanced grid (BrickGrid::balanced) first places
  /// its planes by the particles' (or their anchors') positions.
  std::vector<std::size_t> partition(const core::Vec3Array& position, const core::Box& box,
                                     const std::vector<std::size_t>& preferred,
                                     const std::vector<std::size_t>& anchor = {},
                                     double anchor_reach = 0.0);

  const BrickGrid& grid() const { return grid_; }
  double halo() const { return halo_; }
  /// Every rank's owned range, in rank order.
  const std::vector<IndexRange>& blocks() const { return blocks_; }
  /// The indices this rank sends to rank + d (entry d - 1) and receives from rank - d.
  const std::vector<std::vector<std::size_t>>& sends() const { return send_; }
  const std::vector<std::vector<std::size_t>>& receives() const { return receive_; }
  /// Ghosts over all shifts.
  std::size_t ghost_count() const;

 private:
  SpatialDomain(std::shared_ptr<const Communicator> comm, BrickGrid grid, int rank, double halo,
                std::size_t n);
  bool communicates() const { return comm_ && comm_->size() > 1; }

  std::shared_ptr<const Communicator> comm_;
  BrickGrid grid_;
  int rank_ = 0;
  double halo_ = 0.0;
  std::vector<IndexRange> blocks_;
  std::vector<std::vector<std::size_t>> send_, receive_;  ///< per shift d = 1 .. K - 1
  std::vector<bool> active_;      ///< per shift: some rank sends along it (none before a partition)
  std::vector<double> out_, in_;  ///< exchange buffers
};

}  // namespace novamd::parallel
