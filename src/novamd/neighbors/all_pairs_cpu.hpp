#pragma once
/// @file all_pairs_cpu.hpp
/// All-pairs traversal on the CPU (IUMD's particle-particle algorithm): every target i meets
/// every source j != i under the minimum image. OpenMP threads own disjoint targets and each
/// target's sums run over j in index order, so the result is bitwise independent of the number
/// of threads. Generic over the pair evaluator (physics/) and the precision.

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
  using PairT = typename Evaluator::Real;
  const auto& pos = particles.position;
  const auto n = static_cast<std::ptrdiff_t>(particles.size());

#pragma omp parallel for schedule(static) if (n >= kMinParallelTargets)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const core::Vec3<double> ri{pos.x[i], pos.y[i], pos.z[i]};
    const int type_i = particles.type[i];
    TargetSums<AccT> sums;
    for (std::ptrdiff_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const core::Vec3<double> rj{pos.x[j], pos.y[j], pos.z[j]};
      const auto d = core::vec3_cast<PairT>(box.minimum_image(ri - rj));
      const PairT r2 = core::dot(d, d);
      sums.add(Evaluator::evaluate(r2, table(type_i, particles.type[j])), d, r2);
    }
    sums.add_to(out, i);
  }
}

}  // namespace novamd::neighbors
