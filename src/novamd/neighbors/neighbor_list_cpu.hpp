#pragma once
/// @file neighbor_list_cpu.hpp
/// Pair forces over a Verlet list on the CPU: each thread owns its targets and sums over the
/// target's list in list order (in the lanes of target_sums.hpp), so results are bitwise
/// independent of the thread count.
/// Generic over the evaluator, which must be truncated at or below the list's cutoff.

#include <cstddef>
#include <cstdint>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/neighbors/target_sums.hpp"
#include "novamd/neighbors/verlet_list.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::neighbors {

template <class Evaluator, class AccT, bool WithEnergy>
void neighbor_list_cpu(const core::ParticleData& particles, const core::BoxView<double>& box,
                       physics::PairTableView<typename Evaluator::Params> table,
                       const VerletList& list, neighbors::ForceBuffers& out) {
  const std::ptrdiff_t min_parallel =
      list.neighbors().size() >= kMinParallelListEntries ? 0 : PTRDIFF_MAX;
  for_each_target<Evaluator, AccT, WithEnergy>(
      particles, box, table, out, min_parallel, ExcludedRowsView{},  // left out in the build
      [&list](std::ptrdiff_t i, const auto&, auto& run) {
        const int* neighbors = list.neighbors().data() + list.start()[i];
        run(list.start()[i + 1] - list.start()[i],
            [neighbors](std::ptrdiff_t k) { return neighbors[k]; });
      });
}

}  // namespace novamd::neighbors
