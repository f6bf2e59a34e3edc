#pragma once
/// @file target_sums.hpp
/// One target's force, and where asked its energy and virial tensor, summed over its pairs in
/// AccT and added to the per-particle buffers, and the target loop every CPU traversal runs (all
/// pairs, cell list, neighbour list): each traversal supplies only the candidate sources of a
/// target, as runs of particle indices.
///
/// Summation order (fixed by this file, not by the compiler or the thread count): within one
/// run of sources, pair k goes to partial sum k mod kLanes; the kLanes partial sums are added
/// in lane order when the target is done. The lane loop is written so that the compiler can
/// run the lanes as one SIMD vector (gathering the sources' positions); whether it does or not,
/// the result is bitwise the same.
///
/// Excluded pairs (excluded_rows.hpp), where a traversal passes them: a block of kLanes sources
/// that holds an excluded partner of the target runs the same lane loop with those lanes'
/// terms set to zero (a select, still SIMD); the other blocks, and every block of a system
/// without exclusions (a compile-time branch), run the loop without a mask. A pair keeps its
/// lane either way, so the sums of the pairs kept are bitwise those of the unmasked loop.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/neighbors/excluded_rows.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/physics/charge_scaled.hpp"
#include "novamd/physics/pair_result.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::neighbors {

/// Below this many targets a short-range traversal (about 50-100 pairs per target) is faster on
/// one thread than the cost of a parallel region; with another process on the cores, spinning
/// threads cost far more (measured: 0.41 ms/step on one thread, 7.1 ms on two, 500 atoms).
inline constexpr std::ptrdiff_t kMinParallelListTargets = 4096;
/// The same point for a traversal over Verlet lists, counted in list entries (4,096 targets of
/// the LJ melt's 75 neighbours), so that few targets with long lists (a solvated peptide: 2,004
/// atoms of about 700 neighbours within 12 A) run on every thread.
inline constexpr std::size_t kMinParallelListEntries = 300000;

/// Partial sums per target: one AVX-512 vector of doubles (two AVX2 vectors).
inline constexpr int kLanes = 8;

/// The terms of kLanes pairs, lane by lane: force on the target, and with WithEnergy the energy
/// and the virial tensor's components (core/tensor.hpp order: d_a d_b force_over_r).
template <class AccT, bool WithEnergy>
struct LaneTerms {
  static constexpr int kTerms = WithEnergy ? 4 + core::kTensorComponents : 3;
  AccT term[kTerms][kLanes];  ///< fx, fy, fz, energy, virial xx .. yz
};

template <class AccT, bool WithEnergy>
struct TargetSums {
  using Terms = LaneTerms<AccT, WithEnergy>;
  Terms lanes{};  ///< partial sums, pair k of a run in lane k mod kLanes

  /// Adds the first `count` lanes of `terms`.
  void add(const Terms& terms, int count = kLanes) {
    for (int q = 0; q < Terms::kTerms; ++q) {
#pragma omp simd
      for (int lane = 0; lane < count; ++lane) lanes.term[q][lane] += terms.term[q][lane];
    }
  }

  /// Adds the force, and half of each pair's energy and virial (the other half belongs to the
  /// pair's other particle), to particle i's entries; lanes in order.
  void add_to(neighbors::ForceBuffers& out, std::size_t i) const {
    AccT total[Terms::kTerms]{};
    for (int q = 0; q < Terms::kTerms; ++q)
      for (int lane = 0; lane < kLanes; ++lane) total[q] += lanes.term[q][lane];
    out.force.x[i] += static_cast<double>(total[0]);
    out.force.y[i] += static_cast<double>(total[1]);
    out.force.z[i] += static_cast<double>(total[2]);
    if constexpr (WithEnergy) {
      out.energy[i] += 0.5 * static_cast<double>(total[3]);
      for (int k = 0; k < core::kTensorComponents; ++k)
        out.virial[k][i] += 0.5 * static_cast<double>(total[4 + k]);
    }
  }
};

/// Target i's view of the particles: its position and its row of the pair table.
template <class Evaluator>
struct Target {
  std::ptrdiff_t i;
  core::Vec3<double> ri;
  const typename Evaluator::Params* row;  ///< table(type_i, .)
  double qi;  ///< the target's charge, where the evaluator is scaled by charges (else 0)
};

