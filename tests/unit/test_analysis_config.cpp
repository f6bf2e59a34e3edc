// The `analysis` config section: values, defaults resolved from the box, and errors that name
// the key (exit code 2 from the command).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "novamd/app/analyzer.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"
#include "support/expect_has.hpp"

namespace {

using novamd::core::InputError;
using novamd::io::parse_config;

// Line numbers matter: the error tests below name them.
const std::string kBase = R"(units: lj
system:
  box: [10.0, 12.0, 14.0]
  species: [{name: A, charge: 1, mass: 1}, {name: B, charge: 3, mass: 2}]
  structure: {generate: {counts: {A: 30, B: 10}}}
forces:
  - yukawa: {screening_length: 1.0}
integrator: {timestep: 0.005}
run: {steps: 10}
)";

std::string error_of(const std::string& analysis) {
  try {
    parse_config(kBase + analysis, "a.yaml");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(AnalysisConfig, ValuesAndDefaults) {
  const auto config = parse_config(kBase + R"(analysis:
  rdf: {every: 5, start: 100, write_every: 50, file: g.csv, bins: 80, r_max: 4.5}
  structure_factor: {every: 20, q_max: 3.0, bins: 30, weights: {A: 2, B: 7}}
  msd:
)",
                                   "a.yaml");
  const auto& a = config.analysis;
  ASSERT_TRUE(a.rdf && a.structure_factor && a.msd);
  EXPECT_EQ(a.rdf->schedule.every, 5);
  EXPECT_EQ(a.rdf->schedule.start, 100);
  EXPECT_EQ(a.rdf->write_every, 50);
  EXPECT_EQ(a.rdf->file, "g.csv");
  EXPECT_EQ(a.rdf->bins, 80);
  EXPECT_EQ(*a.rdf->r_max, 4.5);
  EXPECT_EQ(a.structure_factor->schedule.every, 20);
  EXPECT_EQ(a.structure_factor->file, "sq.csv");
  EXPECT_EQ(*a.structure_factor->q_max, 3.0);
  EXPECT_EQ(*a.structure_factor->bins, 30);
  EXPECT_EQ(a.structure_factor->weights, (std::vector<double>{2.0, 7.0}));
  EXPECT_EQ(a.msd->schedule.every, 10);  // `msd:` with no value takes every default
  EXPECT_EQ(a.msd->schedule.start, 0);
  EXPECT_EQ(a.msd->file, "msd.csv");
  EXPECT_FALSE(parse_config(kBase, "a.yaml").analysis.any());
}

// Defaults that need the box: r_max = half the shortest edge (5); q_max = 4 pi n^(1/3) with
// n = 40 / 1680; S(q) bins 2 pi / L_max = 2 pi / 14 wide; weights the charges.
TEST(AnalysisConfig, BoxDefaultsAreResolvedByTheAnalyzer) {
  const auto config =
      parse_config(kBase + "analysis: {rdf: {}, structure_factor: {}, msd: {}}\n", "a.yaml");
  const novamd::core::Box box(10.0, 12.0, 14.0);
  const novamd::app::Analyzer analyzer(
      config.analysis, {box, config.system.species, {30, 10}, {0, 0.0, 0.005}, "", "", "a.yaml"});
  const auto lines = analyzer.describe();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_HAS(lines[0], "g(r) every 100 steps: 200 bins to r = 5 -> rdf.csv");
  const double q_max = 4.0 * std::numbers::pi * std::cbrt(40.0 / box.volume());
  const int bins = static_cast<int>(std::ceil(q_max / (2.0 * std::numbers::pi / 14.0)));
  EXPECT_HAS(lines[1], fmt::format("to q = {:.6g}, {} bins -> sq.csv", q_max, bins));
  EXPECT_HAS(lines[2], "MSD every 10 steps -> msd.csv");
}

TEST(AnalysisConfig, ErrorsNameTheKey) {
  EXPECT_HAS(error_of("analysis: {rdf: {evry: 3}}\n"),
             "a.yaml:10: analysis.rdf.evry: unknown key; did you mean 'every'?");
  EXPECT_HAS(error_of("analysis: {gofr: {}}\n"),
             "a.yaml:10: analysis.gofr: unknown key; expected one of rdf, structure_factor, msd");
  EXPECT_HAS(error_of("analysis: {rdf: {every: 0}}\n"),
             "analysis.rdf.every: 0 is out of range; expected an integer >= 1");
  EXPECT_HAS(error_of("analysis: {msd: {start: -5}}\n"),
             "analysis.msd.start: -5 is out of range; expected an integer >= 0");
  EXPECT_HAS(error_of("analysis: {rdf: {bins: 2.5}}\n"),
             "analysis.rdf.bins: 2.5 is not an integer");
  EXPECT_HAS(error_of("analysis: {rdf: {r_max: 6}}\n"),
             "a.yaml:10: analysis.rdf.r_max: 6 is more than half the shortest box edge (5); "
             "expected a number <= 5");
  EXPECT_HAS(error_of("analysis: {structure_factor: {q_max: -1}}\n"),
             "analysis.structure_factor.q_max: -1 is out of range; expected a number > 0");
  EXPECT_HAS(error_of("analysis: {structure_factor: {weights: {C: 6}}}\n"),
             "analysis.structure_factor.weights.C: species 'C' is not declared in "
             "system.species; expected one of A, B");
  EXPECT_HAS(error_of("analysis: {structure_factor: {weights: {A: 0}}}\n"),
             "analysis.structure_factor.weights: every weight is 0");
  EXPECT_HAS(error_of("analysis: [rdf]\n"), "a.yaml:10: analysis: found a list; expected a map");
}

/// The analyzer's error for settings that the box rules out.
std::string analyzer_error(const std::string& analysis) {
  const auto config = parse_config(kBase + analysis, "a.yaml");
  try {
    novamd::app::Analyzer(config.analysis, {novamd::core::Box(10.0, 12.0, 14.0),
                                            config.system.species,
                                            {30, 10},
                                            {0, 0.0, 0.005},
                                            "",
                                            "",
                                            "a.yaml"});
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(AnalysisConfig, SettingsTheBoxRulesOutNameTheKey) {
  // The smallest wave number is 2 pi / 14 = 0.4488.
  EXPECT_HAS(
      analyzer_error("analysis: {structure_factor: {q_max: 0.4}}\n"),
      "a.yaml: analysis.structure_factor.q_max: 0.4 is below the smallest wave number of the box, "
      "2 pi / L_max = 0.448799; expected a number >= 0.448799");
  EXPECT_HAS(analyzer_error("analysis: {structure_factor: {q_max: 400}}\n"),
             "a.yaml: analysis.structure_factor.q_max: 400 gives about");
}

// A box from the density is known only once the structure is built: r_max is then checked by
// the command, still before anything runs or is written.
TEST(AnalysisConfig, CommandExitsWithCode2ForAnRMaxBeyondTheDensityBox) {
  novamd::test::TempDir dir;
  dir.write("a.yaml", R"(units: lj
system:
  density: 0.5
  species: [{name: A, mass: 1}]
  structure: {generate: {counts: {A: 32}}}
forces:
  - yukawa: {screening_length: 1.0}
integrator: {timestep: 0.005}
run: {steps: 10}
analysis: {rdf: {r_max: 3}}
)");
  const auto result = novamd::test::run_novamd("run a.yaml", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  // The box edge is (32 / 0.5)^(1/3) = 4.
  EXPECT_HAS(result.output, "a.yaml: analysis.rdf.r_max: 3 exceeds half the shortest box edge (2)");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

}  // namespace
