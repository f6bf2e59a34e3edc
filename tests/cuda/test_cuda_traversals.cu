// Every CUDA short-range traversal (Verlet lists, cell lists) at every lane count (1, 2, 4 or
// 8 lanes per target) against the CPU backend over all pairs: on fresh random input, after
// moving every particle by just under half the skin without a rebuild, and after removing
// particles; bitwise repeatable; in a dilute gas whose cell grid is capped. Skipped where no
// CUDA device exists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "support/force_scale.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::core::Precision;
using novamd::neighbors::NeighborMethod;

/// Forces from one CUDA force term on the particles of `setup`, the term kept across calls so
/// that its lists persist.
template <Precision P>
class TermHarness {
 public:
  using PairT = typename novamd::core::PrecisionTypes<P>::PairT;

  TermHarness(const BackendSetup& setup, int lanes) : lanes_(lanes) {
    term_ = novamd::forces::make_cuda_force_term<P>(setup.forces[0], setup.species, setup.units,
                                                    setup.neighbors, setup.box);
  }

  /// Forces on `setup`'s particles, as x, y, z arrays one after another.
  std::vector<double> forces(const BackendSetup& setup) {
    const auto& p = setup.particles;
    const int n = static_cast<int>(p.size());
    std::vector<novamd::neighbors::PairPosition<PairT>> packed(n);
    for (int i = 0; i < n; ++i) {
      packed[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]),
                   p.type[i]};
    }
    positions_.copy_from_host(packed, stream_.get());
    for (auto* b : {&fx_, &fy_, &fz_, &energy_, &virial_}) b->resize(n);
    // resident threads such that lanes_per_target picks exactly `lanes_`
    const novamd::forces::CudaForceInput<PairT> input{
        positions_.data(), n, setup.box.view<PairT>(), setup.box, 132, 2 * n * lanes_};
    term_->add_to(input, {fx_.data(), fy_.data(), fz_.data(), energy_.data(), virial_.data()},
                  {false, true}, stream_.get());
    std::vector<double> x, y, z;
    fx_.copy_to_host(x, stream_.get());
    fy_.copy_to_host(y, stream_.get());
    fz_.copy_to_host(z, stream_.get());
    stream_.synchronize();
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  }
  std::int64_t builds() const { return term_->list_builds(); }

 private:
  int lanes_;
  novamd::core::CudaStream stream_;
  std::unique_ptr<novamd::forces::CudaForceTerm<PairT>> term_;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> positions_;
  novamd::core::DeviceBuffer<double> fx_, fy_, fz_, energy_, virial_;
};

/// max_i |F_gpu - F_cpu|_inf / S_i, the CPU evaluating all pairs in double.
double error_against_cpu(const std::vector<double>& gpu, const BackendSetup& setup) {
  auto at = setup;
  at.precision = Precision::Double;
  at.neighbors.method = NeighborMethod::AllPairs;
  novamd::backend::CpuBackend cpu(at);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& f = cpu.particles_on_host().force;
  const auto scale = novamd::test::force_magnitude_sums(at);
  const std::size_t n = f.size();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double err = std::max({std::abs(gpu[i] - f.x[i]), std::abs(gpu[n + i] - f.y[i]),
                                 std::abs(gpu[2 * n + i] - f.z[i])});
    worst = std::max(worst, err / scale[i]);
  }
  return worst;
}

/// Every particle moved by `distance` in a random direction, wrapped into the box.
void move_all(BackendSetup& s, double distance, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  const auto box = s.box.view<double>();
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    novamd::core::Vec3<double> u{normal(rng), normal(rng), normal(rng)};
    u = (distance / std::sqrt(novamd::core::dot(u, u))) * u;
    s.particles.position.set(i, box.wrap(s.particles.position.get(i) + u));
  }
}

/// The first `keep` particles of `s`.
BackendSetup first_particles(BackendSetup s, std::size_t keep) {
  auto& p = s.particles;
  for (auto* a : {&p.position, &p.velocity, &p.force}) a->resize(keep);
  p.type.resize(keep);
  p.id.resize(keep);
  return s;
}

struct Case {
  Precision precision;
  NeighborMethod method;
  int lanes;
};

class CudaTraversal : public testing::TestWithParam<Case> {};

