// Every integrator on the CUDA backend against the CPU backend, in double precision: the same
// config and seed must give the same trajectory over a short run (the random numbers are the
// same draws; only the summation order and the ulps of the device's libm differ). Skipped where
// no CUDA device exists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "support/restart_check.hpp"
#include "support/two_pass_operations.hpp"

namespace {

using novamd::backend::EnergyRequest;

struct EndState {
  novamd::core::ParticleData particles;  ///< id order
  double thermostat_energy = 0.0;
  double kinetic_energy = 0.0;
};

EndState run(const std::string& integrator, const std::string& backend_name, int steps) {
  const auto config = novamd::io::parse_config(novamd::test::restart_config(integrator), "t.yaml");
  auto initial = novamd::io::build_initial_system(config);
  auto backend = novamd::backend::make_backend(
      backend_name, {config.units, config.system.species, initial.box, std::move(initial.particles),
                     config.forces, novamd::core::Precision::Double, config.neighbors});
  auto stepper = novamd::integrate::make_integrator(config.integrator, config.units, config.seed,
                                                    {backend->size()});
  backend->compute_forces(EnergyRequest::Compute);
  stepper->start(*backend);
  for (int step = 1; step <= steps; ++step) stepper->step(*backend, step, EnergyRequest::Compute);
  const double kinetic = backend->observables().kinetic_energy;
  return {backend->particles_on_host(), stepper->thermostat_energy(*backend),
          stepper->reported_kinetic_energy(kinetic)};
}

class CudaIntegrators : public ::testing::TestWithParam<std::string> {};

// 40 steps of 0.005 tau from an fcc lattice at T = 1.4 (864 atoms). Differences start at the
// ulp level (force sums in another order: ~1e-16 relative; device normals within 8e-15) and
// grow at most by the Lyapunov factor of 0.2 tau of LJ liquid (e^(0.2 x 5) < 3): 1e-11 of the
// box (L ~ 10) and of unit velocities covers that with a margin of 100.
TEST_P(CudaIntegrators, MatchTheCpuBackendInDouble) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto cpu = run(GetParam(), "cpu", 40);
  const auto gpu = run(GetParam(), "cuda", 40);
  ASSERT_EQ(cpu.particles.size(), gpu.particles.size());
  double worst_x = 0.0, worst_v = 0.0;
  for (std::size_t i = 0; i < cpu.particles.size(); ++i) {
    for (const auto& [a, b, worst] :
         {std::tuple{cpu.particles.position.get(i), gpu.particles.position.get(i), &worst_x},
          std::tuple{cpu.particles.velocity.get(i), gpu.particles.velocity.get(i), &worst_v}}) {
      *worst = std::max({*worst, std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)});
    }
  }
  EXPECT_LT(worst_x, 1e-11);
  EXPECT_LT(worst_v, 1e-11);
  EXPECT_NEAR(gpu.kinetic_energy, cpu.kinetic_energy, 1e-10 * cpu.kinetic_energy);
  EXPECT_NEAR(gpu.thermostat_energy, cpu.thermostat_energy, 1e-10 * cpu.kinetic_energy);
  std::printf("largest difference: positions %.3g, velocities %.3g\n", worst_x, worst_v);
}

INSTANTIATE_TEST_SUITE_P(EveryIntegrator, CudaIntegrators,
                         ::testing::ValuesIn(novamd::test::restart_integrators()),
                         [](const auto& info) { return novamd::test::integrator_name(info.param); });

}  // namespace

// Langevin's O and A stages in one kernel (the backend's thermalize_drift) against the two
// kernels, in double: the same arithmetic, but compiled in two kernels, where the compiler may
// fuse another multiply-add of the velocity update (c1 v + sigma R): the trajectories part at
// the last bit (measured on the H100 in mixed precision: positions 1 ulp apart after 40 steps).
// The bound is CudaIntegrators' (ulp-level differences grown by less than 3 over 0.2 tau of LJ
// liquid: 1e-11 of the box and of unit velocities, a margin above 100); the heat likewise,
// relative. Each path repeats bit for bit (CudaRestart's Langevin cases).
TEST(CudaLangevinSteps, FusedThermalizeDriftMatchesTheTwoPasses) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto config = novamd::io::parse_config(
      novamd::test::restart_config(
          "{type: langevin, timestep: 0.005, temperature: 1.4, friction: 1.0}"),
      "t.yaml");
  const auto run = [&](bool fused) {
    auto initial = novamd::io::build_initial_system(config);
    auto backend = novamd::backend::make_backend(
        "cuda", {config.units, config.system.species, initial.box, std::move(initial.particles),
                 config.forces, novamd::core::Precision::Double, config.neighbors});
    auto stepper = novamd::integrate::make_integrator(config.integrator, config.units, config.seed,
                                                      {backend->size()});
    novamd::test::TwoPassOperations two_pass(*backend);
    novamd::integrate::StepOperations& ops =
        fused ? static_cast<novamd::integrate::StepOperations&>(*backend) : two_pass;
    backend->compute_forces(EnergyRequest::Compute);
    stepper->start(ops);
    for (int step = 1; step <= 40; ++step) stepper->step(ops, step, EnergyRequest::Skip);
    return std::pair{backend->particles_on_host(), backend->langevin_heat()};
  };
  const auto [fused, fused_heat] = run(true);
  const auto [apart, apart_heat] = run(false);
  ASSERT_EQ(fused.size(), apart.size());
  double worst_x = 0.0, worst_v = 0.0;
  for (std::size_t i = 0; i < fused.size(); ++i) {
    const auto dx = fused.position.get(i) - apart.position.get(i);
    const auto dv = fused.velocity.get(i) - apart.velocity.get(i);
    worst_x = std::max({worst_x, std::abs(dx.x), std::abs(dx.y), std::abs(dx.z)});
    worst_v = std::max({worst_v, std::abs(dv.x), std::abs(dv.y), std::abs(dv.z)});
  }
  std::printf("largest difference: positions %.3g, velocities %.3g\n", worst_x, worst_v);
  EXPECT_LT(worst_x, 1e-11);
  EXPECT_LT(worst_v, 1e-11);
  EXPECT_NE(fused_heat, 0.0);
  EXPECT_NEAR(fused_heat, apart_heat, 1e-11 * std::abs(apart_heat));
}