/// The terms of the kLanes pairs (t.i, j[lane]), j[lane] != t.i, under the minimum image: one
/// lane loop, which the compiler turns into SIMD vectors (gathering the sources' positions).
/// OneType: every particle has type 0, so every pair has the same table entry. Masked: the
/// terms of the lanes whose `keep` is 0 are zero (selected, so that an excluded pair's
/// infinite or undefined result at short range never enters a sum).
template <bool OneType, bool Masked = false, class Evaluator, class AccT, bool WithEnergy>
void lane_terms(const Target<Evaluator>& t, const core::ParticleData& particles,
                const core::BoxView<double>& box, const int* j, LaneTerms<AccT, WithEnergy>& out,
                const int* keep = nullptr) {
  using T = typename Evaluator::Real;
  const double* x = particles.position.x.data();  // locals: not reloaded in the loop
  const double* y = particles.position.y.data();
  const double* z = particles.position.z.data();
  const std::int32_t* type = particles.type.data();
  const typename Evaluator::Params* row = t.row;
  const typename Evaluator::Params uniform = row[0];  // OneType: a local copy, read in every lane
  const core::BoxView<double> b = box;
  const core::Vec3<double> ri = t.ri;
  const double* q = particles.charge.data();  // read only where scaled by charges
  const T qi = static_cast<T>(t.qi);
#pragma omp simd
  for (int lane = 0; lane < kLanes; ++lane) {
    const int s = j[lane];
    // box.minimum_image and core::dot, written per component: no vector temporaries in the loop
    const T dx = static_cast<T>(b.nearest_image(ri.x - x[s], b.length.x, b.inverse_length.x));
    const T dy = static_cast<T>(b.nearest_image(ri.y - y[s], b.length.y, b.inverse_length.y));
    const T dz = static_cast<T>(b.nearest_image(ri.z - z[s], b.length.z, b.inverse_length.z));
    const T r2 = dx * dx + dy * dy + dz * dz;
    physics::PairResult<T> p = physics::evaluate_pair<Evaluator>(
        r2, OneType ? uniform : row[type[s]], qi,
        physics::kReadsCharges<Evaluator> ? static_cast<T>(q[s]) : T(0));
    if constexpr (Masked) {
      p.force_over_r = keep[lane] ? p.force_over_r : T(0);
      p.energy = keep[lane] ? p.energy : T(0);
    }
    const T fx = p.force_over_r * dx, fy = p.force_over_r * dy, fz = p.force_over_r * dz;
    out.term[0][lane] = static_cast<AccT>(fx);
    out.term[1][lane] = static_cast<AccT>(fy);
    out.term[2][lane] = static_cast<AccT>(fz);
    if constexpr (WithEnergy) {  // the order of core::SymmetricTensor::add_outer
      out.term[3][lane] = static_cast<AccT>(p.energy);
      out.term[4][lane] = static_cast<AccT>(fx * dx);
      out.term[5][lane] = static_cast<AccT>(fy * dy);
      out.term[6][lane] = static_cast<AccT>(fz * dz);
      out.term[7][lane] = static_cast<AccT>(fx * dy);
      out.term[8][lane] = static_cast<AccT>(fx * dz);
      out.term[9][lane] = static_cast<AccT>(fy * dz);
    }
  }
}

/// With exclusions (`row` walks the target's excluded partners along the run's ascending
/// sources j[0..used)): whether the block holds a partner, and then `keep` (1 for each lane
/// kept, 0 for a partner). One comparison for a block without a partner.
inline bool mask_excluded(ExclusionCursor& row, const int* j, int used, int* keep) {
  if (!row.any_within(j[0], j[used - 1])) return false;
  for (int lane = 0; lane < kLanes; ++lane) keep[lane] = lane >= used || !row.excludes(j[lane]);
  return true;
}

/// Adds the pairs (t.i, source(k)) for k in [0, count), source(k) != t.i, to `sums`, pair k into
/// lane k mod kLanes. The last, partial block repeats its last source in the unused lanes,
/// whose terms are not added. Excluding: the sources ascend, and the pairs that `row` (the
/// target's, from its start) excludes are left out (their lanes masked).
template <bool OneType, bool Excluding, class Evaluator, class AccT, bool WithEnergy, class Source>
void add_run(TargetSums<AccT, WithEnergy>& sums, const Target<Evaluator>& t,
             const core::ParticleData& particles, const core::BoxView<double>& box,
             std::ptrdiff_t count, Source source, const ExclusionCursor& row) {
  LaneTerms<AccT, WithEnergy> terms;
  int j[kLanes];
  [[maybe_unused]] int keep[kLanes];
  [[maybe_unused]] ExclusionCursor partners;  // Excluding: the row along this run
  if constexpr (Excluding) {
    partners = row;
    if (count > 0) partners.seek(static_cast<std::int32_t>(source(0)));
  }
  const auto block_terms = [&](int used) {
    if constexpr (Excluding) {
      if (mask_excluded(partners, j, used, keep)) {
        lane_terms<OneType, true>(t, particles, box, j, terms, keep);
        return;
      }
    }
    lane_terms<OneType>(t, particles, box, j, terms);
  };
  std::ptrdiff_t k0 = 0;
  for (; k0 + kLanes <= count; k0 += kLanes) {
    for (int lane = 0; lane < kLanes; ++lane) j[lane] = static_cast<int>(source(k0 + lane));
    block_terms(kLanes);
    sums.add(terms);
  }
  if (k0 == count) return;
  const auto used = static_cast<int>(count - k0);
  for (int lane = 0; lane < kLanes; ++lane)
    j[lane] = static_cast<int>(source(k0 + std::min(lane, used - 1)));
  block_terms(used);
  sums.add(terms, used);
}

