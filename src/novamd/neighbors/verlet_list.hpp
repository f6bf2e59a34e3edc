#pragma once
/// @file verlet_list.hpp
/// Verlet neighbour lists on the CPU: for every particle, the particles within r_c + skin, kept
/// until some particle has moved more than skin/2 since the list was built (then no pair within
/// r_c can be missing). A list follows the box's moves (follow_box) as the GPU's do
/// (list_freshness_cuda.cuh): the build positions scaled with the edges, the reach shrunk with
/// them. Full lists (each pair in both particles' lists), so that each thread
/// owns its targets and the forces are deterministic. Built from a cell grid: cells of half
/// r_c + skin with a stencil of 5 x 5 x 5 cells where the box holds 5 such cells per axis, else
/// every particle is a candidate. The candidates of a cell are copied once, as the periodic
/// images nearest to it, into contiguous arrays; each of the cell's targets then tests them in
/// one SIMD loop. Excluded pairs (exclusions.hpp) are left out. A target's list is in a fixed order
/// (stencil cells, then storage order), the same for any thread count.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/cell_grid.hpp"
#include "novamd/neighbors/exclusions.hpp"

namespace novamd::neighbors {

class VerletList {
 public:
  VerletList(double cutoff, double skin) : cutoff_(cutoff), skin_(skin) {}

  /// Leaves the pairs of `exclusions` (rows by id, core::ExclusionLists, kept alive by the
  /// caller) out of every later build, no excluded pair's ids more than `span` apart (its
  /// span()); null offsets: none.
  void set_exclusions(const std::int32_t* offsets, const std::int32_t* excluded,
                      std::int32_t span) {
    exclusions_.offsets = offsets;
    exclusions_.excluded = excluded;
    exclusions_.span = span;
  }

  /// Lists only for the targets in storage slots [begin, end) from the next build on; the other
  /// particles get empty lists but stay candidates (a spatial decomposition's owned range).
  void set_targets(std::size_t begin, std::size_t end) {
    target_begin_ = begin;
    target_end_ = end;
  }
  /// Whether update() would rebuild now (the particles as given).
  bool due(const core::ParticleData& particles, const core::Box& box) const {
    return needs_rebuild(particles, box);
  }

  /// Rebuilds the list if it is missing, the particle count changed, or a particle moved more
  /// than skin/2 (moved_limit) since the last build. Returns true when it rebuilt.
  bool update(const core::ParticleData& particles, const core::Box& box);

  /// The box is now `box`, the positions scaled with its edges since the build: the list is
  /// checked at the next update (check_due), from the build positions scaled alike, or built
  /// again there where the box has shrunk so far that no reach is left.
  void follow_box(const core::Box& box);
  /// Whether the box moved since the last update.
  bool check_due() const { return check_due_; }

  /// Builds the list as it was built from the positions `built_at` (storage order, the other
  /// particle data as now) in `built_box` (a volume of 0: `box`), follows the box to `box`,
  /// and counts `builds` builds so far: a restart's list is then the uninterrupted run's, entry
  /// for entry.
  void restore(const core::ParticleData& particles, const core::Vec3Array& built_at,
               std::int64_t builds, const core::Box& built_box, const core::Box& box);
  /// Positions at the last build (empty before the first), and the box then.
  const core::Vec3Array& built_at() const { return built_at_; }
  const core::Box& built_box() const { return built_box_; }

  /// Neighbours of particle i: neighbors()[start()[i] .. start()[i + 1]).
  const std::vector<std::int64_t>& start() const { return start_; }
  const std::vector<int>& neighbors() const { return neighbors_; }
  std::int64_t builds() const { return builds_; }
  double cutoff() const { return cutoff_; }
  double skin() const { return skin_; }

 private:
  static constexpr int kReach = 2;  ///< stencil of 5 x 5 x 5 cells of (r_c + skin) / 2

  /// The candidate sources of one cell's targets, contiguous: positions and particle indices.
  struct Candidates {
    int count = 0;  ///< the first `count` entries are the candidates
    std::vector<double> x, y, z;
    std::vector<int> j;
  };
  /// One thread's working storage while building, kept between builds.
  struct Scratch {
    Candidates candidates;
    std::vector<int> inside;  ///< 1 where a candidate is within range
    std::vector<int> list;    ///< the thread's targets' lists, one after another: `used` long
    std::size_t used = 0;
  };

  bool needs_rebuild(const core::ParticleData& particles, const core::Box& box) const;
  /// How far a particle may move from its build position scaled with the box (list_reach.hpp).
  double moved_limit() const;
  void build(const core::ParticleData& particles, const core::Box& box);
  void gather_candidates(int cell, const core::Box& box, Candidates& c) const;
  void append_neighbours(int i, const core::Vec3<double>& ri, const Candidates& c,
                         const core::BoxView<double>& box, Scratch& scratch) const;

  /// Whether slot i gets a list (set_targets).
  bool is_target(std::size_t i) const { return i >= target_begin_ && i < target_end_; }

  double cutoff_, skin_;
  std::size_t target_begin_ = 0, target_end_ = SIZE_MAX;  ///< slots that get lists
  ExclusionView exclusions_;                              ///< ids set at each build
  std::int64_t builds_ = 0;
  core::Vec3Array built_at_;                 ///< positions at the last build
  core::Box built_box_;                      ///< the box then
  core::Vec3<double> scale_{1.0, 1.0, 1.0};  ///< the box's edges now over those at the build
  bool stale_ = false;                       ///< the box shrank too far: built at the next update
  bool check_due_ = false;
  CellGrid grid_;
  bool stencil_ = false;             ///< false: every particle is a candidate of every target
  core::Vec3Array sorted_;           ///< positions in the grid's cell order
  std::vector<Scratch> scratch_;     ///< per thread
  std::vector<std::size_t> offset_;  ///< where each target's list starts in its thread's list
  std::vector<std::int64_t> start_;
  std::vector<int> neighbors_;
};

}  // namespace novamd::neighbors
