// Bitwise restarts on the CUDA backend, for every integrator, in double and mixed precision
// (tests/support/restart_check.hpp). Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <string>

#include "novamd/backend/cuda_device.hpp"
#include "support/restart_check.hpp"

namespace {

class CudaRestart : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CudaRestart, HalfRunsWithACheckpointMatchTheStraightRunBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  novamd::test::expect_bitwise_restart(std::get<0>(GetParam()), "cuda", std::get<1>(GetParam()),
                                       150);
}

INSTANTIATE_TEST_SUITE_P(
    EveryIntegrator, CudaRestart,
    ::testing::Combine(::testing::ValuesIn(novamd::test::restart_integrators()),
                       ::testing::Values("double", "mixed")),
    [](const auto& info) {
      return novamd::test::integrator_name(std::get<0>(info.param)) + "_" + std::get<1>(info.param);
    });

// LJ and PME in one pass (one neighbour state per config force term in the checkpoint), over
// per-particle lists and over cluster pairs (reordered every 7 evaluations: the tiles are
// rebuilt from the checkpoint's positions at the last build).
TEST(CudaRestartOnePass, WaterWithPmeContinuesBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  std::string clusters = novamd::test::water_pme_restart_config();
  const std::string neighbors = "neighbors: {skin: 0.4, reorder_every: 7}";
  clusters.replace(clusters.find(neighbors), neighbors.size(),
                   "neighbors: {skin: 0.4, reorder_every: 7, layout: clusters}");
  for (const auto& config : {novamd::test::water_pme_restart_config(), clusters})
    for (const char* precision : {"double", "mixed"})
      novamd::test::expect_bitwise_restart_of_config(config, "cuda", precision, 10);
}

// At constant pressure (stochastic cell rescaling, every 3 steps): the box, the barostat's
// energy and its pending pressure sample continue, and the moved box's lists are rebuilt alike.
TEST(CudaRestartNpt, StochasticCellRescalingContinuesBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      novamd::test::restart_config("{type: bussi, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
      "barostat: {type: c_rescale, pressure: 1.0, period: 0.2, compressibility: 0.1, "
      "coupling: anisotropic, every: 3}\n";
  for (const char* precision : {"double", "mixed"})
    novamd::test::expect_bitwise_restart_of_config(config, "cuda", precision, 50);
}

// MTTK (anisotropic): both chains, the strain rates and the carried tensors continue.
TEST(CudaRestartNpt, MttkContinuesBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      novamd::test::restart_config(
          "{type: nose_hoover, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
      "barostat: {type: mttk, pressure: 1.0, period: 0.5, coupling: anisotropic}\n";
  for (const char* precision : {"double", "mixed"})
    novamd::test::expect_bitwise_restart_of_config(config, "cuda", precision, 50);
}

// The Monte Carlo barostat on rigid waters (their centres moved, trials undone where rejected):
// the trials repeat alike after a restart, the particles' storage order untouched by them.
TEST(CudaRestartNpt, MonteCarloBarostatContinuesBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const char* precision : {"double", "mixed"})
    novamd::test::expect_bitwise_restart_of_config(
        novamd::test::rigid_water_npt_restart_config("anisotropic"), "cuda", precision, 10);
}

// Stochastic cell rescaling and MTTK on rigid waters (their centres and their centres' velocities
// moved, the molecular pressure read on the device) continue bitwise.
TEST(CudaRestartNpt, MolecularBarostatsContinueBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const char* precision : {"double", "mixed"}) {
    novamd::test::expect_bitwise_restart_of_config(
        novamd::test::rigid_water_rescale_config("anisotropic"), "cuda", precision, 10);
    novamd::test::expect_bitwise_restart_of_config(
        novamd::test::rigid_water_mttk_config("anisotropic"), "cuda", precision, 10);
  }
}

}  // namespace
