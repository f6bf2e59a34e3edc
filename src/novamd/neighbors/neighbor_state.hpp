#pragma once
/// @file neighbor_state.hpp
/// What a force term's neighbour search keeps between evaluations, as a checkpoint stores it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"

namespace novamd::neighbors {

struct NeighborState {
  std::int64_t calls = 0;    ///< evaluations of the term so far (the phase of check_every)
  std::int64_t builds = 0;   ///< neighbour-list builds so far (reported only)
  core::Vec3Array built_at;  ///< positions at the last list build, storage order; empty: no list
  core::Box built_box;       ///< the box at the last list build (a barostat moves it since)
};

/// `state` with its build positions in the storage order `order` (order[new] = old index), as
/// a spatial partition rearranged the particles; as it was where it holds none for them.
inline NeighborState reordered(NeighborState state, const std::vector<std::size_t>& order) {
  if (state.built_at.size() == order.size())
    for (auto* c : {&state.built_at.x, &state.built_at.y, &state.built_at.z})
      *c = core::gathered(*c, order);
  return state;
}

}  // namespace novamd::neighbors
