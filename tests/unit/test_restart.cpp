// Bitwise restarts on the CPU backend, for every integrator (tests/support/restart_check.hpp).

#include <gtest/gtest.h>

#include "support/restart_check.hpp"

namespace {

class CpuRestart : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuRestart, HalfRunsWithACheckpointMatchTheStraightRunBitwise) {
  novamd::test::expect_bitwise_restart(GetParam(), "cpu", "double", 50);
}

// At constant pressure: the box, the barostat's energy and its pending pressure sample continue
// too (moves every 3 steps: the checkpoint falls between a measurement and its move).
TEST(CpuRestart, StochasticCellRescalingContinuesBitwise) {
  novamd::test::expect_bitwise_restart_of_config(
      novamd::test::restart_config("{type: bussi, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
          "barostat: {type: c_rescale, pressure: 1.0, period: 0.2, compressibility: 0.1, "
          "coupling: anisotropic, every: 3}\n",
      "cpu", "double", 50);
}

// The Monte Carlo barostat: its sample, step sizes and counts continue, and its trials (an
// evaluation at the trial box, undone where rejected) repeat alike: on atoms (the LJ liquid,
// anisotropic) and on rigid waters moved by their centres (semi-isotropic).
TEST(CpuRestart, MonteCarloBarostatContinuesBitwise) {
  novamd::test::expect_bitwise_restart_of_config(
      novamd::test::restart_config("{type: langevin, timestep: 0.005, temperature: 1.2, "
                                   "friction: 1.0}") +
          "barostat: {type: monte_carlo, pressure: 1.0, coupling: anisotropic, every: 3}\n",
      "cpu", "double", 50);
  novamd::test::expect_bitwise_restart_of_config(
      novamd::test::rigid_water_npt_restart_config("semi_isotropic"), "cpu", "double", 10);
}

// MTTK: both chains, the strain rates and the tensors carried between steps continue, and the box;
// with blocks of 4 steps (`every`) from a checkpoint inside a block (step 50) too.
TEST(CpuRestart, MttkContinuesBitwise) {
  for (const char* barostat :
       {"coupling: isotropic", "coupling: anisotropic", "coupling: isotropic, every: 4"})
    novamd::test::expect_bitwise_restart_of_config(
        novamd::test::restart_config("{type: nose_hoover, timestep: 0.005, temperature: 1.2, "
                                     "tau: 0.2}") +
            "barostat: {type: mttk, pressure: 1.0, period: 0.5, " + barostat + "}\n",
        "cpu", "double", 50);
}

// With held distances, stochastic cell rescaling and MTTK move the rigid waters by their centres
// (the molecular pressure, the centres' velocities); both continue bitwise.
TEST(CpuRestart, MolecularBarostatsContinueBitwise) {
  novamd::test::expect_bitwise_restart_of_config(
      novamd::test::rigid_water_rescale_config("anisotropic"), "cpu", "double", 10);
  novamd::test::expect_bitwise_restart_of_config(novamd::test::rigid_water_mttk_config("isotropic"),
                                                 "cpu", "double", 10);
}

INSTANTIATE_TEST_SUITE_P(EveryIntegrator, CpuRestart,
                         ::testing::ValuesIn(novamd::test::restart_integrators()),
                         [](const auto& info) {
                           return novamd::test::integrator_name(info.param);
                         });

}  // namespace
