#pragma once
/// @file neighbor_list_cpu.hpp
/// Pair forces over a Verlet list on the CPU: each thread owns its targets and sums over the
/// target's list in list order, so results are bitwise independent of the thread count.
/// Generic over the evaluator, which must be truncated at or below the list's cutoff.

#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/forces/force_buffers.hpp"
#include "novamd/neighbors/target_sums.hpp"
#include "novamd/neighbors/verlet_list.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::neighbors {

template <class Evaluator, class AccT>
void neighbor_list_cpu(const core::ParticleData& particles, const core::BoxView<double>& box,
                       physics::PairTableView<typename Evaluator::Params> table,
                       const VerletList& list, forces::ForceBuffers& out) {
  using PairT = typename Evaluator::Real;
  const auto& pos = particles.position;
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
#pragma omp parallel for schedule(static) if (n >= kMinParallelListTargets)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const core::Vec3<double> ri{pos.x[i], pos.y[i], pos.z[i]};
    const int type_i = particles.type[i];
    TargetSums<AccT> sums;
    for (std::int64_t k = list.start()[i]; k < list.start()[i + 1]; ++k) {
      const int j = list.neighbors()[k];
      const auto d = core::vec3_cast<PairT>(box.minimum_image(ri - pos.get(j)));
      const PairT r2 = core::dot(d, d);
      sums.add(Evaluator::evaluate(r2, table(type_i, particles.type[j])), d, r2);
    }
    sums.add_to(out, i);
  }
}

}  // namespace novamd::neighbors
