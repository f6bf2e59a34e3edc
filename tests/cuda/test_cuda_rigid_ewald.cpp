// Rigid molecules' charges under Ewald and smooth PME on the CUDA backend
// (forces/cuda_rigid_kspace.cuh) against the CPU backend: forces, torques, energy and virial in
// every precision (`novamd check`), the dynamics in double, and bitwise repeats. Skipped where no
// CUDA device exists.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/restart_check.hpp"
#include "support/rigid_configs.hpp"

namespace {

using novamd::test::TempDir;

/// 256 rigid SPC/E waters (rigid_configs.hpp: a box of 19.6 A), cutoff 9 A on the centres, the
/// charges summed by `coulomb`.
std::string water(const std::string& coulomb, const std::string& integrator) {
  return novamd::test::spce_water(4, 9.0, coulomb, integrator);
}

const std::string kVerlet = "{type: velocity_verlet, timestep: 1.0}";
const std::string kMethods[] = {"method: ewald, tolerance: 1.0e-5",
                                "method: pme, tolerance: 1.0e-5",
                                "method: pme, tolerance: 1.0e-5, order: 4, grid: [27, 32, 25]"};

double number_after(const std::string& text, const std::string& label) {
  const auto at = text.find(label);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(text.c_str() + at + label.size(), nullptr);
}

// `novamd check` with --tolerance, the RMS errors of forces and torques relative to their RMS
// values, on the lattice (the pairs of the lattice's neighbours, the charges' reciprocal sum).
// Double: the reciprocal sums run in double on both (the GPU's spreading in 64-bit fixed point,
// 2^-40 e), the pairs in another order: the atomic PME's bound, 1e-9 (tests/cuda/
// test_cuda_kspace.cpp). Mixed and single: the site pairs and the mesh in FP32 (the atomic PME's
// mixed bound, 2e-5).
TEST(CudaRigidEwald, ForcesTorquesEnergyAndVirialMatchTheCpuInEveryPrecision) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const std::string& method : kMethods) {
    for (const char* precision : {"double", "mixed", "single"}) {
      SCOPED_TRACE(method + " " + precision);
      const double bound = std::string(precision) == "double" ? 1e-9 : 2e-5;
      TempDir dir;
      dir.write("run.yaml", water(method, kVerlet));
      const auto check = novamd::test::run_novamd(
          fmt::format("check run.yaml --backend cuda --precision {} --tolerance {:g}", precision,
                      bound),
          dir.path());
      ASSERT_EQ(check.exit_code, 0) << check.output;
      EXPECT_GT(number_after(check.output, "RMS force error"), 0.0) << check.output;
      EXPECT_GT(number_after(check.output, "RMS torque error"), 0.0) << check.output;
      const auto relative_difference = [&](const std::string& label) {
        const auto at = check.output.find(label);
        const double subject = std::strtod(check.output.c_str() + at + label.size(), nullptr);
        const double reference = number_after(check.output.substr(at), "against ");
        return std::abs(subject - reference) / std::abs(reference);
      };
      EXPECT_LT(relative_difference("potential energy "), bound) << check.output;
      EXPECT_LT(relative_difference("virial (trace) "), 10 * bound) << check.output;
      std::printf("%s", check.output.c_str());
    }
  }
}

// 100 steps of 1 fs from the lattice at 298 K under Bussi's thermostat and c_rescale (the box
// moves, the PME grid stays): each thermo row of the GPU against the CPU's in double. The forces
// differ by ~1e-11 (above), which 0.1 ps of water amplify by far less than 1e3: 1e-8 of each
// quantity. A reciprocal force or torque missing on either backend moves the energy by percents.
TEST(CudaRigidEwald, ThermoRowsMatchTheCpuInDouble) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      water(kMethods[1], "{type: bussi, timestep: 1.0, temperature: 298.0, tau: 50.0}") +
      "barostat: {type: c_rescale, pressure: 1.0, period: 500.0, compressibility: 4.5e-5, "
      "every: 5}\n";
  const auto cpu = novamd::test::thermo_in_double(config, "cpu");
  const auto gpu = novamd::test::thermo_in_double(config, "cuda");
  ASSERT_EQ(cpu.size(), 11u);
  ASSERT_EQ(gpu.size(), cpu.size());
  for (std::size_t r = 0; r < cpu.size(); ++r)
    for (std::size_t c = 0; c < cpu[r].size(); ++c) {
      if (c == 1) continue;  // the time
      EXPECT_NEAR(gpu[r][c], cpu[r][c], 1e-8 * std::max(1.0, std::abs(cpu[r][c])))
          << "row " << r << ", column " << c;
    }
}

// Twice the same run on the GPU, Ewald and PME, each precision: the thermo files agree byte for
// byte (the mesh's charges spread in fixed point, every other sum in a fixed order).
TEST(CudaRigidEwald, RunsRepeatBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const std::string& method : {kMethods[0], kMethods[1]})
    for (const char* precision : {"double", "mixed", "single"}) {
      std::string first;
      for (int repeat = 0; repeat < 2; ++repeat) {
        TempDir dir;
        dir.write("run.yaml", water(method,
                                    "{type: langevin, timestep: 1.0, temperature: 298.0, friction: "
                                    "0.01}"));
        const auto run = novamd::test::run_novamd(
            std::string("run run.yaml --backend cuda --precision ") + precision, dir.path());
        ASSERT_EQ(run.exit_code, 0) << run.output;
        const std::string thermo = novamd::test::file_text(dir.path() / "thermo.csv");
        if (repeat == 0) first = thermo;
        EXPECT_EQ(thermo, first) << method << " " << precision;
      }
    }
}

}  // namespace
