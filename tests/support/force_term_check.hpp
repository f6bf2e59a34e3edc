#pragma once
// The one test body that ForceTerms (tests/unit/test_force_terms.cpp) and CudaForceTerms
// (tests/cuda/test_cuda_force_terms.cpp) share: a case of support/force_term_cases.hpp on one
// backend, traversal and precision against the CPU's all-pairs reference in double, on fresh
// random input and after the particles change, as AutoPas's TraversalComparison does:
//   fresh    the case's particles;
//   moved    every particle by 0.3 to 0.49 of the skin in a random direction: Verlet lists are
//            kept and must still hold every pair within the cutoff;
//   jumped   one particle to a random place in the box: the lists are rebuilt;
//   removed  every fifth particle removed: the count changed, the lists are rebuilt.
// Each time the forces on every particle, the energy (with the tail correction, where a term
// asks for one) and each component of the virial tensor must lie within the bounds that the error
// model of force_term_cases.hpp gives for the backend under test plus the reference, and the list
// builds must be as above. The backend's part is only "evaluate these particles" (Evaluate).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/neighbors/cell_dimensions.hpp"
#include "novamd/neighbors/cluster_grid.hpp"
#include "support/force_term_cases.hpp"

namespace novamd::test {

/// One evaluation of a case's force terms, in the particles' order.
struct Evaluation {
  std::vector<double> fx, fy, fz;
  double energy = 0;                     ///< sum of the per-particle shares, in order, in double
  core::SymmetricTensor<double> virial;  ///< the same, per component
  std::int64_t list_builds = 0;          ///< over all terms, so far
};

/// A backend's force terms for one case, kept between evaluations (so that lists persist).
using Evaluate = std::function<Evaluation(const core::ParticleData&)>;
/// Builds them for the setup's forces, neighbour settings and precision.
using MakeTerms = std::function<Evaluate(const backend::BackendSetup&)>;

/// The particles of one step of the comparison.
struct Phase {
  const char* name;
  core::ParticleData particles;
  int builds;  ///< Verlet-list builds per term with a list, so far
};

/// The case's system with the traversal and precision under test.
inline backend::BackendSetup setup_of(const ForceTermCase& c, neighbors::NeighborMethod method,
                                      core::Precision precision) {
  auto s = c.build(c.seed);
  s.neighbors.method = method;
  s.neighbors.reorder_every = 0;
  s.precision = precision;
  return s;
}

/// fresh, moved, jumped, removed (see above); deterministic for a case.
inline std::vector<Phase> phases_of(const ForceTermCase& c, const backend::BackendSetup& s) {
  std::mt19937_64 rng(c.seed + 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal;
  const auto box = s.box.view<double>();
  const double skin = s.neighbors.skin.value();
  const auto nearest = [&](const core::ParticleData& p, const core::Vec3<double>& q,
                           std::size_t except) {
    double r2 = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == except) continue;
      const auto d = box.minimum_image(q - p.position.get(j));
      r2 = std::min(r2, core::dot(d, d));
    }
    return std::sqrt(r2);
  };
  std::vector<Phase> phases;
  phases.push_back({"fresh", s.particles, 1});

  // Each particle by 0.3 to 0.49 skin (so no pair closes in by a skin), keeping half the
  // case's minimum distance to the others (a nuclear pair at r = 0 would meet Coulomb's pole).
  auto p = s.particles;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      core::Vec3<double> u{normal(rng), normal(rng), normal(rng)};
      u = ((0.3 + 0.19 * unit(rng)) * skin / std::sqrt(core::dot(u, u))) * u;
      const auto q = box.wrap(p.position.get(i) + u);
      if (nearest(p, q, i) >= 0.5 * c.min_distance) {
        p.position.set(i, q);
        break;
      }
    }
  }
  phases.push_back({"moved", p, 1});

  // One particle to a random place at least a skin from where it was.
  const std::size_t k = rng() % p.size();
  const auto L = s.box.length();
  for (;;) {
    const core::Vec3<double> q{L.x * unit(rng), L.y * unit(rng), L.z * unit(rng)};
    const auto d = box.minimum_image(q - p.position.get(k));
    if (core::dot(d, d) >= skin * skin && nearest(p, q, k) >= c.min_distance) {
      p.position.set(k, q);
      break;
    }
  }
  phases.push_back({"jumped", p, 2});

  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (i % 5 != 2) kept.push_back(i);
  core::permute(p, kept);
  phases.push_back({"removed", p, 3});
  return phases;
}

