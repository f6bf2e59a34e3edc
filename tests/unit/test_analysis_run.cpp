// Analysis in a run of the `novamd` command: the files it writes, a restart (the analyses start
// anew), and scripts/plot.py on the results.

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/expect_has.hpp"
#include "support/trajectories.hpp"

namespace {

using novamd::test::numbers_of;
using novamd::test::read_lines;
using novamd::test::run_novamd;
using novamd::test::TempDir;

// A small Yukawa mixture: 60 ions in a 6 x 6 x 6 box, 40 steps.
const char* kMixture = R"(units: lj
backend: cpu
system:
  box: [6.0, 6.0, 6.0]
  species: [{name: A, charge: 1, mass: 1}, {name: B, charge: 2, mass: 2}]
  structure: {generate: {lattice: random, counts: {A: 40, B: 20}, min_separation: 0.7}}
  velocities: {temperature: 0.5}
forces:
  - yukawa: {screening_length: 1.0}
integrator: {timestep: 0.002}
run: {steps: 40}
output:
  thermo: {every: 10, file: thermo.csv}
analysis:
  rdf: {every: 10, bins: 30}
  structure_factor: {every: 20, q_max: 6.0, bins: 12}
  msd: {every: 5}
)";

TEST(AnalysisRun, WritesEveryFileWithItsColumns) {
  TempDir dir;
  dir.write("mix.yaml", kMixture);
  const auto result = run_novamd("run mix.yaml", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "g(r) every 10 steps: 30 bins to r = 3 -> rdf.csv");
  EXPECT_HAS(result.output, "g(r) averaged over 5 samples: rdf.csv");  // steps 0, 10, ..., 40
  EXPECT_HAS(result.output, "S(q) averaged over 3 samples");           // steps 0, 20, 40
  EXPECT_HAS(result.output, "MSD: 9 rows: msd.csv");
  EXPECT_HAS(result.output, "Diffusion coefficients (MSD slope / 6 over lag times 0.04 to 0.08");

  const auto rdf = read_lines(dir.path() / "rdf.csv");
  ASSERT_EQ(rdf.size(), 31u);
  EXPECT_EQ(rdf[0], "r,g,g_A_A,g_A_B,g_B_B");
  for (std::size_t row = 1; row < rdf.size(); ++row) {
    const auto values = numbers_of(rdf[row]);
    ASSERT_EQ(values.size(), 5u);
    EXPECT_NEAR(values[0], (row - 0.5) * 0.1, 1e-9);  // bin centres
    for (double g : values) EXPECT_GE(g, 0.0) << rdf[row];
  }
  const auto sq = read_lines(dir.path() / "sq.csv");
  ASSERT_GE(sq.size(), 2u);
  EXPECT_EQ(sq[0], "q,modes,S,S_Z,S_A_A,S_A_B,S_B_B");

  const auto msd = read_lines(dir.path() / "msd.csv");
  ASSERT_EQ(msd.size(), 10u);
  EXPECT_EQ(msd[0], "step,time,lag_time,msd_A,msd_B,msd,D_A,D_B,D");
  EXPECT_EQ(msd[1].rfind("0,0,0,0,0,0,nan,nan,nan", 0), 0u) << msd[1];
  const auto last = numbers_of(msd.back());
  EXPECT_EQ(last[0], 40.0);
  EXPECT_DOUBLE_EQ(last[2], 40 * 0.002);
  EXPECT_GT(last[5], 0.0);
  EXPECT_DOUBLE_EQ(last[5], (40 * last[3] + 20 * last[4]) / 60);  // all: the particle average
}

// A restart starts the analyses anew: the MSD's time origin is the restart step, g(r) averages
// only the samples from there, and the run says so.
TEST(AnalysisRun, RestartStartsTheAnalysesAnew) {
  TempDir dir;
  dir.write("mix.yaml", std::string(kMixture));
  auto first =
      run_novamd("run mix.yaml --steps 20 --set output.checkpoint.file=run.chk", dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto second = run_novamd("run mix.yaml --restart run.chk", dir.path());
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_HAS(second.output, "Note: the analyses start anew from step 20");
  EXPECT_HAS(second.output, "g(r) averaged over 3 samples");  // steps 20, 30, 40
  const auto msd = read_lines(dir.path() / "msd.csv");
  ASSERT_EQ(msd.size(), 6u);  // header, steps 20 to 40
  EXPECT_EQ(msd[1].rfind("20,", 0), 0u) << msd[1];
  EXPECT_EQ(numbers_of(msd[1])[2], 0.0);  // lag 0 at the restart
}

bool is_png(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::array<unsigned char, 8> magic{};
  in.read(reinterpret_cast<char*>(magic.data()), magic.size());
  return in && magic == std::array<unsigned char, 8>{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
}

std::string plot_command(const std::string& arguments) {
  return novamd::test::test_python() + " '" NOVAMD_SOURCE_DIR "/scripts/plot.py' " + arguments;
}

// scripts/plot.py recognises each CSV by its header and writes one PNG per file.
TEST(AnalysisRun, PlotScriptWritesAPngPerFile) {
  TempDir dir;
  dir.write("mix.yaml", kMixture);
  ASSERT_EQ(run_novamd("run mix.yaml", dir.path()).exit_code, 0);
  const auto result = novamd::test::run_shell(
      plot_command("thermo.csv rdf.csv sq.csv msd.csv --out-dir plots"), dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* png : {"thermo.png", "rdf.png", "sq.png", "msd.png"}) {
    EXPECT_TRUE(is_png(dir.path() / "plots" / png)) << png << "\n" << result.output;
    EXPECT_HAS(result.output, png);
  }
}

TEST(AnalysisRun, PlotScriptRefusesAnUnknownCsvWithExitCode2) {
  TempDir dir;
  dir.write("other.csv", "a,b,c\n1,2,3\n");
  const auto result = novamd::test::run_shell(plot_command("other.csv"), dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_HAS(result.output, "other.csv: not a NovaMD thermo, rdf, S(q) or MSD file");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "other.png"));
  const auto missing = novamd::test::run_shell(plot_command("none.csv"), dir.path());
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_HAS(missing.output, "none.csv: cannot read");
}

}  // namespace
