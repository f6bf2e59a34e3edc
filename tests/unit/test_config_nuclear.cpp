// The nuclear force term in the config: defaults (Horowitz's parameters), parsed values, every
// error naming its key path, and exit code 2 from the command line.

#include <gtest/gtest.h>

#include <string>

#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::io::parse_config;

/// Protons and neutrons in a 40 fm box, with the nuclear block `nuclear` and Coulomb between
/// protons; `species` replaces the two nucleon species.
std::string pasta_config(const std::string& nuclear,
                         const std::string& species =
                             "[{name: p, charge: 1, mass: 939.0, isospin: 1}, "
                             "{name: n, mass: 939.0, isospin: -1}]") {
  return "units: nuclear\n"
         "system:\n"
         "  box: [40, 40, 40]\n"
         "  species: " +
         species +
         "\n"
         "  structure: {generate: {lattice: random, counts: {p: 40, n: 60}, min_separation: 1}}\n"
         "  velocities: {temperature: 1.0}\n"
         "forces:\n"
         "  - nuclear: " +
         nuclear +
         "\n"
         "  - yukawa: {screening_length: 10.0, cutoff: 20.0}\n"
         "integrator: {type: velocity_verlet, timestep: 2.0}\n"
         "run: {steps: 0}\n";
}

/// The message of the InputError that parsing `text` raises.
std::string error_of(const std::string& text) {
  return novamd::test::input_error_of([&] { parse_config(text, "pasta.yaml"); });
}

TEST(ConfigNuclear, DefaultsAreHorowitzsParameters) {
  const auto config = parse_config(pasta_config("{}"), "pasta.yaml");
  ASSERT_EQ(config.forces.size(), 2u);
  const auto& n = std::get<novamd::forces::NuclearSettings>(config.forces[0]);
  // Horowitz et al., Phys. Rev. C 69, 045804 (2004): 110 MeV, -26 MeV, 24 MeV, 1.25 fm^2.
  EXPECT_EQ(n.a, 110.0);
  EXPECT_EQ(n.b, -26.0);
  EXPECT_EQ(n.c, 24.0);
  EXPECT_EQ(n.lambda, 1.25);
  EXPECT_EQ(n.cutoff, 10.0);
  EXPECT_EQ(n.truncation, novamd::forces::Truncation::Cut);
  EXPECT_TRUE(std::holds_alternative<novamd::forces::YukawaSettings>(config.forces[1]));
}

TEST(ConfigNuclear, ParsesEveryKey) {
  const auto config = parse_config(
      pasta_config("{a: 100.0, b: -20.0, c: 30.0, Lambda: 1.5, cutoff: 8.5, shift: force}"),
      "pasta.yaml");
  const auto& n = std::get<novamd::forces::NuclearSettings>(config.forces[0]);
  EXPECT_EQ(n.a, 100.0);
  EXPECT_EQ(n.b, -20.0);
  EXPECT_EQ(n.c, 30.0);
  EXPECT_EQ(n.lambda, 1.5);
  EXPECT_EQ(n.cutoff, 8.5);
  EXPECT_EQ(n.truncation, novamd::forces::Truncation::ShiftForce);
  const auto none = parse_config(pasta_config("{cutoff: none, shift: energy}"), "pasta.yaml");
  const auto& all_pairs = std::get<novamd::forces::NuclearSettings>(none.forces[0]);
  EXPECT_TRUE(std::isinf(all_pairs.cutoff));
  EXPECT_EQ(all_pairs.truncation, novamd::forces::Truncation::ShiftEnergy);
}

TEST(ConfigNuclear, EveryErrorNamesItsKey) {
  const struct {
    std::string block, key, what;
  } cases[] = {
      {"{Lamda: 1.3}", "forces[0].nuclear.Lamda", "did you mean 'Lambda'"},
      {"{Lambda: 0}", "forces[0].nuclear.Lambda", "> 0"},
      {"{a: fast}", "forces[0].nuclear.a", "a number"},
      {"{cutoff: -2}", "forces[0].nuclear.cutoff", "> 0"},
      {"{cutoff: 25}", "forces[0].nuclear.cutoff", "more than half the shortest box edge (20)"},
      {"{shift: smooth}", "forces[0].nuclear.shift", "none, energy or force"},
      {"110", "forces[0].nuclear", "a map"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(pasta_config(c.block));
    EXPECT_NE(message.find("pasta.yaml:"), std::string::npos) << c.block << "\n" << message;
    EXPECT_NE(message.find(c.key), std::string::npos) << c.block << "\n" << message;
    EXPECT_NE(message.find(c.what), std::string::npos) << c.block << "\n" << message;
  }
}

TEST(ConfigNuclear, TheDefaultCutoffInATooSmallBoxIsReportedAtTheTerm) {
  std::string config = pasta_config("{}");
  config.replace(config.find("box: [40, 40, 40]"), 17, "box: [40, 18, 40]");
  config.replace(config.find("cutoff: 20.0"), 12, "cutoff: 9.0");
  const std::string message = error_of(config);
  EXPECT_NE(message.find("forces[0].nuclear: the default cutoff 10 is more than half the "
                         "shortest box edge (9); expected cutoff: none or a number <= 9"),
            std::string::npos)
      << message;
}

TEST(ConfigNuclear, ASpeciesThatIsNoNucleonIsNamed) {
  const std::string message =
      error_of(pasta_config("{}",
                            "[{name: p, charge: 1, mass: 939.0, isospin: 1}, "
                            "{name: n, mass: 939.0, isospin: -1}, {name: e, mass: 0.511}]"));
  EXPECT_NE(message.find("forces[0].nuclear: species 'e' has no isospin (isospin: 0)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("expected every species in system.species to be a nucleon, with "
                         "isospin: 1 (proton) or isospin: -1 (neutron)"),
            std::string::npos)
      << message;
}

TEST(ConfigNuclear, BadInputExitsWithCode2NamingFileAndKey) {
  novamd::test::TempDir dir;
  dir.write("pasta.yaml", pasta_config("{Lambda: -1.25}"));
  const auto result = novamd::test::run_novamd("run pasta.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("pasta.yaml:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("forces[0].nuclear.Lambda"), std::string::npos) << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));  // nothing run
}

}  // namespace
