// Backend::rescale_box on the CUDA backend against the CPU backend (the oracle): the same
// scaled positions, and forces after the rescale within the double-precision bound of the
// backend tests, on every traversal the LJ term takes. Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "support/force_scale.hpp"

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

INSTANTIATE_TEST_SUITE_P(Traversals, CudaBoxRescale,
                         testing::Values(NeighborMethod::AllPairs, NeighborMethod::CellList,
                                         NeighborMethod::NeighborList));

}  // namespace
