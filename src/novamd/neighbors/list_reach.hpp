#pragma once
/// @file list_reach.hpp
/// How far a particle may move before a pair list built with `skin` misses a pair within the
/// cutoff, once the box has moved with the positions scaled by its edges (a barostat's move),
/// for the CPU's Verlet lists and the GPU's lists alike.

#include <algorithm>

#include "novamd/core/vec3.hpp"

namespace novamd::neighbors {

/// (min(1, s_min) (r_c + skin) - r_c) / 2 for edges `scale` times those of the build: a pair
/// the build left out was at least r_c + skin apart, and at least s_min (r_c + skin) once
/// scaled, so no pair within r_c is missing while no particle has moved more than this from its
/// build position scaled alike (skin / 2 in the box of the build). 0 or less: no reach is left.
inline double followed_list_reach(double cutoff, double skin, const core::Vec3<double>& scale) {
  const double shrink = std::min({1.0, scale.x, scale.y, scale.z});
  return 0.5 * (shrink * (cutoff + skin) - cutoff);
}

}  // namespace novamd::neighbors
