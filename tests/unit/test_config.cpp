// Config loading: values, defaults, every kind of bad input, --set overrides, and the exit code
// and message of `novamd run` on a bad config.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/yaml_reader.hpp"
#include "support/cli_runner.hpp"

namespace {

using novamd::core::InputError;
using novamd::io::Config;
using novamd::io::Override;
using novamd::io::parse_config;

#define EXPECT_HAS(message, part)                    \
  EXPECT_NE((message).find(part), std::string::npos) \
      << "missing: " << (part) << "\nin: " << (message)

// Line numbers matter: the error tests below name them.
const std::string kFull = R"(units: nuclear
backend: cpu
precision: mixed
seed: 7
system:
  box: [100.0, 120.0, 140.0]
  species:
    - {name: C, charge: 6, mass: 11177.93}
    - {name: O, charge: 8, mass: 14899.17, isospin: 0}
  structure:
    generate: {lattice: random, counts: {O: 10, C: 30}, min_separation: 1.5}
  velocities: {temperature: 0.001}
forces:
  - yukawa: {screening_length: 47.5, cutoff: 40.0, shift: energy}
integrator: {type: velocity_verlet, timestep: 200.0}
run: {steps: 1000}
output:
  thermo: {every: 10, file: t.csv}
  trajectory: {every: 500, file: out.xyz, fields: [position, velocity]}
)";

// Only the required keys.
const std::string kMinimal = R"(units: lj
system:
  density: 0.8
  species: [{name: A, mass: 1}]
  structure: {generate: {counts: {A: 100}}}
forces:
  - yukawa: {screening_length: 2.0}
integrator: {timestep: 0.005}
run: {steps: 10}
)";

