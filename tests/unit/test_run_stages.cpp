// A run in stages (run.stages): equal to the same stages run as separate runs joined by
// restarts that change the integrator; temperature ramps; what stages refuse.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/app/step_loop.hpp"
#include "novamd/io/checkpoint.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"

using novamd::test::read_lines;
using novamd::test::run_novamd;
using novamd::test::TempDir;

namespace {

/// 256 LJ atoms at rho* 0.8442, T* 1.2, thermo every 10 steps; `run` and `integrator` given.
std::string liquid(const std::string& integrator, const std::string& run,
                   const std::string& more = "") {
  return R"(units: lj
seed: 31
system:
  density: 0.8442
  species: [{name: Ar, mass: 1.0}]
  structure: {generate: {lattice: fcc, cells: 4, fractions: {Ar: 1.0}}}
  velocities: {temperature: 1.2}
forces:
  - lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5, truncation: shift}
integrator: )" +
         integrator + "\nrun: " + run + "\noutput: {thermo: {every: 10, file: thermo.csv}" + more +
         "}\n";
}

/// The thermo rows by step, each as its numbers.
std::map<long, std::vector<double>> rows_by_step(const std::filesystem::path& file) {
  std::map<long, std::vector<double>> rows;
  const auto lines = read_lines(file);
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const auto values = novamd::test::numbers_of(lines[k]);
    rows[static_cast<long>(values[0])] = values;
  }
  return rows;
}

const char* kLangevin = "{type: langevin, timestep: 0.005, temperature: 1.2, friction: 2.0}";
const char* kVerlet = "{type: velocity_verlet, timestep: 0.005}";

}  // namespace

TEST(RunStages, EqualTheSameStagesRunApartJoinedByARestart) {
  // Langevin equilibration for 50 steps, then velocity Verlet for 50: in one run with stages,
  // and as a run of 50 steps restarted with the other integrator. Same state at every row.
  TempDir staged, apart;
  // The energy watch is tight: the conserved quantity changes its meaning with the integrator's
  // kind, and the watch (and the summary's drift) count from the new stage's first row.
  staged.write("run.yaml", liquid(kLangevin, std::string("{max_energy_drift: 0.001, stages: "
                                                         "[{steps: 50}, {steps: 50, integrator: ") +
                                                 kVerlet + "}]}"));
  const auto one = run_novamd("run run.yaml --backend cpu", staged.path());
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_NE(one.output.find("stage 2 of 2, steps 51 to 100: velocity_verlet"), std::string::npos)
      << one.output;
  EXPECT_NE(one.output.find(" at step 60, "), std::string::npos) << one.output;

  apart.write("first.yaml", liquid(kLangevin, "{steps: 50}", ", checkpoint: {file: run.chk}"));
  apart.write("second.yaml", liquid(kVerlet, "{steps: 100}"));
  const auto first = run_novamd("run first.yaml --backend cpu", apart.path());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto second = run_novamd("run second.yaml --backend cpu --restart run.chk", apart.path());
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_NE(second.output.find("Note: the checkpoint was written by integrator langevin; this "
                               "run continues with velocity_verlet"),
            std::string::npos)
      << second.output;

  const auto staged_rows = rows_by_step(staged.path() / "thermo.csv");
  const auto apart_rows = rows_by_step(apart.path() / "thermo.csv");
  ASSERT_EQ(staged_rows.size(), 11u);  // steps 0, 10, ..., 100
  for (const auto& [step, row] : staged_rows) {
    ASSERT_TRUE(apart_rows.count(step)) << "step " << step;
    // the same operations in the same order on the CPU: bitwise (columns 2 to 6: temperature
    // to pressure; the conserved energy counts each integrator's own reservoir)
    for (int c = 2; c <= 6; ++c) EXPECT_EQ(row[c], apart_rows.at(step)[c]) << "step " << step;
  }
}