template <Precision P>
void check_traversal(NeighborMethod method, int lanes) {
  constexpr double kSkin = 0.3;
  auto setup = novamd::test::lj_mixture(3000, P, novamd::forces::Truncation::ShiftForce);
  setup.neighbors.method = method;
  setup.neighbors.skin = kSkin;
  const double lmax = std::max({setup.box.length().x, setup.box.length().y, setup.box.length().z});
  // double: each pair within a few ulp and the sums in another order, far below 1e-12.
  // mixed: positions rounded to FP32 move r by eps_f L, a relative force change of
  // (eps_f L / r) x 14 (the r^-13 term) for r >= r_min = 0.8 (0.8 - skin after the move),
  // plus 32 eps_f for the pair arithmetic and the FP32 sums over one target.
  const double r_min = 0.8 - kSkin;
  const double bound = P == Precision::Double
                           ? 1e-12
                           : (32.0 + 14.0 * lmax / r_min) * std::numeric_limits<float>::epsilon();
  const BackendSetup original = setup;
  TermHarness<P> gpu(setup, lanes);
  const auto fresh = gpu.forces(setup);
  EXPECT_LE(error_against_cpu(fresh, setup), bound) << "fresh";

  move_all(setup, 0.49 * kSkin, 7);  // just under skin/2: the lists must still hold every pair
  const auto moved = gpu.forces(setup);
  if (method == NeighborMethod::NeighborList) EXPECT_EQ(gpu.builds(), 1) << "rebuilt too early";
  const double moved_error = error_against_cpu(moved, setup);
  std::printf("%s %s G=%d: max force error after the move %.3g (bound %.3g)\n",
              method == NeighborMethod::CellList ? "cell_list" : "neighbor_list",
              std::string(novamd::core::to_string(P)).c_str(), lanes, moved_error, bound);
  EXPECT_LE(moved_error, bound) << "moved by 0.49 skin";

  const auto fewer = first_particles(setup, 2500);  // particles removed: lists rebuilt
  EXPECT_LE(error_against_cpu(gpu.forces(fewer), fewer), bound) << "particles removed";
  if (method == NeighborMethod::NeighborList) EXPECT_EQ(gpu.builds(), 2);

  TermHarness<P> again(setup, lanes);  // the same sequence again: the same bits
  EXPECT_EQ(again.forces(original), fresh) << "not bitwise repeatable";
  EXPECT_EQ(again.forces(setup), moved) << "not bitwise repeatable";
}

TEST_P(CudaTraversal, MatchesAllPairsOnTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto c = GetParam();
  if (c.precision == Precision::Double) check_traversal<Precision::Double>(c.method, c.lanes);
  if (c.precision == Precision::Mixed) check_traversal<Precision::Mixed>(c.method, c.lanes);
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (auto p : {Precision::Double, Precision::Mixed})
    for (auto m : {NeighborMethod::NeighborList, NeighborMethod::CellList})
      for (int lanes : {1, 2, 4, 8}) cases.push_back({p, m, lanes});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(MethodsAndLanes, CudaTraversal, testing::ValuesIn(all_cases()),
                         [](const testing::TestParamInfo<Case>& info) {
                           const auto& c = info.param;
                           return std::string(novamd::core::to_string(c.precision)) +
                                  (c.method == NeighborMethod::CellList ? "_cell_list"
                                                                        : "_neighbor_list") +
                                  "_G" + std::to_string(c.lanes);
                         });

/// `s` with its particles moved by (-4, -3, -0.5), wrapped, into `box`: the cluster keeps its
/// pairs, part of it across the box's corner.
BackendSetup in_box(BackendSetup s, const novamd::core::Box& box) {
  const auto view = box.view<double>();
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    s.particles.position.set(
        i, view.wrap(s.particles.position.get(i) - novamd::core::Vec3<double>{4.0, 3.0, 0.5}));
  s.box = box;
  return s;
}

// A dilute gas: cells of one cutoff in a box of 8e4 x 7e4 x 9e4 would number 3e13, so the grid
// is capped at a few cells per particle (cell_dimensions.hpp); in a long thin box the capped
// grid has fewer than 3 cells across and the term takes all pairs. Every pair is still found.
TEST(CudaTraversalDilute, CappedGridsMatchAllPairsOnTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const auto& box : {novamd::core::Box(8e4, 7e4, 9e4), novamd::core::Box(1e7, 20.0, 20.0)}) {
    for (const auto method : {NeighborMethod::NeighborList, NeighborMethod::CellList}) {
      auto setup = in_box(
          novamd::test::lj_mixture(300, Precision::Double, novamd::forces::Truncation::ShiftForce),
          box);
      setup.neighbors.method = method;
      setup.neighbors.skin = 0.3;
      TermHarness<Precision::Double> gpu(setup, 2);
      EXPECT_LE(error_against_cpu(gpu.forces(setup), setup), 1e-12)
          << box.length().x << (method == NeighborMethod::CellList ? " cell list" : " lists");
    }
  }
}

}  // namespace
