// Rigid molecules on the CUDA backend (forces/cuda_rigid_molecules.cu and the backend's rotation)
// against the CPU backend: forces, torques, energy and virial in every precision (`novamd
// check`), trajectories of every integrator and both barostats in double, bitwise repeats and
// restarts. Skipped where no CUDA device exists.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/restart_check.hpp"
#include "support/rigid_configs.hpp"

namespace {

using novamd::test::TempDir;

/// The two components of rigid_configs.hpp and a third, charged one: a Lennard-Jones centre
/// between a charge of +0.5 and one of -0.5, so that every site pair (charge with charge, dipole
/// and quadrupole too) occurs; 2,048 on an fcc lattice of 8^3 cells at rho* = 0.5 (a box of 16,
/// three cells of the lists' range 4.4: Verlet lists), cutoff 4 on the centres with the reaction
/// field. `small`: 256 molecules in a box of 8, cutoff 3, which holds fewer than three cells of
/// the lists' range (every pair visited).
std::string mixture(const std::string& integrator, const std::string& more = "",
                    bool small = false) {
  const std::string lattice = small ? "cells: 4, counts: {Q: 86, D: 85, C: 85}"
                                    : "cells: 8, counts: {Q: 683, D: 683, C: 682}";
  return novamd::test::kComponents +
         "    - name: C\n      sites:\n"
         "        - {type: lj, position: [0, 0, 0], epsilon: 0.8, sigma: 0.9, mass: 1.0}\n"
         "        - {type: charge, position: [0, 0, 0.35], charge: 0.5, mass: 0.25}\n"
         "        - {type: charge, position: [0, 0, -0.35], charge: -0.5, mass: 0.25}\n"
         "  structure: {generate: {lattice: fcc, " +
         lattice +
         "}}\n"
         "  density: 0.5\n  velocities: {temperature: 1.5}\n"
         "forces:\n  - rigid_sites: {cutoff: " +
         (small ? "3.0" : "4.0") +
         ", epsilon_rf: 20.0}\n"
         "neighbors: {skin: 0.4, reorder_every: 25}\n"
         "integrator: " +
         integrator + "\n" + more + "run: {steps: 100}\n" +
         "output:\n  thermo: {every: 10, file: thermo.csv, columns: [rotational_kinetic_energy, "
         "translational_temperature, virial, neighbor_list_builds]}\n";
}

/// The number after `label` in `text` (NaN where absent).
double number_after(const std::string& text, const std::string& label) {
  const auto at = text.find(label);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(text.c_str() + at + label.size(), nullptr);
}

struct PrecisionBound {
  std::string precision;
  bool small;     ///< mixture's small box (every pair), else its lists
  double force;   ///< bound on the relative RMS error of forces and torques
  double energy;  ///< bound on the relative error of the energy and the virial's trace
};

class CudaRigidMoleculesCheck : public ::testing::TestWithParam<PrecisionBound> {};

// `novamd check` with --tolerance: the RMS errors of forces and torques relative to their RMS
// values. Double: the same site-pair terms summed in another order (the lanes of a list), some
// ulps of the sum of magnitudes: measured 9.5e-16 (lists) and 1.2e-15 (all pairs) on an H200,
// bound 1e-12. Mixed and single: every site pair in FP32 (relative rounding 6e-8 of the
// separation, raised 14 times by the r^-13 of the Lennard-Jones force) and the net force on a
// molecule a sum of pair forces some times larger: about 1e-6 (measured 5.8e-7 to 7.1e-7 for
// forces and torques), bound 1e-5. The energy and the virial: 1e-12 in double; in FP32 each
// pair's rounding (1e-7) partly cancels over the sum, measured 3.2e-8 of the energy, bound 1e-6.
TEST_P(CudaRigidMoleculesCheck, ForcesTorquesEnergyAndVirialMatchTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto& bound = GetParam();
  TempDir dir;
  dir.write("run.yaml", mixture("{type: velocity_verlet, timestep: 0.002}", "", bound.small));
  const auto check = novamd::test::run_novamd(
      fmt::format("check run.yaml --backend cuda --precision {} --tolerance {:g}", bound.precision,
                  bound.force),
      dir.path());
  ASSERT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find(
                fmt::format("check: forces and torques of {} particles", bound.small ? 256 : 2048)),
            std::string::npos)
      << check.output;
  const double force = number_after(check.output, "RMS force error");
  const double torque = number_after(check.output, "RMS torque error");
  EXPECT_GT(force, 0.0) << check.output;  // the two backends did compute apart
  EXPECT_GT(torque, 0.0) << check.output;
  const auto relative_difference = [&](const std::string& label) {
    const auto at = check.output.find(label);
    const double subject = std::strtod(check.output.c_str() + at + label.size(), nullptr);
    const double reference = number_after(check.output.substr(at), "against ");
    return std::abs(subject - reference) / std::abs(reference);
  };
  EXPECT_LT(relative_difference("potential energy "), bound.energy) << check.output;
  EXPECT_LT(relative_difference("virial (trace) "), bound.energy) << check.output;
  std::printf("%s", check.output.c_str());
  if (bound.precision == "single") {  // the check can fail: FP32 is far from 1e-9
    const auto strict = novamd::test::run_novamd(
        "check run.yaml --backend cuda --precision single --tolerance 1e-9", dir.path());
    EXPECT_EQ(strict.exit_code, 1) << strict.output;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPrecision, CudaRigidMoleculesCheck,
                         ::testing::Values(PrecisionBound{"double", false, 1e-12, 1e-12},
                                           PrecisionBound{"mixed", false, 1e-5, 1e-6},
                                           PrecisionBound{"single", false, 1e-5, 1e-6},
                                           PrecisionBound{"double", true, 1e-12, 1e-12},
                                           PrecisionBound{"single", true, 1e-5, 1e-6}),
                         [](const auto& info) {
                           return info.param.precision + (info.param.small ? "_all_pairs" : "");
                         });

struct Dynamics {
  std::string name, integrator, barostat;
};

class CudaRigidMoleculesDynamics : public ::testing::TestWithParam<Dynamics> {};

// 100 steps of 0.002 from the lattice at T* = 1.5, each thermo row (energies, temperatures of
// translation and rotation, virial, pressure, the thermostat's and barostat's energy, list
// builds) of the CUDA backend against the CPU's in double: the random numbers are the same
// draws, and the forces differ by ~1e-14 (the check above), which the dynamics amplify by at most
// e^(0.2 x 5) < 3 over 0.2 time units: 1e-9 of each quantity leaves a margin of 1e4. A torque
// or rotation stage missing or misplaced on either backend moves the rotational energy by
// percents within ten steps.
TEST_P(CudaRigidMoleculesDynamics, ThermoRowsMatchTheCpuInDouble) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto& d = GetParam();
  const std::string config = mixture(d.integrator, d.barostat);
  const auto cpu = novamd::test::thermo_in_double(config, "cpu");
  const auto gpu = novamd::test::thermo_in_double(config, "cuda");
  ASSERT_EQ(cpu.size(), 11u);
  ASSERT_EQ(gpu.size(), cpu.size());
  for (std::size_t r = 0; r < cpu.size(); ++r) {
    ASSERT_EQ(gpu[r].size(), cpu[r].size());
    for (std::size_t c = 0; c < cpu[r].size(); ++c) {
      // Not the time, nor the list builds: where a box holds fewer than three cells of the
      // lists' range (c_rescale may shrink it so), the GPU visits every pair and builds no list.
      if (c == 1 || c == 11) continue;
      EXPECT_NEAR(gpu[r][c], cpu[r][c], 1e-9 * std::max(1.0, std::abs(cpu[r][c])))
          << "row " << r << ", column " << c;
    }
  }
  // The lists served (the box of 16 holds three cells of their range) where no barostat moves it.
  if (d.barostat.empty()) EXPECT_GT(gpu.back().at(11), 0.0);
  // Rotation took part: its kinetic energy (the first extra column) moved from the start's.
  EXPECT_GT(std::abs(cpu.back().at(8) - cpu.front().at(8)), 1e-3 * cpu.front().at(8));
}

