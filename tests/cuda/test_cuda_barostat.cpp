// Constant pressure on the CUDA backend against the CPU's: the LJ liquid of the restart tests
// under stochastic cell rescaling (anisotropic, a move every 3 steps), 60 steps in double on
// both; and 1,000 rigid waters under the Monte Carlo barostat (semi-isotropic, every 3 steps),
// their molecules moved by their centres. The moves draw the same numbers on every backend
// (core::RandomStream on the host), so the boxes differ only by the forces' rounding, carried
// through 20 moves (a Monte Carlo move's verdict could flip only where its criterion fell within
// that rounding of the draw). Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/io/checkpoint.hpp"
#include "support/restart_check.hpp"

namespace {

/// The checkpoints after `steps` steps of `config` in double on the CPU and on the GPU.
std::pair<novamd::io::CheckpointData, novamd::io::CheckpointData> cpu_and_cuda(
    const std::string& config, std::int64_t steps) {
  novamd::test::TempDir cpu, gpu;
  cpu.write("config.yaml", config);
  gpu.write("config.yaml", config);
  novamd::test::run_in(cpu, "cpu", "double", steps, false);
  novamd::test::run_in(gpu, "cuda", "double", steps, false);
  return {novamd::io::read_checkpoint(cpu.path() / "run.chk"),
          novamd::io::read_checkpoint(gpu.path() / "run.chk")};
}

TEST(CudaBarostat, MovesTheBoxAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      novamd::test::restart_config("{type: bussi, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
      "barostat: {type: c_rescale, pressure: 1.0, period: 0.2, compressibility: 0.1, "
      "coupling: anisotropic, every: 3}\n";
  const auto [a, b] = cpu_and_cuda(config, 60);
  const double start = std::cbrt(864 / 0.8442);  // the box before any move
  for (int d = 0; d < 3; ++d) {
    EXPECT_NE(a.box[d], start) << d;  // the box moved
    // The pair sums differ by some 1e-15 relative between the backends (their orders differ);
    // over 60 steps of a liquid such differences grow by a few orders of magnitude, and a move
    // changes an edge by some 1e-4: 1e-10 of the edge bounds the difference generously.
    EXPECT_NEAR(b.box[d], a.box[d], 1e-10 * a.box[d]) << d;
  }
  ASSERT_EQ(a.barostat.values.size(), b.barostat.values.size());
  EXPECT_NEAR(b.barostat.values[0], a.barostat.values[0],
              1e-8 * std::abs(a.barostat.values[0]) + 1e-10);  // the moves' energy
}

TEST(CudaBarostat, MonteCarloMovesMoleculesAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config = novamd::test::rigid_water_npt_restart_config("semi_isotropic");
  const auto [a, b] = cpu_and_cuda(config, 30);
  EXPECT_NE(a.box[0], a.box[2]);  // semi-isotropic: x and z moved apart (the box was cubic)
  EXPECT_EQ(a.box[0], a.box[1]);
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(b.box[d], a.box[d], 1e-10 * a.box[d]) << d;
  ASSERT_EQ(a.barostat.values.size(), b.barostat.values.size());
  // The energy account, the sample's U, and the counts of tries and kept moves (the last two).
  const auto& x = a.barostat.values;
  const auto& y = b.barostat.values;
  EXPECT_NEAR(y[0], x[0], 1e-7 * std::abs(x[0]) + 1e-7);
  EXPECT_NEAR(y[1], x[1], 1e-9 * std::abs(x[1]));
  EXPECT_EQ(y[y.size() - 2], x[x.size() - 2]);
  EXPECT_EQ(y.back(), x.back());
  EXPECT_GT(x.back(), 0.0);  // some moves were kept
}

// MTTK (anisotropic) on both backends, 60 steps in double: the box follows the strain rates,
// which the pressure pushes at every step, so the backends' rounding grows as in any
// trajectory; 1e-10 of the edge as for c_rescale.
TEST(CudaBarostat, MttkMovesTheBoxAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      novamd::test::restart_config(
          "{type: nose_hoover, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
      "barostat: {type: mttk, pressure: 1.0, period: 0.5, coupling: anisotropic}\n";
  const auto [a, b] = cpu_and_cuda(config, 60);
  const double start = std::cbrt(864 / 0.8442);
  for (int d = 0; d < 3; ++d) {
    EXPECT_NE(a.box[d], start) << d;
    EXPECT_NEAR(b.box[d], a.box[d], 1e-10 * a.box[d]) << d;
  }
  ASSERT_EQ(a.integrator.values.size(), b.integrator.values.size());
  for (std::size_t k = 0; k < a.integrator.values.size(); ++k)
    EXPECT_NEAR(b.integrator.values[k], a.integrator.values[k],
                1e-8 * std::abs(a.integrator.values[k]) + 1e-10)
        << k;
}

}  // namespace
