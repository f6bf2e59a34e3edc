#pragma once
/// @file verlet_list.hpp
/// Verlet neighbour lists on the CPU: for every particle, the particles within r_c + skin, kept
/// until some particle has moved more than skin/2 since the list was built (then no pair within
/// r_c can be missing). Full lists (each pair in both particles' lists), so that each thread
/// owns its targets and the forces are deterministic. Built from a cell grid when the box holds
/// at least three cells of r_c + skin per axis, by a plain double loop otherwise.

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/cell_grid.hpp"

namespace novamd::neighbors {

class VerletList {
 public:
  VerletList(double cutoff, double skin) : cutoff_(cutoff), skin_(skin) {}

  /// Rebuilds the list if it is missing, the particle count changed, or a particle moved more
  /// than skin/2 since the last build. Returns true when it rebuilt.
  bool update(const core::ParticleData& particles, const core::Box& box);

  /// Neighbours of particle i: neighbors()[start()[i] .. start()[i + 1]).
  const std::vector<std::int64_t>& start() const { return start_; }
  const std::vector<int>& neighbors() const { return neighbors_; }
  std::int64_t builds() const { return builds_; }
  double cutoff() const { return cutoff_; }
  double skin() const { return skin_; }

 private:
  bool needs_rebuild(const core::ParticleData& particles, const core::Box& box) const;
  void build(const core::ParticleData& particles, const core::Box& box);

  double cutoff_, skin_;
  std::int64_t builds_ = 0;
  core::Vec3Array built_at_;  ///< positions at the last build
  CellGrid grid_;
  std::vector<std::int64_t> start_;
  std::vector<int> neighbors_;
};

}  // namespace novamd::neighbors
