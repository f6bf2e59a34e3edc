// Bitwise restarts on the CPU backend, for every integrator (tests/support/restart_check.hpp).

#include <gtest/gtest.h>

#include "support/restart_check.hpp"

namespace {

class CpuRestart : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuRestart, HalfRunsWithACheckpointMatchTheStraightRunBitwise) {
  novamd::test::expect_bitwise_restart(GetParam(), "cpu", "double", 50);
}

INSTANTIATE_TEST_SUITE_P(EveryIntegrator, CpuRestart,
                         ::testing::ValuesIn(novamd::test::restart_integrators()),
                         [](const auto& info) { return novamd::test::integrator_name(info.param); });

}  // namespace
