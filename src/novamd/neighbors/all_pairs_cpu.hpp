#pragma once
/// @file all_pairs_cpu.hpp
/// All-pairs traversal on the CPU (IUMD's particle-particle algorithm): every target i meets
/// every source j != i under the minimum image. OpenMP threads own disjoint targets and each
/// target's sums run over j in index order (in the lanes of target_sums.hpp), so the result is
/// bitwise independent of the number of threads. Generic over the pair evaluator (physics/) and the
/// precision. Excluded pairs (excluded_rows.hpp) are left out where rows are given: each of a
/// target's two runs ascends.

#include <algorithm>
#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/excluded_rows.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/neighbors/pair_block.hpp"
#include "novamd/neighbors/target_sums.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::neighbors {

/// Below this many targets the N^2 loop is too short to repay a parallel region.
inline constexpr std::ptrdiff_t kMinParallelTargets = 64;

/// Adds the force of every source of `block` on each of its targets to `out.force`, and half of
/// each pair's energy and virial to the target's entries in `out.energy` and `out.virial`
/// (a target is never its own source). The whole block is IUMD's particle-particle loop; a
/// smaller one is one rank's share of the force matrix.
/// PairT: pair arithmetic (separation, evaluator); AccT: per-target accumulation.
/// The separation is taken in double (minimum image) before conversion to PairT.
/// `excluded`: pairs left out (default: none).
template <class Evaluator, class AccT, bool WithEnergy>
void all_pairs_cpu(const core::ParticleData& particles, const core::BoxView<double>& box,
                   physics::PairTableView<typename Evaluator::Params> table,
                   neighbors::ForceBuffers& out, const PairBlock& block,
                   const ExcludedRowsView& excluded = {}) {
  const std::ptrdiff_t s0 = block.source_begin, s1 = block.source_end;
  for_each_target<Evaluator, AccT, WithEnergy>(
      particles, box, table, out, kMinParallelTargets, block.target_begin, block.target_end,
      excluded, [s0, s1](std::ptrdiff_t i, const auto&, auto& run) {
        const std::ptrdiff_t below = std::min(i, s1), above = std::max(i + 1, s0);
        if (below > s0) run(below - s0, [s0](std::ptrdiff_t k) { return s0 + k; });        // j < i
        if (s1 > above) run(s1 - above, [above](std::ptrdiff_t k) { return above + k; });  // j > i
      });
}

/// Every particle against every other but the `excluded` pairs.
template <class Evaluator, class AccT, bool WithEnergy>
void all_pairs_cpu(const core::ParticleData& particles, const core::BoxView<double>& box,
                   physics::PairTableView<typename Evaluator::Params> table,
                   neighbors::ForceBuffers& out, const ExcludedRowsView& excluded = {}) {
  all_pairs_cpu<Evaluator, AccT, WithEnergy>(
      particles, box, table, out, PairBlock::whole(static_cast<std::ptrdiff_t>(particles.size())),
      excluded);
}

}  // namespace novamd::neighbors
