#pragma once
/// @file all_pairs_cpu.hpp
/// All-pairs traversal on the CPU (IUMD's particle-particle algorithm): every target i meets
/// every source j != i under the minimum image. OpenMP threads own disjoint targets and each
/// target's sums run over j in index order (in the lanes of target_sums.hpp), so the result is
/// bitwise independent of the number of threads. Generic over the pair evaluator (physics/) and the precision.

#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/forces/force_buffers.hpp"
#include "novamd/neighbors/target_sums.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::neighbors {

/// Below this many targets the N^2 loop is too short to repay a parallel region.
inline constexpr std::ptrdiff_t kMinParallelTargets = 64;

/// Adds every pair force acting on each particle to `out.force`, and half of each pair's energy
/// and virial to the particle's entries in `out.energy` and `out.virial`.
/// PairT: pair arithmetic (separation, evaluator); AccT: per-target accumulation.
/// The separation is taken in double (minimum image) before conversion to PairT.
template <class Evaluator, class AccT>
void all_pairs_cpu(const core::ParticleData& particles, const core::BoxView<double>& box,
                   physics::PairTableView<typename Evaluator::Params> table,
                   forces::ForceBuffers& out) {
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
  for_each_target<Evaluator, AccT>(particles, box, table, out, kMinParallelTargets,
                                   [n](std::ptrdiff_t i, const auto&, auto& run) {
                                     run(i, [](std::ptrdiff_t k) { return k; });  // j < i
                                     run(n - i - 1,
                                         [i](std::ptrdiff_t k) { return i + 1 + k; });  // j > i
                                   });
}

}  // namespace novamd::neighbors