/// The reference: every force term on the CPU over all pairs, in double.
inline Evaluation cpu_reference(const backend::BackendSetup& s, const core::ParticleData& p) {
  neighbors::NeighborSettings all_pairs;
  all_pairs.method = neighbors::NeighborMethod::AllPairs;
  neighbors::ForceBuffers out;
  out.reset(p.size());
  for (const auto& f : s.forces) {
    forces::make_cpu_force_term(f, s.species, s.units, core::Precision::Double, all_pairs,
                                s.box.shortest_edge())
        ->add_to(p, s.box, out, /*with_energy=*/true);
  }
  return {out.force.x, out.force.y, out.force.z, out.total_energy(), out.total_virial(), 0};
}

/// The tolerances of one comparison: the backend's bound plus the reference's.
struct Bounds {
  std::vector<double> force;  ///< per particle, each component
  std::vector<double> scale;  ///< S_i = sum_j |f_ij| (magnitudes of the terms, shifts included)
  double energy = 0, virial = 0;
  double energy_scale = 0, virial_scale = 0;  ///< sums of |V| and |F| r over pairs
};

/// Pair by pair (force_term_cases.hpp), for every term; then the sums: a term's total on a
/// target with m nonzero pair terms passes sum_depth(m, n) roundings of eps/2 of S_i in the
/// sums' type, and double_depth more in double; the energy and virial shares are summed the
/// same way per target, and over the n particles in double.
inline Bounds error_bounds(const backend::BackendSetup& s, const core::ParticleData& p,
                           const Arithmetic& test) {
  const Arithmetic reference = cpu_arithmetic(core::Precision::Double);
  const std::size_t n = p.size();
  const double nd = static_cast<double>(n);
  const auto box = s.box.view<double>();
  Bounds b;
  b.force.assign(n, 0.0);
  b.scale.assign(n, 0.0);
  std::vector<double> scale(n), energy_scale(n), virial_scale(n), nonzero(n);
  for (const auto& settings : s.forces) {
    const TermModel model(settings, s.species, s.units, test);
    const TermModel oracle(settings, s.species, s.units, reference);
    std::fill(scale.begin(), scale.end(), 0.0);
    std::fill(energy_scale.begin(), energy_scale.end(), 0.0);
    std::fill(virial_scale.begin(), virial_scale.end(), 0.0);
    std::fill(nonzero.begin(), nonzero.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
        const double r = std::sqrt(core::dot(d, d));
        const auto a = p.type[i], c = p.type[j];
        const auto ri = p.position.get(i), rj = p.position.get(j);
        const PairError et = model.pair(a, c, r, separation_error(ri, rj, d, r, s.box, test));
        const PairError er = oracle.pair(a, c, r, separation_error(ri, rj, d, r, s.box, reference));
        if (!et.counted && !er.counted) continue;
        const double fs = std::max(et.force_scale, er.force_scale);
        const double vs = std::max(et.energy_scale, er.energy_scale);
        for (const auto k : {i, j}) {
          b.force[k] += et.force + er.force;
          scale[k] += fs;
          energy_scale[k] += 0.5 * vs;
          virial_scale[k] += 0.5 * fs * r;
          nonzero[k] += 1;
        }
        b.energy += et.energy + er.energy;
        b.virial += et.virial + er.virial;
        b.energy_scale += vs;
        b.virial_scale += fs * r;
      }
    }
    const double range = forces::cutoff_of(settings) +
                         s.neighbors.skin_for(forces::cutoff_of(settings), s.box.shortest_edge());
    const double columns =
        std::isinf(range) ? 1.0 : neighbors::cluster_columns(s.box, n, range).count();
    const double fixed = test.fixed_error(nd, columns);  // absolute, per force component
    b.energy += nd * fixed;
    b.virial += 3 * nd * fixed;
    for (std::size_t i = 0; i < n; ++i) {
      const double depth = test.sum_depth(nonzero[i], nd) * 0.5 * test.sum_eps +
                           reference.sum_depth(nonzero[i], nd) * 0.5 * reference.sum_eps;
      b.force[i] += depth * scale[i] + fixed;
      b.energy += depth * energy_scale[i];
      b.virial += depth * virial_scale[i];
      b.scale[i] += scale[i];
    }
  }
  const double eps_d = std::numeric_limits<double>::epsilon();
  const double doubles = (test.double_depth(nd) + reference.double_depth(nd)) * 0.5 * eps_d;
  for (std::size_t i = 0; i < n; ++i) b.force[i] += doubles * b.scale[i];
  // The shares summed over the particles, in order, by both sides.
  b.energy += (doubles + nd * eps_d) * b.energy_scale;
  b.virial += (doubles + nd * eps_d) * b.virial_scale;
  return b;
}