/// `text` with its one occurrence of `from` replaced by `to`.
std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "test config lacks: " << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The message of the InputError that parsing `text` throws ("" and a failure if none).
std::string error_of(const std::string& text, const std::vector<Override>& overrides = {}) {
  try {
    parse_config(text, "wd.yaml", overrides);
  } catch (const InputError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return "";
}

// --- valid configs -----------------------------------------------------------------------------

TEST(ConfigParse, FullConfigGivesExpectedValues) {
  const Config config = parse_config(kFull, "wd.yaml");
  EXPECT_EQ(config.file, "<string>");
  EXPECT_EQ(config.units.name, "nuclear");
  EXPECT_EQ(config.backend, "cpu");
  EXPECT_EQ(config.precision, novamd::core::Precision::Mixed);
  EXPECT_EQ(config.seed, 7u);
  ASSERT_TRUE(config.system.box.has_value());
  EXPECT_EQ(*config.system.box, (std::array<double, 3>{100.0, 120.0, 140.0}));
  EXPECT_FALSE(config.system.density.has_value());
  ASSERT_EQ(config.system.species.size(), 2);
  EXPECT_EQ(config.system.species[0].name, "C");
  EXPECT_EQ(config.system.species[0].charge, 6.0);
  EXPECT_EQ(config.system.species[1].mass, 14899.17);
  EXPECT_EQ(config.system.species[1].isospin, 0);
  ASSERT_TRUE(config.system.structure.generate.has_value());
  const auto& generate = *config.system.structure.generate;
  EXPECT_EQ(generate.lattice, "random");
  using Counts = std::vector<std::pair<std::string, std::int64_t>>;
  EXPECT_EQ(generate.counts, (Counts{{"C", 30}, {"O", 10}}));  // declaration order
  EXPECT_EQ(generate.min_separation, 1.5);
  EXPECT_FALSE(generate.cells.has_value());
  EXPECT_EQ(config.system.velocities.temperature, 0.001);
  ASSERT_EQ(config.forces.size(), 1u);
  const auto& yukawa = std::get<novamd::forces::YukawaSettings>(config.forces[0]);
  EXPECT_EQ(yukawa.screening_length, 47.5);
  EXPECT_EQ(yukawa.cutoff, 40.0);
  EXPECT_EQ(yukawa.truncation, novamd::forces::Truncation::ShiftEnergy);
  EXPECT_EQ(config.integrator.type, "velocity_verlet");
  EXPECT_EQ(config.integrator.timestep, 200.0);
  EXPECT_EQ(config.run.steps, 1000);
  EXPECT_EQ(config.output.thermo.every, 10);
  EXPECT_EQ(config.output.thermo.file, "t.csv");
  ASSERT_EQ(config.output.trajectories.size(), 1u);
  const auto& trajectory = config.output.trajectories[0];
  EXPECT_EQ(trajectory.every, 500);
  EXPECT_EQ(trajectory.file, "out.xyz");
  EXPECT_EQ(trajectory.format, novamd::io::TrajectoryFormat::Xyz);
  EXPECT_EQ(trajectory.position_every, 500);
  EXPECT_EQ(trajectory.velocity_every, 500);
  EXPECT_EQ(trajectory.force_every, 0);
}

TEST(ConfigParse, DefaultsApplyToAbsentKeys) {
  const Config config = parse_config(kMinimal, "min.yaml");
  EXPECT_EQ(config.units.name, "lj");
  EXPECT_EQ(config.backend, "auto");
  EXPECT_EQ(config.precision, novamd::core::Precision::Double);
  EXPECT_EQ(config.seed, 2026u);
  EXPECT_FALSE(config.system.box.has_value());
  EXPECT_EQ(config.system.density, 0.8);
  EXPECT_EQ(config.system.species[0].charge, 0.0);
  EXPECT_EQ(config.system.structure.generate->lattice, "random");
  EXPECT_EQ(config.system.structure.generate->min_separation, 0.0);
  EXPECT_FALSE(config.system.velocities.temperature.has_value());
  const auto& yukawa = std::get<novamd::forces::YukawaSettings>(config.forces[0]);
  EXPECT_TRUE(std::isinf(yukawa.cutoff));
  EXPECT_EQ(yukawa.truncation, novamd::forces::Truncation::Cut);
  EXPECT_EQ(config.integrator.type, "velocity_verlet");
  EXPECT_EQ(config.output.thermo.every, 100);
  EXPECT_EQ(config.output.thermo.file, "thermo.csv");
  EXPECT_TRUE(config.output.trajectories.empty());
  EXPECT_FALSE(config.output.checkpoint.configured);
  EXPECT_EQ(config.output.console.every, 100);  // the thermo interval
  EXPECT_FALSE(config.run.walltime.has_value());
}

// neighbors.layout: `auto` by default, resolved when the config is read (per-atom lists for a
// system without a Coulomb term, see ConfigCoulomb.AutoLayoutIsClustersForChargesBelowDouble);
// cluster pairs when asked; any other value is an input error that names the key and the
// choices.
TEST(ConfigParse, NeighborListLayout) {
  EXPECT_EQ(parse_config(kMinimal, "min.yaml").neighbors.layout,
            novamd::neighbors::ListLayout::Atoms);
  EXPECT_EQ(parse_config(kMinimal + "precision: mixed\n", "min.yaml").neighbors.layout,
            novamd::neighbors::ListLayout::Atoms);
  const Config clusters =
      parse_config(kMinimal, "min.yaml", {{"neighbors", "{layout: clusters, skin: 0.4}"}});
  EXPECT_EQ(clusters.neighbors.layout, novamd::neighbors::ListLayout::Clusters);
  EXPECT_EQ(clusters.neighbors.skin, 0.4);
  const std::string error = error_of(kMinimal + "neighbors: {layout: tiles}\n");
  EXPECT_NE(error.find("layout"), std::string::npos) << error;
  EXPECT_NE(error.find("clusters"), std::string::npos) << error;
}

// neighbors.skin by default: the larger of 0.12 x the cutoff and 50 steps of the lightest
// particle's thermal speed sqrt(kT/m) at the thermostat's temperature, the latter at most what
// leaves 3 cells of cutoff + skin per box edge. The LJ melt's 0.3 sigma at T* = 1.44 and
// dt = 0.005 is both; twice the step, twice the skin; no thermostat (constant energy, whatever the
// initial velocities), the cutoff's share; an explicit skin is kept; a small box caps the thermal
// bound, never below the cutoff's share. In real units, water's hydrogen (1.008 g/mol) at 300 K
// and 2 fs: 50 x 2 fs x sqrt(k_B T / m) with k_B and the atomic mass unit in SI (CODATA 2018:
// 1.380649e-23 J/K, 1.66053906660e-27 kg) is 1.5731 A.
TEST(ConfigParse, DefaultSkinCoversFiftyStepsOfTheLightestThermalSpeed) {
  constexpr double kWide = 1e9;  // a box edge that caps nothing
  const std::string warm = with(kMinimal, "integrator: {timestep: 0.005}",
                                "integrator: {type: langevin, timestep: 0.005, temperature: 1.44, "
                                "friction: 1.0}");
  EXPECT_NEAR(parse_config(warm, "m.yaml").neighbors.skin_for(2.5, kWide), 0.3, 1e-12);
  EXPECT_NEAR(parse_config(with(warm, "timestep: 0.005", "timestep: 0.01"), "m.yaml")
                  .neighbors.skin_for(2.5, kWide),
              0.6, 1e-12);
  const std::string nve = with(kMinimal, "  structure: {generate: {counts: {A: 100}}}\n",
                               "  structure: {generate: {counts: {A: 100}}}\n"
                               "  velocities: {temperature: 5.0}\n");
  EXPECT_EQ(parse_config(nve, "m.yaml").neighbors.skin_for(2.5, kWide), 0.12 * 2.5);
  EXPECT_EQ(
      parse_config(warm, "m.yaml", {{"neighbors", "{skin: 0.2}"}}).neighbors.skin_for(2.5, kWide),
      0.2);
  const auto doubled = parse_config(with(warm, "timestep: 0.005", "timestep: 0.01"), "m.yaml");
  EXPECT_NEAR(doubled.neighbors.skin_for(2.5, 3.0 * (2.5 + 0.4)), 0.4, 1e-12);  // the box's room
  EXPECT_EQ(doubled.neighbors.skin_for(2.5, 3.0 * 2.5), 0.12 * 2.5);  // no room: the share
  EXPECT_EQ(novamd::neighbors::resolve_method(doubled.neighbors, 2.5, 3.0 * (2.5 + 0.4)),
            novamd::neighbors::NeighborMethod::NeighborList);

  std::string water = with(warm, "units: lj", "units: real");
  water = with(water, "mass: 1}", "mass: 1.008}");
  water = with(water, "temperature: 1.44", "temperature: 300.0");
  water = with(water, "timestep: 0.005", "timestep: 2.0");
  const double speed = std::sqrt(1.380649e-23 * 300.0 / (1.008 * 1.66053906660e-27));  // m/s
  const double expected = 50.0 * 2.0 * speed * 1e-5;  // 1 m/s = 1e-5 A/fs
  EXPECT_NEAR(parse_config(water, "w.yaml").neighbors.skin_for(2.0, kWide), expected,
              1e-5 * expected);
  EXPECT_NEAR(expected, 1.5731, 1e-4);
}

// Cluster pair lists (the GPU's layout for charged systems in mixed and single precision) take
// at least 0.28 x the cutoff by default, the thermal bound where it is larger, both capped by the
// box's room; per-particle lists keep 0.12 x the cutoff.
TEST(ConfigParse, ClusterPairListsTakeAWiderDefaultSkin) {
  using novamd::neighbors::ListLayout;
  constexpr double kWide = 1e9;
  novamd::neighbors::NeighborSettings n;
  n.layout = ListLayout::Clusters;
  EXPECT_NEAR(n.skin_for(9.0, kWide), 0.28 * 9.0, 1e-12);
  n.thermal_bound = 3.0;
  EXPECT_EQ(n.skin_for(9.0, kWide), 3.0);
  n.thermal_bound = 0.0;
  EXPECT_NEAR(n.skin_for(9.0, 3.0 * (9.0 + 1.5)), 1.5, 1e-12);  // the box's room
  EXPECT_EQ(n.skin_for(9.0, 27.0), 0.12 * 9.0);                 // no room: the share
  n.layout = ListLayout::Atoms;
  EXPECT_EQ(n.skin_for(9.0, kWide), 0.12 * 9.0);
  n.layout = ListLayout::Clusters;
  n.skin = 0.7;
  EXPECT_EQ(n.skin_for(9.0, kWide), 0.7);
}

TEST(ConfigParse, ScalarBoxAndOneElementBoxAreCubic) {
  auto config = parse_config(with(kFull, "box: [100.0, 120.0, 140.0]", "box: 90"), "wd.yaml");
  EXPECT_EQ(*config.system.box, (std::array<double, 3>{90.0, 90.0, 90.0}));
  config = parse_config(with(kFull, "box: [100.0, 120.0, 140.0]", "box: [85]"), "wd.yaml");
  EXPECT_EQ(*config.system.box, (std::array<double, 3>{85.0, 85.0, 85.0}));
}

TEST(ConfigParse, FractionsAreRoundedByLargestRemainder) {
  const std::string text =
      with(kFull, "counts: {O: 10, C: 30}", "fractions: {C: 0.3333333, O: 0.6666667}, total: 10");
  using Counts = std::vector<std::pair<std::string, std::int64_t>>;
  EXPECT_EQ(parse_config(text, "wd.yaml").system.structure.generate->counts,
            (Counts{{"C", 3}, {"O", 7}}));
  const std::string even =
      with(kFull, "counts: {O: 10, C: 30}", "fractions: {O: 0.5, C: 0.5}, total: 11");
  EXPECT_EQ(parse_config(even, "wd.yaml").system.structure.generate->counts,
            (Counts{{"C", 6}, {"O", 5}}));  // a tie goes to the species declared first
}

TEST(ConfigParse, LatticeTotalComesFromCells) {
  const std::string text =
      with(kFull, "{lattice: random, counts: {O: 10, C: 30}, min_separation: 1.5}",
           "{lattice: fcc, cells: [2, 3, 4], fractions: {C: 0.25, O: 0.75}}");
  const auto generate = *parse_config(text, "wd.yaml").system.structure.generate;
  EXPECT_EQ(generate.lattice, "fcc");
  EXPECT_EQ(generate.cells, (std::array<int, 3>{2, 3, 4}));
  using Counts = std::vector<std::pair<std::string, std::int64_t>>;
  EXPECT_EQ(generate.counts, (Counts{{"C", 24}, {"O", 72}}));  // 4 x 2 x 3 x 4 = 96 sites
}

// The path is kept as written; the structure reader takes it relative to the config's folder.
TEST(ConfigParse, ReadPathIsResolvedNextToTheConfigFile) {
  const std::string text =
      with(kFull, "generate: {lattice: random, counts: {O: 10, C: 30}, min_separation: 1.5}",
           "read: start.xyz");
  EXPECT_EQ(parse_config(text, "wd.yaml").system.structure.read, "start.xyz");
  novamd::test::TempDir dir;
  const auto file = dir.write("wd.yaml", text);
  const Config config = novamd::io::load_config(file);
  EXPECT_EQ(config.file, file);
  EXPECT_EQ(*config.system.structure.read, dir.path() / "start.xyz");
  EXPECT_FALSE(config.system.structure.generate.has_value());
}

TEST(ConfigParse, ReadAllowsNeitherBoxNorDensity) {
  const std::string text =
      with(with(kFull, "generate: {lattice: random, counts: {O: 10, C: 30}, min_separation: 1.5}",
                "read: start.xyz"),
           "  box: [100.0, 120.0, 140.0]\n", "");
  EXPECT_FALSE(parse_config(text, "wd.yaml").system.box.has_value());
}

// --- errors ------------------------------------------------------------------------------------

TEST(ConfigErrors, UnknownKeySuggestsNearest) {
  const std::string message = error_of(with(kFull, "box:", "boxx:"));
  EXPECT_HAS(message, "wd.yaml:6: system.boxx: unknown key; did you mean 'box'?");
}

TEST(ConfigErrors, UnknownKeyFarFromAnyListsTheValidKeys) {
  const std::string message = error_of(kFull + "frobnicate: 3\n");
  EXPECT_HAS(message, "wd.yaml:20: frobnicate: unknown key; expected one of units, backend");
}

TEST(ConfigErrors, UnknownForceTermSuggestsNearest) {
  const std::string message = error_of(with(kFull, "- yukawa:", "- yukwaa:"));
  EXPECT_HAS(message, "wd.yaml:14: forces[0].yukwaa: unknown key; did you mean 'yukawa'?");
}

TEST(ConfigErrors, UnknownNestedKeyInForceTerm) {
  const std::string message = error_of(with(kFull, "screening_length:", "screening_lenght:"));
  EXPECT_HAS(message,
             "wd.yaml:14: forces[0].yukawa.screening_lenght: unknown key; did you mean "
             "'screening_length'?");
}

TEST(ConfigErrors, MissingRequiredKeyNamesParentLineAndPath) {
  EXPECT_HAS(error_of(with(kFull, "run: {steps: 1000}\n", "")),
             "wd.yaml:1: run: required key is missing");
  EXPECT_HAS(error_of(with(kFull, ", timestep: 200.0", "")),
             "wd.yaml:15: integrator.timestep: required key is missing");
  EXPECT_HAS(error_of(with(kFull, "screening_length: 47.5, ", "")),
             "wd.yaml:14: forces[0].yukawa.screening_length: required key is missing");
  EXPECT_HAS(error_of(with(kFull, ", mass: 11177.93", "")),
             "wd.yaml:8: system.species[0].mass: required key is missing");
}

TEST(ConfigErrors, WrongTypeNamesWhatIsExpected) {
  EXPECT_HAS(error_of(with(kFull, "timestep: 200.0", "timestep: {a: 1}")),
             "wd.yaml:15: integrator.timestep: found a map; expected a number > 0");
  EXPECT_HAS(error_of(with(kFull, "timestep: 200.0", "timestep: fast")),
             "integrator.timestep: 'fast' is not a number; expected a number > 0");
  EXPECT_HAS(error_of(with(kFull, "timestep: 200.0", "timestep: \"200\"")),
             "integrator.timestep: '200' is quoted, so a string; expected a number > 0");
  EXPECT_HAS(error_of(with(kFull, "velocities: {temperature: 0.001}", "velocities: [0.001]")),
             "wd.yaml:12: system.velocities: found a list; expected a map");
  EXPECT_HAS(
      error_of(with(kFull,
                    "forces:\n  - yukawa: {screening_length: 47.5, cutoff: 40.0, shift: energy}",
                    "forces: yukawa")),
      "wd.yaml:13: forces: found 'yukawa'; expected a list");
}

TEST(ConfigErrors, NegativeTimestepIsOutOfRange) {
  EXPECT_HAS(error_of(with(kFull, "timestep: 200.0", "timestep: -1")),
             "wd.yaml:15: integrator.timestep: -1 is out of range; expected a number > 0");
}

TEST(ConfigErrors, NonIntegerStepsAreRejected) {
  EXPECT_HAS(error_of(with(kFull, "steps: 1000", "steps: 2.5")),
             "wd.yaml:16: run.steps: 2.5 is not an integer; expected an integer >= 0");
  EXPECT_EQ(parse_config(with(kFull, "steps: 1000", "steps: 1e3"), "wd.yaml").run.steps, 1000);
}

TEST(ConfigErrors, UndeclaredSpeciesIsNamed) {
  const std::string message = error_of(with(kFull, "C: 30}", "Ne: 30}"));
  EXPECT_HAS(message,
             "wd.yaml:11: system.structure.generate.counts.Ne: species 'Ne' is not "
             "declared in system.species; expected one of C, O");
}

TEST(ConfigParse, NucleonsCarryIsospin) {
  const std::string text = with(kMinimal, "species: [{name: A, mass: 1}]",
                                "species: [{name: p, charge: 1, mass: 939, isospin: +1},\n"
                                "            {name: n, mass: 939.6, isospin: -1}]");
  const auto species = with(text, "counts: {A: 100}", "counts: {p: 40, n: 60}");
  const Config config = parse_config(species, "pasta.yaml");
  EXPECT_EQ(config.system.species[0].isospin, 1);
  EXPECT_EQ(config.system.species[1].isospin, -1);
  EXPECT_EQ(config.system.species[1].charge, 0.0);
}

TEST(ConfigErrors, IsospinIsPlusMinusOneOrZero) {
  EXPECT_HAS(error_of(with(kFull, "isospin: 0", "isospin: 2")),
             "wd.yaml:9: system.species[1].isospin: 2 is not an isospin; expected +1 (proton), "
             "-1 (neutron) or 0");
}

TEST(ConfigErrors, DuplicateSpeciesAndKeysAreRejected) {
  EXPECT_HAS(error_of(with(kFull, "{name: O,", "{name: C,")),
             "wd.yaml:9: system.species[1].name: species 'C' is declared twice");
  EXPECT_HAS(error_of(with(kFull, "run: {steps: 1000}", "run: {steps: 1000, steps: 2}")),
             "wd.yaml:16: run.steps: key appears twice");
}

TEST(ConfigErrors, BoxAndDensityAreMutuallyExclusive) {
  const std::string message = error_of(with(kFull, "  box: [100.0, 120.0, 140.0]\n",
                                            "  box: [100.0, 120.0, 140.0]\n  density: 0.1\n"));
  EXPECT_HAS(message, "wd.yaml:7: system.density: cannot be given together with system.box");
  EXPECT_HAS(error_of(with(kFull, "  box: [100.0, 120.0, 140.0]\n", "")),
             "wd.yaml:5: system: neither box nor density is given");
}

TEST(ConfigErrors, BadBoxShapes) {
  EXPECT_HAS(error_of(with(kFull, "box: [100.0, 120.0, 140.0]", "box: [100, 120]")),
             "system.box: found a list of 2; expected a positive number or a list of 1 or 3");
  EXPECT_HAS(error_of(with(kFull, "box: [100.0, 120.0, 140.0]", "box: [100, -1, 3]")),
             "system.box[1]: -1 is out of range; expected a number > 0");
}

TEST(ConfigErrors, CutoffOverHalfTheBoxIsRejected) {
  const std::string message = error_of(with(kFull, "cutoff: 40.0", "cutoff: 60"));
  EXPECT_HAS(message,
             "wd.yaml:14: forces[0].yukawa.cutoff: 60 is more than half the shortest "
             "box edge (50); expected none or a number <= 50");
  EXPECT_HAS(error_of(with(kFull, "cutoff: 40.0", "cutoff: nothing")),
             "forces[0].yukawa.cutoff: 'nothing' is not a number; expected none or a number > 0");
}

TEST(ConfigErrors, FractionsMustAddUpToOne) {
  const std::string message =
      error_of(with(kFull, "counts: {O: 10, C: 30}", "fractions: {O: 0.5, C: 0.4}, total: 10"));
  EXPECT_HAS(message,
             "wd.yaml:11: system.structure.generate.fractions: the fractions add up to "
             "0.9; expected fractions adding up to 1");
  EXPECT_HAS(error_of(with(kFull, "counts: {O: 10, C: 30}", "fractions: {O: 0.5, C: 0.5}")),
             "system.structure.generate.total: required key is missing");
}

TEST(ConfigErrors, LatticeOptionsAreChecked) {
  const std::string lattice = "lattice: random";
  EXPECT_HAS(error_of(with(kFull, lattice, "lattice: fcc")),
             "system.structure.generate.min_separation: min_separation is only for random");
  EXPECT_HAS(error_of(with(kFull, "min_separation: 1.5", "cells: [2]")),
             "system.structure.generate.cells: cells are only for a lattice");
  const std::string filled =
      with(with(kFull, lattice, "lattice: bcc"), "min_separation: 1.5", "cells: 3");
  EXPECT_HAS(error_of(filled),
             "system.structure.generate.counts: the counts add up to 40 but "
             "the cells hold 54 sites; expected counts adding up to 54");
  EXPECT_HAS(error_of(with(kFull, lattice, "lattice: hcp")),
             "system.structure.generate.lattice: unknown value 'hcp'");
}

TEST(ConfigErrors, BadUnitsAreNamed) {
  EXPECT_HAS(error_of(with(kFull, "units: nuclear", "units: nuclaer")),
             "wd.yaml:1: units: unknown value 'nuclaer' (did you mean 'nuclear'?); expected "
             "nuclear, lj or real");
}

TEST(ConfigParse, CheckpointWalltimeConsoleAndColumns) {
  const Config config = parse_config(
      with(with(kFull, "run: {steps: 1000}", "run: {steps: 1000, walltime: \"23:50:00\"}"),
           "thermo: {every: 10, file: t.csv}",
           "thermo: {every: 10, file: t.csv, columns: [density, thermostat_energy]}") +
          "  checkpoint: {every: 10000, file: run.chk}\n  console: {every: 0}\n",
      "wd.yaml");
  EXPECT_EQ(*config.run.walltime, 23 * 3600 + 50 * 60);
  EXPECT_TRUE(config.output.checkpoint.configured);
  EXPECT_EQ(config.output.checkpoint.every, 10000);
  EXPECT_EQ(config.output.checkpoint.file, "run.chk");
  EXPECT_EQ(config.output.console.every, 0);
  EXPECT_EQ(config.output.thermo.columns,
            (std::vector<std::string>{"density", "thermostat_energy"}));
}

TEST(ConfigParse, ThermostatsTakeTheirKeys) {
  const auto langevin = parse_config(
      with(kFull, "type: velocity_verlet", "type: langevin, temperature: 0.002, friction: 0.01"),
      "wd.yaml");
  EXPECT_EQ(langevin.integrator.type, "langevin");
  EXPECT_EQ(*langevin.integrator.temperature, 0.002);
  EXPECT_EQ(langevin.integrator.friction, 0.01);
  const auto chain = parse_config(
      with(kFull, "type: velocity_verlet", "type: nose_hoover, temperature: 0.002, tau: 2000"),
      "wd.yaml");
  EXPECT_EQ(chain.integrator.chain, 3);  // the default chain length
  EXPECT_EQ(chain.integrator.tau, 2000.0);
}

TEST(ConfigErrors, ThermostatKeysAreCheckedPerIntegrator) {
  EXPECT_HAS(error_of(with(kFull, "type: velocity_verlet", "type: langevin, temperature: 0.002")),
             "wd.yaml:15: integrator.friction: required key is missing");
  EXPECT_HAS(error_of(with(kFull, "type: velocity_verlet",
                           "type: bussi, temperature: 0.002, tau: 1, friction: 2")),
             "integrator.friction");
  EXPECT_HAS(error_of(with(kFull, "type: velocity_verlet",
                           "type: nose_hoover, temperature: 0.002, tau: 1, chain: 0")),
             "integrator.chain: 0 is out of range");
  EXPECT_HAS(error_of(with(kFull, "type: velocity_verlet", "type: langevn")),
             "integrator.type: unknown value 'langevn' (did you mean 'langevin'?)");
}

TEST(ConfigErrors, WalltimeMustBeADuration) {
  EXPECT_HAS(error_of(with(kFull, "run: {steps: 1000}", "run: {steps: 1000, walltime: 1:70:00}")),
             "run.walltime: '1:70:00' is not a duration");
}

TEST(ConfigErrors, TrajectoryFormatsAndFields) {
  EXPECT_HAS(error_of(with(kFull, "file: out.xyz", "file: out.trj")),
             "'out.trj' has no extension that names a format");
  EXPECT_HAS(error_of(with(kFull, "file: out.xyz", "file: out.dcd")),
             "output.trajectory.fields: DCD files hold positions only");
  EXPECT_HAS(error_of(with(kFull, "fields: [position, velocity]", "fields: {position: 10}")),
             "output.trajectory.fields: per-field intervals need the h5md format");
  EXPECT_HAS(error_of(with(kFull, "thermo: {every: 10, file: t.csv}",
                           "thermo: {every: 10, file: t.csv, columns: [densty]}")),
             "(did you mean 'density'?)");
}

TEST(ConfigErrors, YamlSyntaxErrorNamesFileAndLine) {
  const std::string message = error_of(with(kFull, "run: {steps: 1000}", "run: {steps: 1000"));
  EXPECT_HAS(message, "wd.yaml:");
  EXPECT_HAS(message, "YAML syntax error");
  const std::string indented = error_of(with(kFull, "  velocities:", "   velocities:"));
  EXPECT_HAS(indented, "wd.yaml:12: YAML syntax error");
}

TEST(ConfigErrors, EmptyOrNonMapDocument) {
  EXPECT_HAS(error_of(""), "wd.yaml:1: the config is empty");
  EXPECT_HAS(error_of("- 1\n- 2\n"), "wd.yaml:1: found a list; expected a map");
}

TEST(ConfigErrors, StructureNeedsExactlyOneSource) {
  EXPECT_HAS(error_of(with(kFull, "generate:", "make:")),
             "wd.yaml:11: system.structure.make: unknown key; expected one of generate, read");
  EXPECT_HAS(error_of(with(kFull, "    generate:", "    read: a.xyz\n    generate:")),
             "system.structure.read: cannot be given together with generate");
}

TEST(ConfigErrors, MissingFileIsAnInputError) {
  try {
    novamd::io::load_config("/nonexistent/novamd/wd.yaml");
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_HAS(std::string(error.what()),
               "cannot read config file '/nonexistent/novamd/wd.yaml': no such file");
  }
}

TEST(ConfigErrors, ATabInTheIndentationIsNamed) {
  const std::string tabbed = with(kFull, "  box:", "\tbox:");
  EXPECT_HAS(error_of(tabbed), "is indented with a tab, which YAML does not allow");
  // A tab inside a value is no indentation: no hint there.
  try {
    novamd::io::parse_config("units: lj\nseed: [1,\t2\n", "t.yaml");
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).find("indented with a tab"), std::string::npos)
        << error.what();
  }
}