TEST(RunStages, ATemperatureRampMovesTheThermostatsTarget) {
  // Bussi with tau = 0.05 follows its target within a few tau; 256 atoms fluctuate by about
  // sqrt(2 / (3N)) = 5% around it.
  TempDir dir;
  dir.write("run.yaml",
            liquid("{type: bussi, timestep: 0.005, temperature: 1.0, tau: 0.05}",
                   "{stages: [{steps: 200, temperature: 1.0}, {steps: 400, temperature: [1.0, "
                   "2.0]}, {steps: 200, temperature: 2.0}]}"));
  const auto run = run_novamd("run run.yaml --backend cpu", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("stage 2 of 3, steps 201 to 600: bussi, T 1 to 2"), std::string::npos)
      << run.output;
  const auto rows = rows_by_step(dir.path() / "thermo.csv");
  const auto mean_temperature = [&](long from, long to) {
    double sum = 0.0;
    int n = 0;
    for (const auto& [step, row] : rows)
      if (step >= from && step <= to) sum += row[2], ++n;
    return sum / n;
  };
  EXPECT_NEAR(mean_temperature(100, 200), 1.0, 0.1);
  EXPECT_NEAR(mean_temperature(380, 420), 1.5, 0.15);  // the ramp's middle
  EXPECT_NEAR(mean_temperature(700, 800), 2.0, 0.2);
}

TEST(RunStages, TheRampIsLinearFromTheStagesFirstStepToItsLast) {
  const novamd::app::TemperatureRamp ramp{200, 600, 1.0, 2.0};
  EXPECT_DOUBLE_EQ(ramp.at(200), 1.0);
  EXPECT_DOUBLE_EQ(ramp.at(400), 1.5);
  EXPECT_DOUBLE_EQ(ramp.at(600), 2.0);
  EXPECT_DOUBLE_EQ(ramp.at(700), 2.0);  // past its end it holds
}