/// The reference and the bounds of one phase, computed once per case (and arithmetic): the
/// traversals of a precision share them.
inline const Evaluation& cached_reference(const ForceTermCase& c, const backend::BackendSetup& s,
                                          std::size_t phase, const core::ParticleData& p) {
  static std::map<std::string, Evaluation> cache;
  const std::string key = c.name + "/" + std::to_string(phase);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, cpu_reference(s, p)).first;
  return it->second;
}

inline const Bounds& cached_bounds(const ForceTermCase& c, const backend::BackendSetup& s,
                                   std::size_t phase, const core::ParticleData& p,
                                   const Arithmetic& arith) {
  static std::map<std::string, Bounds> cache;
  const std::string key = c.name + "/" + std::to_string(phase) + "/" + arith.name;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, error_bounds(s, p, arith)).first;
  return it->second;
}

inline double ratio(double error, double bound) {
  if (error == 0) return 0.0;
  return bound > 0 ? error / bound : std::numeric_limits<double>::infinity();
}

inline const char* method_name(neighbors::NeighborMethod m) {
  switch (m) {
    case neighbors::NeighborMethod::AllPairs:
      return "all_pairs";
    case neighbors::NeighborMethod::CellList:
      return "cell_list";
    case neighbors::NeighborMethod::NeighborList:
      return "neighbor_list";
    default:
      return "auto";
  }
}

/// The evaluations of every phase by a fresh set of terms (for bitwise comparisons).
inline std::vector<Evaluation> evaluate_phases(const ForceTermCase& c,
                                               neighbors::NeighborMethod method,
                                               core::Precision precision, const MakeTerms& make) {
  const auto setup = setup_of(c, method, precision);
  const auto evaluate = make(setup);
  std::vector<Evaluation> out;
  for (const auto& phase : phases_of(c, setup)) out.push_back(evaluate(phase.particles));
  return out;
}