TEST(ConfigErrors, AnotherEnginesUnitsAreRefusedWithWhatEachSystemIs) {
  const std::string message = error_of(with(kFull, "units: nuclear", "units: metal"));
  EXPECT_HAS(message, "wd.yaml:1: units: 'metal' units (LAMMPS's) are not supported; expected "
                      "nuclear (fm, MeV, fm/c), lj (reduced");
  EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
}

TEST(ConfigErrors, FileErrorsNameTheFile) {
  novamd::test::TempDir dir;
  const auto file = dir.write("bad.yaml", with(kFull, "timestep: 200.0", "timestep: 0"));
  try {
    novamd::io::load_config(file);
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_HAS(std::string(error.what()), file.string() + ":15: integrator.timestep: 0 is out");
  }
}

// --- overrides ---------------------------------------------------------------------------------

TEST(ConfigOverrides, OverrideReplacesValues) {
  const Config config = parse_config(
      kFull, "wd.yaml",
      {{"forces.0.yukawa.cutoff", "none"}, {"run.steps", "5"}, {"system.box", "[10, 20, 30]"}});
  EXPECT_TRUE(std::isinf(novamd::forces::cutoff_of(config.forces[0])));
  EXPECT_EQ(config.run.steps, 5);
  EXPECT_EQ(*config.system.box, (std::array<double, 3>{10.0, 20.0, 30.0}));
}