TEST(RunStages, ARunCutShortEndsInTheStageOfItsLastStep) {
  TempDir dir;
  dir.write("run.yaml",
            liquid(kLangevin, std::string("{stages: [{steps: 30}, {steps: 50, integrator: ") +
                                  kVerlet + "}]}"));
  const auto run = run_novamd("run run.yaml --backend cpu --steps 40", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto rows = rows_by_step(dir.path() / "thermo.csv");
  EXPECT_EQ(rows.rbegin()->first, 40);
  EXPECT_EQ(rows.count(30), 1u);  // the stage's end is written
}

TEST(RunStages, WhatStagesRefuse) {
  const struct {
    const char* run;
    const char* message;
  } cases[] = {
      {"{stages: [{steps: 10, integrator: {type: velocity_verlet, timestep: 0.005}, temperature: "
       "1.5}]}",
       "the stage's integrator, velocity_verlet, has no thermostat"},
      {"{steps: 30, stages: [{steps: 10}, {steps: 10}]}",
       "30 steps, more than the stages' 20; expected at most 20"},
      {"{stages: [{steps: 10, temperature: [1.0, 2.0, 3.0]}]}",
       "a list of 3 temperatures; expected [T_first, T_last]"},
      {"{stages: [{steps: 0}]}", "steps"},
      {"{stages: []}", "an empty list of stages"},
  };
  for (const auto& c : cases) {
    TempDir dir;
    dir.write("run.yaml", liquid(kLangevin, c.run));
    const auto run = run_novamd("run run.yaml --backend cpu", dir.path());
    EXPECT_EQ(run.exit_code, 2) << c.run << "\n" << run.output;
    EXPECT_NE(run.output.find(c.message), std::string::npos) << c.run << "\n" << run.output;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv")) << c.run;
  }
}

TEST(RunStages, ARestartMayChangeTheTemperatureAndTheTimestep) {
  TempDir dir;
  dir.write("first.yaml", liquid(kLangevin, "{steps: 20}", ", checkpoint: {file: run.chk}"));
  ASSERT_EQ(run_novamd("run first.yaml --backend cpu", dir.path()).exit_code, 0);
  const auto warmer = run_novamd(
      "run first.yaml --backend cpu --restart run.chk --steps 40 --set "
      "integrator.temperature=1.5 --set output.checkpoint.file=warmer.chk --set "
      "output.thermo.file=warmer.csv",
      dir.path());
  ASSERT_EQ(warmer.exit_code, 0) << warmer.output;
  EXPECT_NE(warmer.output.find("Note: the integrator changed (integrator.temperature: 1.2 in the "
                               "checkpoint, 1.5 in this run)"),
            std::string::npos)
      << warmer.output;
  const auto faster = run_novamd(
      "run first.yaml --backend cpu --restart run.chk --steps 40 --set integrator.timestep=0.004",
      dir.path());
  ASSERT_EQ(faster.exit_code, 0) << faster.output;
  EXPECT_NE(faster.output.find("integrator.timestep: 0.005 in the checkpoint, 0.004 in this run"),
            std::string::npos)
      << faster.output;
  EXPECT_NE(faster.output.find("Note: the timestep changed (0.005 in the checkpoint, 0.004 in "
                               "this run): from step 20 time goes on from 0.1 in steps of 0.004"),
            std::string::npos)
      << faster.output;
  // Time goes on from step 20's: 0.1 + 20 x 0.004 at step 40.
  const auto rows = rows_by_step(dir.path() / "thermo.csv");
  EXPECT_EQ(rows.at(20)[1], 20 * 0.005);
  EXPECT_EQ(rows.at(40)[1], 20 * 0.005 + 20 * 0.004);
}

TEST(RunStages, ATimestepChangeKeepsTimeContinuousAndEqualsTheRestartedRun) {
  // 40 steps of Langevin at 0.005, then 40 at 0.0025 (a stage of the same integrator: its
  // thermostat goes on): in one run, and as a run of 40 restarted with the smaller timestep.
  // Time is 0.2 at step 40 and goes on by 0.0025; every row is the same bit for bit.
  const std::string smaller = "{type: langevin, timestep: 0.0025, temperature: 1.2, friction: 2.0}";
  TempDir staged, apart;
  staged.write(
      "run.yaml",
      liquid(kLangevin, "{stages: [{steps: 40}, {steps: 40, integrator: " + smaller + "}]}",
             ", checkpoint: {file: run.chk}"));
  const auto one = run_novamd("run run.yaml --backend cpu", staged.path());
  ASSERT_EQ(one.exit_code, 0) << one.output;
  apart.write("first.yaml", liquid(kLangevin, "{steps: 40}", ", checkpoint: {file: run.chk}"));
  apart.write("second.yaml", liquid(smaller, "{steps: 80}", ", checkpoint: {file: run.chk}"));
  ASSERT_EQ(run_novamd("run first.yaml --backend cpu", apart.path()).exit_code, 0);
  const auto second = run_novamd("run second.yaml --backend cpu --restart run.chk", apart.path());
  ASSERT_EQ(second.exit_code, 0) << second.output;

  const auto staged_rows = rows_by_step(staged.path() / "thermo.csv");
  const auto apart_rows = rows_by_step(apart.path() / "thermo.csv");
  ASSERT_EQ(staged_rows.size(), 9u);  // steps 0, 10, ..., 80
  for (const auto& [step, row] : staged_rows) {
    const double time = step <= 40 ? step * 0.005 : 40 * 0.005 + (step - 40) * 0.0025;
    EXPECT_EQ(row[1], time) << "step " << step;  // the sum the time axis computes, exactly
    ASSERT_TRUE(apart_rows.count(step)) << "step " << step;
    EXPECT_EQ(row, apart_rows.at(step)) << "step " << step;  // every column, bitwise
  }
  // The checkpoints of both hold the same time axis: a later restart goes on alike.
  const auto a = novamd::io::read_checkpoint(staged.path() / "run.chk");
  const auto b = novamd::io::read_checkpoint(apart.path() / "run.chk");
  EXPECT_EQ(a.time_axis, b.time_axis);
  EXPECT_EQ(a.time_axis, (novamd::core::TimeAxis{40, 0.2, 0.0025}));
}

TEST(RunStages, ADcdFileIsRefusedWhereTheTimestepChanges) {
  TempDir dir;
  dir.write("run.yaml",
            liquid(kLangevin,
                   "{stages: [{steps: 20}, {steps: 20, integrator: {type: langevin, timestep: "
                   "0.0025, temperature: 1.2, friction: 2.0}}]}",
                   ", trajectory: {file: t.dcd, every: 10}"));
  const auto run = run_novamd("run run.yaml --backend cpu", dir.path());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("output.trajectory[0]: t.dcd is a DCD file, which holds one "
                            "timestep"),
            std::string::npos)
      << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "t.dcd"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}
