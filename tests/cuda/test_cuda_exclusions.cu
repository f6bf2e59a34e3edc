// Excluded pairs in every CUDA pair traversal: all pairs in both kernels (chunked, each pair
// once), cell lists at 1 and 8 lanes per target, Verlet lists, and all pairs with no cutoff,
// each in double, mixed and single, against the CPU force term over all pairs in double with
// the same exclusions (itself checked against a double loop in test_exclusions.cpp). Chains of
// 5 bonded between near neighbours, so that most of the pairs within three bonds lie within
// the cutoff; ids shuffled in storage, then every particle moved by just under half the skin
// (chains split anew by the periodic boundary, Verlet lists kept), then the storage reordered
// (the device rows rebuilt for the new order). Bitwise repeatable. Skipped without a device.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/device_topology.cuh"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/all_pairs_plan.hpp"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "support/charged_particles.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::core::Box;
using novamd::core::ParticleData;
using novamd::core::Precision;
using novamd::neighbors::NeighborMethod;

constexpr int kChainLength = 5;
constexpr int kMultiprocessors = 132;
constexpr double kMinDistance = 0.7;

/// The index of the particle nearest to i (nearest image) among those not yet `used`.
std::size_t nearest_unused(const ParticleData& p, const Box& box, std::size_t i,
                           const std::vector<bool>& used) {
  const auto view = box.view<double>();
  std::size_t best = i;
  double best_r2 = std::numeric_limits<double>::max();
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (used[j]) continue;
    const auto d = view.minimum_image(p.position.get(i) - p.position.get(j));
    const double r2 = novamd::core::dot(d, d);
    if (r2 < best_r2) {
      best_r2 = r2;
      best = j;
    }
  }
  return best;
}

/// n particles (a multiple of 5) of the random mixture's species (charges 1, 6, 8) at density
/// 0.88, no two closer than 0.7, in chains of 5: each chain grows from the first particle not
/// yet in one to the nearest such particle (about 0.9 apart), so that the pairs within three
/// bonds are near one another. Ids and storage in chain order. Yukawa (lambda 1.5) cut at
/// `cutoff`.
BackendSetup near_neighbour_chains(std::size_t n, double cutoff) {
  const double edge = std::cbrt(static_cast<double>(n) / 0.88 / (0.9 * 1.1));
  auto s = novamd::test::random_mixture(n, edge, 11, novamd::test::kLambda, kMinDistance);
  std::vector<bool> used(n, false);
  std::vector<std::size_t> order;
  for (std::size_t first = 0; order.size() < n; ++first) {
    if (used[first]) continue;
    std::size_t at = first;
    for (int a = 0; a < kChainLength; ++a) {
      used[at] = true;
      order.push_back(at);
      if (a + 1 < kChainLength) at = nearest_unused(s.particles, s.box, at, used);
    }
  }
  novamd::core::permute(s.particles, order);
  s.topology = novamd::core::Topology(static_cast<std::int32_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    s.particles.id[i] = static_cast<std::int32_t>(i);
    if (i % kChainLength != 0)
      s.topology.add_bond({0, {static_cast<std::int32_t>(i - 1), static_cast<std::int32_t>(i)}});
  }
  s.forces = {novamd::forces::YukawaSettings{novamd::test::kLambda, cutoff}};
  return s;
}

/// One CUDA pair term over the system's exclusions (device topology and ids uploaded), kept
/// across calls so that its lists and rows persist.
template <Precision P>
class ExcludingTerm {
 public:
  using PairT = typename novamd::core::PrecisionTypes<P>::PairT;

  ExcludingTerm(const BackendSetup& s, int lanes) : lanes_(lanes) {
    term_ = novamd::forces::make_cuda_force_term<P>(s.forces[0], s.species, s.units, s.neighbors,
                                                    s.box, /*excluded_pairs=*/true);
    topology_.upload(s.topology, stream_.get());
  }