TEST(ConfigOverrides, OverrideCreatesMissingMaps) {
  const Config config = parse_config(
      kMinimal, "min.yaml",
      {{"output.thermo.every", "5"}, {"system.velocities", "{temperature: 1.5}"}, {"seed", "9"}});
  EXPECT_EQ(config.output.thermo.every, 5);
  EXPECT_EQ(config.system.velocities.temperature, 1.5);
  EXPECT_EQ(config.seed, 9u);
}

TEST(ConfigOverrides, OverrideAppendsToAList) {
  const Config config =
      parse_config(kMinimal, "min.yaml", {{"forces.1", "{yukawa: {screening_length: 3}}"}});
  ASSERT_EQ(config.forces.size(), 2u);
  EXPECT_EQ(std::get<novamd::forces::YukawaSettings>(config.forces[1]).screening_length, 3.0);
}

TEST(ConfigOverrides, InvalidOverrideValueNamesTheOverrideAndKey) {
  EXPECT_HAS(error_of(kFull, {{"integrator.timestep", "-1"}}),
             "wd.yaml: --set integrator.timestep=-1: integrator.timestep: -1 is out of range; "
             "expected a number > 0");
  EXPECT_HAS(error_of(kFull, {{"system.boxx", "3"}}),
             "wd.yaml: --set system.boxx=3: system.boxx: unknown key; did you mean 'box'?");
  EXPECT_HAS(error_of(kFull, {{"forces.0.yukawa", "{cutoff: 4}"}}),
             "wd.yaml: --set forces.0.yukawa={cutoff: 4}: forces[0].yukawa.screening_length: "
             "required key is missing");
}