INSTANTIATE_TEST_SUITE_P(
    EveryIntegrator, CudaRigidMoleculesDynamics,
    ::testing::Values(
        Dynamics{"velocity_verlet", "{type: velocity_verlet, timestep: 0.002}", ""},
        Dynamics{"langevin", "{type: langevin, timestep: 0.002, temperature: 1.2, friction: 1.0}",
                 ""},
        Dynamics{"nose_hoover",
                 "{type: nose_hoover, timestep: 0.002, temperature: 1.2, tau: 0.2, chain: 3}", ""},
        Dynamics{"bussi", "{type: bussi, timestep: 0.002, temperature: 1.2, tau: 0.2}", ""},
        Dynamics{"c_rescale", "{type: bussi, timestep: 0.002, temperature: 1.2, tau: 0.2}",
                 "barostat: {type: c_rescale, pressure: 1.0, period: 0.5, compressibility: 1.0, "
                 "every: 5}\n"},
        Dynamics{"monte_carlo",
                 "{type: langevin, timestep: 0.002, temperature: 1.2, friction: 1.0}",
                 "barostat: {type: monte_carlo, pressure: 1.0, every: 5}\n"}),
    [](const auto& info) { return info.param.name; });

// Twice the same run on the GPU: the thermo files agree byte for byte (no atomics in the sums,
// the lanes combined in a fixed order), in each precision.
TEST(CudaRigidMolecules, RunsRepeatBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      mixture("{type: langevin, timestep: 0.002, temperature: 1.2, friction: 1.0}");
  for (const char* precision : {"double", "mixed", "single"}) {
    std::string first;
    for (int repeat = 0; repeat < 2; ++repeat) {
      TempDir dir;
      dir.write("run.yaml", config);
      const auto run = novamd::test::run_novamd(
          std::string("run run.yaml --backend cuda --precision ") + precision, dir.path());
      ASSERT_EQ(run.exit_code, 0) << run.output;
      const std::string thermo = novamd::test::file_text(dir.path() / "thermo.csv");
      if (repeat == 0) first = thermo;
      EXPECT_EQ(thermo, first) << precision;
    }
  }
}

class CudaRigidMoleculesRestart : public ::testing::TestWithParam<std::string> {};

// Langevin on both motions, c_rescale moving the centres, list builds and sorts: half a run,
// its checkpoint, the other half, against the whole run, every particle field bitwise; over the
// lists (the mixture) and over all pairs (the CPU tests' restart config, a box of 8).
TEST_P(CudaRigidMoleculesRestart, ContinuesBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string over_lists =
      mixture("{type: langevin, timestep: 0.002, temperature: 1.2, friction: 1.0}",
              "barostat: {type: c_rescale, pressure: 1.0, period: 0.5, compressibility: 1.0, "
              "every: 5}\n") +
      "  checkpoint: {file: run.chk}\n";
  novamd::test::expect_bitwise_restart_of_config(over_lists, "cuda", GetParam(), 50);
  novamd::test::expect_bitwise_restart_of_config(novamd::test::rigid_restart_config(), "cuda",
                                                 GetParam(), 50);
}

INSTANTIATE_TEST_SUITE_P(DoubleAndMixed, CudaRigidMoleculesRestart,
                         ::testing::Values("double", "mixed"));

}  // namespace