  /// Forces on `p` (storage order), as x, y, z arrays one after another.
  std::vector<double> forces(const ParticleData& p, const Box& box) {
    const int n = static_cast<int>(p.size());
    std::vector<novamd::neighbors::PairPosition<PairT>> packed(n);
    for (int i = 0; i < n; ++i)
      packed[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]),
                   p.type[i]};
    positions_.copy_from_host(packed, stream_.get());
    ids_.copy_from_host(p.id, stream_.get());
    out_.resize(n);
    // resident threads such that lanes_per_target picks exactly `lanes_`
    novamd::forces::CudaForceInput<PairT> input{
        positions_.data(), n, box.view<PairT>(), box, kMultiprocessors, 2 * n * lanes_};
    input.fields.id = ids_.data();
    input.fields.topology = topology_.view();
    term_->add_to(input, out_.view(), {false, true}, stream_.get());
    std::vector<double> x, y, z;
    out_.fx.copy_to_host(x, stream_.get());
    out_.fy.copy_to_host(y, stream_.get());
    out_.fz.copy_to_host(z, stream_.get());
    stream_.synchronize();
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  }
  /// The particles were reordered in storage.
  void reordered() { term_->invalidate_lists(); }
  std::int64_t builds() const { return term_->list_builds(); }

 private:
  int lanes_;
  novamd::core::CudaStream stream_;
  novamd::core::DeviceTopology topology_;
  std::unique_ptr<novamd::forces::CudaForceTerm<PairT>> term_;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> positions_;
  novamd::core::DeviceBuffer<std::int32_t> ids_;
  novamd::neighbors::DeviceForceArrays<double> out_;
};

/// The oracle: the CPU term over all pairs in double, leaving out the same pairs.
novamd::core::Vec3Array cpu_forces(const BackendSetup& s, const ParticleData& p,
                                   const novamd::core::ExclusionLists& exclusions) {
  novamd::neighbors::NeighborSettings all_pairs;
  all_pairs.method = NeighborMethod::AllPairs;
  auto term = novamd::forces::make_cpu_force_term(s.forces[0], s.species, s.units,
                                                  Precision::Double, all_pairs,
                                                  s.box.shortest_edge(), std::nullopt, &exclusions);
  novamd::neighbors::ForceBuffers out;
  out.reset(p.size());
  term->add_to(p, s.box, out, false);
  return out.force;
}

/// max_i |F_gpu - F_cpu|_inf / S_i, S_i = sum_j |f_ij| over the pairs kept (written out).
double worst_error(const std::vector<double>& gpu, const novamd::core::Vec3Array& cpu,
                   const BackendSetup& s, const ParticleData& p, double cutoff) {
  const auto ref = novamd::test::cut_yukawa_double_loop(
      p, s.box, [&](std::size_t i) { return s.species[p.type[i]].charge; },
      [&](std::size_t i, std::size_t j) {
        return p.id[i] / kChainLength == p.id[j] / kChainLength && std::abs(p.id[i] - p.id[j]) <= 3;
      },
      cutoff);
  const std::size_t n = p.size();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = std::max({std::abs(gpu[i] - cpu.x[i]), std::abs(gpu[n + i] - cpu.y[i]),
                               std::abs(gpu[2 * n + i] - cpu.z[i])});
    worst = std::max(worst, e / ref.scale[i]);
  }
  return worst;
}

/// A random permutation of n storage places.
std::vector<std::size_t> shuffled(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

/// Moves every particle by `length` in a random direction, wrapped into the box; returns how
/// many crossed a face.
int move_all(ParticleData& p, const Box& box, double length, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  const auto view = box.view<double>();
  const auto L = box.length();
  int crossed = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    novamd::core::Vec3<double> d{normal(rng), normal(rng), normal(rng)};
    d *= length / std::sqrt(novamd::core::dot(d, d));
    const auto r = p.position.get(i) + d;
    crossed += r.x < 0 || r.x >= L.x || r.y < 0 || r.y >= L.y || r.z < 0 || r.z >= L.z;
    p.position.set(i, view.wrap(r));
  }
  return crossed;
}

struct Case {
  std::size_t n;
  NeighborMethod method;
  double cutoff;
  int lanes;
  Precision precision;
};