TEST(ConfigOverrides, PathThroughAPlainValueIsAnError) {
  EXPECT_HAS(error_of(kFull, {{"units.name", "lj"}}),
             "wd.yaml: --set units.name=lj: units holds the plain value 'nuclear', which has no "
             "key 'name'");
}

TEST(ConfigOverrides, BadListIndexOrPathIsAnError) {
  EXPECT_HAS(error_of(kFull, {{"forces.5.yukawa.cutoff", "1"}}),
             "--set forces.5.yukawa.cutoff=1: index 5 is past the end of the list forces");
  EXPECT_HAS(error_of(kFull, {{"forces.yukawa.cutoff", "1"}}),
             "--set forces.yukawa.cutoff=1: 'yukawa' is not an index into the list forces");
  EXPECT_HAS(error_of(kFull, {{"run..steps", "1"}}),
             "--set run..steps=1: the key path has an empty component");
  EXPECT_HAS(error_of(kFull, {{"run.steps", "[1, 2"}}),
             "--set run.steps=[1, 2: the value is not valid YAML");
}

// --- helpers -----------------------------------------------------------------------------------

TEST(ConfigYamlReader, EditDistanceAndNearestName) {
  EXPECT_EQ(novamd::io::edit_distance("box", "box"), 0u);
  EXPECT_EQ(novamd::io::edit_distance("boxx", "box"), 1u);
  EXPECT_EQ(novamd::io::edit_distance("nuclaer", "nuclear"), 1u);  // a swap is one edit
  EXPECT_EQ(novamd::io::edit_distance("", "abc"), 3u);
  EXPECT_EQ(novamd::io::nearest_name("sytem", {"units", "system", "seed"}), "system");
  EXPECT_FALSE(novamd::io::nearest_name("frobnicate", {"units", "system"}).has_value());
}

