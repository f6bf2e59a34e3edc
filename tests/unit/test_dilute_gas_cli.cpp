// Dilute systems end to end: cutoffs tiny against the box (an LJ gas at a density of 1e-8, a
// white dwarf with a Yukawa cutoff of 1 fm) run in a moment, with the energies of all pairs.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace {

using novamd::test::CliResult;
using novamd::test::run_novamd;
using novamd::test::TempDir;

/// 100 LJ atoms placed at random in a cube of 100 / density, cutoff 2.5 sigma.
std::string dilute_gas(const std::string& density) {
  return R"(units: lj
seed: 11
system:
  density: )" +
         density + R"(
  species: [{name: Ar, mass: 1.0}]
  structure: {generate: {lattice: random, counts: {Ar: 100}}}
  velocities: {temperature: 1.0}
forces:
  - lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5}
integrator: {type: velocity_verlet, timestep: 0.005}
run: {steps: 3}
output:
  thermo: {every: 1, file: thermo.csv}
)";
}

/// The thermo rows of `file` (header dropped), each as its numbers.
std::vector<std::vector<double>> thermo_rows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);  // units
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    rows.emplace_back();
    for (std::string cell; std::getline(cells, cell, ',');) rows.back().push_back(std::stod(cell));
  }
  return rows;
}

/// `novamd run config.yaml ARGS` in `dir`, with the seconds it took.
CliResult timed_run(const TempDir& dir, const std::string& args, double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  CliResult r = run_novamd("run config.yaml " + args, dir.path());
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

/// Every thermo column of the default traversal's run equal to the all-pairs run's (the sums may
/// differ in order only).
void expect_same_thermo(const std::filesystem::path& a, const std::filesystem::path& b) {
  const auto x = thermo_rows(a), y = thermo_rows(b);
  ASSERT_EQ(x.size(), y.size());
  ASSERT_FALSE(x.empty());
  for (std::size_t r = 0; r < x.size(); ++r) {
    ASSERT_EQ(x[r].size(), y[r].size());
    for (std::size_t c = 0; c < x[r].size(); ++c)
      EXPECT_NEAR(x[r][c], y[r][c], 1e-12 * (1.0 + std::abs(y[r][c])))
          << "row " << r << " col " << c;
  }
}

class DiluteLjGas : public testing::TestWithParam<const char*> {};

// At 7.2e-9 the Verlet grid once asked for 3 GB (then SIGSEGV); at 1e-8 the cell count overflowed
// into "cannot create std::vector larger than max_size()".
TEST_P(DiluteLjGas, RunsFastWithTheEnergiesOfAllPairs) {
  TempDir dir;
  dir.write("config.yaml", dilute_gas(GetParam()));
  double seconds = 0;
  for (const char* method : {"cell_list", "all_pairs", "auto"}) {
    const auto r = timed_run(dir, std::string("--set neighbors.method=") + method, seconds);
    ASSERT_EQ(r.exit_code, 0) << method << "\n" << r.output;
    EXPECT_NE(r.output.find("Done: 3 steps"), std::string::npos) << r.output;
    EXPECT_LT(seconds, 20.0) << method;
    std::filesystem::rename(dir.path() / "thermo.csv", dir.path() / (std::string(method) + ".csv"));
  }
  expect_same_thermo(dir.path() / "auto.csv", dir.path() / "all_pairs.csv");
  expect_same_thermo(dir.path() / "cell_list.csv", dir.path() / "all_pairs.csv");
}

INSTANTIATE_TEST_SUITE_P(Densities, DiluteLjGas, testing::Values("7.2e-9", "1e-8"));

// The white dwarf example (3,384 fm box) with a 1 fm cutoff: 3.9e10 cells of one cutoff. Scaled
// down to 54 ions (a 1,015 fm box, 1e9 cells before the cap).
TEST(DiluteYukawa, WhiteDwarfWithATinyCutoffRuns) {
  TempDir dir;
  double seconds = 0;
  const std::string example = NOVAMD_SOURCE_DIR "/examples/white_dwarf_co.yaml";
  for (const char* cutoff : {"1.0", "2.5"}) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_novamd("run " + example +
                                  " --steps 2 --backend cpu"
                                  " --set system.structure.generate.cells=3"
                                  // a skin the ions do not cross in a 200 fm/c step
                                  " --set neighbors.skin=1"
                                  " --set forces.0.yukawa.cutoff=" +
                                  cutoff,
                              dir.path());
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exit_code, 0) << cutoff << "\n" << r.output;
    EXPECT_NE(r.output.find("Done: 2 steps"), std::string::npos) << r.output;
    EXPECT_LT(seconds, 20.0) << cutoff;
  }
}

}  // namespace