/// The test body: the case on the backend that `make` builds terms for, whose arithmetic is
/// `arith`, against the reference in every phase. Prints the worst ratio of error to bound;
/// returns the evaluations.
inline std::vector<Evaluation> check_force_terms(const ForceTermCase& c,
                                                 neighbors::NeighborMethod method,
                                                 core::Precision precision, const Arithmetic& arith,
                                                 const MakeTerms& make,
                                                 const std::string& label = "") {
  const auto setup = setup_of(c, method, precision);
  const double skin = setup.neighbors.skin.value();
  int terms_with_lists = 0;
  for (const auto& f : setup.forces) {
    const double rc = forces::cutoff_of(f);
    // Every traversal really runs: with an explicit method the engine keeps it (an infinite
    // cutoff means all pairs), but a box of fewer than 3 cells of r_c + skin per axis would
    // send cell and Verlet lists to all pairs.
    EXPECT_EQ(neighbors::resolve_method(setup.neighbors, rc, setup.box.shortest_edge()),
              std::isinf(rc) ? neighbors::NeighborMethod::AllPairs : method);
    const bool lists = method == neighbors::NeighborMethod::NeighborList ||
                       (method == neighbors::NeighborMethod::CellList && arith.cells_over_lists(f));
    if (std::isfinite(rc) && lists) ++terms_with_lists;
  }
  const auto phases = phases_of(c, setup);
  const auto evaluate = make(setup);
  std::vector<Evaluation> results;
  double worst_force = 0, worst_energy = 0, worst_virial = 0, relative_bound = 0;
  const char* worst_phase = "-";
  for (std::size_t k = 0; k < phases.size(); ++k) {
    const auto& phase = phases[k];
    const auto& p = phase.particles;
    const std::size_t n = p.size();
    for (const auto& f : setup.forces) {
      const double rc = forces::cutoff_of(f);
      if (std::isfinite(rc) &&
          !neighbors::holds_stencil(neighbors::cell_dimensions(setup.box, rc + skin, n), 1)) {
        ADD_FAILURE() << c.name << ": the box holds fewer than 3 cells of r_c + skin per axis";
        return results;
      }
    }
    const Evaluation got = evaluate(p);
    results.push_back(got);
    const Evaluation& ref = cached_reference(c, setup, k, p);
    const Bounds& bounds = cached_bounds(c, setup, k, p, arith);
    const std::string where = label + " " + c.name + ", " + phase.name;
    if (got.fx.size() != n) {
      ADD_FAILURE() << where << ": " << got.fx.size() << " forces for " << n << " particles";
      continue;
    }

    double phase_force = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double error =
          std::max({std::abs(got.fx[i] - ref.fx[i]), std::abs(got.fy[i] - ref.fy[i]),
                    std::abs(got.fz[i] - ref.fz[i])});
      const double q = ratio(error, bounds.force[i]);
      if (q > phase_force) phase_force = q, at = i;
      if (bounds.scale[i] > 0)
        relative_bound = std::max(relative_bound, bounds.force[i] / bounds.scale[i]);
    }
    EXPECT_LE(phase_force, 1.0) << where << ": particle " << at << " (id " << p.id[at]
                                << "), force error " << phase_force * bounds.force[at] << ", bound "
                                << bounds.force[at] << " = " << bounds.force[at] / bounds.scale[at]
                                << " S_i";

    // Energy and virial as the thermo reports them: the pair sums plus the tail correction,
    // which the reference takes from the case's own formula.
    const auto count = core::count_by_type(p, setup.species.size());
    const auto tail =
        forces::tail_correction(setup.forces, setup.species, count, setup.box.volume());
    const auto expected_tail = c.tail ? c.tail(setup, p) : forces::TailCorrection{};
    const double eps_d = std::numeric_limits<double>::epsilon();
    const double energy_bound = bounds.energy + 64 * eps_d * std::abs(expected_tail.energy);
    const double virial_bound = bounds.virial + 64 * eps_d * std::abs(expected_tail.virial);
    const double energy =
        ratio(std::abs(got.energy + tail.energy - ref.energy - expected_tail.energy), energy_bound);
    // Each component's pair terms f d_a d_b are bounded by |f| r, as the trace's F r: the
    // bound of the scalar virial holds for each. The tail correction is isotropic.
    double virial = 0;
    int worst_component = 0;
    for (int q = 0; q < core::kTensorComponents; ++q) {
      const double third = q < 3 ? 1.0 / 3.0 : 0.0;
      const double error = std::abs(got.virial.c[q] + third * tail.virial - ref.virial.c[q] -
                                    third * expected_tail.virial);
      if (ratio(error, virial_bound) > virial)
        virial = ratio(error, virial_bound), worst_component = q;
    }
    EXPECT_LE(energy, 1.0) << where << ": energy " << got.energy + tail.energy << ", reference "
                           << ref.energy + expected_tail.energy << ", bound " << energy_bound;
    EXPECT_LE(virial, 1.0) << where << ": virial " << core::kTensorComponentNames[worst_component]
                           << " " << got.virial.c[worst_component] << ", reference "
                           << ref.virial.c[worst_component] << " (before the tail), bound "
                           << virial_bound;
    EXPECT_EQ(got.list_builds, phase.builds * terms_with_lists) << where << ": list builds";
    if (phase_force > worst_force) worst_force = phase_force, worst_phase = phase.name;
    worst_energy = std::max(worst_energy, energy);
    worst_virial = std::max(worst_virial, virial);
  }
  std::printf(
      "%s %s %s %s (seed %llu, N %zu): force error up to %.3g of its bound (%s; bound "
      "up to %.3g S_i), energy %.3g, virial %.3g\n",
      label.c_str(), c.name.c_str(), method_name(method),
      std::string(core::to_string(precision)).c_str(), static_cast<unsigned long long>(c.seed),
      setup.particles.size(), worst_force, worst_phase, relative_bound, worst_energy, worst_virial);
  return results;
}

/// A parameter of the table-driven suites: (case index, traversal, precision).
using ForceTermParam = std::tuple<std::size_t, neighbors::NeighborMethod, core::Precision>;

/// Every case x traversal x precision, for INSTANTIATE_TEST_SUITE_P.
inline auto every_force_term_param() {
  return testing::Combine(
      testing::Range<std::size_t>(0, force_term_cases().size()),
      testing::Values(neighbors::NeighborMethod::AllPairs, neighbors::NeighborMethod::CellList,
                      neighbors::NeighborMethod::NeighborList),
      testing::Values(core::Precision::Double, core::Precision::Mixed, core::Precision::Single));
}

/// "lennard_jones_cut_cell_list_mixed".
inline std::string force_term_param_name(const testing::TestParamInfo<ForceTermParam>& info) {
  return force_term_cases()[std::get<0>(info.param)].name + "_" +
         method_name(std::get<1>(info.param)) + "_" +
         std::string(core::to_string(std::get<2>(info.param)));
}

}  // namespace novamd::test