// --- the command line --------------------------------------------------------------------------

void expect_clean_input_error(const novamd::test::CliResult& result, const std::string& key) {
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_HAS(result.output, key);
  EXPECT_EQ(result.output.find("terminate called"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("what():"), std::string::npos) << result.output;
}

TEST(ConfigCli, BadValueExitsWithCode2AndNamesTheKey) {
  novamd::test::TempDir dir;
  dir.write("bad.yaml", with(kFull, "timestep: 200.0", "timestep: -1"));
  const auto result = novamd::test::run_novamd("run bad.yaml", dir.path());
  expect_clean_input_error(result, "integrator.timestep");
  EXPECT_HAS(result.output, "bad.yaml:15");
}

TEST(ConfigCli, UnknownKeyExitsWithCode2AndSuggests) {
  novamd::test::TempDir dir;
  dir.write("bad.yaml", with(kFull, "box:", "boxx:"));
  const auto result = novamd::test::run_novamd("run bad.yaml", dir.path());
  expect_clean_input_error(result, "system.boxx");
  EXPECT_HAS(result.output, "did you mean 'box'?");
}

TEST(ConfigCli, MissingConfigExitsWithCode2) {
  novamd::test::TempDir dir;
  const auto result = novamd::test::run_novamd("run absent.yaml", dir.path());
  expect_clean_input_error(result, "absent.yaml");
}

TEST(ConfigCli, BadOverrideExitsWithCode2) {
  novamd::test::TempDir dir;
  dir.write("wd.yaml", kFull);
  const auto result = novamd::test::run_novamd("run wd.yaml --set units.name=lj", dir.path());
  expect_clean_input_error(result, "--set units.name=lj");
}

TEST(ConfigCli, BadConfigOverwritesNothing) {
  novamd::test::TempDir dir;
  dir.write("t.csv", "keep me\n");
  dir.write("out.xyz", "keep me too\n");
  dir.write("bad.yaml", with(kFull, "steps: 1000", "steps: 2.5"));
  const auto result = novamd::test::run_novamd("run bad.yaml", dir.path());
  expect_clean_input_error(result, "run.steps");
  const auto read = [&](const char* name) {
    std::ifstream in(dir.path() / name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  EXPECT_EQ(read("t.csv"), "keep me\n");
  EXPECT_EQ(read("out.xyz"), "keep me too\n");
}

}  // namespace
