#pragma once
/// @file exclusions.hpp
/// Pairs left out of the pair lists: the particles each particle is bonded to within three
/// bonds (core::Topology::exclusions; DESIGN principle 10: 1-2, 1-3 and 1-4 pairs are excluded
/// from the pair terms, scaled 1-4 pairs computed as their own term). The Verlet-list builds on
/// both backends ask `excludes(i, j)` of each pair within range; their force loops then never
/// see an excluded pair. The traversals without lists (all pairs, cell lists) read the same
/// lists by storage index instead (excluded_rows.hpp).

#include <cstdint>
#include <limits>

#include "novamd/core/host_device.hpp"

namespace novamd::neighbors {

/// Pointers (host or device memory) to core::ExclusionLists (rows by particle id, sorted) and to
/// the particles' ids in storage order. Default: no exclusions.
struct ExclusionView {
  const std::int32_t* offsets = nullptr;   ///< N + 1 row offsets, by id; null: none
  const std::int32_t* excluded = nullptr;  ///< the rows' ids, ascending within each row
  const std::int32_t* id = nullptr;        ///< id of each storage index
  /// No excluded pair has ids further apart (core::ExclusionLists::span): most pairs within
  /// range are decided without reading a row. Default: no such bound.
  std::int32_t span = std::numeric_limits<std::int32_t>::max();

  NOVAMD_HD bool any() const { return offsets != nullptr; }

  /// Whether the particles at storage indices i and j form an excluded pair (ids within `span`
  /// of each other: a linear scan of i's row, a few to a few tens of entries).
  NOVAMD_HD bool excludes(int i, int j) const { return excludes_ids(id[i], id[j]); }

  /// Whether the particles of ids a and b form an excluded pair.
  NOVAMD_HD bool excludes_ids(std::int32_t a, std::int32_t b) const {
    if ((a > b ? a - b : b - a) > span) return false;
    for (std::int32_t k = offsets[a]; k < offsets[a + 1]; ++k) {
      if (excluded[k] >= b) return excluded[k] == b;
    }
    return false;
  }
};

}  // namespace novamd::neighbors
