// Runs that go wrong stop with exit code 1, the step and particle named and a hint, instead of
// writing rows of inf and NaN and exiting 0: non-finite or overflowing kinetic energy, a particle
// moving too far in one step, a conserved energy drifting past run.max_energy_drift.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"

namespace {

using novamd::test::run_novamd;
using novamd::test::read_text;
using novamd::test::TempDir;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Two atoms read from `two.xyz`, far apart, the first with speed `speed` along x.
std::string two_atoms_moving(TempDir& dir, const std::string& speed) {
  dir.write("two.xyz",
            "2\nLattice=\"10 0 0 0 10 0 0 0 10\" Properties=species:S:1:pos:R:3:velo:R:3\n"
            "A 1 1 1 " + speed + " 0 0\nA 6 6 6 0 0 0\n");
  return R"(units: lj
system:
  species: [{name: A, mass: 1}]
  structure: {read: two.xyz}
forces:
  - lennard_jones: {pairs: [{types: [A, A], epsilon: 1, sigma: 1}], cutoff: 2.5}
integrator: {type: velocity_verlet, timestep: 0.001}
run: {steps: 10}
output: {thermo: {every: 1, file: thermo.csv}}
)";
}

TEST(RunHealth, SpeedWhoseSquareOverflowsStopsBeforeAnyRowOfInf) {
  // 1e155 is finite, its square (the kinetic energy) is not: the run used to write rows of inf
  // and -nan and exit 0.
  TempDir dir;
  dir.write("fast.yaml", two_atoms_moving(dir, "1e155"));
  const auto r = run_novamd("run fast.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "step 0: particle 0 moves more than")) << r.output;
  const std::string thermo = read_text(dir.path() / "thermo.csv");
  EXPECT_FALSE(has(thermo, "inf") || has(thermo, "nan")) << thermo;
}

TEST(RunHealth, ParticleCrossingTheBoxInOneStepStops) {
  // 2000 sigma/tau x 0.001 tau = 2 sigma per step, more than a tenth of the 10 sigma box.
  TempDir dir;
  dir.write("fast.yaml", two_atoms_moving(dir, "2000"));
  const auto r =
      run_novamd("run fast.yaml --backend cpu --set neighbors.method=all_pairs", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "particle 0 moves more than 1 sigma in one step (a tenth of the shortest box "
                            "edge"))
      << r.output;
  EXPECT_TRUE(has(r.output, "the time step (0.001 tau) may be too large")) << r.output;
}

TEST(RunHealth, ModerateSpeedRunsToTheEnd) {
  TempDir dir;
  dir.write("ok.yaml", two_atoms_moving(dir, "50"));  // 0.05 sigma per step
  const auto r = run_novamd("run ok.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

const char* kHotLattice = R"(units: lj
system:
  density: 0.8442
  species: [{name: Ar, mass: 1}]
  structure: {generate: {lattice: fcc, cells: 4, fractions: {Ar: 1}}}
  velocities: {temperature: 2000}
forces:
  - lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1, sigma: 1}], cutoff: 2.5}
neighbors: {method: neighbor_list, skin: 0.3}
integrator: {type: velocity_verlet, timestep: 0.005}
run: {steps: 20}
)";

TEST(RunHealth, ParticleCrossingHalfTheSkinInOneStepStops) {
  // At T = 2000 the fastest of 256 atoms moves about 0.4 sigma a step: more than half the skin,
  // so pairs could enter the cutoff unseen between list checks.
  TempDir dir;
  dir.write("hot.yaml", kHotLattice);
  const auto r = run_novamd("run hot.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "in one step (half the neighbour-list skin, 0.3)")) << r.output;
}

TEST(RunHealth, RandomStartWithoutMinSeparationStopsWithAHint) {
  // The reproducer: overlapping atoms fly apart; the run used to end at T = 5e58, exit 0.
  TempDir dir;
  const auto r = run_novamd(
      "run " NOVAMD_SOURCE_DIR "/examples/lj_liquid.yaml --backend cpu --steps 3000 --set "
      "'system.structure.generate={lattice: random, counts: {Ar: 500}}'",
      dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "run stopped: step ")) << r.output;
  EXPECT_TRUE(has(r.output, "has no min_separation")) << r.output;
  EXPECT_FALSE(has(r.output, "Done:")) << r.output;
  const std::string thermo = read_text(dir.path() / "lj_liquid_thermo.csv");
  EXPECT_FALSE(has(thermo, "inf") || has(thermo, "nan")) << thermo;
}

TEST(RunHealth, ConservedEnergyDriftPastTheBoundStops) {
  // NVE at dt = 0.005 drifts by ~1e-5 of its energy scale in 100 steps; a bound of 1e-9 stops
  // it at the first thermo row after step 0, and `none` lets it run.
  TempDir dir;
  const std::string run = "run " NOVAMD_SOURCE_DIR
                          "/examples/lj_liquid.yaml --backend cpu --steps 100 --set "
                          "system.structure.generate.cells=4 --set output.thermo.every=50";
  const auto tight = run_novamd(run + " --set run.max_energy_drift=1e-9", dir.path());
  EXPECT_EQ(tight.exit_code, 1) << tight.output;
  EXPECT_TRUE(has(tight.output, "step 50: the conserved energy is")) << tight.output;
  EXPECT_TRUE(has(tight.output, "more than run.max_energy_drift (1e-09)")) << tight.output;
  const auto off = run_novamd(run + " --set run.max_energy_drift=none", dir.path());
  EXPECT_EQ(off.exit_code, 0) << off.output;
  const auto default_bound = run_novamd(run, dir.path());
  EXPECT_EQ(default_bound.exit_code, 0) << default_bound.output;
}

TEST(RunHealth, MaxEnergyDriftMustBePositiveOrNone) {
  TempDir dir;
  const auto r = run_novamd("run " NOVAMD_SOURCE_DIR
                            "/examples/lj_liquid.yaml --set run.max_energy_drift=0",
                            dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "run.max_energy_drift")) << r.output;
  EXPECT_TRUE(has(r.output, "expected none or a number > 0")) << r.output;
}

}  // namespace
