// Backend::rescale_box on the CUDA backend against the CPU backend (the oracle): the same
// scaled positions, and forces after the rescale within the double-precision bound of the
// backend tests, on every traversal the LJ term takes; lists that follow the box against all
// pairs. Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/neighbors/cluster_grid.hpp"
#include "support/force_scale.hpp"
#include "support/force_term_cases.hpp"

namespace {

using novamd::backend::EnergyRequest;
using novamd::neighbors::NeighborMethod;

class CudaBoxRescale : public testing::TestWithParam<NeighborMethod> {};

TEST_P(CudaBoxRescale, ScaledPositionsAndForcesMatchTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  auto setup = novamd::test::lj_mixture(3000, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  setup.neighbors.method = GetParam();
  novamd::backend::CpuBackend cpu(setup);
  auto gpu = novamd::backend::make_cuda_backend(setup);
  cpu.compute_forces(EnergyRequest::Compute);
  gpu->compute_forces(EnergyRequest::Compute);
  const auto& L = setup.box.length();
  const novamd::core::Box target(L.x * 1.04, L.y * 0.99, L.z * 1.02);
  cpu.rescale_box(target);
  gpu->rescale_box(target);
  cpu.compute_forces(EnergyRequest::Compute);
  gpu->compute_forces(EnergyRequest::Compute);
  const auto& a = cpu.particles_on_host();
  const auto& b = gpu->particles_on_host();
  auto scaled = setup;
  scaled.box = target;
  scaled.particles = a;
  const auto sums = novamd::test::force_magnitude_sums(scaled);
  // One multiplication per coordinate on both: bitwise equal positions. Forces: the double
  // bound of the backend tests (CudaVsCpu), 1e-12 of the sum of pair-force magnitudes.
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.position.x[i], b.position.x[i]) << i;
    ASSERT_EQ(a.position.y[i], b.position.y[i]) << i;
    ASSERT_NEAR(a.force.x[i], b.force.x[i], 1e-12 * sums[i]) << i;
    ASSERT_NEAR(a.force.z[i], b.force.z[i], 1e-12 * sums[i]) << i;
  }
  EXPECT_NEAR(cpu.observables().potential_energy, gpu->observables().potential_energy,
              1e-11 * std::abs(cpu.observables().potential_energy));
}

class CudaListsFollowTheBox : public testing::TestWithParam<novamd::neighbors::ListLayout> {};

// The GPU's lists (a list per particle, and cluster pairs) follow the box's moves rather than
// being built again (neighbors::ListFreshness::follow_box): after each move, the forces over
// the followed list equal those over all pairs of a fresh CPU backend at the same positions
// (every pair within the cutoff found), with no build while the box shrinks by less than the
// skin allows; a shrink beyond that builds the list again, and the forces still agree.
TEST_P(CudaListsFollowTheBox, ForcesMatchAllPairsWithoutBuilds) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  auto setup = novamd::test::lj_mixture(3000, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  setup.neighbors.method = NeighborMethod::NeighborList;
  setup.neighbors.layout = GetParam();
  setup.neighbors.skin = 0.3;  // the list's reach lasts while every edge keeps > 2.5 / 2.8
  auto gpu = novamd::backend::make_cuda_backend(setup);
  gpu->compute_forces(EnergyRequest::Compute);
  const auto builds = gpu->neighbor_list_builds();
  ASSERT_GT(builds, 0);
  const auto& L = setup.box.length();
  const double moves[][3] = {
      {1.004, 0.996, 1.0}, {0.995, 1.0, 1.003}, {0.99, 0.99, 0.99}, {0.88, 0.9, 0.95}};
  for (const auto& m : moves) {
    const auto& now = gpu->box().length();
    // The edges against those of the build (the first: no build before the last move).
    const double shrink = std::min({now.x * m[0] / L.x, now.y * m[1] / L.y, now.z * m[2] / L.z});
    const bool within_reach = shrink * (2.5 + 0.3) > 2.5;
    gpu->rescale_box(novamd::core::Box(now.x * m[0], now.y * m[1], now.z * m[2]));
    gpu->compute_forces(EnergyRequest::Compute);
    auto fresh = setup;
    fresh.box = gpu->box();
    fresh.particles = gpu->particles_on_host();
    fresh.neighbors.method = NeighborMethod::AllPairs;
    novamd::backend::CpuBackend cpu(fresh);
    cpu.compute_forces(EnergyRequest::Compute);
    const auto& a = cpu.particles_on_host();
    const auto& b = gpu->particles_on_host();
    const auto sums = novamd::test::force_magnitude_sums(fresh);
    // The double bound of the backend tests (CudaVsCpu): 1e-12 of the sum of pair-force
    // magnitudes, plus for cluster pairs the fixed-point sums' rounding (each addition within
    // 2^-33: support/force_term_cases.hpp); a missed pair would be off by its whole force.
    const double fixed =
        GetParam() == novamd::neighbors::ListLayout::Clusters
            ? novamd::test::cuda_cluster_arithmetic(novamd::core::Precision::Double)
                  .fixed_error(double(a.size()),
                               novamd::neighbors::cluster_columns(fresh.box, a.size(), 2.8).count())
            : 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double bound = 1e-12 * sums[i] + fixed;
      ASSERT_NEAR(a.force.x[i], b.force.x[i], bound) << i << " after " << m[0];
      ASSERT_NEAR(a.force.y[i], b.force.y[i], bound) << i << " after " << m[0];
      ASSERT_NEAR(a.force.z[i], b.force.z[i], bound) << i << " after " << m[0];
    }
    if (within_reach) {
      EXPECT_EQ(gpu->neighbor_list_builds(), builds) << "built again after " << m[0];
    } else {
      EXPECT_EQ(gpu->neighbor_list_builds(), builds + 1) << "not built after " << m[0];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, CudaListsFollowTheBox,
                         testing::Values(novamd::neighbors::ListLayout::Atoms,
                                         novamd::neighbors::ListLayout::Clusters));

INSTANTIATE_TEST_SUITE_P(Traversals, CudaBoxRescale,
                         testing::Values(NeighborMethod::AllPairs, NeighborMethod::CellList,
                                         NeighborMethod::NeighborList));

}  // namespace