/// for_each_target (below), with exclusions or without, as a compile-time choice.
template <class Evaluator, class AccT, bool WithEnergy, bool Excluding, class Sources>
void for_each_target_of(const core::ParticleData& particles, const core::BoxView<double>& box,
                        physics::PairTableView<typename Evaluator::Params> table,
                        neighbors::ForceBuffers& out, std::ptrdiff_t min_parallel,
                        std::ptrdiff_t target_begin, std::ptrdiff_t target_end,
                        const ExcludedRowsView& excluded, Sources& sources) {
  const auto& pos = particles.position;
  const bool one_type = table.num_types == 1;  // no per-pair table look-up
#pragma omp parallel for schedule(static) if (target_end - target_begin >= min_parallel)
  for (std::ptrdiff_t i = target_begin; i < target_end; ++i) {
    const Target<Evaluator> t{i, pos.get(i), &table(particles.type[i], 0),
                              physics::kReadsCharges<Evaluator> ? particles.charge[i] : 0.0};
    TargetSums<AccT, WithEnergy> sums;
    ExclusionCursor row;
    if constexpr (Excluding) row = excluded.row(static_cast<int>(i));
    const auto run = [&](std::ptrdiff_t count, auto source) {
      if (one_type) {
        add_run<true, Excluding>(sums, t, particles, box, count, source, row);
      } else {
        add_run<false, Excluding>(sums, t, particles, box, count, source, row);
      }
    };
    sources(i, t.ri, run);
    sums.add_to(out, i);
  }
}

/// For every target i, on OpenMP threads that own their targets (parallel from
/// `min_parallel` targets on), calls `sources(i, ri, run)`, where `run(count, source)` adds the
/// pairs (i, source(k)), k in [0, count), under the minimum image to i's sums (source(k) != i:
/// a traversal leaves the target out of its runs); sums are added to `out` in target order.
/// Each target's sum depends only on the runs `sources` gives: bitwise independent of the
/// threads.
/// Targets [target_begin, target_end) only (a block of the force matrix); the others' entries
/// of `out` are not touched. WithEnergy: also the energy and virial shares (else not written).
/// With `excluded` rows (excluded_rows.hpp), each run's sources must ascend, and the pairs the
/// rows name are left out; without, the loop is the one without exclusions.
template <class Evaluator, class AccT, bool WithEnergy, class Sources>
void for_each_target(const core::ParticleData& particles, const core::BoxView<double>& box,
                     physics::PairTableView<typename Evaluator::Params> table,
                     neighbors::ForceBuffers& out, std::ptrdiff_t min_parallel,
                     std::ptrdiff_t target_begin, std::ptrdiff_t target_end,
                     const ExcludedRowsView& excluded, Sources&& sources) {
  if (excluded.any()) {
    for_each_target_of<Evaluator, AccT, WithEnergy, true>(
        particles, box, table, out, min_parallel, target_begin, target_end, excluded, sources);
  } else {
    for_each_target_of<Evaluator, AccT, WithEnergy, false>(
        particles, box, table, out, min_parallel, target_begin, target_end, excluded, sources);
  }
}

/// Every particle is a target.
template <class Evaluator, class AccT, bool WithEnergy, class Sources>
void for_each_target(const core::ParticleData& particles, const core::BoxView<double>& box,
                     physics::PairTableView<typename Evaluator::Params> table,
                     neighbors::ForceBuffers& out, std::ptrdiff_t min_parallel,
                     const ExcludedRowsView& excluded, Sources&& sources) {
  for_each_target<Evaluator, AccT, WithEnergy>(particles, box, table, out, min_parallel, 0,
                                               static_cast<std::ptrdiff_t>(particles.size()),
                                               excluded, std::forward<Sources>(sources));
}

}  // namespace novamd::neighbors