template <Precision P>
void check_every_phase(const Case& c) {
  const BackendSetup s = near_neighbour_chains(c.n, c.cutoff);
  auto setup = s;
  setup.neighbors.method = c.method;
  const auto exclusions = s.topology.exclusions(novamd::core::kExcludedSeparations);
  std::mt19937_64 rng(23);
  ParticleData p = s.particles;
  novamd::core::permute(p, shuffled(p.size(), rng));  // ids differ from storage places
  ExcludingTerm<P> gpu(setup, c.lanes);

  const double skin =
      setup.neighbors.skin_for(std::isinf(c.cutoff) ? 1.0 : c.cutoff, setup.box.shortest_edge());
  // Terms summed per particle: every other particle without a cutoff; within 2.5 at density
  // 0.88 about 57, at most twice that.
  const double m = std::isinf(c.cutoff) ? static_cast<double>(c.n) : 128.0;
  // double: another summation order, 4 m eps of S_i. FP32 pair arithmetic: separations from
  // float positions, (32 + 4 L / r_min) FP32 eps (test_cuda_backend.cpp), r_min the closest
  // approach after the move (0.7 less twice the move); FP32 sums over m terms, 4 sqrt(m) eps.
  const double r_min = kMinDistance - 2 * 0.49 * skin;
  const double eps_f = std::numeric_limits<float>::epsilon();
  const double bound =
      P == Precision::Double
          ? 4.0 * m * std::numeric_limits<double>::epsilon()
          : (32.0 + 4.0 * setup.box.length().z / r_min + 4.0 * std::sqrt(m)) * eps_f;

  const auto check = [&](const char* phase) {
    const auto f = gpu.forces(p, setup.box);
    const double error = worst_error(f, cpu_forces(setup, p, exclusions), setup, p, c.cutoff);
    std::printf("N = %zu, method %d, lanes %d, precision %s, %s: error %.3g (bound %.3g)\n", c.n,
                static_cast<int>(c.method), c.lanes,
                std::string(novamd::core::to_string(P)).c_str(), phase, error, bound);
    EXPECT_LE(error, bound) << phase;
    if (P != Precision::Double) EXPECT_GT(error, 0.0) << phase;  // float arithmetic really ran
    EXPECT_EQ(gpu.forces(p, setup.box), f) << phase;             // no atomics: the same bits again
  };
  check("shuffled");
  EXPECT_GT(move_all(p, setup.box, 0.49 * skin, rng), 5);
  check("moved");
  if (c.method == NeighborMethod::NeighborList) {
    EXPECT_EQ(gpu.builds(), 1);  // moves under half the skin keep the list
  }
  novamd::core::permute(p, shuffled(p.size(), rng));
  gpu.reordered();
  check("reordered");
}

class CudaExclusions : public testing::TestWithParam<Case> {};

TEST_P(CudaExclusions, EveryTraversalLeavesOutTheExcludedPairsAsTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const Case c = GetParam();
  if (c.method == NeighborMethod::AllPairs) {  // which all-pairs kernel runs, as named
    const int range = novamd::neighbors::half_kernel_range(static_cast<int>(c.n), kMultiprocessors);
    ASSERT_EQ(range > 0, c.n > 4096) << "N = " << c.n;
  }
  switch (c.precision) {
    case Precision::Double:
      check_every_phase<Precision::Double>(c);
      break;
    case Precision::Mixed:
      check_every_phase<Precision::Mixed>(c);
      break;
    case Precision::Single:
      check_every_phase<Precision::Single>(c);
      break;
  }
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  static const char* const kNames[] = {"auto", "all_pairs", "cell_list", "neighbor_list"};
  const Case& c = info.param;
  return std::string(kNames[static_cast<int>(c.method)]) + "_N" + std::to_string(c.n) +
         (std::isinf(c.cutoff) ? "_no_cutoff" : "") + "_lanes" + std::to_string(c.lanes) + "_" +
         std::string(novamd::core::to_string(c.precision));
}

std::vector<Case> every_case() {
  const double cut = novamd::test::kCutoff, none = novamd::forces::kNoCutoff;
  std::vector<Case> cases;
  for (const auto precision : {Precision::Double, Precision::Mixed, Precision::Single}) {
    cases.push_back({1500, NeighborMethod::AllPairs, cut, 1, precision});   // chunked
    cases.push_back({6000, NeighborMethod::AllPairs, cut, 1, precision});   // each pair once
    cases.push_back({1500, NeighborMethod::AllPairs, none, 1, precision});  // chunked
    cases.push_back({6000, NeighborMethod::AllPairs, none, 1, precision});  // each pair once
    cases.push_back({6000, NeighborMethod::CellList, cut, 1, precision});
    cases.push_back({6000, NeighborMethod::CellList, cut, 8, precision});
    cases.push_back({6000, NeighborMethod::NeighborList, cut, 4, precision});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Traversals, CudaExclusions, testing::ValuesIn(every_case()), case_name);

}  // namespace
