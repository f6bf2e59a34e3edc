// The CUDA backend's state check (the flagging kernel and its host follow-up, both on
// core::instability_of) finds the same particle and the same fault as the CPU backend, on fresh
// random input with faults planted: a speed above the limit, a speed whose square overflows, a
// non-finite position.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::Unstable;
using novamd::core::Instability;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// What each backend's check finds in `setup` after a force evaluation.
std::pair<std::optional<Unstable>, std::optional<Unstable>> both_find(const BackendSetup& setup,
                                                                      double max_speed) {
  novamd::backend::CpuBackend cpu(setup);
  auto gpu = novamd::backend::make_backend("cuda", setup);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  gpu->compute_forces(novamd::backend::EnergyRequest::Compute);
  return {cpu.find_unstable(max_speed), gpu->find_unstable(max_speed)};
}

void expect_same(const std::pair<std::optional<Unstable>, std::optional<Unstable>>& found) {
  const auto& [cpu, gpu] = found;
  ASSERT_EQ(cpu.has_value(), gpu.has_value());
  if (!cpu) return;
  EXPECT_EQ(cpu->particle_id, gpu->particle_id);
  EXPECT_EQ(cpu->what, gpu->what);
}

TEST(CudaStateCheck, FindsWhatTheCpuFinds) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  std::mt19937_64 rng(20261124);
  const std::size_t n = 3001;
  const auto base = novamd::test::random_mixture(n, 20.0, rng(), 1.5, 0.6, 1.0);

  auto healthy = both_find(base, kInfinity);
  EXPECT_FALSE(healthy.first) << "a healthy state is not flagged";
  expect_same(healthy);

  // A limit at the median speed flags about half the particles: both report the lowest id.
  std::vector<double> speeds(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = base.particles.velocity.get(i);
    speeds[i] = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  }
  std::nth_element(speeds.begin(), speeds.begin() + n / 2, speeds.end());
  const auto median = both_find(base, speeds[n / 2]);
  ASSERT_TRUE(median.first);
  EXPECT_EQ(median.first->what, Instability::Speed);
  expect_same(median);

  // A finite speed whose square (the kinetic energy) overflows.
  auto overflow = base;
  const std::size_t fast = 1 + rng() % (n - 1);
  overflow.particles.velocity.set(fast, {1e155, 0.0, 0.0});
  const auto found = both_find(overflow, kInfinity);
  ASSERT_TRUE(found.first);
  EXPECT_EQ(found.first->particle_id, overflow.particles.id[fast]);
  EXPECT_EQ(found.first->what, Instability::Speed);
  expect_same(found);

  // A NaN position: its forces spread NaN to every particle; both name the same first one.
  auto nan = base;
  nan.particles.position.x[rng() % n] = std::numeric_limits<double>::quiet_NaN();
  const auto poisoned = both_find(nan, kInfinity);
  ASSERT_TRUE(poisoned.first);
  expect_same(poisoned);
}

}  // namespace
