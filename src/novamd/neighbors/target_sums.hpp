#pragma once
/// @file target_sums.hpp
/// One target's force, energy and virial, summed over its pairs in AccT and added to the
/// per-particle buffers, and the target loop every CPU traversal runs (all pairs, cell list,
/// neighbour list): each traversal supplies only the candidate sources of a target.

#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/forces/force_buffers.hpp"
#include "novamd/physics/pair_result.hpp"
#include "novamd/physics/pair_table.hpp"

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

/// For every target i, on OpenMP threads that own their targets (parallel from
/// `min_parallel` targets on), calls `sources(i, ri, pair)` where `pair(j)` evaluates the pair
/// (i, j) under the minimum image into i's sums; sums are added to `out` in target order.
/// Each target's sum runs in the order `sources` visits: bitwise independent of the threads.
template <class Evaluator, class AccT, class Sources>
void for_each_target(const core::ParticleData& particles, const core::BoxView<double>& box,
                     physics::PairTableView<typename Evaluator::Params> table,
                     forces::ForceBuffers& out, std::ptrdiff_t min_parallel, Sources&& sources) {
  using PairT = typename Evaluator::Real;
  const auto& pos = particles.position;
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
#pragma omp parallel for schedule(static) if (n >= min_parallel)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const core::Vec3<double> ri{pos.x[i], pos.y[i], pos.z[i]};
    const int type_i = particles.type[i];
    TargetSums<AccT> sums;
    const auto pair = [&](std::ptrdiff_t j) {
      const auto d = core::vec3_cast<PairT>(box.minimum_image(ri - pos.get(j)));
      const PairT r2 = core::dot(d, d);
      sums.add(Evaluator::evaluate(r2, table(type_i, particles.type[j])), d, r2);
    };
    sources(i, ri, pair);
    sums.add_to(out, i);
  }
}

}  // namespace novamd::neighbors
