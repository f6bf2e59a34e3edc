// The lennard_jones force term in the config: parsed values, every error path, and the tail
// correction in the thermo output.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"

namespace {

using novamd::io::parse_config;

/// An LJ fluid config whose lennard_jones block is `lj`.
std::string lj_config(const std::string& lj) {
  return "units: lj\n"
         "system:\n"
         "  density: 0.8442\n"
         "  species: [{name: A, mass: 1}, {name: B, mass: 2}]\n"
         "  structure: {generate: {lattice: fcc, cells: 4, fractions: {A: 0.5, B: 0.5}}}\n"
         "  velocities: {temperature: 1.44}\n"
         "forces:\n"
         "  - lennard_jones: " +
         lj +
         "\n"
         "integrator: {type: velocity_verlet, timestep: 0.005}\n"
         "run: {steps: 0}\n";
}

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "lj.yaml");
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigLennardJones, ParsesPairsCutoffTruncationAndTail) {
  const auto config = parse_config(
      lj_config("{pairs: [{types: [A, A], epsilon: 1.0, sigma: 1.0}, {types: [B, B], epsilon: "
                "0.5, sigma: 0.88}, {types: [A, B], xi: 0.95, eta: 1.02}], cutoff: 2.5, "
                "truncation: shift, tail_correction: true}"),
      "lj.yaml");
  const auto& lj = std::get<novamd::forces::LennardJonesSettings>(config.forces.at(0));
  ASSERT_EQ(lj.pairs.size(), 3u);
  EXPECT_EQ(lj.pairs[2].species_a, "A");
  EXPECT_DOUBLE_EQ(lj.pairs[2].xi, 0.95);
  EXPECT_DOUBLE_EQ(lj.pairs[2].eta, 1.02);
  EXPECT_FALSE(lj.pairs[2].epsilon.has_value());
  EXPECT_DOUBLE_EQ(lj.cutoff, 2.5);
  EXPECT_EQ(lj.truncation, novamd::forces::Truncation::ShiftEnergy);
  EXPECT_TRUE(lj.tail_correction);
}

TEST(ConfigLennardJones, EveryErrorNamesItsKey) {
  const std::string like = "{types: [A, A], epsilon: 1.0, sigma: 1.0}";
  const struct {
    std::string block, key, what;
  } cases[] = {
      {"{pairs: [{types: [A, C], epsilon: 1, sigma: 1}], cutoff: 2.5}",
       "forces[0].lennard_jones.pairs[0].types[1]", "species 'C' is not declared"},
      {"{pairs: [{types: [A, A], xi: 0.9}], cutoff: 2.5}", "forces[0].lennard_jones.pairs[0]",
       "like pair needs its parameters"},
      {"{pairs: [{types: [A, A], epsilon: 1}], cutoff: 2.5}", "forces[0].lennard_jones.pairs[0]",
       "epsilon and sigma come together"},
      {"{pairs: [" + like + ", " + like + "], cutoff: 2.5}", "forces[0].lennard_jones.pairs[1]",
       "listed twice"},
      {"{pairs: [" + like + "], cutoff: -1}", "forces[0].lennard_jones.cutoff", "out of range"},
      {"{pairs: [" + like + "]}", "forces[0].lennard_jones.cutoff", "missing"},
      {"{pairs: [" + like + "], cutoff: 2.5, truncation: smooth}",
       "forces[0].lennard_jones.truncation", "cut, shift or force_shift"},
      {"{pairs: [" + like + "], cutoff: 2.5, truncation: force_shift, tail_correction: true}",
       "forces[0].lennard_jones.tail_correction", "no tail"},
      {"{pairs: [" + like + "], cutof: 2.5}", "forces[0].lennard_jones.cutof", "did you mean"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(lj_config(c.block));
    EXPECT_NE(message.find(c.key), std::string::npos) << c.block << "\n" << message;
    EXPECT_NE(message.find(c.what), std::string::npos) << c.block << "\n" << message;
  }
}

/// The potential energy (column 5) of the single thermo row a run of zero steps writes.
double initial_potential_energy(const novamd::test::TempDir& dir, const std::string& config) {
  dir.write("lj.yaml", config);
  const auto result = novamd::test::run_novamd("run lj.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(dir.path() / "thermo.csv");
  std::string units, header, row;
  std::getline(in, units);
  std::getline(in, header);
  std::getline(in, row);
  std::stringstream cells(row);
  std::string cell;
  for (int column = 0; column < 5; ++column) std::getline(cells, cell, ',');
  return std::stod(cell);
}

TEST(ConfigLennardJones, TailCorrectionIsAddedToTheThermoEnergy) {
  novamd::test::TempDir dir;
  const std::string pairs = "{pairs: [{types: [A, A], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5";
  std::string config = lj_config(pairs + "}");
  // One species only: every site A.
  config.replace(config.find("fractions: {A: 0.5, B: 0.5}"), 27, "fractions: {A: 1.0}");
  const double without = initial_potential_energy(dir, config);
  std::string with_tail = lj_config(pairs + ", tail_correction: true}");
  with_tail.replace(with_tail.find("fractions: {A: 0.5, B: 0.5}"), 27, "fractions: {A: 1.0}");
  const double with = initial_potential_energy(dir, with_tail);
  // N = 4 x 4^3 = 256 at rho = 0.8442: E_tail = (8/3) pi N rho [rc^-9 / 3 - rc^-3].
  const double n = 256, rho = 0.8442, rc = 2.5;
  const double tail =
      8.0 / 3.0 * std::numbers::pi * n * rho * (std::pow(rc, -9) / 3 - std::pow(rc, -3));
  EXPECT_NEAR(with - without, tail, 1e-9 * std::abs(tail));
}

}  // namespace
