#pragma once
/// @file target_sums.hpp
/// One target's force, energy and virial, summed over its pairs in AccT and added to the
/// per-particle buffers: shared by the CPU traversals (all pairs, neighbour list).

#include <cstddef>

#include "novamd/core/vec3.hpp"
#include "novamd/forces/force_buffers.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::neighbors {

/// Below this many targets a short-range traversal (about 50-100 pairs per target) is faster on
/// one thread than the cost of a parallel region; with another process on the cores, spinning
/// threads cost far more (measured: 0.41 ms/step on one thread, 7.1 ms on two, 500 atoms).
inline constexpr std::ptrdiff_t kMinParallelListTargets = 4096;

template <class AccT>
struct TargetSums {
  core::Vec3<AccT> force{};
  AccT energy = 0;
  AccT virial = 0;

  /// The pair at separation d (target minus source), r2 = |d|^2.
  template <class PairT>
  void add(const physics::PairResult<PairT>& pair, const core::Vec3<PairT>& d, PairT r2) {
    force += core::vec3_cast<AccT>(pair.force_over_r * d);
    energy += static_cast<AccT>(pair.energy);
    virial += static_cast<AccT>(pair.force_over_r * r2);
  }

  /// Adds the force, and half of each pair's energy and virial (the other half belongs to the
  /// pair's other particle), to particle i's entries.
  void add_to(forces::ForceBuffers& out, std::size_t i) const {
    out.force.x[i] += static_cast<double>(force.x);
    out.force.y[i] += static_cast<double>(force.y);
    out.force.z[i] += static_cast<double>(force.z);
    out.energy[i] += 0.5 * static_cast<double>(energy);
    out.virial[i] += 0.5 * static_cast<double>(virial);
  }
};

}  // namespace novamd::neighbors
